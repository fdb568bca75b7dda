"""The game registry and the check registry are the sources of truth.

- Every ``GameSpec`` (ruleproof/model/games.py) points at pieces that exist, and the lists of games
  elsewhere (the JSON Schemas' enums) agree with it.
- A game's clause list (``all_clauses``) is what its checks and hooks declare, its deal clause
  and its fixtures' clauses, in the rules document's order.
- Each check declares exactly the clauses it can report: statically (tests/clause_scan.py reads
  the check and every helper it calls) and at run time (a short certification of the reference
  records which check reported which clause).
"""

from __future__ import annotations

import importlib
import json
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ruleproof import GAMES
from ruleproof.model import clauses, schema
from ruleproof.model.fixtures import bundled
from ruleproof.model.games import CONTRACT_DOC, CONTRACT_PREFIX, SPECS, spec
from ruleproof.properties import PROPERTIES, available_games, properties_for
from ruleproof.properties.base import GameProperties
from ruleproof.properties.contract import CONTRACT_CLAUSES
from ruleproof.reference import RULES, rules_for
from ruleproof.reference.base import ReferenceEngine
from ruleproof.run.runner import PROFILES, certify_game
from ruleproof.transport.checked import CheckedEngine
from tests.clause_scan import reachable
from tests.mutants import MODULES, all_mutants

ROOT = Path(__file__).resolve().parent.parent
HOOKS = ("start", "illegal_moves", "after_rejection", "deal", "choose", "setups")
# Clauses a check reports only when the rule is broken (a `fail`, or an `expect` of something
# false): a certification of the reference never reaches them.  The test below fails when this
# list no longer matches what the run shows, so it cannot go stale.
ONLY_ON_A_VIOLATION: dict[tuple[str, str], set[str]] = {
    **{(game, "start"): {"CONTRACT-SETUP-2"} for game in GAMES},  # an accepted forbidden option
    ("idiot", "turn_outcome"): {"IDIOT-BLIND-1", "IDIOT-INV-1", "IDIOT-INV-9", "IDIOT-PICKUP-3", "IDIOT-SWAP-1"},
    ("idiot", "legal_moves"): {"IDIOT-END-1", "IDIOT-RANK-1"},  # a listed move the rules forbid
}


# -- the game registry -------------------------------------------------------------------------
def test_games_come_from_the_registry() -> None:
    names = [s.name for s in SPECS]
    assert list(GAMES) == names == available_games() == list(RULES) == list(MODULES)
    assert len(set(names)) == len(names)
    assert {s.name: s.properties for s in SPECS} == PROPERTIES


@pytest.mark.parametrize("game", GAMES)
def test_each_spec_points_at_its_pieces(game: str) -> None:
    s = spec(game)
    assert rules_for(game).game == game
    assert properties_for(game).game == game
    assert (ROOT / "ruleproof" / "schemas" / s.schema).is_file()
    assert (ROOT / "fixtures" / s.fixtures).is_dir() and bundled(game)
    documented = clauses.document(s.rules_doc)
    assert documented and all(c.startswith(s.prefix) for c in documented), s.rules_doc
    mutants = all_mutants(game)
    assert mutants and all(m.clause.startswith((s.prefix, CONTRACT_PREFIX)) for m in mutants)
    assert importlib.import_module(s.mutants)


def test_prefixes_are_distinct() -> None:
    prefixes = [s.prefix for s in SPECS] + [CONTRACT_PREFIX]
    assert all(not a.startswith(b) for a in prefixes for b in prefixes if a != b)


def _enums(node: Any) -> Iterator[list[Any]]:
    if isinstance(node, dict):
        if isinstance(node.get("enum"), list):
            yield node["enum"]
        for value in node.values():
            yield from _enums(value)
    elif isinstance(node, list):
        for value in node:
            yield from _enums(value)


@pytest.mark.parametrize("name", ["protocol", "fixture"])
def test_schema_game_enums_come_from_the_registry(name: str) -> None:
    """The files name no game: ``schema.load`` fills the registry's games in, so no list drifts."""
    on_disk = json.loads((ROOT / "ruleproof" / "schemas" / f"{name}.json").read_text(encoding="utf-8"))
    assert not [e for e in _enums(on_disk) if set(e) & set(GAMES)], f"{name}.json lists games by hand"
    loaded = schema.load(name)
    assert loaded["$defs"]["game"]["enum"] == list(GAMES)
    with pytest.raises(schema.SchemaError, match="chess"):
        if name == "protocol":
            schema.check(
                name,
                None,
                {"protocol": 1, "engine": {"name": "x", "version": "1"}, "games": {"chess": {"players": [2]}}},
                "hello",
            )
        else:
            schema.check(
                name,
                None,
                {"id": "x", "game": "chess", "title": "t", "clauses": ["BM-LEAD-1"], "setup": {}, "steps": []},
                "fixture",
            )


