"""Bidding (MOON-BID-2..6, MOON-INV-3), judged on the engine's own first bidder and bids: whose turn it
is, the bids and the pass listed, the action applied, and the close of the auction (a 21 at once,
else after the three actions) on the highest bidder or a void hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ruleproof.model import observed as seen
from ruleproof.properties.moon.props import checks
from ruleproof.properties.moon.state import (
    BID_RECORD,
    DECLARER,
    auction_open,
    bid_action,
    bids_of,
    changed_scores,
    high_bid,
    seat_of,
    wrong,
)
from ruleproof.properties.moon.tiles import BIDS, SHOOT, N
from ruleproof.properties.snapshot import Snapshot, Step

if TYPE_CHECKING:
    from ruleproof.properties.moon.props import MoonProperties

PASS = seen.listed({"type": "pass"})  # the pass, listed or not


@checks("MOON-BID-2", "MOON-INV-3")
def bidding_turn(props: MoonProperties, step: Step) -> None:
    """MOON-BID-2: in an open auction the seat to act is the first one clockwise from the engine's first
    bidder that has not acted, and only bids and passes are listed; MOON-INV-3: nobody is declarer yet."""
    after = step.after
    bids = bids_of(after)
    if after.phase != "bid" or not auction_open(bids):  # an auction the rules close: judged as it closed
        return
    first = seat_of(after.get("first_bidder"))
    first = props.opener if first is None else first  # a first bidder that is no seat fails MOON-BID-1
    seat = next((first + k) % N for k in range(N) if bids[(first + k) % N] is None)
    props.expect(
        "MOON-BID-2",
        after.to_act == seat,
        "bidding runs clockwise from the first bidder, one action each",
        seat,
        after.to_act,
        observed=(seen.TO_ACT,),
    )
    props.expect(
        "MOON-INV-3",
        after.get("declarer") is None,
        "nobody is declarer while bidding goes on",
        None,
        after.get("declarer"),
        observed=(DECLARER,),
        rule="no declarer while bidding",
    )
    others = [m for m in after.moves if m.get("type") not in ("bid", "pass")]
    props.expect(
        "MOON-BID-2",
        not others,
        "during bidding the only moves are bid and pass",
        [],
        others[:3],
        observed=lambda: seen.moves(others),
    )


@checks("MOON-BID-3", "MOON-BID-6", "MOON-BID-2")
def bids_offered(props: MoonProperties, step: Step) -> None:
    """MOON-BID-3: the bids open are those above the high bid of the engine's `bids`; the pass is open
    to every bidder (MOON-BID-2) but the third after two passes, whom MOON-BID-6 decides: open under
    `redeal` (the hand is then void), closed under `forced_bid`."""
    after = step.after
    bids = bids_of(after)
    if after.phase != "bid" or not auction_open(bids):
        return
    high = high_bid(bids)
    want_bids = {v for v in BIDS if v > high}
    got_bids = {m.get("value") for m in after.moves if m.get("type") == "bid"}
    props.expect(
        "MOON-BID-3",
        got_bids == want_bids,
        f"the open bids are the values of {{4,5,6,7,21}} above the high bid {high or 'none'}",
        sorted(want_bids),
        sorted(got_bids, key=str),
        cause="bids not above the high bid listed" if got_bids - want_bids else "higher bids missing",
        observed=lambda: seen.moves({"type": "bid", "value": v} for v in got_bids ^ want_bids),
    )
    has_pass = any(m.get("type") == "pass" for m in after.moves)
    if sum(1 for b in bids if b == "pass") == N - 1:  # two passed: the third bidder acts now
        may = props.all_pass == "redeal"
        props.expect(
            "MOON-BID-6",
            has_pass == may,
            f"under all_pass={props.all_pass} the third bidder "
            + ("may pass after two passes (the hand is then void)" if may else "may not pass after two passes"),
            "pass listed" if may else "no pass",
            "pass listed" if has_pass else "no pass",
            observed=(PASS,),
        )
    else:
        props.expect("MOON-BID-2", has_pass, "every bidder may pass", "pass listed", "no pass", observed=(PASS,))


@checks("MOON-INV-3", "MOON-BID-3", "MOON-BID-6")
def bid_applied(props: MoonProperties, step: Step) -> None:
    """MOON-INV-3: the action applied is one the rules allow in the engine's auction (a bid of the ladder
    above the high bid; no third pass under forced_bid): an equal bid taken leaves the bidding record
    outside the rules, and what follows from it is its consequence.  An action the engine listed (not
    a probe) also breaks the rule that forbids it (MOON-BID-3 / MOON-BID-6), in this same step."""
    acted = bid_action(step)
    if acted is None:
        return
    _, value, _ = acted
    earlier = bids_of(step.before)
    if value == "pass":
        ok = not (props.all_pass == "forced_bid" and sum(1 for b in earlier if b == "pass") == N - 1)
        rule, what = "MOON-BID-6", "under all_pass=forced_bid no hand is void: a third pass after two was applied"
        want: Any = "a bid"
    else:
        high = high_bid(earlier)
        ok = value in BIDS and value > high
        rule = "MOON-BID-3"
        what = f"bids strictly increase through {{4,5,6,7,21}}: a bid of {value} over {high or 'none'} was applied"
        want = f"one of {[v for v in BIDS if v > high]}"
    # the action applied, and the record it leaves outside the rules (the accepted probe observes the move)
    props.expect("MOON-INV-3", ok, what, want, value, observed=(seen.MOVE, BID_RECORD), rule="the action applied")
    if not ok and step.move in step.before.moves:
        props.fail(
            rule, what, want, value, cause="a listed action the rules forbid applied", observed=(seen.MOVE, BID_RECORD)
        )
    elif value != "pass" or sum(1 for b in earlier if b == "pass") == N - 1:
        props.cover(rule)  # the bid was judged by the ladder, the third pass by the all-pass rule


@checks("MOON-BID-2", "MOON-BID-4", "MOON-BID-5", "MOON-BID-6", "MOON-INV-3")
def auction_closes(props: MoonProperties, step: Step) -> None:
    """After a bid or pass: the auction goes on to the next seat, or closes (a 21 at once, else once all
    three acted) on the highest bidder or, when all passed, on a void hand."""
    acted = bid_action(step)
    if acted is None:
        return
    seat, value, bids = acted
    after = step.after
    if auction_open(bids):
        _next_bidder(props, after, seat, bids)
        return
    if auction_open(bids_of(step.before)):  # else the rules had closed it already: reported then
        early = value == SHOOT and None in bids
        props.expect(
            "MOON-BID-4" if early else "MOON-BID-2",
            after.phase != "bid",
            f"a bid of 21 ends the bidding at once: {bids.count(None)} seat(s) never act"
            if early
            else "after every seat has acted once the bidding is over",
            "the bidding closed",
            {"phase": after.phase, "to_act": after.to_act},
            observed=(seen.PHASE, seen.TO_ACT),
        )
    if after.phase == "bid":
        return
    if high_bid(bids) == 0:
        _void_hand(props, step)
    else:
        _declarer_named(props, after, bids)


def _next_bidder(props: MoonProperties, after: Snapshot, seat: int, bids: list[Any]) -> None:
    """MOON-BID-2: an open auction passes clockwise, each seat acting once."""
    props.expect(
        "MOON-BID-2",
        after.phase == "bid" and after.to_act == (seat + 1) % N,
        "after a bid or pass below 21 the next seat clockwise bids (each seat once)",
        {"phase": "bid", "to_act": (seat + 1) % N},
        {"phase": after.phase, "to_act": after.to_act},
        observed=lambda: wrong((seen.PHASE, after.phase == "bid"), (seen.TO_ACT, after.to_act == (seat + 1) % N)),
    )
    props.expect(
        "MOON-INV-3",
        list(after.get("bids") or []) == bids,
        "`bids` records each action of the hand",
        bids,
        after.get("bids"),
        observed=(BID_RECORD,),
        rule="`bids` records each action",
    )


def _void_hand(props: MoonProperties, step: Step) -> None:
    """MOON-BID-6: all three passed; the hand is void (forced_bid forbids the third pass: MOON-INV-3)."""
    before, after = step.before, step.after
    props.expect(
        "MOON-BID-6",
        after.phase == "deal" and after.get("declarer") is None and after.scores == before.scores,
        "when all three pass the hand is void: no declarer, no score, a fresh deal",
        {"phase": "deal", "declarer": None, "scores": before.scores},
        {"phase": after.phase, "declarer": after.get("declarer"), "scores": after.scores},
        observed=lambda: (
            wrong((seen.PHASE, after.phase == "deal"), (DECLARER, after.get("declarer") is None))
            | changed_scores(before.scores, after.scores)
        ),
    )
    props.cover("MOON-INV-3")


def _declarer_named(props: MoonProperties, after: Snapshot, bids: list[Any]) -> None:
    """MOON-BID-5: the auction closed on the highest bidder, who is declarer and acts (the widow is
    MOON-WIDOW-1's).  Two seats hold the high bid only after an equal bid was taken (MOON-INV-3): then
    either of them is the highest bidder."""
    high = high_bid(bids)
    top = [s for s in range(N) if bids[s] == high]
    declarer = seat_of(after.get("declarer"))
    props.expect(
        "MOON-BID-5",
        after.phase in ("discard", "trump", "play") and declarer in top,
        f"bidding is over ({bids}): the highest bidder, seat {' or '.join(map(str, top))}, is declarer",
        {"phase": "discard", "declarer": top[0] if len(top) == 1 else top},
        {"phase": after.phase, "declarer": after.get("declarer")},
        observed=lambda: wrong((seen.PHASE, after.phase in ("discard", "trump", "play")), (DECLARER, declarer in top)),
    )
    props.expect(
        "MOON-INV-3",
        list(after.get("bids") or []) == bids,
        "`bids` records each action of the hand (seats after a 21 never act)",
        bids,
        after.get("bids"),
        observed=(BID_RECORD,),
        rule="`bids` records each action",
    )
