"""The smoke stage: can the engine be driven at all, before any rule is judged?

Only what makes an engine undrivable is "broken" here (exit status 2, with
what was sent and what came back): ``hello`` declaring no games, ``new_game``
refusing every declared setup, an accepted move answered with the old state
(``stale_state``), and whatever the transport or the schemas reject.  It is a
short, fully scripted sequence, run through a ``Session``:

1. ``hello`` answers and declares games, among them this one; a few ``new_game`` calls with
   options the contract forbids, and one with every option left out (``ruleproof.run.setup_probes``:
   CONTRACT-SETUP-2/-3);
2. ``new_game`` (the setup of the game's first bundled fixture the engine
   supports, else the first declared values), then an unknown move type, which
   the contract says is ``illegal_move``, and every wrong deal the game's
   properties list (each must be refused under the game's deal clauses);
3. a known-good deal (the fixture's first ``deal``, else the smallest deal the
   game's properties draw): once accepted, the returned state must differ from
   the one before and equal what ``state`` returns;
4. the first of ``legal_moves``, with the same two checks.

What these steps show about the rules is a clause verdict, recorded like any
other: a wrong first state (CONTRACT-SETUP-1, CONTRACT-PHASE-1), an unknown
move answered ``bad_request`` (CONTRACT-ERROR-1) or accepted (the deal
clause), a refused deal or listed move.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st

from ruleproof.model.engine import AdapterBroken, JSONObject, Move, State, Unsupported
from ruleproof.model.findings import Setup
from ruleproof.model.fixtures import bundled, unsupported_reason
from ruleproof.properties import properties_for
from ruleproof.properties.base import GameProperties, Ledger
from ruleproof.properties.snapshot import Snapshot, canonical
from ruleproof.run.session import Session, Sink
from ruleproof.run.setup_probes import probe_setups
from ruleproof.transport.checked import CheckedEngine


def smoke(engine: CheckedEngine, game: str, ledger: Ledger, sink: Sink) -> dict[str, Any]:
    """Run the smoke stage; the engine's ``hello`` entry for ``game``.

    Its exchanges go through a ``Session``, so what they show about the rules
    (a wrong error kind, a wrong first state) is recorded as clause findings.
    """
    hello = engine.hello()
    if not hello["games"]:
        raise AdapterBroken("hello", "hello declares no games", sent={"method": "hello"}, received=hello)
    if game not in hello["games"]:
        raise Unsupported(f"the engine does not declare {game!r} in hello")
    declared: JSONObject = hello["games"][game]
    props_cls = properties_for(game)
    probe_setups(engine, game, declared, props_cls, ledger, sink)  # CONTRACT-SETUP-2/-3: a few new_game calls
    refusals = []
    for setup, deal in _candidates(game, declared):
        session = Session(engine, props_cls, ledger, sink)
        try:
            before = session.start(setup)
        except Unsupported as err:
            refusals.append(err.message)
            continue
        session.reject({"type": "no-such-move"}, props_cls.deal_clause)
        if session.snap is not before or not _bad_deals_refused(session):
            return declared  # the engine took a move it had to refuse (recorded): judge no further here
        first = deal if deal is not None else _drawn_deal(props_cls, setup, before.raw)
        if first is not None and _accepts(session, first, "a known-good deal", listed=False):
            assert session.snap is not None
            if session.snap.moves:
                _accepts(session, session.snap.moves[0], "the first listed legal move", listed=True)
        return declared
    raise AdapterBroken(
        "smoke",
        f"new_game refused every setup the engine declared: {'; '.join(refusals)[:300]}",
        sent=_setup_json(_candidates(game, declared)[-1][0]),
    )


def _bad_deals_refused(session: Session) -> bool:
    """Every wrong deal the game's properties know, sent once (a wrong size, a card twice, a card the
    pool lacks): the exploration probes a deal only one step in eight, and a game has few deals."""
    snap, props = session.snap, session.props
    assert snap is not None and props is not None
    for move, clause in props.guarded("illegal_moves", props.illegal_moves, snap) or ():
        session.reject(move, clause)
        if session.snap is not snap:
            return False
    return True


def _candidates(game: str, declared: JSONObject) -> list[tuple[Setup, Move | None]]:
    """Fixture setups with their first deal (when they fit), then the first declared values."""
    out: list[tuple[Setup, Move | None]] = []
    for fx in bundled(game):
        deal = next((s["apply"] for s in fx.steps if "apply" in s and s["apply"].get("type") == "deal"), None)
        if deal is not None and unsupported_reason(fx, declared) is None:
            out.append(
                (Setup(game, fx.setup["players"], fx.setup["dealer"], dict(fx.setup.get("options") or {})), deal)
            )
            break
    options = {k: (v[0] if isinstance(v, list) else v["min"]) for k, v in declared.get("options", {}).items()}
    out.append((Setup(game, declared["players"][0], 0, {k: v for k, v in options.items() if v != "custom"}), None))
    return out


def _setup_json(setup: Setup) -> JSONObject:
    return {"method": "new_game", "params": setup.to_json()}


def _accepts(session: Session, move: Move, what: str, *, listed: bool) -> bool:
    """If the move is accepted, the answer is a new state and ``state`` agrees with it.

    A refusal is left to the clauses: refusing a deal the rules allow, or a
    move the engine listed itself, is recorded by the session (the game's deal
    clause, CONTRACT-MOVES-2), not a broken pipe.
    """
    before = session.snap
    assert before is not None
    if not session.apply(move, listed=listed):
        return False
    after = session.snap
    assert after is not None
    sent = {"method": "apply", "params": {"move": move}}
    ordered = session.props_cls.ordered_zones
    if after.raw is before.raw or after.raw.get("zones") is before.raw.get("zones"):
        # an in-process engine that hands out its own state and then changes it: every earlier state
        # the kit keeps to compare with would change under it
        raise AdapterBroken(
            "stale_state",
            f"after {what}, apply returned the same object as before: an in-process engine must return "
            "a new state from every call and never change one it has returned",
            sent=sent,
        )
    if canonical(after.raw, ordered) == canonical(before.raw, ordered):
        raise AdapterBroken(
            "stale_state",
            f"{what} was accepted but apply returned the state from before it",
            sent=sent,
            received=after.raw,
        )
    now = session.engine.state()
    if canonical(now, ordered) != canonical(after.raw, ordered):
        raise AdapterBroken(
            "stale_state",
            f"after {what}, state returns something other than what apply returned",
            sent={**sent, "then": {"method": "state"}},
            received={"apply": after.raw, "state": now},
        )
    return True


class _Smallest:
    """A stand-in for Hypothesis's ``data`` that answers every draw with its simplest value."""

    SETTINGS = settings(
        database=None, max_examples=10, phases=(Phase.generate, Phase.shrink), suppress_health_check=list(HealthCheck)
    )

    def draw(self, strategy: st.SearchStrategy[Any], label: Any = None) -> Any:
        return find(strategy, lambda _: True, settings=self.SETTINGS)


def _drawn_deal(props_cls: type[GameProperties], setup: Setup, state: State) -> Move | None:
    """With no fixture, the simplest deal the game's properties draw (None if they cannot)."""
    try:
        props = props_cls(setup, Ledger())
        # a stand-in for st.DataObject, which Hypothesis builds only inside a test run
        return props.deal(Snapshot(state, ()), _Smallest())  # type: ignore[arg-type]
    except Exception:  # a setup the properties cannot deal for: keep the checks above
        return None
