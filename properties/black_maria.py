"""Black Maria (Hearts family, 3-4 players) stated as properties.

Read from rules.md §4 without the reference engine: the deck (52 cards, the
2C removed at 3 players), the deal, the simultaneous pass of three cards to
the right, following suit, the trick winner and next leader, the three
scoring schemes and their round totals, the end of the game, the lowest total
winning and the round bound.  Clauses: BM-SETUP-1, BM-DEAL-1/2, BM-PASS-1/2/3,
BM-LEAD-1/2, BM-FOLLOW-1, BM-WIN-1/2, BM-SCORE-1..5, BM-END-1/2 and the
invariants BM-INV-1..7.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from hypothesis import strategies as st

from ruleproof.model.engine import JSONObject, Move
from ruleproof.model.findings import Setup
from ruleproof.model.notation import RANKS, STANDARD_DECK, rank_index, suit
from ruleproof.properties import draws
from ruleproof.properties.base import GameProperties, IntRange
from ruleproof.properties.checks import CheckRegistry
from ruleproof.properties.options import judge_start
from ruleproof.properties.snapshot import Snapshot, Step, move_diff

GAME = "black-maria"

# Penalty values per scheme, straight from BM-SCORE-1/2/3.
HEARTS = [r + "H" for r in RANKS]
POINTS: dict[str, dict[str, int]] = {
    "standard": {**{h: 1 for h in HEARTS}, "QS": 13},
    "spades": {**{h: 1 for h in HEARTS}, "QS": 13, "KS": 10, "AS": 7},
    "spot": {
        **{f"{r}H": int(r) for r in "23456789"},
        "TH": 10,
        "JH": 10,
        "QH": 10,
        "KH": 10,
        "AH": 15,
        "QS": 25,
    },
}
ROUND_TOTAL = {"standard": 26, "spades": 43, "spot": 124}  # BM-INV-5
VALUED = frozenset(card for table in POINTS.values() for card in table)  # cards some scheme values
SCORE_CLAUSE = {"standard": "BM-SCORE-1", "spades": "BM-SCORE-2", "spot": "BM-SCORE-3"}
DEFAULT_TARGET = {"standard": 100, "spades": 100, "spot": 500}  # BM-END-1

PACK = Counter(STANDARD_DECK)  # BM-INV-1: each card once
PENALTY = frozenset(HEARTS) | {"QS"}  # what a first-trick rule of other Hearts games holds back (BM-LEAD-2)
checks = CheckRegistry()


def deck_for(players: int) -> list[str]:
    """BM-DEAL-1: 52 cards, the 2C taken out with 3 players."""
    return [c for c in STANDARD_DECK if not (players == 3 and c == "2C")]


def hand_size(players: int) -> int:
    return 17 if players == 3 else 13


def play(card: str) -> dict[str, str]:
    return {"type": "play", "card": card}


class BlackMariaProperties(GameProperties):
    game: ClassVar[str] = GAME
    deal_clause: ClassVar[str] = "BM-DEAL-1"
    checks: ClassVar[CheckRegistry] = checks
    ordered_zones = frozenset({"trick"})
    option_clauses: ClassVar[dict[tuple[str, Any], tuple[str, ...]]] = {
        ("scoring", "spades"): ("BM-SCORE-2",),
        ("scoring", "spot"): ("BM-SCORE-3",),
    }
    # the readings each clause tells apart: `>=` against `>` shows only on a total exactly at the
    # target; "ties share the win" only on a tie for the lowest total (docs/rules/black-maria.md)
    situations: ClassVar[dict[str, tuple[str, ...]]] = {
        "BM-END-1": ("continues", "ends-above-target", "ends-at-target"),
        "BM-END-2": ("unique-lowest", "tie-for-lowest"),
    }
    # whole games to a target of 100 take some 5 rounds of ~60 steps even when one seat takes most
    # penalty cards (choose): an engine that only plays to 100 still gets its game end judged
    step_scale: ClassVar[float] = 1.5

    def __init__(self, setup: Setup, ledger: Any) -> None:
        super().__init__(setup, ledger)
        n = setup.players
        self.n = n
        self.dealt: list[Counter[str]] = []  # each seat's hand as dealt this round
        self.passed: dict[int, list[str]] = {}  # seat -> the three cards it passed
        self.round_scores: list[int] = [0] * n  # totals when the round was dealt
        # an option left out of new_game takes the document's default (protocol.md §2)
        self.scheme: str = setup.options.get("scoring", "standard")
        self.target: int = setup.options.get("target", DEFAULT_TARGET[self.scheme])
        self.takers: frozenset[int] = frozenset()  # the seats this game steers penalty cards to (choose)
        self.steering = False  # whether choose has drawn this game's takers yet
        self.direction: str | None = None  # the way the engine passed in the first round (BM-PASS-1 vs -3)
        self.scored = False  # a round of this game was scored by the scheme chosen (BM-SCORE-5 vs -1/2/3)

    # -- what to draw ------------------------------------------------------------------
    options_contract: ClassVar[dict[str, list[Any] | IntRange]] = {
        "scoring": ["standard", "spades", "spot"],
        "target": IntRange(1),
    }

    @classmethod
    def default_options(cls, players: int, sent: JSONObject) -> JSONObject:
        # spot scoring plays to 500 by default (BM-END-1)
        return {"scoring": "standard", "target": 500 if sent.get("scoring") == "spot" else 100}

    @classmethod
    def long_odds(cls, declared: JSONObject) -> int:
        """An engine that declares no target below 50 (a Hearts program that plays to 100) gets every other
        example long: a game to 100 takes some five rounds of sixty steps, more than a short example."""
        target = (declared.get("options") or {}).get("target")
        lowest = target["min"] if isinstance(target, dict) else min(target) if isinstance(target, list) else 100
        return 2 if isinstance(lowest, int) and lowest >= 50 else 4

    @classmethod
    def setups(cls, declared: dict[str, Any]) -> st.SearchStrategy[Setup]:
        players = sorted(p for p in declared["players"] if p in (3, 4)) or declared["players"]
        options = declared.get("options", {})
        schemes = [s for s in options.get("scoring", ["standard"]) if s in POINTS] or ["standard"]

        @st.composite
        def setup(draw: Any) -> Setup:
            n = draw(st.sampled_from(players), label="players")
            scoring = draw(st.sampled_from(schemes), label="scoring")
            target = draw(target_strategy(options.get("target"), scoring), label="target")
            dealer = draw(st.integers(0, n - 1), label="dealer")
            return Setup(GAME, n, dealer, {"scoring": scoring, "target": target})

        return setup()

    def deal(self, snap: Snapshot, data: st.DataObject) -> dict[str, Any]:
        cards = data.draw(draws.shuffled(deck_for(self.n)), label="deal")
        size = hand_size(self.n)
        return {"type": "deal", "hands": [list(cards[i * size : (i + 1) * size]) for i in range(self.n)]}

    def choose(self, snap: Snapshot, pick: int, data: st.DataObject) -> dict[str, Any]:
        """Most games (3 in 4 at 3 players, 2 in 3 at 4) steer the penalty cards to the takers, drawn per
        game, so that a game reaches a target of 100 in a few rounds and the dodgers tie for the lowest
        total at 0; the rest play at random (and so do 1 in 32 plays of a steered game).  Half the
        steered games have two takers, so that no round gives every penalty card to one seat: an engine
        that shoots the moon (a house rule) still reaches its game ends and ties, and the other half
        still shows it shooting."""
        moves = snap.moves
        n = len(moves)
        if not self.steering:
            self.steering = True
            seat = (pick // n) % (self.n + self.n // 2)
            two = (pick // n // 8) % 2 == 1
            self.takers = frozenset({seat, (seat + 1) % self.n} if two else {seat}) if seat < self.n else frozenset()
        if snap.phase == "play" and self.takers and (pick // n) % 32:
            card = steer_card(self, snap)
            if card is not None:
                return play(card)
        if snap.phase == "pass" and self.takers and (pick // n) % 32:
            return max(moves, key=lambda m: pass_score(self, snap, m))
        return moves[pick % n]

    @checks.hook("BM-DEAL-1", "BM-PASS-1", "BM-FOLLOW-1")
    def illegal_moves(self, snap: Snapshot) -> Sequence[tuple[dict[str, Any], str]]:
        n, phase = self.n, snap.phase
        if phase == "deal":
            good = [list(c) for c in _split(deck_for(n), n)]
            short = [good[0][1:], good[1] + good[0][:1], *good[2:]]
            twice = [[*good[0][:-1], good[1][0]], *good[1:]]
            bad: list[tuple[dict[str, Any], str]] = [
                ({"type": "deal", "hands": short}, "BM-DEAL-1"),
                ({"type": "deal", "hands": twice}, "BM-DEAL-1"),
            ]
            if n == 3:
                with_2c = [[*good[0][:-1], "2C"], *good[1:]]
                bad.append(({"type": "deal", "hands": with_2c}, "BM-DEAL-1"))
            return bad
        seat = snap.to_act
        assert seat is not None
        hand = snap.zone(f"hand/{seat}")
        elsewhere = [c for s in range(n) if s != seat for c in snap.zone(f"hand/{s}")]
        if phase == "pass":
            bad = [
                ({"type": "pass", "cards": sorted(hand[:2])}, "BM-PASS-1"),
                ({"type": "pass", "cards": sorted(hand[:4])}, "BM-PASS-1"),
                ({"type": "pass", "cards": [hand[0], hand[0], hand[1]]}, "BM-PASS-1"),
                (play(hand[0]), "BM-PASS-1"),
            ]
            if elsewhere:
                bad.append(({"type": "pass", "cards": sorted(hand[:2] + elsewhere[:1])}, "BM-PASS-1"))
            return bad
        bad = [({"type": "pass", "cards": sorted(hand[:3])}, "BM-PASS-1")] if len(hand) >= 3 else []
        if elsewhere:
            bad.append((play(elsewhere[0]), "BM-FOLLOW-1"))
        trick = snap.zone("trick")
        if trick:
            led = suit(trick[0])
            if any(suit(c) == led for c in hand):
                bad += [(play(c), "BM-FOLLOW-1") for c in hand if suit(c) != led][:2]
        return bad

    # -- state checks ------------------------------------------------------------------
    @checks.hook("BM-SETUP-1", "BM-DEAL-1", "BM-INV-1", "CONTRACT-SETUP-2", "CONTRACT-SETUP-3")
    def start(self, snap: Snapshot) -> None:
        judge_start(self, snap)  # CONTRACT-SETUP-2/-3 on the kit's setup probes
        conservation(self, snap)
        self.expect("BM-SETUP-1", snap.players in (3, 4), "Black Maria is for 3 or 4 players", "3 or 4", snap.players)


def steer_card(props: BlackMariaProperties, snap: Snapshot) -> str | None:
    """The card that sends the penalty cards to the takers (every hand is in the state): a taker plays
    to win the trick, and dumps its penalty cards only on another taker's winning trick; a dodger
    plays to lose it, and dumps its penalty cards where a taker wins or will win."""
    seat = snap.to_act
    cards: list[str] = [m["card"] for m in snap.moves if m.get("type") == "play"]
    if seat is None or not cards:
        return None
    values, trick = POINTS[props.scheme], snap.zone("trick")
    if not trick and seat in props.takers:  # a taker leads a card nobody can beat, hearts first
        others = [c for s in range(props.n) if s not in props.takers for c in snap.zone(f"hand/{s}")]
        safe = [c for c in cards if not any(suit(o) == suit(c) and rank_index(o) > rank_index(c) for o in others)]
        return max(safe or cards, key=lambda c: (values.get(c, 0) > 0, rank_index(c)))
    if not trick:  # a dodger leads low, no penalty card, in a suit a taker can win
        above = {(suit(c), rank_index(c)) for t in props.takers for c in snap.zone(f"hand/{t}")}
        return min(
            cards,
            key=lambda c: (
                values.get(c, 0),
                not any(s == suit(c) and r > rank_index(c) for s, r in above),
                rank_index(c),
            ),
        )
    led = suit(trick[0])
    best = max((c for c in trick if suit(c) == led), key=rank_index)
    if suit(cards[0]) != led:  # void: penalty cards to a taker's trick, never to a dodger's
        dump = _taker_wins(props, snap, best)
        return max(cards, key=lambda c: (values.get(c, 0) if dump else -values.get(c, 0), rank_index(c)))
    if seat in props.takers:
        return max(cards, key=rank_index)
    under = [c for c in cards if rank_index(c) < rank_index(best)]
    return max(under, key=lambda c: (values.get(c, 0), rank_index(c))) if under else min(cards, key=rank_index)


def pass_score(props: BlackMariaProperties, snap: Snapshot, move: Move) -> tuple[int, int]:
    """How well a pass sends the penalty cards towards the takers: the seat that passes to a taker gives
    it its penalty cards; every other seat passes its highest cards (a taker keeps the high cards that
    win tricks and passes the low ones: it wants to lose no trick; a dodger wants to win none)."""
    seat = snap.to_act
    cards = move.get("cards") or []
    values = POINTS[props.scheme]
    if seat is not None and (seat - 1) % props.n in props.takers:
        return sum(values.get(c, 0) for c in cards), sum(rank_index(c) for c in cards)
    if seat in props.takers:
        return -sum(values.get(c, 0) for c in cards), -sum(rank_index(c) for c in cards)
    return -sum(values.get(c, 0) for c in cards), sum(rank_index(c) for c in cards)


def _taker_wins(props: BlackMariaProperties, snap: Snapshot, best: str) -> bool:
    """A taker holds the trick now and no dodger still to play must beat it, or a taker still to play
    can beat it."""
    trick, seats = snap.zone("trick"), list(snap.get("trick_seats") or [])
    if len(seats) != len(trick):
        return False
    led = suit(trick[0])
    to_come = [s for s in range(props.n) if s not in seats and s != snap.to_act]

    def beats(seat: int) -> bool:
        return any(suit(c) == led and rank_index(c) > rank_index(best) for c in snap.zone(f"hand/{seat}"))

    def forced_over(seat: int) -> bool:  # holds the led suit, only above the best card
        same = [c for c in snap.zone(f"hand/{seat}") if suit(c) == led]
        return bool(same) and all(rank_index(c) > rank_index(best) for c in same)

    if seats[trick.index(best)] in props.takers:
        return not any(forced_over(s) for s in to_come if s not in props.takers)
    return any(beats(t) for t in props.takers if t in to_come)


def target_strategy(declared: Any, scoring: str) -> st.SearchStrategy[int]:
    """Small targets reach the game end in a round or two (protocol.md §2)."""
    default = DEFAULT_TARGET[scoring]
    if isinstance(declared, dict):
        lo, hi = declared["min"], declared["max"]
        picks = sorted({max(lo, min(hi, v)) for v in (lo, default // 8, default // 3, default)})
        return st.sampled_from(picks)
    if isinstance(declared, list) and declared:
        return st.sampled_from(declared)
    return st.just(default)


def _split(cards: list[str], n: int) -> list[list[str]]:
    size = len(cards) // n
    return [cards[i * size : (i + 1) * size] for i in range(n)]


def conservation(props: BlackMariaProperties, snap: Snapshot) -> None:
    """BM-INV-1 / BM-DEAL-1: every card exactly once; the 2C only in `removed` at 3 players."""
    n = props.n
    cards = [c for zone in snap.raw["zones"].values() for c in zone]
    # 52 cards that make the 52-card set are each card once: no Counter on the hot path
    ok = len(cards) == len(PACK) and set(cards) == PACK.keys()
    props.expect(
        "BM-INV-1",
        ok,
        "the zones must hold each of the 52 cards exactly once",
        "52 distinct cards",
        None if ok else _diff(Counter(cards), PACK),
    )
    if n == 3:
        outside = [z for z in snap.zone_names() if z != "removed" and "2C" in snap.zone(z)]
        props.expect(
            "BM-DEAL-1",
            snap.zone("removed") == ["2C"] and not outside,
            'with 3 players the 2C is removed: zone `removed` is exactly ["2C"]',
            ["2C"],
            {"removed": snap.zone("removed"), "2C also in": outside},
        )
    else:
        props.expect(
            "BM-DEAL-1", not snap.zone("removed"), "with 4 players no card is removed", [], snap.zone("removed")
        )


def _diff(got: Counter[str], want: Counter[str]) -> dict[str, Any]:
    return {"extra": sorted((got - want).elements()), "missing": sorted((want - got).elements())}


@checks("BM-INV-1", "BM-DEAL-1")
def every_card_once(props: BlackMariaProperties, step: Step) -> None:
    conservation(props, step.after)


@checks("BM-DEAL-1", "BM-DEAL-2", "BM-INV-2", "BM-PASS-1", "BM-PASS-2", "BM-PASS-3")
def the_deal(props: BlackMariaProperties, step: Step) -> None:
    """After a deal: hands as sent, 17 or 13 each, dealer rotated, passing from the dealer's left."""
    if step.kind != "deal":
        return
    after, n = step.after, props.n
    hands = [Counter(after.zone(f"hand/{s}")) for s in range(n)]
    props.expect(
        "BM-DEAL-1",
        hands == [Counter(h) for h in step.move["hands"]],
        "each seat holds exactly the cards dealt to it",
        step.move["hands"],
        [after.zone(f"hand/{s}") for s in range(n)],
    )
    size = hand_size(n)
    props.expect(
        "BM-INV-2",
        all(sum(h.values()) == size for h in hands),
        f"every hand has {size} cards after the deal",
        size,
        [sum(h.values()) for h in hands],
    )
    rnd = after.get("round")
    props.expect(
        "BM-DEAL-2",
        rnd == step.before.get("round", 0) + 1,
        "each deal starts the next round",
        step.before.get("round", 0) + 1,
        rnd,
    )
    want_dealer = (props.setup.dealer + rnd - 1) % n
    props.expect(
        "BM-DEAL-2",
        after.get("dealer") == want_dealer,
        f"round {rnd}'s dealer is the first dealer moved {rnd - 1} seat(s) left",
        want_dealer,
        after.get("dealer"),
    )
    dealer = after.get("dealer")  # judged on the dealer the engine names, so a wrong dealer fails only BM-DEAL-2
    if after.phase != "pass":  # no passing this round: a hold round (BM-PASS-3), or no pass at all (BM-PASS-1)
        props.fail(
            "BM-PASS-3" if (rnd or 0) >= 2 else "BM-PASS-1",
            "every round starts with the pass of three cards to the right: there is no hold round",
            {"phase": "pass"},
            {"phase": after.phase},
        )
    else:
        props.cover("BM-PASS-3" if (rnd or 0) >= 2 else "BM-PASS-1")  # no hold round: this one passes
        props.expect(
            "BM-PASS-2",
            after.to_act == (dealer + 1) % n,
            "after the deal the seats pass, starting left of the dealer",
            {"phase": "pass", "to_act": (dealer + 1) % n},
            {"phase": after.phase, "to_act": after.to_act},
        )
    props.dealt = hands
    props.passed = {}
    props.round_scores = list(step.before.scores)


