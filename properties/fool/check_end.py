"""The end of a trick and of a round (FOOL-END-1, FOOL-INV-1, FOOL-INV-8, FOOL-INV-11): the round goes
on iff no hand is empty, the trick moves to `played`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ruleproof.model import observed as seen
from ruleproof.properties.fool.props import checks
from ruleproof.properties.fool.reporting import FOOLS, judge
from ruleproof.properties.fool.trick import first_trick, trick_done
from ruleproof.properties.snapshot import Snapshot, Step

if TYPE_CHECKING:
    from ruleproof.properties.fool.props import FoolProperties


def hand_sizes(props: FoolProperties, snap: Snapshot) -> list[int]:
    """The number of cards in each hand (read straight from the zones: this runs on every play)."""
    zones = snap.raw["zones"]
    return [len(zones.get(name) or ()) for name in props.hand_zones]


@checks("FOOL-END-1", "FOOL-INV-1", "FOOL-INV-8", "FOOL-INV-11")
def round_goes_on(props: FoolProperties, step: Step) -> None:
    """After a trick: the round goes on iff no hand is empty (FOOL-END-1); a trick that does not end it
    moves to `played` (FOOL-INV-1); a fool sitting out the final trick still holds cards (FOOL-INV-8);
    at most 2h-1 tricks a round (FOOL-INV-11)."""
    if not trick_done(props, step):
        return
    before, after = step.before, step.after
    sizes = hand_sizes(props, after)
    empty = [s for s in range(props.n) if not sizes[s]]
    bound = 2 * props.h - 1
    props.expect(
        "FOOL-INV-11",
        props.tricks <= bound,
        f"a round has at most 2h-1 = {bound} tricks",
        bound,
        props.tricks,
        observed=lambda: _sizes(props.hand_zones),  # a round too long: hands that hold too many cards
        rule="tricks per round",
    )
    if after.phase == "play":
        props.expect(
            "FOOL-END-1",
            not empty,
            "the round ends right after the first trick that leaves a hand empty",
            {"phase": "deal or over"},
            {"phase": after.phase, "empty hands": empty},
            observed=lambda: {seen.PHASE, *_sizes(props.hand_zones[s] for s in empty)},
        )
        _trick_to_played(props, step)
        return
    props.expect(
        "FOOL-END-1",
        bool(empty),
        "a round ends only after a trick that leaves some hand empty",
        "some hand empty",
        sizes,
        observed=lambda: {seen.PHASE, *_sizes(props.hand_zones)},
    )
    # the disc holders that did not play the final trick (one that played anyway is FOOL-SIT-1's)
    seats = {*list(before.get("trick_seats") or []), before.to_act}
    sitting = set() if first_trick(props, step) else set(before.get("fools") or []) - seats
    props.expect(
        "FOOL-INV-8",
        all(sizes[s] for s in sitting),
        "a fool sitting out the final trick still holds cards",
        sorted(sitting),
        empty,
        observed=lambda: {FOOLS, *_sizes(props.hand_zones[s] for s in sitting if not sizes[s])},
    )


def _trick_to_played(props: FoolProperties, step: Step) -> None:
    """FOOL-INV-1: a completed trick moves to `played` and the next trick starts empty."""
    before, after = step.before, step.after
    trick = [*before.zone("trick"), step.move.get("card")]
    # multisets as sorted lists, after the plain comparison that settles an engine appending the trick in
    # play order; the Counter difference of the message only for a finding
    played_before, played_after = before.zone("played"), after.zone("played")
    moved = played_after == played_before + trick or sorted(played_after) == sorted(
        [*played_before, *(c for c in trick if isinstance(c, str))]
    )
    judge(
        props,
        "FOOL-INV-1",
        moved and not after.zone("trick"),
        lambda: (
            "a completed trick moves to `played` and the next trick starts empty",
            sorted(trick, key=str),
            sorted((Counter(played_after) - Counter(played_before)).elements(), key=str),
        ),
        observed=lambda: {
            seen.zone("played"),
            *((seen.zone("trick"),) if after.zone("trick") else ()),
            *seen.cards(
                (
                    Counter(c for c in trick if isinstance(c, str)) - (Counter(played_after) - Counter(played_before))
                ).elements()
            ),
        },
    )


def _sizes(zones: Iterable[str]) -> set[str]:
    return {seen.size(z) for z in zones}
