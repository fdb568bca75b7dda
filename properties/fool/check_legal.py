"""The legal moves of the seat to act (FOOL-LEAD-1, FOOL-COLOUR-1, FOOL-WILD-1, FOOL-FOLLOW-1/2,
FOOL-INV-8, FOOL-END-1): exactly the cards the lead and follow rules allow.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ruleproof.model import observed as seen
from ruleproof.model.notation import FOOL_WILD
from ruleproof.properties.fool.cards import DUTY_CLAUSE, lead_colour
from ruleproof.properties.fool.props import checks
from ruleproof.properties.fool.trick import allowed_cards
from ruleproof.properties.snapshot import Step, move_diff, move_diff_observed

if TYPE_CHECKING:
    from ruleproof.properties.fool.props import FoolProperties


@checks("FOOL-LEAD-1", "FOOL-COLOUR-1", "FOOL-WILD-1", "FOOL-FOLLOW-1", "FOOL-FOLLOW-2", "FOOL-INV-8", "FOOL-END-1")
def legal_moves(props: FoolProperties, step: Step) -> None:
    """The legal moves of the seat to act: exactly the cards the lead and follow rules allow.

    Registered last, so a trick or round-end finding on the same step is reported first."""
    after = step.after
    if after.phase != "play" or after.to_act is None:
        return
    hand = after.zone(f"hand/{after.to_act}")
    trick = after.zone("trick")
    if not trick:
        empty = [s for s in range(props.n) if not after.zone(f"hand/{s}")]
        props.expect(
            "FOOL-END-1",
            not empty,
            "no trick starts while some hand is empty: the round is over",
            [],
            empty,
            observed=lambda: {seen.PHASE, *(seen.size(f"hand/{s}") for s in empty)},
        )
        props.cover("FOOL-INV-8")
    want, duty = allowed_cards(props, after)
    clause = DUTY_CLAUSE[duty]
    moves = after.moves
    got = {m.get("card") for m in moves if m.get("type") == "play"}
    ok = got == want and len(moves) == len(want)
    if trick and trick[0] == FOOL_WILD:
        props.cover("FOOL-COLOUR-1")
    if not ok:
        clause, why = _listing_clause(hand, trick, duty, got)
        wanted = [{"type": "play", "card": c} for c in want]
        props.fail(clause, why, *move_diff(wanted, moves), observed=lambda: move_diff_observed(wanted, moves))
    props.cover(clause)
    if FOOL_WILD in hand:
        props.cover("FOOL-WILD-1")


def _listing_clause(hand: Sequence[str], trick: Sequence[str], duty: str, got: set[Any]) -> tuple[str, str]:
    """The rule a wrong list of legal moves breaks: a 1 left out (FOOL-WILD-1), the duty after a led 1
    (FOOL-COLOUR-1), or the lead / follow rule the hand is under."""
    lead = lead_colour(trick)
    if FOOL_WILD in hand and FOOL_WILD not in got:
        return "FOOL-WILD-1", "a 1 may be played at every turn, also by a player holding lead-colour cards"
    if duty == "follow" and trick[0] == FOOL_WILD:
        return (
            "FOOL-COLOUR-1",
            f"a 1 was led: the first coloured card sets the lead colour ({lead}), to be followed where possible",
        )
    if duty == "lead":
        return "FOOL-LEAD-1", "the leader may lead any card of their hand"
    if duty == "follow":
        return (
            "FOOL-FOLLOW-1",
            f"holding a non-1 card of the lead colour {lead}: exactly the {lead} cards and the 1s may be played",
        )
    if lead is None:
        return "FOOL-FOLLOW-2", "while only 1s are in the trick the lead colour is undefined: any card may be played"
    return (
        "FOOL-FOLLOW-2",
        f"holding no non-1 card of the lead colour {lead} (1s create no duty): any card may be played",
    )
