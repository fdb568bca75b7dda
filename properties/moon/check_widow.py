"""The widow and the contract (MOON-WIDOW-1, MOON-INV-4, MOON-TRUMP-1): the engine's declarer takes
the widow, discards any one of its 8 tiles and names trumps among those the options allow; the
contract holds for the hand and the declarer leads (MOON-LEAD-1).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ruleproof.model import observed as seen
from ruleproof.properties.moon.props import checks
from ruleproof.properties.moon.state import CONTRACT, auction_open, bid_action, declarer_of, hand_of, high_bid, wrong
from ruleproof.properties.moon.tiles import HAND, N
from ruleproof.properties.snapshot import Snapshot, Step, move_diff, move_diff_observed

if TYPE_CHECKING:
    from ruleproof.properties.moon.props import MoonProperties


@checks("MOON-WIDOW-1", "MOON-INV-4")
def widow_taken(props: MoonProperties, step: Step) -> None:
    """MOON-WIDOW-1: as bidding closes on a declarer, the engine's declarer takes the widow (8 tiles; the
    other hands unchanged) and is to discard; MOON-INV-4 when the tiles are then out of place."""
    acted = bid_action(step)
    before, after = step.before, step.after
    if (
        acted is None
        or auction_open(acted[2])
        or not high_bid(acted[2])
        or after.phase not in ("discard", "trump", "play")
    ):
        return  # the auction goes on, was void, or did not close on a declarer (MOON-BID-2/4/5/6)
    d = declarer_of(after)
    widow = Counter(before.zone("widow"))
    want = [Counter(hand_of(before, s)) + (widow if s == d else Counter()) for s in range(N)]
    got = [Counter(hand_of(after, s)) for s in range(N)]
    props.expect(
        "MOON-WIDOW-1",
        after.phase == "discard" and after.to_act == d and got == want and not after.zone("widow"),
        f"the declarer (seat {d}) adds the widow to the 7 dealt tiles (8 tiles) and discards; "
        "the other hands are unchanged",
        {"phase": "discard", "to_act": d, "hands": [sorted(w.elements()) for w in want]},
        {"phase": after.phase, "to_act": after.to_act, "hands": [sorted(g.elements()) for g in got]},
        observed=lambda: (
            _out_of_place(after, want, got)
            | wrong((seen.PHASE, after.phase == "discard"), (seen.TO_ACT, after.to_act == d))
        ),
    )
    props.expect(  # tiles out of place (the widow left in the middle, a hand changed): what follows is its doing
        "MOON-INV-4",
        got == want and not after.zone("widow"),
        "after the widow is taken the declarer holds 8 tiles, the widow zone is empty, the other hands unchanged",
        [sorted(w.elements()) for w in want],
        {"hands": [sorted(g.elements()) for g in got], "widow": after.zone("widow")},
        observed=lambda: _out_of_place(after, want, got),
    )


@checks("MOON-WIDOW-1", "MOON-INV-4", "MOON-TRUMP-1", "MOON-LEAD-1", "MOON-INV-6")
def widow_and_trump(props: MoonProperties, step: Step) -> None:
    """The discard (one of the 8 tiles, any of them), the trump choice, and the contract held for the hand."""
    before, after = step.before, step.after
    if after.phase == "discard":
        _discard_offered(props, after)
    if step.kind == "discard" and before.phase == "discard":
        _widow_exchange(props, step)
    if after.phase == "trump":
        _trumps_offered(props, after)
    if step.kind == "trump" and before.phase == "trump":
        _contract_named(props, step)
    if before.phase == "play" and after.phase == "play":
        props.expect(
            "MOON-TRUMP-1",
            after.get("contract") == before.get("contract"),
            "the contract stays as named for the whole hand",
            before.get("contract"),
            after.get("contract"),
            observed=(CONTRACT,),
        )


def _discard_offered(props: MoonProperties, after: Snapshot) -> None:
    """MOON-WIDOW-1: the declarer (the seat to discard) may discard any one of its 8 tiles."""
    d = after.to_act
    hand = set(hand_of(after, d)) if d is not None else set()
    got = {m.get("tile") for m in after.moves if m.get("type") == "discard"}
    props.expect(
        "MOON-WIDOW-1",
        got == hand and len(after.moves) == len(hand),
        "the declarer discards exactly one of their 8 tiles, any of them (the widow included)",
        *move_diff([{"type": "discard", "tile": t} for t in hand], after.moves),
        observed=lambda: move_diff_observed([{"type": "discard", "tile": t} for t in hand], after.moves),
    )


def _widow_exchange(props: MoonProperties, step: Step) -> None:
    """MOON-INV-4 / MOON-WIDOW-1: the discarded tile leaves the declarer's hand, who then names trumps."""
    before, after = step.before, step.after
    d = before.to_act
    assert d is not None  # the discard phase has a declarer to act
    t = step.move["tile"]
    want = [Counter(hand_of(before, s)) - (Counter([t]) if s == d else Counter()) for s in range(N)]
    got = [Counter(hand_of(after, s)) for s in range(N)]
    props.expect(
        "MOON-INV-4",
        got == want and after.zone("discarded") == [t] and sum(want[d].values()) == HAND,
        "after the exchange the declarer holds 7, the discard holds the one tile discarded, the others are unchanged",
        {"hand": sorted(want[d].elements()), "discarded": [t]},
        {"hand": sorted(got[d].elements()), "discarded": after.zone("discarded")},
        observed=lambda: {
            seen.MOVE,
            seen.card(t),
            *_out_of_place(after, want, got),
            *((seen.zone("discarded"),) if after.zone("discarded") != [t] else ()),
        },
    )
    props.expect(
        "MOON-WIDOW-1",
        after.phase == "trump" and after.to_act == d,
        "after the discard the declarer names trumps",
        {"phase": "trump", "to_act": d},
        {"phase": after.phase, "to_act": after.to_act},
        observed=lambda: wrong((seen.PHASE, after.phase == "trump"), (seen.TO_ACT, after.to_act == d)),
        rule="the declarer names trumps",
    )
    if t == props.widow:
        props.cover("MOON-WIDOW-1")


