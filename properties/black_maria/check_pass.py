"""Passing (BM-PASS-1/2/3/4, BM-INV-2): three cards of the dealt hand to the right (or the way the
declared pass rule sends them this round, BM-PASS-4), all at once.

The contract serialises the simultaneous pass: seats pass in turn from the dealer's left, each pass
parking its cards in `passing/N`; when the last seat has passed every seat receives at once.  A listed
pass is BM-PASS-1's when it is not three distinct cards of the seat's hand, BM-PASS-2's when it names
a card passed towards the seat (received before the exchange).  The way the cards go is BM-PASS-1's
(every round the same wrong way) or BM-PASS-3's (a later round another way than the first: a
rotation).  BM-INV-2 fires where a hand leaves the rules: a pass applied that is not three cards of the
dealt hand, a hand that grows before the exchange, a hand of the wrong size or a card left in
`passing` after it.  A pass in the wrong direction leaves hands the rules can judge: it taints nothing.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING

from ruleproof.model import observed as seen
from ruleproof.model.engine import Move
from ruleproof.properties.black_maria.house import DIRECTIONS, pass_way
from ruleproof.properties.black_maria.props import checks
from ruleproof.properties.snapshot import Snapshot, Step

if TYPE_CHECKING:
    from ruleproof.properties.black_maria.props import BlackMariaProperties

SIDE = {"right": "left", "left": "right", "across": "other side"}  # where the giver sits, by the way passed


@checks("BM-PASS-1", "BM-PASS-2")
def passes_offered(props: BlackMariaProperties, step: Step) -> None:
    """Every listed pass is three distinct cards of the hand as dealt (BM-PASS-1), never a card passed
    towards the seat (BM-PASS-2), and every such choice is listed; the same pass listed twice is the
    contract's (CONTRACT-MOVES-1)."""
    before = step.before
    if before.phase != "pass" or before.to_act is None:
        return
    seat = before.to_act
    hand = before.zone(f"hand/{seat}")
    dealt = set(props.dealt[seat]) if len(props.dealt) > seat else set(hand)  # one pack: each card distinct
    received = (set(hand) - dealt) | {c for s in range(props.n) for c in before.zone(f"passing/{s}")}
    passed_on: list[Move] = []
    wrong: list[Move] = []
    good: set[frozenset[str]] = set()
    for m in before.moves:
        cards = m.get("cards") if m.get("type") == "pass" else None
        if not isinstance(cards, list):
            wrong.append(m)
        elif received.intersection(cards):
            passed_on.append(m)
        elif _three_of(cards, dealt):
            good.add(frozenset(cards))
        else:
            wrong.append(m)
    props.expect(
        "BM-PASS-2",
        not passed_on,
        "a card passed towards a seat cannot be passed on: passing is simultaneous",
        "3 dealt cards",
        passed_on[:2],
        observed=lambda: seen.moves(passed_on),
    )
    props.expect(
        "BM-PASS-1",
        len(good) == math.comb(len(dealt), 3) and not wrong,
        "every choice of 3 cards from the dealt hand is a legal pass, and nothing else",
        math.comb(len(dealt), 3),
        {"passes": len(good), "not 3 dealt cards": wrong[:2]},
        observed=lambda: seen.moves(wrong) if wrong else {seen.MOVES},
    )


def _three_of(cards: list[str], dealt: set[str]) -> bool:
    return len(cards) == 3 == len(set(cards)) and dealt.issuperset(cards)


@checks("BM-PASS-1", "BM-PASS-2", "BM-PASS-3", "BM-PASS-4", "BM-INV-2")
def pass_applied(props: BlackMariaProperties, step: Step) -> None:
    """A pass move: three cards of the dealt hand leave it (BM-INV-2), parked until everyone has passed
    (BM-PASS-2), then exchanged (BM-PASS-1/-3)."""
    before, after = step.before, step.after
    if before.phase != "pass" or before.to_act is None or step.kind != "pass":
        return
    seat = before.to_act
    cards = [str(c) for c in step.move.get("cards") or []]
    dealt = set(props.dealt[seat]) if props.dealt else set(before.zone(f"hand/{seat}"))
    props.expect(  # a listed pass of other cards, or an accepted probe: the hands leave the rules here
        "BM-INV-2",
        _three_of(cards, dealt),
        "a pass applied is three distinct cards of the seat's dealt hand",
        {"3 of": sorted(dealt)},
        {"passed": cards},
        observed=lambda: {seen.MOVE, seen.size(f"hand/{seat}"), *seen.cards(cards)},
    )
    props.passed[seat] = cards
    if after.phase == "pass":
        _pass_parked(props, step, seat, cards)
    else:
        _exchange(props, after)


