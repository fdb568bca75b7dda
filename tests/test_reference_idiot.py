"""The kit's own tests of the Idiot reference rules and its mutant gallery.

Random playouts over every declared player count and option value check the
contract at every step (schema, distinct legal moves, legal iff accepted,
errors leave the state untouched); hand-checked scenarios pin the edge cases
and derived fixtures of rules.md §2.5 and §5.2; and every mutant is shown to
differ from the reference in one concrete situation.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from attrs import evolve

from ruleproof.model import schema
from ruleproof.model.engine import BadRequest, IllegalMove
from ruleproof.model.notation import STANDARD_DECK
from ruleproof.reference.base import ReferenceEngine, check_setup
from ruleproof.reference.idiot import Idiot, IdiotOptions, IdiotState
from tests.mutants import all_mutants
from tests.mutants import idiot as mutants

REF = Idiot()
OPTION_GRID = [
    {"after_burn": ab, "six_burn": six, "two_followup": tf, "ten_anytime": ten}
    for ab in ("next", "burner")
    for six in (3, 4)
    for tf in ("optional", "none")
    for ten in (True, False)
]


# ---------------------------------------------------------------- helpers


def deal_move(rng: random.Random, n: int, decks: int) -> dict[str, Any]:
    pool = list(STANDARD_DECK * decks)
    rng.shuffle(pool)
    rows = [[pool[9 * s + 3 * k : 9 * s + 3 * k + 3] for s in range(n)] for k in range(3)]
    return {"type": "deal", "face_down": rows[0], "face_up": rows[1], "hand": rows[2], "draw": pool[9 * n :]}


def norm(move: dict[str, Any]) -> str:
    m = dict(move)
    if "cards" in m:
        m["cards"] = sorted(m["cards"])
    return json.dumps(m, sort_keys=True)


def pool_of(state: IdiotState) -> Counter[str]:
    c: Counter[str] = Counter(state.deck + state.draw + state.discard + state.burned)
    for zones in (state.hands, state.face_up, state.face_down):
        for z in zones:
            c.update(z)
    return c


def probes(state: IdiotState) -> list[dict[str, Any]]:
    """Well-formed candidate moves, legal or not, for the legal-iff-accepted check."""
    seat = state.to_act
    assert seat is not None
    mine = set(state.hands[seat]) | set(state.face_up[seat])
    moves: list[dict[str, Any]] = [{"type": t} for t in ("pickup", "stop", "decline", "ready", "dance")]
    moves += [{"type": "play", "cards": [c]} for c in sorted(mine | {"5C", "AS", "2H", "TD"})]
    moves += [{"type": "play", "cards": []}, {"type": "play", "cards": ["XX"]}, {"type": "play", "cards": ["5C", "6C"]}]
    moves += [{"type": "play_blind", "index": i} for i in range(-1, 4)]
    hand, up = state.hands[seat], state.face_up[seat]
    if hand and up:
        moves.append({"type": "swap", "hand": hand[0], "face_up": up[-1]})
        moves.append({"type": "play", "cards": [*list(hand), up[0]]})
    return moves


def playout(
    rng: random.Random,
    n: int,
    options: dict[str, Any],
    budget: int,
    probe_every: int,
    rules: Idiot = REF,
    keeps_pool: bool = True,
) -> IdiotState:
    dealer = rng.randrange(n)
    full = check_setup(rules, n, dealer, options)
    state = rules.start(n, dealer, full)
    start_pool = pool_of(state)
    state = rules.apply(state, deal_move(rng, n, full["decks"]))
    burned = 0
    for step in range(budget):
        snap = rules.to_json(state)
        schema.check("idiot", "state", snap, "state")
        assert pool_of(state) == start_pool or not keeps_pool  # IDIOT-INV-1 (a mutant of it loses cards)
        assert len(state.burned) >= burned
        burned = len(state.burned)
        if state.phase == "over":
            assert rules.legal_moves(state) == []
            with pytest.raises(IllegalMove):
                rules.apply(state, {"type": "pickup"})
            break
        moves = rules.legal_moves(state)
        schema.check("idiot", "moves", moves, "moves")
        keys = [norm(m) for m in moves]
        assert len(keys) == len(set(keys)), "duplicate legal moves"
        assert moves, "no legal move for the player to act"
        if step % probe_every == 0:
            legal = set(keys)
            for m in moves:
                rules.apply(state, m)  # every legal move is accepted
            for m in probes(state):
                if norm(m) in legal:
                    continue
                with pytest.raises(IllegalMove):
                    rules.apply(state, m)
                assert rules.to_json(state) == snap
        plays = [m for m in moves if m["type"] not in ("pickup", "swap", "decline")]
        move = rng.choice(plays) if plays and rng.random() > 0.05 else rng.choice(moves)
        state = rules.apply(state, move)
    return state


def table(
    hands: list[list[str]],
    *,
    face_up: list[list[str]] | None = None,
    face_down: list[list[str]] | None = None,
    draw: Sequence[str] = (),
    discard: Sequence[str] = (),
    to_act: int = 0,
    pending: str | None = None,
    **options: Any,
) -> IdiotState:
    """A mid-game position in phase ``play`` (not necessarily a whole pool)."""
    n = len(hands)
    opts = {**REF.defaults(n), **options}
    base = REF.start(n, n - 1, opts)
    filler = [["KS", "KH", "KD"]] * n
    return evolve(
        base,
        phase="play",
        round=1,
        deck=(),
        to_act=to_act,
        hands=tuple(tuple(h) for h in hands),
        face_up=tuple(tuple(z) for z in (face_up or filler)),
        face_down=tuple(tuple(z) for z in (face_down or filler)),
        draw=tuple(draw),
        discard=tuple(discard),
        pending=pending,
        chain_rank=None,
    )


def play(state: IdiotState, *cards: str, rules: Idiot = REF) -> IdiotState:
    return rules.apply(state, {"type": "play", "cards": list(cards)})


def legal(state: IdiotState, rules: Idiot = REF) -> set[str]:
    return {norm(m) for m in rules.legal_moves(state)}


def P(*cards: str) -> str:
    return norm({"type": "play", "cards": list(cards)})


# ------------------------------------------------------------ random playouts


@pytest.mark.parametrize("n", range(2, 10))
def test_random_playouts(n: int) -> None:
    rng = random.Random(n)
    lo = max(1, -(-9 * n // 52))
    for i, options in enumerate(OPTION_GRID * 2):
        decks = lo + (i % 2) if lo < 4 else lo
        playout(rng, n, {**options, "decks": decks}, budget=32, probe_every=6)


def test_complete_games() -> None:
    rng = random.Random(99)
    finished = 0
    for i in range(8):
        n = 2 + i
        state = playout(rng, n, OPTION_GRID[(5 * i) % len(OPTION_GRID)], budget=2500, probe_every=19)
        if state.phase == "over":
            finished += 1
            assert state.loser is not None and state.loser not in state.out
            assert len(state.out) == n - 1
    assert finished >= 6


def test_engine_roundtrip_and_declaration() -> None:
    eng = ReferenceEngine([REF])
    schema.check("protocol", None, eng.hello(), "hello")
    st = eng.new_game("idiot", 4, 3, {})
    assert st["options"] == {
        "decks": 2,
        "after_burn": "next",
        "six_burn": 3,
        "two_followup": "optional",
        "ten_anytime": True,
    }
    assert st["phase"] == "deal" and st["to_act"] is None and len(st["zones"]["deck"]) == 104
    assert eng.legal_moves() == []
    st = eng.apply(deal_move(random.Random(0), 4, 2))
    assert st["phase"] == "swap" and st["to_act"] == 0 and st["round"] == 1 and len(st["zones"]["draw"]) == 104 - 36
    with pytest.raises(BadRequest):
        eng.new_game("idiot", 9, 0, {"decks": 1})
    with pytest.raises(BadRequest):
        eng.new_game("idiot", 10, 0, {})


# ------------------------------------------------------------ deal and errors


def test_bad_deals_are_illegal() -> None:
    state = REF.start(3, 0, REF.defaults(3))
    good = deal_move(random.Random(1), 3, 1)
    bad_size = {**good, "hand": [good["hand"][0][:2], good["hand"][1], good["hand"][2] + [good["hand"][0][2]]]}
    bad_seats = {**good, "face_up": good["face_up"][:2]}
    dup = {**good, "draw": [*good["draw"][:-1], good["draw"][0]]}
    short_draw = {**good, "draw": good["draw"][:-1]}
    unknown = {**good, "draw": [*good["draw"][:-1], "1X"]}
    for bad, clause in (
        (bad_size, "IDIOT-DEAL-1"),
        (bad_seats, "IDIOT-DEAL-1"),
        (dup, "IDIOT-SETUP-2"),
        (short_draw, "IDIOT-DEAL-2"),
        (unknown, "IDIOT-SETUP-2"),
    ):
        with pytest.raises(IllegalMove) as err:
            REF.apply(state, bad)
        assert err.value.clause == clause
    with pytest.raises(BadRequest):
        REF.apply(state, {"type": "deal", "face_down": "x", "face_up": [], "hand": [], "draw": []})
    with pytest.raises(IllegalMove):
        REF.apply(state, {"type": "pickup"})


def test_malformed_and_wrong_phase() -> None:
    state = table([["5C", "6C", "7C"], ["8C"]], discard=["4C"])
    for bad in (
        {"type": "play"},
        {"type": "play", "cards": "5C"},
        {"type": "play", "cards": [5]},
        {"type": "play_blind", "index": "0"},
        {"cards": []},
        ["play"],
    ):
        with pytest.raises(BadRequest):
            REF.apply(state, bad)  # type: ignore[arg-type]
    for bad in (
        {"type": "decline"},
        {"type": "ready"},
        {"type": "swap", "hand": "5C", "face_up": "KS"},
        {"type": "jump"},
        {"type": "play", "cards": ["ZZ"]},
    ):
        with pytest.raises(IllegalMove):
            REF.apply(state, bad)


# ------------------------------------------------------------- swap, opening


def test_swap_then_ladder() -> None:
    state = REF.start(2, 1, {**REF.defaults(2)})
    deal = deal_move(random.Random(5), 2, 1)
    deal["hand"] = [["3C", "5D", "5H"], ["9C", "9D", "KH"]]
    deal["face_up"] = [["3S", "AS", "5C"], ["4S", "QD", "JD"]]
    rest = Counter(STANDARD_DECK) - Counter(c for row in deal["hand"] + deal["face_up"] for c in row)
    fd = list(rest.elements())
    deal["face_down"], deal["draw"] = [fd[:3], fd[3:6]], fd[6:]
    state = REF.apply(state, deal)
    assert state.to_act == 0
    # IDIOT-SWAP-1: the move and its reverse restore the position.
    swapped = REF.apply(state, {"type": "swap", "hand": "3C", "face_up": "AS"})
    assert swapped.hands[0] == ("AS", "5D", "5H") and swapped.face_up[0] == ("3S", "3C", "5C")
    assert REF.apply(swapped, {"type": "swap", "hand": "AS", "face_up": "3C"}) == state
    state = REF.apply(REF.apply(swapped, {"type": "ready"}), {"type": "ready"})
    assert (state.phase, state.opening_rank, state.to_act) == ("opening", "3", 0)
    assert legal(state) == {norm({"type": "decline"})}  # seat 0 swapped its 3 away
    state = REF.apply(state, {"type": "decline"})
    state = REF.apply(state, {"type": "decline"})
    assert state.opening_rank == "4" and state.to_act == 0
    for _ in range(2):
        state = REF.apply(state, {"type": "decline"})
    assert state.opening_rank == "5" and legal(state) == {P("5D"), P("5H"), P("5D", "5H"), norm({"type": "decline"})}
    with pytest.raises(IllegalMove):
        play(state, "AS")
    state = play(state, "5H", "5D")  # IDIOT-OPEN-2: draw back up, the left player goes next
    assert state.phase == "play" and state.opening_rank is None and len(state.hands[0]) == 3
    assert state.discard == ("5H", "5D") and (state.to_act == 1 or state.pending == "chain")


def test_ladder_guard_any() -> None:
    """IDIOT-OPEN-3: past the ace the player left of the dealer must open."""
    state = evolve(
        table([["2C", "KD", "KH"], ["4C", "4D", "9H"]], draw=["3S"]),
        phase="opening",
        opening_rank="A",
        declines=1,
        to_act=1,
    )
    state = REF.apply(state, {"type": "decline"})
    assert state.opening_rank == "any" and state.to_act == 0  # dealer is seat 1
    assert norm({"type": "decline"}) not in legal(state)
    assert legal(state) == {P("2C"), P("KD"), P("KH"), P("KD", "KH")}
    with pytest.raises(IllegalMove) as err:
        REF.apply(state, {"type": "decline"})
    assert err.value.clause == "IDIOT-OPEN-3"


# ------------------------------------------------------- fixtures of §5.2


def test_I_D1_three_sixes_burn_next_player_starts() -> None:
    state = play(table([["6C", "8C", "9C"], ["4C"], ["5C"]], discard=["3C", "6D", "6H"]), "6C")
    assert state.discard == () and state.burned == ("3C", "6D", "6H", "6C") and state.to_act == 1
    four = play(table([["6C", "8C", "9C"], ["4C"], ["5C"]], discard=["6D", "6H"], six_burn=4), "6C")
    assert four.discard == ("6D", "6H", "6C")


def test_I_D2_four_nines_burn_three_sevens_do_not() -> None:
    assert play(table([["9C", "8C", "AC"], ["4C"]], discard=["9D", "9H", "9S"]), "9C").discard == ()
    assert play(table([["7C", "8C", "AC"], ["4C"]], discard=["3D", "7H", "7S"]), "7C").discard == (
        "3D",
        "7H",
        "7S",
        "7C",
    )


def test_transparent_goes_on_anything_and_is_seen_through() -> None:
    """IDIOT-TRANSPARENT-1: a 3 on a K, then the K decides; several 3s stacked; nothing below: an empty pile."""
    on_king = table([["3C", "3D", "5C"], ["4C"]], discard=["KD"], transparent="3")
    assert {P("3C"), P("3D"), P("3C", "3D")} <= legal(on_king) and P("5C") not in legal(on_king)
    through = table([["5C", "KC", "AC"], ["4C"]], discard=["KD", "3H", "3S"], transparent="3")
    assert legal(through) >= {P("KC"), P("AC")} and P("5C") not in legal(through)
    eight = table([["4C", "6C", "9C"], ["4D"]], discard=["5D", "8H"], transparent="8")
    assert P("6C") in legal(eight) and P("4C") not in legal(eight)  # an 8 seen through: the 5 decides
    empty = table([["4C", "9C", "JC"], ["4D"]], discard=["8H"], transparent="8")
    assert P("4C") in legal(empty)  # nothing below the 8: any card
    # without the option a 3 is a plain 3
    assert P("5C") in legal(table([["5C", "8C", "9C"], ["4C"]], discard=["KD", "3H"]))


def test_transparent_with_the_other_rules() -> None:
    """Through a 3 the 7's cap holds (a 10 refused), a 2 below resets; four 3s burn; a 3 breaks a run."""
    capped = table([["5C", "8C", "TC"], ["4C"]], discard=["7D", "3H"], transparent="3", seven_lower=True)
    assert P("5C") in legal(capped) and P("8C") not in legal(capped) and P("TC") not in legal(capped)
    on_two = table([["4C", "8C", "9C"], ["4D"]], discard=["KD", "2H", "3H"], transparent="3")
    assert P("4C") in legal(on_two)
    assert play(table([["3C", "8C", "9C"], ["4C"]], discard=["3D", "3H", "3S"], transparent="3"), "3C").discard == ()
    broken = play(table([["9C", "8C", "AC"], ["4C"]], discard=["9D", "9H", "3S", "9S"], transparent="3"), "9C")
    assert broken.discard == ("9D", "9H", "3S", "9S", "9C")
    fd = [["4H", "KH"], ["KS"]]
    blind = table([[], ["4C"]], face_up=[[], ["KS"]], face_down=fd, discard=["KD", "3H"], transparent="3")
    failed = REF.apply(blind, {"type": "play_blind", "index": 0})
    assert failed.discard == () and "4H" in failed.hands[0]  # a blind 4 through a 3 onto a K fails


