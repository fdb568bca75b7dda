"""Fool: which clause a wrong set of fools is filed under, and the steered deals of the exploration.

``misjudged`` names the rule whose one misreading gives the engine's fools (docs/rules/fool.md, "Which
clause a deviation is filed under"); ``arranged`` and ``favourites`` make the games that reach a sixth
+10 and a shared win, with deals the rules allow.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ruleproof.model.notation import FOOL_COLOURS, fool_colour, fool_number
from ruleproof.properties.fool import (
    ASSUMED_2018,
    Trick,
    arranged,
    deck_cards,
    favourites,
    hand_size,
    lead_colour,
    misjudged,
    winner_index,
    worst_order,
)


def trick(cards: list[str], k: int, engine_fools: list[int]) -> Trick:
    """The trick ``cards``, played by seats 0, 1, ... in order, whose fools the engine says are ``engine_fools``."""
    seats = tuple(range(len(cards)))
    lead = lead_colour(cards)
    order = tuple(worst_order(cards, lead))
    return Trick(
        tuple(cards),
        seats,
        lead,
        order,
        tuple(sorted(order[:k])),
        winner_index(cards, lead),
        tuple(sorted(engine_fools)),
    )


FIXTURE_7P = ["G10", "G12", "R5", "B5", "1", "G3", "Y20"]  # fixture fool-7p-two-fools-from-7: fools B5 and R5


@pytest.mark.parametrize(
    ("cards", "k", "engine", "clauses"),
    [
        # edge case 3: Y9 led, a 1, G20; the engine takes the 1: a 1 read as off-colour, or numbers alone
        (["Y9", "1", "G20"], 1, [1], {"FOOL-WILD-2", "FOOL-WORST-2"}),
        # a lead-colour G3 taken over the off-colour R5: the off-colour rule ignored
        (["G10", "G3", "R5"], 1, [1], {"FOOL-WORST-2"}),
        # off-colour R4 and B4: the earlier one taken
        (["R12", "G4", "B4"], 1, [1], {"FOOL-WORST-3"}),
        # all 1s: the first 1 taken
        (["1", "1", "1"], 1, [0], {"FOOL-WORST-3"}),
        # two discs: B5 and the 1, by "a 1 is off-colour" or by the second fool taken by number
        (FIXTURE_7P, 2, [3, 4], {"FOOL-WILD-2", "FOOL-WORST-4"}),
        # two discs: the 1 and G3, the two lowest numbers
        (FIXTURE_7P, 2, [4, 5], {"FOOL-WORST-2"}),
        # two discs: B5 and the led G10, by no one misreading: the off-colour R5 left out decides
        (FIXTURE_7P, 2, [0, 3], {"FOOL-WORST-2"}),
    ],
)
def test_a_wrong_fool_is_filed_under_the_rule_misread(
    cards: list[str], k: int, engine: list[int], clauses: set[str]
) -> None:
    t = trick(cards, k, engine)
    assert t.got_fools != t.want_fools
    assert {clause for clause, _ in misjudged(t, k)} == clauses


@pytest.mark.parametrize("players", sorted(ASSUMED_2018))
def test_steered_deals_are_deals_the_rules_allow(players: int) -> None:
    deck = deck_cards(ASSUMED_2018[players])
    h = hand_size(players)
    rng = random.Random(players)
    for v in range(100):
        favs = favourites(players, v)
        assert len(set(favs)) == len(favs) and all(0 <= s < players for s in favs)
        cards = list(deck)
        rng.shuffle(cards)
        hands = arranged(cards, favs, players, h)
        assert [len(hand) for hand in hands] == [h] * players
        assert Counter(c for hand in hands for c in hand) == Counter(deck)
        for i, colour in enumerate(FOOL_COLOURS):  # each favourite holds its share of the colour's top cards
            quota = h // 4 + (1 if i < h % 4 else 0)
            numbers = sorted((fool_number(c) for c in deck if fool_colour(c) == colour), reverse=True)
            top = numbers[: (3 * quota * len(favs) + 1) // 2]
            for seat in favs:
                assert len([c for c in hands[seat] if fool_colour(c) == colour and fool_number(c) in top]) >= quota


def test_favourites_by_table_size() -> None:
    for players in sorted(ASSUMED_2018):
        counts = Counter(len(favourites(players, v)) for v in range(100))
        assert counts[0] == 25  # one game in four is not steered
        assert (counts[1] > 0) == (players <= 6)  # one favourite only where a sixth +10 can come before -80
        assert counts[2] > 0
