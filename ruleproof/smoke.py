"""The smoke stage: is the adapter sane before any rule is judged?

A failure here means "the adapter is broken" (exit status 2, with what was
sent and what came back), never "the rules are violated".  It is a short,
fully scripted sequence:

1. ``hello`` answers and declares games, among them this one;
2. ``new_game`` (the setup of the game's first bundled fixture the engine
   supports, else the first declared values) answers a schema-valid state in
   phase ``deal`` with no legal moves, and an unknown move type is refused as
   ``illegal_move``;
3. a known-good deal (the fixture's first ``deal``, else the smallest deal the
   game's properties draw) is applied: once accepted, the returned state must
   differ from the one before and equal what ``state`` returns (else
   ``stale_state``);
4. the first of ``legal_moves`` is applied, with the same two checks.

A refused deal or move ends the smoke stage quietly: that is a rule question
(a clause of the fixtures or properties judges it), not a broken adapter.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st

from ruleproof.checked import CheckedEngine
from ruleproof.engine import AdapterBroken, EngineError, IllegalMove, JSONObject, Move, State, Unsupported
from ruleproof.properties import properties_for
from ruleproof.properties.machinery import Coverage, GameProperties, Setup, Snapshot, canonical
from ruleproof.scenarios import bundled, unsupported_reason


def smoke(engine: CheckedEngine, game: str) -> dict[str, Any]:
    """Run the smoke stage; the engine's ``hello`` entry for ``game``."""
    hello = engine.hello()
    if not hello["games"]:
        raise AdapterBroken("hello", "hello declares no games", sent={"method": "hello"}, received=hello)
    if game not in hello["games"]:
        raise Unsupported(f"the engine does not declare {game!r} in hello")
    declared = hello["games"][game]
    props_cls = properties_for(game)
    for setup, deal in _candidates(game, declared):
        try:
            before = _start(engine, setup)
        except Unsupported:
            continue
        if deal is None:
            deal = _drawn_deal(props_cls, setup, before)
        if deal is not None:
            dealt = _accepts(engine, props_cls, before, deal, "a known-good deal")
            moves = engine.legal_moves() if dealt is not None else []
            if dealt is not None and moves:
                _accepts(engine, props_cls, dealt, moves[0], "the first listed legal move")
        return declared
    raise AdapterBroken("smoke", "new_game answered unsupported to every setup the engine declared", sent=_setup_json(_candidates(game, declared)[-1][0]))


def _candidates(game: str, declared: JSONObject) -> list[tuple[Setup, Move | None]]:
    """Fixture setups with their first deal (when they fit), then the first declared values."""
    out: list[tuple[Setup, Move | None]] = []
    for fx in bundled(game):
        deal = next((s["apply"] for s in fx.steps if "apply" in s and s["apply"].get("type") == "deal"), None)
        if deal is not None and unsupported_reason(fx, declared) is None:
            out.append((Setup(game, fx.setup["players"], fx.setup["dealer"], dict(fx.setup.get("options") or {})), deal))
            break
    options = {k: (v[0] if isinstance(v, list) else v["min"]) for k, v in declared.get("options", {}).items()}
    out.append((Setup(game, declared["players"][0], 0, {k: v for k, v in options.items() if v != "custom"}), None))
    return out


def _setup_json(setup: Setup) -> JSONObject:
    return {"method": "new_game", "params": setup.to_json()}


def _start(engine: CheckedEngine, setup: Setup) -> State:
    """new_game answers a state in phase deal, no legal moves; an unknown move type is illegal."""
    try:
        state = engine.new_game(setup.game, setup.players, setup.dealer, setup.options)
    except Unsupported:
        raise
    except EngineError as err:
        raise AdapterBroken("smoke", f"new_game with declared values was refused ({err.kind}): {err.message}", sent=_setup_json(setup)) from None
    moves = engine.legal_moves()
    if state.get("phase") != "deal" or moves:
        raise AdapterBroken("smoke", "a new game must start in phase deal with no legal moves", sent=_setup_json(setup),
                            received={"state": state, "legal_moves": moves})  # fmt: skip
    bogus = {"type": "no-such-move"}
    try:
        engine.apply(bogus)
    except IllegalMove:
        pass
    except EngineError as err:
        raise AdapterBroken("smoke", f"an unknown move type must be answered illegal_move, got {err.kind}", sent={"method": "apply", "params": {"move": bogus}}) from None
    else:
        raise AdapterBroken("smoke", "an unknown move type was accepted", sent={"method": "apply", "params": {"move": bogus}})
    return state


def _accepts(engine: CheckedEngine, props_cls: type[GameProperties], before: State, move: Move, what: str) -> State | None:
    """If the move is accepted, the answer is a new state and ``state`` agrees with it.

    A refusal is left to the fixtures and properties: refusing a deal the rules
    allow, or a move the engine listed itself, is a rule or contract clause
    (BM-DEAL-1, CONTRACT-MOVES-2, ...) with its own verdict, not a broken pipe.
    """
    sent = {"method": "apply", "params": {"move": move}}
    try:
        after = engine.apply(move)
    except EngineError:
        return None
    ordered = props_cls.ordered_zones
    if canonical(after, ordered) == canonical(before, ordered):
        raise AdapterBroken("stale_state", f"{what} was accepted but apply returned the state from before it", sent=sent, received=after)
    now = engine.state()
    if canonical(now, ordered) != canonical(after, ordered):
        raise AdapterBroken("stale_state", f"after {what}, state returns something other than what apply returned",
                            sent={**sent, "then": {"method": "state"}}, received={"apply": after, "state": now})  # fmt: skip
    return after


class _Smallest:
    """A stand-in for Hypothesis's ``data`` that answers every draw with its simplest value."""

    SETTINGS = settings(database=None, max_examples=10, phases=(Phase.generate, Phase.shrink), suppress_health_check=list(HealthCheck))

    def draw(self, strategy: st.SearchStrategy[Any], label: Any = None) -> Any:
        return find(strategy, lambda _: True, settings=self.SETTINGS)


def _drawn_deal(props_cls: type[GameProperties], setup: Setup, state: State) -> Move | None:
    """With no fixture, the simplest deal the game's properties draw (None if they cannot)."""
    try:
        props = props_cls(setup, Coverage())
        return props.deal(Snapshot(state, ()), _Smallest())  # type: ignore[arg-type]
    except Exception:  # a setup the properties cannot deal for: keep the checks above
        return None
