"""An independent Black Maria engine (Hearts family), with planted bugs and house rules.

Written from docs/rules/black-maria.md, docs/protocol.md, shared/protocol.md and shared/rules.md §4
alone.  Its own choices where the contract leaves one open:

- ``leader`` is null whenever the trick is empty (also between tricks of a round);
- ``dealer`` keeps naming the last round's dealer while the phase is ``deal`` and moves left only
  when the next deal is applied;
- a finished trick goes face down to ``won/N`` and stays there until the next deal, so between
  rounds every card lies in a ``won/N`` zone;
- empty zones are left out (``removed`` with 3 players is never empty);
- hands are kept sorted spades, hearts, diamonds, clubs, high card first, and ``legal_moves``
  follows that order;
- ``target`` is declared 1..5000; a larger integer is a valid request this engine does not
  implement (``unsupported``), a smaller one is a ``bad_request``.

``engine()`` is the correct engine; ``engine("pass_left", ...)`` enables planted bugs (``BUGS``),
``house.NAME`` a whole set of house rules (``HOUSE``), and ``declaring.NAME`` an engine that declares
the house rules it plays as options in ``hello`` (``DECLARING``).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Any

from attrs import frozen

from ruleproof.model.engine import BadRequest, IllegalMove, InternalError, JSONObject, Move, State, Unsupported
from tests.independent import Bug, Factories, HouseRules

GAME = "black-maria"
OTHER_GAMES = ("idiot", "fool", "moon")
RANKS = "23456789TJQKA"
SUITS = "CDHS"
HAND_SUITS = "SHDC"  # this engine's hand order
SCHEMES = ("standard", "spades", "spot")
TARGET_MIN, TARGET_MAX = 1, 5000
PHASE_CLAUSE = {"deal": "BM-DEAL-1", "pass": "BM-PASS-1", "play": "BM-FOLLOW-1", "over": "BM-END-1"}
RIGHT, LEFT, ACROSS, HOLD = -1, 1, 2, 0

BUGS: dict[str, Bug] = {
    b.name: b
    for b in (
        Bug("deal_2c", "BM-DEAL-1", "with 3 players a deal that contains the 2C is accepted"),
        Bug("dealer_right", "BM-DEAL-2", "the deal passes to the right: the next dealer is (dealer - 1) % n"),
        Bug("pass_left", "BM-PASS-1", "cards are passed to the left"),
        Bug("pass_dup", "BM-PASS-1", "a pass naming one card twice is accepted (the receiver gets it twice)"),
        Bug("pass_received", "BM-PASS-2", "each pass reaches the neighbour at once, who may pass it on"),
        Bug("pass_rotation", "BM-PASS-3", "the pass rotates by round: right, left, across, hold"),
        Bug("first_lead_2c", "BM-LEAD-1", "the holder of the 2C leads the first trick (left of dealer if none)"),
        Bug("hearts_broken", "BM-LEAD-2", "hearts may not be led until a heart has been discarded"),
        Bug("follow_off_by_one", "BM-FOLLOW-1", "a player holding exactly one card of the led suit may revoke"),
        Bug("ace_low", "BM-WIN-1", "aces rank low when the trick's winner is found"),
        Bug("lead_rotates", "BM-WIN-2", "the next trick is led by the seat left of the last leader, not the winner"),
        Bug("leader_stale", "BM-WIN-2", "`leader` names the previous trick's leader while a new trick has cards"),
        Bug("standard_spades_leak", "BM-SCORE-1", "under `standard` the KS (10) and AS (7) score too"),
        Bug("spades_swapped", "BM-SCORE-2", "under `spades` the KS scores 7 and the AS 10"),
        Bug("spot_faces", "BM-SCORE-3", "under `spot` JH QH KH score 11, 12, 13"),
        Bug("score_overwrite", "BM-SCORE-4", "the round score replaces the running total instead of adding to it"),
        Bug("scheme_resets", "BM-SCORE-5", "from the second round on the engine scores `standard` whatever was chosen"),
        Bug("target_strict", "BM-END-1", "the game ends only when a total is above the target, not at it"),
        Bug("tie_first", "BM-END-2", "a tie for lowest is not shared: only the lowest seat number wins"),
        Bug("reject_mutates", "CONTRACT-REJECT-1", "a revoke is refused, but the card has already left the hand"),
        # deviations used by the house rules only
        Bug("moon_shot", "BM-SCORE-4", "a player who takes every heart and the QS scores -26, the others 0"),
        Bug("no_points_first_trick", "BM-LEAD-2", "no heart or QS may be discarded on the first trick"),
        Bug("hearts_rotation", "BM-PASS-3", "the pass rotates as in Hearts: left, right, across, hold"),
        Bug("pass_dup_internal", "CONTRACT-ERROR-1", "a pass naming one card twice makes the engine fail (`internal`)"),
        Bug("play_bad_request", "CONTRACT-ERROR-1", "a play of a card not held is answered `bad_request`"),
        Bug("end_mid_round", "BM-END-1", "the game ends after the trick that takes a running total to the target"),
        Bug("first_lead_club", "BM-LEAD-2", "the first lead of a round must be the lowest club in play (the 2C)"),
        Bug("pass_dup_set", "BM-PASS-1", "a pass naming one card twice is accepted: only its distinct cards move"),
        Bug("moon_others", "BM-SCORE-4", "a player who takes every heart and the QS scores 0, every other player 26"),
        Bug(
            "moon_others_25",
            "BM-SCORE-4",
            "a player who takes every heart and the QS scores 0, every other player 25 (declared moon=others_score: "
            "BM-SCORE-6, which pays 26)",
        ),
        # not a deviation: what a Hearts program declares (4 players, `standard`, a game to 100), no clause
        Bug("hearts_table", "", "declares 4 players, `standard` scoring and a target of 100 only"),
    )
}

HOUSE: dict[str, HouseRules] = {
    h.name: h
    for h in (
        HouseRules(
            "ts_hearts",
            ("first_lead_2c", "moon_shot", "pass_dup", "tie_first", "play_bad_request"),
            "a TypeScript Hearts game: the 2C holder leads, shooting the moon scores -26 for the shooter, a pass "
            "that duplicates cards is accepted, a tie at the end is not shared, validation errors are bad requests",
        ),
        HouseRules(
            "py_hearts",
            ("hearts_broken", "no_points_first_trick", "hearts_rotation", "pass_dup_internal", "spot_faces"),
            "a Python Hearts engine calling itself Black Maria: hearts must be broken before being led, no points "
            "on the first trick, passing rotates left/right/across/hold, a pass naming one card twice raises "
            "InternalError, and spot hearts count J Q K as 11 12 13",
        ),
        HouseRules(
            "pickup52",
            ("pass_left", "end_mid_round", "dealer_right", "spades_swapped", "leader_stale"),
            "a JavaScript engine written from the 52pickup.net text: passes to the left, stops the moment a "
            "player reaches the target, deals to the right, swaps the KS/AS penalties, and reports `leader` late",
        ),
        HouseRules(
            "py_hearts6",
            ("hearts_rotation", "first_lead_2c", "first_lead_club", "hearts_broken", "moon_others", "pass_dup_set"),
            "a Python Hearts engine with six deviations, one of them a real bug: round 1 passes left and the pass "
            "rotates (left, right, across, hold), the 2C holder leads the 2C, hearts must be broken, a moon shot "
            "scores 26 for each other player, and a pass naming one card twice is accepted (the bug: the passer "
            "keeps 14 cards, the receiver gets 12)",
        ),
        HouseRules(
            "ts_hearts_moon",
            ("moon_others", "tie_first", "hearts_table"),
            "a TypeScript Hearts engine: 4 players, a game to 100, a moon shot scores 26 for each other player, "
            "and a tie for the lowest total at the end is not shared",
        ),
    )
}


@frozen
class Declaring:
    """An engine that declares the house rules it plays (docs/rules/black-maria.md "House rules"): its
    bugs, and what its ``hello`` declares over the plain one (each option's values)."""

    name: str
    bugs: tuple[str, ...]
    declares: JSONObject
    description: str


# each a Hearts program of 4 players and standard scoring: its 2C-holder lead and its moon shot of
# hearts and the QS have no reading at 3 players or under another scheme, so it declares that table
DECLARING: dict[str, Declaring] = {
    d.name: d
    for d in (
        Declaring(
            "py_hearts6",
            HOUSE["py_hearts6"].bugs,
            {
                "players": [4],
                "options": {
                    "scoring": ["standard"],
                    "pass": ["rotate"],
                    "first_lead": ["two_clubs"],
                    "first_trick": ["lowest_club"],
                    "hearts_broken": ["hearts"],
                    "moon": ["others_score"],
                },
            },
            "py_hearts6 declaring its five house rules: only its real bug (a pass naming a card twice) is left",
        ),
        Declaring(
            "moon_25",
            ("moon_others_25",),
            {"players": [4], "options": {"scoring": ["standard"], "moon": ["others_score"]}},
            "declares moon=others_score and pays a shot 25 to each other player: the house rule played wrong",
        ),
    )
}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_card(text: str) -> bool:
    return len(text) == 2 and text[0] in RANKS and text[1] in SUITS


def _rank(card: str) -> int:
    return RANKS.index(card[0])


def _suit(card: str) -> str:
    return card[1]


def _hand_key(card: str) -> tuple[int, int]:
    return HAND_SUITS.index(_suit(card)), -_rank(card)


def _full_deck() -> list[str]:
    return [r + s for s in SUITS for r in RANKS]


def _points(card: str, scheme: str, bugs: frozenset[str]) -> int:
    """The penalty value of one card under one scheme."""
    if scheme == "spot":
        return _spot_points(card, bugs)
    if card == "QS":
        return 13
    if _suit(card) == "H":
        return 1
    spades_values = scheme == "spades" or "standard_spades_leak" in bugs
    if spades_values and card in ("KS", "AS"):
        swapped = "spades_swapped" in bugs and scheme == "spades"
        return {"KS": 10, "AS": 7}[card] if not swapped else {"KS": 7, "AS": 10}[card]
    return 0


def _spot_points(card: str, bugs: frozenset[str]) -> int:
    if card == "QS":
        return 25
    if _suit(card) != "H":
        return 0
    rank = card[0]
    if rank in "23456789":
        return int(rank)
    if rank == "T":
        return 10
    if rank == "A":
        return 15
    return {"J": 11, "Q": 12, "K": 13}[rank] if "spot_faces" in bugs else 10


class _Table:
    """The mutable state of one game."""

    def __init__(self, players: int, dealer: int, scoring: str, target: int) -> None:
        self.players, self.dealer, self.scoring, self.target = players, dealer, scoring, target
        self.phase = "deal"
        self.to_act: int | None = None
        self.round = 0
        self.deck = [c for c in _full_deck() if players == 4 or c != "2C"]
        self.removed = ["2C"] if players == 3 else []
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.passing: list[list[str]] = [[] for _ in range(players)]
        self.won: list[list[str]] = [[] for _ in range(players)]
        self.trick: list[str] = []
        self.trick_seats: list[int] = []
        self.leader: int | None = None
        self.prev_leader: int | None = None  # the last finished trick's leader
        self.scores = [0] * players
        self.winners: list[int] | None = None
        self.tricks_done = 0
        self.hearts_played = False

    def left(self, seat: int) -> int:
        return (seat + 1) % self.players


class BlackMariaEngine:
    """The six methods of the engine contract, for black-maria only."""

    def __init__(self, bugs: Iterable[str] = (), declares: JSONObject | None = None) -> None:
        self.bugs = frozenset(bugs)
        self.declares = declares or {}  # the house rules its hello declares (a Declaring entry's)
        self.house: JSONObject = {}  # the house options of this game's new_game, echoed in its states
        self._t: _Table | None = None

    # -- the contract ----------------------------------------------------------------------------

    def hello(self) -> JSONObject:
        declared: JSONObject = {
            "players": [3, 4],
            "options": {"scoring": list(SCHEMES), "target": {"min": TARGET_MIN, "max": TARGET_MAX}},
        }
        if "hearts_table" in self.bugs:
            declared = {"players": [4], "options": {"scoring": ["standard"], "target": [100]}}
        if self.declares:
            options = {**declared["options"], **self.declares.get("options", {})}
            declared = {**declared, **self.declares, "options": options}
        return {
            "protocol": 1,
            "engine": {"name": "independent-black-maria", "version": "1.0"},
            "games": {GAME: declared},
        }

    def new_game(self, game: str, players: int, dealer: int, options: JSONObject) -> State:
        if game in OTHER_GAMES:
            raise Unsupported(f"this engine plays only {GAME}, not {game}")
        if game != GAME:
            raise BadRequest(f"unknown game {game!r}")
        if not _is_int(players) or players not in (3, 4):
            raise BadRequest(f"players must be 3 or 4, not {players!r}")
        if not _is_int(dealer) or not 0 <= dealer < players:
            raise BadRequest(f"dealer must be a seat 0..{players - 1}, not {dealer!r}")
        house = self._house(options)
        scoring, target = self._options({k: v for k, v in options.items() if k not in house})
        self.house = house
        if "hearts_table" in self.bugs and (players, scoring, target) != (4, "standard", 100):
            raise Unsupported("this Hearts program plays 4 players, standard scoring, to 100")
        self._t = _Table(players, dealer, scoring, target)
        return self._snapshot()

    def legal_moves(self) -> list[Move]:
        t = self._table()
        if t.phase == "pass" and t.to_act is not None:
            hand = sorted(t.hands[t.to_act], key=_hand_key)
            moves = [{"type": "pass", "cards": list(trio)} for trio in combinations(hand, 3)]
            return moves
        if t.phase == "play" and t.to_act is not None:
            return [{"type": "play", "card": c} for c in self._playable(t, t.to_act)]
        return []

    def apply(self, move: Move) -> State:
        t = self._table()
        if not isinstance(move, dict):
            raise BadRequest("a move is a JSON object")
        kind = move.get("type")
        if t.phase == "over" and isinstance(kind, str):
            raise IllegalMove("BM-END-1", "the game is over")
        if not isinstance(kind, str):
            raise BadRequest("a move needs a string `type`")
        handler = {"deal": self._deal, "pass": self._pass, "play": self._play}.get(kind)
        if handler is None:
            raise IllegalMove(PHASE_CLAUSE[t.phase], f"unknown move type {kind!r}")
        handler(t, move)
        return self._snapshot()

    def state(self) -> State:
        self._table()
        return self._snapshot()

    def close(self) -> None:
        self._t = None

    # -- setup -----------------------------------------------------------------------------------

    def _table(self) -> _Table:
        if self._t is None:
            raise BadRequest("no game: call new_game first")
        return self._t

    def _house(self, options: Any) -> JSONObject:
        """The declared house options sent (each must be a declared value); the engine plays its own
        rules whatever they say: it declares the rules it plays."""
        declared = {k: v for k, v in self.declares.get("options", {}).items() if k not in ("scoring", "target")}
        if not isinstance(options, dict):
            return {}
        for name in set(options) & set(declared):
            if options[name] not in declared[name]:
                raise BadRequest(f"{name} must be one of {declared[name]}, not {options[name]!r}")
        return {k: v for k, v in options.items() if k in declared}

    @staticmethod
    def _options(options: Any) -> tuple[str, int]:
        if not isinstance(options, dict):
            raise BadRequest("options must be an object")
        unknown = sorted(set(options) - {"scoring", "target"})
        if unknown:
            raise BadRequest(f"unknown option(s) {unknown}")
        scoring = options.get("scoring", "standard")
        if not isinstance(scoring, str) or scoring not in SCHEMES:
            raise BadRequest(f"scoring must be one of {SCHEMES}, not {scoring!r}")
        target = options.get("target", 500 if scoring == "spot" else 100)
        if not _is_int(target) or target < TARGET_MIN:
            raise BadRequest(f"target must be an integer >= {TARGET_MIN}, not {target!r}")
        if target > TARGET_MAX:
            raise Unsupported(f"targets above {TARGET_MAX} are not implemented")
        return scoring, target

    # -- deal ------------------------------------------------------------------------------------

    def _deal(self, t: _Table, move: Move) -> None:
        hands = move.get("hands")
        if not isinstance(hands, list) or not all(
            isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands
        ):
            raise BadRequest("deal.hands must be a list of lists of card strings")
        if t.phase != "deal":
            raise IllegalMove(PHASE_CLAUSE[t.phase], f"no deal in phase {t.phase}")
        self._check_deal(t, hands)
        if t.round > 0:
            step = -1 if "dealer_right" in self.bugs else 1
            t.dealer = (t.dealer + step) % t.players
        t.round += 1
        t.deck = []
        t.won = [[] for _ in range(t.players)]
        t.hands = [sorted(h, key=_hand_key) for h in hands]
        t.tricks_done, t.hearts_played, t.prev_leader = 0, False, None
        self._start_passing(t)

    def _check_deal(self, t: _Table, hands: list[list[str]]) -> None:
        size = 17 if t.players == 3 else 13
        if len(hands) != t.players:
            raise IllegalMove("BM-DEAL-1", f"{len(hands)} hands for {t.players} players")
        if any(len(h) != size for h in hands):
            raise IllegalMove("BM-DEAL-1", f"every hand must hold {size} cards")
        cards = [c for h in hands for c in h]
        bad = [c for c in cards if not _is_card(c)]
        if bad:
            raise IllegalMove("BM-DEAL-1", f"{bad[0]!r} names no card")
        if len(set(cards)) != len(cards):
            raise IllegalMove("BM-DEAL-1", "a card is dealt twice")
        if t.players == 3 and "2C" in cards and "deal_2c" not in self.bugs:
            raise IllegalMove("BM-DEAL-1", "the 2C is out of the game with 3 players")

    # -- passing ---------------------------------------------------------------------------------

    def _direction(self, t: _Table) -> int:
        if "pass_rotation" in self.bugs:
            cycle = (RIGHT, LEFT, ACROSS, HOLD) if t.players == 4 else (RIGHT, LEFT, HOLD)
            return cycle[(t.round - 1) % len(cycle)]
        if "hearts_rotation" in self.bugs:
            cycle = (LEFT, RIGHT, ACROSS, HOLD) if t.players == 4 else (LEFT, RIGHT, HOLD)
            return cycle[(t.round - 1) % len(cycle)]
        return LEFT if "pass_left" in self.bugs else RIGHT

    def _start_passing(self, t: _Table) -> None:
        if self._direction(t) == HOLD:
            self._start_play(t)
            return
        t.phase, t.to_act = "pass", t.left(t.dealer)

    def _pass(self, t: _Table, move: Move) -> None:
        cards = move.get("cards")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise BadRequest("pass.cards must be a list of card strings")
        if t.phase != "pass" or t.to_act is None:
            raise IllegalMove(PHASE_CLAUSE[t.phase], f"no pass in phase {t.phase}")
        seat = t.to_act
        self._check_pass(t, seat, cards)
        if "pass_dup_set" in self.bugs:  # what a set of the named cards does: each distinct card moves once
            cards = list(dict.fromkeys(cards))
        for c in cards:
            if c in t.hands[seat]:
                t.hands[seat].remove(c)
        if "pass_received" in self.bugs:
            receiver = (seat + self._direction(t)) % t.players
            t.hands[receiver] = sorted(t.hands[receiver] + cards, key=_hand_key)
        else:
            t.passing[seat] = list(cards)
        if seat == t.dealer:
            self._exchange(t)
            self._start_play(t)
        else:
            t.to_act = t.left(seat)

    def _check_pass(self, t: _Table, seat: int, cards: list[str]) -> None:
        if len(cards) != len(set(cards)):
            if "pass_dup_internal" in self.bugs:
                raise InternalError("assertion failed: len(set(selected)) == 3")
            if "pass_dup" not in self.bugs and "pass_dup_set" not in self.bugs:
                raise IllegalMove("BM-PASS-1", "a pass names three different cards")
        if len(cards) != 3:
            raise IllegalMove("BM-PASS-1", f"a pass is exactly 3 cards, not {len(cards)}")
        for c in cards:
            if not _is_card(c):
                raise IllegalMove("BM-PASS-1", f"{c!r} names no card")
            if c in t.hands[seat]:
                continue
            if any(c in p for p in t.passing):
                raise IllegalMove("BM-PASS-2", f"{c} was passed, not dealt to seat {seat}: it cannot be passed on")
            raise IllegalMove("BM-PASS-1", f"seat {seat} does not hold {c}")

    def _exchange(self, t: _Table) -> None:
        step = self._direction(t)
        for seat in range(t.players):
            receiver = (seat + step) % t.players
            t.hands[receiver] = sorted(t.hands[receiver] + t.passing[seat], key=_hand_key)
        t.passing = [[] for _ in range(t.players)]

    # -- play ------------------------------------------------------------------------------------

    def _start_play(self, t: _Table) -> None:
        t.phase, t.to_act, t.leader = "play", t.left(t.dealer), None
        if "first_lead_2c" in self.bugs:
            holders = [s for s in range(t.players) if "2C" in t.hands[s]]
            if holders:
                t.to_act = holders[0]

    def _playable(self, t: _Table, seat: int) -> list[str]:
        """The cards ``seat`` may play now, in hand order."""
        hand = t.hands[seat]
        if not t.trick:
            return self._leads(t, hand)
        led = _suit(t.trick[0])
        same = [c for c in hand if _suit(c) == led]
        if same and not (len(same) == 1 and "follow_off_by_one" in self.bugs):
            return same
        if "no_points_first_trick" in self.bugs and t.tricks_done == 0:
            clean = [c for c in hand if _suit(c) != "H" and c != "QS"]
            return clean or list(hand)
        return list(hand)

    def _leads(self, t: _Table, hand: list[str]) -> list[str]:
        if "first_lead_club" in self.bugs and t.tricks_done == 0:
            clubs = sorted((c for p in t.hands for c in p if _suit(c) == "C"), key=_rank)
            if clubs and clubs[0] in hand:
                return [clubs[0]]
        if "hearts_broken" in self.bugs and not t.hearts_played:
            other = [c for c in hand if _suit(c) != "H"]
            return other or list(hand)
        return list(hand)

    def _play(self, t: _Table, move: Move) -> None:
        card = move.get("card")
        if not isinstance(card, str):
            raise BadRequest("play.card must be a card string")
        if t.phase != "play" or t.to_act is None:
            raise IllegalMove(PHASE_CLAUSE[t.phase], f"no play in phase {t.phase}")
        seat = t.to_act
        if not _is_card(card):
            raise IllegalMove("BM-FOLLOW-1", f"{card!r} names no card")
        if card not in t.hands[seat]:
            if "play_bad_request" in self.bugs:
                raise BadRequest(f"invalid card {card}")
            raise IllegalMove("BM-FOLLOW-1", f"seat {seat} does not hold {card}")
        if card not in self._playable(t, seat):
            if "reject_mutates" in self.bugs:
                t.hands[seat].remove(card)
            raise IllegalMove("BM-FOLLOW-1", f"{card} does not follow {_suit(t.trick[0]) if t.trick else 'the lead'}")
        t.hands[seat].remove(card)
        if not t.trick:
            t.leader = seat
        t.trick.append(card)
        t.trick_seats.append(seat)
        if len(t.trick) < t.players:
            t.to_act = t.left(seat)
        else:
            self._finish_trick(t)

    def _trick_winner(self, t: _Table) -> int:
        led = _suit(t.trick[0])

        def strength(card: str) -> int:
            rank = _rank(card)
            return -1 if "ace_low" in self.bugs and card[0] == "A" else rank

        best = max((c for c in t.trick if _suit(c) == led), key=strength)
        return t.trick_seats[t.trick.index(best)]

    def _finish_trick(self, t: _Table) -> None:
        winner = self._trick_winner(t)
        t.won[winner].extend(t.trick)
        t.hearts_played = t.hearts_played or any(_suit(c) == "H" for c in t.trick)
        leader = t.leader if t.leader is not None else winner
        t.prev_leader = leader
        t.trick, t.trick_seats, t.leader = [], [], None
        t.tricks_done += 1
        t.to_act = t.left(leader) if "lead_rotates" in self.bugs else winner
        round_over = not any(t.hands)
        if round_over or ("end_mid_round" in self.bugs and self._reached_mid_round(t)):
            self._score_round(t)

    # -- scoring and end -------------------------------------------------------------------------

    def _scheme(self, t: _Table) -> str:
        return "standard" if "scheme_resets" in self.bugs and t.round > 1 else t.scoring

    def _round_scores(self, t: _Table) -> list[int]:
        scheme = self._scheme(t)
        got = [sum(_points(c, scheme, self.bugs) for c in pile) for pile in t.won]
        for seat, pile in enumerate(t.won):
            shot = "QS" in pile and sum(_suit(c) == "H" for c in pile) == 13
            if shot and "moon_shot" in self.bugs:
                got = [0] * t.players
                got[seat] = -26
            elif shot and "moon_others" in self.bugs:
                got = [26] * t.players
                got[seat] = 0
            elif shot and "moon_others_25" in self.bugs:
                got = [25] * t.players
                got[seat] = 0
        return got

    def _reached_mid_round(self, t: _Table) -> bool:
        return any(total + now >= t.target for total, now in zip(t.scores, self._round_scores(t), strict=True))

    def _score_round(self, t: _Table) -> None:
        got = self._round_scores(t)
        if "score_overwrite" in self.bugs:
            t.scores = got
        else:
            t.scores = [total + now for total, now in zip(t.scores, got, strict=True)]
        t.to_act, t.leader = None, None
        if self._game_ends(t):
            t.phase = "over"
            low = min(t.scores)
            t.winners = [s for s in range(t.players) if t.scores[s] == low]
            if "tie_first" in self.bugs:
                t.winners = t.winners[:1]
        else:
            t.phase = "deal"

    def _game_ends(self, t: _Table) -> bool:
        if "target_strict" in self.bugs:
            return any(total > t.target for total in t.scores)
        return any(total >= t.target for total in t.scores)

    # -- STATE -----------------------------------------------------------------------------------

    def _snapshot(self) -> State:
        t = self._table()
        leader = t.leader
        if "leader_stale" in self.bugs and t.trick and t.prev_leader is not None:
            leader = t.prev_leader
        return {
            "game": GAME,
            "players": t.players,
            "options": {"scoring": t.scoring, "target": t.target, **self.house},
            "dealer": t.dealer,
            "phase": t.phase,
            "to_act": t.to_act,
            "round": t.round,
            "zones": self._zones(t),
            "scores": list(t.scores),
            "result": None if t.winners is None else {"winners": list(t.winners)},
            "trick_seats": list(t.trick_seats),
            "leader": leader,
        }

    @staticmethod
    def _zones(t: _Table) -> dict[str, list[str]]:
        zones: dict[str, list[str]] = {}
        for seat in range(t.players):
            for name, cards in (("hand", t.hands[seat]), ("passing", t.passing[seat]), ("won", t.won[seat])):
                if cards:
                    zones[f"{name}/{seat}"] = list(cards)
        for name, cards in (("trick", t.trick), ("deck", t.deck), ("removed", t.removed)):
            if cards:
                zones[name] = list(cards)
        return zones


def engine(*bugs: str) -> BlackMariaEngine:
    """The engine with the named planted bugs enabled (none: the correct engine)."""
    unknown = [b for b in bugs if b not in BUGS]
    if unknown:
        raise ValueError(f"unknown bug(s) {unknown}; known: {sorted(BUGS)}")
    return BlackMariaEngine(bugs)


bugs = Factories(engine, BUGS, lambda name: (name,))
house = Factories(engine, HOUSE, lambda name: HOUSE[name].bugs)


def declaring_engine(name: str) -> BlackMariaEngine:
    """The engine of a ``DECLARING`` entry: its bugs, and its house rules declared in ``hello``."""
    entry = DECLARING[name]
    return BlackMariaEngine(entry.bugs, entry.declares)


declaring = Factories(declaring_engine, DECLARING, lambda name: (name,))
