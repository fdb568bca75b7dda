"""Unit tests of the Moon reference engine (rules.md §3) and of its mutant gallery.

Random playouts over every option value check the contract at every step
(schema, distinct legal moves, every legal move accepted, illegal moves
rejected without touching the state); hand-checked scenarios cover rules.md
§3.5 and §5.3 (ranking examples, M-D1..M-D7); and every mutant is shown to
differ from the reference on a concrete situation.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from attrs import evolve

from ruleproof.model.engine import BadRequest, IllegalMove
from ruleproof.model.notation import MOON_TILES
from ruleproof.reference.base import ReferenceEngine, check_setup
from ruleproof.reference.moon import Moon, MoonState
from tests.mutants import all_mutants
from tests.mutants import moon as m

REF = Moon()
SCHEMA = json.loads((Path(__file__).parents[1] / "ruleproof" / "schemas" / "moon.json").read_text())
STATE = jsonschema_rs.validator_for({"$ref": "#/$defs/state", "$defs": SCHEMA["$defs"]})
MOVE = jsonschema_rs.validator_for({"$ref": "#/$defs/move", "$defs": SCHEMA["$defs"]})
DEAL = jsonschema_rs.validator_for({"$ref": "#/$defs/deal", "$defs": SCHEMA["$defs"]})
OPTIONS = [
    {"all_pass": a, "doubles_trump": d, "shoot": s}
    for a, d, s in itertools.product(["redeal", "forced_bid"], [True, False], ["wins_game", "scores_21"])
]


# ---------------------------------------------------------------- helpers


def options(**kw: Any) -> dict[str, Any]:
    return {**REF.defaults(3), **kw}


def random_deal(rng: random.Random) -> dict[str, Any]:
    tiles = list(MOON_TILES)
    rng.shuffle(tiles)
    return {"type": "deal", "hands": [tiles[0:7], tiles[7:14], tiles[14:21]], "widow": tiles[21]}


def deal_of(h0: list[str], h1: list[str] | None = None, widow: str | None = None) -> dict[str, Any]:
    """A deal giving seat 0 ``h0`` (and seat 1 ``h1``); the rest is spread in set order."""
    rest = [t for t in MOON_TILES if t not in h0 and t not in (h1 or []) and t != widow]
    if widow is None:
        widow = rest.pop()
    if h1 is None:
        h1, rest = rest[:7], rest[7:]
    return {"type": "deal", "hands": [h0, h1, rest], "widow": widow}


def run(rules: Moon, state: MoonState, *moves: dict[str, Any]) -> MoonState:
    for move in moves:
        state = rules.apply(state, move)
    return state


def started(rules: Moon, dealer: int = 2, **kw: Any) -> MoonState:
    """A game whose first bidder is seat 0 (dealer 2), dealt in set order."""
    return rules.apply(rules.start(3, dealer, options(**kw)), deal_of(list(MOON_TILES[:7])))


def play_state(
    hands: list[list[str]],
    contract: Any,
    *,
    to_act: int = 0,
    trick: tuple[str, ...] = (),
    trick_seats: tuple[int, ...] = (),
    declarer: int = 0,
) -> MoonState:
    """A play-phase state for follow and trick checks (only the named tiles matter)."""
    leader = trick_seats[0] if trick_seats else to_act
    return MoonState(
        all_pass="redeal",
        doubles_trump=True,
        shoot="wins_game",
        target=21,
        dealer=2,
        first_bidder=0,
        phase="play",
        to_act=to_act,
        round=1,
        deck=(),
        hands=tuple(tuple(h) for h in hands),
        trick=trick,
        trick_seats=trick_seats,
        leader=leader,
        bids=(4, "pass", "pass"),
        declarer=declarer,
        contract=contract,
    )


def legal_tiles(rules: Moon, state: MoonState) -> set[str]:
    return {mv["tile"] for mv in rules.legal_moves(state)}


def scored(
    rules: Moon,
    bid: int,
    tricks: tuple[int, int, int],
    *,
    declarer: int = 0,
    scores: tuple[int, int, int] = (0, 0, 0),
    **kw: Any,
) -> MoonState:
    """The state after the last trick of a hand with the given trick counts."""
    tiles = iter(MOON_TILES)
    won = tuple(tuple(next(tiles) for _ in range(3 * n)) for n in tricks)
    bids: list[Any] = ["pass"] * 3
    bids[declarer] = bid
    state = MoonState(
        **{**options(), **kw},
        dealer=2,
        first_bidder=0,
        phase="play",
        to_act=0,
        round=1,
        deck=(),
        discarded=(next(tiles),),
        won=won,
        scores=scores,
        bids=tuple(bids),
        declarer=declarer,
        contract="none",
    )
    return rules.end_hand(state)


def policy(rng: random.Random, state: MoonState, moves: list[dict[str, Any]]) -> dict[str, Any]:
    # Random 21s and high bids sink every total; keep them rare so games end.
    if state.phase == "bid" and rng.random() < 0.9:
        moves = [mv for mv in moves if mv.get("value") in (None, 4, 5)] or moves
    return rng.choice(moves)


def conserved(js: dict[str, Any]) -> None:
    """MOON-INV-1: every tile in exactly one zone."""
    counts = Counter(t for zone in js["zones"].values() for t in zone)
    assert counts == Counter(MOON_TILES), counts


def illegal_candidates(state: MoonState, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    everything: list[dict[str, Any]] = [{"type": "pass"}, {"type": "bid", "value": 3}, {"type": "bid", "value": 8}]
    everything += [{"type": "bid", "value": v} for v in (4, 5, 6, 7, 21)]
    everything += [{"type": "trump", "suit": s} for s in (*range(8), "doubles", "none", "spades")]
    everything += [{"type": k, "tile": t} for k in ("discard", "play") for t in (*MOON_TILES, "0-1", "1-6")]
    everything += [{"type": "redeal"}, random_deal(random.Random(0))]
    return [mv for mv in everything if mv not in legal]


# ---------------------------------------------------------------- contract-level checks


def test_declaration_and_setup() -> None:
    decl = REF.declaration()
    assert decl == {
        "players": [3],
        "options": {
            "all_pass": ["redeal", "forced_bid"],
            "doubles_trump": [True, False],
            "shoot": ["wins_game", "scores_21"],
            "target": {"min": 1, "max": 21},
        },
    }
    assert check_setup(REF, 3, 1, {}) == options()
    for bad in [(4, 0, {}), (3, 3, {}), (3, 0, {"doubles_trump": 1}), (3, 0, {"target": 22}), (3, 0, {"x": 1})]:
        with pytest.raises(BadRequest):
            check_setup(REF, *bad)
    js = REF.to_json(REF.start(3, 1, options()))
    assert STATE.is_valid(js) and js["phase"] == "deal" and js["first_bidder"] == 2 and js["round"] == 0
    assert js["zones"] == {
        "deck": list(MOON_TILES),
        "hand/0": [],
        "hand/1": [],
        "hand/2": [],
        "widow": [],
        "discarded": [],
        "trick": [],
        "won/0": [],
        "won/1": [],
        "won/2": [],
    }
    assert REF.legal_moves(REF.start(3, 1, options())) == []


def test_engine_round_trip() -> None:
    engine = ReferenceEngine([Moon()])
    assert engine.hello()["games"]["moon"]["players"] == [3]
    state = engine.new_game("moon", 3, 0, {"target": 5})
    assert state["options"]["target"] == 5 and STATE.is_valid(state)
    state = engine.apply(random_deal(random.Random(3)))
    assert state["phase"] == "bid" and state["to_act"] == 1 and engine.legal_moves()


@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_random_playouts(opts: dict[str, Any]) -> None:
    rng = random.Random(json.dumps(opts))
    for game in range(30):
        state = REF.start(3, rng.randrange(3), {**opts, "target": rng.randint(1, 8)})
        deep = game < 3  # the expensive illegal-move sweep on a few games per option set
        steps = 0
        while state.phase != "over" and state.round < 40:
            js = REF.to_json(state)
            assert STATE.is_valid(js), list(STATE.iter_errors(js))[:3]
            conserved(js)
            if state.phase == "deal":
                move = random_deal(rng)
                assert DEAL.is_valid(move)
                state = REF.apply(state, move)
                continue
            legal = REF.legal_moves(state)
            assert legal, js
            keys = [json.dumps(mv, sort_keys=True) for mv in legal]
            assert len(set(keys)) == len(keys), keys
            for mv in legal:
                assert MOVE.is_valid(mv), mv
                REF.apply(state, mv)  # every legal move is accepted
            if deep or steps % 7 == 0:
                for mv in illegal_candidates(state, legal):
                    with pytest.raises(IllegalMove):
                        REF.apply(state, mv)
                assert REF.to_json(state) == js
            state = REF.apply(state, policy(rng, state, legal))
            steps += 1
        js = REF.to_json(state)
        assert STATE.is_valid(js)
        if state.phase == "over":
            assert REF.legal_moves(state) == []
            with pytest.raises(IllegalMove):
                REF.apply(state, random_deal(rng))


def test_bad_requests_and_unknown_moves() -> None:
    state = started(REF)
    for bad in [
        None,
        [],
        {},
        {"type": 3},
        {"type": "bid"},
        {"type": "bid", "value": "5"},
        {"type": "bid", "value": True},
        {"type": "bid", "value": 5.0},
        {"type": "play", "tile": 66},
        {"type": "trump"},
        {"type": "trump", "suit": 1.5},
        {"type": "discard"},
        {"type": "deal", "hands": "x", "widow": "0-0"},
        {"type": "deal", "hands": [[1]], "widow": "0-0"},
        {"type": "deal", "hands": [[]]},
    ]:
        with pytest.raises(BadRequest):
            REF.apply(state, bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalMove, match="unknown move type") as err:
        REF.apply(state, {"type": "double"})
    assert err.value.clause == "MOON-BID-2"
    with pytest.raises(IllegalMove) as err:
        REF.apply(state, {"type": "play", "tile": "6-6"})
    assert err.value.clause == "MOON-BID-2"
    with pytest.raises(IllegalMove) as err:
        REF.apply(REF.start(3, 0, options()), {"type": "pass"})
    assert err.value.clause == "MOON-DEAL-1"


def test_bad_deals() -> None:
    fresh = REF.start(3, 0, options())
    good = deal_of(list(MOON_TILES[:7]))
    REF.apply(fresh, good)
    dup = json.loads(json.dumps(good))
    dup["hands"][1][0] = dup["hands"][0][0]
    short = json.loads(json.dumps(good))
    short["widow"] = short["hands"][2].pop()
    cases = {
        "MOON-SETUP-2": [
            dup,
            {**good, "widow": "0-1"},
            {**good, "hands": [["6-0", *good["hands"][0][1:]], *good["hands"][1:]]},
        ],
        "MOON-DEAL-1": [short, {**good, "hands": good["hands"][:2]}],
    }
    for clause, deals in cases.items():
        for deal in deals:
            with pytest.raises(IllegalMove) as err:
                REF.apply(fresh, deal)
            assert err.value.clause == clause, (deal, err.value)


# ---------------------------------------------------------------- bidding, widow, contract


def test_bidding_rules() -> None:
    state = started(REF)
    assert state.to_act == 0 and [mv.get("value") for mv in REF.legal_moves(state)] == [4, 5, 6, 7, 21, None]
    state = run(REF, state, {"type": "bid", "value": 7})
    assert REF.legal_moves(state) == [{"type": "bid", "value": 21}, {"type": "pass"}]  # §3.5.8
    with pytest.raises(IllegalMove) as err:
        REF.apply(state, {"type": "bid", "value": 7})
    assert err.value.clause == "MOON-BID-3"
    with pytest.raises(IllegalMove) as err:
        REF.apply(state, {"type": "bid", "value": 8})
    assert err.value.clause == "MOON-BID-3"
    # MOON-BID-4: a 21 by the first bidder ends the bidding at once.
    state = run(REF, started(REF), {"type": "bid", "value": 21})
    assert state.phase == "discard" and state.declarer == 0 and state.bids == (21, None, None)
    # MOON-BID-5: the highest bidder declares.
    state = run(REF, started(REF), {"type": "bid", "value": 4}, {"type": "bid", "value": 6}, {"type": "pass"})
    assert state.declarer == 1 and state.phase == "discard" and state.to_act == 1


def test_all_pass_redeal_and_forced_bid() -> None:
    state = run(REF, started(REF), *[{"type": "pass"}] * 3)  # §3.5.9
    js = REF.to_json(state)
    assert js["phase"] == "deal" and js["declarer"] is None and js["to_act"] is None
    assert js["first_bidder"] == 1 and js["dealer"] == 0 and js["round"] == 1 and STATE.is_valid(js)
    conserved(js)
    state = REF.apply(state, random_deal(random.Random(1)))
    assert state.to_act == 1 and state.bids == (None, None, None) and state.round == 2
    forced = run(REF, started(REF, all_pass="forced_bid"), {"type": "pass"}, {"type": "pass"})
    assert {"type": "pass"} not in REF.legal_moves(forced) and len(REF.legal_moves(forced)) == 5
    with pytest.raises(IllegalMove) as err:
        REF.apply(forced, {"type": "pass"})
    assert err.value.clause == "MOON-BID-6"


def test_widow_and_trump() -> None:
    state = started(REF)
    widow = state.widow[0]
    state = run(REF, state, {"type": "bid", "value": 4}, {"type": "pass"}, {"type": "pass"})
    js = REF.to_json(state)
    assert len(js["zones"]["hand/0"]) == 8 and widow in js["zones"]["hand/0"] and js["zones"]["widow"] == []
    with pytest.raises(IllegalMove) as err:
        REF.apply(state, {"type": "discard", "tile": js["zones"]["hand/1"][0]})
    assert err.value.clause == "MOON-WIDOW-1"
    state = REF.apply(state, {"type": "discard", "tile": widow})  # §3.5.13: the widow itself
    assert state.phase == "trump" and state.discarded == (widow,) and len(state.hands[0]) == 7
    assert [mv["suit"] for mv in REF.legal_moves(state)] == [0, 1, 2, 3, 4, 5, 6, "doubles", "none"]
    for bad in (7, -1, "6", "spades", True):
        with pytest.raises((IllegalMove, BadRequest)):
            REF.apply(state, {"type": "trump", "suit": bad})
    played = REF.apply(state, {"type": "trump", "suit": "doubles"})
    assert played.phase == "play" and played.to_act == 0 and played.leader == 0 and played.contract == "doubles"
    no_doubles = run(
        REF,
        started(REF, doubles_trump=False),
        {"type": "bid", "value": 4},
        {"type": "pass"},
        {"type": "pass"},
        {"type": "discard", "tile": widow},
    )
    assert "doubles" not in [mv["suit"] for mv in REF.legal_moves(no_doubles)]
    with pytest.raises(IllegalMove) as err:
        REF.apply(no_doubles, {"type": "trump", "suit": "doubles"})
    assert err.value.clause == "MOON-TRUMP-1"


def test_declarer_leads_first_trick() -> None:  # §3.5.14
    state = started(REF)
    state = run(REF, state, {"type": "pass"}, {"type": "bid", "value": 5}, {"type": "pass"})
    state = run(REF, state, {"type": "discard", "tile": state.hands[1][0]}, {"type": "trump", "suit": 3})
    assert state.first_bidder == 0 and state.to_act == 1 and state.leader == 1


# ---------------------------------------------------------------- ranking (rules.md §5.3)


def test_ranking_examples() -> None:
    def order(tiles: list[str], key: Callable[[str], int]) -> list[str]:
        return sorted(tiles, key=key, reverse=True)

    two = ["2-1", "4-2", "2-2", "6-2", "3-2", "5-2"]
    assert order(two, lambda t: REF.suit_rank(t, 2)) == ["2-2", "6-2", "5-2", "4-2", "3-2", "2-1"]
    six = ["6-1", "6-6", "6-3", "6-5", "6-2", "6-4"]
    assert order(six, lambda t: REF.suit_rank(t, 6)) == ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1"]
    doubles = [f"{n}-{n}" for n in range(7)]
    assert order(doubles, lambda t: REF.trump_rank(t, "doubles")) == doubles[::-1]  # MOON-RANK-3
    fours = ["4-1", "4-4", "4-2", "6-4", "4-3"]
    assert order(fours, lambda t: REF.trump_rank(t, 4)) == ["4-4", "6-4", "4-3", "4-2", "4-1"]
    assert REF.trick_winner(("4-2", "6-4", "4-4"), (0, 1, 2), 4) == 2
    # §3.5.3: with doubles trump the 6 suit is headed by [6-5].
    assert REF.trick_winner(("6-4", "6-5", "6-1"), (0, 1, 2), "doubles") == 1


# ---------------------------------------------------------------- derived fixtures M-D1..M-D7


def test_m_d1_trump_lead_by_lower_end() -> None:
    state = play_state([[], ["2-1", "6-5"], []], 2, to_act=1, trick=("6-2",), trick_seats=(0,))
    assert legal_tiles(REF, state) == {"2-1"}
    with pytest.raises(IllegalMove) as err:
        REF.apply(state, {"type": "play", "tile": "6-5"})
    assert err.value.clause == "MOON-FOLLOW-1"


def test_m_d2_no_trump() -> None:
    state = play_state([[], ["3-1", "5-4"], []], "none", to_act=1, trick=("6-3",), trick_seats=(0,))
    assert legal_tiles(REF, state) == {"3-1", "5-4"}
    assert REF.trick_winner(("6-3", "3-1", "5-4"), (0, 1, 2), "none") == 0
    assert REF.trick_winner(("6-3", "3-1", "6-4"), (0, 1, 2), "none") == 2


def test_m_d3_number_trump_absorbs() -> None:
    state = play_state([[], ["6-5", "3-3"], []], 5, to_act=1, trick=("6-3",), trick_seats=(0,))
    assert legal_tiles(REF, state) == {"6-5", "3-3"}
    assert REF.trick_winner(("6-3", "6-5", "6-6"), (0, 1, 2), 5) == 1


def test_m_d4_doubles_trump() -> None:
    state = play_state([[], ["5-5", "2-1"], []], "doubles", to_act=1, trick=("5-2",), trick_seats=(0,))
    assert legal_tiles(REF, state) == {"5-5", "2-1"}
    assert REF.trick_winner(("5-2", "5-5", "5-4"), (0, 1, 2), "doubles") == 1


def test_m_d5_lower_end_follows_and_trump_wins() -> None:
    state = play_state([[], ["6-4", "5-5"], []], 3, to_act=1, trick=("4-1",), trick_seats=(0,))
    assert legal_tiles(REF, state) == {"6-4"}
    with pytest.raises(IllegalMove) as err:
        REF.apply(state, {"type": "play", "tile": "5-5"})
    assert err.value.clause == "MOON-FOLLOW-2"
    state = REF.apply(state, {"type": "play", "tile": "6-4"})
    state = evolve(state, hands=(state.hands[0], state.hands[1], ("3-2",)))
    state = REF.apply(state, {"type": "play", "tile": "3-2"})
    assert state.won[2] == ("4-1", "6-4", "3-2") and state.to_act == 2 and state.leader == 2  # P3 wins


def test_m_d6_blank_double_lead() -> None:
    assert REF.led_suit("0-0", 4) == 0
    assert REF.trick_winner(("0-0", "6-6", "5-1"), (0, 1, 2), 4) == 0
    assert REF.trick_winner(("0-0", "6-6", "4-1"), (0, 1, 2), 4) == 2
    assert REF.is_trump("0-0", 0) and REF.led_suit("0-0", "doubles") == "trump"


def test_m_d7_scoring() -> None:
    state = scored(REF, 5, (4, 2, 1))
    assert state.scores == (-5, 2, 1) and state.phase == "deal" and state.dealer == 0 and state.first_bidder == 1
    assert scored(REF, 4, (6, 1, 0)).scores == (4, 1, 0)  # §3.5.10: no overtricks
    state = scored(REF, 21, (7, 0, 0), scores=(3, 9, 4))
    assert state.phase == "over" and state.winners == (0,) and state.scores == (3, 9, 4)
    state = scored(REF, 21, (7, 0, 0), scores=(-30, 9, 4), shoot="scores_21")  # MOON-AMB-7: +21 may not win
    assert state.phase == "deal" and state.scores == (-9, 9, 4) and state.winners is None
    assert scored(REF, 21, (6, 1, 0)).scores == (-21, 1, 0)


def test_shoot_the_moon_played_out() -> None:
    h0 = ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "5-5"]
    state = REF.apply(REF.start(3, 2, options()), deal_of(h0, widow="0-0"))
    state = run(
        REF, state, {"type": "bid", "value": 21}, {"type": "discard", "tile": "0-0"}, {"type": "trump", "suit": 6}
    )
    for lead in h0:
        state = REF.apply(state, {"type": "play", "tile": lead})
        for _ in range(2):
            state = REF.apply(state, REF.legal_moves(state)[0])
    js = REF.to_json(state)
    assert js["phase"] == "over" and js["result"] == {"winners": [0]} and js["scores"] == [0, 0, 0]
    assert len(js["zones"]["won/0"]) == 21 and js["zones"]["discarded"] == ["0-0"] and STATE.is_valid(js)
    conserved(js)


def test_end_of_game() -> None:
    assert scored(REF, 5, (5, 1, 1), target=5).winners == (0,)  # MOON-END-1 at exactly the target
    tie = scored(REF, 4, (3, 4, 0), scores=(8, 0, 0), target=4)  # 4 and 4: play on (MOON-END-2)
    assert tie.scores == (4, 4, 0) and tie.phase == "deal"
    later = scored(REF, 4, (3, 4, 0), declarer=1, scores=(4, 4, 0), target=4)
    assert later.scores == (7, 8, 0) and later.winners == (1,)


# ---------------------------------------------------------------- every mutant differs from the reference


def _bid_all_pass(r: Moon, **kw: Any) -> MoonState:
    return run(r, started(r, **kw), *[{"type": "pass"}] * 3)


def _after_bidding(r: Moon, **kw: Any) -> MoonState:
    return run(r, started(r, **kw), {"type": "pass"}, {"type": "bid", "value": 4}, {"type": "pass"})


def _outcome(r: Moon, state: MoonState, move: dict[str, Any]) -> Any:
    try:
        return r.to_json(r.apply(state, move))
    except IllegalMove as e:
        return e.clause


def _dup_deal(r: Moon) -> Any:
    deal = deal_of(list(MOON_TILES[:7]))
    deal["hands"][1][0] = deal["hands"][0][0]
    return _outcome(r, r.start(3, 0, options()), deal)


def _full_trick(r: Moon) -> Any:
    state = play_state([["6-1", "2-2"], ["6-6", "3-3"], ["5-1", "4-4"]], "none")
    return run(
        r, state, {"type": "play", "tile": "6-1"}, {"type": "play", "tile": "6-6"}, {"type": "play", "tile": "5-1"}
    ).to_act


def _off_suit_applied(rules: Moon) -> Any:
    """The same legal moves as the reference; only apply takes 2-1 while seat 1 holds a 6 to follow 6-6 with."""
    state = play_state([["6-6"], ["6-1", "2-1"], ["3-1", "4-1"]], "none", to_act=1, trick=("6-6",), trick_seats=(0,))
    try:
        return rules.apply(state, {"type": "play", "tile": "2-1"}).to_act
    except IllegalMove as exc:
        return ("illegal", exc.clause)


def _next_trick_leader(r: Moon) -> Any:
    """`leader` once the trick after [6-1 6-6 5-1] (won by seat 1) has its first tile."""
    state = play_state([["6-1", "2-2"], ["6-6", "3-3"], ["5-1", "4-4"]], "none")
    return run(r, state, *({"type": "play", "tile": t} for t in ("6-1", "6-6", "5-1", "3-3"))).leader


def _first_trick_leader(r: Moon) -> Any:
    """`leader` once the declarer (seat 1; seat 0 bid first) has led the hand's first tile."""
    state = r.apply(
        r.apply(_after_bidding(r), {"type": "discard", "tile": MOON_TILES[7]}), {"type": "trump", "suit": 1}
    )
    return r.apply(state, {"type": "play", "tile": state.hands[1][0]}).leader


