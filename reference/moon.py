"""Three-Player Moon: the reference rules (rules.md §3, protocol.md §4 "moon").

Three players, a double-six set without the blank suit except [0-0] (22 tiles),
7 tiles each and one face-down widow (MOON-SETUP-1..2, MOON-DEAL-1).  One round
of bidding for the number of tricks, 4..7 or 21 (MOON-BID-1..6); the declarer
takes the widow and discards one tile (MOON-WIDOW-1), names trumps: a number
0..6, doubles or none (MOON-TRUMP-1..4), leads the first of seven tricks
(MOON-LEAD-1..3, MOON-FOLLOW-1..3, MOON-RANK-1..3, MOON-WIN-1..2).  Made bids
score the bid, failed ones lose it, opponents score their tricks; a made 21
wins (or scores 21) (MOON-SCORE-1..3).  The game ends when a unique highest
total reaches the target (MOON-END-1..2).

Every rule is a small overridable method citing its clause, so that a mutant
(tests/mutants/moon.py) is one override.  States are frozen; ``apply`` builds
new states and never mutates, so a rejected move leaves the caller's state as
it was.
"""

from __future__ import annotations

from typing import Any, Final, Literal, TypeAlias

from attrs import evolve, frozen

from ruleproof.model.engine import BadRequest, IllegalMove, JSONObject, Move, State
from ruleproof.model.notation import MOON_TILES, tile_ends
from ruleproof.reference.base import Rules, move_type, require, require_list, wrong_phase

Tile: TypeAlias = str
Seat: TypeAlias = int
Contract: TypeAlias = int | str  # a number suit 0..6, "doubles" or "none"
BidAction: TypeAlias = int | str | None  # None: not acted yet; "pass"; a bid value
LedSuit: TypeAlias = int | str  # a number suit 0..6, or TRUMP
Phase: TypeAlias = Literal["deal", "bid", "discard", "trump", "play", "over"]

SEATS: Final = 3
HAND_SIZE: Final = 7
TRICKS_PER_HAND: Final = 7
TRUMP: Final = "trump"
DOUBLES: Final = "doubles"
NO_TRUMP: Final = "none"
PASS: Final = "pass"
SHOOT: Final = 21
BID_VALUES: Final = (4, 5, 6, 7, SHOOT)
TILE_SET: Final = frozenset(MOON_TILES)
# Parsing "H-L" once: tile ends are looked up on every follow and trick check.
ENDS: Final[dict[Tile, tuple[int, int]]] = {t: tile_ends(t) for t in MOON_TILES}

# The clause a move of the wrong kind breaks, by phase: the rule saying what happens now.
PHASE_CLAUSE: Final[dict[str, str]] = {
    "deal": "MOON-DEAL-1",
    "bid": "MOON-BID-2",
    "discard": "MOON-WIDOW-1",
    "trump": "MOON-TRUMP-1",
    "play": "MOON-WIN-2",
    "over": "MOON-END-1",
}
PHASE_MOVES: Final[dict[str, frozenset[str]]] = {
    "deal": frozenset({"deal"}),
    "bid": frozenset({"bid", "pass"}),
    "discard": frozenset({"discard"}),
    "trump": frozenset({"trump"}),
    "play": frozenset({"play"}),
    "over": frozenset(),
}
MOVE_TYPES: Final = frozenset({"deal", "bid", "pass", "discard", "trump", "play"})


@frozen
class MoonState:
    """One moment of a game; every tile is in exactly one zone (MOON-INV-1)."""

    all_pass: str
    doubles_trump: bool
    shoot: str
    target: int
    dealer: Seat
    first_bidder: Seat
    phase: Phase = "deal"
    to_act: Seat | None = None
    round: int = 0
    deck: tuple[Tile, ...] = MOON_TILES
    hands: tuple[tuple[Tile, ...], ...] = ((), (), ())
    widow: tuple[Tile, ...] = ()
    discarded: tuple[Tile, ...] = ()
    trick: tuple[Tile, ...] = ()
    trick_seats: tuple[Seat, ...] = ()
    leader: Seat | None = None
    won: tuple[tuple[Tile, ...], ...] = ((), (), ())
    scores: tuple[int, ...] = (0, 0, 0)
    bids: tuple[BidAction, ...] = (None, None, None)
    declarer: Seat | None = None
    contract: Contract | None = None
    winners: tuple[Seat, ...] | None = None

    def options(self) -> JSONObject:
        return {
            "all_pass": self.all_pass,
            "doubles_trump": self.doubles_trump,
            "shoot": self.shoot,
            "target": self.target,
        }