@checks("BM-PASS-1", "BM-PASS-2", "BM-PASS-3", "BM-INV-2")
def passing(props: BlackMariaProperties, step: Step) -> None:
    """Pass moves: three cards of the dealt hand, parked until everyone has passed."""
    before, after = step.before, step.after
    if before.phase != "pass":
        return
    seat = before.to_act
    assert seat is not None
    _passes_offered(props, before, seat)
    cards = step.move["cards"]
    props.passed[seat] = cards
    if after.phase == "pass":
        _pass_parked(props, step, seat, cards)
    else:
        _exchange(props, after)


def _passes_offered(props: BlackMariaProperties, before: Snapshot, seat: int) -> None:
    """BM-PASS-1/2: every listed pass is three distinct cards of the hand as dealt (never a received
    card), and every such choice is listed."""
    hand = Counter(before.zone(f"hand/{seat}"))
    dealt = props.dealt[seat] if props.dealt else hand
    size = sum(hand.values())
    passes = [m for m in before.moves if m.get("type") == "pass"]
    held = set(dealt)  # one pack: every card is distinct, so a set says all a Counter would
    bad = [m for m in passes if len(set(cards := m["cards"])) != 3 or not held.issuperset(cards)]
    props.expect("BM-PASS-2", not bad, "a seat passes only cards from the hand it was dealt", "3 dealt cards", bad[:2])
    props.expect(
        "BM-PASS-1",
        len(passes) == math.comb(size, 3) and len(passes) == len(before.moves),
        "every choice of 3 cards from the hand is a legal pass, and nothing else",
        math.comb(size, 3),
        {"passes": len(passes), "moves": len(before.moves)},
    )


