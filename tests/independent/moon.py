"""Three-Player Moon, an independent engine: a second reading of rules.md §3 and protocol.md §4 "moon".

Written from docs/rules/moon.md, docs/protocol.md, shared/protocol.md and the schema alone, never
from the kit's reference engine or properties.  Its own choices where the contract leaves one open:

- ``leader`` is null while a trick is empty (also between tricks in phase ``play``) and outside
  ``play``; it names the seat that led once the trick's first tile is down.
- ``dealer`` and ``first_bidder`` move on when the next hand is *dealt*, not when a hand ends, so
  in phase ``deal`` between hands they still show the hand just finished.
- ``bids``, ``declarer`` and ``contract`` stay as the hand left them until the next deal.
- Empty zones are left out of ``zones`` (``won/N`` appears with a seat's first trick).
- Hands keep the order of the deal, the widow joining the declarer's hand at the end.
- ``legal_moves`` lists bids from the highest down with the pass last, and trump choices
  ``none``, ``doubles``, then 6 down to 0.

``BUGS`` and ``HOUSE`` plant deviations (tests/independent/__init__.py); ``engine()`` with no
names is the correct engine.
"""

from __future__ import annotations

from typing import Any

from ruleproof.model.engine import BadRequest, IllegalMove, JSONObject, Move, State, Unsupported
from tests.independent import Bug, Factories, HouseRules

GAME = "moon"
SEATS = 3
HAND_SIZE = 7
TRICKS = 7
TILES: tuple[str, ...] = ("0-0", *(f"{a}-{b}" for a in range(1, 7) for b in range(1, a + 1)))
BID_VALUES: tuple[int, ...] = (4, 5, 6, 7, 21)
SHOOT = 21
OTHER_GAMES = ("black-maria", "idiot", "fool")
OPTION_VALUES: dict[str, list[Any]] = {
    "all_pass": ["redeal", "forced_bid"],
    "doubles_trump": [True, False],
    "shoot": ["wins_game", "scores_21"],
}
TARGET_RANGE = (1, 21)
DEFAULTS: JSONObject = {"all_pass": "redeal", "doubles_trump": True, "shoot": "wins_game", "target": 21}
PHASE_CLAUSE = {
    "deal": "MOON-DEAL-1",
    "bid": "MOON-BID-2",
    "discard": "MOON-WIDOW-1",
    "trump": "MOON-TRUMP-1",
    "play": "MOON-WIN-2",
    "over": "MOON-END-1",
}
PHASE_MOVES = {
    "deal": ("deal",),
    "bid": ("bid", "pass"),
    "discard": ("discard",),
    "trump": ("trump",),
    "play": ("play",),
}
COUNT_TILES = {"5-5": 10, "6-4": 10, "4-1": 5, "3-2": 5}  # Texas 42's counting tiles ([5-0] is not in this set)

Contract = int | str  # 0..6, "doubles" or "none"
Led = int | str  # a number suit, "trump", or (a planted bug) "doubles"

