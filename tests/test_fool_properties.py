"""Fool properties and fixtures, checked through the kit against the reference engine used as a black box.

A refused ``new_game`` cannot be written as a fixture step yet (fixtures always start a game), so the
custom-deck checks of rules.md §1.2 (FOOL-SETUP-4, FOOL-AMB-1) are stated here.
"""

from __future__ import annotations

import pytest

from ruleproof.model.engine import BadRequest
from ruleproof.model.fixtures import bundled
from ruleproof.properties.fool import ASSUMED_2018, FoolProperties, deck_cards, deck_size, explicit_deck, profile
from ruleproof.reference import ReferenceEngine, rules_for


def engine() -> ReferenceEngine:
    return ReferenceEngine([rules_for("fool")])


def options(deck: object) -> dict[str, object]:
    return {"deck": deck, "two_fools_from": 7, "loss": "net"}


def test_assumed_table_sums_to_12n() -> None:
    for n, prof in ASSUMED_2018.items():
        assert len(deck_cards(prof)) == deck_size(n)


@pytest.mark.parametrize(
    ("players", "deck", "field"),
    [
        (4, {"G": 17, "R": 13, "Y": 11, "B": 8, "1": 4}, None),  # 49 cards, not 48 (FOOL-SETUP-4)
        (4, {"G": 28, "R": 13, "Y": 11, "B": 2, "1": 0}, "G"),  # green beyond the box (G 2-27)
        (4, {"G": 17, "R": 13, "Y": 11, "B": 8, "1": 7}, "1"),  # more 1s than the box holds
        (4, {"G": 17, "R": 13, "Y": 11, "B": 8}, "1"),  # a field missing
        (4, {"G": 17, "R": 13, "Y": 11, "B": 8, "1": 3, "X": 1}, "X"),  # an unknown field
        (4, {"G": 1, "R": 23, "Y": 21, "B": 4, "1": 6}, "G"),  # a colour must run 2..max, max >= 2
        (8, {"G": 26, "R": 23, "Y": 21, "B": 15, "1": 6}, None),  # 8 players need the whole box (88)
        (4, "custom", None),  # the string "custom" is a declaration, not a deck
    ],
)
def test_bad_custom_deck_is_refused_with_a_clear_message(players: int, deck: object, field: str | None) -> None:
    with pytest.raises(BadRequest) as err:
        engine().new_game("fool", players, 0, options(deck))
    message = err.value.message
    assert message.strip()
    if field is not None:
        assert field in message, message


def test_good_custom_deck_is_accepted_and_echoed() -> None:
    deck = {"G": 15, "R": 13, "Y": 11, "B": 10, "1": 3}
    state = engine().new_game("fool", 4, 0, options(deck))
    assert state["options"]["deck"] == deck
    in_play = sorted(c for z, cards in state["zones"].items() if z != "unused" for c in cards)
    assert in_play == sorted(deck_cards(profile(4, deck)))


def test_drawn_explicit_decks_are_valid() -> None:
    for n in range(4, 9):
        check_explicit_decks(n)


def check_explicit_decks(n: int) -> None:
    from hypothesis import given, settings

    @settings(max_examples=30, database=None)
    @given(explicit_deck(n))
    def check(deck: dict[str, int]) -> None:
        assert len(deck_cards(deck)) == deck_size(n)
        engine().new_game("fool", n, 0, options(deck))

    check()


def test_fixtures_are_bundled_and_cite_fool_clauses() -> None:
    fixtures = bundled("fool")
    ids = {fx.id for fx in fixtures}
    for need in ("fool-1995-tricks-a-b", "fool-F-D1", "fool-F-D2", "fool-F-D3", "fool-F-D4", "fool-F-D5", "fool-F-D6"):
        assert need in ids
    reported = set(FoolProperties.all_clauses())
    for fx in fixtures:
        assert set(fx.clauses) <= reported, fx.id
