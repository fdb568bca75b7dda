"""The turn within a trick (FOOL-SETUP-6, FOOL-SIT-1..3, FOOL-INV-3, FOOL-TURN-1, FOOL-WIN-2): who
plays next, when the trick is complete, and the trick's record of its cards, seats and leader.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleproof.model import observed as seen
from ruleproof.properties.fool.cards import clockwise_after
from ruleproof.properties.fool.props import checks
from ruleproof.properties.fool.reporting import FOOLS, TRICK_SEATS, judge
from ruleproof.properties.fool.trick import a_play, first_trick, trick_done
from ruleproof.properties.snapshot import Step

if TYPE_CHECKING:
    from ruleproof.properties.fool.props import FoolProperties


@checks("FOOL-SETUP-6", "FOOL-SIT-1", "FOOL-SIT-2", "FOOL-SIT-3", "FOOL-INV-3", "FOOL-TURN-1", "FOOL-WIN-2")
def trick_turn(props: FoolProperties, step: Step) -> None:
    """The turn within a trick: after each card the next seat without a disc to the left plays (every
    seat in a round's first trick, FOOL-SETUP-6), and once the turn comes back round to a seat that has
    played the trick is complete (FOOL-SIT-1/2).  Judged card by card from the engine's trick, so a
    seat skipped is reported once and the trick goes on from where the engine took it."""
    if not a_play(step):
        return
    before, after, n = step.before, step.after, props.n
    seat = before.to_act
    assert seat is not None
    seats = [*list(before.get("trick_seats") or []), seat]
    first = first_trick(props, step)
    sitting: set[int] = set() if first else set(before.get("fools") or [])
    nxt = clockwise_after(seat, n, sitting)
    want_done, got_done = nxt in seats, trick_done(props, step)
    if got_done:
        props.expect(
            "FOOL-INV-3",
            len(set(seats)) == len(seats),
            "each seat plays a trick once",
            "once each",
            seats,
            observed=(TRICK_SEATS,),
        )
    if want_done != got_done or (not got_done and after.to_act != nxt):
        clause, why = _turn_clause(after.to_act if not got_done else None, nxt, sitting, first, want_done)
        props.fail(
            clause,
            why,
            {"to_act": None if want_done else nxt, "trick complete": want_done},
            {"to_act": after.to_act, "trick": after.zone("trick"), "phase": after.phase},
            # who plays next; a trick completed too early or too late also shows in the trick itself
            observed=lambda: {seen.TO_ACT, *((seen.zone("trick"),) if want_done != got_done else ())},
        )
    else:
        props.cover("FOOL-SIT-1" if sitting else "FOOL-SETUP-6", "FOOL-SIT-2")
    if not got_done:
        _trick_grows(props, step, seats, first)


def _turn_clause(engine_next: int | None, nxt: int, sitting: set[int], first: bool, want_done: bool) -> tuple[str, str]:
    """The rule a wrong turn breaks: a seat holding a disc plays (FOOL-SIT-1), a seat is skipped in a
    round's first trick (FOOL-SETUP-6), or the turn does not pass once round the seats without a disc,
    clockwise (FOOL-SIT-2: a seat without a disc skipped, sitting out twice in a row, or playing twice)."""
    if engine_next is not None and engine_next in sitting:
        return "FOOL-SIT-1", f"seat {engine_next} holds a disc and sits this trick out"
    if want_done:
        return "FOOL-SIT-2", "every seat without a disc has played once: the trick is complete"
    if first:
        return "FOOL-SETUP-6", f"every seat plays the first trick of a round: seat {nxt} is next"
    return "FOOL-SIT-2", f"every seat without a disc plays once, clockwise: seat {nxt}, holding none, is next"


def _trick_grows(props: FoolProperties, step: Step, seats: list[int], first: bool) -> None:
    """While a trick goes on: the card joins it with its seat (FOOL-INV-3), the discs stay put
    (FOOL-SIT-3), and `leader` names the seat that led it (FOOL-TURN-1 in a round's first trick,
    FOOL-WIN-2, the trick winner leads the next, after)."""
    before, after = step.before, step.after
    trick = [*before.zone("trick"), step.move.get("card")]
    kept = after.zone("trick") == trick and list(after.get("trick_seats") or []) == seats
    judge(
        props,
        "FOOL-INV-3",
        kept,
        lambda: (
            "the card joins the trick in play order, with the seat that played it",
            {"trick": trick, "trick_seats": seats},
            {"trick": after.zone("trick"), "trick_seats": after.get("trick_seats")},
        ),
        observed=(seen.zone("trick"), TRICK_SEATS),
    )
    props.expect(
        "FOOL-SIT-3",
        sorted(after.get("fools") or []) == sorted(before.get("fools") or []),
        "the discs change hands only when a trick is resolved",
        before.get("fools"),
        after.get("fools"),
        observed=(FOOLS,),
    )
    if kept:  # judged against the trick's own record of who led it
        props.expect(
            "FOOL-TURN-1" if first else "FOOL-WIN-2",
            after.get("leader") == seats[0],
            "while a trick has cards, `leader` is the seat that led it",
            seats[0],
            after.get("leader"),
            observed=(seen.LEADER,),
            rule="`leader` names the seat that led",
        )