def _with(items: tuple[Any, ...], index: int | None, value: object) -> tuple[Any, ...]:
    """A copy of ``items`` with one position replaced (``index``: the seat to act, never None here)."""
    assert index is not None
    return (*items[:index], value, *items[index + 1 :])


def _without(hand: tuple[Tile, ...], t: Tile) -> tuple[Tile, ...]:
    i = hand.index(t)
    return hand[:i] + hand[i + 1 :]


def _suit_name(led: LedSuit) -> str:
    return "trump" if led == TRUMP else f"{led} suit"


class Moon(Rules[MoonState]):
    """The reference rules of Three-Player Moon."""

    game = "moon"

    # ------------------------------------------------------------------ contract

    def declaration(self) -> JSONObject:
        return {
            "players": [SEATS],
            "options": {
                "all_pass": ["redeal", "forced_bid"],
                "doubles_trump": [True, False],
                "shoot": ["wins_game", "scores_21"],
                "target": {"min": 1, "max": 21},
            },
        }

    def defaults(self, players: int) -> JSONObject:
        return {"all_pass": "redeal", "doubles_trump": True, "shoot": "wins_game", "target": 21}

    def check_options(self, players: int, options: JSONObject) -> None:
        # check_setup compares with ``in``, where 1 == True: insist on a JSON boolean.
        if not isinstance(options["doubles_trump"], bool):
            raise BadRequest(f"options.doubles_trump: {options['doubles_trump']!r} is not a boolean")

    def start(self, players: int, dealer: int, options: JSONObject) -> MoonState:
        return MoonState(
            all_pass=options["all_pass"],
            doubles_trump=options["doubles_trump"],
            shoot=options["shoot"],
            target=options["target"],
            dealer=dealer,
            first_bidder=self.first_bidder_of_game(dealer),
        )

    def to_json(self, state: MoonState) -> State:
        zones: dict[str, list[Tile]] = {}
        if state.deck:
            zones["deck"] = list(state.deck)
        for seat in range(SEATS):
            zones[f"hand/{seat}"] = list(state.hands[seat])
        zones["widow"] = list(state.widow)
        zones["discarded"] = list(state.discarded)
        zones["trick"] = list(state.trick)
        for seat in range(SEATS):
            zones[f"won/{seat}"] = list(state.won[seat])
        return {
            **self.common_state(
                state,
                players=SEATS,
                options=state.options(),
                zones=zones,
                scores=list(state.scores),
                result=None if state.winners is None else {"winners": list(state.winners)},
            ),
            "first_bidder": state.first_bidder,
            "bids": list(state.bids),
            "declarer": state.declarer,
            "contract": state.contract,
            "trick_seats": list(state.trick_seats),
            "leader": state.leader,
        }

    def legal_moves(self, state: MoonState) -> list[Move]:
        seat = state.to_act
        if seat is None:
            return []
        if state.phase == "bid":
            moves: list[Move] = [
                {"type": "bid", "value": v} for v in self.bid_values() if self.bid_allowed(v, state.bids)
            ]
            if self.may_pass(state):
                moves.append({"type": "pass"})
            return moves
        if state.phase == "discard":
            return [{"type": "discard", "tile": t} for t in self.discardable(state)]
        if state.phase == "trump":
            return [{"type": "trump", "suit": c} for c in self.trump_choices(state)]
        if state.phase == "play":
            return [{"type": "play", "tile": t} for t in self.playable(state.hands[seat], state.trick, state.contract)]
        return []

    def apply(self, state: MoonState, move: Move) -> MoonState:
        # Malformed fields are bad requests before any rule is looked at (protocol.md §2).
        kind = move_type(move)
        if kind == "deal":
            hands = self._hands(move)
            widow: str = require(move, "widow", str)
            self._expect(state, kind)
            return self.deal(state, hands, widow)
        if kind == "bid":
            value: int = require(move, "value", int)
            self._expect(state, kind)
            return self.bid(state, value)
        if kind == "pass":
            self._expect(state, kind)
            return self.pass_(state)
        if kind == "discard":
            discarded: str = require(move, "tile", str)
            self._expect(state, kind)
            return self.discard(state, self._tile(discarded, "tile"))
        if kind == "trump":
            suit: Contract = require(move, "suit", (int, str))
            self._expect(state, kind)
            return self.name_trump(state, suit)
        if kind == "play":
            played: str = require(move, "tile", str)
            self._expect(state, kind)
            return self.play(state, self._tile(played, "tile"))
        self._expect(state, kind)
        raise AssertionError("unreachable: _expect rejects unknown move types")

    @staticmethod
    def _expect(state: MoonState, kind: str) -> None:
        """Unknown, wrong-phase and after-the-end moves are illegal (protocol.md §2)."""
        if state.phase == "over":
            raise IllegalMove("MOON-END-1", f"the game is over (winners {list(state.winners or ())}); no {kind!r} move")
        if kind not in MOVE_TYPES:
            raise IllegalMove(PHASE_CLAUSE[state.phase], f"unknown move type {kind!r} (phase {state.phase!r})")
        if kind not in PHASE_MOVES[state.phase]:
            raise wrong_phase(PHASE_CLAUSE[state.phase], kind, state.phase)

    @staticmethod
    def _hands(move: Move) -> list[list[str]]:
        hands: list[list[str]] = require_list(move, "hands", list)
        for i, hand in enumerate(hands):
            for j, t in enumerate(hand):
                if not isinstance(t, str):
                    raise BadRequest(f"move.hands[{i}][{j}]: {t!r} has the wrong JSON type")
        return hands

    @staticmethod
    def _tile(t: str, field: str) -> Tile:
        if t not in TILE_SET:
            raise IllegalMove("MOON-SETUP-2", f"move.{field}: {t!r} names no tile of the 22-tile Moon set")
        return t

    # ------------------------------------------------------------------ deal

    def check_deal(self, hands: list[list[str]], widow: str) -> None:
        """MOON-SETUP-2, MOON-DEAL-1: the 22 tiles, 7 to each of 3 hands, one widow."""
        for i, hand in enumerate(hands):
            for j, t in enumerate(hand):
                if t not in TILE_SET:
                    raise IllegalMove("MOON-SETUP-2", f"deal hands[{i}][{j}]: {t!r} names no tile of the Moon set")
        if widow not in TILE_SET:
            raise IllegalMove("MOON-SETUP-2", f"deal widow: {widow!r} names no tile of the Moon set")
        if len(hands) != SEATS:
            raise IllegalMove("MOON-DEAL-1", f"the deal has {len(hands)} hands; Moon deals exactly 3")
        for i, hand in enumerate(hands):
            if len(hand) != HAND_SIZE:
                raise IllegalMove("MOON-DEAL-1", f"deal hands[{i}] has {len(hand)} tiles; each hand gets 7")
        dealt = [t for hand in hands for t in hand] + [widow]
        seen: set[Tile] = set()
        for t in dealt:
            if t in seen:
                missing = sorted(TILE_SET - set(dealt))
                raise IllegalMove("MOON-SETUP-2", f"the deal names tile {t} twice (missing: {', '.join(missing)})")
            seen.add(t)

    def deal(self, state: MoonState, hands: list[list[str]], widow: str) -> MoonState:
        """MOON-DEAL-1: a new hand starts; bids, declarer and contract are reset."""
        self.check_deal(hands, widow)
        return evolve(
            state,
            phase="bid",
            to_act=state.first_bidder,
            round=state.round + 1,
            deck=(),
            hands=tuple(tuple(h) for h in hands),
            widow=(widow,),
            discarded=(),
            trick=(),
            trick_seats=(),
            leader=None,
            won=((),) * SEATS,
            bids=(None,) * SEATS,
            declarer=None,
            contract=None,
        )

    # ------------------------------------------------------------------ bidding

    def first_bidder_of_game(self, dealer: Seat) -> Seat:
        """MOON-BID-1 (protocol.md §4): the first bidder of the first hand sits left of the dealer."""
        return (dealer + 1) % SEATS

    def next_first_bidder(self, first_bidder: Seat) -> Seat:
        """MOON-BID-1, MOON-AMB-11: the first-bidder seat moves one place clockwise every hand."""
        return (first_bidder + 1) % SEATS

    def next_bidder(self, seat: Seat) -> Seat:
        """MOON-BID-2: bidding runs clockwise."""
        return (seat + 1) % SEATS

    def bid_values(self) -> tuple[int, ...]:
        """MOON-BID-3: the values a bid may name."""
        return BID_VALUES

    def bid_allowed(self, value: int, bids: tuple[BidAction, ...]) -> bool:
        """MOON-BID-3 (MOON-AMB-7): strictly higher than every earlier bid; 21 may be bid at any time."""
        return all(not isinstance(b, int) or value > b for b in bids)

    def may_pass(self, state: MoonState) -> bool:
        """MOON-BID-6, MOON-AMB-2: under ``forced_bid`` the third bidder may not pass after two passes."""
        if state.all_pass != "forced_bid":
            return True
        return sum(b == PASS for b in state.bids) < SEATS - 1

    def bidding_over(self, bids: tuple[BidAction, ...]) -> bool:
        """MOON-BID-2, MOON-BID-4: after every seat has acted, or at once after a 21."""
        return SHOOT in bids or all(b is not None for b in bids)

    def declarer_of(self, bids: tuple[BidAction, ...]) -> Seat | None:
        """MOON-BID-5: the highest bidder; None when all passed (MOON-BID-6)."""
        made = [(b, seat) for seat, b in enumerate(bids) if isinstance(b, int)]
        return max(made)[1] if made else None

    def bid(self, state: MoonState, value: int) -> MoonState:
        if value not in self.bid_values():
            raise IllegalMove("MOON-BID-3", f"bid value {value} is not one of 4, 5, 6, 7, 21")
        if not self.bid_allowed(value, state.bids):
            best = max(b for b in state.bids if isinstance(b, int))
            raise IllegalMove("MOON-BID-3", f"bid value {value} is not higher than the earlier bid {best}")
        return self.after_bidding_action(state, _with(state.bids, state.to_act, value))

    def pass_(self, state: MoonState) -> MoonState:
        if not self.may_pass(state):
            raise IllegalMove(
                "MOON-BID-6", f"seat {state.to_act} may not pass: both others passed and all_pass is forced_bid"
            )
        return self.after_bidding_action(state, _with(state.bids, state.to_act, PASS))

    def after_bidding_action(self, state: MoonState, bids: tuple[BidAction, ...]) -> MoonState:
        assert state.to_act is not None
        if not self.bidding_over(bids):
            return evolve(state, bids=bids, to_act=self.next_bidder(state.to_act))
        declarer = self.declarer_of(bids)
        if declarer is None:
            # MOON-BID-6: a void hand; the tiles wait where they are for the kit's redeal.
            return self.next_hand(evolve(state, bids=bids))
        hand, widow = self.take_widow(state.hands[declarer], state.widow)
        return evolve(
            state,
            bids=bids,
            declarer=declarer,
            hands=_with(state.hands, declarer, hand),
            widow=widow,
            phase="discard",
            to_act=declarer,
        )

    # ------------------------------------------------------------------ widow and contract

    def take_widow(self, hand: tuple[Tile, ...], widow: tuple[Tile, ...]) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
        """MOON-WIDOW-1: the declarer adds the widow to the hand (8 tiles); returns (hand, widow)."""
        return hand + widow, ()

    def discardable(self, state: MoonState) -> tuple[Tile, ...]:
        """MOON-WIDOW-1, MOON-AMB-12: any of the 8 tiles, the widow itself or a trump included."""
        assert state.to_act is not None
        return state.hands[state.to_act]

    def discard(self, state: MoonState, t: Tile) -> MoonState:
        seat = state.to_act
        assert seat is not None
        if t not in self.discardable(state):
            raise IllegalMove(
                "MOON-WIDOW-1", f"tile {t} is not in the declarer's (seat {seat}) hand and cannot be discarded"
            )
        return evolve(
            state,
            hands=_with(state.hands, seat, _without(state.hands[seat], t)),
            discarded=(*state.discarded, t),
            phase="trump",
        )

    def trump_choices(self, state: MoonState) -> tuple[Contract, ...]:
        """MOON-TRUMP-1, MOON-AMB-4: a number 0..6, doubles (when the option allows), or none."""
        numbers: tuple[Contract, ...] = tuple(range(7))
        return numbers + ((DOUBLES,) if state.doubles_trump else ()) + (NO_TRUMP,)

    def first_leader(self, state: MoonState) -> Seat:
        """MOON-LEAD-1: the declarer leads the first trick."""
        assert state.declarer is not None
        return state.declarer

    def name_trump(self, state: MoonState, suit: Contract) -> MoonState:
        if isinstance(suit, bool) or suit not in self.trump_choices(state):
            if suit == DOUBLES:
                raise IllegalMove("MOON-TRUMP-1", "trump 'doubles' is not allowed: doubles_trump is false (MOON-AMB-4)")
            raise IllegalMove("MOON-TRUMP-1", f"trump suit {suit!r} is not a number 0..6, 'doubles' or 'none'")
        leader = self.first_leader(state)
        return evolve(state, contract=suit, phase="play", to_act=leader, leader=leader)

    # ------------------------------------------------------------------ trumps, suits and ranks

    def is_trump(self, t: Tile, contract: Contract | None) -> bool:
        """MOON-TRUMP-2/-3/-4: tiles containing the trump number, the doubles, or nothing."""
        hi, lo = ENDS[t]
        if contract == DOUBLES:
            return hi == lo
        if contract == NO_TRUMP or contract is None:
            return False
        return contract in (hi, lo)

    def suits_of(self, t: Tile, contract: Contract | None) -> tuple[int, ...]:
        """MOON-TRUMP-2/-3, MOON-FOLLOW-2 (MOON-AMB-6): a non-trump tile belongs to both its numbers' suits;
        a trump to none."""
        if self.is_trump(t, contract):
            return ()
        hi, lo = ENDS[t]
        return (hi,) if hi == lo else (hi, lo)

    def led_suit(self, t: Tile, contract: Contract | None) -> LedSuit:
        """MOON-LEAD-2/-3: a trump lead calls trumps; otherwise the higher end (a double's number)."""
        if self.is_trump(t, contract):
            return TRUMP
        return ENDS[t][0]

    def follows(self, t: Tile, led: LedSuit, contract: Contract | None) -> bool:
        """MOON-FOLLOW-1/-2: a trump follows a trump lead; a non-trump tile with either end s follows s."""
        if led == TRUMP:
            return self.is_trump(t, contract)
        return led in self.suits_of(t, contract)

    def playable(self, hand: tuple[Tile, ...], trick: tuple[Tile, ...], contract: Contract | None) -> tuple[Tile, ...]:
        """MOON-LEAD-1 (any lead), MOON-FOLLOW-1..3: follow if able, otherwise anything."""
        if not trick:
            return hand
        led = self.led_suit(trick[0], contract)
        following = tuple(t for t in hand if self.follows(t, led, contract))
        return following or hand

    def suit_rank(self, t: Tile, suit: int) -> int:
        """MOON-RANK-1: in a number suit the double is highest, then by the other end."""
        hi, lo = ENDS[t]
        if hi == lo:
            return 7
        return lo if hi == suit else hi

    def trump_rank(self, t: Tile, contract: Contract) -> int:
        """MOON-RANK-2/-3: [t-t] then [t-x] by x; doubles trump rank by pips (MOON-AMB-5)."""
        hi, lo = ENDS[t]
        if contract == DOUBLES:
            return hi
        if hi == lo:
            return 7
        return lo if hi == contract else hi

    def trick_winner(self, trick: tuple[Tile, ...], seats: tuple[Seat, ...], contract: Contract | None) -> Seat:
        """MOON-WIN-1: the highest trump, else the highest tile of the led suit."""
        assert contract is not None
        trumps = [i for i, t in enumerate(trick) if self.is_trump(t, contract)]
        if trumps:
            best = max(trumps, key=lambda i: self.trump_rank(trick[i], contract))
        else:
            led = self.led_suit(trick[0], contract)
            assert isinstance(led, int)
            in_suit = [i for i, t in enumerate(trick) if led in self.suits_of(t, contract)]
            best = max(in_suit, key=lambda i: self.suit_rank(trick[i], led))
        return seats[best]

    def next_leader(self, winner: Seat, leader: Seat) -> Seat:
        """MOON-WIN-2: the trick winner leads the next trick."""
        return winner

    # ------------------------------------------------------------------ play

    def play(self, state: MoonState, t: Tile) -> MoonState:
        seat = state.to_act
        assert seat is not None and state.leader is not None
        hand = state.hands[seat]
        if t not in hand:
            raise IllegalMove("MOON-INV-1", f"tile {t} is not in seat {seat}'s hand")
        allowed = self.playable(hand, state.trick, state.contract)
        if t not in allowed:
            led = self.led_suit(state.trick[0], state.contract)
            clause = "MOON-FOLLOW-1" if led == TRUMP else "MOON-FOLLOW-2"
            raise IllegalMove(
                clause,
                f"seat {seat} must follow the {_suit_name(led)} led by {state.trick[0]} "
                f"with one of {', '.join(allowed)}, not {t}",
            )
        hands = _with(state.hands, seat, _without(hand, t))
        trick, seats = (*state.trick, t), (*state.trick_seats, seat)
        if len(trick) < SEATS:
            return evolve(state, hands=hands, trick=trick, trick_seats=seats, to_act=(seat + 1) % SEATS)
        winner = self.trick_winner(trick, seats, state.contract)
        leader = self.next_leader(winner, state.leader)
        won = _with(state.won, winner, state.won[winner] + trick)
        after = evolve(state, hands=hands, trick=(), trick_seats=(), won=won, to_act=leader, leader=leader)
        if sum(len(w) for w in won) == TRICKS_PER_HAND * SEATS:
            return self.end_hand(after)
        return after

    # ------------------------------------------------------------------ scoring and end

    def tricks_won(self, state: MoonState) -> tuple[int, ...]:
        return tuple(len(w) // SEATS for w in state.won)

    def bid_made(self, bid: int, tricks: int) -> bool:
        """MOON-SCORE-1/-2: made iff the declarer took at least the bid (all 7 for 21)."""
        return tricks >= (TRICKS_PER_HAND if bid == SHOOT else bid)

    def declarer_delta(self, bid: int, made: bool, tricks: int) -> int:
        """MOON-SCORE-1/-2: +bid if made, -bid if not; no overtricks (21 made scores 21 under scores_21)."""
        return bid if made else -bid

    def opponent_delta(self, tricks: int) -> int:
        """MOON-SCORE-3: each non-declarer scores 1 per trick, made bid or not."""
        return tricks

    def shot_wins_game(self, state: MoonState, bid: int, made: bool) -> bool:
        """MOON-SCORE-2, MOON-AMB-7: a made 21 wins at once under shoot=wins_game."""
        return bid == SHOOT and made and state.shoot == "wins_game"

    def game_winners(self, scores: tuple[int, ...], target: int) -> tuple[Seat, ...]:
        """MOON-END-1/-2: the unique highest total at or over the target wins; a tie plays on."""
        top = max(scores)
        if top >= target and scores.count(top) == 1:
            return (scores.index(top),)
        return ()

    def end_hand(self, state: MoonState) -> MoonState:
        """Scores the hand (MOON-SCORE-1..3) and ends the game or moves to the next deal (MOON-END-1/-2)."""
        declarer = state.declarer
        assert declarer is not None
        bid = state.bids[declarer]
        assert isinstance(bid, int)
        tricks = self.tricks_won(state)
        made = self.bid_made(bid, tricks[declarer])
        if self.shot_wins_game(state, bid, made):
            return self.game_over(state, (declarer,))
        scores = tuple(
            score + (self.declarer_delta(bid, made, n) if seat == declarer else self.opponent_delta(n))
            for seat, (score, n) in enumerate(zip(state.scores, tricks, strict=False))
        )
        scored = evolve(state, scores=scores)
        winners = self.game_winners(scores, state.target)
        return self.game_over(scored, winners) if winners else self.next_hand(scored)

    def game_over(self, state: MoonState, winners: tuple[Seat, ...]) -> MoonState:
        return evolve(state, phase="over", to_act=None, leader=None, winners=winners)

    def next_hand(self, state: MoonState) -> MoonState:
        """MOON-BID-1, MOON-BID-6: back to the deal; dealer and first bidder move one seat left."""
        return evolve(
            state,
            phase="deal",
            to_act=None,
            leader=None,
            dealer=(state.dealer + 1) % SEATS,
            first_bidder=self.next_first_bidder(state.first_bidder),
        )