def _pass_parked(props: BlackMariaProperties, step: Step, seat: int, cards: list[str]) -> None:
    """BM-PASS-2: before the last seat has passed, the cards wait in `passing` and the next seat passes."""
    before, after, n = step.before, step.after, props.n
    props.expect(
        "BM-PASS-2",
        Counter(after.zone(f"passing/{seat}")) == Counter(cards)
        and all(
            Counter(after.zone(f"hand/{s}"))
            == Counter(before.zone(f"hand/{s}")) - (Counter(cards) if s == seat else Counter())
            for s in range(n)
        ),
        "passed cards wait in `passing` until every seat has passed; nobody receives early",
        {"passing": sorted(cards)},
        {"passing": after.zone(f"passing/{seat}")},
    )
    props.expect(
        "BM-PASS-2", after.to_act == (seat + 1) % n, "seats pass in turn clockwise", (seat + 1) % n, after.to_act
    )
    grew = [s for s in range(n) if len(after.zone(f"hand/{s}")) > len(before.zone(f"hand/{s}"))]
    props.expect(  # the state's side of the same rule: no hand holds a card it was passed before the exchange
        "BM-INV-2",
        not grew,
        "before the exchange no hand receives a passed card",
        "no hand grows",
        {"grew": grew},
    )


# the seat whose passed cards each seat receives, by the direction a round passes in (BM-PASS-1/-3)
DIRECTIONS = {"right": 1, "left": -1, "across": 2, "hold": 0}


