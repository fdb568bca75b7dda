"""Blind (face-down) play (IDIOT-BLIND-2/-3): where a revealed card goes.

A legal revealed card stays on the pile with its normal effects (IDIOT-BLIND-2; a burn is judged with
the burns, ``check_special``; a blind 2 earning no follow-up with what is pending, ``check_turn``); an
illegal one goes into the hand after the whole pile, and the pile is empty (IDIOT-BLIND-3).  Which of
the two the card is, is rank legality (``check_play``): here the card goes where the engine's own
verdict sends it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleproof.model import observed as obs
from ruleproof.properties.idiot.cards import sorted_cards
from ruleproof.properties.idiot.props import checks
from ruleproof.properties.shown import top
from ruleproof.properties.snapshot import Step

if TYPE_CHECKING:
    from ruleproof.properties.idiot.props import IdiotProperties


@checks("IDIOT-BLIND-2", "IDIOT-BLIND-3")
def blind_outcome(props: IdiotProperties, step: Step) -> None:
    """A revealed card stays on the pile (legal) or goes into the hand with the whole pile (failed)."""
    o = props.outcome(step)
    if o is None or o.t != "play_blind":
        return
    v0, v1 = props.views(step)
    card = o.cards[0]
    if o.failed_blind:
        props.cover("IDIOT-BLIND-3")
        ok = not v1.pile and v1.hand[o.s] == o.hand and v1.burned_list == v0.burned_list
        props.expect(
            "IDIOT-BLIND-3",
            ok,
            f"a failed blind card ({card}) goes into the hand after the whole pile, and the pile is empty",
            None if ok else {"hand": sorted_cards(o.hand), "discard": []},
            None if ok else {"hand": sorted(v1.hand.lists[o.s]), "discard": top(v1.pile)},
            observed=(obs.zone(f"hand/{o.s}"), obs.zone("discard")),
        )
        return
    props.cover("IDIOT-BLIND-2")
    if o.burn is None and len(v1.burned_list) == len(v0.burned_list):
        ok = v1.pile == o.pile and v1.hand[o.s] == o.hand
        props.expect(
            "IDIOT-BLIND-2",
            ok,
            f"a legal blind card ({card}) stays on top of the pile",
            None if ok else top(o.pile),
            None if ok else top(v1.pile),
            observed=(obs.zone(f"hand/{o.s}"), obs.zone("discard")),
        )
