"""Each play: the card leaves the hand (FOOL-INV-7) and meets the duty to follow (FOOL-INV-4,
FOOL-FOLLOW-1, FOOL-COLOUR-1).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ruleproof.model import observed as seen
from ruleproof.model.notation import FOOL_WILD
from ruleproof.properties.fool.cards import lead_colour
from ruleproof.properties.fool.props import checks
from ruleproof.properties.fool.reporting import judge
from ruleproof.properties.fool.trick import a_play, allowed_cards
from ruleproof.properties.snapshot import Step

if TYPE_CHECKING:
    from ruleproof.properties.fool.props import FoolProperties


@checks("FOOL-INV-7")
def card_leaves_hand(props: FoolProperties, step: Step) -> None:
    """FOOL-INV-7: a play takes exactly the card played from the player's hand, and no other hand changes.
    A card the player does not hold is FOOL-INV-1's (the probe, and the card then in two zones)."""
    if not a_play(step):
        return
    before, after = step.before, step.after
    seat, card = before.to_act, step.move.get("card")
    assert seat is not None
    held, now = before.zone(f"hand/{seat}"), after.zone(f"hand/{seat}")
    if card not in held:
        return
    rest = list(held)
    rest.remove(card)
    zones_before, zones_after = before.raw["zones"], after.raw["zones"]  # read straight: this runs on every play
    others = [
        s
        for s, name in enumerate(props.hand_zones)
        if s != seat and len(zones_after.get(name) or ()) != len(zones_before.get(name) or ())
    ]
    # a hand's order is left open, so the hands compare as multisets (sorted lists of strings); an engine
    # that keeps the order is settled by the plain comparison, and the message's hands only for a finding
    ok = not others and (now == rest or sorted(now) == sorted(rest))
    props.expect(
        "FOOL-INV-7",
        ok,
        f"a play takes exactly the card {card} from seat {seat}'s hand and no other hand changes",
        None if ok else {"hand": sorted(rest, key=str), "others changed": []},
        None if ok else {"hand": sorted(now, key=str), "others changed": others},
        # the cards the player's hand kept or lost wrongly, and the other hands that changed size
        observed=lambda: {
            seen.zone(f"hand/{seat}"),
            *seen.cards(((Counter(rest) - Counter(now)) + (Counter(now) - Counter(rest))).elements()),
            *(seen.size(props.hand_zones[s]) for s in others),
        },
    )


@checks("FOOL-INV-4", "FOOL-FOLLOW-1", "FOOL-COLOUR-1")
def play_follows(props: FoolProperties, step: Step) -> None:
    """FOOL-INV-4: the card played is one FOOL-FOLLOW-1/-2 allow against the hand just before it (judged
    on the card played, whatever legal_moves listed); a revoke breaks FOOL-FOLLOW-1, or FOOL-COLOUR-1
    when a 1 was led (the duty then comes from the first coloured card).  A card the player does not
    hold is FOOL-INV-1's."""
    if not a_play(step):
        return
    before, card = step.before, step.move.get("card")
    if card not in before.zone(f"hand/{before.to_act}"):
        return
    allowed, duty = allowed_cards(props, before)
    ok = card in allowed
    judge(
        props,
        "FOOL-INV-4",
        ok,
        lambda: (
            "a play meets FOOL-FOLLOW-1 against the hand before it",
            {"one of": sorted(allowed, key=str)},
            {"played": card},
        ),
        observed=(seen.MOVE, seen.card(card)),  # the card played, against the rules' list
    )
    if duty == "follow":
        trick = before.zone("trick")
        lead = lead_colour(trick)
        props.expect(
            "FOOL-COLOUR-1" if trick[0] == FOOL_WILD else "FOOL-FOLLOW-1",
            ok,
            f"holding a non-1 {lead} card, the player must play {lead} or a 1"
            + (": a 1 was led, and the first coloured card set the lead colour" if trick[0] == FOOL_WILD else ""),
            {"one of": sorted(allowed, key=str)},
            {"played": card},
            observed=(seen.MOVE, seen.card(card)),
        )