def _exchange(props: BlackMariaProperties, after: Snapshot) -> None:
    """The exchange: BM-PASS-1 (to the right), BM-INV-2 bookkeeping; BM-PASS-3 when a later round passes
    another way than the first did (a rotation), BM-PASS-1 when every round passes the same wrong way."""
    n = props.n
    props.expect(
        "BM-PASS-1", len(props.passed) == n, "the exchange happens once every seat has passed", n, len(props.passed)
    )
    hands = [Counter(after.zone(f"hand/{s}")) for s in range(n)]
    ways = [w for w in DIRECTIONS if w != "across" or n == 4]  # at 3 seats "across" is the left
    way = next((w for w in ways if hands == _received(props, DIRECTIONS[w])), None)
    if after.get("round", 1) < 2 or props.direction is None:
        props.direction = way
    clause = "BM-PASS-3" if way != "right" and props.direction not in (None, way) else "BM-PASS-1"
    if after.get("round", 1) >= 2 and way == props.direction:
        props.cover("BM-PASS-3")  # no rotation: this round passed the way the first did
    for s in range(n):
        want = _received(props, 1)[s]
        props.expect(
            clause,
            hands[s] == want,
            f"seat {s} keeps its hand less the 3 it passed, plus the 3 passed by seat {(s + 1) % n} on its left",
            sorted(want.elements()),
            sorted(hands[s].elements()),
            cause=f"passed {way or 'some other way'}",
        )
        props.expect(
            "BM-INV-2",
            not after.zone(f"passing/{s}"),
            "no card stays in `passing` after the exchange",
            [],
            after.zone(f"passing/{s}"),
        )


