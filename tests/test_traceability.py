"""Traceability: every documented clause is checked, and code cites only documented clauses.

``docs/rules/GAME.md`` states each clause as a bold list item (``- **BM-FOLLOW-1** — ...``).
Each such clause must be reported by the game's properties and checked by a property or a
fixture; every clause ID cited anywhere in the code, fixtures or mutants must be defined in
the docs; and the docs define no ID that rules.md (or the contract doc) does not.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ruleproof.model.fixtures import bundled
from ruleproof.model.games import CONTRACT_PREFIX, SPECS, clause_prefixes
from ruleproof.properties import available_games, properties_for

ROOT = Path(__file__).resolve().parent.parent
RULES_MD = ROOT.parent / "shared" / "rules.md"
# every prefix the registry knows (ruleproof/model/games.py), e.g. (?:BM|IDIOT|...|CONTRACT)
PREFIXES = "(?:" + "|".join(re.escape(p.rstrip("-")) for p in clause_prefixes()) + ")"
ID = re.compile(rf"(?<![\w-])({PREFIXES}-[A-Z]+(?:-[0-9A-Z]+)*)(?![\w-])")
DEFINED = re.compile(rf"^\s*[-*]\s+\*\*({PREFIXES}-[A-Z0-9-]+)\*\*", re.M)
DOC = {s.name: s.rules_doc for s in SPECS}
PREFIX = {s.name: s.prefix for s in SPECS}


def doc_clauses(name: str) -> list[str]:
    return DEFINED.findall((ROOT / "docs" / "rules" / name).read_text(encoding="utf-8"))


def all_doc_ids() -> set[str]:
    ids: set[str] = set()
    for path in (ROOT / "docs").rglob("*.md"):
        ids.update(ID.findall(path.read_text(encoding="utf-8")))
    return ids


def code_citations() -> dict[str, set[str]]:
    cited: dict[str, set[str]] = {}
    files = [
        *ROOT.joinpath("reference").glob("*.py"),
        *ROOT.joinpath("properties").glob("*.py"),
        *ROOT.joinpath("ruleproof").rglob("*.py"),
        *ROOT.joinpath("tests", "mutants").glob("*.py"),
        *ROOT.joinpath("fixtures").rglob("*.json"),
    ]
    for path in files:
        for clause in ID.findall(path.read_text(encoding="utf-8")):
            cited.setdefault(clause, set()).add(str(path.relative_to(ROOT)))
    return cited


@pytest.mark.parametrize("game", available_games())
def test_every_documented_clause_is_checked(game: str) -> None:
    props = properties_for(game)
    declared = set(props.checks.clauses())  # by a check or hook (tests/test_registry.py: and reported by it)
    fixture_clauses = {c for fx in bundled(game) for c in fx.clauses}
    fixture_clauses |= {s["clause"] for fx in bundled(game) for s in fx.steps if "clause" in s}
    reported = set(props.all_clauses())
    documented = doc_clauses(DOC[game])
    assert documented, f"docs/rules/{DOC[game]} defines no clause"
    unreported = [c for c in documented if c not in reported]
    assert not unreported, f"documented but not in the verdict table of {game}: {unreported}"
    unchecked = [c for c in documented if c not in declared and c not in fixture_clauses]
    assert not unchecked, f"documented but checked by no property or fixture: {unchecked}"


def test_contract_clauses_are_documented_and_checked() -> None:
    from ruleproof.properties.contract import CONTRACT_CLAUSES

    documented = set(doc_clauses("contract.md"))
    assert set(CONTRACT_CLAUSES) <= documented
    assert documented - set(CONTRACT_CLAUSES) <= {"CONTRACT-TURN-1"}


def test_code_cites_only_documented_ids() -> None:
    defined = all_doc_ids()
    undefined = {c: sorted(paths) for c, paths in code_citations().items() if c not in defined}
    assert not undefined, f"clause IDs cited in code but defined in no docs/rules file: {undefined}"


@pytest.mark.skipif(not RULES_MD.exists(), reason="shared/rules.md is not beside the checkout")
def test_docs_invent_no_ids() -> None:
    """Every clause is one of rules.md's, but the house rules': rules.md states the documents' rules alone,
    and a house option's own clauses (``option_clauses`` of a house option) are the kit's."""
    rules = set(ID.findall(RULES_MD.read_text(encoding="utf-8")))
    for game, name in DOC.items():
        props = properties_for(game) if game in available_games() else None
        house = props.house_options if props else frozenset()
        own = {c for (option, _), cs in (props.option_clauses if props else {}).items() if option in house for c in cs}
        invented = [c for c in doc_clauses(name) if c not in rules and c not in own]
        assert not invented, f"docs/rules/{name} defines IDs rules.md does not: {invented}"


def test_fixtures_cite_their_own_game() -> None:
    for game in available_games():
        for fx in bundled(game):
            foreign = [c for c in fx.clauses if not c.startswith((PREFIX[game], CONTRACT_PREFIX))]
            assert not foreign, f"{fx.path} cites clauses of another game: {foreign}"


def test_fixture_files_are_json_objects() -> None:
    for path in ROOT.joinpath("fixtures").rglob("*.json"):
        assert isinstance(json.loads(path.read_text(encoding="utf-8")), dict), path