BUGS: dict[str, Bug] = {
    b.name: b
    for b in (
        Bug("deal_duplicate_tile", "MOON-SETUP-2", "a deal naming a tile twice (and leaving one out) is accepted"),
        Bug("void_keeps_first_bidder", "MOON-BID-1", "after an all-pass void hand the first bidder and dealer stay"),
        Bug("bid_counterclockwise", "MOON-BID-2", "bidding runs to the right (counterclockwise) of the first bidder"),
        Bug("bid_not_higher", "MOON-BID-3", "a bid equal to the last is accepted; the later bidder takes it"),
        Bug("bid_21_not_closing", "MOON-BID-4", "a 21 does not end the bidding: the seats after it still act"),
        Bug("declarer_last_to_act", "MOON-BID-5", "the seat that acted last in the bidding becomes declarer"),
        Bug("all_pass_stuck_bid", "MOON-BID-6", "under redeal the third bidder may not pass after two passes"),
        Bug("widow_not_discardable", "MOON-WIDOW-1", "the widow tile itself may not be discarded"),
        Bug("no_doubles_contract", "MOON-TRUMP-1", "doubles is never offered as trump, even with doubles_trump"),
        Bug("trump_keeps_other_suit", "MOON-TRUMP-2", "a number-trump tile still follows its other end's suit"),
        Bug("trump_by_pips", "MOON-RANK-2", "number trumps rank by pip total ([6-4] over [4-4])"),
        Bug("doubles_own_suit", "MOON-LEAD-3", "a led non-trump double calls the doubles suit, not its number"),
        Bug("follow_high_end_only", "MOON-FOLLOW-2", "a non-trump tile follows only its higher end's suit"),
        Bug("first_trump_wins", "MOON-WIN-1", "the first trump played wins the trick, not the highest"),
        Bug("leader_stale", "MOON-WIN-2", "leader shows the previous trick's leader while the trick has tiles"),
        Bug("overtricks_scored", "MOON-SCORE-1", "a made bid scores the tricks taken, overtricks included"),
        Bug("shoot_scores_21", "MOON-SCORE-2", "a made 21 under wins_game scores +21 instead of winning the game"),
        Bug("count_tiles_scored", "MOON-SCORE-3", "opponents also score 1 per 5 count points (42 counting tiles) won"),
        Bug("tie_all_win", "MOON-END-2", "a tie for the highest total at the target ends the game, all tied win"),
        Bug("play_not_held", "MOON-INV-1", "a play naming a tile not held is accepted (follow checked, not holding)"),
    )
}

HOUSE: dict[str, HouseRules] = {
    h.name: h
    for h in (
        HouseRules(
            "texas42_port",
            ("doubles_own_suit", "count_tiles_scored", "bid_not_higher", "all_pass_stuck_bid"),
            "a Texas 42 engine adapted to Moon: doubles led as their own suit, counting tiles scored, "
            "a later bidder may steal at an equal bid, and the dealer is stuck when all pass",
        ),
        HouseRules(
            "pagat_moon",
            ("no_doubles_contract", "shoot_scores_21", "void_keeps_first_bidder"),
            "an engine from pagat's Moon page: no doubles contract, shooting the moon scores 21, "
            "and a void hand is redealt with the same first bidder",
        ),
        HouseRules(
            "quick_domino_app",
            ("follow_high_end_only", "overtricks_scored", "tie_all_win", "leader_stale"),
            "a casual app: tiles follow by their higher end only, made bids score every trick, "
            "a tie at the target shares the win, and the trick leader display lags a trick",
        ),
    )
}


# --- tiles -----------------------------------------------------------------------------------------


def ends(tile: str) -> tuple[int, int]:
    """The two ends of a tile string, high end first."""
    hi, lo = tile.split("-")
    return int(hi), int(lo)


def is_double(tile: str) -> bool:
    hi, lo = ends(tile)
    return hi == lo


def is_tile(value: str) -> bool:
    return value in TILES


# --- the engine ------------------------------------------------------------------------------------


