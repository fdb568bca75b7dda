"""Idiot (Shithead / Palace), the reference rules (rules.md §2, protocol.md §4 "idiot").

2 to 9 players share ``decks`` standard packs (IDIOT-SETUP-1/2).  Each gets 3
face-down, 3 face-up and 3 hand cards; the rest is the draw pile
(IDIOT-DEAL-1/2).  Seats swap hand and face-up cards in turn from the dealer's
left (IDIOT-SWAP-1), then an opening ladder of ranks 3, 4, ... A, then "any"
finds the first play (IDIOT-OPEN-1..3).  A play is one or more cards of one
rank, of the same or a higher rank than the pile (IDIOT-PLAY-*, IDIOT-MULTI-1);
2s go on anything and may be followed up (IDIOT-TWO-*), 10s and runs of four
(three 6s) burn the pile (IDIOT-BURN-*); a player may always pick the pile up
instead (IDIOT-PICKUP-*).  Hands are drawn back up to three (IDIOT-DRAW-*),
then face-up and finally blind face-down cards are played (IDIOT-TABLE-*,
IDIOT-BLIND-*).  The last player holding cards is the Idiot (IDIOT-OUT-1,
IDIOT-END-1).  The invariants IDIOT-INV-1..10 hold by construction.

Which moves exist when (legal_moves lists each distinct one once):

- ``deal``: none offered (the kit deals); ``swap`` phase: ``swap`` for every
  distinct (hand card, face-up card) pair, identical cards included (a legal
  no-op, rules.md §2.3b), and ``ready``.
- ``opening``: ``play`` of every non-empty sub-multiset of the hand cards of
  the ladder rank (of any one rank once the ladder is ``"any"``); ``decline``
  unless the ladder is ``"any"`` (IDIOT-OPEN-3).
- ``play`` with nothing pending: ``play`` of every non-empty sub-multiset of
  one playable rank from the current zone (hand; face-up once hand and draw
  pile are empty; all last hand cards plus face-up cards of that rank once the
  draw pile is empty), ``play_blind`` with each index once only face-down
  cards remain, and ``pickup`` only with a non-empty pile.
- ``pending == "two_followup"``: ``play`` of any one rank from the current
  zone (``play_blind`` when that zone is face-down) and ``stop``; no pickup.
- ``pending == "chain"``: ``play`` of hand cards (plus face-up cards under
  IDIOT-TABLE-3) of the rank just played, and ``stop``; no pickup.

Every rule sits in its own small method so that a mutant (tests/mutants/
idiot.py) can override exactly one of them.
"""

from __future__ import annotations

import functools
import operator
from collections import Counter
from collections.abc import Callable, Iterable
from itertools import product
from typing import Any

from attrs import fields, frozen

from ruleproof.model.engine import BadRequest, IllegalMove, JSONObject, Move, State
from ruleproof.model.notation import STANDARD_CARDS, STANDARD_DECK, rank
from ruleproof.reference.base import Rules, move_type, require, require_list, wrong_phase

Cards = tuple[str, ...]
RankTest = Callable[[str], bool]

PLAYERS = tuple(range(2, 10))
MAX_DECKS = 4
TABLE_SIZE = 3  # face-down, face-up and starting hand cards per seat
HAND_TARGET = 3  # IDIOT-DRAW-1: draw back up to three
LADDER = "3456789TJQKA"  # IDIOT-OPEN-1, in IDIOT-RANK-1 order
ANY = "any"  # IDIOT-OPEN-3: the ladder has passed the ace
TWO, TEN, SIX, EIGHT = "2", "T", "6", "8"
REVERSE_RANKS = tuple("23456789TJQKA")  # IDIOT-REVERSE-1: any rank may be the one that reverses
# IDIOT-TRANSPARENT-1: any rank but the 2 (it resets) and the 10 (it burns) may be the transparent one
TRANSPARENT_RANKS = tuple("3456789JQKA")
# the house-rule options (docs/rules/idiot.md): sent only by a kit that knows them, their defaults otherwise
HOUSE_OPTIONS = ("seven_lower", "eight_skips", "reverse", "transparent")
# IDIOT-RANK-1: the "same or higher" order.  The 2 sits below everything: it
# is never higher than a card, it is simply always playable (IDIOT-AMB-16).
ORDER = {r: i for i, r in enumerate("2" + LADDER)}

# The clause a move of the wrong phase (or an unknown move type) breaks.
_PHASE_CLAUSE = {
    "deal": "IDIOT-DEAL-1",
    "swap": "IDIOT-SWAP-1",
    "opening": "IDIOT-OPEN-1",
    "play": "IDIOT-PLAY-1",
    "over": "IDIOT-END-1",
}
# In the play phase a stray move of an earlier phase breaks that phase's rule.
_MOVE_CLAUSE = {"deal": "IDIOT-DEAL-1", "swap": "IDIOT-SWAP-1", "ready": "IDIOT-SWAP-1", "decline": "IDIOT-OPEN-1"}
_MOVE_TYPES = ("deal", "swap", "ready", "decline", "play", "play_blind", "pickup", "stop")
_PHASE_MOVES = {
    "deal": ("deal",),
    "swap": ("swap", "ready"),
    "opening": ("play", "decline"),
    "play": ("play", "play_blind", "pickup", "stop"),
    "over": (),
}


