"""The Black Maria reference engine, tested on its own.

Random playouts over every declared player count and scheme (small targets so
games end), checked at every step against the schema and the contract; the
edge cases and derived fixtures of rules.md §4.5 and §5.4 by hand; and for
every mutant of tests/mutants/black_maria.py a concrete situation where it
parts from the reference.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from attrs import evolve

import ruleproof
from ruleproof.model.engine import BadRequest, IllegalMove
from ruleproof.model.notation import STANDARD_DECK, suit
from ruleproof.reference.base import ReferenceEngine, check_setup
from ruleproof.reference.black_maria import HOUSE, BlackMaria, BlackMariaState, HouseRules
from tests.mutants import all_mutants

REF = BlackMaria()
SCHEMA = json.loads((Path(ruleproof.__file__).parent / "schemas" / "black-maria.json").read_text())
STATE_OK = jsonschema_rs.validator_for({"$ref": "#/$defs/state", "$defs": SCHEMA["$defs"]})
MOVE_OK = jsonschema_rs.validator_for({"$ref": "#/$defs/move", "$defs": SCHEMA["$defs"]})
DEAL_OK = jsonschema_rs.validator_for({"$ref": "#/$defs/deal_move", "$defs": SCHEMA["$defs"]})
ROUND_TOTAL = {"standard": 26, "spades": 43, "spot": 124}


# ------------------------------------------------------------------ helpers


def new(rules: BlackMaria = REF, players: int = 4, dealer: int = 0, **options: Any) -> BlackMariaState:
    return rules.start(players, dealer, check_setup(rules, players, dealer, options))


def shuffled_deal(rules: BlackMaria, state: BlackMariaState, rng: random.Random) -> dict[str, Any]:
    pack = list(rules.deck(state.players))
    rng.shuffle(pack)
    k = len(pack) // state.players
    return {"type": "deal", "hands": [pack[i * k : (i + 1) * k] for i in range(state.players)]}


def ordered_deal(players: int) -> dict[str, Any]:
    """Deck order, dealt in blocks: with 4 players seat 0 has the clubs, 1 the
    diamonds, 2 the hearts, 3 the spades."""
    pack = [c for c in STANDARD_DECK if not (players == 3 and c == "2C")]
    k = len(pack) // players
    return {"type": "deal", "hands": [pack[i * k : (i + 1) * k] for i in range(players)]}


def pass_first_three(rules: BlackMaria, state: BlackMariaState) -> BlackMariaState:
    while state.phase == "pass":
        state = rules.apply(state, {"type": "pass", "cards": list(state.hands[state.to_act][:3])})
    return state


def play_out_round(rules: BlackMaria, state: BlackMariaState) -> BlackMariaState:
    """Play the first legal card every time until the round is scored."""
    while state.phase == "play":
        state = rules.apply(state, rules.legal_moves(state)[0])
    return state


def last_trick(
    rules: BlackMaria = REF,
    *,
    players: int = 4,
    scoring: str = "standard",
    target: int = 1000,
    scores: tuple[int, ...] | None = None,
    taker: Callable[[str], int] = lambda card: 0,
) -> BlackMariaState:
    """The last trick of a round: seat i holds only the (i+2) of clubs, seat 0
    leads, so the highest seat number wins it; every other card of the pack
    has already been won by ``taker(card)``."""
    last = ("2C", "3C", "4C", "5C") if players == 4 else ("3C", "4C", "5C")
    won: list[list[str]] = [[] for _ in range(players)]
    for card in rules.deck(players):
        if card not in last:
            won[taker(card)].append(card)
    state = new(rules, players, 0, scoring=scoring, target=target)
    return evolve(
        state,
        phase="play",
        round=1,
        deck=(),
        hands=tuple((c,) for c in last),
        won=tuple(tuple(w) for w in won),
        scores=scores or (0,) * players,
        to_act=0,
        leader=0,
    )


def finish_trick(rules: BlackMaria, state: BlackMariaState) -> BlackMariaState:
    for _ in range(state.players - len(state.trick)):
        state = rules.apply(state, rules.legal_moves(state)[0])
    return state


def outcome(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except IllegalMove as exc:
        return ("illegal", exc.clause)


def key(move: dict[str, Any]) -> tuple[Any, ...]:
    """Moves compare as JSON values with card lists normalised (protocol.md §2)."""
    if "cards" in move:
        return (move["type"], tuple(sorted(move["cards"])), len(move))
    return (move["type"], move.get("card"), len(move))


def pack_counter(rules: BlackMaria, doc: dict[str, Any]) -> Counter[str]:
    return Counter(c for cards in doc["zones"].values() for c in cards)


# ----------------------------------------------------------- random playouts


def assert_illegal(rules: BlackMaria, state: BlackMariaState, move: Any, exc: type = IllegalMove) -> None:
    before = rules.to_json(state)
    with pytest.raises(exc):
        rules.apply(state, move)
    assert rules.to_json(state) == before


def probe_illegal(rules: BlackMaria, state: BlackMariaState, rng: random.Random) -> None:
    """Well-formed moves that break a rule, and malformed ones; none may change the state."""
    n = state.players
    for kind in ("deal", "pass", "play"):
        if kind != state.phase:
            bogus = {
                "deal": ordered_deal(n),
                "pass": {"type": "pass", "cards": ["2H", "3H", "4H"]},
                "play": {"type": "play", "card": "AS"},
            }[kind]
            assert_illegal(rules, state, bogus)
    assert_illegal(rules, state, {"type": "bid", "value": 4})
    assert_illegal(rules, state, {"type": 7}, BadRequest)
    assert_illegal(rules, state, ["play"], BadRequest)
    if state.phase == "play":
        hand = state.hands[state.to_act]
        legal = {m["card"] for m in rules.legal_moves(state)}
        for card in hand:  # exactly the legal cards are accepted
            if card not in legal:
                assert_illegal(rules, state, {"type": "play", "card": card})
        outside = [c for c in rules.deck(n) if c not in hand]
        assert_illegal(rules, state, {"type": "play", "card": rng.choice(outside)})
        assert_illegal(rules, state, {"type": "play", "card": "1S"})
        assert_illegal(rules, state, {"type": "play", "card": "2C" if n == 3 else "XX"})
        assert_illegal(rules, state, {"type": "play"}, BadRequest)
        assert_illegal(rules, state, {"type": "play", "card": ["AS"]}, BadRequest)
    elif state.phase == "pass":
        hand = list(state.hands[state.to_act])
        outside = [c for c in rules.deck(n) if c not in hand]
        assert_illegal(rules, state, {"type": "pass", "cards": hand[:2]})
        assert_illegal(rules, state, {"type": "pass", "cards": hand[:4]})
        assert_illegal(rules, state, {"type": "pass", "cards": [hand[0], hand[0], hand[1]]})
        assert_illegal(rules, state, {"type": "pass", "cards": [*hand[:2], rng.choice(outside)]})
        assert_illegal(rules, state, {"type": "pass", "cards": [*hand[:2], "ZZ"]})
        assert_illegal(rules, state, {"type": "pass", "cards": "AS KS QS"}, BadRequest)
        assert_illegal(rules, state, {"type": "pass", "cards": [*hand[:2], 3]}, BadRequest)
    elif state.phase == "deal":
        good = shuffled_deal(rules, state, rng)
        hands = good["hands"]
        assert_illegal(rules, state, {"type": "deal", "hands": hands[:-1]})
        assert_illegal(rules, state, {"type": "deal", "hands": [hands[0][:-1], *hands[1:]]})
        assert_illegal(rules, state, {"type": "deal", "hands": [[hands[1][0], *hands[0][1:]], *hands[1:]]})
        assert_illegal(rules, state, {"type": "deal", "hands": [["QQ", *hands[0][1:]], *hands[1:]]})
        if n == 3:
            assert_illegal(rules, state, {"type": "deal", "hands": [["2C", *hands[0][1:]], *hands[1:]]})
        assert_illegal(rules, state, {"type": "deal", "hands": [hands[0], "x", *hands[2:]]}, BadRequest)
        assert_illegal(rules, state, {"type": "deal", "hands": [[1, *hands[0][1:]], *hands[1:]]}, BadRequest)
        assert_illegal(rules, state, {"type": "deal"}, BadRequest)


def random_game(rules: BlackMaria, players: int, scoring: str, target: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    state = new(rules, players, rng.randrange(players), scoring=scoring, target=target)
    full_pack = Counter(rules.deck(players)) + Counter(rules.removed_cards(players))
    doc = rules.to_json(state)
    rounds = 0
    while True:
        assert STATE_OK.is_valid(doc), list(STATE_OK.iter_errors(doc))[:3]
        assert pack_counter(rules, doc) == full_pack  # BM-INV-1
        if players == 3:
            assert doc["zones"]["removed"] == ["2C"]
        if rng.random() < 0.15 or state.phase in ("deal", "over"):
            probe_illegal(rules, state, rng)
        if state.phase == "over":
            assert rules.legal_moves(state) == []
            assert_illegal(rules, state, {"type": "play", "card": "AS"})
            return doc
        moves = rules.legal_moves(state)
        if state.phase == "deal":
            assert moves == [] and doc["to_act"] is None
            move = shuffled_deal(rules, state, rng)
            assert DEAL_OK.is_valid(move)
        else:
            assert moves, "no legal move outside deal and over"
            keys = [key(m) for m in moves]
            assert len(set(keys)) == len(keys), "legal moves listed twice"
            assert all(MOVE_OK.is_valid(m) for m in moves)
            # Every legal move is accepted (all plays; a sample of the many passes).
            tried = moves if state.phase == "play" else [*rng.sample(moves, 4), moves[0], moves[-1]]
            for m in tried:
                rules.apply(state, m)
            move = rng.choice(moves)
        before = state
        state = rules.apply(state, move)
        doc = rules.to_json(state)
        if before.phase == "play" and state.phase in ("deal", "over"):
            rounds += 1
            gained = [a - b for a, b in zip(state.scores, before.scores, strict=False)]
            assert sum(gained) == ROUND_TOTAL[scoring]  # BM-INV-5
            assert min(gained) >= 0  # BM-INV-6
            assert (state.phase == "over") == any(t >= target for t in state.scores)  # BM-INV-7


@pytest.mark.parametrize("scoring", ["standard", "spades", "spot"])
@pytest.mark.parametrize("players", [3, 4])
def test_random_playouts(players: int, scoring: str) -> None:
    targets = [1, 1, 5, 13, 26, 40, 60]
    ends = Counter()
    for seed in range(40):
        target = targets[seed % len(targets)]
        doc = random_game(REF, players, scoring, target, seed * 1000 + players * 10 + len(scoring))
        assert doc["phase"] == "over"
        low = min(doc["scores"])
        assert doc["result"]["winners"] == [s for s, t in enumerate(doc["scores"]) if t == low]
        ends[doc["round"]] += 1
    assert max(ends) > 1  # some games went on to later rounds


def test_engine_contract_round_trip() -> None:
    """Through ReferenceEngine: declaration, options resolved, errors leave the state."""
    engine = ReferenceEngine([BlackMaria()])
    games = engine.hello()["games"]
    assert games == {
        "black-maria": {
            "players": [3, 4],
            "options": {
                "scoring": ["standard", "spades", "spot"],
                "target": {"min": 1, "max": 1000},
                **{k: list(v) for k, v in HOUSE.items()},  # every house rule's every value
            },
        }
    }
    defaults = {k: v[0] for k, v in HOUSE.items()}  # each house rule's default: the documents' rule
    assert engine.new_game("black-maria", 4, 2, {})["options"] == {"scoring": "standard", "target": 100, **defaults}
    assert engine.new_game("black-maria", 4, 2, {"scoring": "spades"})["options"]["target"] == 100
    got = engine.new_game("black-maria", 3, 0, {"scoring": "spot"})["options"]
    assert got == {"scoring": "spot", "target": 500, **defaults}
    doc = engine.new_game("black-maria", 3, 1, {"scoring": "spot", "target": 7})
    assert doc["options"] == {"scoring": "spot", "target": 7, **defaults}
    for players, dealer, options in [
        (5, 0, {}),
        (2, 0, {}),
        (4, 4, {}),
        (4, 0, {"scoring": "black"}),
        (4, 0, {"target": 0}),
        (4, 0, {"target": "100"}),
        (4, 0, {"shoot": True}),
        (3, 0, {"pass": "across"}),  # across needs 4 players
        (4, 0, {"moon": "shoot"}),
    ]:
        with pytest.raises(BadRequest):
            engine.new_game("black-maria", players, dealer, options)
    engine.new_game("black-maria", 3, 1, {"scoring": "standard", "target": 10})
    before = engine.state()
    with pytest.raises(IllegalMove):
        engine.apply({"type": "play", "card": "AS"})
    assert engine.state() == before and engine.legal_moves() == []


# ------------------------------------------------------------- hand-checked


def test_initial_state_and_three_player_pack() -> None:
    """B-D1: 51 cards and no 2C; the first lead is left of the dealer."""
    doc = REF.to_json(new(REF, 3, 2))
    assert doc["phase"] == "deal" and doc["round"] == 0 and doc["to_act"] is None
    assert doc["zones"]["removed"] == ["2C"] and len(doc["zones"]["deck"]) == 51
    assert "2C" not in doc["zones"]["deck"]
    state = REF.apply(new(REF, 3, 2), ordered_deal(3))
    assert all(len(h) == 17 for h in state.hands)
    assert state.phase == "pass" and state.to_act == 0  # dealer 2's left
    state = pass_first_three(REF, state)
    assert state.phase == "play" and state.to_act == state.leader == 0
    doc4 = REF.to_json(new(REF, 4, 3))
    assert "removed" not in doc4["zones"] and len(doc4["zones"]["deck"]) == 52


def test_passing_goes_right_and_at_once() -> None:
    """B-D3 and BM-PASS-1/2: seat 2 passes to seat 1; it receives from seat 3
    with 4 players and from seat 0 with 3; cards wait in passing/N."""
    for players, giver in ((4, 3), (3, 0)):
        state = REF.apply(new(REF, players, 0), ordered_deal(players))
        dealt = state.hands
        order = []
        while state.phase == "pass":
            seat = state.to_act
            order.append(seat)
            state = REF.apply(state, {"type": "pass", "cards": list(state.hands[seat][:3])})
            if state.phase == "pass":
                assert state.passing[seat] == dealt[seat][:3]
                assert all(len(h) == len(dealt[0]) for i, h in enumerate(state.hands) if i not in order)
        assert order == ([1, 2, 3, 0] if players == 4 else [1, 2, 0])
        assert set(dealt[2][:3]) <= set(state.hands[1]) and not set(dealt[2][:3]) & set(state.hands[2])
        assert set(dealt[giver][:3]) <= set(state.hands[2])
        assert all(h == () for h in state.passing)


def test_a_received_card_cannot_be_passed_on() -> None:
    """BM-PASS-2: the dealer passes last, after its left neighbour has passed to it."""
    state = REF.apply(new(REF, 4, 0), ordered_deal(4))
    for _ in range(3):
        state = REF.apply(state, {"type": "pass", "cards": list(state.hands[state.to_act][:3])})
    assert state.to_act == 0
    received = state.passing[1][0]
    with pytest.raises(IllegalMove) as err:
        REF.apply(state, {"type": "pass", "cards": [received, "2C", "3C"]})
    assert err.value.clause == "BM-PASS-2" and received in str(err.value)
    assert all(received not in m["cards"] for m in REF.legal_moves(state))
    assert len(REF.legal_moves(state)) == 286


def test_queen_discarded_on_the_first_trick() -> None:
    """B-D2: clubs led; a seat void in clubs discards QS; legal, and the
    winner takes 13 (25 under spot)."""
    hands = (("2C", "KC", "2D"), ("3C", "4D", "5D"), ("QS", "2H", "9S"), ("AC", "3D", "3H"))
    for scoring, points in (("standard", 13), ("spot", 25)):
        state = new(REF, 4, 3, scoring=scoring, target=1000)
        state = evolve(
            state,
            phase="play",
            round=1,
            deck=(),
            hands=hands,
            to_act=0,
            leader=0,
            won=((), (), (), tuple(c for c in STANDARD_DECK if not any(c in h for h in hands))),
        )
        state = REF.apply(state, {"type": "play", "card": "KC"})
        state = REF.apply(state, {"type": "play", "card": "3C"})
        assert {m["card"] for m in REF.legal_moves(state)} == {"QS", "2H", "9S"}
        state = REF.apply(state, {"type": "play", "card": "QS"})
        state = REF.apply(state, {"type": "play", "card": "AC"})
        assert state.to_act == state.leader == 3 and state.won[3][-4:] == ("KC", "3C", "QS", "AC")
        assert REF.round_scores(((), (), (), ("KC", "3C", "QS", "AC")), scoring)[3] == points


def test_hearts_and_queen_may_be_led_on_trick_one() -> None:
    """BM-LEAD-2: no hearts-broken rule, no first-trick restriction."""
    state = pass_first_three(REF, REF.apply(new(REF, 4, 1), ordered_deal(4)))
    assert state.to_act == 2  # left of dealer 1; seat 2 was dealt the hearts
    cards = {m["card"] for m in REF.legal_moves(state)}
    assert cards == set(state.hands[2]) and any(suit(c) == "H" for c in cards)


@pytest.mark.parametrize("scoring,total", ROUND_TOTAL.items())
def test_penalty_totals(scoring: str, total: int) -> None:
    """§5.4: 26, 43, 124 per deal; K/A of spades only under spades; spot values."""
    assert sum(REF.card_points(c, scoring) for c in STANDARD_DECK) == total
    assert REF.card_points("KS", scoring) == (10 if scoring == "spades" else 0)
    assert REF.card_points("AS", scoring) == (7 if scoring == "spades" else 0)
    if scoring == "spot":
        assert [REF.card_points(r + "H", "spot") for r in "23456789TJQKA"] == [
            2,
            3,
            4,
            5,
            6,
            7,
            8,
            9,
            10,
            10,
            10,
            10,
            15,
        ]


def test_round_end_scores_and_next_dealer() -> None:
    """BM-SCORE-4, BM-DEAL-2: won cards scored and added; dealer moves left;
    won zones stay until the next deal."""
    state = last_trick(scores=(5, 6, 7, 8), taker=lambda c: 1 if suit(c) == "H" else 2)
    state = finish_trick(REF, state)
    assert state.phase == "deal" and state.scores == (5, 19, 20, 8) and state.dealer == 1
    assert state.won[3] == ("2C", "3C", "4C", "5C") and state.to_act is None and state.leader is None
    doc = REF.to_json(state)
    assert STATE_OK.is_valid(doc) and doc["round"] == 1
    dealt = REF.apply(state, ordered_deal(4))
    assert dealt.round == 2 and dealt.to_act == 2 and dealt.won == ((),) * 4


def test_game_ends_after_the_round_lowest_wins_ties_share() -> None:
    """BM-END-1, BM-END-2: a total at the target ends the game after the round;
    the lowest totals win together, not the player who crossed."""
    state = last_trick(target=30, scores=(4, 10, 4, 0), taker=lambda c: 1 if c == "QS" or suit(c) == "H" else 3)
    state = finish_trick(REF, state)
    assert state.phase == "over" and state.scores == (4, 36, 4, 0)
    assert REF.to_json(state)["result"] == {"winners": [3]}
    state = finish_trick(REF, last_trick(target=26, scores=(0, 0, 0, 0), taker=lambda c: 2))
    assert state.phase == "over" and REF.to_json(state)["result"] == {"winners": [0, 1, 3]}
    assert state.dealer == 0  # over: the last round's dealer stays
    state = finish_trick(REF, last_trick(target=27, taker=lambda c: 2))
    assert state.phase == "deal"


def test_error_clauses() -> None:
    state = pass_first_three(REF, REF.apply(new(REF, 4, 0), ordered_deal(4)))
    assert state.to_act == 1
    state = REF.apply(state, {"type": "play", "card": state.hands[1][-1]})
    led = suit(state.trick[0])
    off = next(c for c in state.hands[2] if suit(c) != led)
    if any(suit(c) == led for c in state.hands[2]):
        assert outcome(lambda: REF.apply(state, {"type": "play", "card": off})) == ("illegal", "BM-FOLLOW-1")
    assert outcome(lambda: REF.apply(state, {"type": "play", "card": state.hands[1][0]})) == ("illegal", "BM-FOLLOW-1")
    assert outcome(lambda: REF.apply(state, {"type": "pass", "cards": ["2C", "3C", "4C"]})) == (
        "illegal",
        "BM-FOLLOW-1",
    )
    assert outcome(lambda: REF.apply(state, ordered_deal(4))) == ("illegal", "BM-FOLLOW-1")
    dealt = REF.apply(new(REF, 3, 0), ordered_deal(3))
    assert outcome(lambda: REF.apply(dealt, {"type": "pass", "cards": ["3C", "4C", "2C"]})) == ("illegal", "BM-PASS-1")
    fresh = new(REF, 3, 0)
    bad = ordered_deal(3)
    bad["hands"][0][0] = "2C"
    assert outcome(lambda: REF.apply(fresh, bad)) == ("illegal", "BM-DEAL-1")
    with pytest.raises(BadRequest, match=r"move\.hands"):
        REF.apply(fresh, {"type": "deal", "hands": "all"})


# ------------------------------------------------------------------ mutants


def obs_deal3(rules: BlackMaria) -> Any:
    return outcome(lambda: rules.apply(new(rules, 3, 0), ordered_deal(3)).phase)


def obs_dealer_after_round(rules: BlackMaria) -> Any:
    return finish_trick(rules, last_trick(rules)).dealer


def obs_hands_after_pass(rules: BlackMaria) -> Any:
    return pass_first_three(rules, rules.apply(new(rules, 4, 0), ordered_deal(4))).hands


def obs_dealer_passes_received(rules: BlackMaria) -> Any:
    state = rules.apply(new(rules, 4, 0), ordered_deal(4))
    for _ in range(3):
        state = rules.apply(state, {"type": "pass", "cards": list(state.hands[state.to_act][:3])})
    received = "2D"  # seat 1 was dealt the diamonds and passed 2D 3D 4D to the dealer
    return outcome(lambda: rules.apply(state, {"type": "pass", "cards": [received, "2C", "3C"]}).phase)


def obs_second_round_pass(rules: BlackMaria) -> Any:
    state = play_out_round(rules, pass_first_three(rules, rules.apply(new(rules, 4, 0, target=1000), ordered_deal(4))))
    assert state.phase == "deal"
    return pass_first_three(rules, rules.apply(state, ordered_deal(4))).hands


def obs_first_leader(rules: BlackMaria) -> Any:
    return pass_first_three(rules, rules.apply(new(rules, 4, 0), ordered_deal(4))).to_act


def play_state(
    rules: BlackMaria,
    hands: tuple[tuple[str, ...], ...],
    trick: tuple[str, ...] = (),
    won: tuple[tuple[str, ...], ...] | None = None,
) -> BlackMariaState:
    """Seat 0 leads; ``trick`` has been played by seats 0, 1, ...; the rest of
    the pack is in ``won`` (seat 3's won pile by default)."""
    held = {c for h in hands for c in h} | set(trick)
    if won is None:
        won = ((), (), (), tuple(c for c in STANDARD_DECK if c not in held))
    return evolve(
        new(rules, 4, 3),
        phase="play",
        round=1,
        deck=(),
        hands=hands,
        won=won,
        trick=trick,
        trick_seats=tuple(range(len(trick))),
        to_act=len(trick),
        leader=0,
    )


HANDS = (("2C", "AH"), ("3C", "KD"), ("4C", "5D"), ("5C", "6D"))


def obs_lead_hearts(rules: BlackMaria) -> Any:
    state = play_state(rules, HANDS, won=((), (), (), ()))  # no heart has been won yet
    return sorted(m["card"] for m in rules.legal_moves(state))


def obs_follow(rules: BlackMaria) -> Any:
    state = play_state(rules, (("AH",), ("3C", "KD"), ("4C", "5D"), ("5C", "6D")), trick=("2C",))
    return sorted(m["card"] for m in rules.legal_moves(state)), outcome(
        lambda: rules.apply(state, {"type": "play", "card": "KD"}).to_act
    )


def obs_not_held(rules: BlackMaria) -> Any:
    return outcome(lambda: rules.apply(play_state(rules, HANDS), {"type": "play", "card": "AS"}).to_act)


def obs_trick_winner(rules: BlackMaria) -> Any:
    state = finish_trick(rules, play_state(rules, (("2C",), ("KD",), ("4C",), ("5C",))))
    return [i for i, w in enumerate(state.won) if w[-4:] == ("2C", "KD", "4C", "5C")]


def obs_next_leader(rules: BlackMaria) -> Any:
    state = play_state(rules, (("AC", "2H"), ("3C", "3H"), ("4C", "4H"), ("5C", "5H")))
    return finish_trick(rules, state).to_act  # seat 0's AC wins


def obs_scores(scoring: str) -> Callable[[BlackMaria], Any]:
    def observe(rules: BlackMaria) -> Any:
        return finish_trick(rules, last_trick(rules, scoring=scoring, taker=lambda c: "CDHS".index(suit(c)))).scores

    return observe


def obs_round_added(rules: BlackMaria) -> Any:
    return finish_trick(rules, last_trick(rules, scores=(10, 20, 30, 40))).scores


def obs_moon(rules: BlackMaria) -> Any:
    return finish_trick(rules, last_trick(rules, taker=lambda c: 1)).scores


def obs_end(target: int, scores: tuple[int, ...] = (0, 0, 0, 0)) -> Callable[[BlackMaria], Any]:
    def observe(rules: BlackMaria) -> Any:
        state = finish_trick(rules, last_trick(rules, target=target, scores=scores, taker=lambda c: 1))
        return state.phase, state.winners

    return observe


def obs_games_hosted(rules: BlackMaria) -> Any:
    """The same game to its end twice on one rules object: the same final state (CONTRACT-DET-1)."""
    return [
        rules.to_json(finish_trick(rules, last_trick(rules, target=1, taker=lambda c: 1)))["dealer"] for _ in range(2)
    ]


def obs_first_dealer(rules: BlackMaria) -> Any:
    return new(rules, 4, 2).dealer


def obs_removed3(rules: BlackMaria) -> Any:
    return new(rules, 3, 0).removed


def obs_pass_size(rules: BlackMaria) -> Any:
    return {len(m["cards"]) for m in rules.legal_moves(rules.apply(new(rules, 4, 0), ordered_deal(4)))}


def obs_pass_another_hand(rules: BlackMaria) -> Any:
    state = rules.apply(new(rules, 4, 0), ordered_deal(4))  # seat 1 passes first
    cards = [*state.hands[1][:2], state.hands[2][0]]
    return outcome(lambda: rules.apply(state, {"type": "pass", "cards": cards}).phase)


def obs_first_lead_list(rules: BlackMaria) -> Any:
    state = pass_first_three(rules, rules.apply(new(rules, 4, 0), ordered_deal(4)))
    return sorted(m["card"] for m in rules.legal_moves(state))


def obs_first_trick_discard(rules: BlackMaria) -> Any:
    hands = (("3C",), ("AH", "QS", "KD"), ("4C",), ("5C",))  # seat 1 is void in clubs on trick one
    state = play_state(rules, hands, trick=("2C",), won=((), (), (), ()))
    return sorted(m["card"] for m in rules.legal_moves(state))


def obs_leader_during_trick(rules: BlackMaria) -> Any:
    return rules.to_json(rules.apply(play_state(rules, HANDS), {"type": "play", "card": "2C"}))["leader"]


def obs_queen_and_king(rules: BlackMaria) -> Any:
    state = finish_trick(rules, play_state(rules, (("KC",), ("QC",), ("2C",), ("3C",))))
    return [i for i, w in enumerate(state.won) if w[-4:] == ("KC", "QC", "2C", "3C")]


def obs_round_length(rules: BlackMaria) -> Any:
    state = play_out_round(rules, pass_first_three(rules, rules.apply(new(rules, 4, 0, target=1000), ordered_deal(4))))
    return state.phase, [len(h) for h in state.hands]


def obs_last_trick_scored(rules: BlackMaria) -> Any:
    state = play_state(rules, (("2H",), ("3H",), ("4H",), ("5H",)))  # seat 3 has won everything else
    return finish_trick(rules, state).scores


# -- the house rules (docs/rules/black-maria.md "House rules")


def obs_rotation(rules: BlackMaria) -> Any:
    return pass_first_three(rules, rules.apply(new(rules, 4, 0, **{"pass": "rotate"}), ordered_deal(4))).hands


def obs_two_clubs_three(rules: BlackMaria) -> Any:
    return pass_first_three(rules, rules.apply(new(rules, 3, 0, first_lead="two_clubs"), ordered_deal(3))).to_act


def obs_lowest_club(rules: BlackMaria) -> Any:
    state = rules.apply(new(rules, 4, 0, first_lead="two_clubs", first_trick="lowest_club"), ordered_deal(4))
    return rules.legal_moves(pass_first_three(rules, state))


def house_lead(rules: BlackMaria, house: HouseRules, hand: tuple[str, ...], won: tuple[str, ...] = ()) -> Any:
    """The lead list of seat 0 holding ``hand`` under ``house``, seat 1 having won ``won`` this round."""
    state = play_state(rules, (hand, ("3D",), ("4D",), ("5D",)), won=((), won, (), ()))
    return rules.legal_moves(evolve(state, house=house))


def obs_no_points_queen(rules: BlackMaria) -> Any:
    return house_lead(rules, HouseRules(no_points_first_trick=True), ("QS", "2C"))


def obs_queen_breaks(rules: BlackMaria) -> Any:
    return house_lead(rules, HouseRules(hearts_broken="hearts_or_queen"), ("2H", "3C"), won=("QS", "6D", "7D", "8D"))


def obs_moon_others(rules: BlackMaria) -> Any:
    state = evolve(last_trick(rules, taker=lambda c: 1), house=HouseRules(moon="others_score"))
    return finish_trick(rules, state).scores


def obs_unbroken_heart_led(rules: BlackMaria) -> Any:
    state = play_state(rules, (("2H", "3C"), ("3D",), ("4D",), ("5D",)), won=((), ("6D", "7D", "8D", "9D"), (), ()))
    state = evolve(state, house=HouseRules(hearts_broken="hearts"))
    return outcome(lambda: rules.apply(state, {"type": "play", "card": "2H"}).trick)


def test_reference_plays_each_house_rule() -> None:
    """BM-PASS-4, BM-LEAD-3..6, BM-SCORE-6 on the reference: what each declared value does."""
    assert {"2C", "3C", "4C"} <= set(obs_rotation(REF)[1])  # round 1 of rotate passes left: seat 0 to seat 1
    assert obs_two_clubs_three(REF) == 2  # 3 players: the 3C's holder (seat 0 passed it right, to seat 2)
    assert obs_lowest_club(REF) == [{"type": "play", "card": "2C"}]
    assert obs_no_points_queen(REF) == [{"type": "play", "card": "2C"}]
    assert {m["card"] for m in obs_queen_breaks(REF)} == {"2H", "3C"}  # the QS played broke hearts
    assert house_lead(REF, HouseRules(hearts_broken="hearts"), ("2H", "3C"), won=("QS",)) == [
        {"type": "play", "card": "3C"}
    ]
    assert house_lead(REF, HouseRules(hearts_broken="hearts"), ("2H", "3H")) == [
        {"type": "play", "card": "2H"},
        {"type": "play", "card": "3H"},
    ]  # only hearts: one may be led
    assert obs_moon_others(REF) == (26, 0, 26, 26)
    assert obs_unbroken_heart_led(REF) == ("illegal", "BM-LEAD-6")
    shooter = finish_trick(REF, evolve(last_trick(REF, taker=lambda c: 1), house=HouseRules(moon="shooter_minus")))
    assert shooter.scores == (0, -26, 0, 0)
    with pytest.raises(BadRequest, match="across"):
        new(REF, 3, 0, **{"pass": "across"})
    held = REF.apply(new(REF, 4, 0, **{"pass": "none"}), ordered_deal(4))
    assert held.phase == "play" and held.to_act == 1  # a hold round: straight to play


MUTANT_CASES: dict[str, Callable[[BlackMaria], Any]] = {
    "RemovesTwoOfDiamonds": obs_deal3,
    "DealerNotRotating": obs_dealer_after_round,
    "PassLeft": obs_hands_after_pass,
    "PassNotSimultaneous": obs_dealer_passes_received,
    "PassDirectionAlternates": obs_second_round_pass,
    "DealerLeadsFirstTrick": obs_first_leader,
    "HeartsMustBeBroken": obs_lead_hearts,
    "RevokeAccepted": obs_follow,
    "CardNotHeldAccepted": obs_not_held,
    "HighestCardOfAnySuitWins": obs_trick_winner,
    "WinnerDoesNotLead": obs_next_leader,
    "SpadeHonoursUnderStandard": obs_scores("standard"),
    "SpadesAceTen": obs_scores("spades"),
    "SpotQueenOfSpadesThirteen": obs_scores("spot"),
    "SpotCourtHeartsByRank": obs_scores("spot"),
    "RoundScoreNotAdded": obs_round_added,
    "ShootingTheMoon": obs_moon,
    "TargetIgnored": obs_end(target=5),
    "EndsOnlyAboveTarget": obs_end(target=26),
    "FirstOverTargetWins": obs_end(target=20, scores=(3, 0, 3, 5)),
    "TieNotShared": obs_end(target=20),
    "RevokeAcceptedOnApply": obs_follow,  # the same legal moves; only apply differs
    "QueenOfSpadesBonus": obs_scores("standard"),
    "CountsGamesHosted": obs_games_hosted,
    "FirstDealerIgnored": obs_first_dealer,
    "ThreePlayersKeepTheTwoOfClubs": obs_removed3,
    "PassesFour": obs_pass_size,
    "PassesAnyCard": obs_pass_another_hand,
    "LeadListsNextHand": obs_first_lead_list,
    "NoPointsOnFirstTrick": obs_first_trick_discard,
    "LeaderIsSeatToAct": obs_leader_during_trick,
    "QueenWinsOverKing": obs_queen_and_king,
    "RoundOneTrickShort": obs_round_length,
    "LastTrickNotScored": obs_last_trick_scored,
    "ScoresCreditedLeft": obs_scores("standard"),
    "JackOfDiamondsBonus": obs_scores("standard"),
    "RotationStartsRight": obs_rotation,
    "TwoClubsWithThreePlayers": obs_two_clubs_three,
    "LowestClubAnyClub": obs_lowest_club,
    "NoPointsForgetsTheQueen": obs_no_points_queen,
    "QueenDoesNotBreakHearts": obs_queen_breaks,
    "MoonPaysTwentyFive": obs_moon_others,
    "UnbrokenHeartAccepted": obs_unbroken_heart_led,
}

MUTANTS = {m.name: m for m in all_mutants("black-maria")}


def test_every_mutant_has_a_scenario() -> None:
    assert len(MUTANTS) >= 14
    assert set(MUTANTS) == set(MUTANT_CASES)
    assert all(m.clause.startswith(("BM-", "CONTRACT-")) and m.game == "black-maria" for m in MUTANTS.values())


@pytest.mark.parametrize("name", sorted(MUTANT_CASES))
def test_mutant_differs_from_reference(name: str) -> None:
    observe = MUTANT_CASES[name]
    mutant_rules = MUTANTS[name].rules()
    expected, got = observe(REF), observe(mutant_rules)
    assert expected != got, f"{name} behaves like the reference here: {got!r}"


def test_schema_is_valid_draft_2020_12() -> None:
    jsonschema_rs.meta.validate(SCHEMA)
    # a pass of the wrong size is the rules' business (BM-PASS-1), not the schema's
    assert MOVE_OK.is_valid({"type": "pass", "cards": ["AS", "KS"]})
    assert not MOVE_OK.is_valid({"type": "pass", "cards": "AS"})
    assert not MOVE_OK.is_valid({"type": "play", "card": "AS", "seat": 0})
    assert not MOVE_OK.is_valid({"type": "deal", "hands": []})
    assert not MOVE_OK.is_valid({"type": "play", "card": "1S"})
    doc = REF.to_json(new(REF, 4, 0))
    assert not STATE_OK.is_valid({**doc, "zones": {**doc["zones"], "pile": []}})
    assert STATE_OK.is_valid({**doc, "extra": 1, "zones": {"deck": doc["zones"]["deck"]}})
