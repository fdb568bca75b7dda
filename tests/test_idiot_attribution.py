"""One deviation, one clause: which aspect of the rules the Idiot properties file a difference under.

The model (``properties/idiot/ranks.py`` and ``diff.py``) names the aspect a difference concerns by the
smallest difference; the checks map aspects to clauses (docs/rules/idiot.md, "Which clause a difference
is filed under").  These pin the decisions on small, hand-made states.
"""

from __future__ import annotations

from typing import Any

from ruleproof.properties.idiot.aspects import Aspect
from ruleproof.properties.idiot.diff import gaps
from ruleproof.properties.idiot.ranks import RankVerdicts
from ruleproof.properties.idiot.view import View
from ruleproof.properties.snapshot import Snapshot

OPTIONS = {"decks": 1, "after_burn": "next", "six_burn": 3, "two_followup": "optional", "ten_anytime": True}


def state(hand: list[str], pile: list[str], *, face_up: list[str] | None = None, draw: list[str] | None = None) -> Any:
    """Seat 0 to act in the play phase of a 2-player game (the other seat holds one card of each row)."""
    zones = {
        "hand/0": hand,
        "face_up/0": face_up if face_up is not None else ["KS", "KH", "KD"],
        "face_down/0": ["QS", "QH", "QD"],
        "hand/1": ["4C"],
        "face_up/1": ["4D"],
        "face_down/1": ["4H"],
        "draw": draw or [],
        "discard": pile,
        "burned": [],
    }
    return {
        "game": "idiot",
        "players": 2,
        "dealer": 1,
        "options": OPTIONS,
        "phase": "play",
        "to_act": 0,
        "round": 1,
        "zones": zones,
        "scores": [0, 0],
        "result": None,
        "opening_rank": None,
        "out": [],
        "pending": None,
    }


def plays(*sets: list[str]) -> list[dict[str, Any]]:
    return [{"type": "play", "cards": cards} for cards in sets]


def found(raw: Any, moves: list[dict[str, Any]], seen: RankVerdicts | None = None) -> dict[tuple[Aspect, bool], str]:
    """The gaps of a state: (aspect, missing) -> cause."""
    v = View(Snapshot(raw, tuple(moves)))
    return {(g.aspect, g.missing): g.cause for g in gaps(v, seen or RankVerdicts())}


# -- two ranks compared against the rules ------------------------------------------------------------
def test_a_queen_above_a_king_is_an_order_error_once_both_ways_are_seen() -> None:
    seen = RankVerdicts()
    seen.record("K", "Q", False)  # a K refused on a Q ...
    assert seen.one_sided("K", "Q")  # ... alone is as well a rule of its own: held (diff._hold)
    seen.record("Q", "K", True)  # ... and the Q taken on a K: another order explains both
    assert seen.classify("K", "Q", False) == (Aspect.ORDER, "Q above K")
    assert seen.classify("Q", "K", True) == (Aspect.ORDER, "Q above K")


def test_a_rank_on_anything_both_ways_is_no_order() -> None:
    seen = RankVerdicts()
    for top in "6QK":
        seen.record("5", top, True)  # a 5 on anything ...
    seen.record("K", "5", True)  # ... and a K on the 5 (the card under it decides)
    seen.record("Q", "5", True)
    assert seen.special("5")
    assert seen.classify("5", "6", True) == (Aspect.RANK, "5 unlike any order")


def test_seven_or_lower_after_a_seven_is_no_order() -> None:
    seen = RankVerdicts()
    seen.record("8", "7", False)  # an 8 refused on a 7, and the 7 refused on the 8: neither above
    seen.record("7", "8", False)
    assert seen.classify("8", "7", False)[0] is Aspect.RANK


def test_a_rank_far_off_needs_every_rank_between_seen_out_of_order() -> None:
    seen = RankVerdicts()
    seen.record("5", "9", True)  # 5 above 9 would move it past 6, 7 and 8, none seen out of order
    assert seen.classify("5", "9", True)[0] is Aspect.RANK
    for c in "678":
        seen.record("5", c, True)
    assert seen.classify("5", "9", True) == (Aspect.ORDER, "5 above 9")


def test_equal_rank_refused_is_the_play_rule() -> None:
    assert RankVerdicts().classify("9", "9", False) == (Aspect.EQUAL, "equal rank refused")


# -- the listed moves of a state -----------------------------------------------------------------------
def test_a_card_named_more_often_than_held_is_a_set_not_a_face_up_card() -> None:
    raw = state(["AC", "5D", "9C"], ["3C"], face_up=["AC", "KH", "KD"], draw=["2C"])
    listed = plays(["AC"], ["5D"], ["9C"], ["AC", "AC"])
    assert found(raw, [*listed, {"type": "pickup"}]) == {(Aspect.SET, False): "set"}


