"""Setup, deal and swap (IDIOT-DEAL-1/-2, IDIOT-SWAP-1, IDIOT-INV-2; the pool IDIOT-SETUP-1/-2 is judged
on the first state, ``IdiotProperties.start``).

The deal lands as sent: 3 face-down, 3 face-up and 3 hand cards a seat and the rest the draw pile, in
order; the seats then swap in turn from the dealer's left, one hand card for one face-up card at a
time (identical cards included), and say ``ready``; after the dealer the opening ladder starts.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ruleproof.model import observed as obs
from ruleproof.properties.idiot.aspects import Aspect, listed_under
from ruleproof.properties.idiot.cards import ZONE_ROWS, deck_situation, same, sorted_cards
from ruleproof.properties.idiot.props import checks
from ruleproof.properties.idiot.reporting import report_applied, report_gaps
from ruleproof.properties.idiot.view import View
from ruleproof.properties.snapshot import Step

if TYPE_CHECKING:
    from ruleproof.properties.idiot.props import IdiotProperties

SWAP_CLAUSES = listed_under({Aspect.SWAP: "IDIOT-SWAP-1"})


@checks("IDIOT-DEAL-1", "IDIOT-DEAL-2", "IDIOT-INV-2", "IDIOT-SWAP-1")
def deal_lands(props: IdiotProperties, step: Step) -> None:
    """The deal lands as sent (3/3/3 and the draw pile); `round` counts the deals."""
    before, after, n = step.before, step.after, props.n
    kind = step.kind
    rnd = before.get("round", 0) + (kind == "deal")  # protocol.md: `round` counts the deals made so far
    props.expect(
        "IDIOT-DEAL-1",
        after.get("round") == rnd,
        "`round` counts the deals: 0 before the deal, 1 from it on",
        rnd,
        after.get("round"),
        observed=(obs.ROUND,),
    )
    if kind != "deal":
        return
    m = step.move
    got = {z: [sorted(after.zone(f"{z}/{s}")) for s in range(n)] for z in ZONE_ROWS}
    want = {z: [sorted(m[z][s]) for s in range(n)] for z in ZONE_ROWS}
    props.expect(
        "IDIOT-DEAL-1",
        got == want,
        "each seat gets the 3 face-down, 3 face-up and 3 hand cards dealt to it",
        want,
        got,
        observed=lambda: [obs.zone(f"{z}/{s}") for z in ZONE_ROWS for s in range(n) if got[z][s] != want[z][s]],
    )
    props.situation("IDIOT-DEAL-2", deck_situation(props.decks))
    props.expect(
        "IDIOT-DEAL-2",
        after.zone("draw") == m["draw"] and len(m["draw"]) == 52 * props.decks - 9 * n,
        f"the undealt {52 * props.decks - 9 * n} cards form the draw pile, as dealt (top last)",
        len(m["draw"]),
        len(after.zone("draw")),
        observed=(obs.zone("draw"),),
    )
    props.expect(
        "IDIOT-INV-2",
        all(len(after.zone(f"{z}/{s}")) == 3 for z in ZONE_ROWS for s in range(n))
        and not after.zone("discard")
        and not after.zone("burned"),
        "after the deal every seat has 3/3/3 cards, the pile and burn pile are empty",
        "3/3/3",
        {s: [len(after.zone(f"{z}/{s}")) for z in ZONE_ROWS] for s in range(n)},
        observed=lambda: [
            *(obs.size(f"{z}/{s}") for z in ZONE_ROWS for s in range(n) if len(after.zone(f"{z}/{s}")) != 3),
            *(obs.zone(z) for z in ("discard", "burned") if after.zone(z)),
        ],
    )
    first = (props.setup.dealer + 1) % n
    props.expect(
        "IDIOT-SWAP-1",
        after.phase == "swap" and after.to_act == first,
        "after the deal the seats swap in turn from the dealer's left",
        {"phase": "swap", "to_act": first},
        {"phase": after.phase, "to_act": after.to_act},
        observed=(obs.PHASE, obs.TO_ACT),
    )


@checks("IDIOT-SWAP-1")
def swap_moves(props: IdiotProperties, step: Step) -> None:
    """IDIOT-SWAP-1: in the swap phase the moves are every (hand card, face-up card) swap, identical cards
    included, and ready; a listed swap the rules forbid that was played."""
    if step.after.phase == "swap":
        report_gaps(props, step.after, SWAP_CLAUSES)
        props.cover("IDIOT-SWAP-1")
    if step.before.phase != "deal":
        report_applied(props, step, SWAP_CLAUSES)


@checks("IDIOT-INV-2", "IDIOT-SWAP-1", "IDIOT-OPEN-1")
def swap_steps(props: IdiotProperties, step: Step) -> None:
    """IDIOT-INV-2, IDIOT-SWAP-1 on one move of the swap phase (a swap or ready)."""
    before, n = step.before, props.n
    if before.phase != "swap":
        return
    s = before.to_act
    assert s is not None
    v0, v1 = props.views(step)
    others_same = all(v0.hand.same(v1.hand, o) and v0.fu.same(v1.fu, o) for o in range(n) if o != s)
    props.expect(
        "IDIOT-INV-2",
        all(v0.fd.same(v1.fd, o) for o in range(n)) and others_same and v1.draw == v0.draw,
        "the swap phase never touches face-down cards, the draw pile or other seats",
        "unchanged",
        "changed",
        observed=lambda: [
            obs.zone("draw"),
            *(obs.zone(f"face_down/{o}") for o in range(n)),
            *(obs.zone(f"{z}/{o}") for z in ("hand", "face_up") for o in range(n) if o != s),
        ],
    )
    ok = same(v0.hand[s] + v0.fu[s], v1.hand[s] + v1.fu[s])
    props.expect(
        "IDIOT-INV-2",
        ok,
        "swaps keep the seat's hand and face-up cards together as one multiset",
        sorted_cards(v0.hand[s] + v0.fu[s]) if not ok else None,
        sorted_cards(v1.hand[s] + v1.fu[s]) if not ok else None,
        observed=(obs.zone(f"hand/{s}"), obs.zone(f"face_up/{s}")),
    )
    if props.applied(step) is not None:
        return  # a move the rules forbid (swap_moves): only the invariant above holds for it
    if step.kind == "swap":
        _swapped(props, step, v0, v1)
    elif step.kind == "ready":
        _ready(props, step, v0, v1)


def _swapped(props: IdiotProperties, step: Step, v0: View, v1: View) -> None:
    """IDIOT-SWAP-1: a swap exchanges the two cards named, and the same seat goes on swapping."""
    after, s = step.after, step.before.to_act
    assert s is not None
    h, f = step.move["hand"], step.move["face_up"]
    want_h = v0.hand[s] - Counter([h]) + Counter([f])
    ok = same(v1.hand[s], want_h) and after.phase == "swap" and after.to_act == s
    props.expect(
        "IDIOT-SWAP-1",
        ok,
        f"a swap puts {h} face up and {f} in the hand; the same seat goes on swapping",
        {"hand": sorted_cards(want_h), "to_act": s} if not ok else None,
        {"hand": sorted_cards(v1.hand[s]), "to_act": after.to_act} if not ok else None,
        observed=(obs.zone(f"hand/{s}"), obs.zone(f"face_up/{s}"), obs.TO_ACT),
    )


def _ready(props: IdiotProperties, step: Step, v0: View, v1: View) -> None:
    """IDIOT-SWAP-1: ready changes no card and passes the swap on clockwise, the dealer last; after the
    dealer the opening ladder starts (IDIOT-OPEN-1) with 3 + 3 cards each (IDIOT-INV-2)."""
    after, n, s = step.after, props.n, step.before.to_act
    assert s is not None
    ok = v1.hand.same(v0.hand, s)
    props.expect(
        "IDIOT-SWAP-1",
        ok,
        "ready changes no card",
        sorted_cards(v0.hand[s]) if not ok else None,
        sorted_cards(v1.hand[s]) if not ok else None,
        observed=(obs.zone(f"hand/{s}"),),
    )
    dealer = props.setup.dealer
    if s != dealer:
        props.expect(
            "IDIOT-SWAP-1",
            after.phase == "swap" and after.to_act == (s + 1) % n,
            "seats swap in turn clockwise, the dealer last",
            (s + 1) % n,
            after.to_act,
            observed=(obs.TO_ACT,),
        )
        return
    props.expect(
        "IDIOT-OPEN-1",
        after.phase == "opening" and after.to_act == (dealer + 1) % n and after.get("opening_rank") == "3",
        "when the dealer is ready the opening ladder starts at 3 with the player left of the dealer",
        {"phase": "opening", "to_act": (dealer + 1) % n, "opening_rank": "3"},
        {"phase": after.phase, "to_act": after.to_act, "opening_rank": after.get("opening_rank")},
        observed=(obs.PHASE, obs.TO_ACT, "opening_rank"),
    )
    props.expect(
        "IDIOT-INV-2",
        all(v1.hand.size(o) == 3 and v1.fu.size(o) == 3 for o in range(n)),
        "after the swap phase every seat still has 3 face-up and 3 hand cards",
        3,
        [[v1.fu.size(o), v1.hand.size(o)] for o in range(n)],
        observed=lambda: [obs.size(f"{z}/{o}") for z in ("hand", "face_up") for o in range(n)],
    )