MUTANT_CASES: dict[str, Callable[[Moon], Any]] = {
    "DuplicateTilesAccepted": _dup_deal,
    "FirstBidderNotRotating": lambda r: _bid_all_pass(r).first_bidder,
    "AnticlockwiseBidding": lambda r: run(r, started(r), {"type": "pass"}).to_act,
    "EqualBidAccepted": lambda r: r.legal_moves(run(r, started(r), {"type": "bid", "value": 5})),
    "TwentyOneNotEnding": lambda r: run(r, started(r), {"type": "bid", "value": 21}).phase,
    "LowestSeatBidderDeclares": lambda r: (
        run(r, started(r), {"type": "bid", "value": 4}, {"type": "bid", "value": 5}, {"type": "pass"}).declarer
    ),
    "ForcedBidNotEnforced": lambda r: r.legal_moves(
        run(r, started(r, all_pass="forced_bid"), {"type": "pass"}, {"type": "pass"})
    ),
    "WidowNotAdded": lambda r: len(_after_bidding(r).hands[1]),
    "WidowNotDiscardable": lambda r: r.legal_moves(_after_bidding(r)),
    "DoublesAlwaysOffered": lambda r: r.legal_moves(
        r.apply(_after_bidding(r, doubles_trump=False), {"type": "discard", "tile": MOON_TILES[7]})
    ),
    "NumberTrumpStillFollows": lambda r: legal_tiles(
        r, play_state([[], ["6-5", "3-3"], []], 5, to_act=1, trick=("6-3",), trick_seats=(0,))
    ),
    "DoublesFollowNumber": lambda r: legal_tiles(
        r, play_state([[], ["5-5", "2-1"], []], "doubles", to_act=1, trick=("5-2",), trick_seats=(0,))
    ),
    "FirstBidderLeads": lambda r: (
        r.apply(
            r.apply(_after_bidding(r), {"type": "discard", "tile": MOON_TILES[7]}), {"type": "trump", "suit": 1}
        ).to_act
    ),
    "TrumpLeadCallsNumber": lambda r: legal_tiles(
        r, play_state([[], ["2-1", "6-5"], []], 2, to_act=1, trick=("6-2",), trick_seats=(0,))
    ),
    "LedSuitLowerEnd": lambda r: legal_tiles(
        r, play_state([[], ["3-1", "6-1"], []], "none", to_act=1, trick=("6-3",), trick_seats=(0,))
    ),
    "NoDutyToFollowTrump": lambda r: legal_tiles(
        r, play_state([[], ["2-1", "6-5"], []], 2, to_act=1, trick=("6-2",), trick_seats=(0,))
    ),
    "LowerEndNotFollowing": lambda r: legal_tiles(
        r, play_state([[], ["6-4", "5-5"], []], 3, to_act=1, trick=("4-1",), trick_seats=(0,))
    ),
    "DoubleRankedByOtherEnd": lambda r: r.trick_winner(("3-3", "6-3", "1-1"), (0, 1, 2), "none"),
    "TrumpRankByPipTotal": lambda r: r.trick_winner(("4-2", "6-4", "4-4"), (0, 1, 2), 4),
    "BlankDoubleHighestTrump": lambda r: r.trick_winner(("0-0", "6-6", "1-1"), (0, 1, 2), "doubles"),
    "TrumpDoesNotBeatLedSuit": lambda r: r.trick_winner(("4-1", "6-4", "3-2"), (0, 1, 2), 3),
    "LeaderKeepsLead": _full_trick,
    "OvertricksScored": lambda r: scored(r, 4, (6, 1, 0)).scores,
    "FailedBidNotDeducted": lambda r: scored(r, 5, (4, 2, 1)).scores,
    "ShotDoesNotWin": lambda r: scored(r, 21, (7, 0, 0), scores=(3, 9, 4)).scores,
    "OpponentsNotScoring": lambda r: scored(r, 5, (4, 2, 1)).scores,
    "ExactTargetNotEnough": lambda r: scored(r, 5, (5, 1, 1), target=5).phase,
    "TieAtTargetEnds": lambda r: scored(r, 4, (3, 4, 0), scores=(8, 0, 0), target=4).phase,
    "ExactBidNotMade": lambda r: scored(r, 4, (4, 2, 1)).scores,
    "TargetBeyondContract": lambda r: r.declaration()["options"]["target"],  # CONTRACT-SETUP-2: what new_game accepts
    "TileOffSuitAccepted": _off_suit_applied,
    "RedealThirdMustBid": lambda r: r.legal_moves(run(r, started(r), {"type": "pass"}, {"type": "pass"})),
    "EqualBidTaken": lambda r: _outcome(
        r, run(r, started(r), {"type": "bid", "value": 5}), {"type": "bid", "value": 5}
    ),
    "BidsKeptAtDeal": lambda r: r.apply(_bid_all_pass(r), random_deal(random.Random(1))).bids,
    "DoubleLeadCallsDoubles": lambda r: legal_tiles(
        r, play_state([[], ["2-1", "3-3"], []], 4, to_act=1, trick=("2-2",), trick_seats=(0,))
    ),
    "DoublesTrumpUnderNoTrump": lambda r: legal_tiles(
        r, play_state([[], ["5-5", "2-1"], []], "none", to_act=1, trick=("5-2",), trick_seats=(0,))
    ),
    "FirstTrumpWins": lambda r: r.trick_winner(("4-2", "6-4", "4-4"), (0, 1, 2), 4),
    "LeaderFieldStale": _next_trick_leader,
    "FirstTrickLeaderField": _first_trick_leader,
}


def test_every_mutant_has_a_scenario() -> None:
    names = {mu.name for mu in all_mutants("moon")}
    assert names == set(MUTANT_CASES) and len(names) >= 12
    assert all(mu.clause.startswith(("MOON-", "CONTRACT-")) for mu in all_mutants("moon"))


@pytest.mark.parametrize("name", sorted(MUTANT_CASES))
def test_mutant_differs(name: str) -> None:
    mutant = getattr(m, name)()
    assert isinstance(mutant, Moon) and type(mutant) is not Moon
    assert MUTANT_CASES[name](REF) != MUTANT_CASES[name](mutant)
