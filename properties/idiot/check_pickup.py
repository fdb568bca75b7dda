"""Picking up the pile (IDIOT-PICKUP-1/-2/-3).

A player facing a non-empty pile may take it all into the hand instead of playing, even holding a
legal card; the pile is then empty.  An empty pile cannot be picked up.  (Who starts the new pile is
judged with the turn order, ``check_turn``; no draw on a pickup turn with the draws, ``check_draw``.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleproof.model import observed as obs
from ruleproof.properties.idiot.aspects import Aspect, listed_under
from ruleproof.properties.idiot.cards import sorted_cards
from ruleproof.properties.idiot.props import checks
from ruleproof.properties.idiot.reporting import report_applied, report_gaps
from ruleproof.properties.shown import top
from ruleproof.properties.snapshot import Step

if TYPE_CHECKING:
    from ruleproof.properties.idiot.props import IdiotProperties

PICKUP_CLAUSES = listed_under({Aspect.PICKUP: "IDIOT-PICKUP-1", Aspect.PICKUP_EMPTY: "IDIOT-PICKUP-3"})


@checks("IDIOT-PICKUP-1", "IDIOT-PICKUP-3")
def pickup_moves(props: IdiotProperties, step: Step) -> None:
    """``pickup`` is listed exactly when a non-empty pile faces a player with nothing pending (pending: left
    open); a listed pickup of no pile that was played."""
    after = step.after
    if after.phase in ("opening", "play") and after.to_act is not None:
        report_gaps(props, after, PICKUP_CLAUSES)
        if after.phase == "play" and not after.get("pending"):
            props.cover("IDIOT-PICKUP-1" if after.zone("discard") else "IDIOT-PICKUP-3")
    if step.before.phase in ("opening", "play"):
        report_applied(props, step, PICKUP_CLAUSES)


@checks("IDIOT-PICKUP-1", "IDIOT-PICKUP-2")
def pickup_outcome(props: IdiotProperties, step: Step) -> None:
    """A pickup takes the whole pile into the hand (IDIOT-PICKUP-1) and leaves the pile empty (IDIOT-PICKUP-2)."""
    o = props.outcome(step)
    if o is None or o.t != "pickup":
        return
    v1 = props.view(step.after)
    props.cover("IDIOT-PICKUP-1", "IDIOT-PICKUP-2")
    if v1.hand[o.s] != o.hand:
        got = sorted(v1.hand.lists[o.s])
        props.fail(
            "IDIOT-PICKUP-1",
            "a pickup takes the whole pile into the hand",
            sorted_cards(o.hand),
            got,
            observed=(obs.zone(f"hand/{o.s}"),),
        )
    props.require(
        "IDIOT-PICKUP-2",
        not v1.pile,
        "after a pickup the discard pile is empty",
        [],
        top(v1.pile),
        observed=(obs.zone("discard"),),
    )