def _received(props: BlackMariaProperties, step: int) -> list[Counter[str]]:
    """Each seat's hand after an exchange in which seat s receives what seat s + step passed."""
    n = props.n
    return [
        props.dealt[s] - Counter(props.passed.get(s, [])) + Counter(props.passed.get((s + step) % n, []))
        for s in range(n)
    ]


@checks("BM-LEAD-1", "BM-LEAD-2", "BM-FOLLOW-1", "BM-INV-4")
def who_plays_what(props: BlackMariaProperties, step: Step) -> None:
    """The seat to act and its legal moves during play: lead anything, follow suit if able."""
    after, n = step.after, props.n
    if after.phase != "play":
        return
    seat = after.to_act
    assert seat is not None
    trick = after.zone("trick")
    if step.before.phase == "pass":
        first = (after.get("dealer") + 1) % n
        props.expect(
            "BM-LEAD-1", seat == first and not trick, "the player left of the dealer leads the first trick", first, seat
        )
        props.cover("BM-INV-4")
    hand = after.zone(f"hand/{seat}")
    if trick:
        led = suit(trick[0])
        same = [c for c in hand if suit(c) == led]
        legal = same or hand
        clause = "BM-FOLLOW-1"
    else:
        legal, clause = hand, "BM-LEAD-2"
    want = set(legal)
    got = {m.get("card") for m in after.moves if m.get("type") == "play"}
    ok = got == want and len(after.moves) == len(want)
    if not ok and trick and not same and _first_trick(props, after) and want - got <= PENALTY:
        clause = "BM-LEAD-2"  # a void hand may throw hearts and the QS on trick one: no first-trick rule
    props.expect(
        clause,
        ok,
        "following: the cards of the led suit if any, else any card" if trick else "any card may be led",
        *((None, None) if ok else move_diff([play(c) for c in want], after.moves)),  # the diff only for a message
    )