def _trumps_offered(props: MoonProperties, after: Snapshot) -> None:
    """MOON-TRUMP-1: a number 0-6, no trump, or doubles where the options allow them."""
    want_s = set(range(7)) | {"none"} | ({"doubles"} if props.doubles_ok else set())
    got_s = [m.get("suit") for m in after.moves if m.get("type") == "trump"]
    props.expect(
        "MOON-TRUMP-1",
        set(got_s) == want_s and len(after.moves) == len(want_s),
        "the declarer names a number 0-6, no trump, or doubles (only if doubles_trump is on)",
        sorted(want_s, key=str),
        sorted(got_s, key=str),
        observed=lambda: move_diff_observed([{"type": "trump", "suit": x} for x in want_s], after.moves),
    )


def _contract_named(props: MoonProperties, step: Step) -> None:
    """MOON-TRUMP-1 / MOON-LEAD-1: the named contract holds, and the (engine's) declarer leads."""
    before, after = step.before, step.after
    named = step.move["suit"]
    props.expect(
        "MOON-TRUMP-1",
        after.get("contract") == named and after.phase == "play",
        "the named contract holds for the hand's play",
        {"contract": named, "phase": "play"},
        {"contract": after.get("contract"), "phase": after.phase},
        observed=lambda: wrong((CONTRACT, after.get("contract") == named), (seen.PHASE, after.phase == "play")),
        rule="the contract holds",
    )
    declarer = declarer_of(before)
    props.expect(
        "MOON-LEAD-1",
        after.to_act == declarer and not after.zone("trick"),
        "the declarer leads the first trick",
        declarer,
        after.to_act,
        observed=lambda: {seen.TO_ACT, *((seen.zone("trick"),) if after.zone("trick") else ())},
    )
    props.cover("MOON-INV-6")


def _out_of_place(after: Snapshot, want: list[Counter[str]], got: list[Counter[str]]) -> set[str]:
    """The hands that do not hold what the rules say (their contents), the tiles that differ, and the
    widow when tiles are left in it."""
    seats = [s for s in range(N) if got[s] != want[s]]
    tiles = [t for s in seats for t in ((got[s] - want[s]) + (want[s] - got[s])).elements()]
    widow = {seen.zone("widow")} if after.zone("widow") else set()
    return {*(seen.zone(f"hand/{s}") for s in seats), *seen.cards(tiles), *widow}