# -- the check registry --------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_all_clauses_come_from_the_checks_and_fixtures(game: str) -> None:
    props = properties_for(game)
    stated = {*props.checks.clauses(), props.deal_clause}
    stated |= {c for fx in bundled(game) for c in fx.clauses}
    stated |= {step["clause"] for fx in bundled(game) for step in fx.steps if "clause" in step}
    table = props.all_clauses()
    assert set(table) == stated | set(CONTRACT_CLAUSES)
    assert len(table) == len(set(table))
    order = [*clauses.document(spec(game).rules_doc), *clauses.document(CONTRACT_DOC)]
    own = table[: len(table) - len(CONTRACT_CLAUSES)]
    assert own == sorted(own, key=order.index), "the verdict table follows the rules document"
    assert table[len(own) :] == list(CONTRACT_CLAUSES)
    named_elsewhere = {*props.covered_only, *props.situations}
    named_elsewhere |= {c for group in props.option_clauses.values() for c in group}
    assert named_elsewhere <= set(table)


@pytest.mark.parametrize("game", GAMES)
def test_each_check_declares_what_it_can_report(game: str) -> None:
    """Statically: the clause IDs a check (and every helper it calls) names are the ones it declares."""
    props = properties_for(game)
    wrong = {}
    for check in props.checks.every():
        named = reachable(check.fn, props)
        if named != set(check.clauses):
            wrong[check.name] = {
                "undeclared": sorted(named - set(check.clauses)),
                "never named": sorted(set(check.clauses) - named),
            }
    assert not wrong, wrong


@pytest.mark.parametrize("game", GAMES)
def test_hooks_that_report_are_declared(game: str) -> None:
    props = properties_for(game)
    declared = {h.name for h in props.checks.hooks}
    assert declared <= set(HOOKS)
    for name in HOOKS:
        fn = inspect_static(props, name)
        if fn is not None and reachable(fn, props):
            assert name in declared, f"{game}: {name} reports clauses but has no @checks.hook(...)"


def inspect_static(props: type[GameProperties], name: str) -> Any:
    """The hook as the subclass defines it (None when it keeps the base's)."""
    fn = vars(props).get(name)
    return fn.__func__ if isinstance(fn, (classmethod, staticmethod)) else fn


@pytest.mark.parametrize("game", GAMES)
def test_each_check_reports_what_it_declares_on_the_reference(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """At run time: which check reported which clause, over a short certification of the reference."""
    seen = record_reports(monkeypatch, properties_for(game))
    report = certify_game(CheckedEngine(ReferenceEngine([rules_for(game)])), game, PROFILES["dev"], seed=1)
    assert not report.failures and not report.check_errors
    props = properties_for(game)
    names = {c.name for c in props.checks.every()}
    assert set(seen) <= names | {"illegal_moves"}, (
        f"reported outside any check: { {k: seen[k] for k in set(seen) - names} }"
    )
    for check in props.checks.every():
        if check.name == "illegal_moves":  # its clauses are reported when an engine accepts a probe
            continue
        got = seen.get(check.name, set())
        assert got <= set(check.clauses), f"{check.name} reported undeclared {sorted(got - set(check.clauses))}"
        unreached = set(check.clauses) - got
        assert unreached == ONLY_ON_A_VIOLATION.get((game, check.name), set()), (check.name, sorted(unreached))


def record_reports(monkeypatch: pytest.MonkeyPatch, props: type[GameProperties]) -> dict[str, set[str]]:
    """Patch the reporting methods so each clause reported is filed under the check running."""
    seen: dict[str, set[str]] = defaultdict(set)
    current = ["outside"]
    base = {name: getattr(GameProperties, name) for name in ("expect", "cover", "fail", "situation", "guarded")}

    def expect(self: GameProperties, clause: str, ok: bool, *rest: Any, **named: Any) -> None:
        seen[current[0]].add(clause)
        base["expect"](self, clause, ok, *rest, **named)

    def cover(self: GameProperties, *named: str) -> None:
        seen[current[0]].update(named)
        base["cover"](self, *named)

    def fail(self: GameProperties, clause: str, *rest: Any, **named: Any) -> None:
        seen[current[0]].add(clause)
        base["fail"](self, clause, *rest, **named)

    def situation(self: GameProperties, clause: str, name: str) -> None:
        seen[current[0]].add(clause)
        base["situation"](self, clause, name)

    def guarded(self: GameProperties, name: str, fn: Any, *args: Any) -> Any:
        outer, current[0] = current[0], name
        try:
            return base["guarded"](self, name, fn, *args)
        finally:
            current[0] = outer

    start = props.start

    def started(self: GameProperties, snap: Any) -> None:
        outer, current[0] = current[0], "start"
        try:
            start(self, snap)
        finally:
            current[0] = outer

    for name, fn in {
        "expect": expect,
        "cover": cover,
        "fail": fail,
        "situation": situation,
        "guarded": guarded,
    }.items():
        monkeypatch.setattr(GameProperties, name, fn)
    monkeypatch.setattr(props, "start", started)
    return seen
