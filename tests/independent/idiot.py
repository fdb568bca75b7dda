"""An independent Idiot (Shithead / Palace) engine, with planted bugs and house rules.

Written from docs/rules/idiot.md, docs/protocol.md, shared/protocol.md and shared/rules.md §2 only
(never from the kit's reference engine or its properties).  It keeps one mutable table per game and
builds every JSON answer afresh.  Its own choices where the contract leaves one open:

- every zone is always present, empty ones included (``deck`` stays, empty, after the deal);
- hands are kept sorted (rank 2..A, then suit), so a pickup does not keep the pile's order;
- ``legal_moves`` lists ``pickup`` first, then plays from the highest rank down, largest sets first,
  then blind indices from the last position down; ``ready``/``decline``/``stop`` come last;
- cards inside a ``play`` are listed spades, hearts, diamonds, clubs (hand cards before face-up cards
  in a table combination), so the spade of a set ends at the bottom of the pile;
- the extension field ``ladder_declines`` counts the declines at the current ladder rank.

``engine()`` is the correct engine; ``engine("strictly_higher", ...)`` enables planted bugs
(``BUGS``), and ``house.NAME`` a set of them (``HOUSE``) emulating an engine written elsewhere.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations_with_replacement, product
from typing import Any

from ruleproof.model.engine import BadRequest, IllegalMove, InternalError, JSONObject, Move, State, Unsupported
from tests.independent import Bug, Factories, HouseRules

RANKS = "23456789TJQKA"
SUITS = "CDHS"
LADDER = "3456789TJQKA"
LISTING_SUITS = "SHDC"
OTHER_GAMES = ("black-maria", "fool", "moon")
DECKS = {"min": 1, "max": 4}
OPTION_VALUES: dict[str, list[Any]] = {
    "after_burn": ["next", "burner"],
    "six_burn": [3, 4],
    "two_followup": ["optional", "none"],
    "ten_anytime": [True, False],
}
PHASE_CLAUSE = {"deal": "IDIOT-DEAL-1", "swap": "IDIOT-SWAP-1", "opening": "IDIOT-OPEN-1"}
MOVE_TYPES = ("deal", "swap", "ready", "decline", "play", "play_blind", "pickup", "stop")

BUGS = {
    b.name: b
    for b in (
        # -- single planted bugs, one per rule section --
        Bug("deal_multiset_unchecked", "IDIOT-SETUP-2", "a deal is checked for sizes only, not for the pool's cards"),
        Bug("swap_identical_refused", "IDIOT-SWAP-1", "swapping two identical cards is neither offered nor accepted"),
        Bug(
            "ladder_wraps",
            "IDIOT-OPEN-3",
            "past the ace the ladder goes on to 2, then 3: no forced opening",
        ),
        Bug("queen_above_king", "IDIOT-RANK-1", "a queen ranks above a king"),
        Bug("strictly_higher", "IDIOT-PLAY-2", "a play must be strictly higher; equal rank refused"),
        Bug("duplicate_cards", "IDIOT-MULTI-1", "plays drawn with replacement and checked by membership: a card twice"),
        Bug("pickup_plays_again", "IDIOT-PICKUP-2", "after a pickup the same player plays again"),
        Bug("pickup_empty_pile", "IDIOT-PICKUP-3", "pickup is offered and accepted on an empty pile (the turn passes)"),
        Bug("draw_one", "IDIOT-DRAW-1", "after a play the player draws one card instead of back up to three"),
        Bug("always_draws_one", "IDIOT-DRAW-2", "after a play the player draws at least one card, even holding 3+"),
        Bug("no_chain", "IDIOT-DRAW-3", "a drawn card of the rank just played never opens a chain"),
        Bug("face_up_with_hand", "IDIOT-TABLE-1", "face-up cards are played once the draw pile is empty, hand or not"),
        Bug("no_table3", "IDIOT-TABLE-3", "the last hand cards never take matching face-up cards along"),
        Bug("blind_before_face_up", "IDIOT-BLIND-1", "face-down cards may be played while face-up cards remain"),
        Bug("blind_fail_keeps_pile", "IDIOT-BLIND-3", "a failed blind card goes to the hand alone; the pile stays"),
        Bug("no_two_on_ace", "IDIOT-TWO-1", "a 2 may not be played on an ace"),
        Bug("two_no_followup", "IDIOT-TWO-2", "a 2 is a plain reset: no follow-up even under two_followup optional"),
        Bug("ten_no_burn", "IDIOT-BURN-10", "a 10 goes on anything but does not burn the pile"),
        Bug("run_one_play_only", "IDIOT-BURN-4KIND", "a run of four (not 6s) burns only within one play"),
        Bug("sixes_need_four", "IDIOT-BURN-6S", "6s burn at four like every rank, whatever six_burn says"),
        Bug("burner_plays_again", "IDIOT-BURN-NEXT", "after a burn the burner plays again (after_burn ignored)"),
        Bug("loser_not_reported", "IDIOT-END-1", "the game ends but result stays null"),
        # -- deviations used by the house-rules sets (each also certified alone) --
        Bug("five_invisible", "IDIOT-PLAY-2", "a 5 goes on anything and is invisible: the card under it sets the rank"),
        Bug("seven_lower", "IDIOT-PLAY-2", "after a 7 the next play must be a 7 or lower"),
        Bug("eight_skips", "IDIOT-INV-7", "an 8 skips the next player"),
        Bug("queen_reverses", "IDIOT-INV-7", "a queen reverses the direction of play"),
        Bug("pickup_only_when_stuck", "IDIOT-PICKUP-1", "pickup is allowed only with no legal play"),
        Bug("face_up_one_at_a_time", "IDIOT-TABLE-2", "face-up cards are played one at a time"),
        Bug("blind_two_followup", "IDIOT-BLIND-2", "a blind 2 earns the follow-up like any 2"),
        Bug("out_two_followup", "IDIOT-OUT-1", "a player going out with a 2 is still offered the follow-up"),
        Bug("after_opening_left_of_dealer", "IDIOT-OPEN-2", "after the opening the player left of the dealer plays"),
        Bug(
            "draw_before_play",
            "IDIOT-DRAW-1",
            "the player draws before the play leaves the hand, the top card of the set still counted: after every "
            "play from the hand the hand holds one card short of three while the draw pile lasts",
        ),
        Bug(
            "three_transparent",
            "IDIOT-PLAY-2",
            "a 3 goes on anything and is transparent: the card under it sets the rank",
        ),
        Bug(
            "ladder_crash",
            "CONTRACT-MOVES-2",
            "past the ace the listed decline fails (`internal`): the ladder has no next rank, no forced opening",
        ),
    )
}

HOUSE = {
    h.name: h
    for h in (
        HouseRules(
            "web_shithead",
            ("queen_above_king", "five_invisible", "duplicate_cards", "ladder_wraps", "burner_plays_again"),
            "a Python Shithead web game: Q above K, an invisible 5, card lists checked by membership, "
            "a ladder that wraps past the ace, and the burner goes again",
        ),
        HouseRules(
            "ts_shithead",
            ("eight_skips", "queen_reverses", "seven_lower", "pickup_only_when_stuck", "two_no_followup"),
            "a TypeScript Shithead: 8 skips, Q reverses, 7 or lower after a 7, pick up only when stuck, "
            "and the 2 is a plain reset",
        ),
        HouseRules(
            "java_palace",
            (
                "run_one_play_only",
                "face_up_one_at_a_time",
                "no_chain",
                "blind_two_followup",
                "out_two_followup",
                "after_opening_left_of_dealer",
            ),
            "an Android Palace app: runs only within a play, one face-up card at a time, no drawn-card chain, "
            "any 2 earns the follow-up (blind or going out), and the seat left of the dealer plays after the opening",
        ),
        HouseRules(
            "py_shithead",
            ("draw_before_play", "three_transparent", "eight_skips", "queen_reverses", "ladder_crash"),
            "a Python Shithead engine with five deviations, one of them a real bug: the draw comes before the play "
            "leaves the hand (from the first play of every game on), a 3 is transparent (declared: transparent "
            '"3"), an 8 skips the next player, a queen reverses the direction, and the opening ladder crashes past '
            "the ace (the bug)",
            {"transparent": ["3"]},
        ),
    )
}


# ---------------------------------------------------------------------------------------------- cards


def rank_of(card: str) -> str:
    return card[0]


def is_card(text: str) -> bool:
    return len(text) == 2 and text[0] in RANKS and text[1] in SUITS


def hand_order(card: str) -> tuple[int, int]:
    return RANKS.index(card[0]), SUITS.index(card[1])


def listing_order(card: str) -> tuple[int, int]:
    return RANKS.index(card[0]), LISTING_SUITS.index(card[1])


def pool(decks: int) -> list[str]:
    return [r + s for _ in range(decks) for s in SUITS for r in RANKS]


def sub_multisets(cards: list[str]) -> list[list[str]]:
    """Every non-empty sub-multiset of ``cards``, largest first."""
    counts = sorted(Counter(cards).items(), key=lambda kv: listing_order(kv[0]))
    found = []
    for picks in product(*(range(n, -1, -1) for _, n in counts)):
        chosen = [card for (card, _), k in zip(counts, picks, strict=True) for _ in range(k)]
        if chosen:
            found.append(chosen)
    found.sort(key=len, reverse=True)
    return found


def multiset_key(cards: list[str]) -> tuple[str, ...]:
    return tuple(sorted(cards))


# ---------------------------------------------------------------------------------------------- table


class Table:
    """The mutable game: zones per seat, the piles, whose turn, what is pending."""

    def __init__(self, players: int, dealer: int, options: dict[str, Any]) -> None:
        self.n = players
        self.dealer = dealer
        self.options = options
        self.phase = "deal"
        self.to_act: int | None = None
        self.round = 0
        self.deck = pool(options["decks"])
        self.hand: list[list[str]] = [[] for _ in range(players)]
        self.face_up: list[list[str]] = [[] for _ in range(players)]
        self.face_down: list[list[str]] = [[] for _ in range(players)]
        self.draw: list[str] = []
        self.discard: list[str] = []
        self.burned: list[str] = []
        self.opening_rank: str | None = None
        self.declines = 0
        self.out: list[int] = []
        self.pending: str | None = None
        self.chain_rank: str | None = None
        self.loser: int | None = None
        self.over_reported = True
        self.direction = 1
        self.opening_turn = False

    def holds(self, seat: int) -> int:
        return len(self.hand[seat]) + len(self.face_up[seat]) + len(self.face_down[seat])

    def copy(self) -> Table:
        twin = Table.__new__(Table)
        twin.__dict__ = {k: list(v) if isinstance(v, list) else v for k, v in self.__dict__.items()}
        for name in ("hand", "face_up", "face_down"):
            setattr(twin, name, [list(row) for row in getattr(self, name)])
        twin.options = dict(self.options)
        return twin

    def to_json(self) -> State:
        zones: dict[str, list[str]] = {
            "deck": list(self.deck),
            "draw": list(self.draw),
            "discard": list(self.discard),
            "burned": list(self.burned),
        }
        for seat in range(self.n):
            zones[f"hand/{seat}"] = list(self.hand[seat])
            zones[f"face_up/{seat}"] = list(self.face_up[seat])
            zones[f"face_down/{seat}"] = list(self.face_down[seat])
        result = {"loser": self.loser} if self.loser is not None and self.over_reported else None
        return {
            "game": "idiot",
            "players": self.n,
            "options": dict(self.options),
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": self.to_act,
            "round": self.round,
            "zones": zones,
            "scores": [0] * self.n,
            "result": result,
            "opening_rank": self.opening_rank,
            "out": list(self.out),
            "pending": self.pending,
            "ladder_declines": self.declines,
        }


# ---------------------------------------------------------------------------------------------- engine


class IdiotEngine:
    """The six methods of the engine contract for ``idiot``; ``bugs`` names planted deviations."""

    def __init__(self, bugs: frozenset[str] = frozenset(), declares: dict[str, list[Any]] | None = None) -> None:
        self.bugs = bugs
        self.declares = declares or {}  # the house options its hello declares (a HOUSE entry's): played always
        self.t: Table | None = None

    # -- the contract --------------------------------------------------------------------------

    def hello(self) -> JSONObject:
        options: dict[str, Any] = {"decks": dict(DECKS)}
        options.update({name: list(values) for name, values in OPTION_VALUES.items()})
        options.update({name: list(values) for name, values in self.declares.items()})
        return {
            "protocol": 1,
            "engine": {"name": "idiot-independent", "version": "1.0"},
            "games": {"idiot": {"players": list(range(2, 10)), "options": options}},
        }

    def new_game(self, game: str, players: int, dealer: int, options: JSONObject) -> State:
        if not isinstance(game, str):
            raise BadRequest(f"game: {game!r} is not a string")
        if game in OTHER_GAMES:
            raise Unsupported(f"game: {game!r} is not implemented by this engine")
        if game != "idiot":
            raise BadRequest(f"game: {game!r} is not a game of the contract")
        if type(players) is not int or not 2 <= players <= 9:
            raise BadRequest(f"players: {players!r} is not 2..9")
        if type(dealer) is not int or not 0 <= dealer < players:
            raise BadRequest(f"dealer: {dealer!r} is not a seat of {players}")
        self.t = Table(players, dealer, self._options(players, options))
        return self.state()

    def legal_moves(self) -> list[Move]:
        t = self._table()
        if t.phase == "swap":
            return self._swap_moves(t)
        if t.phase == "opening":
            return self._opening_moves(t)
        if t.phase == "play":
            return self._play_moves(t)
        return []

    def apply(self, move: Move) -> State:
        t = self._table()
        kind = self._move_type(move)
        if t.phase == "over":
            raise IllegalMove("IDIOT-END-1", f"the game is over; {kind} refused")
        if kind not in MOVE_TYPES:
            raise IllegalMove(None, f"unknown move type {kind!r}")
        work = t.copy()
        getattr(self, f"_do_{kind}")(work, move)
        self.t = work
        return self.state()

    def state(self) -> State:
        return self._table().to_json()

    def close(self) -> None:
        self.t = None

    # -- setup -------------------------------------------------------------------------------

    def _table(self) -> Table:
        if self.t is None:
            raise BadRequest("no game: call new_game first")
        return self.t

    def _options(self, players: int, options: JSONObject) -> dict[str, Any]:
        if not isinstance(options, dict):
            raise BadRequest("options: not an object")
        unknown = sorted(set(options) - {"decks", *OPTION_VALUES, *self.declares})
        if unknown:
            raise BadRequest(f"options.{unknown[0]}: not an option of idiot")
        decks = options.get("decks", math.ceil(players / 3))
        if type(decks) is not int or not DECKS["min"] <= decks <= DECKS["max"]:
            raise BadRequest(f"options.decks: {decks!r} is not an integer in 1..4")
        if 9 * players > 52 * decks:
            raise BadRequest(f"options.decks: {decks} deck(s) cannot seat {players} players")
        chosen: dict[str, Any] = {"decks": decks}
        defaults = {"after_burn": "next", "six_burn": 3, "two_followup": "optional", "ten_anytime": True}
        for name, values in OPTION_VALUES.items():
            value = options.get(name, defaults[name])
            if not any(type(value) is type(v) and value == v for v in values):
                raise BadRequest(f"options.{name}: {value!r} is not one of {values}")
            chosen[name] = value
        for name, values in self.declares.items():  # a house rule it plays always: the values it declares only
            value = options.get(name, values[0])
            if value not in values:
                raise BadRequest(f"options.{name}: {value!r} is not one of {values}")
            chosen[name] = value
        return chosen

    @staticmethod
    def _move_type(move: Move) -> str:
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise BadRequest("move: an object with a string 'type' is required")
        return str(move["type"])

    # -- rank logic --------------------------------------------------------------------------

    def _value(self, rank: str) -> int:
        value = LADDER.index(rank)
        if "queen_above_king" in self.bugs and rank in "QK":
            value = LADDER.index("K" if rank == "Q" else "Q")
        return value

    def _top_rank(self, t: Table) -> str | None:
        """The rank a play must match or beat (None: anything goes)."""
        for card in reversed(t.discard):
            if self._invisible(rank_of(card)):
                continue
            return None if rank_of(card) == "2" else rank_of(card)
        return None

    def _invisible(self, rank: str) -> bool:
        """The web game's invisible 5 and the Python engine's transparent 3: the card under it sets the rank (an
        engine that declares its 3 as the ``transparent`` option, its only value, plays it so always)."""
        if rank == "5":
            return "five_invisible" in self.bugs
        if rank != "3" or "three_transparent" not in self.bugs:
            return False
        return "transparent" not in self.declares or self._table().options.get("transparent") == "3"

    def _covers(self, t: Table, rank: str) -> bool:
        """May a set of ``rank`` go on the pile as it is (nothing pending)?"""
        if not t.discard:
            return True
        if rank == "2":
            return not ("no_two_on_ace" in self.bugs and rank_of(t.discard[-1]) == "A")
        return self._wild(t, rank) or self._beats(t, rank)

    def _wild(self, t: Table, rank: str) -> bool:
        """A 10 (under ten_anytime) goes on anything; so does the web game's invisible 5."""
        return (rank == "T" and t.options["ten_anytime"]) or self._invisible(rank)

    def _beats(self, t: Table, rank: str) -> bool:
        top = self._top_rank(t)
        if top is None:
            return True
        if top == "7" and "seven_lower" in self.bugs:
            return self._value(rank) <= self._value("7")
        if "strictly_higher" in self.bugs:
            return self._value(rank) > self._value(top)
        return self._value(rank) >= self._value(top)

    def _burns(self, t: Table, played: int) -> bool:
        top = rank_of(t.discard[-1])
        if top == "T" and "ten_no_burn" not in self.bugs:
            return True
        run = 0
        for card in reversed(t.discard):
            if rank_of(card) != top:
                break
            run += 1
        if "run_one_play_only" in self.bugs and top != "6":  # its 6s rule (a separate branch) counts the run
            run = min(run, played)
        need = 4 if top != "6" or "sixes_need_four" in self.bugs else t.options["six_burn"]
        return run >= need

    # -- zones -------------------------------------------------------------------------------

    def _stage(self, t: Table, seat: int) -> str:
        """Where the seat plays from: ``hand``, ``face_up`` or ``face_down`` (``none`` when empty)."""
        if t.hand[seat] or t.draw:
            return "hand"
        if t.face_up[seat]:
            return "face_up"
        return "face_down" if t.face_down[seat] else "none"

    def _blind_open(self, t: Table, seat: int) -> bool:
        if "blind_before_face_up" in self.bugs:
            return not t.hand[seat] and not t.draw and bool(t.face_down[seat])
        return self._stage(t, seat) == "face_down"

    def _open_sets(self, t: Table, seat: int, ranks: set[str] | None) -> list[list[str]]:
        """Every play of one rank from the open zone (``ranks``: the ranks allowed, None: any)."""
        stage = self._stage(t, seat)
        found: list[list[str]] = []
        if stage == "hand":
            found += self._sets_of(t.hand[seat], ranks)
            found += self._combinations(t, seat, ranks)
            if "face_up_with_hand" in self.bugs and not t.draw:
                found += self._sets_of(t.face_up[seat], ranks, from_face_up=True)
        elif stage == "face_up":
            found += self._sets_of(t.face_up[seat], ranks, from_face_up=True)
        unique: dict[tuple[str, ...], list[str]] = {}
        for cards in found:
            unique.setdefault(multiset_key(cards), cards)
        return list(unique.values())

    def _sets_of(self, zone: list[str], ranks: set[str] | None, *, from_face_up: bool = False) -> list[list[str]]:
        found = []
        for rank in sorted({rank_of(c) for c in zone}, key=RANKS.index, reverse=True):
            if ranks is None or rank in ranks:
                group = [c for c in zone if rank_of(c) == rank]
                sets = self._sets_with_replacement(group) if "duplicate_cards" in self.bugs else sub_multisets(group)
                for cards in sets:
                    if from_face_up and "face_up_one_at_a_time" in self.bugs and len(cards) > 1:
                        continue
                    found.append(cards)
        return found

    @staticmethod
    def _sets_with_replacement(group: list[str]) -> list[list[str]]:
        """The web game's sets: up to as many cards as the rank has, drawn from its distinct cards with replacement."""
        distinct = sorted(set(group), key=listing_order)
        return [list(c) for k in range(len(group), 0, -1) for c in combinations_with_replacement(distinct, k)]

    def _combinations(self, t: Table, seat: int, ranks: set[str] | None) -> list[list[str]]:
        """IDIOT-TABLE-3: all the last hand cards plus face-up cards of their rank."""
        hand = t.hand[seat]
        if t.draw or not hand or len({rank_of(c) for c in hand}) != 1 or "no_table3" in self.bugs:
            return []
        rank = rank_of(hand[0])
        if ranks is not None and rank not in ranks:
            return []
        extra = [c for c in t.face_up[seat] if rank_of(c) == rank]
        if not extra:
            return []
        head = sorted(hand, key=listing_order)
        return [head + cards for cards in sub_multisets(extra)]

    def _playable_ranks(self, t: Table, seat: int) -> set[str]:
        present = {rank_of(c) for c in t.hand[seat] + t.face_up[seat]}
        return {r for r in present if self._covers(t, r)}

    # -- legal moves -------------------------------------------------------------------------

    def _swap_moves(self, t: Table) -> list[Move]:
        seat = self._seat(t)
        moves: list[Move] = []
        for h in sorted(set(t.hand[seat]), key=listing_order):
            for f in sorted(set(t.face_up[seat]), key=listing_order):
                if h == f and "swap_identical_refused" in self.bugs:
                    continue
                moves.append({"type": "swap", "hand": h, "face_up": f})
        moves.append({"type": "ready"})
        return moves

    def _opening_moves(self, t: Table) -> list[Move]:
        seat = self._seat(t)
        ranks = None if t.opening_rank == "any" else {t.opening_rank or ""}
        moves: list[Move] = [{"type": "play", "cards": cards} for cards in self._sets_of(t.hand[seat], ranks)]
        if t.opening_rank != "any" or "ladder_wraps" in self.bugs:
            moves.append({"type": "decline"})
        return moves

    def _play_moves(self, t: Table) -> list[Move]:
        seat = self._seat(t)
        moves: list[Move] = []
        if t.pending is None and (t.discard or "pickup_empty_pile" in self.bugs) and self._may_pick_up(t, seat):
            moves.append({"type": "pickup"})
        if t.pending == "chain":
            ranks: set[str] | None = {t.chain_rank or ""}
        elif t.pending == "two_followup":
            ranks = None
        else:
            ranks = self._playable_ranks(t, seat)
        moves += [{"type": "play", "cards": cards} for cards in self._open_sets(t, seat, ranks)]
        if t.pending != "chain" and self._blind_open(t, seat):
            moves += [{"type": "play_blind", "index": i} for i in reversed(range(len(t.face_down[seat])))]
        if t.pending is not None:
            moves.append({"type": "stop"})
        return moves

    def _may_pick_up(self, t: Table, seat: int) -> bool:
        if "pickup_only_when_stuck" not in self.bugs:
            return True
        return not self._open_sets(t, seat, self._playable_ranks(t, seat)) and not self._blind_open(t, seat)

    @staticmethod
    def _seat(t: Table) -> int:
        assert t.to_act is not None
        return t.to_act

    # -- moves: deal and swap ----------------------------------------------------------------

    def _do_deal(self, t: Table, move: Move) -> None:
        rows = {name: self._rows(move, name) for name in ("face_down", "face_up", "hand")}
        draw = self._cards(move, "draw")
        if t.phase != "deal":
            raise IllegalMove("IDIOT-DEAL-1", f"no deal in phase {t.phase}")
        everything = [c for seats in rows.values() for row in seats for c in row] + draw
        self._known_cards(everything)
        for name, seats in rows.items():
            if len(seats) != t.n:
                raise IllegalMove("IDIOT-DEAL-1", f"{name}: {len(seats)} rows for {t.n} seats")
            for seat, row in enumerate(seats):
                if len(row) != 3:
                    raise IllegalMove("IDIOT-DEAL-1", f"{name}[{seat}]: {len(row)} cards, not 3")
        size = 52 * t.options["decks"] - 9 * t.n
        if len(draw) != size:
            raise IllegalMove("IDIOT-DEAL-2", f"draw: {len(draw)} cards, not {size}")
        if "deal_multiset_unchecked" not in self.bugs:
            extra = Counter(everything) - Counter(t.deck)
            missing = Counter(t.deck) - Counter(everything)
            if extra or missing:
                raise IllegalMove(
                    "IDIOT-SETUP-2",
                    f"the deal is not the pool: extra {sorted(extra.elements())}, missing {sorted(missing.elements())}",
                )
        t.deck = []
        t.face_down = [list(r) for r in rows["face_down"]]
        t.face_up = [list(r) for r in rows["face_up"]]
        t.hand = [sorted(r, key=hand_order) for r in rows["hand"]]
        t.draw = list(draw)
        t.round = 1
        t.phase = "swap"
        t.to_act = (t.dealer + 1) % t.n

    def _do_swap(self, t: Table, move: Move) -> None:
        h, f = self._card(move, "hand"), self._card(move, "face_up")
        self._require_phase(t, "swap", "IDIOT-SWAP-1")
        seat = self._seat(t)
        if h not in t.hand[seat]:
            raise IllegalMove("IDIOT-SWAP-1", f"{h} is not in seat {seat}'s hand")
        if f not in t.face_up[seat]:
            raise IllegalMove("IDIOT-SWAP-1", f"{f} is not among seat {seat}'s face-up cards")
        if h == f and "swap_identical_refused" in self.bugs:
            raise IllegalMove("IDIOT-SWAP-1", f"swapping {h} for {f} changes nothing")
        t.hand[seat].remove(h)
        t.hand[seat] = sorted([*t.hand[seat], f], key=hand_order)
        t.face_up[seat][t.face_up[seat].index(f)] = h

    def _do_ready(self, t: Table, move: Move) -> None:
        self._require_phase(t, "swap", "IDIOT-SWAP-1")
        seat = self._seat(t)
        if seat == t.dealer:
            t.phase, t.opening_rank, t.declines = "opening", "3", 0
        t.to_act = (seat + 1) % t.n

    # -- moves: opening ----------------------------------------------------------------------

    def _do_decline(self, t: Table, move: Move) -> None:
        self._require_phase(t, "opening", "IDIOT-OPEN-1")
        if t.opening_rank == "any" and "ladder_wraps" not in self.bugs:
            raise IllegalMove("IDIOT-OPEN-3", "the ladder has passed the ace: an opening is required")
        seat = self._seat(t)
        t.declines += 1
        if t.declines >= t.n:
            t.declines = 0
            t.opening_rank = self._next_ladder_rank(t.opening_rank or "3")
        t.to_act = (seat + 1) % t.n

    def _next_ladder_rank(self, rank: str) -> str:
        if rank == "A":
            if "ladder_crash" in self.bugs:
                raise InternalError("IndexError: list index out of range (the ladder has no rank after the ace)")
            return "2" if "ladder_wraps" in self.bugs else "any"
        if rank == "2":  # the web game's ladder, gone past the ace to 2, starts again at 3
            return "3"
        if rank == "any":
            return "any"
        return LADDER[LADDER.index(rank) + 1]

    # -- moves: play -------------------------------------------------------------------------

    def _do_play(self, t: Table, move: Move) -> None:
        cards = self._cards(move, "cards")
        if t.phase not in ("opening", "play"):
            raise IllegalMove(PHASE_CLAUSE[t.phase], f"no play in phase {t.phase}")
        self._known_cards(cards)
        seat = self._seat(t)
        if not cards:
            raise IllegalMove("IDIOT-MULTI-1", "a play names at least one card")
        ranks = {rank_of(c) for c in cards}
        if len(ranks) != 1:
            raise IllegalMove("IDIOT-MULTI-1", f"{cards} mixes ranks")
        rank = ranks.pop()
        from_hand, from_face_up = self._attribute(t, seat, cards)
        if t.phase == "opening":
            self._check_opening(t, rank, from_face_up)
        else:
            self._check_zone(t, seat, from_hand, from_face_up)
            self._check_rank(t, rank)
        for zone, taken in ((t.hand[seat], from_hand), (t.face_up[seat], from_face_up)):
            for card in taken:
                if card in zone:  # always, but for the web game's card named twice
                    zone.remove(card)
        t.discard.extend(cards)
        if t.phase == "opening":
            t.phase, t.opening_rank, t.declines, t.opening_turn = "play", None, 0, True
        t.pending = None
        self._after_play(t, seat, rank, len(cards), blind=False)

    def _attribute(self, t: Table, seat: int, cards: list[str]) -> tuple[list[str], list[str]]:
        """Which named cards come from the hand and which from face-up (hand first)."""
        if "duplicate_cards" in self.bugs:
            return self._attribute_by_membership(t, seat, cards)
        hand, face_up, face_down = Counter(t.hand[seat]), Counter(t.face_up[seat]), Counter(t.face_down[seat])
        from_hand: list[str] = []
        from_face_up: list[str] = []
        for card, need in Counter(cards).items():
            h = min(need, hand[card])
            f = min(need - h, face_up[card])
            if h + f < need:
                if h + f == 0 and face_down[card]:
                    raise IllegalMove("IDIOT-BLIND-1", f"{card} is face-down: face-down cards are played blind")
                raise IllegalMove("IDIOT-MULTI-1", f"{card} x{need} is not held (hand and face-up)")
            from_hand += [card] * h
            from_face_up += [card] * f
        if from_hand and from_face_up and self._face_up_alone(t, Counter(cards), face_up):
            return [], list(cards)
        return from_hand, from_face_up

    def _face_up_alone(self, t: Table, named: Counter[str], face_up: Counter[str]) -> bool:
        """Under face_up_with_hand, a play the face-up row holds whole is a face-up play."""
        return "face_up_with_hand" in self.bugs and not t.draw and not named - face_up

    @staticmethod
    def _attribute_by_membership(t: Table, seat: int, cards: list[str]) -> tuple[list[str], list[str]]:
        """The web game's check: each named card is looked up in the hand, then the face-up row, by membership."""
        from_hand: list[str] = []
        from_face_up: list[str] = []
        for card in cards:
            if card in t.hand[seat]:
                from_hand.append(card)
            elif card in t.face_up[seat]:
                from_face_up.append(card)
            else:
                raise IllegalMove("IDIOT-MULTI-1", f"{card} is not held")
        return from_hand, from_face_up

    def _check_opening(self, t: Table, rank: str, from_face_up: list[str]) -> None:
        if from_face_up:
            raise IllegalMove("IDIOT-OPEN-1", "only hand cards open")
        if t.opening_rank not in ("any", rank):
            raise IllegalMove("IDIOT-OPEN-1", f"the ladder is at {t.opening_rank}, not {rank}")

    def _check_zone(self, t: Table, seat: int, from_hand: list[str], from_face_up: list[str]) -> None:
        stage = self._stage(t, seat)
        if stage in ("face_down", "none"):
            raise IllegalMove("IDIOT-BLIND-1", "only face-down cards are left: play_blind")
        if from_face_up and stage == "hand":
            self._check_combination(t, seat, from_hand, from_face_up)
        if len(from_face_up) > 1 and not from_hand and "face_up_one_at_a_time" in self.bugs:
            raise IllegalMove("IDIOT-TABLE-2", "one face-up card at a time")

    def _check_combination(self, t: Table, seat: int, from_hand: list[str], from_face_up: list[str]) -> None:
        if "face_up_with_hand" in self.bugs and not t.draw and not from_hand:
            return
        if t.draw:
            raise IllegalMove("IDIOT-TABLE-1", "face-up cards wait until the draw pile is empty")
        if len(from_hand) != len(t.hand[seat]):
            raise IllegalMove("IDIOT-TABLE-1", "face-up cards wait until the hand is empty")
        if "no_table3" in self.bugs:
            raise IllegalMove("IDIOT-TABLE-3", "the last hand card goes alone")

    def _check_rank(self, t: Table, rank: str) -> None:
        if t.pending == "two_followup":
            return
        if t.pending == "chain":
            if rank != t.chain_rank:
                raise IllegalMove("IDIOT-DRAW-3", f"the chain continues with {t.chain_rank}s, not {rank}s")
            return
        if not self._covers(t, rank):
            top = rank_of(t.discard[-1])
            clause = "IDIOT-TWO-1" if rank == "2" else "IDIOT-PLAY-2"
            raise IllegalMove(clause, f"a {rank} does not go on a {top}")

    def _do_play_blind(self, t: Table, move: Move) -> None:
        index = move.get("index")
        if type(index) is not int:
            raise BadRequest("move.index: an integer is required")
        self._require_phase(t, "play", "IDIOT-BLIND-1")
        seat = self._seat(t)
        if t.pending == "chain" or not self._blind_open(t, seat):
            raise IllegalMove("IDIOT-BLIND-1", "face-down cards wait until draw pile, hand and face-up cards are empty")
        if not 0 <= index < len(t.face_down[seat]):
            raise IllegalMove("IDIOT-BLIND-1", f"no face-down card at {index}")
        card = t.face_down[seat].pop(index)
        rank = rank_of(card)
        followup = t.pending == "two_followup"
        t.pending = None
        if followup or self._covers(t, rank):
            t.discard.append(card)
            self._after_play(t, seat, rank, 1, blind=True)
            return
        if "blind_fail_keeps_pile" in self.bugs:
            t.hand[seat] = sorted([*t.hand[seat], card], key=hand_order)
        else:
            t.hand[seat] = sorted([*t.hand[seat], *t.discard, card], key=hand_order)
            t.discard = []
        self._pass_turn(t, seat)

    def _do_pickup(self, t: Table, move: Move) -> None:
        self._require_phase(t, "play", "IDIOT-PICKUP-1")
        seat = self._seat(t)
        if t.pending is not None:
            raise IllegalMove("IDIOT-PICKUP-1", "the player has played this turn: play on or stop")
        if not t.discard and "pickup_empty_pile" not in self.bugs:
            raise IllegalMove("IDIOT-PICKUP-3", "the pile is empty: play a card")
        if not self._may_pick_up(t, seat):
            raise IllegalMove("IDIOT-PICKUP-1", "a legal play exists")
        t.hand[seat] = sorted(t.hand[seat] + t.discard, key=hand_order)
        t.discard = []
        if "pickup_plays_again" in self.bugs:
            t.to_act = seat
        else:
            self._pass_turn(t, seat)

    def _do_stop(self, t: Table, move: Move) -> None:
        self._require_phase(t, "play", "IDIOT-TWO-2")
        if t.pending is None:
            raise IllegalMove("IDIOT-TWO-2", "nothing to stop: no follow-up or chain is pending")
        seat = self._seat(t)
        t.pending, t.chain_rank = None, None
        self._pass_turn(t, seat)

    # -- after a play ------------------------------------------------------------------------

    def _after_play(self, t: Table, seat: int, rank: str, played: int, *, blind: bool) -> None:
        burned = self._burns(t, played)
        if burned:
            t.burned.extend(t.discard)
            t.discard = []
        drawn = [] if blind else self._draw_up(t, seat, short="draw_before_play" in self.bugs)
        t.chain_rank = None
        if not t.holds(seat):
            self._go_out(t, seat)
            if t.phase == "over":
                return
            if rank == "2" and "out_two_followup" in self.bugs and not burned and self._followup_allowed(t, blind):
                t.pending = "two_followup"
                return
            self._pass_turn(t, seat, rank=rank)
            return
        if burned:
            self._after_burn(t, seat)
        elif rank == "2" and self._followup_allowed(t, blind):
            t.pending = "two_followup"
        elif not blind and "no_chain" not in self.bugs and any(rank_of(c) == rank for c in drawn):
            t.pending, t.chain_rank = "chain", rank
        else:
            self._pass_turn(t, seat, rank=rank)

    def _followup_allowed(self, t: Table, blind: bool) -> bool:
        if t.options["two_followup"] != "optional" or "two_no_followup" in self.bugs:
            return False
        return not blind or "blind_two_followup" in self.bugs

    def _draw_up(self, t: Table, seat: int, short: bool = False) -> list[str]:
        hand = t.hand[seat]
        want = 3 - len(hand) - short  # short: the top card of the set still counted as held
        if "always_draws_one" in self.bugs:
            want = max(want, 1)
        if "draw_one" in self.bugs:
            want = min(want, 1)
        drawn = []
        while want > 0 and t.draw:
            drawn.append(t.draw.pop())
            want -= 1
        t.hand[seat] = sorted(hand + drawn, key=hand_order)
        return drawn

    def _after_burn(self, t: Table, seat: int) -> None:
        t.pending = None
        if t.options["after_burn"] == "burner" or "burner_plays_again" in self.bugs:
            t.to_act = seat
            t.opening_turn = False
        else:
            self._pass_turn(t, seat)

    def _go_out(self, t: Table, seat: int) -> None:
        t.out.append(seat)
        left = [s for s in range(t.n) if s not in t.out]
        if len(left) == 1:
            t.phase, t.to_act, t.pending, t.chain_rank = "over", None, None, None
            t.loser = left[0]
            t.over_reported = "loser_not_reported" not in self.bugs

    def _pass_turn(self, t: Table, seat: int, rank: str | None = None) -> None:
        t.pending, t.chain_rank = None, None
        if rank == "Q" and "queen_reverses" in self.bugs:
            t.direction = -t.direction
        start = seat
        if t.opening_turn and "after_opening_left_of_dealer" in self.bugs:
            start = t.dealer
        t.opening_turn = False
        nxt = self._next_active(t, start)
        if rank == "8" and "eight_skips" in self.bugs:
            nxt = self._next_active(t, nxt)
        t.to_act = nxt

    @staticmethod
    def _next_active(t: Table, seat: int) -> int:
        for step in range(1, t.n + 1):
            candidate = (seat + step * t.direction) % t.n
            if candidate not in t.out:
                return candidate
        return seat

    # -- parsing -----------------------------------------------------------------------------

    @staticmethod
    def _require_phase(t: Table, phase: str, clause: str) -> None:
        if t.phase != phase:
            raise IllegalMove(PHASE_CLAUSE.get(t.phase, clause), f"not in phase {t.phase}")

    @staticmethod
    def _known_cards(cards: list[str]) -> None:
        for card in cards:
            if not is_card(card):
                raise IllegalMove("IDIOT-SETUP-2", f"{card!r} names no card")

    @staticmethod
    def _cards(move: Move, field: str) -> list[str]:
        value = move.get(field)
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise BadRequest(f"move.{field}: a list of card strings is required")
        return list(value)

    @staticmethod
    def _card(move: Move, field: str) -> str:
        value = move.get(field)
        if not isinstance(value, str):
            raise BadRequest(f"move.{field}: a card string is required")
        if not is_card(value):
            raise IllegalMove("IDIOT-SETUP-2", f"{value!r} names no card")
        return value

    @classmethod
    def _rows(cls, move: Move, field: str) -> list[list[str]]:
        value = move.get(field)
        if not isinstance(value, list) or not all(
            isinstance(row, list) and all(isinstance(c, str) for c in row) for row in value
        ):
            raise BadRequest(f"move.{field}: a list of rows of card strings is required")
        return [list(row) for row in value]


def engine(*bugs: str) -> IdiotEngine:
    """The engine with the named planted bugs enabled (none: the correct engine)."""
    unknown = [b for b in bugs if b not in BUGS]
    if unknown:
        raise ValueError(f"unknown bug(s): {', '.join(unknown)}")
    return IdiotEngine(frozenset(bugs))


bugs = Factories(engine, BUGS, lambda name: (name,))


def house_engine(name: str) -> IdiotEngine:
    """The engine of a ``HOUSE`` entry: its bugs, and the house options its hello declares."""
    entry = HOUSE[name]
    return IdiotEngine(frozenset(entry.bugs), entry.declares)


house = Factories(house_engine, HOUSE, lambda name: (name,))