@frozen
class IdiotOptions:
    """The five options of the contract, complete."""

    decks: int
    after_burn: str  # "next" | "burner"
    six_burn: int  # 3 | 4
    two_followup: str  # "optional" | "none"
    ten_anytime: bool
    seven_lower: bool = False  # IDIOT-SEVEN-1: after a 7 a 7 or lower (or a 2); a 10 may not
    eight_skips: bool = False  # IDIOT-EIGHT-1: each 8 of the play that passes the turn skips a player
    reverse: str | None = None  # IDIOT-REVERSE-1: a play of this rank reverses the direction of play
    transparent: str | None = None  # IDIOT-TRANSPARENT-1: this rank goes on anything and is seen through
    sent: tuple[str, ...] = ()  # the house options new_game named: echoed in the state (CONTRACT-SETUP-2)

    def to_json(self) -> JSONObject:
        # the house rules only when sent: left out, the state is the one an engine without them shows
        house = {
            "seven_lower": self.seven_lower,
            "eight_skips": self.eight_skips,
            "reverse": self.reverse,
            "transparent": self.transparent,
        }
        house = {name: value for name, value in house.items() if name in self.sent}
        return {
            "decks": self.decks,
            "after_burn": self.after_burn,
            "six_burn": self.six_burn,
            "two_followup": self.two_followup,
            "ten_anytime": self.ten_anytime,
            **house,
        }


@frozen
class IdiotState:
    """One snapshot of a game; every field is immutable."""

    players: int
    dealer: int
    options: IdiotOptions
    phase: str  # "deal" | "swap" | "opening" | "play" | "over"
    to_act: int | None
    round: int
    deck: Cards  # the undealt pool, until the deal
    hands: tuple[Cards, ...]  # in arrival order
    face_up: tuple[Cards, ...]
    face_down: tuple[Cards, ...]
    draw: Cards  # top last
    discard: Cards  # top last
    burned: Cards
    opening_rank: str | None  # a LADDER rank or ANY during the opening
    declines: int  # declines so far at the current ladder rank
    out: tuple[int, ...]  # in the order the seats went out
    pending: str | None  # None | "two_followup" | "chain"
    chain_rank: str | None  # the rank a pending chain may continue with
    loser: int | None
    direction: int = 1  # IDIOT-REVERSE-1: 1 clockwise (IDIOT-AMB-14), -1 once reversed


_FIELDS = tuple(a.name for a in fields(IdiotState))
_ALL_FIELDS = operator.attrgetter(*_FIELDS)
_POSITION = {name: i for i, name in enumerate(_FIELDS)}


def evolve(state: IdiotState, **changes: Any) -> IdiotState:
    """``attrs.evolve`` for an IdiotState: a copy with ``changes``.  Every move makes one to three of
    these, and the generic ``attrs.evolve`` looks the nineteen fields up one by one."""
    values = list(_ALL_FIELDS(state))
    for name, value in changes.items():
        values[_POSITION[name]] = value
    return IdiotState(*values)


def remove_cards(zone: Cards, cards: Iterable[str]) -> Cards:
    """``zone`` without one copy of each of ``cards`` (all present)."""
    if isinstance(cards, tuple) and len(cards) == 1 and cards[0] in zone:  # the usual play: one card
        i = zone.index(cards[0])
        return zone[:i] + zone[i + 1 :]
    left = Counter(cards)
    kept = []
    for card in zone:
        if left[card]:
            left[card] -= 1
        else:
            kept.append(card)
    return tuple(kept)


def sub_multisets(cards: Iterable[str]) -> list[Cards]:
    """Every distinct non-empty sub-multiset of ``cards``, each sorted."""
    return list(_sub_multisets(tuple(sorted(cards))))


@functools.lru_cache(maxsize=8192)
def _sub_multisets(cards: Cards) -> tuple[Cards, ...]:
    # legal_moves asks for the same few same-rank groups over and over.
    groups = sorted(Counter(cards).items())
    out: list[Cards] = []
    for counts in product(*(range(n + 1) for _, n in groups)):
        chosen = tuple(c for (c, _), k in zip(groups, counts, strict=False) for _ in range(k))
        if chosen:
            out.append(chosen)
    return tuple(out)


