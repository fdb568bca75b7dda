"""Running fixtures (``ruleproof.model.fixtures``) against any engine, and checking their files.

Every step runs through the same ``Session`` as the state machine, so the game's properties
check each transition of a fixture too; ``validate`` checks what the schema cannot (clause IDs
the game knows, moves in the game's schema), ``load_dirs`` reads the user's ``--fixtures``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from attrs import evolve, frozen

from ruleproof import GAMES
from ruleproof.model import observed, schema
from ruleproof.model.engine import JSONObject, Unsupported
from ruleproof.model.findings import Finding, Setup, Violation, message_shape
from ruleproof.model.fixtures import Fixture, FixtureError, bundled, load_file, unsupported_reason, variants
from ruleproof.properties import known_clauses, properties_for
from ruleproof.properties.base import GameProperties, Ledger
from ruleproof.properties.snapshot import move_key
from ruleproof.run.session import Session, Sink
from ruleproof.transport.checked import CheckedEngine


@frozen
class FixtureResult:
    fixture: Fixture
    status: str  # "pass" | "fail" | "skipped" | "blocked at step K by CLAUSE"
    finding: Finding | None = None
    reason: str = ""
    steps: int = 0  # the moves the engine was sent: steps like the exploration's, in the run's calls a step


def expectation(
    clause: str, where: str, text: str, expected: Any = None, got: Any = None, observed: frozenset[str] = frozenset()
) -> Finding:
    """A fixture's scripted expectation that did not hold; its signature is what it expected, not where."""
    return Finding(
        clause, f"{where} {text}", expected, got, f"fixture:{message_shape(text)}", observed or frozenset({clause})
    )


def option_values(game: str, name: str) -> list[Any] | None:
    """The values of option ``name`` in the game's state schema (an enum, or a boolean's two), or None."""
    spec = schema.load(game).get("$defs", {}).get("options", {}).get("properties", {}).get(name)
    if spec is None:
        return None
    return [False, True] if spec.get("type") == "boolean" else list(spec.get("enum", []))


def validate_holds_under(fx: Fixture) -> None:
    """``holds_under`` names house options of the game, each with values of that option."""
    house = properties_for(fx.game).house_options if fx.game in GAMES else frozenset()
    for name, values in fx.holds_under.items():
        allowed = option_values(fx.game, name) if name in house else None
        if allowed is None:
            raise FixtureError(f"fixture {fx.path} at holds_under.{name}: not a house option of {fx.game}")
        for i, value in enumerate(values):
            if not any(type(value) is type(a) and value == a for a in allowed):
                raise FixtureError(
                    f"fixture {fx.path} at holds_under.{name}[{i}]: {json.dumps(value)} is not a value of {name}"
                )


def validate(fx: Fixture) -> None:
    """What the schema cannot say: clause IDs the game knows, moves in the game's move schema, the house
    options and values of ``holds_under``."""
    validate_holds_under(fx)
    known = set(known_clauses([fx.game])[fx.game])
    for i, clause in enumerate(fx.clauses):
        if clause not in known:
            raise FixtureError(f"fixture {fx.path} at clauses[{i}]: {clause!r} is not a clause of {fx.game}")
    for i, step in enumerate(fx.steps):
        if "clause" in step and step["clause"] not in known:
            raise FixtureError(
                f"fixture {fx.path} at steps[{i}].clause: {step['clause']!r} is not a clause of {fx.game}"
            )
        if "apply" in step:  # a move to reject may be malformed on purpose; one to apply may not
            move = step["apply"]
            defs = schema.load(fx.game).get("$defs", {})
            kind = (
                next((d for d in ("deal_move", "deal") if d in defs), "move") if move.get("type") == "deal" else "move"
            )
            try:
                schema.check(fx.game, kind, move, f"fixture {fx.path}")
            except schema.SchemaError as err:
                raise FixtureError(
                    f"fixture {fx.path} at steps[{i}].apply{'.' + err.path if err.path else ''}: {err.detail}"
                ) from None


