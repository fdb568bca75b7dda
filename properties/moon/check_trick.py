"""The trick (MOON-WIN-1/2, MOON-RANK-1..3, MOON-INV-6/7, CONTRACT-TURN-1): a play grows the trick in
order, a completed trick goes whole to the seat whose tile wins it (a wrong taker filed under the
reading it shows), the taker leads the next, and a hand is seven tricks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ruleproof.model import observed as seen
from ruleproof.model.notation import tile_ends
from ruleproof.properties.moon.props import checks
from ruleproof.properties.moon.readings import resolve, winner_clause
from ruleproof.properties.moon.state import TRICK_SEATS, completed_trick, hand_of, last_trick, taker, won_tiles, wrong
from ruleproof.properties.moon.tiles import TRICKS, WON, N, follows, is_double, is_trump, led_suit, trick_winner
from ruleproof.properties.snapshot import Snapshot, Step

if TYPE_CHECKING:
    from ruleproof.properties.moon.props import MoonProperties


@checks("MOON-INV-1", "MOON-INV-6", "CONTRACT-TURN-1", "MOON-LEAD-1", "MOON-WIN-2")
def tile_played(props: MoonProperties, step: Step) -> None:
    """A play: the tile comes from the mover's hand (MOON-INV-1); the trick grows in play order with the
    next seat to play and `leader` naming the seat that led it, or goes whole onto the won stack of its
    winner (MOON-INV-6: the tiles of a trick won by another seat are out of place)."""
    before, after = step.before, step.after
    if step.kind != "play" or before.phase != "play" or before.to_act is None:
        return
    seat, t = before.to_act, step.move["tile"]
    props.expect(
        "MOON-INV-1",
        t in hand_of(before, seat),
        "a play is a tile from the player's own hand",
        "a held tile",
        t,
        observed=(seen.MOVE, seen.zone(f"hand/{seat}"), seen.card(t)),  # as the accepted probe observes it
    )
    trick = [*before.zone("trick"), t]
    seats = [*list(before.get("trick_seats") or []), seat]
    if len(trick) < N:
        _trick_grows(props, before, after, trick, seats)
        return
    got, gains = taker(before, after, trick)
    winner = seats[trick_winner(trick, before.get("contract"))]
    if got is None and (not last_trick(step) or won_tiles(after) == N * TRICKS):
        props.fail(
            "MOON-INV-6",
            "the completed trick goes whole onto one won stack",
            {WON[winner]: sorted(trick)},
            {WON[s]: sorted(g.elements()) for s, g in gains.items() if g},
            observed=lambda: {seen.zone(WON[winner]), *(seen.zone(WON[s]) for s, g in gains.items() if g)},
        )
    # tiles on another seat's won stack are out of place: later scores follow from it (which rule put them
    # there is trick_won's, when one reading alone explains the taker)
    props.expect(
        "MOON-INV-6",
        got in (None, winner),
        f"the trick {trick} goes onto the won stack of seat {winner}, whose tile wins it",
        {WON[winner]: sorted(trick)},
        {WON[s]: sorted(g.elements()) for s, g in gains.items() if g},
        # the stacks of the rules' taker and the engine's: what trick_won's rule finds in this step
        observed=lambda: {seen.zone(WON[winner]), *(seen.zone(WON[s]) for s, g in gains.items() if g)},
    )


def _trick_grows(props: MoonProperties, before: Snapshot, after: Snapshot, trick: list[str], seats: list[int]) -> None:
    """MOON-INV-6 / CONTRACT-TURN-1: an unfinished trick keeps its tiles in order and the next seat plays;
    the contract's `leader` is the seat that led it (MOON-LEAD-1 in a hand's first trick, MOON-WIN-2 after)."""
    props.expect(
        "MOON-INV-6",
        after.zone("trick") == trick and list(after.get("trick_seats") or []) == seats,
        "the tile joins the trick in play order",
        {"trick": trick, "trick_seats": seats},
        {"trick": after.zone("trick"), "trick_seats": after.get("trick_seats")},
        observed=(seen.zone("trick"), TRICK_SEATS),
    )
    props.expect(
        "CONTRACT-TURN-1",
        after.phase == "play" and after.to_act == (seats[-1] + 1) % N,
        "play passes to the left",
        (seats[-1] + 1) % N,
        after.to_act,
        observed=lambda: {seen.TO_ACT, *((seen.PHASE,) if after.phase != "play" else ())},
    )
    props.expect(
        "MOON-WIN-2" if won_tiles(before) else "MOON-LEAD-1",
        after.get("leader") == seats[0],
        "while a trick has tiles, `leader` is the seat that led it",
        seats[0],
        after.get("leader"),
        observed=(seen.LEADER,),
    )


@checks(
    "MOON-WIN-1",
    "MOON-RANK-1",
    "MOON-RANK-2",
    "MOON-RANK-3",
    "MOON-LEAD-3",
    "MOON-FOLLOW-2",
    "MOON-TRUMP-3",
    "MOON-TRUMP-4",
)
def trick_won(props: MoonProperties, step: Step) -> None:
    """MOON-WIN-1: the completed trick goes to the seat of its highest trump, else of the highest tile of
    the led suit; a wrong taker is filed under the reading it shows (``winner_clause``)."""
    done = completed_trick(step)
    if done is None:
        return
    trick, seats = done
    contract = step.before.get("contract")
    got = taker(step.before, step.after, trick)[0]
    _cover_ranking(props, trick, contract)
    w = trick_winner(trick, contract)
    if got is None or len(seats) != N or got == seats[w]:
        props.cover("MOON-WIN-1")
        return
    found = (
        resolve(props.shown, lambda known: winner_clause(trick, contract, seats.index(got), known))
        if got in seats
        else ("MOON-WIN-1", "")
    )
    if found is None:  # several readings give this winner: the tricks that tell them apart will show which
        return
    clause, cause = found
    props.fail(
        clause,
        f"under contract {contract!r} the trick {trick} is won by {trick[w]}: "
        "the highest trump, else the highest tile of the led suit",
        {"winner": seats[w], "tile": trick[w]},
        {"winner": got, "tile": trick[seats.index(got)] if got in seats else None},
        cause=cause,
        observed=(seen.zone(WON[seats[w]]), seen.zone(WON[got])),  # the trick on the wrong won stack
    )


def _cover_ranking(props: MoonProperties, trick: list[str], contract: Any) -> None:
    """The rules a correct winner of this trick depends on: the ranking of its trumps (MOON-RANK-2/3)
    or of the led suit (MOON-RANK-1), which tiles are trumps (MOON-TRUMP-3/4), the led suit (MOON-LEAD-3)
    and a tile following by its lower end (MOON-FOLLOW-2)."""
    props.cover("MOON-TRUMP-3" if contract == "doubles" else "MOON-TRUMP-4" if contract == "none" else "MOON-WIN-1")
    trumps = [x for x in trick if is_trump(x, contract)]
    if trumps:
        if len(trumps) > 1:
            props.cover("MOON-RANK-3" if contract == "doubles" else "MOON-RANK-2")
        return
    s = led_suit(trick[0], contract)
    props.cover("MOON-LEAD-3")
    followers = [x for x in trick[1:] if follows(x, s, contract)]
    if followers:
        props.cover("MOON-RANK-1")
    if any(tile_ends(x)[1] == s and not is_double(x) for x in followers):
        props.cover("MOON-FOLLOW-2")


@checks("MOON-WIN-2", "MOON-INV-7")
def next_lead(props: MoonProperties, step: Step) -> None:
    """MOON-WIN-2: the taker of a trick leads the next one; a hand is exactly 7 tricks of 3 tiles, and
    after the seventh every hand is empty and the trick counts add up to 7 (MOON-INV-7)."""
    done = completed_trick(step)
    if done is None:
        return
    trick, seats = done
    before, after = step.before, step.after
    got = taker(before, after, trick)[0]
    leads = got if got is not None else seats[trick_winner(trick, before.get("contract"))]
    if not last_trick(step):
        props.expect(
            "MOON-WIN-2",
            after.phase == "play" and after.to_act == leads and not after.zone("trick"),
            "the trick winner leads the next trick",
            {"phase": "play", "to_act": leads},
            {"phase": after.phase, "to_act": after.to_act, "trick": after.zone("trick")},
            observed=lambda: wrong(
                (seen.PHASE, after.phase == "play"),
                (seen.TO_ACT, after.to_act == leads),
                (seen.zone("trick"), not after.zone("trick")),
            ),
        )
        return
    props.expect(
        "MOON-WIN-2",
        after.phase in ("deal", "over"),
        "a hand is exactly 7 tricks of 3 tiles: after the 21st tile the hand is over",
        "deal or over",
        after.phase,
        observed=(seen.PHASE,),
    )
    hands = {s: hand_of(after, s) for s in range(N) if hand_of(after, s)}
    props.expect(  # six tricks were on the won stacks before this one: the counts add up to 7
        "MOON-INV-7",
        not hands,
        "after 7 tricks every hand is empty (each seat played 7 of its tiles)",
        {},
        hands,
        observed=lambda: {seen.size(f"hand/{s}") for s in hands},  # a hand that held too many tiles
    )
