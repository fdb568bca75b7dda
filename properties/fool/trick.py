"""What the checks of one step share, worked out once per step or snapshot: the trick the engine
completed in it as the rules resolve it (``Trick``, ``completed``), whether the step is a play or ends a
round, and the cards the seat to act may play (``allowed_cards``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attrs import frozen

from ruleproof.properties.fool.cards import BOX, lead_colour, legal_cards, winner_index, worst_order
from ruleproof.properties.snapshot import Snapshot, Step

if TYPE_CHECKING:
    from ruleproof.properties.fool.props import FoolProperties


def allowed_cards(props: FoolProperties, snap: Snapshot) -> tuple[set[str], str]:
    """``legal_cards`` for the seat to act in ``snap``, worked out once per snapshot: a step's state
    after is the next step's state before, and the checks ask about both."""
    if props.allowed_in is not snap:
        props.allowed_in = snap
        props.allowed = legal_cards(snap.zone(f"hand/{snap.to_act}"), snap.zone("trick"))
    return props.allowed


@frozen
class Trick:
    """A trick the engine has just completed, as the rules resolve it (worked out once per step)."""

    cards: tuple[str, ...]
    seats: tuple[int, ...]
    lead: str | None
    order: tuple[int, ...]  # play indices, worst first (FOOL-WORST-4)
    want_fools: tuple[int, ...]  # the seats of the k worst cards, sorted
    winner: int  # the seat of the winning card (FOOL-WIN-1)
    got_fools: tuple[int, ...]  # the disc holders the engine names after the trick, sorted


def completed(props: FoolProperties, step: Step) -> Trick | None:
    """The trick this step completed, by the engine's account (the play left the trick empty or ended
    the round), resolved by the rules; None when the step completed none, or one whose bookkeeping is
    broken.  Worked out once per step, which also counts the round's completed tricks (``props.tricks``)
    and notes whether the step's trick is the round's first (``props.first``) and whether the engine
    completed it (``props.done``)."""
    if props.trick_step is not step:
        props.trick_step, props.trick_view, props.done = step, None, False
        props.first = props.tricks == 0
        before, after = step.before, step.after
        played = step.kind == "play" and before.phase == "play" and before.to_act is not None
        if played and (after.phase != "play" or not after.zone("trick")):
            props.tricks += 1
            props.done = True
            props.trick_view = _resolved(props, step)
    return props.trick_view


def trick_done(props: FoolProperties, step: Step) -> bool:
    """Whether the engine completed a trick in ``step`` (its trick is empty after a play, or the round ended)."""
    completed(props, step)
    return props.done


def first_trick(props: FoolProperties, step: Step) -> bool:
    """Whether the play of ``step`` belongs to the round's first trick (no trick completed before it)."""
    completed(props, step)
    return props.first


def _resolved(props: FoolProperties, step: Step) -> Trick | None:
    """The rules' outcome of the trick the engine completed in ``step``; None when its bookkeeping is
    broken (the seats do not match the cards: FOOL-INV-3), so that no rule can be applied to it."""
    before, card, seat = step.before, step.move.get("card"), step.before.to_act
    seats: list[int] = [*list(before.get("trick_seats") or []), seat if seat is not None else -1]
    cards: list[str] = [*before.zone("trick"), card if isinstance(card, str) else ""]
    if len(cards) != len(seats) or not isinstance(card, str) or card not in BOX:
        return None
    lead = lead_colour(cards)
    order = tuple(worst_order(cards, lead))
    return Trick(
        tuple(cards),
        tuple(seats),
        lead,
        order,
        tuple(sorted(seats[i] for i in order[: props.k])),
        seats[winner_index(cards, lead)],
        tuple(sorted(step.after.get("fools") or [])),
    )


def a_play(step: Step) -> bool:
    """A play in phase play by a seat to act: the steps the per-play checks judge."""
    return step.kind == "play" and step.before.phase == "play" and step.before.to_act is not None


def round_ended(props: FoolProperties, step: Step) -> bool:
    """The play of ``step`` completed the final trick of a round: the round is scored in this step."""
    return trick_done(props, step) and step.after.phase != "play"