def load_dirs(dirs: Sequence[str | Path], *, beside_bundled: bool = True) -> list[Fixture]:
    """The user's fixtures (``--fixtures DIR``): every ``*.json`` under each folder, each validated first.

    A bad file raises ``FixtureError`` naming the file and the field; an id
    used twice (or by a bundled fixture of the same game) too, since the
    certificate's ``fixtures`` map is keyed by id.
    """
    found: list[Fixture] = []
    for d in dirs:
        folder = Path(d)
        if not folder.is_dir():
            raise FixtureError(f"{d}: not a folder")
        files = sorted(folder.rglob("*.json"))
        if not files:
            raise FixtureError(f"{d}: no *.json fixture files in it")
        for path in files:
            fx = load_file(path)
            validate(fx)
            found.append(fx)
    # ids are the keys of the certificate's fixtures map: unique among the files, and beside the bundled ones
    seen = {(fx.game, fx.id): fx.path for g in {fx.game for fx in found} for fx in bundled(g)} if beside_bundled else {}
    for fx in found:
        if (fx.game, fx.id) in seen:
            raise FixtureError(f"fixture {fx.path} at id: {fx.id!r} is already the id of {seen[fx.game, fx.id]}")
        seen[fx.game, fx.id] = fx.path
    return found


def fixtures_for(game: str, declared: JSONObject, user: Sequence[Fixture] = ()) -> list[Fixture]:
    """The fixtures to run for ``game``: bundled, then the user's, each under the engine's option values,
    but: a house rule a fixture does not name runs as its default (the rule the script was written for),
    or under a value of its ``holds_under`` when the engine does not declare the default (``variants``)."""
    house: dict[str, Any] = {}
    if game in GAMES:  # each house rule's default: the rule a fixture that does not name it scripts
        house = properties_for(game).house_defaults(min(declared.get("players") or [0]) or 0)
    fixtures = [*bundled(game), *(f for f in user if f.game == game)]
    return [v for fx in fixtures for v in variants(fx, declared, house)]


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
    fx: Fixture, engine: CheckedEngine, props_cls: type[GameProperties], ledger: Ledger, sink: Sink
) -> FixtureResult:
    """Run one fixture; every violation (of a property or an expectation) is handed to ``sink``.

    The game's properties check every transition.  A fixture is a script about its focus (its
    ``clauses``).  A property violated on the way is recorded and the script goes on, as long as the
    engine still takes the scripted moves; it ends after the step where a focus clause failed (the
    fixture's verdict), or at a scripted expectation that did not hold.  That one is a failure of a
    focus clause, or else of its own clause, only when the engine had not left the script before;
    a fixture that cannot reach its focus is ``blocked at step K by CLAUSE``, a verdict on nothing.
    """
    declared = engine.hello()["games"].get(fx.game, {})
    reason = unsupported_reason(fx, declared)
    if reason:
        return FixtureResult(fx, "skipped", reason=reason)
    found: list[Finding] = []

    def tagged(finding: Finding, session: Session) -> None:
        if not finding.message.startswith(f"[{fx.id}"):
            finding = evolve(finding, message=f"[{fx.id}] {finding.message}")
        found.append(finding)
        sink(finding, session)

    session = Session(engine, props_cls, ledger, tagged)
    return evolve(_scripted(fx, session, found, tagged), steps=session.moves_sent)


def _scripted(fx: Fixture, session: Session, found: list[Finding], tagged: Sink) -> FixtureResult:
    """The fixture's steps on ``session``, to its verdict (``run_fixture``); ``found``: what ``tagged``
    has been handed so far."""
    focus = set(fx.clauses)
    setup = Setup(fx.game, fx.setup["players"], fx.setup["dealer"], dict(fx.setup.get("options") or {}))
    try:
        session.start(setup)
        for i, step in enumerate(fx.steps):
            if any(f.clause in focus for f in found):
                break
            _run_step(fx, i, step, session)
    except Unsupported as err:
        return FixtureResult(fx, "skipped", reason=f"engine: {err.message}")
    except Violation as v:  # a scripted expectation did not hold: the script ends here
        if found:  # the engine left the script earlier: the expectations after that prove nothing
            return FixtureResult(fx, f"blocked at step {v.step} by {found[0].clause}", found[0])
        tagged(v.finding, session)
        if v.finding.clause not in focus:
            return FixtureResult(fx, f"blocked at step {v.step} by {v.finding.clause}", v.finding)
    judged = next((f for f in found if f.clause in focus), None)
    if judged is not None:
        return FixtureResult(fx, "fail", judged)
    for clause in fx.clauses:
        session.ledger.hit(clause)
    return FixtureResult(fx, "pass")


def _run_step(fx: Fixture, i: int, step: JSONObject, session: Session) -> None:
    where = f"[{fx.id} step {i + 1}]"
    clause = step.get("clause") or fx.clauses[0]
    try:
        if "apply" in step:
            _apply(session, step["apply"], clause, where)
        elif "reject" in step:
            session.reject(step["reject"], clause)
        elif "expect" in step:
            _expect(session, step["expect"], clause, where)
        else:
            _auto(session, step["auto"], clause, where)
    except Violation as v:
        v.step = i + 1
        raise