def test_a_set_missing_while_its_cards_are_listed_alone_is_the_set_rule() -> None:
    raw = state(["5C", "5D", "9C"], ["3C"], draw=["2C"])
    listed = [*plays(["5C"], ["5D"], ["9C"]), {"type": "pickup"}]
    assert found(raw, listed) == {(Aspect.SET, True): "several"}


def test_a_rank_missing_with_its_sets_is_the_rank_rule() -> None:
    raw = state(["2C", "2D", "9C"], ["AC"], draw=["3C"])  # the 2s missing on an ace: a 2 goes on anything
    got = found(raw, [{"type": "pickup"}])
    assert set(got) == {(Aspect.TWO, True)}  # the pair goes with its single cards, not under the sets


def test_face_up_ranks_of_unrelated_reasons_all_missing_is_the_face_up_zone() -> None:
    raw = state([], ["5C"], face_up=["2D", "KC", "3H"])  # hand and draw pile empty
    assert found(raw, [{"type": "pickup"}]) == {(Aspect.FACE_UP, True): "face-up"}


def test_a_face_up_rank_the_hand_was_seen_refused_is_the_rank_rule() -> None:
    seen = RankVerdicts()
    seen.record_hand("K", "5", False)  # the engine refuses a K on a 5 from the hand as well
    seen.record_hand("2", "5", False)
    raw = state([], ["5C"], face_up=["2D", "KC", "3H"])
    got = found(raw, [{"type": "pickup"}], seen)
    assert (Aspect.FACE_UP, True) not in got and (Aspect.TWO, True) in got


def test_one_suit_of_a_rank_listed_and_another_not_is_the_suits() -> None:
    raw = state(["3H", "3C", "KC"], ["9D"], draw=["2C"])  # a heart of any rank goes anywhere
    listed = [*plays(["KC"], ["3H"]), {"type": "pickup"}]
    assert found(raw, listed) == {(Aspect.SUITS, False): "suits"}


def transparent(raw: Any, rank: str = "3") -> Any:
    return {**raw, "options": {**OPTIONS, "transparent": rank}}


def test_a_play_judged_against_the_transparent_card_itself_is_its_rule() -> None:
    """IDIOT-TRANSPARENT-1: on a K under a 3 a 5 listed (judged against the 3: refused on a bare K) is the
    transparent rule's, not an order of the ranks; a 3 missing on the K is its rule too (it goes on anything);
    undeclared, a 3 is a 3."""
    seen = RankVerdicts()
    seen.record("5", "K", False)  # the engine refuses a 5 on a bare K: through the 3 it judged the 3
    through = transparent(state(["5C", "KC", "9C"], ["KD", "3H"]))
    got = found(through, [*plays(["KC"], ["5C"]), {"type": "pickup"}], seen)
    assert got == {(Aspect.TRANSPARENT, False): "through a 3"}, got
    refused = transparent(state(["3C", "KC", "9C"], ["KD"]))
    assert found(refused, [*plays(["KC"]), {"type": "pickup"}]) == {(Aspect.TRANSPARENT, True): "transparent on K"}
    assert found(state(["5C", "KC", "9C"], ["KD", "3H"]), [*plays(["KC"], ["5C"], ["9C"]), {"type": "pickup"}]) == {}


def test_an_order_the_engine_keeps_on_a_bare_card_stays_the_rank_rules_through_a_transparent_one() -> None:
    """One bug, one clause: an engine whose verdict through the 3 is the one it gives on the K with nothing on it
    (equal rank refused, a Q allowed on a K) breaks the rank rules there, not the transparent rule; a 5 it refuses
    on a bare K but allows through the 3 is the transparent rule's."""
    equal = RankVerdicts()
    equal.record("K", "K", False)  # a K refused on a bare K as well
    refused = found(transparent(state(["KC", "9C"], ["KD", "3H"])), [{"type": "pickup"}], equal)
    assert refused == {(Aspect.EQUAL, True): "equal rank refused"}, refused
    queen = RankVerdicts()
    queen.record("Q", "K", True)  # a Q taken on a bare K as well, and a K refused on a Q: its order
    queen.record("K", "Q", False)
    allowed = found(transparent(state(["QC", "KC"], ["KD", "3H"])), [*plays(["KC"], ["QC"]), {"type": "pickup"}], queen)
    assert allowed == {(Aspect.ORDER, False): allowed.get((Aspect.ORDER, False), "")} and allowed, allowed
    five = RankVerdicts()
    five.record("5", "K", False)  # a 5 refused on a bare K: allowed through the 3, the 3 was judged
    through = found(transparent(state(["5C", "KC"], ["KD", "3H"])), [*plays(["KC"], ["5C"]), {"type": "pickup"}], five)
    assert through == {(Aspect.TRANSPARENT, False): "through a 3"}, through


