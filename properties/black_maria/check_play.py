"""Play (BM-LEAD-1/2, BM-FOLLOW-1, BM-WIN-1/2, BM-INV-3/4): who leads, what may be played, who takes it.

The lists are judged as sets of cards (the same move listed twice is the contract's, CONTRACT-MOVES-1):
on a lead every card of the hand (BM-LEAD-2; a card not held is BM-FOLLOW-1's), on a follow the cards
of the led suit if held, else any (BM-FOLLOW-1; the hearts and QS missing from a void hand on trick one
are a first-trick rule, BM-LEAD-2's).  A card the engine listed against these rules, when played, fails
its list's clause again in the step where BM-INV-3 finds the play outside the rules.  The trick's taker
is read from the `won/N` piles: a wrong one is BM-WIN-1's, named by the order of the ranks it shows
("Q above K"); the next lead is judged against the seat that took the trick.  While a trick has cards,
the contract's `leader` is the seat that led it (BM-LEAD-1 in a round's first trick, BM-WIN-2 after).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ruleproof.model import observed as seen
from ruleproof.model.notation import suit
from ruleproof.properties.black_maria.cards import best_of, hand_size, play, playable, won_by
from ruleproof.properties.black_maria.house import (
    broken,
    first_holder,
    follow_allowed,
    lead_forbidden,
    lowest_club,
    missing_rule,
)
from ruleproof.properties.black_maria.listing import follow_clause, listed_cards
from ruleproof.properties.black_maria.props import checks
from ruleproof.properties.black_maria.view import completed, first_trick, held, holds_led, scored_taker, take
from ruleproof.properties.snapshot import Snapshot, Step, move_diff

if TYPE_CHECKING:
    from ruleproof.properties.black_maria.props import BlackMariaProperties


@checks("BM-LEAD-1", "BM-LEAD-2", "BM-LEAD-3", "BM-LEAD-4", "BM-LEAD-5", "BM-LEAD-6", "BM-FOLLOW-1", "BM-INV-4")
def lead_moves(props: BlackMariaProperties, step: Step) -> None:
    """The leader: the seat left of the dealer on a round's first trick (BM-LEAD-1; with first_lead
    two_clubs the holder of the lowest club, BM-LEAD-3), then whoever the engine's trick winner is
    (``next_lead``); any card of its hand may be led (BM-LEAD-2) save what a declared house rule
    forbids (BM-LEAD-4/5/6)."""
    before, after = step.before, step.after
    if after.phase != "play" or after.to_act is None or after.zone("trick"):
        return
    seat = after.to_act
    if before.phase != "play":  # the round's first lead, after the exchange (or a hold round's deal)
        _first_leader(props, after, seat)
    hand = after.zone(f"hand/{seat}")
    got = listed_cards(after)
    others = [m for m in after.moves if m.get("type") != "play"]
    # a card listed that is not held, or a move of another kind: the phase's rule, BM-FOLLOW-1
    props.expect(
        "BM-FOLLOW-1",
        got <= set(hand) and not others,
        "a play is a card from the player's hand",
        *((None, None) if got <= set(hand) and not others else move_diff([play(c) for c in hand], after.moves)),
        observed=lambda: seen.moves([*(play(c) for c in got - set(hand)), *others]),
    )
    _lead_list(props, after, hand, got & set(hand))


def _first_leader(props: BlackMariaProperties, after: Snapshot, seat: int) -> None:
    """BM-LEAD-1: the seat left of the dealer leads a round's first trick; with first_lead two_clubs the
    seat that holds the lowest club in play once the pass is over (BM-LEAD-3)."""
    n = props.n
    if props.house.first_lead == "two_clubs":
        props.paired_situations("BM-LEAD-3")
        first = first_holder([after.zone(f"hand/{s}") for s in range(n)], n)
        clause, message = "BM-LEAD-3", f"the holder of the {lowest_club(n)} leads the first trick"
    else:
        dealer = after.get("dealer")
        first = (dealer + 1) % n if isinstance(dealer, int) else None
        clause, message = "BM-LEAD-1", "the player left of the dealer leads the first trick"
    props.expect(clause, seat == first, message, first, seat, observed=(seen.TO_ACT,))
    props.cover("BM-INV-4")


def _lead_list(props: BlackMariaProperties, after: Snapshot, hand: list[str], got: set[Any]) -> None:
    """The cards listed to lead: every card of the hand (BM-LEAD-2) save those a declared house rule
    forbids, each filed under that rule's clause (listed though forbidden) or, for a card held back,
    the rule the engine plays (``missing_rule``: a declared one's clause, else BM-LEAD-2's sub-rule)."""
    house, n = props.house, props.n
    first = first_trick(after, n)
    is_broken = broken([c for s in range(n) for c in after.zone(f"won/{s}")], house)
    forbidden = lead_forbidden(house, hand, n, first, is_broken)
    _house_judged(props, first)
    if first and house.first_trick != "free":
        props.paired_situations("BM-LEAD-4")
    want = set(hand) - set(forbidden)
    extra, missing = got - want, want - got
    clause, rule = (forbidden[min(extra)], "") if extra else missing_rule(house, missing, first, is_broken)
    ok = not extra and not missing
    props.expect(
        clause if not ok else "BM-LEAD-2",
        ok,
        "any card may be led, save what a declared house rule forbids",
        *((None, None) if ok else move_diff([play(c) for c in sorted(want)], after.moves)),
        observed=lambda: seen.moves(play(c) for c in sorted(want ^ got)),
        rule=rule,
    )


def _house_judged(props: BlackMariaProperties, first: bool) -> None:
    """The declared house rules that judge this lead list: the first trick's club and no points on the
    first trick (a first lead), hearts broken (every lead)."""
    house = props.house
    if first and house.first_trick != "free":
        props.cover("BM-LEAD-4")
    if first and house.no_points:
        props.cover("BM-LEAD-5")
    if house.hearts_broken != "no":
        props.cover("BM-LEAD-6")


@checks("BM-FOLLOW-1", "BM-LEAD-2", "BM-LEAD-5")
def follow_moves(props: BlackMariaProperties, step: Step) -> None:
    """While a trick has cards: exactly the cards of the led suit if the hand holds one, else the whole
    hand; on trick one a void hand's missing hearts and QS are a first-trick rule (BM-LEAD-2)."""
    before, after, n = step.before, step.after, props.n
    if step.kind == "play" and before.phase == "play" and before.to_act is not None and before.zone("trick"):
        _listed_revoke_played(props, before, step.move.get("card"))
    trick = after.zone("trick")
    if after.phase != "play" or after.to_act is None or not trick:
        return
    hand = after.zone(f"hand/{after.to_act}")
    follows, first = holds_led(hand, trick), first_trick(after, n)
    want, got = follow_allowed(props.house, hand, trick, first), listed_cards(after)
    others = [m for m in after.moves if m.get("type") != "play"]
    ok = got == want and not others
    clause = follow_clause(props.house, want, got, follows, first)
    props.cover("BM-FOLLOW-1")
    if not follows and first:
        props.cover("BM-LEAD-2")  # a void hand on trick one: hearts and the QS may be discarded
        if props.house.no_points:
            props.cover("BM-LEAD-5")  # ... unless no_points_first_trick is declared
    props.expect(
        clause,
        ok,
        f"following: the cards of the led suit ({suit(trick[0])}) if any, else any card",
        *((None, None) if ok else move_diff([play(c) for c in want], after.moves)),
        cause="" if ok else _list_cause(hand, want, got, bool(others)),
        observed=lambda: seen.moves([*(play(c) for c in want ^ got), *others]),
        rule="first trick points" if clause == "BM-LEAD-2" else "",  # the rule of other Hearts games played
    )