def _apply(session: Session, move: JSONObject, clause: str, where: str) -> None:
    """A scripted move the rules allow: it must be listed (unless a deal) and accepted."""
    assert session.snap is not None
    listed = move.get("type") != "deal"
    if listed and move_key(move) not in session.snap.move_keys:
        raise Violation(
            expectation(
                clause,
                where,
                "the rules allow this move but legal_moves does not list it",
                {"listed": move},
                {"missing": move},
            )
        )
    if not session.apply(move, listed=listed):
        raise Violation(
            expectation(clause, where, "the engine refused a move the rules allow here", {"accepted": move}, "refused")
        )


def _expect(session: Session, expect: JSONObject, clause: str, where: str) -> None:
    snap = session.snap
    assert snap is not None
    ordered = session.props_cls.ordered_zones
    if "state" in expect and not matches(expect["state"], snap.raw, ordered):
        got = _pick(expect["state"], snap.raw)
        fields = frozenset(str(k) for k in expect["state"]) if isinstance(expect["state"], dict) else frozenset()
        raise Violation(
            expectation(clause, where, "the state differs from the expectation", expect["state"], got, fields)
        )
    keys = snap.move_keys
    if "legal" in expect:
        want = {move_key(m) for m in expect["legal"]}
        if want != keys:
            lacks = [m for m in expect["legal"] if move_key(m) not in keys]
            lists = [m for k, m in snap.keyed.items() if k not in want]
            rule = _listing(session, lacks, lists, clause)
            seen = observed.moves([*lacks, *lists])
            raise Violation(expectation(rule, where, "legal moves differ", _sorted(want), _sorted(keys), seen))
    missing = [m for m in expect.get("legal_includes", []) if move_key(m) not in keys]
    if missing:
        rule = _listing(session, missing, [], clause)
        seen = observed.moves(missing)
        raise Violation(expectation(rule, where, "these moves must be legal", missing, _sorted(keys), seen))
    present = [m for m in expect.get("legal_excludes", []) if move_key(m) in keys]
    if present:
        rule = _listing(session, [], present, clause)
        raise Violation(
            expectation(rule, where, "these moves must not be legal", "absent", present, observed.moves(present))
        )


def _listing(session: Session, missing: list[Any], extra: list[Any], clause: str) -> str:
    """The clause a scripted listing difference is filed under: the properties' reading of it (the rule
    logic of their listing checks), else the step's own clause."""
    assert session.snap is not None and session.props is not None
    found = session.props.guarded("listing_clause", session.props.listing_clause, session.snap, missing, extra)
    return found if isinstance(found, str) else clause


def _auto(session: Session, auto: JSONObject, clause: str, where: str) -> None:
    deals: Iterator[JSONObject] = iter(auto.get("deals", []))
    last = auto.get("policy", "first") == "last"
    ordered = session.props_cls.ordered_zones
    for _ in range(auto.get("max_steps", 5000)):
        snap = session.snap
        assert snap is not None
        if matches(auto["until"], snap.raw, ordered):
            return  # reached (a property violated on the way is recorded: the script goes on)
        if snap.phase == "deal":
            deal = next(deals, None)
            if deal is None:  # the rules say the target state comes within these deals
                raise Violation(
                    expectation(
                        clause,
                        where,
                        "the game needed another deal before reaching the expected state",
                        auto["until"],
                        _pick(auto["until"], snap.raw),
                    )
                )
            _apply(session, deal, clause, where)
        elif snap.phase == "over" or not snap.moves:
            break
        else:
            pick = max if last else min
            _apply(session, pick(snap.moves, key=move_key), clause, where)
    snap = session.snap
    assert snap is not None
    if not matches(auto["until"], snap.raw, ordered):
        raise Violation(
            expectation(
                clause,
                where,
                "auto play never reached the expected state",
                auto["until"],
                _pick(auto["until"], snap.raw),
            )
        )


def _pick(want: Any, got: Any) -> Any:
    """The parts of ``got`` that ``want`` asks about, for a readable message."""
    if isinstance(want, dict) and isinstance(got, dict):
        return {k: _pick(v, got.get(k)) for k, v in want.items()}
    return got


def _sorted(keys: Any) -> list[Any]:
    return [json.loads(k) for k in sorted(keys)]
