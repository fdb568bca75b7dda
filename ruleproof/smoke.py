"""The smoke stage: is the adapter sane before any rule is judged?

A failure here means "the adapter is broken" (exit status 2, with what was
sent and what came back), never "the rules are violated".
"""

from __future__ import annotations

from typing import Any

from ruleproof.checked import CheckedEngine
from ruleproof.engine import AdapterBroken, EngineError, IllegalMove, Unsupported


def smoke(engine: CheckedEngine, game: str) -> dict[str, Any]:
    """The adapter works at all: hello declares the game and new_game answers."""
    hello = engine.hello()
    if game not in hello["games"]:
        raise Unsupported(f"the engine does not declare {game!r} in hello")
    declared = hello["games"][game]
    players = declared["players"][0]
    options = {k: (v[0] if isinstance(v, list) else v["min"]) for k, v in declared.get("options", {}).items()}
    options = {k: v for k, v in options.items() if v != "custom"}
    try:
        state = engine.new_game(game, players, 0, options)
    except EngineError as err:
        raise AdapterBroken("smoke", f"new_game with declared values was refused: {err.message}", sent={"game": game, "players": players, "dealer": 0, "options": options}) from None
    if state.get("phase") != "deal" or engine.legal_moves():
        raise AdapterBroken("smoke", "a new game must start in phase deal with no legal moves", received=state)
    try:
        engine.apply({"type": "no-such-move"})
    except IllegalMove:
        pass
    except EngineError as err:
        raise AdapterBroken("smoke", f"an unknown move type must be answered illegal_move, got {err.kind}", sent={"type": "no-such-move"}) from None
    else:
        raise AdapterBroken("smoke", "an unknown move type was accepted", sent={"type": "no-such-move"})
    return declared