def _list_cause(hand: list[str], want: set[str], got: set[Any], others: bool) -> str:
    """What a wrong list of plays shows, whatever the suit: the finding's cause."""
    if not got <= set(hand):
        return "a card not held listed"
    if got - want:
        return "cards off the led suit listed while the hand holds it"
    if want - got:
        return "cards the hand may play missing"
    return "moves of another kind listed" if others else "the same card listed twice"


def _listed_revoke_played(props: BlackMariaProperties, before: Snapshot, card: Any) -> None:
    """A card the engine listed though it does not follow, now played: its list's clause again, in the
    step where BM-INV-3 finds the play outside the rules (so the two read as one deviation)."""
    hand, trick = before.zone(f"hand/{before.to_act}"), before.zone("trick")
    first = first_trick(before, props.n)
    want = follow_allowed(props.house, hand, trick, first)
    if card not in listed_cards(before) or card in want or card not in hand:
        return  # a following card; a probe (its own clause judges it); a card not held (card_played)
    props.fail(
        follow_clause(props.house, want, listed_cards(before), holds_led(hand, trick), first),
        f"{card} was played on {trick[0]} although it does not follow",
        {"one of": sorted(want)},
        {"played": card},
        cause="a listed card played",
        observed=(seen.MOVE, seen.listed(play(card))),
    )


@checks("BM-FOLLOW-1", "BM-INV-3")
def card_played(props: BlackMariaProperties, step: Step) -> None:
    """BM-FOLLOW-1: the card comes from the hand; BM-INV-3: the play meets BM-FOLLOW-1 against the hand
    just before it (judged on the card played, whatever legal_moves listed: a card not held or a revoke
    applied leaves the rules)."""
    before = step.before
    if step.kind != "play" or before.phase != "play" or before.to_act is None:
        return
    card, hand, trick = step.move.get("card"), before.zone(f"hand/{before.to_act}"), before.zone("trick")
    props.expect(
        "BM-FOLLOW-1",
        card in hand,
        "a play is a card from the player's hand",
        {"one of": hand},
        card,
        observed=(seen.MOVE, seen.card(card)),
    )
    ok = card in hand and (not trick or card in playable(hand, trick))
    props.expect(
        "BM-INV-3",
        ok,
        "a play applied is a card of the hand that follows the led suit when the hand holds one",
        {"one of": playable(hand, trick)},
        {"played": card},
        cause="a card not held" if card not in hand else "a revoke",
        observed=(seen.MOVE, seen.card(card)),
    )