def test_I_D3_five_fives_burn_with_two_decks() -> None:
    state = table([["5C", "5C", "KC"], ["4C"]], discard=["5D", "5H", "5D"], decks=2)
    assert P("5C", "5C") in legal(state)
    assert play(state, "5C", "5C").discard == ()


def test_I_D4_ten_on_ace_burns() -> None:
    state = play(table([["TC", "8C", "9C"], ["4C"], ["5C"]], discard=["KC", "AC"]), "TC")
    assert state.discard == () and state.burned[-1] == "TC" and state.to_act == 1
    burner = play(table([["TC", "8C", "9C"], ["4C"], ["5C"]], discard=["AC"], after_burn="burner"), "TC")
    assert burner.to_act == 0 and burner.pending is None
    strict = table([["TC", "8C", "9C"], ["4C"]], discard=["AC"], ten_anytime=False)
    assert P("TC") not in legal(strict)
    assert P("TC") in legal(evolve(strict, discard=("9D",)))


def test_I_D5_two_then_four_on_ace() -> None:
    state = play(table([["2C", "4C", "9C"], ["4D", "6D"]], discard=["AC"]), "2C")
    assert state.pending == "two_followup" and state.to_act == 0
    assert {P("4C"), P("9C"), norm({"type": "stop"})} == legal(state)
    state = play(state, "4C")
    assert state.pending is None and state.to_act == 1 and state.discard[-1] == "4C"
    assert legal(state) == {P("4D"), P("6D"), norm({"type": "pickup"})}
    stopped = REF.apply(play(table([["2C", "4C", "9C"], ["3D", "6D"]], discard=["AC"]), "2C"), {"type": "stop"})
    assert stopped.to_act == 1 and P("3D") in legal(stopped)  # anything goes on a 2
    plain = play(table([["2C", "4C", "9C"], ["4D"]], discard=["AC"], two_followup="none"), "2C")
    assert plain.pending is None and plain.to_act == 1


