"""Drawing (IDIOT-DRAW-1/-2): after a play from the hand, from the top of the draw pile back up to three.

The draw pile after the move is compared with the rules' (IDIOT-DRAW-1 when too few were drawn,
IDIOT-DRAW-2 when any were drawn where the rules draw none: holding 3 or more, a pickup, a failed blind
card, a stop).  A hand that differs only by the cards drawn is this check's alone: the play's other
checks judge the hand after the engine's own draw.  (A drawn card of the rank just played opens a
chain: IDIOT-DRAW-3, with what is pending, ``check_turn``.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleproof.model import observed as obs
from ruleproof.properties.idiot.props import checks
from ruleproof.properties.snapshot import Step

if TYPE_CHECKING:
    from ruleproof.properties.idiot.props import IdiotProperties


@checks("IDIOT-DRAW-1", "IDIOT-DRAW-2")
def draws(props: IdiotProperties, step: Step) -> None:
    """The draw pile after the move is the rules' (top last, drawn from the end)."""
    o = props.outcome(step)
    if o is None:
        return
    v0, v1 = props.views(step)
    t = o.t
    if v1.draw != o.draw:
        none_due = t in ("pickup", "stop") or o.failed_blind or not o.drawn
        clause = "IDIOT-DRAW-2" if none_due or len(v1.draw) < len(o.draw) else "IDIOT-DRAW-1"
        props.fail(
            clause,
            "after a play from the hand the player draws from the top of the draw pile until holding 3 "
            "(§2.3b: straight away, before any follow-up); never on a pickup, a failed blind card, or holding 3+",
            {"draw": len(o.draw), "drawn": o.drawn},
            {"draw": len(v1.draw), "hand": sorted(v1.hand.lists[o.s])},
            # how many cards came from the draw pile into the hand: the pile, and the hand's size (IDIOT-INV-5)
            observed=(obs.zone("draw"), obs.size(f"hand/{o.s}")),
        )
    if o.drawn:
        props.cover("IDIOT-DRAW-1")
    if v0.draw and (t in ("pickup", "stop") or o.failed_blind or not o.drawn):
        props.cover("IDIOT-DRAW-2")  # a turn with cards left to draw in which the rules say: no draw
