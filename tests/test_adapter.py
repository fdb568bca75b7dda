"""ruleproof.adapter: new_game's setup checked against hello as the contract asks, defaults filled in."""

from __future__ import annotations

from typing import Any

import pytest

from ruleproof.adapter import Adapter, BadRequest, Unsupported, check_setup, contract_defaults
from ruleproof.model.engine import JSONObject, Move, State

BM: JSONObject = {"players": [3, 4], "options": {"scoring": ["standard", "spot"], "target": {"min": 1, "max": 1000}}}


@pytest.mark.parametrize(
    ("players", "dealer", "options", "field"),
    [
        (5, 0, {}, "players"),
        (True, 0, {}, "players"),
        (3, 3, {}, "dealer"),
        (3, -1, {}, "dealer"),
        (3, "0", {}, "dealer"),
        (3, 0, [], "options"),
        (3, 0, {"moon": "others_score"}, "options.moon"),  # a contract option the engine does not declare
        (3, 0, {"scoring": "spades"}, "options.scoring"),  # a contract value it does not declare
        (3, 0, {"scoring": 1}, "options.scoring"),
        (3, 0, {"target": "14"}, "options.target"),
        (3, 0, {"target": True}, "options.target"),
        (3, 0, {"target": 0}, "options.target"),
        (3, 0, {"target": 1001}, "options.target"),
    ],
)
def test_a_setup_outside_the_declaration_is_a_bad_request_naming_its_field(
    players: Any, dealer: Any, options: Any, field: str
) -> None:
    with pytest.raises(BadRequest, match=rf"^{field}: "):
        check_setup(BM, "black-maria", players, dealer, options)


def test_options_left_out_take_the_contracts_defaults() -> None:
    assert check_setup(BM, "black-maria", 4, 3, {}) == {"scoring": "standard", "target": 100}
    assert check_setup(BM, "black-maria", 3, 0, {"scoring": "spot"}) == {"scoring": "spot", "target": 500}
    assert check_setup(BM, "black-maria", 3, 0, {"target": 7}) == {"scoring": "standard", "target": 7}
    assert contract_defaults("idiot", 6, {})["decks"] == 2  # three players a deck (IDIOT-SETUP-1)


def test_a_value_of_the_right_type_only() -> None:
    fool: JSONObject = {"players": [3], "options": {"two_fools_from": [7, 8]}}
    with pytest.raises(BadRequest, match=r"options\.two_fools_from"):
        check_setup(fool, "fool", 3, 0, {"two_fools_from": 7.0})
    assert check_setup(fool, "fool", 3, 0, {"two_fools_from": 8})["two_fools_from"] == 8


class Counting(Adapter):
    """An engine of one number: each move adds to it."""

    def hello(self) -> JSONObject:
        return {"protocol": 1, "engine": {"name": "counting", "version": "1"}, "games": {"black-maria": BM}}

    def start(self, game: str, players: int, dealer: int, options: JSONObject) -> None:
        self.started, self.total = (players, dealer, options), 0

    def moves(self) -> list[Move]:
        return [{"type": "add", "n": 1}]

    def play(self, move: Move) -> None:
        self.total += move["n"]

    def to_json(self) -> State:
        return {"total": self.total}


def test_the_base_class_checks_then_hands_the_engine_a_full_setup() -> None:
    adapter = Counting()
    with pytest.raises(BadRequest, match="no game"):
        adapter.legal_moves()
    with pytest.raises(BadRequest, match="no game"):
        adapter.apply({"type": "add", "n": 1})
    with pytest.raises(Unsupported, match="moon"):
        adapter.new_game("moon", 3, 0, {})
    with pytest.raises(BadRequest, match="not a game of the contract"):
        adapter.new_game("chess", 2, 0, {})
    with pytest.raises(BadRequest, match="players"):
        adapter.new_game("black-maria", 6, 0, {})
    assert adapter.new_game("black-maria", 3, 1, {"scoring": "spot"}) == {"total": 0}
    assert adapter.started == (3, 1, {"scoring": "spot", "target": 500})
    assert adapter.apply(adapter.legal_moves()[0]) == {"total": 1} == adapter.state()
    adapter.close()
    with pytest.raises(BadRequest, match="no game"):
        adapter.state()


def test_a_subclass_that_maps_nothing_says_which_method_is_missing() -> None:
    with pytest.raises(NotImplementedError, match=r"Adapter\.hello"):
        Adapter().new_game("moon", 3, 0, {})