def _pass_parked(props: BlackMariaProperties, step: Step, seat: int, cards: list[str]) -> None:
    """BM-PASS-2: before the last seat has passed, the cards wait in `passing` and the next seat passes.
    Where a pass that is not three distinct cards of the hand was applied (BM-INV-2 in this step), what
    it parks is not judged: the rules say nothing of such a pass, and its cards are BM-INV-2's."""
    before, after, n = step.before, step.after, props.n
    moved = [
        s
        for s in range(n)
        if Counter(after.zone(f"hand/{s}"))
        != Counter(before.zone(f"hand/{s}")) - (Counter(cards) if s == seat else Counter())
    ]
    parked = Counter(after.zone(f"passing/{seat}")) == Counter(cards)
    lawful = len(set(cards)) == 3 == len(cards)
    props.expect(
        "BM-PASS-2",
        not lawful or (parked and not moved),
        "passed cards wait in `passing` until every seat has passed; nobody receives early",
        {"passing": sorted(cards)},
        {"passing": after.zone(f"passing/{seat}")},
        observed=lambda: {seen.zone(f"passing/{seat}"), *(seen.zone(f"hand/{s}") for s in moved)},
    )
    props.expect(
        "BM-PASS-2",
        after.to_act == (seat + 1) % n,
        "seats pass in turn clockwise",
        (seat + 1) % n,
        after.to_act,
        observed=(seen.TO_ACT,),
    )
    grew = [s for s in range(n) if len(after.zone(f"hand/{s}")) > len(before.zone(f"hand/{s}"))]
    props.expect(  # the state's side of the same rule: no hand holds a card it was passed before the exchange
        "BM-INV-2",
        not grew,
        "before the exchange no hand receives a passed card",
        "no hand grows",
        {"grew": grew},
        observed=lambda: {seen.size(f"hand/{s}") for s in grew},
    )


def _exchange(props: BlackMariaProperties, after: Snapshot) -> None:
    """The exchange: BM-PASS-1 (to the right) or BM-PASS-3 (a later round another way than the first);
    BM-INV-2: every hand its dealt size again, nothing left in `passing`."""
    n = props.n
    props.expect(
        "BM-PASS-1",
        len(props.passed) == n,
        "the exchange happens once every seat has passed",
        n,
        len(props.passed),
        observed=(seen.PHASE,),
    )
    hands = [Counter(after.zone(f"hand/{s}")) for s in range(n)]
    if len(props.dealt) == n and not all(_three_of(props.passed.get(s, []), set(props.dealt[s])) for s in props.passed):
        # a pass the rules forbid was applied (BM-INV-2 in its step): where its cards went is not a direction
        props.cover("BM-PASS-1")
        _sizes_after(props, after, hands)
        return
    ways = [w for w in DIRECTIONS if w != "across" or n == 4]  # at 3 seats "across" is the left
    way = next((w for w in ways if hands == _received(props, DIRECTIONS[w])), None)
    rnd = after.get("round", 1)
    if rnd < 2 or props.direction is None:
        props.direction = way
    declared = pass_way(props.house.passing, n, rnd)
    clause = _direction_clause(props, way, rnd)
    if declared == "hold":  # a hold round that passed: BM-PASS-4 judged it as the round was dealt
        _sizes_after(props, after, hands)
        return
    want = _received(props, DIRECTIONS[declared])
    for s in range(n):
        giver = (s + DIRECTIONS[declared]) % n
        props.expect(
            clause,
            hands[s] == want[s],
            f"seat {s} keeps its hand less the 3 it passed, plus the 3 passed by seat {giver} on its {SIDE[declared]}",
            sorted(want[s].elements()),
            sorted(hands[s].elements()),
            cause=f"passed {way or 'some other way'}",
            observed=(seen.zone(f"hand/{s}"),),
        )
    _sizes_after(props, after, hands)


def _direction_clause(props: BlackMariaProperties, way: str | None, rnd: int) -> str:
    """The clause of this round's direction: a declared pass rule's own (BM-PASS-4), else BM-PASS-3 for
    a later round passing another way than the first (a rotation), BM-PASS-1 for every round wrong."""
    if props.house.passing != "right":
        props.paired_situations("BM-PASS-4")
        return "BM-PASS-4"
    if rnd >= 2 and way == props.direction:
        props.cover("BM-PASS-3")  # no rotation: this round passed the way the first did
    return "BM-PASS-3" if way != "right" and props.direction not in (None, way) else "BM-PASS-1"


def _sizes_after(props: BlackMariaProperties, after: Snapshot, hands: list[Counter[str]]) -> None:
    """BM-INV-2 after the exchange: every hand its dealt size again, nothing left in `passing`."""
    n = props.n
    sizes = [sum(h.values()) for h in hands]
    props.expect(
        "BM-INV-2",
        all(sizes[s] == sum(props.dealt[s].values()) for s in range(n)) if len(props.dealt) == n else True,
        "after the exchange every hand has its dealt size again",
        [sum(d.values()) for d in props.dealt],
        sizes,
        observed=lambda: {seen.size(f"hand/{s}") for s in range(n) if sizes[s] != sum(props.dealt[s].values())},
    )
    left = {s: after.zone(f"passing/{s}") for s in range(n) if after.zone(f"passing/{s}")}
    props.expect(
        "BM-INV-2",
        not left,
        "no card stays in `passing` after the exchange",
        {},
        left,
        observed=lambda: {seen.zone(f"passing/{s}") for s in left},
    )


def _received(props: BlackMariaProperties, step: int) -> list[Counter[str]]:
    """Each seat's hand after an exchange in which seat s receives what seat s + step passed."""
    n = props.n
    if len(props.dealt) != n:
        return [Counter() for _ in range(n)]
    return [
        props.dealt[s] - Counter(props.passed.get(s, [])) + Counter(props.passed.get((s + step) % n, []))
        for s in range(n)
    ]