@checks("BM-LEAD-1", "BM-FOLLOW-1", "BM-WIN-1", "BM-WIN-2", "BM-END-1", "BM-INV-3", "BM-INV-4", "CONTRACT-TURN-1")
def trick_play(props: BlackMariaProperties, step: Step) -> None:
    """A play: the card leaves the hand; the trick grows clockwise or is won."""
    before, after, n = step.before, step.after, props.n
    if step.kind != "play":
        return
    seat, card = before.to_act, step.move["card"]
    assert seat is not None
    _card_played(props, before, seat, card)
    trick = [*before.zone("trick"), card]
    seats = [*list(before.get("trick_seats") or []), seat]
    if len(trick) < n:
        props.expect(
            "BM-INV-4",
            after.zone("trick") == trick and list(after.get("trick_seats") or seats) == seats,
            "the card joins the trick in play order",
            trick,
            after.zone("trick"),
        )
        first = _first_trick(props, after)
        props.expect(  # contract: while a trick has cards, `leader` is the seat that led it
            "BM-LEAD-1" if first else "BM-WIN-2",
            after.get("leader") == seats[0],
            "while a trick has cards, `leader` is the seat that led it",
            seats[0],
            after.get("leader"),
        )
        props.expect(
            "CONTRACT-TURN-1", after.to_act == (seat + 1) % n, "play passes to the left", (seat + 1) % n, after.to_act
        )
        return
    _trick_won(props, step, trick, seats)