def by_rank(cards: Iterable[str]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for card in cards:
        groups.setdefault(card[0], []).append(card)
    return groups


class Idiot(Rules[IdiotState]):
    """The reference rules of Idiot."""

    game = "idiot"

    # ------------------------------------------------------------------ setup

    def declaration(self) -> JSONObject:
        return {
            "players": list(PLAYERS),
            "options": {
                "decks": {"min": 1, "max": MAX_DECKS},
                "after_burn": ["next", "burner"],
                "six_burn": [3, 4],
                "two_followup": ["optional", "none"],
                "ten_anytime": [True, False],
                "seven_lower": [False, True],
                "eight_skips": [False, True],
                "reverse": [None, *REVERSE_RANKS],
                "transparent": [None, *TRANSPARENT_RANKS],
            },
        }

    def defaults(self, players: int) -> JSONObject:
        return {
            "decks": self.default_decks(players),
            "after_burn": "next",
            "six_burn": 3,
            "two_followup": "optional",
            "ten_anytime": True,
        }

    def default_decks(self, players: int) -> int:
        """IDIOT-SETUP-2, IDIOT-AMB-1: one deck per three players, rounded up."""
        return -(-players // 3)

    def check_options(self, players: int, options: JSONObject) -> None:
        """IDIOT-DEAL-2: the pool must cover nine cards a player."""
        if TABLE_SIZE * 3 * players > 52 * options["decks"]:
            raise BadRequest(f"options.decks: {options['decks']} deck(s) cannot deal 9 cards to {players} players")

    def pool(self, decks: int) -> Cards:
        """IDIOT-SETUP-2: ``decks`` standard packs shuffled together."""
        return STANDARD_DECK * decks

    def start(self, players: int, dealer: int, options: JSONObject) -> IdiotState:
        opts = IdiotOptions(
            decks=options["decks"],
            after_burn=options["after_burn"],
            six_burn=options["six_burn"],
            two_followup=options["two_followup"],
            ten_anytime=options["ten_anytime"],
            seven_lower=options.get("seven_lower", False),
            eight_skips=options.get("eight_skips", False),
            reverse=options.get("reverse"),
            transparent=options.get("transparent"),
            sent=tuple(name for name in HOUSE_OPTIONS if name in options),
        )
        if TABLE_SIZE * 3 * players > 52 * opts.decks:
            raise BadRequest(f"options.decks: {opts.decks} deck(s) cannot deal 9 cards to {players} players")
        empty: tuple[Cards, ...] = ((),) * players
        return IdiotState(
            players=players,
            dealer=dealer,
            options=opts,
            phase="deal",
            to_act=None,
            round=0,
            deck=self.pool(opts.decks),
            hands=empty,
            face_up=empty,
            face_down=empty,
            draw=(),
            discard=(),
            burned=(),
            opening_rank=None,
            declines=0,
            out=(),
            pending=None,
            chain_rank=None,
            loser=None,
        )

    # ------------------------------------------------------------- the deal

    def check_deal(
        self, state: IdiotState, face_down: list[Cards], face_up: list[Cards], hand: list[Cards], draw: Cards
    ) -> None:
        """IDIOT-DEAL-1/2, IDIOT-SETUP-2: 3/3/3 a seat, the rest in the draw
        pile, and together exactly the pool."""
        n = state.players
        for name, rows in (("face_down", face_down), ("face_up", face_up), ("hand", hand)):
            if len(rows) != n:
                raise IllegalMove("IDIOT-DEAL-1", f"deal.{name} has {len(rows)} seats, not {n}")
            for seat, row in enumerate(rows):
                if len(row) != TABLE_SIZE:
                    raise IllegalMove("IDIOT-DEAL-1", f"deal.{name}[{seat}] has {len(row)} cards, not {TABLE_SIZE}")
        want_draw = 52 * state.options.decks - 9 * n
        if len(draw) != want_draw:
            raise IllegalMove("IDIOT-DEAL-2", f"deal.draw has {len(draw)} cards, not {want_draw}")
        dealt = Counter(draw)
        for rows in (face_down, face_up, hand):
            for row in rows:
                dealt.update(row)
        pool = Counter(self.pool(state.options.decks))
        if dealt != pool:
            extra = sorted((dealt - pool).elements())
            missing = sorted((pool - dealt).elements())
            raise IllegalMove(
                "IDIOT-SETUP-2", f"the deal is not {state.options.decks} deck(s): extra {extra}, missing {missing}"
            )

    def deal(self, state: IdiotState, move: Move) -> IdiotState:
        rows = {name: self._card_rows(move, name) for name in ("face_down", "face_up", "hand")}
        draw = tuple(require_list(move, "draw", str))
        for card in draw:
            self.check_card(card)
        self.check_deal(state, rows["face_down"], rows["face_up"], rows["hand"], draw)
        return evolve(
            state,
            phase="swap",
            to_act=self.left_of(state.dealer, state.players),
            round=state.round + 1,
            deck=(),
            face_down=tuple(rows["face_down"]),
            face_up=tuple(rows["face_up"]),
            hands=tuple(rows["hand"]),
            draw=draw,
        )

    def _card_rows(self, move: Move, name: str) -> list[Cards]:
        rows = require_list(move, name, list)
        out = []
        for i, row in enumerate(rows):
            for j, card in enumerate(row):
                if not isinstance(card, str):
                    raise BadRequest(f"move.{name}[{i}][{j}]: {card!r} has the wrong JSON type")
                self.check_card(card)
            out.append(tuple(row))
        return out

    def check_card(self, card: str) -> None:
        """IDIOT-SETUP-2: only standard cards exist in this game."""
        if card not in STANDARD_CARDS:
            raise IllegalMove("IDIOT-SETUP-2", f"{card!r} names no card of a standard deck")

    # ------------------------------------------------------------- the swap

    def swap(self, state: IdiotState, seat: int, hand_card: str, face_up_card: str) -> IdiotState:
        """IDIOT-SWAP-1: a hand card changes places with one of the seat's own
        face-up cards; face-down cards are never touched."""
        hand, up = state.hands[seat], state.face_up[seat]
        if hand_card not in hand:
            raise IllegalMove("IDIOT-SWAP-1", f"{hand_card} is not in seat {seat}'s hand")
        if face_up_card not in up:
            raise IllegalMove("IDIOT-SWAP-1", f"{face_up_card} is not among seat {seat}'s face-up cards")
        # Each card takes the other's position, so swapping back restores the snapshot.
        i, j = hand.index(hand_card), up.index(face_up_card)
        new_hand = (*hand[:i], face_up_card, *hand[i + 1 :])
        new_up = (*up[:j], hand_card, *up[j + 1 :])
        return evolve(state, hands=_put(state.hands, seat, new_hand), face_up=_put(state.face_up, seat, new_up))

    def ready(self, state: IdiotState, seat: int) -> IdiotState:
        """IDIOT-SWAP-1 then IDIOT-OPEN-1: seats swap in turn from the dealer's
        left; after the dealer the ladder starts at 3 with the same seat."""
        nxt = self.left_of(seat, state.players)
        if seat != state.dealer:
            return evolve(state, to_act=nxt)
        return evolve(state, phase="opening", to_act=nxt, opening_rank=LADDER[0], declines=0)

    # ---------------------------------------------------------- the opening

    def may_decline(self, state: IdiotState) -> bool:
        """IDIOT-OPEN-1/3: any seat may decline until the ladder passes the ace."""
        return state.opening_rank != ANY

    def next_opening_rank(self, ladder_rank: str) -> str:
        """IDIOT-OPEN-1/3: after a full circle the ladder moves up one rank;
        past the ace it becomes "any"."""
        i = LADDER.index(ladder_rank) + 1
        return LADDER[i] if i < len(LADDER) else ANY

    def may_open_with(self, ladder_rank: str | None, card_rank: str) -> bool:
        """IDIOT-OPEN-1/3: the ladder rank, or anything once it is "any"."""
        return ladder_rank in (ANY, card_rank)

    def decline(self, state: IdiotState, seat: int) -> IdiotState:
        """IDIOT-OPEN-1: after n declines at one rank the ladder moves up."""
        if not self.may_decline(state):
            raise IllegalMove("IDIOT-OPEN-3", f"the ladder has passed the ace: seat {seat} must open with a hand card")
        declines, ladder_rank = state.declines + 1, state.opening_rank
        assert ladder_rank is not None
        if declines >= state.players:
            declines, ladder_rank = 0, self.next_opening_rank(ladder_rank)
        return evolve(state, to_act=self.left_of(seat, state.players), declines=declines, opening_rank=ladder_rank)

    # ------------------------------------------------------- play legality

    def rank_beats(self, card_rank: str, top: str) -> bool:
        """IDIOT-PLAY-2, IDIOT-RANK-1: the same rank or a higher one."""
        return ORDER[card_rank] >= ORDER[top]

    def effective_top(self, pile: Cards) -> str | None:
        """IDIOT-PLAY-1/2: the rank a play must match, or None when anything
        goes (an empty pile, or a 2 on top)."""
        if not pile or rank(pile[-1]) == TWO:
            return None
        return rank(pile[-1])

    def is_wild(self, card_rank: str, options: IdiotOptions) -> bool:
        """IDIOT-TWO-1, IDIOT-BURN-10 (IDIOT-AMB-5): 2s, and 10s under
        ``ten_anytime``, go on any top card."""
        return card_rank == TWO or (card_rank == TEN and options.ten_anytime)

    def seen_through(self, pile: Cards, options: IdiotOptions) -> Cards:
        """IDIOT-TRANSPARENT-1: the pile the next play is judged against, the transparent cards on top left
        out (the first card below of another rank; an empty pile if there is none)."""
        k = len(pile)
        while k and rank(pile[k - 1]) == options.transparent:
            k -= 1
        return pile[:k]

    def may_play_on(self, card_rank: str, pile: Cards, options: IdiotOptions) -> bool:
        """IDIOT-PLAY-1/2, IDIOT-TWO-1, IDIOT-BURN-10: may this rank go on the pile?"""
        if card_rank == options.transparent:
            return True  # IDIOT-TRANSPARENT-1: on anything
        pile = self.seen_through(pile, options)
        if options.seven_lower and pile and rank(pile[-1]) == "7" and card_rank != TWO:
            return ORDER[card_rank] <= ORDER["7"]  # IDIOT-SEVEN-1: a 7 or lower; a 10 may not
        if self.is_wild(card_rank, options):
            return True
        top = self.effective_top(pile)
        return top is None or self.rank_beats(card_rank, top)

    def single_rank(self, cards: Cards) -> bool:
        """IDIOT-MULTI-1: a play is one or more cards of a single rank."""
        return len({rank(c) for c in cards}) == 1

    def hand_open(self, state: IdiotState, seat: int) -> bool:
        """IDIOT-TABLE-1: hand cards come first."""
        return bool(state.hands[seat])

    def face_up_open(self, state: IdiotState, seat: int) -> bool:
        """IDIOT-TABLE-1: face-up cards only once the draw pile and hand are empty."""
        return not state.draw and not state.hands[seat] and bool(state.face_up[seat])

    def may_combine(self, state: IdiotState, seat: int) -> bool:
        """IDIOT-TABLE-3 (IDIOT-AMB-12): with the draw pile empty, the last
        hand cards (all of one rank) may take face-up cards of that rank along."""
        hand = state.hands[seat]
        return not state.draw and bool(hand) and bool(state.face_up[seat]) and len({rank(c) for c in hand}) == 1

    def blind_open(self, state: IdiotState, seat: int) -> bool:
        """IDIOT-BLIND-1: face-down cards only once draw pile, hand and face-up are empty."""
        return not state.draw and not state.hands[seat] and not state.face_up[seat] and bool(state.face_down[seat])

    def may_pick_up(self, state: IdiotState) -> bool:
        """IDIOT-PICKUP-1/3: only a non-empty pile can be taken."""
        return bool(state.discard)

    # ---------------------------------------------------------------- burns

    def is_burn_card(self, card_rank: str) -> bool:
        """IDIOT-BURN-10: a 10 burns the whole pile, itself included."""
        return card_rank == TEN

    def run_needed(self, card_rank: str, options: IdiotOptions) -> int:
        """IDIOT-BURN-4KIND, IDIOT-BURN-6S (IDIOT-AMB-7): four of a rank burn,
        6s already at three (``six_burn``)."""
        return options.six_burn if card_rank == SIX else 4

    def top_run(self, pile: Cards, play: Cards) -> int:
        """IDIOT-BURN-4KIND (IDIOT-AMB-8): the same-rank run on top of the pile,
        contiguous, whoever played it (2s count like any rank)."""
        top = rank(pile[-1])
        n = 0
        for card in reversed(pile):
            if rank(card) != top:
                break
            n += 1
        return n

    def burns(self, pile: Cards, play: Cards, options: IdiotOptions) -> bool:
        """IDIOT-BURN-10/4KIND/6S: does the pile burn after this play?"""
        if any(self.is_burn_card(rank(c)) for c in play):
            return True
        return self.top_run(pile, play) >= self.run_needed(rank(pile[-1]), options)

    def burner_keeps_turn(self, options: IdiotOptions) -> bool:
        """IDIOT-BURN-NEXT (IDIOT-AMB-6): under ``next`` the next player starts
        the new pile; under ``burner`` the burner does."""
        return options.after_burn == "burner"

    # ------------------------------------------------------ drawing, follow-ups

    def draw_count(self, hand_size: int, draw_size: int) -> int:
        """IDIOT-DRAW-1/2: back up to three while the draw pile lasts, never
        more when already holding three."""
        return max(0, min(HAND_TARGET - hand_size, draw_size))

    def draws_after_pickup(self) -> bool:
        """IDIOT-DRAW-2: a pickup turn never draws."""
        return False

    def followup_offered(self, card_rank: str, blind: bool, options: IdiotOptions) -> bool:
        """IDIOT-TWO-2 (IDIOT-AMB-4, §2.3b): a 2 earns one more play of any rank,
        unless the option is ``none`` or the 2 was played blind."""
        return card_rank == TWO and not blind and options.two_followup == "optional"

    def chain_offered(self, card_rank: str, drawn: Cards, burned: bool) -> bool:
        """IDIOT-DRAW-3 (IDIOT-AMB-13): a card just drawn of the rank just played
        may follow it, but not after a burn."""
        return not burned and any(rank(c) == card_rank for c in drawn)

    # ------------------------------------------------------ pickups, blind play

    def picked_up(self, pile: Cards) -> tuple[Cards, Cards]:
        """IDIOT-PICKUP-1/2: (cards taken into the hand, cards left on the pile)."""
        return pile, ()

    def failed_blind(self, hand: Cards, pile: Cards, card: str) -> tuple[Cards, Cards]:
        """IDIOT-BLIND-3 (IDIOT-AMB-10): an illegal blind card goes into the hand
        with the whole pile.  Returns (hand, pile)."""
        return hand + pile + (card,), ()

    def player_after_pickup(self, state: IdiotState, seat: int) -> int:
        """IDIOT-PICKUP-2 (IDIOT-AMB-9): the next active player starts a new pile."""
        return self.next_player(state, seat)

    # ------------------------------------------------------------- going out

    def is_out(self, state: IdiotState, seat: int) -> bool:
        """IDIOT-OUT-1: no cards in hand, face-up or face-down."""
        return not state.hands[seat] and not state.face_up[seat] and not state.face_down[seat]

    def game_over(self, players: int, out: tuple[int, ...]) -> bool:
        """IDIOT-END-1: over as soon as exactly one player still holds cards."""
        return players - len(out) <= 1

    def loser(self, players: int, out: tuple[int, ...]) -> int:
        """IDIOT-END-1: the one player left holding cards is the Idiot."""
        return next(s for s in range(players) if s not in out)

    def left_of(self, seat: int, players: int) -> int:
        """IDIOT-AMB-14: play runs clockwise, to the left."""
        return (seat + 1) % players

    def next_player(self, state: IdiotState, seat: int, out: tuple[int, ...] | None = None, skips: int = 0) -> int:
        """IDIOT-INV-7, IDIOT-REVERSE-1, IDIOT-EIGHT-1: the next active seat in the direction of play, ``skips``
        active seats passed over (with two active players an 8 skips the other: the same seat again)."""
        out = state.out if out is None else out
        nxt = seat
        for _ in range(skips + 1):
            nxt = self.next_active(out, nxt, state.players, state.direction)
        return nxt

    def next_active(self, out: tuple[int, ...], seat: int, players: int, direction: int = 1) -> int:
        """IDIOT-OUT-1: the next seat clockwise that is not out."""
        step = self.left_of if direction == 1 else self.right_of
        nxt = step(seat, players)
        while nxt in out:
            nxt = step(nxt, players)
        return nxt

    def right_of(self, seat: int, players: int) -> int:
        """IDIOT-REVERSE-1: once reversed, play runs counter-clockwise."""
        return (seat - 1) % players

    # --------------------------------------------------------- legal moves

    def legal_moves(self, state: IdiotState) -> list[Move]:
        seat = state.to_act
        if seat is None or state.phase in ("deal", "over"):
            return []
        if state.phase == "swap":
            return self._swap_moves(state, seat)
        if state.phase == "opening":
            moves = [
                _play(c) for c in self._hand_plays(state, seat, lambda r: self.may_open_with(state.opening_rank, r))
            ]
            if self.may_decline(state):
                moves.append({"type": "decline"})
            return moves
        if state.pending == "chain":
            chain_rank = state.chain_rank
            moves = [_play(c) for c in self._zone_plays(state, seat, lambda r: r == chain_rank, hand_only=True)]
            return [*moves, {"type": "stop"}]
        if state.pending == "two_followup":
            moves = [_play(c) for c in self._zone_plays(state, seat, lambda r: True)]
            moves += self._blind_moves(state, seat)
            return [*moves, {"type": "stop"}]
        pile, options = state.discard, state.options
        moves = [_play(c) for c in self._zone_plays(state, seat, lambda r: self.may_play_on(r, pile, options))]
        moves += self._blind_moves(state, seat)
        if self.may_pick_up(state):
            moves.append({"type": "pickup"})
        return moves

    def _swap_moves(self, state: IdiotState, seat: int) -> list[Move]:
        moves: list[Move] = [
            {"type": "swap", "hand": h, "face_up": f}
            for h in sorted(set(state.hands[seat]))
            for f in sorted(set(state.face_up[seat]))
        ]
        return [*moves, {"type": "ready"}]

    def _hand_plays(self, state: IdiotState, seat: int, rank_ok: RankTest) -> list[Cards]:
        plays: list[Cards] = []
        for r, cards in sorted(by_rank(state.hands[seat]).items()):
            if rank_ok(r):
                plays += sub_multisets(cards)
        return plays

    def _zone_plays(self, state: IdiotState, seat: int, rank_ok: RankTest, hand_only: bool = False) -> list[Cards]:
        """Every distinct play of an allowed rank from the seat's open zones."""
        plays: list[Cards] = []
        if self.hand_open(state, seat):
            plays += self._hand_plays(state, seat, rank_ok)
        if self.may_combine(state, seat):
            hand = state.hands[seat]
            r = rank(hand[0])
            if rank_ok(r):
                extra = [c for c in state.face_up[seat] if rank(c) == r]
                plays += [tuple(sorted(hand + f)) for f in sub_multisets(extra)]
        if not hand_only and self.face_up_open(state, seat):
            for r, cards in sorted(by_rank(state.face_up[seat]).items()):
                if rank_ok(r):
                    plays += sub_multisets(cards)
        # The open zones only overlap in a mutant's rules; keep each move once.
        return list(dict.fromkeys(plays))

    def _blind_moves(self, state: IdiotState, seat: int) -> list[Move]:
        if not self.blind_open(state, seat):
            return []
        return [{"type": "play_blind", "index": i} for i in range(len(state.face_down[seat]))]

    # ---------------------------------------------------------------- apply

    def apply(self, state: IdiotState, move: Move) -> IdiotState:
        kind = move_type(move)
        self._check_phase(state, kind)
        if kind == "deal":
            return self.deal(state, move)
        seat = state.to_act
        assert seat is not None
        if kind == "swap":
            hand_card, up_card = require(move, "hand", str), require(move, "face_up", str)
            self.check_card(hand_card)
            self.check_card(up_card)
            return self.swap(state, seat, hand_card, up_card)
        if kind == "play":
            cards = tuple(require_list(move, "cards", str))
            for card in cards:
                self.check_card(card)
            return self.play(state, seat, cards)
        if kind == "play_blind":
            return self.play_blind(state, seat, require(move, "index", int))
        # ready, decline, pickup and stop take no field: each is the method of its name
        simple: Callable[[IdiotState, int], IdiotState] = getattr(self, kind)
        return simple(state, seat)

    def _check_phase(self, state: IdiotState, kind: str) -> None:
        """The move type exists and belongs to this phase, else the clause that says what the phase is for."""
        if state.phase == "over":
            raise IllegalMove("IDIOT-END-1", f"the game is over: no {kind!r} move is accepted")
        if kind not in _MOVE_TYPES:
            raise IllegalMove(_PHASE_CLAUSE[state.phase], f"unknown move type {kind!r}")
        if kind not in _PHASE_MOVES[state.phase]:
            clause = (
                _MOVE_CLAUSE.get(kind, _PHASE_CLAUSE[state.phase])
                if state.phase == "play"
                else _PHASE_CLAUSE[state.phase]
            )
            raise wrong_phase(clause, kind, state.phase)

    def play(self, state: IdiotState, seat: int, cards: Cards) -> IdiotState:
        if not cards:
            raise IllegalMove("IDIOT-MULTI-1", "a play needs at least one card")
        if not self.single_rank(cards):
            raise IllegalMove("IDIOT-MULTI-1", f"{list(cards)} are not all of one rank")
        # The rank that counts is the top card's (the last one listed).
        play_rank = rank(cards[-1])
        if state.phase == "opening":
            if not self.may_open_with(state.opening_rank, play_rank):
                raise IllegalMove("IDIOT-OPEN-1", f"the opening ladder is at {state.opening_rank}, not {play_rank}")
            if not Counter(cards) <= Counter(state.hands[seat]):
                raise IllegalMove(
                    "IDIOT-OPEN-1",
                    f"the opening is played from the hand: {list(cards)} are not all in seat {seat}'s hand",
                )
            return self.land(evolve(state, phase="play", opening_rank=None, declines=0), seat, cards, "hand")
        if state.pending == "chain":
            if play_rank != state.chain_rank:
                raise IllegalMove("IDIOT-DRAW-3", f"only {state.chain_rank}s may continue the chain, not {cards[-1]}")
            source = self.play_source(state, seat, cards)
            if source == "face_up":
                raise IllegalMove("IDIOT-DRAW-3", "the chain continues with hand cards only")
        elif state.pending == "two_followup":
            source = self.play_source(state, seat, cards)
        else:
            source = self.play_source(state, seat, cards)
            if not self.may_play_on(play_rank, state.discard, state.options):
                raise IllegalMove(
                    "IDIOT-PLAY-2", f"{cards[-1]} may not go on {state.discard[-1]}: it needs the same or a higher rank"
                )
        return self.land(state, seat, cards, source)

    def play_source(self, state: IdiotState, seat: int, cards: Cards) -> str:
        """Where the play comes from: "hand", "combo" (IDIOT-TABLE-3) or "face_up"."""
        if len(cards) == 1 and cards[0] in state.hands[seat] and self.hand_open(state, seat):
            return "hand"  # the usual play, one hand card: the Counters below would say the same
        want, hand = Counter(cards), Counter(state.hands[seat])
        if self.hand_open(state, seat) and want <= hand:
            return "hand"  # the usual case, decided before the face-up cards are counted
        up = Counter(state.face_up[seat])
        if self.may_combine(state, seat) and hand <= want and want - hand <= up:
            return "combo"
        if self.face_up_open(state, seat) and want <= up:
            return "face_up"
        if state.hands[seat]:
            if want <= hand + up and any(up[c] for c in want):
                if state.draw:
                    raise IllegalMove(
                        "IDIOT-TABLE-1",
                        f"face-up cards may not be played while the draw pile and seat {seat}'s hand are not empty",
                    )
                raise IllegalMove(
                    "IDIOT-TABLE-3",
                    f"face-up cards join a play only with all of seat {seat}'s last hand cards of that rank",
                )
            missing = sorted((want - hand).elements())
            raise IllegalMove("IDIOT-MULTI-1", f"{missing} not in seat {seat}'s hand")
        if state.face_up[seat]:
            missing = sorted((want - up).elements())
            raise IllegalMove("IDIOT-TABLE-2", f"{missing} not among seat {seat}'s face-up cards")
        raise IllegalMove("IDIOT-BLIND-1", f"seat {seat} has only face-down cards: play one blind with play_blind")

    def land(self, state: IdiotState, seat: int, cards: Cards, source: str, blind: bool = False) -> IdiotState:
        """Put a play on the pile, burn, draw, and decide who acts next."""
        hands, face_up, face_down = state.hands, state.face_up, state.face_down
        hand = state.hands[seat]
        if source == "hand":
            hand = remove_cards(hand, cards)
        elif source == "combo":
            face_up = _put(face_up, seat, remove_cards(face_up[seat], remove_cards(cards, hand)))
            hand = ()
        elif source == "face_up":
            face_up = _put(face_up, seat, remove_cards(face_up[seat], cards))
        pile = state.discard + cards
        burned_cards = state.burned
        burned = self.burns(pile, cards, state.options)
        if burned:
            burned_cards, pile = burned_cards + pile, ()
        draw, drawn = state.draw, tuple[str, ...]()
        if source in ("hand", "combo"):
            k = self.draw_count(len(hand), len(draw))
            if k:
                drawn = draw[-k:][::-1]  # the top card first
                draw, hand = draw[:-k], hand + drawn
        new = evolve(
            state,
            hands=_put(hands, seat, hand),
            face_up=face_up,
            face_down=face_down,
            draw=draw,
            discard=pile,
            burned=burned_cards,
            pending=None,
            chain_rank=None,
        )
        if state.options.reverse == rank(cards[-1]):  # IDIOT-REVERSE-1: once a play, burnt or not
            new = evolve(new, direction=-state.direction)
        eights = len(cards) if state.options.eight_skips and rank(cards[-1]) == EIGHT else 0
        return self.after_play(new, seat, rank(cards[-1]), drawn, burned, blind, eights=eights)

    def after_play(  # noqa: PLR0913 - the play's parts, the 8s by name
        self,
        state: IdiotState,
        seat: int,
        card_rank: str,
        drawn: Cards,
        burned: bool,
        blind: bool,
        *,
        eights: int = 0,
    ) -> IdiotState:
        """IDIOT-OUT-1, IDIOT-END-1, IDIOT-TWO-2, IDIOT-DRAW-3, IDIOT-BURN-NEXT; IDIOT-EIGHT-1: ``eights`` players
        skipped when this play passes the turn (none after a burn: the burn's rule decides who starts)."""
        out = state.out
        if self.is_out(state, seat):
            out = (*out, seat)
            if self.game_over(state.players, out):
                return evolve(state, out=out, phase="over", to_act=None, loser=self.loser(state.players, out))
            return evolve(state, out=out, to_act=self.next_player(state, seat, out, 0 if burned else eights))
        if not burned and self.followup_offered(card_rank, blind, state.options):
            return evolve(state, to_act=seat, pending="two_followup")
        if self.chain_offered(card_rank, drawn, burned):
            return evolve(state, to_act=seat, pending="chain", chain_rank=card_rank)
        if burned and self.burner_keeps_turn(state.options):
            return evolve(state, to_act=seat)
        return evolve(state, to_act=self.next_player(state, seat, out, 0 if burned else eights))

    def play_blind(self, state: IdiotState, seat: int, index: int) -> IdiotState:
        """IDIOT-BLIND-1..3: one face-down card, revealed and played."""
        if state.pending == "chain":
            raise IllegalMove("IDIOT-DRAW-3", "the chain continues with hand cards only")
        if not self.blind_open(state, seat):
            raise IllegalMove(
                "IDIOT-BLIND-1",
                f"seat {seat} may play face-down cards only once draw pile, hand and face-up cards are empty",
            )
        down = state.face_down[seat]
        if not 0 <= index < len(down):
            raise IllegalMove(
                "IDIOT-BLIND-1", f"index {index} is not a position of seat {seat}'s {len(down)} face-down cards"
            )
        card = down[index]
        state = evolve(state, face_down=_put(state.face_down, seat, down[:index] + down[index + 1 :]))
        if state.pending == "two_followup" or self.may_play_on(rank(card), state.discard, state.options):
            return self.land(state, seat, (card,), "face_down", blind=True)
        hand, pile = self.failed_blind(state.hands[seat], state.discard, card)
        state = evolve(state, hands=_put(state.hands, seat, hand), discard=pile, pending=None)
        return evolve(state, to_act=self.player_after_pickup(state, seat))

    def pickup(self, state: IdiotState, seat: int) -> IdiotState:
        """IDIOT-PICKUP-1/2/3 and IDIOT-DRAW-2: the whole pile into the hand."""
        if state.pending is not None:
            clause = "IDIOT-DRAW-3" if state.pending == "chain" else "IDIOT-TWO-2"
            raise IllegalMove(clause, "after playing this turn, only another play or stop is allowed")
        if not self.may_pick_up(state):
            raise IllegalMove("IDIOT-PICKUP-3", "the discard pile is empty: there is nothing to pick up")
        taken, left = self.picked_up(state.discard)
        hand, draw = state.hands[seat] + taken, state.draw
        if self.draws_after_pickup():
            k = self.draw_count(len(hand), len(draw))
            if k:
                hand, draw = hand + draw[-k:][::-1], draw[:-k]
        state = evolve(state, hands=_put(state.hands, seat, hand), discard=left, draw=draw)
        return evolve(state, to_act=self.player_after_pickup(state, seat))

    def stop(self, state: IdiotState, seat: int) -> IdiotState:
        """IDIOT-TWO-2, IDIOT-DRAW-3: decline the optional follow-up; the turn passes."""
        if state.pending is None:
            raise IllegalMove("IDIOT-TWO-2", "stop declines only a pending follow-up, and none is pending")
        return evolve(state, pending=None, chain_rank=None, to_act=self.next_player(state, seat))

    # ------------------------------------------------------------- snapshot

    def to_json(self, state: IdiotState) -> State:
        n = state.players
        zones: dict[str, list[str]] = {}
        for seat, (hand, up, down) in enumerate(_seat_zones(n)):
            zones[hand] = list(state.hands[seat])
            zones[up] = list(state.face_up[seat])
            zones[down] = list(state.face_down[seat])
        zones["draw"] = list(state.draw)
        zones["discard"] = list(state.discard)
        zones["burned"] = list(state.burned)
        if state.deck:
            zones["deck"] = list(state.deck)
        return {
            **self.common_state(
                state,
                players=n,
                options=state.options.to_json(),
                zones=zones,
                scores=[0] * n,
                result=None if state.loser is None else {"loser": state.loser},
            ),
            "opening_rank": state.opening_rank,
            "out": list(state.out),
            "pending": state.pending,
        }


@functools.cache
def _seat_zones(players: int) -> tuple[tuple[str, str, str], ...]:
    # every snapshot names 3 zones a seat: formatted once per player count
    return tuple((f"hand/{seat}", f"face_up/{seat}", f"face_down/{seat}") for seat in range(players))


def _put(rows: tuple[Cards, ...], seat: int, row: Cards) -> tuple[Cards, ...]:
    return (*rows[:seat], row, *rows[seat + 1 :])


def _play(cards: Cards) -> Move:
    return {"type": "play", "cards": list(cards)}