def test_I_D6_failed_blind_card_joins_the_pile_in_hand() -> None:
    state = table([[], ["4C"]], face_up=[[], ["KS"]], face_down=[["5C", "8C", "9C"], ["KS"]], discard=["3D", "JC"])
    assert legal(state) == {norm({"type": "play_blind", "index": i}) for i in range(3)} | {norm({"type": "pickup"})}
    after = REF.apply(state, {"type": "play_blind", "index": 0})
    assert after.hands[0] == ("3D", "JC", "5C") and after.discard == () and after.to_act == 1
    assert after.face_down[0] == ("8C", "9C")
    after = evolve(after, to_act=0)
    assert all(m["type"] == "play" for m in REF.legal_moves(after))  # the hand first (IDIOT-BLIND-3)
    good = REF.apply(state, {"type": "play_blind", "index": 2})  # 9 on J: also illegal
    assert good.hands[0][-1] == "9C"
    ok = REF.apply(evolve(state, discard=("3D", "4D")), {"type": "play_blind", "index": 1})
    assert ok.discard == ("3D", "4D", "8C") and ok.hands[0] == ()


# ------------------------------------------------------------ other edges


def test_voluntary_pickup_and_no_draw() -> None:
    state = table([["KC", "8C", "9C"], ["4C"]], draw=["3C", "3D"], discard=["5D", "7D"])
    after = REF.apply(state, {"type": "pickup"})
    assert after.hands[0] == ("KC", "8C", "9C", "5D", "7D") and after.discard == () and after.to_act == 1
    assert after.draw == state.draw
    with pytest.raises(IllegalMove) as err:
        REF.apply(evolve(state, discard=()), {"type": "pickup"})
    assert err.value.clause == "IDIOT-PICKUP-3"