def _first_trick(props: BlackMariaProperties, snap: Snapshot) -> bool:
    """No trick of this round has been won yet."""
    return not any(snap.zone(f"won/{s}") for s in range(props.n))


def _card_played(props: BlackMariaProperties, before: Snapshot, seat: int, card: str) -> None:
    """BM-FOLLOW-1: the card comes from the hand; BM-INV-3: it follows the led suit when the hand can
    (judged on the card played, whatever legal_moves listed)."""
    hand = before.zone(f"hand/{seat}")
    props.expect("BM-FOLLOW-1", card in hand, "a play is a card from the player's hand", {"one of": hand}, card)
    if before.zone("trick"):
        led = suit(before.zone("trick")[0])
        follows = suit(card) == led or not any(suit(c) == led for c in hand)
        props.expect(
            "BM-INV-3",
            follows,
            f"a play follows the led suit ({led}) when the hand holds one",
            {"suit": led},
            {"played": card},
        )
    else:
        props.cover("BM-INV-3")


def _trick_won(props: BlackMariaProperties, step: Step, trick: list[str], seats: list[int]) -> None:
    """BM-WIN-1: the highest card of the led suit takes the trick; BM-WIN-2: its taker leads next, or
    the round has had all its tricks."""
    before, after, n = step.before, step.after, props.n
    led = suit(trick[0])
    best = max((c for c in trick if suit(c) == led), key=rank_index)
    winner = seats[trick.index(best)]
    grew = {
        s: sorted((Counter(after.zone(f"won/{s}")) - Counter(before.zone(f"won/{s}"))).elements()) for s in range(n)
    }
    takers = [s for s, cards in grew.items() if cards]
    props.expect(
        "BM-WIN-1",
        takers == [winner] and Counter(grew[winner]) == Counter(trick),
        f"the highest card of the led suit ({best}) wins: seat {winner} takes the trick",
        {"winner": winner, "won": sorted(trick)},
        {f"won/{s}": c for s, c in grew.items() if c},
    )
    props.cover("BM-INV-4")
    taker = takers[0] if len(takers) == 1 else winner  # judge the next lead against who took the trick
    if after.phase == "play":
        props.expect(
            "BM-WIN-2",
            after.to_act == taker and not after.zone("trick"),
            "the trick winner leads the next trick",
            taker,
            after.to_act,
        )
        return
    size = hand_size(n)
    tricks = sum(len(after.zone(f"won/{s}")) for s in range(n)) // n
    held = sum(len(after.zone(f"hand/{s}")) for s in range(n))
    # a game that ends with cards still in the hands ended in the middle of a round (BM-END-1)
    clause = "BM-END-1" if after.phase == "over" and held else "BM-WIN-2"
    if after.phase == "over" and not held:
        props.cover("BM-END-1")  # the game ended at the end of a round, never in the middle of one
    props.expect(
        clause,
        tricks == size and not held,
        f"a round has {size} tricks" + (", and the game ends only once a round is over" if held else ""),
        {"tricks": size, "cards held": 0},
        {"tricks": tricks, "cards held": held},
    )


@checks("BM-INV-6")
def totals_never_fall(props: BlackMariaProperties, step: Step) -> None:
    """BM-INV-6: penalty points only ever add up; no step lowers a running total."""
    before, after = step.before.scores, step.after.scores
    fell = [s for s in range(min(len(before), len(after))) if after[s] < before[s]]
    props.expect("BM-INV-6", not fell, "totals never go down", {"at least": before}, {"scores": after})


@checks(
    "BM-SCORE-1",
    "BM-SCORE-2",
    "BM-SCORE-3",
    "BM-SCORE-4",
    "BM-SCORE-5",
    "BM-INV-5",
    "BM-INV-6",
    "BM-END-1",
    "BM-END-2",
    "BM-INV-7",
)
def round_end(props: BlackMariaProperties, step: Step) -> None:
    """Scoring when the last trick is won, then either the next deal or the end."""
    before, after = step.before, step.after
    if before.phase != "play" or after.phase == "play":
        return
    _round_scored(props, after)
    _end_rule(props, after)


