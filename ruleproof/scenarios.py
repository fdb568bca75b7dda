"""Fixtures: scripted scenarios in JSON, run against any engine.

A fixture (``fixtures/GAME/*.json``, schema ``schemas/fixture.json``) names a
setup and a list of steps: moves to apply, moves that must be rejected,
expectations on the state and the legal moves, and ``auto`` stretches that
play the least legal move until a state is reached.  Every step runs through
the same ``Session`` as the state machine, so the game's properties check each
transition of a fixture too.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any, Iterator

from attrs import frozen

from ruleproof import schema
from ruleproof.checked import CheckedEngine
from ruleproof.engine import JSONObject, Unsupported
from ruleproof.properties.machinery import (
    Coverage,
    Finding,
    GameProperties,
    Session,
    Setup,
    Violation,
    move_key,
)


class FixtureError(ValueError):
    """A fixture file that is not a valid fixture (names the file and field)."""


@frozen
class Fixture:
    id: str
    game: str
    title: str
    clauses: tuple[str, ...]
    setup: JSONObject
    steps: tuple[JSONObject, ...]
    path: str

    @classmethod
    def parse(cls, data: Any, path: str) -> "Fixture":
        try:
            schema.check("fixture", None, data, f"fixture {path}")
        except schema.SchemaError as err:
            raise FixtureError(str(err)) from None
        return cls(data["id"], data["game"], data["title"], tuple(data["clauses"]), data["setup"], tuple(data["steps"]), path)


@frozen
class FixtureResult:
    fixture: Fixture
    status: str  # "pass" | "fail" | "skipped"
    finding: Finding | None = None
    trace: Any = None
    reason: str = ""


def load_file(path: str | Path) -> Fixture:
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise FixtureError(f"fixture {p}: not JSON ({err})") from None
    return Fixture.parse(data, str(p))


def bundled(game: str) -> list[Fixture]:
    """The fixtures shipped with the kit for ``game``, in file-name order."""
    folder = resources.files("ruleproof.fixtures").joinpath(game)
    if not folder.is_dir():
        return []
    out = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            try:
                data = json.loads(entry.read_text(encoding="utf-8"))
            except json.JSONDecodeError as err:
                raise FixtureError(f"fixture {game}/{entry.name}: not JSON ({err})") from None
            fx = Fixture.parse(data, f"{game}/{entry.name}")
            if fx.game != game:
                raise FixtureError(f"fixture {fx.path}: game is {fx.game!r}, but it lies in folder {game!r}")
            out.append(fx)
    return out


def unsupported_reason(fx: Fixture, declared: JSONObject) -> str | None:
    """Why the engine's ``hello`` rules this fixture out, or None."""
    if fx.setup["players"] not in declared.get("players", []):
        return f"players={fx.setup['players']} not declared"
    options = declared.get("options", {})
    for name, value in (fx.setup.get("options") or {}).items():
        allowed = options.get(name)
        if allowed is None:
            return f"option {name} not declared"
        if isinstance(allowed, dict):
            if not (isinstance(value, int) and allowed["min"] <= value <= allowed["max"]):
                return f"{name}={value} outside the declared range"
        elif isinstance(value, dict):
            if "custom" not in allowed:
                return f"{name}: explicit values not declared"
        elif value not in allowed:
            return f"{name}={value!r} not declared"
    return None