def test_big_hand_does_not_draw_and_small_hand_draws() -> None:
    big = play(table([["KC", "8C", "9C", "JD"], ["4C"]], draw=["3C", "3D"], discard=["5D"]), "8C")
    assert len(big.hands[0]) == 3 and big.draw == ("3C", "3D")
    small = play(table([["KC", "8C", "9C"], ["4C"]], draw=["3C", "3D"], discard=["5D"]), "8C")
    assert small.hands[0] == ("KC", "9C", "3D") and small.draw == ("3C",)


def test_drawn_card_chain() -> None:
    state = play(table([["5C", "KC", "9C"], ["4C"]], draw=["3C", "5D"], discard=["4D"]), "5C")
    assert state.pending == "chain" and state.to_act == 0
    assert legal(state) == {P("5D"), norm({"type": "stop"})}
    with pytest.raises(IllegalMove):
        play(state, "KC")
    state = play(state, "5D")
    assert state.discard == ("4D", "5C", "5D") and state.hands[0] == ("KC", "9C", "3C") and state.to_act == 1


def test_face_up_only_after_hand_and_draw() -> None:
    state = table([["4C"], ["4D"]], face_up=[["KC", "KD", "9C"], ["QS"]], discard=["3S"])
    assert legal(state) == {P("4C"), norm({"type": "pickup"})}
    with pytest.raises(IllegalMove) as err:
        play(state, "KC")
    assert err.value.clause == "IDIOT-TABLE-3"
    state = evolve(state, hands=((), ("4D",)))
    assert legal(state) == {P("KC"), P("KD"), P("KC", "KD"), P("9C"), norm({"type": "pickup"})}
    with pytest.raises(IllegalMove):
        REF.apply(state, {"type": "play_blind", "index": 0})