class MoonEngine:
    """Three-Player Moon behind the contract's six methods; ``bugs`` names planted deviations."""

    def __init__(self, bugs: frozenset[str] = frozenset()) -> None:
        self.bugs = bugs
        self.started = False

    # protocol methods

    def hello(self) -> JSONObject:
        options: JSONObject = {name: list(values) for name, values in OPTION_VALUES.items()}
        options["target"] = {"min": TARGET_RANGE[0], "max": TARGET_RANGE[1]}
        return {
            "protocol": 1,
            "engine": {"name": "independent-moon", "version": "1.0"},
            "games": {GAME: {"players": [SEATS], "options": options}},
        }

    def new_game(self, game: str, players: int, dealer: int, options: JSONObject) -> State:
        self._check_setup(game, players, dealer)
        self.options = self._read_options(options)
        self.dealer = dealer
        self.first_bidder = (dealer + 1) % SEATS
        self.phase = "deal"
        self.to_act: int | None = None
        self.round = 0
        self.scores = [0] * SEATS
        self.result: list[int] | None = None
        self.deck: list[str] = list(TILES)
        self.hands: list[list[str]] = [[] for _ in range(SEATS)]
        self.widow: list[str] = []
        self.discarded: list[str] = []
        self.trick: list[str] = []
        self.trick_seats: list[int] = []
        self.won: list[list[str]] = [[] for _ in range(SEATS)]
        self._reset_hand()
        self.void_hand = False
        self.started = True
        return self.state()

    def legal_moves(self) -> list[Move]:
        self._require_game()
        if self.phase == "bid":
            return self._bid_moves()
        if self.phase == "discard":
            return [{"type": "discard", "tile": t} for t in self._discardable()]
        if self.phase == "trump":
            return [{"type": "trump", "suit": c} for c in self._trump_choices()]
        if self.phase == "play":
            return [{"type": "play", "tile": t} for t in self._playable(self.hands[self._seat()])]
        return []

    def apply(self, move: Move) -> State:
        self._require_game()
        kind = self._check_shape(move)
        if self.phase == "over":
            raise IllegalMove("MOON-END-1", "the game is over")
        if kind not in PHASE_MOVES[self.phase]:
            raise IllegalMove(PHASE_CLAUSE[self.phase], f"a {kind!r} move in phase {self.phase}")
        handler = {
            "deal": self._deal,
            "bid": self._bid,
            "pass": self._pass,
            "discard": self._discard,
            "trump": self._trump,
            "play": self._play,
        }[kind]
        handler(move)
        return self.state()

    def state(self) -> State:
        self._require_game()
        return {
            "game": GAME,
            "players": SEATS,
            "options": dict(self.options),
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": self.to_act,
            "round": self.round,
            "zones": self._zones(),
            "scores": list(self.scores),
            "result": None if self.result is None else {"winners": list(self.result)},
            "first_bidder": self.first_bidder,
            "bids": list(self.bids),
            "declarer": self.declarer,
            "contract": self.contract,
            "trick_seats": list(self.trick_seats),
            "leader": self._shown_leader(),
        }

    def close(self) -> None:
        self.started = False

    # setup

    def _check_setup(self, game: Any, players: Any, dealer: Any) -> None:
        if not isinstance(game, str):
            raise BadRequest(f"game: {game!r} is not a string")
        if game in OTHER_GAMES:
            raise Unsupported(f"game: {game} is not implemented by this engine")
        if game != GAME:
            raise BadRequest(f"game: {game!r} is not a game of the contract")
        if type(players) is not int or players != SEATS:
            raise BadRequest(f"players: Moon is for exactly 3 players, not {players!r}")
        if type(dealer) is not int or not 0 <= dealer < SEATS:
            raise BadRequest(f"dealer: {dealer!r} is not a seat 0..2")

    def _read_options(self, options: Any) -> JSONObject:
        if not isinstance(options, dict):
            raise BadRequest("options: not an object")
        unknown = sorted(set(options) - set(DEFAULTS))
        if unknown:
            raise BadRequest(f"options.{unknown[0]}: not an option of moon")
        chosen = {**DEFAULTS, **options}
        for name, values in OPTION_VALUES.items():
            value = chosen[name]
            if not any(type(value) is type(v) and value == v for v in values):
                raise BadRequest(f"options.{name}: {value!r} is not one of {values}")
        target = chosen["target"]
        if type(target) is not int or not TARGET_RANGE[0] <= target <= TARGET_RANGE[1]:
            raise BadRequest(f"options.target: {target!r} is not an integer in 1..21")
        return chosen

    def _reset_hand(self) -> None:
        self.bids: list[int | str | None] = [None] * SEATS
        self.bid_log: list[tuple[int, int | str]] = []
        self.declarer: int | None = None
        self.bid_value: int | None = None
        self.contract: Contract | None = None
        self.widow_tile: str | None = None
        self.trick_leader: int | None = None
        self.previous_leader: int | None = None
        self.tricks_done = 0

    def _require_game(self) -> None:
        if not self.started:
            raise BadRequest("no game: call new_game first")

    def _seat(self) -> int:
        assert self.to_act is not None
        return self.to_act

    # move shapes (bad requests before any rule)

    def _check_shape(self, move: Any) -> str:
        if not isinstance(move, dict):
            raise BadRequest("move: not an object")
        kind = move.get("type")
        if not isinstance(kind, str):
            raise BadRequest("move.type: missing or not a string")
        if kind == "deal":
            hands, widow = move.get("hands"), move.get("widow")
            if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
                raise BadRequest("move.hands: not a list of lists")
            if not all(isinstance(t, str) for h in hands for t in h) or not isinstance(widow, str):
                raise BadRequest("move.hands/widow: tiles must be strings")
        elif kind == "bid":
            if type(move.get("value")) is not int:
                raise BadRequest("move.value: missing or not an integer")
        elif kind in ("discard", "play"):
            if not isinstance(move.get("tile"), str):
                raise BadRequest("move.tile: missing or not a string")
        elif kind == "trump":
            suit = move.get("suit")
            if type(suit) is not int and not isinstance(suit, str):
                raise BadRequest("move.suit: missing or not an integer or string")
        return kind

    # deal

    def _deal(self, move: Move) -> None:
        hands: list[list[str]] = move["hands"]
        widow: str = move["widow"]
        if len(hands) != SEATS or any(len(h) != HAND_SIZE for h in hands):
            raise IllegalMove("MOON-DEAL-1", "a deal is 3 hands of 7 tiles and one widow")
        named = [t for h in hands for t in h] + [widow]
        for tile in named:
            if not is_tile(tile):
                raise IllegalMove("MOON-SETUP-2", f"{tile!r} is not a tile of the set")
        if len(set(named)) != len(named) and "deal_duplicate_tile" not in self.bugs:
            raise IllegalMove("MOON-SETUP-2", "the deal names a tile twice")
        if self.round > 0 and not (self.void_hand and "void_keeps_first_bidder" in self.bugs):
            self.dealer = (self.dealer + 1) % SEATS
            self.first_bidder = (self.first_bidder + 1) % SEATS
        self.round += 1
        self.deck = []
        self.hands = [list(h) for h in hands]
        self.widow = [widow]
        self.discarded = []
        self.trick, self.trick_seats = [], []
        self.won = [[] for _ in range(SEATS)]
        self._reset_hand()
        self.void_hand = False
        self.phase = "bid"
        self.to_act = self.first_bidder

    # bidding

    def _highest_bid(self) -> int:
        return max((v for _, v in self.bid_log if isinstance(v, int)), default=0)

    def _bid_allowed(self, value: int) -> bool:
        top = self._highest_bid()
        if "bid_not_higher" in self.bugs:
            return value in BID_VALUES and value >= top
        return value in BID_VALUES and value > top

    def _may_pass(self) -> bool:
        forced = self.options["all_pass"] == "forced_bid" or "all_pass_stuck_bid" in self.bugs
        return not (forced and len(self.bid_log) == SEATS - 1 and all(v == "pass" for _, v in self.bid_log))

    def _bid_moves(self) -> list[Move]:
        moves: list[Move] = [{"type": "bid", "value": v} for v in reversed(BID_VALUES) if self._bid_allowed(v)]
        if self._may_pass():
            moves.append({"type": "pass"})
        return moves

    def _bid(self, move: Move) -> None:
        value: int = move["value"]
        if not self._bid_allowed(value):
            raise IllegalMove("MOON-BID-3", f"a bid of {value} is not 4..7 or 21 above {self._highest_bid()}")
        self._record_action(value)

    def _pass(self, move: Move) -> None:
        if not self._may_pass():
            raise IllegalMove("MOON-BID-6", "the third bidder may not pass after two passes")
        self._record_action("pass")

    def _record_action(self, action: int | str) -> None:
        seat = self._seat()
        self.bids[seat] = action
        self.bid_log.append((seat, action))
        closes = action == SHOOT and "bid_21_not_closing" not in self.bugs
        if closes or len(self.bid_log) == SEATS:
            self._end_bidding()
            return
        step = -1 if "bid_counterclockwise" in self.bugs else 1
        self.to_act = (seat + step) % SEATS

    def _end_bidding(self) -> None:
        bidders = [(seat, v) for seat, v in self.bid_log if isinstance(v, int)]
        if not bidders:
            self._void_hand()
            return
        best_seat, best = bidders[0]
        for seat, value in bidders[1:]:
            if value >= best:
                best_seat, best = seat, value
        if "declarer_last_to_act" in self.bugs:
            best_seat = self.bid_log[-1][0]
        self.declarer, self.bid_value = best_seat, best
        self.widow_tile = self.widow[0]
        self.hands[best_seat].append(self.widow_tile)
        self.widow = []
        self.phase, self.to_act = "discard", best_seat

    def _void_hand(self) -> None:
        self.void_hand = True
        self.phase, self.to_act = "deal", None

    # widow and contract

    def _discardable(self) -> list[str]:
        hand = self.hands[self._seat()]
        if "widow_not_discardable" in self.bugs:
            return [t for t in hand if t != self.widow_tile]
        return list(hand)

    def _discard(self, move: Move) -> None:
        tile: str = move["tile"]
        if not is_tile(tile):
            raise IllegalMove("MOON-SETUP-2", f"{tile!r} is not a tile of the set")
        if tile not in self._discardable():
            raise IllegalMove("MOON-WIDOW-1", f"{tile} may not be discarded from this hand")
        self.hands[self._seat()].remove(tile)
        self.discarded = [tile]
        self.phase = "trump"

    def _trump_choices(self) -> list[Contract]:
        choices: list[Contract] = ["none"]
        if self.options["doubles_trump"] and "no_doubles_contract" not in self.bugs:
            choices.append("doubles")
        choices.extend(range(6, -1, -1))
        return choices

    def _trump(self, move: Move) -> None:
        suit: Contract = move["suit"]
        if not any(type(suit) is type(c) and suit == c for c in self._trump_choices()):
            raise IllegalMove("MOON-TRUMP-1", f"{suit!r} is not a trump choice here")
        self.contract = suit
        self.phase = "play"
        self.to_act = self.declarer

    # trumps, suits and ranks

    def _is_trump(self, tile: str) -> bool:
        hi, lo = ends(tile)
        if self.contract == "doubles":
            return hi == lo
        if isinstance(self.contract, int):
            return self.contract in (hi, lo)
        return False

    def _led(self) -> Led:
        first = self.trick[0]
        if self._is_trump(first):
            return "trump"
        if "doubles_own_suit" in self.bugs and is_double(first):
            return "doubles"
        return ends(first)[0]

    def _follows(self, tile: str, led: Led) -> bool:
        trump = self._is_trump(tile)
        if led == "trump":
            return trump
        if led == "doubles":
            return is_double(tile) and not trump
        hi, lo = ends(tile)
        if trump and not ("trump_keeps_other_suit" in self.bugs and isinstance(self.contract, int)):
            return False
        if "follow_high_end_only" in self.bugs:
            return hi == led
        return led in (hi, lo)

    def _trump_rank(self, tile: str) -> int:
        hi, lo = ends(tile)
        if self.contract == "doubles":
            return hi
        if "trump_by_pips" in self.bugs:
            return hi + lo
        if hi == lo:
            return 99
        return lo if hi == self.contract else hi

    @staticmethod
    def _suit_rank(tile: str, led: Led) -> int:
        hi, lo = ends(tile)
        if hi == lo:
            return 99 if led != "doubles" else hi
        return lo if hi == led else hi

    def _playable(self, hand: list[str]) -> list[str]:
        if not self.trick:
            return list(hand)
        led = self._led()
        following = [t for t in hand if self._follows(t, led)]
        return following or list(hand)

    def _trick_winner(self) -> int:
        trumps = [i for i, t in enumerate(self.trick) if self._is_trump(t)]
        if trumps:
            if "first_trump_wins" in self.bugs:
                best = trumps[0]
            else:
                best = max(trumps, key=lambda i: self._trump_rank(self.trick[i]))
        else:
            led = self._led()
            following = [i for i, t in enumerate(self.trick) if i == 0 or self._follows(t, led)]
            best = max(following, key=lambda i: self._suit_rank(self.trick[i], led))
        return self.trick_seats[best]

    # play

    def _play(self, move: Move) -> None:
        tile: str = move["tile"]
        seat = self._seat()
        hand = self.hands[seat]
        if not is_tile(tile):
            raise IllegalMove("MOON-SETUP-2", f"{tile!r} is not a tile of the set")
        if tile not in hand and "play_not_held" not in self.bugs:
            raise IllegalMove("MOON-INV-1", f"seat {seat} does not hold {tile}")
        if tile not in self._playable([*hand, tile] if tile not in hand else hand):
            clause = "MOON-FOLLOW-1" if self._led() == "trump" else "MOON-FOLLOW-2"
            raise IllegalMove(clause, f"{tile} revokes: the led suit must be followed")
        if tile in hand:
            hand.remove(tile)
        if not self.trick:
            self.trick_leader = seat
        self.trick.append(tile)
        self.trick_seats.append(seat)
        if len(self.trick) < SEATS:
            self.to_act = (seat + 1) % SEATS
            return
        self._collect_trick()

    def _collect_trick(self) -> None:
        winner = self._trick_winner()
        self.won[winner].extend(self.trick)
        self.previous_leader = self.trick_leader
        self.trick, self.trick_seats, self.trick_leader = [], [], None
        self.tricks_done += 1
        self.to_act = winner
        if self.tricks_done == TRICKS:
            self._score_hand()

    def _shown_leader(self) -> int | None:
        if self.phase != "play" or not self.trick:
            return None
        if "leader_stale" in self.bugs and self.previous_leader is not None:
            return self.previous_leader
        return self.trick_leader

    # scoring and end

    def _score_hand(self) -> None:
        declarer, bid = self.declarer, self.bid_value
        assert declarer is not None and bid is not None
        taken = [len(w) // SEATS for w in self.won]
        self.to_act = None
        if bid == SHOOT:
            made = taken[declarer] == TRICKS
            if made and self.options["shoot"] == "wins_game" and "shoot_scores_21" not in self.bugs:
                self._finish([declarer])
                return
            delta = SHOOT if made else -SHOOT
        else:
            made = taken[declarer] >= bid
            delta = (taken[declarer] if "overtricks_scored" in self.bugs else bid) if made else -bid
        self.scores[declarer] += delta
        for seat in range(SEATS):
            if seat != declarer:
                self.scores[seat] += taken[seat] + self._count_bonus(seat)
        self._check_end()

    def _count_bonus(self, seat: int) -> int:
        if "count_tiles_scored" not in self.bugs:
            return 0
        return sum(COUNT_TILES.get(t, 0) for t in self.won[seat]) // 5

    def _check_end(self) -> None:
        top = max(self.scores)
        leaders = [seat for seat, score in enumerate(self.scores) if score == top]
        if top >= self.options["target"] and (len(leaders) == 1 or "tie_all_win" in self.bugs):
            self._finish(leaders)
        else:
            self.phase = "deal"

    def _finish(self, winners: list[int]) -> None:
        self.phase, self.to_act, self.result = "over", None, winners

    # the snapshot

    def _zones(self) -> dict[str, list[str]]:
        zones: dict[str, list[str]] = {"deck": list(self.deck)}
        for seat in range(SEATS):
            zones[f"hand/{seat}"] = list(self.hands[seat])
        zones["widow"] = list(self.widow)
        zones["discarded"] = list(self.discarded)
        zones["trick"] = list(self.trick)
        for seat in range(SEATS):
            zones[f"won/{seat}"] = list(self.won[seat])
        return {name: tiles for name, tiles in zones.items() if tiles}


def engine(*bugs: str) -> MoonEngine:
    """The engine with the named planted bugs enabled; ``engine()`` is the correct one."""
    unknown = [name for name in bugs if name not in BUGS]
    if unknown:
        raise ValueError(f"unknown moon bug(s): {', '.join(unknown)}")
    return MoonEngine(frozenset(bugs))


bugs = Factories(engine, BUGS, lambda name: (name,))
house = Factories(engine, HOUSE, lambda name: HOUSE[name].bugs)