def test_a_burn_counted_across_a_transparent_card_is_accepted() -> None:
    """The sources leave it open: 9 9 3 9 9 burns for an engine that counts across the 3, the reference does not."""
    from ruleproof.properties.idiot.check_special import _across

    opts = {**OPTIONS, "transparent": "3"}
    assert _across(["9D", "9H", "3S", "9S", "9C"], opts)
    assert not _across(["9D", "3S", "9S", "9C"], opts)  # three 9s: no burn either way
    assert not _across(["9D", "9H", "3S", "9S", "9C"], OPTIONS)  # no transparent rank: the 3 breaks the run
    assert _across(["6D", "3S", "6S", "6C"], opts) and not _across(["6D", "3S", "6S", "6C"], {**opts, "six_burn": 4})


def capping(raw: Any, rank: str = "3") -> Any:
    return {**raw, "options": {**OPTIONS, "transparent": rank, "seven_lower": True}}


def test_a_transparent_card_on_a_capping_seven_is_told_apart_by_the_bare_sevens_verdicts() -> None:
    """Through a 3 on a 7 under seven_lower a 9 listed: the transparent rule's when the engine refused a 9 on a
    bare capping 7 (or kept the cap on every rank it judged there); the cap's own (IDIOT-SEVEN-1) when it took a
    9 on a bare 7 as well."""
    raw = capping(state(["9C", "5C", "KC"], ["4D", "7D", "3H"]))
    listed = [*plays(["9C"], ["5C"]), {"type": "pickup"}]
    kept = RankVerdicts()
    kept.record_capping("9", False)
    assert found(raw, listed, kept) == {(Aspect.TRANSPARENT, False): "through a 3"}
    lapsed = RankVerdicts()
    lapsed.record_capping("9", True)  # a 9 on a bare 7 too: the cap is what the engine misses
    assert found(raw, listed, lapsed) == {(Aspect.SEVEN, False): "above a 7"}
    seen_cap = RankVerdicts()
    seen_cap.record_capping("K", False)  # the cap kept on a K: the 9 through the 3 is the 3's
    seen_cap.record_capping("5", True)
    assert found(raw, listed, seen_cap) == {(Aspect.TRANSPARENT, False): "through a 3"}


def test_a_rank_refused_through_a_transparent_card_on_a_two_is_the_transparent_rule() -> None:
    """On 2 2 8 with a transparent 8 anything goes (the 2 is judged): a 4 refused while a 9 is listed is the
    listing of the 8 itself, the transparent rule's, once the engine was seen taking every rank on a bare 2."""
    raw = transparent(state(["4C", "9C", "KC"], ["2D", "2H", "8S"]), "8")
    listed = [*plays(["9C"], ["KC"]), {"type": "pickup"}]
    on_two = RankVerdicts()
    on_two.record_hand("4", "2", True)
    assert found(raw, listed, on_two) == {(Aspect.TRANSPARENT, True): "transparent on 8"}
    assert found(raw, listed) == {(Aspect.TRANSPARENT, True): "transparent on 8"}  # nothing seen against it
    broken = RankVerdicts()
    broken.record_hand("5", "2", False)  # a 5 refused on a bare 2: the 2's rule is what the engine misses
    assert found(raw, listed, broken) == {(Aspect.ON_TWO, True): "on a 2 on 2"}


def test_a_card_of_a_suit_refused_elsewhere_on_the_same_top_is_the_suits() -> None:
    """A 4 of hearts listed on a 5 where a 4 of clubs was refused from the hand on a 5 this game: the suits
    (IDIOT-RANK-1), not an order of the ranks; a suit told apart so is the suits' for the rest of the game."""
    seen = RankVerdicts()
    seen.record_card("4C", "5", False)
    raw = state(["4H", "9C", "KC"], ["5D"])
    assert found(raw, [*plays(["4H"], ["9C"], ["KC"]), {"type": "pickup"}], seen) == {(Aspect.SUITS, False): "suits"}
    assert found(raw, [*plays(["4H"], ["9C"], ["KC"]), {"type": "pickup"}]) != {(Aspect.SUITS, False): "suits"}
    apart = RankVerdicts()
    both = state(["3H", "3C", "KC"], ["9D"])  # 3H listed, 3C not: the suits, remembered
    assert found(both, [*plays(["KC"], ["3H"]), {"type": "pickup"}], apart) == {(Aspect.SUITS, False): "suits"}
    later = state(["5H", "9C", "KC"], ["JD"])  # a lone heart of another rank on a J, later in the game
    assert found(later, [*plays(["5H"], ["KC"]), {"type": "pickup"}], apart) == {(Aspect.SUITS, False): "suits"}