def _round_scored(props: BlackMariaProperties, after: Snapshot) -> None:
    """BM-INV-5/6: the round hands out its total, each seat the values of its won cards; a wrong score
    is a card value (BM-SCORE-1/2/3) or the adding up (BM-SCORE-4)."""
    scheme, n = props.scheme, props.n
    points = POINTS[scheme]
    won = [after.zone(f"won/{s}") for s in range(n)]
    gained = [after.scores[s] - props.round_scores[s] for s in range(n)]
    want = [sum(points.get(c, 0) for c in won[s]) for s in range(n)]
    # the invariants are judged whatever the clause attribution below finds
    props.expect(
        "BM-INV-5",
        sum(gained) == ROUND_TOTAL[scheme],
        f"a `{scheme}` round hands out exactly {ROUND_TOTAL[scheme]}",
        ROUND_TOTAL[scheme],
        sum(gained),
    )
    props.expect(
        "BM-INV-6",
        gained == want,
        "each round score is the sum of the penalty values in that player's won tricks",
        {"round": want},
        {"round": gained},
    )
    if gained != want:
        clause, message = _score_clause(props, won, gained, want, after.scores)
        props.fail(
            clause,
            message,
            {"totals": [props.round_scores[s] + want[s] for s in range(n)], "round": want},
            {"totals": after.scores, "round": gained},
        )
    else:
        props.cover(SCORE_CLAUSE[scheme], "BM-SCORE-4", "BM-SCORE-5")
        props.scored = True


def _score_clause(
    props: BlackMariaProperties, won: list[list[str]], gained: list[int], want: list[int], totals: list[int]
) -> tuple[str, str]:
    """Which rule a wrong round score breaks, by the smallest difference that explains it.

    The round scored exactly as another scheme values the cards, after an earlier round scored by the
    scheme chosen: the scheme changed (BM-SCORE-5; from the first round on it is the values of the
    scheme chosen).  The totals are the round's scores alone: they were not added (BM-SCORE-4).  Only
    seats that won a card some scheme values are off, never below zero: a card's value (BM-SCORE-1/2/3).
    Anything else (a moon-shot adjustment, a total going down) is in the adding up: BM-SCORE-4.
    """
    scheme, n = props.scheme, props.n
    for other, values in POINTS.items():
        if props.scored and other != scheme and gained == [sum(values.get(c, 0) for c in won[s]) for s in range(n)]:
            return "BM-SCORE-5", f"the `{scheme}` scheme chosen applies to every round: this one scored as `{other}`"
    if any(props.round_scores) and totals == want:
        return "BM-SCORE-4", "each player's round score is added to their running total, not put in its place"
    by_value = all(g >= 0 for g in gained) and all(
        gained[s] == want[s] for s in range(n) if not any(c in VALUED for c in won[s])
    )
    if by_value:
        return SCORE_CLAUSE[scheme], f"under `{scheme}` each player adds the penalty values of the cards they won"
    return "BM-SCORE-4", "each player's round score, the sum of the penalty cards they won, is added to their total"


def _end_rule(props: BlackMariaProperties, after: Snapshot) -> None:
    """BM-SCORE-5 / BM-END-1/2 / BM-INV-7: the scheme and target hold; the game ends iff a total
    reaches the target, the lowest total winning, within its bound of rounds."""
    scheme, target, n = props.scheme, props.target, props.n
    props.expect(
        "BM-SCORE-5",
        after.options.get("scoring") == scheme,
        "the scheme is fixed for the whole game",
        scheme,
        after.options.get("scoring"),
    )
    props.expect(
        "BM-END-1",
        after.options.get("target") == target,
        "the target is the one set, or 500 under spot and 100 otherwise",
        target,
        after.options.get("target"),
    )
    ended = max(after.scores) >= target
    props.situation(
        "BM-END-1", "ends-at-target" if max(after.scores) == target else "ends-above-target" if ended else "continues"
    )
    props.expect(
        "BM-END-1",
        (after.phase == "over") == ended,
        f"the game ends after a round iff some total reaches the target {target}",
        "over" if ended else "deal",
        after.phase,
    )
    if after.phase == "over":
        low = min(after.scores)
        winners = [s for s in range(n) if after.scores[s] == low]
        got = sorted((after.get("result") or {}).get("winners") or [])
        props.expect("BM-END-2", got == winners, "the lowest total wins; ties share the win", winners, got)
        props.situation("BM-END-2", "tie-for-lowest" if len(winners) > 1 else "unique-lowest")
    bound = math.ceil(target * n / ROUND_TOTAL[scheme])
    props.expect(
        "BM-INV-7",
        after.get("round", 0) <= bound,
        f"a game ends within ceil(target*n/T) = {bound} rounds",
        bound,
        after.get("round"),
    )