@checks("BM-INV-4", "BM-LEAD-1", "BM-WIN-2", "CONTRACT-TURN-1")
def trick_grows(props: BlackMariaProperties, step: Step) -> None:
    """A play that does not complete the trick: the card joins it in play order, the next seat plays, and
    `leader` names the seat that led it (BM-LEAD-1 on the round's first trick, BM-WIN-2 after)."""
    before, after, n = step.before, step.after, props.n
    if step.kind != "play" or before.phase != "play" or before.to_act is None or completed(step, n):
        return
    seat = before.to_act
    trick = [*before.zone("trick"), step.move.get("card")]
    seats = [*list(before.get("trick_seats") or []), seat]
    props.expect(
        "BM-INV-4",
        after.zone("trick") == trick and list(after.get("trick_seats") or seats) == seats,
        "the card joins the trick in play order",
        trick,
        after.zone("trick"),
        observed=(seen.zone("trick"), "trick_seats"),
    )
    props.expect(  # contract: while a trick has cards, `leader` is the seat that led it
        "BM-LEAD-1" if first_trick(after, n) else "BM-WIN-2",
        after.get("leader") == seats[0],
        "while a trick has cards, `leader` is the seat that led it",
        seats[0],
        after.get("leader"),
        observed=(seen.LEADER,),
    )
    props.expect(
        "CONTRACT-TURN-1",
        after.to_act == (seat + 1) % n,
        "play passes to the left",
        (seat + 1) % n,
        after.to_act,
        observed=(seen.TO_ACT,),
    )


@checks("BM-WIN-1", "BM-INV-4")
def trick_won(props: BlackMariaProperties, step: Step) -> None:
    """BM-WIN-1: the highest card of the led suit takes the trick; a wrong taker is named by how its card
    beat the best one ("Q above K", "a card off the led suit").  BM-INV-4: the trick goes whole onto one
    pile (cards split or lost leave the rules); at a round's end it may go nowhere visible (left open)."""
    done = completed(step, props.n)
    if done is None:
        return
    trick, seats = done
    best = best_of(trick)
    winner = seats[trick.index(best)]
    took = take(step, trick, props.n)
    props.expect(
        "BM-INV-4",
        took.taker is not None or took.unseen,
        "the completed trick goes whole onto the pile of one seat",
        {f"won/{winner}": sorted(trick)},
        {f"won/{s}": g for s, g in took.gains.items()},
        observed=lambda: {seen.zone(f"won/{s}") for s in {winner, *took.gains}},
    )
    # a last trick no pile shows (cleared as the round is scored): the seat the scores credit with it
    taker = scored_taker(step, trick, seats, props.scheme, props.round_scores) if took.unseen else took.taker
    if taker is None or taker not in seats:
        props.cover("BM-WIN-1")
        return
    card = trick[seats.index(taker)]
    props.expect(
        "BM-WIN-1",
        taker == winner,
        f"the highest card of the led suit ({best}) wins: seat {winner} takes the trick",
        {"winner": winner, "card": best},
        {"winner": taker, "card": card},
        cause=won_by(card, best),
        observed=(seen.zone(f"won/{winner}"), seen.zone(f"won/{taker}")),
    )


@checks("BM-WIN-2", "BM-END-1")
def next_lead(props: BlackMariaProperties, step: Step) -> None:
    """BM-WIN-2: the seat that took the trick (in the engine's piles) leads the next; the round ends once
    the hands are empty, and only then (BM-END-1 when the game ends with cards still held)."""
    after, n = step.after, props.n
    done = completed(step, n)
    if done is None:
        return
    trick, seats = done
    taker = take(step, trick, n).taker
    leads = taker if taker is not None else seats[trick.index(best_of(trick))]
    cards = held(after, n)
    if after.phase == "play":
        props.expect(
            "BM-WIN-2",
            after.to_act == leads and not after.zone("trick") and cards > 0,
            "the trick winner leads the next trick; a round ends when the hands are empty",
            {"to_act": leads},
            {"to_act": after.to_act, "cards held": cards},
            observed=(seen.TO_ACT,) if cards else (seen.TO_ACT, seen.PHASE),
        )
        return
    # a game that ends with cards still in the hands ended in the middle of a round (BM-END-1)
    over = after.phase == "over"
    if over and not cards:
        props.cover("BM-END-1")  # the game ended at the end of a round, never in the middle of one
    props.expect(
        "BM-END-1" if over and cards else "BM-WIN-2",
        not cards,
        f"a round has {hand_size(n)} tricks: it ends when the hands are empty"
        + (", and the game ends only once a round is over" if over and cards else ""),
        {"cards held": 0},
        {"cards held": cards},
        observed=(seen.PHASE,),
    )
