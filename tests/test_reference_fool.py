"""The kit's own tests of the Fool reference (rules.md §1) and of its mutant gallery.

Random playouts over every declared player count and option value check the
contract (schema, distinct legal moves, every legal move accepted, illegal
moves rejected without touching the state) and the conservation invariant;
hand-checked scenarios replay rules.md §5.1 (tricks A and B, F-D1..F-D6) and
the edge cases of §1.6; and every mutant is shown to differ from the
reference on one concrete position, so none of them is equivalent.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from importlib import resources
from types import MappingProxyType
from typing import Any

import jsonschema_rs
import pytest
from attrs import evolve

from ruleproof.model.engine import BadRequest, IllegalMove
from ruleproof.model.notation import fool_box
from ruleproof.reference.base import ReferenceEngine, check_setup
from ruleproof.reference.fool import Fool, FoolState
from tests.mutants import all_mutants
from tests.mutants import fool as mutants

REF = Fool()
SCHEMA = json.loads(resources.files("ruleproof").joinpath("schemas/fool.json").read_text())
STATE_SCHEMA = jsonschema_rs.validator_for({"$ref": "#/$defs/state", "$defs": SCHEMA["$defs"]})
MOVE_SCHEMA = jsonschema_rs.validator_for({"$ref": "#/$defs/move", "$defs": SCHEMA["$defs"]})
DEAL_SCHEMA = jsonschema_rs.validator_for({"$ref": "#/$defs/deal", "$defs": SCHEMA["$defs"]})
BOX = sorted(fool_box())

# One valid explicit deck per player count (12n cards, 11n at eight players).
CUSTOM_DECKS = {
    4: {"G": 13, "R": 13, "Y": 13, "B": 12, "1": 1},
    5: {"G": 20, "R": 17, "Y": 14, "B": 9, "1": 4},
    6: {"G": 27, "R": 15, "Y": 15, "B": 13, "1": 6},
    7: {"G": 27, "R": 23, "Y": 21, "B": 11, "1": 6},
    8: {"G": 27, "R": 23, "Y": 21, "B": 15, "1": 6},
}


def options(**given: Any) -> dict[str, Any]:
    return {"deck": "assumed-2018", "two_fools_from": 7, "loss": "net", **given}


def new_game(rules: Fool, players: int, dealer: int = 0, **given: Any) -> FoolState:
    return rules.start(players, dealer, check_setup(rules, players, dealer, options(**given)))


def random_deal(rules: Fool, state: FoolState, rng: random.Random) -> dict[str, Any]:
    cards = list(state.options.deck.cards())
    rng.shuffle(cards)
    size = rules.hand_size(state.players)
    return {"type": "deal", "hands": [cards[i * size : (i + 1) * size] for i in range(state.players)]}


def step(rules: Fool, state: FoolState, rng: random.Random) -> FoolState:
    if state.phase == "deal":
        return rules.apply(state, random_deal(rules, state, rng))
    return rules.apply(state, rng.choice(rules.legal_moves(state)))


# ---------------------------------------------------------------- random playouts


def check_step(state: FoolState, rng: random.Random) -> None:
    snapshot = REF.to_json(state)
    STATE_SCHEMA.validate(snapshot)
    # FOOL-INV-1: every box card is in exactly one zone.
    assert sorted(c for zone in snapshot["zones"].values() for c in zone) == BOX
    assert len(snapshot["fools"]) <= REF.disc_count(state.players, state.options.two_fools_from)
    moves = REF.legal_moves(state)
    if state.phase != "play":
        assert moves == []
        return
    assert moves, "a seat to act always has a legal play"
    cards = [m["card"] for m in moves]
    assert len(set(cards)) == len(cards), "legal moves are distinct"
    for m in moves:
        MOVE_SCHEMA.validate(m)
        REF.apply(state, m)  # every legal move is accepted
    hand = state.hands[state.to_act]  # type: ignore[index]
    not_held = next(c for c in state.order if c not in hand)
    for card, clause in [*((c, "FOOL-FOLLOW-1") for c in set(hand) - set(cards)), (not_held, "FOOL-INV-1")]:
        try:
            REF.apply(state, {"type": "play", "card": card})
        except IllegalMove as err:
            assert err.clause == clause
        else:
            raise AssertionError(f"{card} was accepted but is not a legal move")
    assert REF.to_json(state) == snapshot, "a rejected move leaves the state untouched"


SETUPS = [
    (n, deck, two, loss)
    for n in range(4, 9)
    for deck in ("assumed-2018", "custom")
    for two in (7, 8)
    for loss in ("net", "gross")
]


@pytest.mark.parametrize(("players", "deck", "two", "loss"), SETUPS)
def test_random_playouts(players: int, deck: str, two: int, loss: str) -> None:
    rng = random.Random(f"{players}{deck}{two}{loss}")
    deck_option = CUSTOM_DECKS[players] if deck == "custom" else deck
    for _ in range(5):
        state = new_game(REF, players, rng.randrange(players), deck=deck_option, two_fools_from=two, loss=loss)
        assert REF.to_json(state)["options"]["deck"] == deck_option
        steps, deals = 0, 0
        while state.phase != "over":
            check_step(state, rng)
            if state.phase == "deal":
                deal = random_deal(REF, state, rng)
                DEAL_SCHEMA.validate(deal)
                before = state
                state = REF.apply(state, deal)
                deals += 1
                # FOOL-INV-2, FOOL-SETUP-6: full hands, no disc held, left of the dealer leads.
                assert state.fools == () and state.leader == (before.dealer + 1) % players
                assert {len(h) for h in state.hands} == {REF.hand_size(players)}
            else:
                state = step(REF, state, rng)
            steps += 1
            assert steps < 20_000
        check_step(state, rng)
        final = REF.to_json(state)
        assert final["round"] == deals and final["result"]["winners"]
        # FOOL-GAME-1: the game ends only on a threshold.
        assert (min(final["scores"]) <= -80 if loss == "net" else max(final["penalties"]) >= 80) or max(
            final["tens"]
        ) >= 6
        assert set(final["result"]["winners"]) == {
            s for s, x in enumerate(final["scores"]) if x == max(final["scores"])
        }


# ---------------------------------------------------------------- setup, deal and errors


def test_declaration_and_defaults() -> None:
    engine = ReferenceEngine([REF])
    decl = engine.hello()["games"]["fool"]
    assert decl == {
        "players": [4, 5, 6, 7, 8],
        "options": {"deck": ["assumed-2018", "custom"], "two_fools_from": [7, 8], "loss": ["net", "gross"]},
    }
    state = engine.new_game("fool", 5, 2, {})
    assert state["options"] == options() and state["phase"] == "deal" and state["round"] == 0
    assert len(state["zones"]["deck"]) == 60 and len(state["zones"]["unused"]) == 28
    assert engine.legal_moves() == []


@pytest.mark.parametrize(
    ("deck", "field"),
    [
        ({"G": 13, "R": 13, "Y": 13, "B": 12}, "options.deck.1"),
        ({"G": 13, "R": 13, "Y": 13, "B": 12, "1": 1, "W": 3}, "options.deck.W"),
        ({"G": 13, "R": 13, "Y": 13, "B": "12", "1": 1}, "options.deck.B"),
        ({"G": 13, "R": 13, "Y": 13, "B": True, "1": 1}, "options.deck.B"),
        ({"G": 13, "R": 13, "Y": 13, "B": 16, "1": 1}, "options.deck.B"),
        ({"G": 1, "R": 13, "Y": 13, "B": 12, "1": 1}, "options.deck.G"),
        ({"G": 13, "R": 13, "Y": 13, "B": 12, "1": 7}, "options.deck.1"),
        ({"G": 13, "R": 13, "Y": 13, "B": 12, "1": 2}, "options.deck:"),
        ("custom", "options.deck:"),
        ("assumed-1995", "options.deck:"),
    ],
)
def test_bad_custom_decks(deck: Any, field: str) -> None:
    with pytest.raises(BadRequest) as err:
        ReferenceEngine([REF]).new_game("fool", 4, 0, options(deck=deck))
    assert err.value.message.startswith(field)


def test_custom_deck_zones() -> None:
    state = REF.to_json(new_game(REF, 4, deck=CUSTOM_DECKS[4]))
    assert state["options"]["deck"] == CUSTOM_DECKS[4]
    assert Counter(state["zones"]["deck"]) == Counter(
        [f"{c}{n}" for c in "GRY" for n in range(2, 14)] + [f"B{n}" for n in range(2, 13)] + ["1"]
    )
    assert "G14" in state["zones"]["unused"] and state["zones"]["unused"].count("1") == 5


def test_deal_checks() -> None:
    state = new_game(REF, 4)
    good = random_deal(REF, state, random.Random(0))["hands"]
    good[0].sort(key=lambda c: c == "1")  # a coloured card last, so that swapping it out changes the multiset
    bad: list[tuple[Any, str]] = [
        (good[:3], "FOOL-DEAL-1"),
        ([good[0][:-1], good[1], good[2], good[3] + [good[0][-1]]], "FOOL-DEAL-1"),
        ([[*good[0][:-1], next(c for c in good[1] if c != "1")], *good[1:]], "FOOL-DEAL-1"),
        ([[*good[0][:-1], "G27"], *good[1:]], "FOOL-SETUP-3"),
        ([[*good[0][:-1], "P3"], *good[1:]], "FOOL-SETUP-2"),
    ]
    for hands, clause in bad:
        with pytest.raises(IllegalMove) as err:
            REF.apply(state, {"type": "deal", "hands": hands})
        assert err.value.clause == clause
    for hands in (None, [good[0], "x", good[2], good[3]], [[*good[0][:-1], 7], *good[1:]]):
        with pytest.raises(BadRequest):
            REF.apply(state, {"type": "deal", "hands": hands})
    with pytest.raises(BadRequest):
        REF.apply(state, {"type": "deal"})
    dealt = REF.apply(state, {"type": "deal", "hands": good})
    assert dealt.to_act == 1 and dealt.round == 1 and REF.to_json(dealt)["zones"].get("deck", []) == []


def test_move_errors() -> None:
    rng = random.Random(3)
    state = new_game(REF, 4)
    with pytest.raises(IllegalMove) as err:
        REF.apply(state, {"type": "play", "card": "G2"})
    assert err.value.clause == "FOOL-DEAL-1"
    for move in ({"type": "bid"}, {"type": "pass"}):
        with pytest.raises(IllegalMove):
            REF.apply(state, move)
    state = step(REF, state, rng)
    for move, error in [
        ({"type": "deal", "hands": []}, IllegalMove),
        ({"type": "discard", "card": "G2"}, IllegalMove),
        ({"type": "play", "card": "G99"}, IllegalMove),
        ({"type": "play", "card": "X"}, IllegalMove),
        ({"type": "play"}, BadRequest),
        ({"type": "play", "card": 5}, BadRequest),
        ({"card": "G2"}, BadRequest),
        ({"type": 1}, BadRequest),
        (["play"], BadRequest),
    ]:
        with pytest.raises(error):
            REF.apply(state, move)  # type: ignore[arg-type]
    with pytest.raises(IllegalMove) as err:
        REF.apply(state, {"type": "play", "card": "G27"})  # a box card outside the 4-player deck
    assert err.value.clause == "FOOL-SETUP-3"
    while state.phase != "over":
        state = step(REF, state, rng)
    for move in ({"type": "play", "card": "G2"}, {"type": "deal", "hands": []}, {"type": "nonsense"}):
        with pytest.raises(IllegalMove) as err:
            REF.apply(state, move)
        assert err.value.clause == "FOOL-INV-10"


# ---------------------------------------------------------------- scripted positions

FULL_ORDER = MappingProxyType({card: i for i, card in enumerate(dict.fromkeys(fool_box()))})


def position(
    rules: Fool,
    hands: list[list[str]],
    *,
    leader: int = 0,
    fools: tuple[int, ...] = (),
    previous: tuple[int, ...] = (),
    scores: tuple[int, ...] | None = None,
    tens: tuple[int, ...] | None = None,
    penalties: tuple[int, ...] | None = None,
    **given: Any,
) -> FoolState:
    """A mid-round position with the given hands (any box cards: trick-level scenarios only)."""
    n = len(hands)
    zeros = (0,) * n
    start = new_game(rules, n, (leader - 1) % n, **given)
    return evolve(
        start,
        order=FULL_ORDER,
        phase="play",
        round=1,
        deck=(),
        hands=tuple(tuple(sorted(h, key=FULL_ORDER.__getitem__)) for h in hands),
        leader=leader,
        to_act=rules.participants(n, leader, rules.sitting_out(fools, previous))[0],
        fools=fools,
        previous_fools=previous,
        scores=scores or zeros,
        tens=tens or zeros,
        penalties=penalties or zeros,
    )


def play(rules: Fool, state: FoolState, *cards: str) -> FoolState:
    for card in cards:
        state = rules.apply(state, {"type": "play", "card": card})
    return state


def legal_cards(rules: Fool, state: FoolState) -> set[str]:
    return {m["card"] for m in rules.legal_moves(state)}


# Rules.md §5.1, the 1995 example: Anja 0, Bettina 1, Uwe 2, Ilja 3; Ilja holds the disc.
def trick_a(rules: Fool) -> FoolState:
    hands = [["B9", "Y2", "G3"], ["B5", "G4", "G5"], ["B10", "Y11", "G6"], ["R5", "G7", "G8"]]
    return position(rules, hands, leader=0, fools=(3,))


def test_source_example_tricks_a_and_b() -> None:
    state = trick_a(REF)
    assert state.to_act == 0
    state = play(REF, state, "B9", "B5")
    assert state.to_act == 2  # Ilja sits out (FOOL-SIT-1)
    state = play(REF, state, "B10")
    assert state.fools == (1,) and state.leader == 2 and state.to_act == 2  # Bettina fool, Uwe wins
    state = play(REF, state, "Y11")
    assert state.to_act == 3  # Ilja plays again, Bettina sits out (FOOL-SIT-2)
    assert legal_cards(REF, state) == {"R5", "G7", "G8"}  # no yellow: anything
    state = play(REF, state, "R5")
    assert legal_cards(REF, state) == {"Y2"}  # Anja holds yellow
    state = play(REF, state, "Y2")
    assert state.fools == (3,) and state.leader == 2 and state.phase == "play"
    assert REF.to_json(state)["zones"]["played"] == ["B9", "B5", "B10", "Y11", "R5", "Y2"]


def fd1(rules: Fool) -> FoolState:
    hands = [["R12", "R3"], ["G4", "G5"], ["B4", "B5"], ["R7", "R8"]]
    return play(rules, position(rules, hands, leader=0, fools=(3,)), "R12", "G4", "B4")


def test_fd1_off_colour_tie_later_is_worse() -> None:
    state = fd1(REF)
    assert state.fools == (2,) and state.leader == 0


def fd2(rules: Fool) -> FoolState:
    hands = [["Y9", "Y3"], ["1", "Y4", "Y5"], ["G20", "G5"], ["R7", "R8"]]
    state = play(rules, position(rules, hands, leader=0, fools=(3,)), "Y9")
    return play(rules, state, "1", "G20")


def test_fd2_a_one_is_never_off_colour() -> None:
    hands = [["Y9", "Y3"], ["1", "Y4", "Y5"], ["G20", "G5"], ["R7", "R8"]]
    state = play(REF, position(REF, hands, leader=0, fools=(3,)), "Y9")
    assert legal_cards(REF, state) == {"1", "Y4", "Y5"}  # edge case 1: the 1 is legal
    state = fd2(REF)
    assert state.fools == (2,) and state.leader == 0


def fd3(rules: Fool) -> FoolState:
    hands = [["1", "G9"], ["1", "R9"], ["B7", "G10"], ["B3", "G11"]]
    return play(rules, position(rules, hands, leader=0), "1", "1", "B7", "B3")


def test_fd3_led_one_then_colour() -> None:
    hands = [["1", "G9"], ["1", "R9"], ["B7", "G10"], ["B3", "G11"]]
    state = play(REF, position(REF, hands, leader=0), "1")
    assert legal_cards(REF, state) == {"1", "R9"}  # lead colour undefined: anything
    state = play(REF, state, "1", "B7")
    assert legal_cards(REF, state) == {"B3"}  # blue is now the lead colour
    state = fd3(REF)
    assert state.fools == (1,) and state.leader == 2


def fd4(rules: Fool, **given: Any) -> FoolState:
    hands = [["G15", "G2"], ["G3", "G4"], ["R2", "R3"], ["1", "G5"], ["G8", "G9"], ["G10", "G11"], ["G12", "G13"]]
    return play(rules, position(rules, hands, leader=0, fools=(5, 6), **given), "G15", "G3", "R2", "1", "G8")


def test_fd4_two_fools_at_seven() -> None:
    state = fd4(REF)
    assert state.fools == (2, 3) and state.leader == 0
    assert REF.participants(7, 0, REF.sitting_out(state.fools, state.previous_fools)) == (0, 1, 4, 5, 6)


def fd5(rules: Fool) -> FoolState:
    hands = [["1", "G9"], ["1", "R9"], ["1", "G10"], ["B3", "G11"]]
    return play(rules, position(rules, hands, leader=0, fools=(3,)), "1", "1", "1")


def test_fd5_all_ones() -> None:
    state = fd5(REF)
    assert state.fools == (2,) and state.leader == 0 and state.to_act == 0


def fd6(rules: Fool, **given: Any) -> FoolState:
    # Seat 1 goes out with the worst card; seat 2 keeps 1, G9, B2; seat 3 sits out with G13, G14.
    hands = [["G10", "G11"], ["G2"], ["G12", "1", "G9", "B2"], ["G13", "G14"]]
    return play(rules, position(rules, hands, leader=0, fools=(3,), **given), "G10", "G2", "G12")


def test_fd6_scoring() -> None:
    state = fd6(REF)
    snap = REF.to_json(state)
    assert snap["phase"] == "deal" and snap["fools"] == [1] and snap["to_act"] is None and snap["leader"] is None
    assert snap["scores"] == [-11, 0, -16, -27]
    assert snap["tens"] == [0, 0, 0, 0] and snap["penalties"] == [11, 0, 16, 27]
    assert snap["dealer"] == 0  # position() made seat 3 the dealer; the deal moves left (FOOL-TURN-2)
    assert snap["zones"]["trick"] == [] and snap["zones"]["played"] == ["G10", "G2", "G12"]


def test_going_out_scores_ten_and_sixth_ten_ends() -> None:
    hands = [["G10"], ["G2", "G3"], ["G12", "1"], ["G13", "G14"]]
    state = play(REF, position(REF, hands, leader=0, fools=(3,), tens=(5, 0, 0, 0)), "G10", "G2", "G12")
    snap = REF.to_json(state)
    assert snap["scores"] == [10, -3, -5, -27] and snap["tens"] == [6, 0, 0, 0]
    assert snap["phase"] == "over" and snap["result"] == {"winners": [0]} and snap["dealer"] == 3


def test_off_colour_only_ones_in_lead_colour() -> None:
    # Edge case 2: a player whose only red cards are 1s may play anything.
    hands = [["R9", "R3"], ["1", "G4", "B5"], ["G20", "G5"], ["R7", "R8"]]
    state = play(REF, position(REF, hands, leader=0, fools=(3,)), "R9")
    assert legal_cards(REF, state) == {"1", "G4", "B5"}
    assert [m["card"] for m in REF.legal_moves(position(REF, [["1", "1", "G2"], ["G3"], ["G4"], ["G5"]]))] == [
        "G2",
        "1",
    ]


def test_game_over_on_minus_eighty_and_shared_win() -> None:
    state = fd6(REF, scores=(11, 0, 0, -53))
    snap = REF.to_json(state)
    assert snap["scores"] == [0, 0, -16, -80] and snap["phase"] == "over"
    assert snap["result"] == {"winners": [0, 1]} and snap["dealer"] == 3 and snap["round"] == 1


def test_gross_loss() -> None:
    assert REF.to_json(fd6(REF, loss="gross", penalties=(0, 0, 0, 52)))["phase"] == "deal"
    assert REF.to_json(fd6(REF, loss="gross", penalties=(0, 0, 0, 53)))["phase"] == "over"


def test_apply_is_pure() -> None:
    state = trick_a(REF)
    before = REF.to_json(state)
    after = play(REF, state, "B9", "B5", "B10")
    assert REF.to_json(state) == before and after != state


# ---------------------------------------------------------------- every mutant differs


def after_round_and_deal(rules: Fool, players: int = 4) -> dict[str, Any]:
    """Play a seeded random round to its end and deal the next one (identical moves until then)."""
    rng = random.Random(11)
    start = new_game(rules, players, 1)
    state = rules.apply(start, random_deal(rules, start, rng))
    while state.phase == "play":
        state = rules.apply(state, rng.choice(rules.legal_moves(state)))
    ended = rules.to_json(state)
    dealt = rules.to_json(rules.apply(state, random_deal(rules, state, rng)))
    return {"ended": ended, "dealt": dealt}


def first_deal(rules: Fool) -> Any:
    start = new_game(rules, 5, 2)
    return rules.to_json(rules.apply(start, random_deal(rules, start, random.Random(5))))


def seven_first_trick(rules: Fool, two: int) -> Any:
    hands = [["G15"], ["G3"], ["R2"], ["1"], ["G8"], ["G9"], ["G10"]]
    hands = [[*h, "B2", "B3"] for h in hands]
    state = position(rules, hands, leader=0, two_fools_from=two)
    return rules.to_json(play(rules, state, "G15", "G3", "R2", "1", "G8", "G9", "G10"))["fools"]


def second_fool(rules: Fool) -> Any:
    hands = [["G15", "G2"], ["R9", "R3"], ["B12", "B3"], ["G3", "G4"], ["G8", "G9"], ["G10"], ["G12"]]
    return rules.to_json(play(rules, position(rules, hands, leader=0, fools=(5, 6)), "G15", "R9", "B12", "G3", "G8"))[
        "fools"
    ]


def revoke(rules: Fool) -> Any:
    hands = [["R9", "R3"], ["R4", "G4", "1"], ["G20", "G5"], ["R7", "R8"]]
    return legal_cards(rules, play(rules, position(rules, hands, leader=0, fools=(3,)), "R9"))


def only_ones(rules: Fool) -> Any:
    hands = [["R9", "R3"], ["1", "G4", "B5"], ["G20", "G5"], ["R7", "R8"]]
    return legal_cards(rules, play(rules, position(rules, hands, leader=0, fools=(3,)), "R9"))


def follow_after_led_one(rules: Fool) -> Any:
    hands = [["1", "G9"], ["B7", "G3"], ["B4", "G10"], ["B3", "G11"]]
    return legal_cards(rules, play(rules, position(rules, hands, leader=0), "1", "B7"))


def fd6_json(rules: Fool, **given: Any) -> Any:
    return rules.to_json(fd6(rules, **given))


def one_after_trick_a(rules: Fool) -> Any:
    return rules.to_json(play(rules, trick_a(rules), "B9", "B5", "B10"))


def trick_b_to_act(rules: Fool) -> Any:
    return play(rules, trick_a(rules), "B9", "B5", "B10", "Y11").to_act


def sixth_ten(rules: Fool) -> Any:
    hands = [["G10"], ["G2", "G3"], ["G12", "1"], ["G13", "G14"]]
    state = position(rules, hands, leader=0, fools=(3,), tens=(5, 0, 0, 0))
    return rules.to_json(play(rules, state, "G10", "G2", "G12"))["phase"]


def off_colour_applied(rules: Fool) -> Any:
    """The same legal moves as the reference; only apply takes the off-colour G4 from a seat holding R4."""
    hands = [["R9", "R3"], ["R4", "G4", "1"], ["G20", "G5"], ["R7", "R8"]]
    state = play(rules, position(rules, hands, leader=0, fools=(3,)), "R9")
    try:
        return rules.apply(state, {"type": "play", "card": "G4"}).to_act
    except IllegalMove as exc:
        return ("illegal", exc.clause)


def two_ones_hand(rules: Fool) -> Any:
    """Seat 0 leads one of its two 1s: the other stays in its hand."""
    hands = [["1", "1", "G2"], ["G3", "G4"], ["G5", "G6"], ["G7", "G8"]]
    return play(rules, position(rules, hands, leader=0), "1").hands[0]


MUTANT_CASES: dict[str, Callable[[Fool], Any]] = {
    "LossDefaultsGross": lambda r: r.defaults(5)["loss"],  # CONTRACT-SETUP-3: an option left out of new_game
    "WorstLowestOverall": lambda r: rules_json_fools(r, play(r, trick_a(r), "B9", "B5", "B10", "Y11", "R5", "Y2")),
    "WorstTieEarlier": lambda r: fd1(r).fools,
    "SecondFoolLowestNumber": second_fool,
    "WildForcesFollow": only_ones,
    "RevokeAllowed": revoke,
    "WildOffColour": lambda r: fd2(r).fools,
    "LedWildCancelsFollow": follow_after_led_one,
    "WinnerHighestAnyColour": lambda r: fd2(r).leader,
    "AllWildTrickLastWins": lambda r: fd5(r).leader,
    "OneFoolAtSeven": lambda r: seven_first_trick(r, 7),
    "TwoFoolsFromIgnored": lambda r: seven_first_trick(r, 8),
    "FoolPlaysOn": one_after_trick_a,
    "FoolSitsOutTwice": trick_b_to_act,
    "DiscsKeptOverRounds": lambda r: after_round_and_deal(r)["dealt"]["fools"],
    "DealerLeads": lambda r: first_deal(r)["to_act"],
    "ShortBlueAtSix": lambda r: r.to_json(new_game(r, 6))["zones"]["unused"],
    "LeaderNamesLastPlayer": lambda r: r.to_json(play(r, trick_a(r), "B9", "B5"))["leader"],  # led by seat 0
    "OneTakesTwoOnes": two_ones_hand,
    "DealerStays": lambda r: after_round_and_deal(r)["ended"]["dealer"],
    "RoundContinuesAfterOut": lambda r: fd6_json(r)["phase"],
    "FoolOutScoresTen": lambda r: fd6_json(r)["scores"],
    "WildCostsOne": lambda r: fd6_json(r)["scores"],
    "FoolOutTallies": lambda r: fd6_json(r)["tens"],
    "SixthTenNotEnough": sixth_ten,
    "LossBelowEighty": lambda r: fd6_json(r, scores=(0, 0, 0, -53))["phase"],
    "GrossCountsNet": lambda r: fd6_json(r, loss="gross", penalties=(0, 0, 0, 53))["phase"],
    "TieWinnerLowestSeat": lambda r: fd6_json(r, scores=(11, 0, 0, -53))["result"],
    "OffColourAccepted": off_colour_applied,
    "LastPlayersAreFools": second_fool,  # the off-colour R9 and B12 are the fools, not the last two played
    "FoolLeadsNext": lambda r: fd2(r).leader,
}


def rules_json_fools(rules: Fool, state: FoolState) -> Any:
    return rules.to_json(state)["fools"]


def test_every_mutant_has_a_difference() -> None:
    assert {m.name for m in all_mutants("fool")} == set(MUTANT_CASES)


@pytest.mark.parametrize("name", sorted(MUTANT_CASES))
def test_mutant_differs(name: str) -> None:
    cls = getattr(mutants, name)
    assert issubclass(cls, Fool) and len([k for k in vars(cls) if not k.startswith("_") and k != "engine"]) == 1
    assert MUTANT_CASES[name](REF) != MUTANT_CASES[name](cls())


def test_mutants_survive_random_play() -> None:
    """No mutant crashes or stalls in random games (the certifier must be able to play them)."""
    for m in all_mutants("fool"):
        rules = m.rules()
        rng = random.Random(m.name)
        for players in (4, 7):
            state = new_game(rules, players, 0)
            for _ in range(400):
                if state.phase == "over":
                    break
                state = step(rules, state, rng)
                STATE_SCHEMA.validate(rules.to_json(state))