def matches(want: Any, got: Any, ordered: frozenset[str], *, zones: bool = False) -> bool:
    """Partial match: every key of ``want`` must match; zone lists as multisets."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return False
        for key, value in want.items():
            if zones:
                g = got.get(key) or []
                if sorted(value) != sorted(g) if key not in ordered else list(value) != list(g):
                    return False
            elif not matches(value, got.get(key), ordered, zones=(key == "zones")):
                return False
        return True
    return bool(want == got)


def run_fixture(
    fx: Fixture,
    engine: CheckedEngine,
    props_cls: type[GameProperties],
    coverage: Coverage,
) -> FixtureResult:
    """Run one fixture; a violation of a property or an expectation fails it."""
    declared = engine.hello()["games"].get(fx.game, {})
    reason = unsupported_reason(fx, declared)
    if reason:
        return FixtureResult(fx, "skipped", reason=reason)
    # a fixture judges afresh: clauses failed elsewhere are not switched off here
    session = Session(engine, props_cls, Coverage(hits=coverage.hits))
    setup = Setup(fx.game, fx.setup["players"], fx.setup["dealer"], dict(fx.setup.get("options") or {}))
    try:
        session.start(setup)
        for i, step in enumerate(fx.steps):
            _run_step(fx, i, step, session)
    except Unsupported as err:
        return FixtureResult(fx, "skipped", reason=f"engine: {err.message}")
    except Violation as v:
        finding = v.finding
        if not finding.message.startswith(f"[{fx.id}"):
            finding = Finding(finding.clause, f"[{fx.id}] {finding.message}", finding.expected, finding.got)
        return FixtureResult(fx, "fail", finding, session.trace(finding))
    for clause in fx.clauses:
        coverage.hit(clause)
    return FixtureResult(fx, "pass")


def _run_step(fx: Fixture, i: int, step: JSONObject, session: Session) -> None:
    where = f"[{fx.id} step {i + 1}]"
    clause = step.get("clause") or fx.clauses[0]
    if "apply" in step:
        _apply(session, step["apply"], clause, where)
    elif "reject" in step:
        session.reject(step["reject"], clause)
    elif "expect" in step:
        _expect(session, step["expect"], clause, where)
    else:
        _auto(session, step["auto"], clause, where)


def _apply(session: Session, move: JSONObject, clause: str, where: str) -> None:
    assert session.snap is not None
    listed = move.get("type") != "deal"
    if listed and move_key(move) not in session.snap.move_keys:
        raise Violation(Finding(clause, f"{where} the rules allow this move but legal_moves does not list it: {json.dumps(move)}", "listed", "missing"))
    try:
        session.apply(move, listed=listed)
    except Violation as v:
        if v.finding.clause.startswith("CONTRACT-MOVES-2") or v.finding.clause == clause:
            raise Violation(Finding(clause, f"{where} {v.finding.message}", v.finding.expected, v.finding.got), v.trace) from None
        raise


def _expect(session: Session, expect: JSONObject, clause: str, where: str) -> None:
    snap = session.snap
    assert snap is not None
    ordered = session.props_cls.ordered_zones
    if "state" in expect and not matches(expect["state"], snap.raw, ordered):
        got = _pick(expect["state"], snap.raw)
        raise Violation(Finding(clause, f"{where} the state differs from the expectation", expect["state"], got))
    keys = snap.move_keys
    if "legal" in expect:
        want = {move_key(m) for m in expect["legal"]}
        if want != keys:
            raise Violation(Finding(clause, f"{where} legal moves differ", _sorted(want), _sorted(keys)))
    missing = [m for m in expect.get("legal_includes", []) if move_key(m) not in keys]
    if missing:
        raise Violation(Finding(clause, f"{where} these moves must be legal", missing, _sorted(keys)))
    present = [m for m in expect.get("legal_excludes", []) if move_key(m) in keys]
    if present:
        raise Violation(Finding(clause, f"{where} these moves must not be legal", "absent", present))


def _auto(session: Session, auto: JSONObject, clause: str, where: str) -> None:
    deals: Iterator[JSONObject] = iter(auto.get("deals", []))
    last = auto.get("policy", "first") == "last"
    ordered = session.props_cls.ordered_zones
    for _ in range(auto.get("max_steps", 5000)):
        snap = session.snap
        assert snap is not None
        if matches(auto["until"], snap.raw, ordered):
            return
        if snap.phase == "deal":
            deal = next(deals, None)
            if deal is None:  # the rules say the target state comes within these deals
                raise Violation(Finding(clause, f"{where} the game needed another deal before reaching the expected state", auto["until"], _pick(auto["until"], snap.raw)))
            session.apply(deal)
        elif snap.phase == "over":
            break
        else:
            pick = max if last else min
            session.apply(pick(snap.moves, key=move_key), listed=True)
    snap = session.snap
    assert snap is not None
    if not matches(auto["until"], snap.raw, ordered):
        raise Violation(Finding(clause, f"{where} auto play never reached the expected state", auto["until"], _pick(auto["until"], snap.raw)))


def _pick(want: Any, got: Any) -> Any:
    """The parts of ``got`` that ``want`` asks about, for a readable message."""
    if isinstance(want, dict) and isinstance(got, dict):
        return {k: _pick(v, got.get(k)) for k, v in want.items()}
    return got


def _sorted(keys: Any) -> list[Any]:
    return [json.loads(k) for k in sorted(keys)]