def test_last_hand_cards_take_face_up_along() -> None:
    """IDIOT-TABLE-3: only with the draw pile empty and all hand cards in the play."""
    state = table([["7C", "7D"], ["4D"]], face_up=[["7S", "7H", "QC"], ["QS"]], discard=["3S"])
    moves = legal(state)
    assert {P("7C", "7D", "7S"), P("7C", "7D", "7H"), P("7C", "7D", "7H", "7S")} <= moves
    assert P("7C", "7S") not in moves
    after = play(state, "7C", "7D", "7S")
    assert after.hands[0] == () and after.face_up[0] == ("7H", "QC") and after.to_act == 1
    assert P("7C", "7D", "7S") not in legal(evolve(state, draw=("3C",)))


def test_out_and_end() -> None:
    state = table(
        [["9C"], ["4C", "5C"], ["QC"]], face_up=[[], ["KS"], ["KS"]], face_down=[[], ["KS"], ["KS"]], discard=["3S"]
    )
    state = play(state, "9C")
    assert state.out == (0,) and state.to_act == 1 and state.phase == "play"
    state = table([["9C"], ["4C"]], face_up=[[], ["KS"]], face_down=[[], ["KS"]], discard=["3S"])
    state = play(state, "9C")
    assert state.phase == "over" and state.loser == 1 and state.to_act is None
    assert REF.to_json(state)["result"] == {"loser": 1}
    # An out player is skipped; a 2 as the last card earns no follow-up.
    state = table(
        [["2C"], ["4C"], ["QC"]], face_up=[[], ["KS"], ["KS"]], face_down=[[], ["KS"], ["KS"]], discard=["AS"], to_act=0
    )
    state = evolve(play(state, "2C"), to_act=2)
    assert state.pending is None
    state = REF.apply(state, {"type": "pickup"})
    assert state.to_act == 1


