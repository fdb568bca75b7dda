"""The deal (MOON-DEAL-1, MOON-INV-2, MOON-BID-1, MOON-INV-3, MOON-INV-10): hands and widow as sent,
the round counted, bidding opened at the first-bidder seat, which moves one seat clockwise every hand
(void ones too), and a fresh hand with no bids, declarer or contract.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ruleproof.model import observed as seen
from ruleproof.properties.moon.props import checks
from ruleproof.properties.moon.state import BID_RECORD, CONTRACT, DECLARER, FIRST_BIDDER, hand_of, wrong
from ruleproof.properties.moon.tiles import HAND, WON, N
from ruleproof.properties.snapshot import Snapshot, Step

if TYPE_CHECKING:
    from ruleproof.properties.moon.props import MoonProperties


@checks("MOON-DEAL-1", "MOON-INV-2", "MOON-BID-1", "MOON-INV-3", "MOON-INV-10")
def the_deal(props: MoonProperties, step: Step) -> None:
    """After a deal: hands and widow as sent, bidding opens at the rotating first-bidder seat."""
    if step.kind != "deal":
        return
    _dealt_as_sent(props, step)
    _first_bidder(props, step.after)
    _fresh_hand(props, step.after)
    props.widow = step.move["widow"]
    props.steer = None


def _dealt_as_sent(props: MoonProperties, step: Step) -> None:
    """MOON-DEAL-1 / MOON-INV-2: the hands and widow as dealt, nothing elsewhere, one more round."""
    before, after, move = step.before, step.after, step.move
    hands = [Counter(hand_of(after, s)) for s in range(N)]
    props.expect(
        "MOON-DEAL-1",
        hands == [Counter(h) for h in move["hands"]] and after.zone("widow") == [move["widow"]],
        "each seat holds the 7 tiles dealt to it and the 22nd tile is the widow",
        {"hands": move["hands"], "widow": [move["widow"]]},
        {"hands": [hand_of(after, s) for s in range(N)], "widow": after.zone("widow")},
        observed=lambda: {
            seen.MOVE,
            *(seen.zone(f"hand/{s}") for s in range(N) if hands[s] != Counter(move["hands"][s])),
            *((seen.zone("widow"),) if after.zone("widow") != [move["widow"]] else ()),
        },
    )
    rest = {z: after.zone(z) for z in ("discarded", "trick", *WON) if after.zone(z)}
    props.expect(
        "MOON-INV-2",
        all(sum(h.values()) == HAND for h in hands) and len(after.zone("widow")) == 1 and not rest,
        "after the deal the hands hold 7/7/7, the widow 1, and nothing lies elsewhere",
        {"hands": [7, 7, 7], "widow": 1, "elsewhere": {}},
        {"hands": [sum(h.values()) for h in hands], "widow": len(after.zone("widow")), "elsewhere": rest},
        observed=lambda: {
            seen.MOVE,
            *(seen.size(f"hand/{s}") for s in range(N) if sum(hands[s].values()) != HAND),
            *((seen.size("widow"),) if len(after.zone("widow")) != 1 else ()),
            *(seen.zone(z) for z in rest),
        },
    )
    rnd = before.get("round", 0) + 1
    props.expect(
        "MOON-DEAL-1",
        after.get("round") == rnd,
        "each deal (a void hand's too) counts one more round",
        rnd,
        after.get("round"),
        observed=(seen.ROUND,),
        rule="the next round",
    )


def _first_bidder(props: MoonProperties, after: Snapshot) -> None:
    """MOON-BID-1: the first hand opens left of the dealer; every later hand (void ones too) one seat on."""
    opener = (props.setup.dealer + 1 + props.hands_dealt) % N
    props.hands_dealt += 1
    props.opener = opener
    props.expect(
        "MOON-BID-1",
        after.phase == "bid" and after.to_act == opener and after.get("first_bidder") == opener,
        f"hand {props.hands_dealt} is bid first by seat {opener}: "
        "left of the first dealer, one seat clockwise per hand dealt before",
        {"phase": "bid", "to_act": opener, "first_bidder": opener},
        {"phase": after.phase, "to_act": after.to_act, "first_bidder": after.get("first_bidder")},
        observed=lambda: wrong(
            (seen.PHASE, after.phase == "bid"),
            (seen.TO_ACT, after.to_act == opener),
            (FIRST_BIDDER, after.get("first_bidder") == opener),
        ),
    )
    props.expect(
        "MOON-BID-1",
        after.get("dealer") == (opener - 1) % N,
        "the dealer moves left with the first bidder: the first bidder sits left of the dealer",
        (opener - 1) % N,
        after.get("dealer"),
        observed=(seen.DEALER,),
    )


def _fresh_hand(props: MoonProperties, after: Snapshot) -> None:
    """MOON-INV-3: a new hand starts with no bids, no declarer and no contract (a bid or declarer left
    over from the last hand is a record the rules cannot make: what follows is its consequence)."""
    props.expect(
        "MOON-INV-3",
        list(after.get("bids") or []) == [None] * N,
        "a fresh hand starts with no bidding action taken",
        [None] * N,
        after.get("bids"),
        observed=(BID_RECORD,),
        rule="a fresh hand",
    )
    props.expect(
        "MOON-INV-3",
        after.get("declarer") is None and after.get("contract") is None,
        "a fresh hand has no declarer and no contract before bidding",
        {"declarer": None, "contract": None},
        {"declarer": after.get("declarer"), "contract": after.get("contract")},
        observed=lambda: {f for f in (DECLARER, CONTRACT) if after.get(f) is not None},
        rule="a fresh hand",
    )
    if props.hands_dealt > 1:
        props.cover("MOON-INV-10")  # the game went on to another hand: no hand cap