# ---------------------------------------------------------------- mutants


def _differs(
    mutant: type[Idiot],
    state: IdiotState,
    act: Callable[[Idiot, IdiotState], Any],
) -> None:
    def outcome(rules: Idiot) -> Any:
        try:
            return act(rules, state)
        except IllegalMove as exc:
            return ("illegal", exc.clause)

    assert outcome(REF) != outcome(mutant())


def _after(*cards: str) -> Callable[[Idiot, IdiotState], Any]:
    return lambda rules, s: rules.to_json(play(s, *cards, rules=rules))


def _moves(rules: Idiot, s: IdiotState) -> Any:
    return legal(s, rules)


def _opening() -> IdiotState:
    """Seat 0 opens the ladder at 3 holding a 3."""
    return evolve(table([["3C", "8C", "9C"], ["4C", "KD", "KH"]], draw=["5S"]), phase="opening", opening_rank="3")


MUTANT_CASES: dict[type[Idiot], tuple[IdiotState, Callable[[Idiot, IdiotState], Any]]] = {
    mutants.BurnerPlaysAgain: (table([["TC", "8C", "9C"], ["4C"], ["5C"]], discard=["5D"]), _after("TC")),
    mutants.SixesNeedFour: (table([["6C", "8C", "9C"], ["4C"]], discard=["6D", "6H"]), _after("6C")),
    mutants.AnyThreeBurns: (table([["7C", "8C", "9C"], ["4C"]], discard=["7D", "7H"]), _after("7C")),
    mutants.RunsPerPlay: (table([["9C", "8C", "AC"], ["4C"]], discard=["9D", "9H", "9S"]), _after("9C")),
    mutants.TwosNotInRuns: (table([["2C", "8C", "AC"], ["4C"]], discard=["2D", "2H", "2S"]), _after("2C")),
    mutants.TwoRefusedOnAce: (table([["2C", "8C", "9C"], ["4C"]], discard=["AD"]), _moves),
    mutants.NoTwoFollowup: (table([["2C", "8C", "9C"], ["4C"]], discard=["5D"]), _after("2C")),
    mutants.TwoDoesNotReset: (table([["4C", "8C", "9C"], ["4D"]], discard=["KD", "2D"]), _moves),
    mutants.StrictlyHigher: (table([["5C", "8C", "9C"], ["4C"]], discard=["5D"]), _moves),
    mutants.MixedRanks: (table([["5C", "8C", "9C"], ["4C"]], discard=["3D"]), _after("5C", "8C")),
    mutants.TenNotBurning: (table([["TC", "8C", "9C"], ["4C"]], discard=["5D"]), _after("TC")),
    mutants.TenNeedsRank: (table([["TC", "8C", "9C"], ["4C"]], discard=["AD"]), _moves),
    mutants.FaceUpWithHand: (table([["5C"], ["4C"]], face_up=[["KC", "8D", "9D"], ["QS"]], discard=["3D"]), _moves),
    mutants.CombineWhileDrawing: (
        table([["7C", "7D", "7H"], ["4C"]], face_up=[["7S", "8D", "9D"], ["QS"]], draw=["3C"]),
        _moves,
    ),
    mutants.FailedBlindDiscarded: (
        table([[], ["4C"]], face_up=[[], ["KS"]], face_down=[["5C"], ["KS"]], discard=["JC"]),
        lambda rules, s: rules.to_json(rules.apply(s, {"type": "play_blind", "index": 0})),
    ),
    mutants.NoDrawBack: (table([["5C", "8C", "9C"], ["4C"]], draw=["3C", "3D"], discard=["4D"]), _after("5C")),
    mutants.AlwaysDrawsOne: (
        table([["5C", "8C", "9C", "JC"], ["4C"]], draw=["3C", "3D"], discard=["4D"]),
        _after("5C"),
    ),
    mutants.NoChain: (table([["5C", "8C", "9C"], ["4C"]], draw=["3C", "5D"], discard=["4D"]), _after("5C")),
    mutants.ChainAfterBurn: (table([["TC", "8C", "9C"], ["4C"]], draw=["3C", "TD"], discard=["4D"]), _after("TC")),
    mutants.PickupLeavesTop: (
        table([["5C", "8C", "9C"], ["4C"]], discard=["4D", "KD"]),
        lambda rules, s: rules.to_json(rules.apply(s, {"type": "pickup"})),
    ),
    mutants.PickupLosesTop: (
        table([["5C", "8C", "9C"], ["4C"]], discard=["4D", "KD"]),
        lambda rules, s: rules.to_json(rules.apply(s, {"type": "pickup"})),
    ),
    mutants.PickupOnEmptyPile: (table([["5C", "8C", "9C"], ["4C"]]), _moves),
    mutants.LadderSkipsTen: (
        evolve(
            table([["5C", "8C", "AC"], ["4C", "KD", "KH"]], draw=["3C"]),
            phase="opening",
            opening_rank="9",
            declines=1,
            to_act=1,
        ),
        lambda rules, s: rules.to_json(rules.apply(s, {"type": "decline"})),
    ),
    mutants.RunCountsThroughTwos: (table([["9C", "8C", "AC"], ["4C"]], discard=["9D", "9H", "2S", "9S"]), _after("9C")),
    mutants.RoundNotCounted: (
        REF.start(2, 0, check_setup(REF, 2, 0, {})),
        lambda rules, s: rules.to_json(rules.apply(s, deal_move(random.Random(1), 2, 1)))["round"],
    ),
    mutants.FirstOutEnds: (
        table([["9C"], ["4C"], ["QC"]], face_up=[[], ["KS"], ["KS"]], face_down=[[], ["KS"], ["KS"]], discard=["3S"]),
        _after("9C"),
    ),
    # a heart of a lower rank from the hand: only the mutant lists it on a 9
    mutants.HeartsGoAnywhere: (table([["3H", "3C", "KC"], ["4C"]], discard=["9D"]), _moves),
    mutants.IdenticalSwapNotListed: (
        evolve(table([["5C", "8C", "9C"], ["4C"]], face_up=[["5C", "KD", "KH"], ["QS"]], decks=2), phase="swap"),
        _moves,
    ),
    mutants.ReadyPassesRight: (
        evolve(table([["5C", "8C", "9C"], ["4C"], ["6C"]]), phase="swap"),
        lambda rules, s: rules.to_json(rules.apply(s, {"type": "ready"}))["to_act"],
    ),
    mutants.HolderMustOpen: (_opening(), _moves),
    mutants.LadderRankKept: (_opening(), _after("3C")),
    mutants.PlayLandsReversed: (table([["5C", "5D", "9C"], ["4C"]], discard=["3D"]), _after("5C", "5D")),
    mutants.CardNamedTwice: (table([["5C", "8C", "9C"], ["4C"]], discard=["3D"]), _after("5C", "5C")),
    mutants.QueenAboveKing: (table([["QC", "8C", "9C"], ["4C"]], discard=["KD"]), _moves),
    mutants.RankUncheckedOnApply: (table([["3C", "8C", "9C"], ["4C"]], discard=["KD"]), _after("3C")),
    mutants.PileToTheNext: (
        table([["5C", "8C", "9C"], ["4C"]], discard=["4D", "KD"]),
        lambda rules, s: rules.to_json(rules.apply(s, {"type": "pickup"})),
    ),
    mutants.EightSkips: (table([["8C", "9C", "TC"], ["4C"], ["5C"]], discard=["3D"]), _after("8C")),
    mutants.OneSkipPerPlay: (
        table([["8C", "8D", "9C"], ["4C"], ["5C"], ["6C"]], discard=["3D"], eight_skips=True),
        _after("8C", "8D"),
    ),
    mutants.ReversalForgotten: (
        evolve(table([["9C", "8C", "AC"], ["4C"], ["5C"], ["6C"]], discard=["5D"], reverse="K"), direction=-1),
        _after("9C"),
    ),
    mutants.TenOnSeven: (table([["TC", "8C", "9C"], ["4C"]], discard=["7D"], seven_lower=True), _moves),
    mutants.TransparentJudgedItself: (
        table([["5C", "8C", "KC"], ["4C"]], discard=["KD", "3H"], transparent="3"),
        _moves,
    ),
    mutants.TransparentByOrder: (table([["3C", "8C", "9C"], ["4C"]], discard=["KD"], transparent="3"), _moves),
    mutants.NeverOut: (
        table([["9C"], ["4C"], ["QC"]], face_up=[[], ["KS"], ["KS"]], face_down=[[], ["KS"], ["KS"]], discard=["3S"]),
        _after("9C"),
    ),
}


def test_every_mutant_has_a_case() -> None:
    registered = {m.rules for m in all_mutants("idiot")}
    assert registered == set(MUTANT_CASES)
    assert len(registered) >= 13


@pytest.mark.parametrize("mutant", list(MUTANT_CASES), ids=lambda m: m.__name__)
def test_mutant_differs(mutant: type[Idiot]) -> None:
    state, act = MUTANT_CASES[mutant]
    _differs(mutant, state, act)


def test_mutants_survive_random_games() -> None:
    """The kit certifies mutants by playing them: none may crash or stall."""
    rng = random.Random(7)
    for m in all_mutants("idiot"):
        options = OPTION_GRID[rng.randrange(len(OPTION_GRID))]
        playout(rng, 3, options, budget=150, probe_every=1000, rules=m.rules(), keeps_pool=m.clause != "IDIOT-INV-1")


def test_options_type() -> None:
    assert REF.start(2, 0, REF.defaults(2)).options == IdiotOptions(1, "next", 3, "optional", True)
