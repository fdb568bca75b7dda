"""Idiot (Shithead / Palace family, 2+ players, one deal is the whole game) stated as properties.

Read from rules.md §2 (clauses, the ambiguity defaults IDIOT-AMB-1 to IDIOT-AMB-16, the §2.3b further decisions) and the
contract (protocol.md §4 "idiot"), without the reference engine.  A small model of the rules
predicts, for every transition, where every card goes, whether the pile burns, what the player
draws, what is pending, who acts next, who is out and whether the game is over; it also computes
the exact legal move set of every state (required moves, plus the few the contract leaves open).

Clauses: IDIOT-SETUP-1/2, IDIOT-RANK-1, IDIOT-DEAL-1/2, IDIOT-SWAP-1, IDIOT-OPEN-1/2/3,
IDIOT-PLAY-1/2, IDIOT-MULTI-1, IDIOT-PICKUP-1/2/3, IDIOT-DRAW-1/2/3, IDIOT-TABLE-1/2/3,
IDIOT-BLIND-1/2/3, IDIOT-TWO-1/2, IDIOT-BURN-10, IDIOT-BURN-4KIND, IDIOT-BURN-6S,
IDIOT-BURN-NEXT, IDIOT-OUT-1, IDIOT-END-1 and the invariants IDIOT-INV-1..11.

Left open (never failed): when `dealer` changes, the order of cards inside hands and table
rows, whether empty zones are present, the phase name while a follow-up of the opening play is
pending, and two assumptions of docs/rules/idiot.md (a pickup during a pending follow-up or
chain, and the IDIOT-TABLE-3 combination as a follow-up or chain play): offered or not, both pass.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter
from collections.abc import Collection, Sequence
from typing import Any, ClassVar

from hypothesis import strategies as st

from ruleproof.model.engine import JSONObject
from ruleproof.model.findings import Setup
from ruleproof.model.notation import STANDARD_DECK
from ruleproof.properties import draws
from ruleproof.properties.base import GameProperties, IntRange
from ruleproof.properties.checks import CheckRegistry
from ruleproof.properties.options import judge_start
from ruleproof.properties.snapshot import Snapshot, Step, move_key

GAME = "idiot"

ORDER = "3456789TJQKA"  # IDIOT-RANK-1: the "same or higher" order; a 2 is never higher than anything
LADDER = list(ORDER)  # IDIOT-OPEN-1: 3, 4, ..., 10, J, Q, K, A, then "any" (IDIOT-OPEN-3)

checks = CheckRegistry()


# -- the rules as small functions ------------------------------------------------------------
def rk(card: str) -> str:
    return card[0]


ZONE_ROWS = ("face_down", "face_up", "hand")  # each seat's three rows of three cards, as dealt


def laid_out(cards: list[str], n: int) -> dict[str, Any]:
    """A deal of shuffled ``cards`` to ``n`` seats: three rows of three each, the rest the draw pile."""
    rows = [[cards[3 * (k * n + s) : 3 * (k * n + s) + 3] for s in range(n)] for k in range(3)]
    return {"type": "deal", "face_down": rows[0], "face_up": rows[1], "hand": rows[2], "draw": cards[9 * n :]}


def default_decks(n: int) -> int:
    """IDIOT-SETUP-2's default: one deck per three players, and enough for nine cards a player."""
    return max(math.ceil(n / 3), math.ceil(9 * n / 52))


def pool(decks: int) -> Counter[str]:
    """IDIOT-SETUP-2: D standard decks shuffled together."""
    return Counter({c: decks for c in STANDARD_DECK})


def playable(r: str, pile: list[str], opts: dict[str, Any]) -> bool:
    """IDIOT-PLAY-1/-2, IDIOT-TWO-1, IDIOT-BURN-10: may a set of rank r go on this pile?"""
    if not pile or r == "2" or (r == "T" and opts["ten_anytime"]):
        return True
    top = rk(pile[-1])
    if top == "2":
        return True
    return ORDER.index(r) >= ORDER.index(top)


def top_run(pile: list[str]) -> int:
    """IDIOT-AMB-8: the maximal run of same-rank cards on top of the pile."""
    if not pile:
        return 0
    r, n = rk(pile[-1]), 0
    for c in reversed(pile):
        if rk(c) != r:
            break
        n += 1
    return n


def burn_kind(pile: list[str], opts: dict[str, Any]) -> str | None:
    """The clause of the burn this pile triggers (IDIOT-BURN-10/-4KIND/-6S), or None."""
    if not pile:
        return None
    r, run = rk(pile[-1]), top_run(pile)
    if r == "T":
        return "IDIOT-BURN-10"
    if r == "6":
        return "IDIOT-BURN-6S" if run >= opts["six_burn"] else None
    return "IDIOT-BURN-4KIND" if run >= 4 else None


def run_past_twos(pile: list[str]) -> int:
    """The cards of the top card's rank on top of the pile, counting through 2s (IDIOT-BURN-4KIND's
    misreading: 9 9 2 9 9 is a run of two, not four)."""
    if not pile or rk(pile[-1]) == "2":
        return 0
    r, n = rk(pile[-1]), 0
    for c in reversed(pile):
        if rk(c) == r:
            n += 1
        elif rk(c) != "2":
            break
    return n


def burn_clause_for(r: str) -> str:
    return "IDIOT-BURN-10" if r == "T" else "IDIOT-BURN-6S" if r == "6" else "IDIOT-BURN-4KIND"


def submultisets(cards: Counter[str]) -> list[list[str]]:
    """Every non-empty sub-multiset (sorted card lists)."""
    items = sorted(cards.items())
    out = []
    for counts in itertools.product(*(range(n + 1) for _, n in items)):
        picked = [c for (c, _), k in zip(items, counts, strict=False) for _ in range(k)]
        if picked:
            out.append(picked)
    return out


def by_rank(cards: Counter[str]) -> dict[str, dict[str, int]]:
    """The cards grouped by rank, each group a card -> count dict (plain dicts: read, never counted into)."""
    out: dict[str, dict[str, int]] = {}
    for c, n in cards.items():
        group = out.get(c[0])
        if group is None:
            group = out[c[0]] = {}
        group[c] = n
    return out


def progress_score(m: dict[str, Any]) -> int:
    """Lower is more progress: keep 2s and 10s, shed low cards and several at once, pick up last."""
    t = m.get("type")
    if t == "play":
        cards = m.get("cards") or ["3C"]
        r = rk(cards[0])
        base = 13 if r == "2" else 12 if r == "T" else ORDER.index(r) if r in ORDER else 0
        return base - len(cards)
    return {"pickup": 100, "stop": 30, "decline": 20, "swap": 10}.get(t or "", 0)


def play(cards: list[str]) -> dict[str, Any]:
    return {"type": "play", "cards": list(cards)}


def size(c: Counter[str]) -> int:
    return sum(c.values())


def same(a: Counter[str], b: Counter[str]) -> bool:
    """``a == b`` for multisets, fast: Counter's own ``==`` walks both key sets in Python, while equal
    dicts are equal Counters; only dicts that differ (a zero count, or a real difference) take the slow test."""
    return dict.__eq__(a, b) or a == b


def within(want: Counter[str], *zones: Counter[str]) -> bool:
    """``want <= zones[0] + zones[1] + ...`` for multisets, without Counter's ``+`` and ``<=`` (each a walk
    over every key in Python); every Counter here holds positive counts only, so the two agree."""
    if len(zones) == 1:
        have = zones[0]
        return all(k <= have[c] for c, k in want.items())
    return all(k <= sum(z[c] for z in zones) for c, k in want.items())


def take(have: Counter[str], cards: Counter[str]) -> None:
    """``have -= cards`` for cards ``have`` holds: only the played cards' counts are touched (Counter's ``-=``
    walks every key of the hand)."""
    for c, k in cards.items():
        left = have[c] - k
        if left > 0:
            have[c] = left
        else:
            have.pop(c, None)


class Rows:
    """One zone of every seat: the card lists as listed, and each seat's multiset built on first use.

    A step's checks read the multisets of one or two seats; building all 3 x players of them
    per snapshot was the largest single cost of a step.
    """

    __slots__ = ("_counts", "lists")

    def __init__(self, lists: list[list[str]]) -> None:
        self.lists = lists
        self._counts: list[Counter[str] | None] = [None] * len(lists)

    def __getitem__(self, s: int) -> Counter[str]:
        c = self._counts[s]
        if c is None:
            c = self._counts[s] = Counter(self.lists[s])
        return c

    def fresh(self, s: int) -> Counter[str]:
        """A new multiset of the seat's cards, for the caller to change."""
        c = self._counts[s]
        return Counter(self.lists[s]) if c is None else c.copy()

    def size(self, s: int) -> int:
        return len(self.lists[s])

    def same(self, other: Rows, s: int) -> bool:
        """The seat holds the same multiset in both (identical lists need no Counter)."""
        return self.lists[s] == other.lists[s] or same(self[s], other[s])


@functools.cache
def seat_zones(n: int) -> list[str]:
    """The zone names of every seat's hand, then face-up, then face-down row (formatted once per player count)."""
    return [f"{z}/{s}" for z in ("hand", "face_up", "face_down") for s in range(n)]


class View:
    """The rule-relevant parts of one snapshot (built once per snapshot; multisets on first use)."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        raw = snap.raw  # read directly: the Snapshot properties cost a call each, for every view
        n = raw["players"]
        self.n = n
        get = raw["zones"].get
        rows = [get(name) or [] for name in seat_zones(n)]
        self.hand, self.fu, self.fd = Rows(rows[:n]), Rows(rows[n : 2 * n]), Rows(rows[2 * n :])
        self.fd_list = self.fd.lists
        # the state's own lists, not copies: no check changes them in place
        self.draw: list[str] = get("draw") or []
        self.pile: list[str] = get("discard") or []
        self.burned_list = get("burned") or []
        self.out: list[int] = raw.get("out") or []
        self.pending = raw.get("pending")
        self.phase: str = raw["phase"]
        self.seat: int | None = raw["to_act"]
        self.opts: dict[str, Any] = raw["options"]
        # built on first use (by hand, not cached_property: its lock costs more than the rest of an access)
        self.legal: LegalSets | None = None  # legal_set of this snapshot, once legal_moves has judged it
        self._holding: list[bool] | None = None
        self._count = -1

    @functools.cached_property
    def burned(self) -> Counter[str]:
        return Counter(self.burned_list)

    def allows(self, move: dict[str, Any]) -> bool:
        """The rules allow ``move`` here, when the legal set is known already and holds it (required or
        left open); False says only "ask why_illegal"."""
        if self.legal is None:
            return False
        req, opt = self.legal
        k = key_of(move)
        return k in req or k in opt

    @functools.cached_property
    def total(self) -> Counter[str]:
        """Every card in every zone, as a multiset (one Counter over all zones at once)."""
        return Counter(itertools.chain.from_iterable(self.snap.raw["zones"].values()))

    @property
    def count(self) -> int:
        """How many cards all zones hold together (``size(total)`` without the Counter)."""
        if self._count < 0:
            self._count = sum(map(len, self.snap.raw["zones"].values()))
        return self._count

    def holds(self, s: int) -> bool:
        return bool(self.hand.lists[s] or self.fu.lists[s] or self.fd.lists[s])

    @property
    def holding(self) -> list[bool]:
        """``holds`` of every seat (turn_outcome and progress both ask it of every seat)."""
        got = self._holding
        if got is None:
            rows = zip(self.hand.lists, self.fu.lists, self.fd.lists, strict=True)
            got = self._holding = [bool(h or u or d) for h, u, d in rows]
        return got

    def zone_of(self, s: int) -> str:
        """The seat's open zone: hand (or nothing while the draw pile has cards), face-up, face-down."""
        if self.hand.lists[s] or self.draw:
            return "hand"
        if self.fu.lists[s]:
            return "face_up"
        return "face_down"


def next_active(seat: int, n: int, out: Collection[int]) -> int | None:
    for i in range(1, n + 1):
        s = (seat + i) % n
        if s not in out:
            return s
    return None


def legal_set(v: View) -> LegalSets:
    """The moves the rules require in this state (key -> (move, clause)) and those left open."""
    s = v.seat
    if s is None or v.phase in ("deal", "over"):
        return {}, set()
    moves = LegalSet(v, s)
    if v.phase == "swap":
        moves.swap_phase()
    elif v.pending == "chain":
        moves.chain()
    elif v.pending == "two_followup":
        moves.two_followup(s)
    elif v.phase == "opening":
        moves.opening()
    else:
        moves.play_phase(s)
    return moves.req, moves.opt


Key = bytes | str | tuple[Any, ...]
LegalSets = tuple[dict[Key, tuple[dict[str, Any], str]], set[Key]]  # required moves (key -> move, clause), open keys


def key_of(m: Any) -> Key:
    """A key that two moves share exactly when their ``move_key`` is the same (protocol.md §2), cheaper for
    the moves of the schema: a play is its sorted cards, a blind play its index, a swap its two cards, a
    move of a type alone that type.  Anything else is its ``move_key`` (bytes: never equal to a str or tuple)."""
    if type(m) is not dict:
        return move_key(m)
    t = m.get("type")
    if len(m) == 2:
        if t == "play" and type(cards := m.get("cards")) is list:
            return (cards[0],) if len(cards) == 1 else tuple(sorted(cards, key=str))
        if t == "play_blind" and type(i := m.get("index")) is int:
            return ("blind", i)
    elif len(m) == 1 and type(t) is str:
        return t
    elif len(m) == 3 and t == "swap" and type(h := m.get("hand")) is str and type(f := m.get("face_up")) is str:
        return ("swap", h, f)
    return move_key(m)


@functools.lru_cache(maxsize=4096)
def _plays_of(items: tuple[tuple[str, int], ...]) -> tuple[tuple[dict[str, Any], Key], ...]:
    # the same few same-rank groups come back step after step (the moves are shared: nothing changes them)
    return tuple((play(cards), key_of(play(cards))) for cards in submultisets(Counter(dict(items))))


def group_plays(cards: dict[str, int]) -> tuple[tuple[dict[str, Any], Key], ...]:
    """Every play of a non-empty sub-multiset of ``cards`` (sorted card lists, as submultisets) with its key."""
    return _plays_of(tuple(sorted(cards.items())))


@functools.lru_cache(maxsize=4096)
def listed_group_plays(cards: tuple[str, ...]) -> tuple[tuple[dict[str, Any], Key], ...]:
    """``group_plays`` of the cards of a sorted tuple (one cache lookup instead of building the multiset)."""
    return group_plays(Counter(cards))


def rank_groups(cards: list[str]) -> dict[str, list[str]]:
    """The cards grouped by rank, the ranks in the order they first appear (as ``by_rank`` of their multiset)."""
    out: dict[str, list[str]] = {}
    for c in cards:
        group = out.get(c[0])
        if group is None:
            out[c[0]] = [c]
        else:
            group.append(c)
    return out


SIMPLE_KEYS = {t: key_of({"type": t}) for t in ("ready", "decline", "pickup", "stop")}


class LegalSet:
    """legal_set's work: the required moves by key, with the clause that requires each, and the keys left open."""

    def __init__(self, v: View, s: int) -> None:
        self.v, self.s = v, s
        self.req: dict[Key, tuple[dict[str, Any], str]] = {}
        self.opt: set[Key] = set()

    # the seat's multisets, built only when a rule reads them (the play phase reads the card lists)
    @property
    def hand(self) -> Counter[str]:
        return self.v.hand[self.s]

    @property
    def fu(self) -> Counter[str]:
        return self.v.fu[self.s]

    def add(self, move: dict[str, Any], clause: str) -> None:
        self.req[key_of(move)] = (move, clause)

    def add_simple(self, kind: str, clause: str) -> None:
        self.req[SIMPLE_KEYS[kind]] = ({"type": kind}, clause)

    def plays(self, cards: dict[str, int], clause: str) -> None:
        for move, key in group_plays(cards):
            self.req[key] = (move, clause)

    def blind(self, s: int, clause: str) -> None:
        for i in range(len(self.v.fd_list[s])):
            self.add({"type": "play_blind", "index": i}, clause)

    def combos(self, r: str, clause_opt: bool) -> None:
        """IDIOT-TABLE-3: draw pile empty, the whole hand of rank r, plus face-up cards of rank r."""
        hand = self.hand
        if self.v.draw or not hand or {rk(c) for c in hand} != {r}:
            return
        extra = Counter({c: k for c, k in self.fu.items() if rk(c) == r})
        for f in submultisets(extra):
            m = play(sorted(list(hand.elements()) + f))
            if clause_opt:
                self.opt.add(key_of(m))
            else:
                self.add(m, "IDIOT-TABLE-3")

    def swap_phase(self) -> None:
        for h in self.hand:
            for f in self.fu:
                self.add({"type": "swap", "hand": h, "face_up": f}, "IDIOT-SWAP-1")
        self.add_simple("ready", "IDIOT-SWAP-1")

    def chain(self) -> None:
        pile = self.v.pile
        r = rk(pile[-1]) if pile else None
        self.plays(Counter({c: k for c, k in self.hand.items() if rk(c) == r}), "IDIOT-DRAW-3")
        if r:
            self.combos(r, True)
        self.add_simple("stop", "IDIOT-DRAW-3")
        self.opt.add(SIMPLE_KEYS["pickup"])

    def two_followup(self, s: int) -> None:
        zone = self.v.zone_of(s)
        if zone == "face_down":
            self.blind(s, "IDIOT-TWO-2")
        else:
            for r, cs in by_rank(self.hand if zone == "hand" else self.fu).items():
                self.plays(cs, "IDIOT-TWO-2")
                if zone == "hand":
                    self.combos(r, True)
        self.add_simple("stop", "IDIOT-TWO-2")
        self.opt.add(SIMPLE_KEYS["pickup"])

    def opening(self) -> None:
        rank = self.v.snap.get("opening_rank")
        for r, cs in by_rank(self.hand).items():
            if rank in ("any", r):
                self.plays(cs, "IDIOT-OPEN-3" if rank == "any" else "IDIOT-OPEN-1")
        if rank != "any":
            self.add_simple("decline", "IDIOT-OPEN-1")

    def play_clauses(self, zone: str, r: str) -> tuple[str, str]:
        """The clauses that allow a play of one card, and of several, of rank ``r`` from ``zone``."""
        v = self.v
        if zone == "face_up":
            return "IDIOT-TABLE-1", "IDIOT-TABLE-2"
        if not v.pile:
            one = "IDIOT-PLAY-1"
        elif r == "2":
            one = "IDIOT-TWO-1"
        elif r == "T" and v.opts["ten_anytime"]:
            one = "IDIOT-BURN-10"
        else:
            one = "IDIOT-PLAY-2"
        return one, "IDIOT-MULTI-1"

    def play_phase(self, s: int) -> None:
        """Nothing pending: pickup, blind cards, or plays of a playable rank from the open zone."""
        v = self.v
        zone = v.zone_of(s)
        if v.pile:
            self.add_simple("pickup", "IDIOT-PICKUP-1")
        if zone == "face_down":
            self.blind(s, "IDIOT-BLIND-1")
            return
        groups = rank_groups((v.hand if zone == "hand" else v.fu).lists[s])
        # IDIOT-TABLE-3 needs the draw pile empty and a hand of one rank
        combos = zone == "hand" and not v.draw and len(groups) == 1
        for r, cs in groups.items():
            if not playable(r, v.pile, v.opts):
                continue
            one, several = self.play_clauses(zone, r)
            for move, key in listed_group_plays(tuple(sorted(cs))):
                self.req[key] = (move, several if len(move["cards"]) > 1 else one)
            if combos:
                self.combos(r, False)


def split_play(v: View, cards: list[str], hand: Counter[str] | None = None) -> tuple[Counter[str], Counter[str]] | None:
    """Which zones a play takes its cards from (hand first), or None if not from the open zone.
    ``hand``: the seat's hand as a multiset, when the caller has one already."""
    s = v.seat
    assert s is not None
    want = Counter(cards)
    if hand is None:
        hand = v.hand[s]
    if hand or v.draw:
        if within(want, hand):
            return want, Counter()  # the usual play: no face-up multiset needed
        if not v.draw and within(hand, want) and within(want - hand, v.fu[s]):
            return hand.copy(), want - hand  # IDIOT-TABLE-3
        return None
    if within(want, v.fu[s]):
        return Counter(), want
    return None


def why_illegal(v: View, move: dict[str, Any]) -> str | None:
    """None if the rules allow ``move`` here (required or left open); else the clause it breaks."""
    t = move.get("type")
    s = v.seat
    if s is None:
        return "IDIOT-END-1"
    if v.phase == "swap":
        return _why_illegal_swapping(v, s, move)
    if t in ("swap", "ready"):
        return "IDIOT-SWAP-1"
    if t == "play":
        return _why_illegal_play(v, s, move)
    return _why_illegal_turn(v, s, move)


def _why_illegal_swapping(v: View, s: int, move: dict[str, Any]) -> str | None:
    """IDIOT-SWAP-1: in the swap phase, a swap of a hand card for a face-up card, or ready."""
    t = move.get("type")
    if t == "swap":
        ok = move.get("hand") in v.hand[s] and move.get("face_up") in v.fu[s]
        return None if ok else "IDIOT-SWAP-1"
    return None if t == "ready" else "IDIOT-SWAP-1"


def _why_illegal_turn(v: View, s: int, move: dict[str, Any]) -> str | None:
    """A decline (IDIOT-OPEN-1/3), stop (IDIOT-TWO-2 / IDIOT-DRAW-3), pickup (IDIOT-PICKUP-3) or blind
    play (IDIOT-BLIND-1); any other type is no move of the game (IDIOT-MULTI-1)."""
    t = move.get("type")
    if t == "decline":
        if v.phase == "opening" and not v.pending:
            return "IDIOT-OPEN-3" if v.snap.get("opening_rank") == "any" else None
        return "IDIOT-OPEN-1"
    if t == "stop":  # ends a chain or a two's follow-up, and nothing else
        return None if v.pending in ("chain", "two_followup") else "IDIOT-TWO-2"
    if t == "pickup":
        return "IDIOT-PICKUP-3" if not v.pile else None if v.phase == "play" else "IDIOT-OPEN-1"
    return _why_illegal_blind(v, s, move) if t == "play_blind" else "IDIOT-MULTI-1"


def _why_illegal_blind(v: View, s: int, move: dict[str, Any]) -> str | None:
    """IDIOT-BLIND-1: a face-down card, by its index, only when face-down cards are the open zone."""
    i = move.get("index")
    zone = v.zone_of(s)
    if v.phase != "play" or v.pending == "chain" or zone != "face_down":
        return "IDIOT-BLIND-1"
    return None if isinstance(i, int) and 0 <= i < len(v.fd_list[s]) else "IDIOT-BLIND-1"


def _why_illegal_play(v: View, s: int, move: dict[str, Any]) -> str | None:
    """A play: cards of one rank (IDIOT-MULTI-1), from the open zone, of a rank the state allows."""
    cards = move.get("cards") or []
    if not cards or len({rk(c) for c in cards}) != 1:
        return "IDIOT-MULTI-1"
    parts = split_play(v, cards)
    if parts is None:
        return _not_open_cards(v, s, Counter(cards))
    from_hand, from_fu = parts
    return _why_illegal_rank(v, rk(cards[0]), from_hand, from_fu)


def _not_open_cards(v: View, s: int, want: Counter[str]) -> str:
    """The clause of a play not taken from the seat's open zone: a combination too early
    (IDIOT-TABLE-3), face-up cards while the hand holds some (IDIOT-TABLE-1), face-down cards
    (IDIOT-BLIND-1), or cards the seat does not hold (IDIOT-MULTI-1)."""
    hand = v.hand[s]
    if hand and v.draw and hand <= want and (want - hand) <= v.fu[s] and len({rk(c) for c in hand}) == 1:
        return "IDIOT-TABLE-3"  # the combination, but the draw pile is not empty yet
    if v.hand[s] and want <= v.hand[s] + v.fu[s]:
        return "IDIOT-TABLE-1"
    if want <= v.hand[s] + v.fu[s] + v.fd[s] and not (want <= v.hand[s] + v.fu[s]):
        return "IDIOT-BLIND-1"
    return "IDIOT-MULTI-1"


def _why_illegal_rank(v: View, r: str, from_hand: Counter[str], from_fu: Counter[str]) -> str | None:
    """Cards of rank ``r`` from the open zone: the opening ladder's rank (IDIOT-OPEN-1, no face-up
    cards: IDIOT-TABLE-1), a chain's rank (IDIOT-DRAW-3), else a rank playable on the pile (IDIOT-PLAY-2)."""
    if from_fu and from_hand and v.phase == "opening":
        return "IDIOT-TABLE-1"
    if v.phase == "opening" and not v.pending:
        if from_fu:
            return "IDIOT-TABLE-1"
        return None if v.snap.get("opening_rank") in ("any", r) else "IDIOT-OPEN-1"
    if v.pending == "chain":
        return None if v.pile and r == rk(v.pile[-1]) else "IDIOT-DRAW-3"
    if v.pending == "two_followup":
        return None
    return None if playable(r, v.pile, v.opts) else "IDIOT-PLAY-2"


# -- the properties ----------------------------------------------------------------------------
class IdiotProperties(GameProperties):
    game: ClassVar[str] = GAME
    deal_clause: ClassVar[str] = "IDIOT-DEAL-1"
    checks: ClassVar[CheckRegistry] = checks
    ordered_zones = frozenset({"discard", "draw"})
    option_clauses: ClassVar[dict[tuple[str, Any], tuple[str, ...]]] = {}
    step_scale: ClassVar[float] = 1.5
    # the readings of "four or more of one rank on top": a count of the cards of one play, of the
    # run across plays, of exactly four, or of the rank anywhere near the top (docs/rules/idiot.md)
    situations: ClassVar[dict[str, tuple[str, ...]]] = {
        "IDIOT-BURN-4KIND": ("one-play", "across-plays", "five-or-more", "run-broken"),
    }

    def __init__(self, setup: Setup, ledger: Any) -> None:
        super().__init__(setup, ledger)
        self.n = setup.players
        # an option left out of new_game takes the contract's default (the kit's setup probes do that)
        self.decks = setup.options.get("decks", default_decks(self.n))
        self.pool = pool(self.decks)  # IDIOT-INV-1's multiset, built once per game
        self.pool_sorted = sorted(self.pool.elements())  # the same, as a list to compare with sorted zones
        self.declines = 0  # declines in a row at the current ladder rank
        self.stubborn = False  # this game's opening policy (decline whenever allowed)
        self.style: int | None = None  # best of how many drawn moves
        self.newer: View | None = None  # the views of the last two snapshots seen, the newer one last built
        self.older: View | None = None
        self.conserved: Snapshot | None = None  # the last snapshot judged to hold the pool (IDIOT-INV-1)

    def view(self, snap: Snapshot) -> View:
        """The view of ``snap``; the views of the last two snapshots are kept (a step's before and after)."""
        v = self.newer
        if v is not None and v.snap is snap:
            return v
        v = self.older
        if v is not None and v.snap is snap:
            return v
        v = View(snap)
        self.older, self.newer = self.newer, v
        return v

    def views(self, step: Step) -> tuple[View, View]:
        """``view(step.before), view(step.after)``, in one call when both are the views kept."""
        older, newer = self.older, self.newer
        if older is not None and newer is not None and older.snap is step.before and newer.snap is step.after:
            return older, newer
        return self.view(step.before), self.view(step.after)

    def require(self, clause: str, ok: bool, message: str, expected: Any = None, got: Any = None) -> None:
        """Fail ``clause`` when ``ok`` is false, without counting it as exercised."""
        if not ok:
            self.fail(clause, message, expected, got)

    # -- what to draw ------------------------------------------------------------------
    options_contract: ClassVar[dict[str, list[Any] | IntRange]] = {
        "decks": IntRange(1),
        "after_burn": ["next", "burner"],
        "six_burn": [3, 4],
        "two_followup": ["optional", "none"],
        "ten_anytime": [True, False],
    }

    @classmethod
    def default_options(cls, players: int, sent: JSONObject) -> JSONObject:
        # enough decks for three players a deck and nine cards a player (IDIOT-SETUP-1)
        return {
            "decks": default_decks(players),
            "after_burn": "next",
            "six_burn": 3,
            "two_followup": "optional",
            "ten_anytime": True,
        }

    @classmethod
    def setups(cls, declared: dict[str, Any]) -> st.SearchStrategy[Setup]:
        players = sorted(declared["players"])
        small = [p for p in players if 2 <= p <= 4] or players[:1]
        some = [p for p in players if 5 <= p <= 6]
        options = declared.get("options", {})

        def choices(name: str, default: list[Any]) -> list[Any]:
            got = options.get(name)
            return list(got) if isinstance(got, list) and got else default

        after_burn = choices("after_burn", ["next"])
        six_burn = choices("six_burn", [3])
        two_followup = choices("two_followup", ["optional"])
        ten_anytime = choices("ten_anytime", [True])

        @st.composite
        def setup(draw: Any) -> Setup:
            pick = st.sampled_from(small)
            n = draw(st.one_of(pick, pick, pick, st.sampled_from(some)) if some else pick, label="players")
            decl = options.get("decks")
            need = math.ceil(9 * n / 52)  # the kit never asks for 9n > 52D
            default = default_decks(n)
            if isinstance(decl, dict):
                lo, hi = max(decl["min"], need), decl["max"]
                picks = sorted({d for d in (lo, default, lo + 1) if lo <= d <= hi}) or [lo]
            elif isinstance(decl, list) and decl:
                picks = [d for d in decl if d >= need] or [max(decl)]
            else:
                picks = [default]
            decks = draw(st.sampled_from(picks), label="decks")
            opts = {
                "decks": decks,
                "after_burn": draw(st.sampled_from(after_burn), label="after_burn"),
                "six_burn": draw(st.sampled_from(six_burn), label="six_burn"),
                "two_followup": draw(st.sampled_from(two_followup), label="two_followup"),
                "ten_anytime": draw(st.sampled_from(ten_anytime), label="ten_anytime"),
            }
            dealer = draw(st.integers(0, n - 1), label="dealer")
            return Setup(GAME, n, dealer, opts)

        return setup()

    def deal(self, snap: Snapshot, data: st.DataObject) -> dict[str, Any]:
        cards = list(data.draw(draws.shuffled(sorted(pool(self.decks).elements())), label="deal"))
        return self._deal_of(cards)

    def _deal_of(self, cards: list[str]) -> dict[str, Any]:
        return laid_out(cards, self.n)

    @classmethod
    def fresh_deal(cls, setup: Setup, seed: int) -> dict[str, Any] | None:
        n = setup.players
        cards = sorted(pool(setup.options.get("decks", default_decks(n))).elements())
        random.Random(seed).shuffle(cards)
        return laid_out(cards, n)

    def play_on(self, snap: Snapshot) -> dict[str, Any]:
        """The listed move that makes the most progress (``ready`` over a swap, which can go back and
        forth for ever; low cards and several at once; a pickup last), the first such when tied."""
        return min(snap.moves, key=progress_score)

    @classmethod
    def smaller_setups(cls, setup: Setup, declared: dict[str, Any]) -> list[Setup]:
        """Fewer players, two first, each with the fewest decks it needs (IDIOT-SETUP-1): every turn
        around the table, and the swap phase, get shorter."""
        decl = (declared.get("options") or {}).get("decks")
        out = []
        for n in sorted(p for p in declared.get("players", []) if 2 <= p < setup.players):
            need = math.ceil(9 * n / 52)
            if isinstance(decl, dict):
                decks = max(decl["min"], need)
            elif isinstance(decl, list) and decl:
                decks = min((d for d in decl if d >= need), default=max(decl))
            else:
                decks = default_decks(n)
            out.append(Setup(GAME, n, setup.dealer % n, {**setup.options, "decks": decks}))
        return out

    @classmethod
    def adapt_deal(cls, deal: dict[str, Any], setup: Setup) -> dict[str, Any] | None:
        """The remaining seats keep their face-down, face-up and hand cards and the draw pile its
        order, as far as the new pool (IDIOT-SETUP-2) has the cards; the rest fills the gaps."""
        left = pool(setup.options.get("decks", default_decks(setup.players)))
        n = setup.players

        def take(cards: Any) -> list[str]:
            kept = []
            for c in cards:
                if isinstance(c, str) and left[c] > 0:
                    left[c] -= 1
                    kept.append(c)
            return kept

        try:
            rows = {z: [take(deal[z][s]) if s < len(deal[z]) else [] for s in range(n)] for z in ZONE_ROWS}
            dropped = take([c for z in ZONE_ROWS for seat in deal[z][n:] for c in seat])
            draw = take(deal.get("draw") or [])
        except (KeyError, TypeError):
            return None
        # the gaps are filled from the bottom of what is left, so the top of the draw pile (its end,
        # drawn first) stays as recorded
        rest = dropped + sorted(left.elements()) + draw
        for z in ZONE_ROWS:
            for row in rows[z]:
                while len(row) < 3 and rest:
                    row.append(rest.pop(0))
        return {"type": "deal", **rows, "draw": rest}

    def choose(self, snap: Snapshot, pick: int, data: st.DataObject) -> dict[str, Any]:
        """Index into the engine's moves; best of k draws by a cheap progress score (plays of low ranks and
        of several cards first, voluntary pickups last), k drawn once per game; some games decline every
        opening they can, to climb the ladder (IDIOT-OPEN-1/-3)."""
        moves = snap.moves
        if self.style is None:
            self.style = data.draw(st.sampled_from([3, 3, 3, 2, 1]), label="style")
            self.stubborn = data.draw(st.integers(0, 7), label="stubborn") == 0
        if self.stubborn and snap.phase == "opening":
            j = next((k for k, m in enumerate(moves) if m.get("type") == "decline"), None)
            if j is not None:
                return moves[j]
        n = len(moves)
        picks = [(pick // n**j) % n for j in range(self.style)]  # style indices from one drawn integer
        if self.style == 1 and moves[picks[0]].get("type") == "pickup" and n > 1:
            picks = [(pick // n) % n]
        return moves[min(picks, key=lambda i: progress_score(moves[i]))]

    @checks.hook(
        "IDIOT-SETUP-2",
        "IDIOT-DEAL-1",
        "IDIOT-DEAL-2",
        "IDIOT-SWAP-1",
        "IDIOT-OPEN-1",
        "IDIOT-OPEN-3",
        "IDIOT-PLAY-2",
        "IDIOT-MULTI-1",
        "IDIOT-PICKUP-3",
        "IDIOT-DRAW-3",
        "IDIOT-TABLE-1",
        "IDIOT-BLIND-1",
        "IDIOT-TWO-2",
    )
    def illegal_moves(self, snap: Snapshot) -> Sequence[tuple[dict[str, Any], str]]:
        phase = snap.phase
        if phase == "deal":
            return self._bad_deals()
        if phase == "over" or snap.to_act is None:
            return []
        v = self.view(snap)
        s = snap.to_act
        hand, fu, fd = v.hand[s], v.fu[s], v.fd[s]
        others: Counter[str] = Counter()
        for o in range(self.n):
            if o != s:
                others.update(v.hand[o])
        foreign = [c for c in others if c not in hand and c not in fu]
        not_held = next((c for c in sorted(pool(1)) if c not in hand and c not in fu and c not in fd), None)
        if phase == "swap":
            return _bad_swaps(hand, fu, fd, not_held)
        # any later phase
        bad: list[tuple[dict[str, Any], str]] = []
        _bad_out_of_turn(bad, snap, v, hand, fu)
        if not_held:
            bad.append((play([not_held]), "IDIOT-MULTI-1"))
        if foreign:
            bad.append((play([foreign[0]]), "IDIOT-MULTI-1"))
        zone = v.zone_of(s)
        _bad_hidden_cards(bad, v, s, zone)
        src = hand if zone == "hand" else fu if zone == "face_up" else Counter()
        _bad_ranks(bad, snap, v, hand, src)
        return bad

    def _bad_deals(self) -> list[tuple[dict[str, Any], str]]:
        """IDIOT-DEAL-1/2: a deal of the wrong sizes or a short draw pile; IDIOT-SETUP-2: a card twice
        (one missing), or no card of the pool."""
        cards = sorted(pool(self.decks).elements())
        good = self._deal_of(cards)
        bad: list[tuple[dict[str, Any], str]] = []
        short = {**good, "hand": [good["hand"][0] + good["draw"][:1], *good["hand"][1:]], "draw": good["draw"][1:]}
        bad.append((short, "IDIOT-DEAL-1"))
        bad.append(
            (
                {**good, "face_down": good["face_down"][:-1], "draw": good["draw"] + good["face_down"][-1]},
                "IDIOT-DEAL-1",
            )
        )
        if good["draw"]:
            bad.append(({**good, "draw": good["draw"][:-1]}, "IDIOT-DEAL-2"))
            extra = good["hand"][0][0]  # one copy too many of a card, one card missing
            bad.append(({**good, "draw": [*good["draw"][:-1], extra]}, "IDIOT-SETUP-2"))
        bad.append(({**good, "hand": [["1Z", *good["hand"][0][1:]], *good["hand"][1:]]}, "IDIOT-SETUP-2"))
        return bad

    # -- checks on the first state -------------------------------------------------------
    @checks.hook("IDIOT-SETUP-1", "IDIOT-SETUP-2", "CONTRACT-SETUP-2", "CONTRACT-SETUP-3")
    def start(self, snap: Snapshot) -> None:
        judge_start(self, snap)  # CONTRACT-SETUP-2/-3 on the kit's setup probes
        n = snap.players
        self.expect("IDIOT-SETUP-1", n >= 2, "Idiot needs at least 2 players", ">= 2", n)
        want = pool(self.decks)
        got = snap.all_cards()
        self.expect(
            "IDIOT-SETUP-2",
            got == want,
            f"the pool is {self.decks} standard deck(s) shuffled together",
            52 * self.decks,
            _diff(got, want),
        )


# -- illegal moves, by the rule they break -------------------------------------------------------
def _bad_swaps(
    hand: Counter[str], fu: Counter[str], fd: Counter[str], not_held: str | None
) -> list[tuple[dict[str, Any], str]]:
    """IDIOT-SWAP-1: a swap of a card not held or a face-down card, a play during the swap phase;
    IDIOT-OPEN-1: a decline before the opening."""
    bad: list[tuple[dict[str, Any], str]] = []
    if not_held and fu:
        bad.append(({"type": "swap", "hand": not_held, "face_up": next(iter(fu))}, "IDIOT-SWAP-1"))
    fd_only = [c for c in fd if c not in fu]
    if fd_only and hand:
        bad.append(({"type": "swap", "hand": next(iter(hand)), "face_up": fd_only[0]}, "IDIOT-SWAP-1"))
    if hand:
        bad.append((play([next(iter(hand))]), "IDIOT-SWAP-1"))
    bad.append(({"type": "decline"}, "IDIOT-OPEN-1"))
    return bad


def _bad_out_of_turn(
    bad: list[tuple[dict[str, Any], str]], snap: Snapshot, v: View, hand: Counter[str], fu: Counter[str]
) -> None:
    """Moves of another phase or state: a swap (IDIOT-SWAP-1), a decline outside the ladder or on "any"
    (IDIOT-OPEN-1/3), a stop with nothing pending (IDIOT-TWO-2), a pickup of no pile (IDIOT-PICKUP-3)."""
    if hand and fu:
        bad.append(({"type": "swap", "hand": next(iter(hand)), "face_up": next(iter(fu))}, "IDIOT-SWAP-1"))
    if snap.phase != "opening":
        bad.append(({"type": "decline"}, "IDIOT-OPEN-1"))
    elif snap.get("opening_rank") == "any":
        bad.append(({"type": "decline"}, "IDIOT-OPEN-3"))
    if not v.pending:
        bad.append(({"type": "stop"}, "IDIOT-TWO-2"))
    if not v.pile and not v.pending:
        bad.append(({"type": "pickup"}, "IDIOT-PICKUP-3"))


def _bad_hidden_cards(bad: list[tuple[dict[str, Any], str]], v: View, s: int, zone: str) -> None:
    """IDIOT-BLIND-1: face-down cards before they are the open zone, or an index past them;
    IDIOT-TABLE-1: face-up cards while the hand holds some."""
    hand, fu, fd = v.hand[s], v.fu[s], v.fd[s]
    if zone != "face_down" and fd:
        bad.append(({"type": "play_blind", "index": 0}, "IDIOT-BLIND-1"))
        fd_only = [c for c in fd if c not in hand and c not in fu]
        if fd_only:
            bad.append((play([fd_only[0]]), "IDIOT-BLIND-1"))
    if zone == "face_down" and 0 < len(v.fd_list[s]) < 3 and v.pending != "chain":
        bad.append(({"type": "play_blind", "index": len(v.fd_list[s])}, "IDIOT-BLIND-1"))
    if hand and fu:
        up_only = [c for c in fu if c not in hand]
        if up_only:
            bad.append((play([up_only[0]]), "IDIOT-TABLE-1"))


def _bad_ranks(
    bad: list[tuple[dict[str, Any], str]], snap: Snapshot, v: View, hand: Counter[str], src: Counter[str]
) -> None:
    """Cards of the wrong rank: two ranks at once (IDIOT-MULTI-1), off the opening ladder's rank
    (IDIOT-OPEN-1), off a chain's rank (IDIOT-DRAW-3), or lower than the pile allows (IDIOT-PLAY-2)."""
    ranks = by_rank(src)
    if len(ranks) >= 2 and v.pending != "chain":
        a, b = sorted(ranks)[:2]
        bad.append((play([next(iter(ranks[a])), next(iter(ranks[b]))]), "IDIOT-MULTI-1"))
    if snap.phase == "opening":
        rank = snap.get("opening_rank")
        if rank != "any":
            wrong = [c for c in hand if rk(c) != rank]
            if wrong:
                bad.append((play([wrong[0]]), "IDIOT-OPEN-1"))
    elif v.pending == "chain" and v.pile:
        wrong = [c for c in hand if rk(c) != rk(v.pile[-1])]
        if wrong:
            bad.append((play([wrong[0]]), "IDIOT-DRAW-3"))
    elif not v.pending and v.pile:
        low = [c for c in src if not playable(rk(c), v.pile, v.opts)]
        if low:
            bad.append((play([low[0]]), "IDIOT-PLAY-2"))


def _diff(got: Counter[str], want: Counter[str]) -> dict[str, Any]:
    return {"extra": sorted((got - want).elements())[:8], "missing": sorted((want - got).elements())[:8]}


def _cards(c: Counter[str]) -> list[str]:
    return sorted(c.elements())


# -- transition checks ---------------------------------------------------------------------------
def _conserved(props: IdiotProperties, before: Snapshot, after: Snapshot) -> bool:
    """All zones of ``after`` together hold the pool, as sorted lists (a seventh of a Counter's cost).

    When ``before`` was judged to hold the pool, ``after`` does exactly when the cards of the zones the
    move changed are the same before and after: only those are sorted and compared."""
    z1 = after.raw["zones"]
    if before is not props.conserved:
        return sorted(itertools.chain.from_iterable(z1.values())) == props.pool_sorted
    z0 = before.raw["zones"]
    gone: list[str] = []
    came: list[str] = []
    for name, cards in z1.items():
        old = z0.get(name)
        if old != cards:
            came += cards
            gone += old or []
    if z0.keys() != z1.keys():
        for name, cards in z0.items():
            if name not in z1:
                gone += cards
    return len(gone) == len(came) and sorted(gone) == sorted(came)


@checks("IDIOT-INV-1")
def conservation(props: IdiotProperties, step: Step) -> None:
    """IDIOT-INV-1: all zones together are D decks; the burn pile only grows."""
    ok = _conserved(props, step.before, step.after)
    props.conserved = step.after if ok else None
    props.expect(
        "IDIOT-INV-1",
        ok,
        f"every zone together must hold exactly {props.decks} deck(s)",
        52 * props.decks,
        None if ok else _diff(props.view(step.after).total, props.pool),
    )
    old, new = step.before.zone("burned"), step.after.zone("burned")
    # the burn pile kept as it was, with cards added on top, needs no Counters to be a superset
    grew = new[: len(old)] == old or Counter(old) <= Counter(new)
    props.expect(
        "IDIOT-INV-1",
        grew,
        "the burn pile only grows (burned cards are out of play for good)",
        "a superset of the burned cards",
        None if grew else _diff(Counter(new), Counter(old)),
    )


@checks("IDIOT-DEAL-1", "IDIOT-DEAL-2", "IDIOT-INV-2", "IDIOT-SWAP-1", "IDIOT-OPEN-1")
def deal_and_swap(props: IdiotProperties, step: Step) -> None:
    """The deal lands as sent (3/3/3 and the draw pile); swaps exchange one hand and one face-up card."""
    before, after, n = step.before, step.after, props.n
    kind = step.kind
    rnd = before.get("round", 0) + (kind == "deal")  # protocol.md: `round` counts the deals made so far
    props.expect(
        "IDIOT-DEAL-1",
        after.get("round") == rnd,
        "`round` counts the deals: 0 before the deal, 1 from it on",
        rnd,
        after.get("round"),
    )
    if kind == "deal":
        m = step.move
        got = {z: [sorted(after.zone(f"{z}/{s}")) for s in range(n)] for z in ("face_down", "face_up", "hand")}
        want = {z: [sorted(m[z][s]) for s in range(n)] for z in ("face_down", "face_up", "hand")}
        props.expect(
            "IDIOT-DEAL-1",
            got == want,
            "each seat gets the 3 face-down, 3 face-up and 3 hand cards dealt to it",
            want,
            got,
        )
        props.expect(
            "IDIOT-DEAL-2",
            after.zone("draw") == m["draw"] and len(m["draw"]) == 52 * props.decks - 9 * n,
            f"the undealt {52 * props.decks - 9 * n} cards form the draw pile, as dealt (top last)",
            len(m["draw"]),
            len(after.zone("draw")),
        )
        props.expect(
            "IDIOT-INV-2",
            all(len(after.zone(f"{z}/{s}")) == 3 for z in ("face_down", "face_up", "hand") for s in range(n))
            and not after.zone("discard")
            and not after.zone("burned"),
            "after the deal every seat has 3/3/3 cards, the pile and burn pile are empty",
            "3/3/3",
            {s: [len(after.zone(f"{z}/{s}")) for z in ("face_down", "face_up", "hand")] for s in range(n)},
        )
        first = (props.setup.dealer + 1) % n
        props.expect(
            "IDIOT-SWAP-1",
            after.phase == "swap" and after.to_act == first,
            "after the deal the seats swap in turn from the dealer's left",
            {"phase": "swap", "to_act": first},
            {"phase": after.phase, "to_act": after.to_act},
        )
        return
    if before.phase == "swap":
        _swap_step(props, step)


def _swap_step(props: IdiotProperties, step: Step) -> None:
    """IDIOT-INV-2, IDIOT-SWAP-1 on one move of the swap phase (a swap or ready)."""
    before, n = step.before, props.n
    s = before.to_act
    assert s is not None
    v0, v1 = props.views(step)
    others_same = all(v0.hand.same(v1.hand, o) and v0.fu.same(v1.fu, o) for o in range(n) if o != s)
    props.expect(
        "IDIOT-INV-2",
        all(v0.fd.same(v1.fd, o) for o in range(n)) and others_same and v1.draw == v0.draw,
        "the swap phase never touches face-down cards, the draw pile or other seats",
        "unchanged",
        "changed",
    )
    ok = same(v0.hand[s] + v0.fu[s], v1.hand[s] + v1.fu[s])
    props.expect(
        "IDIOT-INV-2",
        ok,
        "swaps keep the seat's hand and face-up cards together as one multiset",
        _cards(v0.hand[s] + v0.fu[s]) if not ok else None,
        _cards(v1.hand[s] + v1.fu[s]) if not ok else None,
    )
    if step.kind == "swap":
        _swapped(props, step, v0, v1)
    elif step.kind == "ready":
        _ready(props, step, v0, v1)


def _swapped(props: IdiotProperties, step: Step, v0: View, v1: View) -> None:
    """IDIOT-SWAP-1: a swap exchanges the two cards named, and the same seat goes on swapping."""
    after, s = step.after, step.before.to_act
    assert s is not None
    h, f = step.move["hand"], step.move["face_up"]
    want_h = v0.hand[s] - Counter([h]) + Counter([f])
    ok = same(v1.hand[s], want_h) and after.phase == "swap" and after.to_act == s
    props.expect(
        "IDIOT-SWAP-1",
        ok,
        f"a swap puts {h} face up and {f} in the hand; the same seat goes on swapping",
        {"hand": _cards(want_h), "to_act": s} if not ok else None,
        {"hand": _cards(v1.hand[s]), "to_act": after.to_act} if not ok else None,
    )


def _ready(props: IdiotProperties, step: Step, v0: View, v1: View) -> None:
    """IDIOT-SWAP-1: ready changes no card and passes the swap on clockwise, the dealer last; after the
    dealer the opening ladder starts (IDIOT-OPEN-1) with 3 + 3 cards each (IDIOT-INV-2)."""
    after, n, s = step.after, props.n, step.before.to_act
    assert s is not None
    ok = v1.hand.same(v0.hand, s)
    props.expect(
        "IDIOT-SWAP-1",
        ok,
        "ready changes no card",
        _cards(v0.hand[s]) if not ok else None,
        _cards(v1.hand[s]) if not ok else None,
    )
    dealer = props.setup.dealer
    if s != dealer:
        props.expect(
            "IDIOT-SWAP-1",
            after.phase == "swap" and after.to_act == (s + 1) % n,
            "seats swap in turn clockwise, the dealer last",
            (s + 1) % n,
            after.to_act,
        )
        return
    props.expect(
        "IDIOT-OPEN-1",
        after.phase == "opening" and after.to_act == (dealer + 1) % n and after.get("opening_rank") == "3",
        "when the dealer is ready the opening ladder starts at 3 with the player left of the dealer",
        {"phase": "opening", "to_act": (dealer + 1) % n, "opening_rank": "3"},
        {"phase": after.phase, "to_act": after.to_act, "opening_rank": after.get("opening_rank")},
    )
    props.expect(
        "IDIOT-INV-2",
        all(v1.hand.size(o) == 3 and v1.fu.size(o) == 3 for o in range(n)),
        "after the swap phase every seat still has 3 face-up and 3 hand cards",
        3,
        [[v1.fu.size(o), v1.hand.size(o)] for o in range(n)],
    )


@checks("IDIOT-OPEN-1", "IDIOT-OPEN-3", "IDIOT-INV-1")
def opening_ladder(props: IdiotProperties, step: Step) -> None:
    """A decline passes the ladder on; a full circle of declines moves the rank up, past A to "any"."""
    before, after, n = step.before, step.after, props.n
    if before.phase != "opening" or step.kind != "decline":
        if before.phase == "opening":
            props.declines = 0
        return
    s = before.to_act
    assert s is not None
    rank = before.get("opening_rank")
    props.declines += 1
    want_rank = rank
    if props.declines >= n:
        props.declines = 0
        # past the ace the ladder is "any" (IDIOT-OPEN-3); a rank off the ladder (an engine's "2") has no next
        want_rank = "any" if rank not in LADDER[:-1] else LADDER[LADDER.index(rank) + 1]
    clause = "IDIOT-OPEN-3" if want_rank == "any" or rank not in LADDER else "IDIOT-OPEN-1"
    got = {"phase": after.phase, "to_act": after.to_act, "opening_rank": after.get("opening_rank")}
    want = {"phase": "opening", "to_act": (s + 1) % n, "opening_rank": want_rank}
    props.expect(
        clause,
        got == want,
        "a decline passes the opening to the left; after a full circle of declines the ladder rank moves up"
        + (" and past the ace the player left of the dealer must open with anything" if want_rank == "any" else ""),
        want,
        got,
    )
    props.expect(
        "IDIOT-INV-1",
        props.view(after).pile == [] and before.zone("draw") == after.zone("draw"),
        "a decline moves no card",
        "no card moved",
        "cards moved",
    )


@checks(
    "IDIOT-PLAY-1",
    "IDIOT-PLAY-2",
    "IDIOT-RANK-1",
    "IDIOT-MULTI-1",
    "IDIOT-PICKUP-1",
    "IDIOT-PICKUP-2",
    "IDIOT-DRAW-1",
    "IDIOT-DRAW-2",
    "IDIOT-DRAW-3",
    "IDIOT-TABLE-1",
    "IDIOT-TABLE-2",
    "IDIOT-TABLE-3",
    "IDIOT-BLIND-1",
    "IDIOT-BLIND-2",
    "IDIOT-BLIND-3",
    "IDIOT-TWO-1",
    "IDIOT-TWO-2",
    "IDIOT-BURN-10",
    "IDIOT-BURN-4KIND",
    "IDIOT-BURN-6S",
    "IDIOT-BURN-NEXT",
    "IDIOT-OUT-1",
    "IDIOT-END-1",
    "IDIOT-OPEN-2",
    "IDIOT-INV-7",
    "IDIOT-INV-4",
    "IDIOT-SWAP-1",
    "IDIOT-OPEN-1",
    "IDIOT-OPEN-3",
    "IDIOT-PICKUP-3",
    "IDIOT-INV-1",
    "IDIOT-INV-9",
)
def turn_outcome(props: IdiotProperties, step: Step) -> None:
    """Predict the whole outcome of a play, blind play, pickup or stop from the rules, and compare."""
    before = step.before
    if before.phase not in ("opening", "play") or step.kind not in ("play", "play_blind", "pickup", "stop"):
        return
    v0, v1 = props.views(step)
    assert before.to_act is not None
    # a move in the legal set the rules give here is legal; only another needs the clause it breaks
    bad = None if v0.allows(step.move) else why_illegal(v0, step.move)
    props.expect(
        "IDIOT-INV-4", bad is None, f"the move applied must be legal here (it breaks {bad})", "legal", step.move
    )
    if bad is not None:
        return
    o = _predict(props, step, v0)
    _judge_zones(props, step, v0, v1, o)
    _judge_pile(props, step, v0, v1, o)
    _judge_end(props, step, v0, v1, o)


NO_CARDS: Counter[str] = Counter()  # an empty multiset to share: read, never changed


class Outcome:
    """turn_outcome's model of one move: what the rules say the acting seat's zones, the draw pile, the
    pile, the out list and the turn are afterwards, and the clause (``ctx``) the move is played under."""

    # set by _whose_turn (declared here, not assigned: nothing to build for every move)
    out: list[int]
    gone: bool
    holders: list[int]
    over: bool
    to_act: int | None

    # the defaults of a move that sets them (each replaced, never changed in place: shared by every Outcome)
    t = ""  # the move's type (step.kind, read once)
    # the face-up and face-down rows after the move; None: as before (no multiset built)
    fu: Counter[str] | None = None
    fd: Counter[str] | None = None
    burned: Counter[str] | None = None  # the burn pile after a burn; None when nothing burns
    r: str | None = None
    ctx = ""
    pending: str | None = None
    burn: str | None = None
    failed_blind = False

    def __init__(self, v0: View, s: int) -> None:
        self.s = s
        self.hand = v0.hand.fresh(s)  # changed in place; the rows are replaced when they change
        self.draw, self.pile = v0.draw, v0.pile  # replaced by new lists, never changed in place
        self.cards: list[str] = []
        self.drawn: list[str] = []
        # the cards a play takes from the hand and the face-up row (split_play's); none until then
        self.from_hand: Counter[str] = NO_CARDS
        self.from_fu: Counter[str] = NO_CARDS


def _predict(props: IdiotProperties, step: Step, v0: View) -> Outcome:
    """The rules' outcome of a legal play, blind play, pickup or stop."""
    t, s = step.kind, step.before.to_act
    assert s is not None
    o = Outcome(v0, s)
    o.t = t
    if t == "stop":
        o.ctx = "IDIOT-TWO-2" if v0.pending == "two_followup" else "IDIOT-DRAW-3"
    elif t == "pickup":
        o.ctx = "IDIOT-PICKUP-1"
        o.hand.update(o.pile)
        o.pile = []
    elif t == "play_blind":
        card = v0.fd_list[s][step.move["index"]]
        o.fd = v0.fd[s] - Counter([card])
        o.cards, o.r = [card], rk(card)
        legal = playable(o.r, o.pile, v0.opts)
        o.ctx = "IDIOT-BLIND-2" if legal else "IDIOT-BLIND-3"
        if not legal:
            o.failed_blind = True
            o.hand.update(o.pile)
            o.hand[card] += 1
            o.pile = []
    else:
        _play_from_zones(props, step, v0, o)
    if t in ("play", "play_blind") and not o.failed_blind:
        _land(v0, o)
    _whose_turn(step, v0, o)
    return o


def _play_from_zones(props: IdiotProperties, step: Step, v0: View, o: Outcome) -> None:
    """A play: the cards leave the hand and/or face-up row; the clause it is played under."""
    opts, pile = v0.opts, o.pile
    o.cards = cards = list(step.move["cards"])
    o.r = r = rk(cards[0])
    parts = split_play(v0, cards, o.hand)  # o.hand: still the hand before the move
    assert parts is not None
    o.from_hand, o.from_fu = from_hand, from_fu = parts
    take(o.hand, from_hand)
    if from_fu:
        o.fu = v0.fu[o.s] - from_fu
    if from_fu and from_hand:
        o.ctx = "IDIOT-TABLE-3"
    elif from_fu:
        o.ctx = "IDIOT-TABLE-2" if len(cards) > 1 else "IDIOT-TABLE-1"
    elif v0.pending == "two_followup":
        o.ctx = "IDIOT-TWO-2"
    elif v0.pending == "chain":
        o.ctx = "IDIOT-DRAW-3"
    elif step.before.phase == "opening":
        o.ctx = "IDIOT-OPEN-3" if step.before.get("opening_rank") == "any" else "IDIOT-OPEN-1"
    elif len(cards) > 1:
        o.ctx = "IDIOT-MULTI-1"
    elif not pile:
        o.ctx = "IDIOT-PLAY-1"
    elif r == "2":
        o.ctx = "IDIOT-TWO-1"
    elif r == "T" and opts["ten_anytime"]:
        o.ctx = "IDIOT-BURN-10"
    else:
        o.ctx = "IDIOT-PLAY-2"
    if pile and rk(pile[-1]) != "2" and r not in "2" and not (r == "T" and opts["ten_anytime"]):
        props.cover("IDIOT-RANK-1")


def _land(v0: View, o: Outcome) -> None:
    """The played cards land on the pile, which may burn; a play from the hand draws back up to 3."""
    o.pile = o.pile + o.cards
    o.burn = burn_kind(o.pile, v0.opts)
    if o.burn:
        o.burned = v0.burned.copy()
        o.burned.update(o.pile)
        o.pile = []
    if o.from_hand:
        draw = o.draw
        k = min(len(draw), max(0, 3 - size(o.hand)))
        if k:
            o.drawn = draw[len(draw) - k :]
            o.draw = draw[: len(draw) - k]
            o.hand.update(o.drawn)


def _whose_turn(step: Step, v0: View, o: Outcome) -> None:
    """Who is out, whether the game is over, what is pending and who acts next."""
    t, s, n, opts = o.t, o.s, v0.n, v0.opts
    o.out = list(v0.out)
    o.gone = not (o.hand or (v0.fu.lists[s] if o.fu is None else o.fu) or (v0.fd.lists[s] if o.fd is None else o.fd))
    if o.gone and s not in o.out:
        o.out.append(s)
    holding = v0.holding
    o.holders = [x for x in range(n) if (holding[x] if x != s else not o.gone)]
    o.over = len(o.holders) == 1
    if t in ("play", "play_blind") and not o.failed_blind and not o.burn and not o.gone:
        if o.r == "2" and t == "play" and opts["two_followup"] == "optional":
            o.pending = "two_followup"
        elif o.r in {rk(c) for c in o.drawn}:
            o.pending = "chain"
    if o.over:
        o.to_act = None
    elif o.pending or (o.burn and opts["after_burn"] == "burner" and not o.gone):
        o.to_act = s
    else:
        o.to_act = next_active(s, n, o.out)


def _judge_zones(props: IdiotProperties, step: Step, v0: View, v1: View, o: Outcome) -> None:
    """The draw pile, the acting seat's hand, face-up and face-down rows, and every other seat's cards.
    (The failure details are worked out only when a check fails.)"""
    t, s = o.t, o.s
    drew_too_much = len(v1.draw) < len(o.draw)
    draw_clause = "IDIOT-DRAW-2" if (t in ("pickup", "stop") or o.failed_blind or drew_too_much) else "IDIOT-DRAW-1"
    if v1.draw != o.draw:
        props.fail(
            draw_clause,
            "after a play from the hand the player draws from the top of the draw pile until holding 3 "
            "(§2.3b: straight away, before any follow-up); never on a pickup, a failed blind card, or holding 3+",
            {"draw": len(o.draw), "drawn": o.drawn},
            {"draw": len(v1.draw), "hand": _cards(v1.hand[s])},
        )
    if o.drawn:
        props.cover("IDIOT-DRAW-1")
    if (t == "pickup" or o.failed_blind or (o.from_hand and v0.draw and not o.drawn)) and v0.draw:
        props.cover("IDIOT-DRAW-2")  # a turn with cards left to draw in which the rules say: no draw
    if t == "pickup":  # first that the pile is empty
        props.require("IDIOT-PICKUP-2", not v1.pile, "after a pickup the discard pile is empty", [], v1.pile[-4:])
    if not same(v1.hand[s], o.hand):
        props.fail(
            o.ctx,
            HAND_MESSAGES.get(o.ctx, "the played cards leave the hand (then the hand is refilled from the draw pile)"),
            _cards(o.hand),
            _cards(v1.hand[s]),
        )
    if not _row_kept(v0.fu, v1.fu, s, o.fu):
        props.fail(
            o.ctx if o.from_fu else "IDIOT-TABLE-1",
            "exactly the face-up cards played leave the face-up row",
            _cards(v0.fu[s] if o.fu is None else o.fu),
            _cards(v1.fu[s]),
        )
    if not _row_kept(v0.fd, v1.fd, s, o.fd):
        props.fail(
            "IDIOT-BLIND-1",
            "exactly the face-down card at the index played leaves the face-down row, and only by a blind play",
            _cards(v0.fd[s] if o.fd is None else o.fd),
            _cards(v1.fd[s]),
        )
    props.cover(o.ctx)
    if _others_listed_as_before(v0, v1, s):
        return  # every other seat's rows listed as before: nothing to compare seat by seat
    for x in range(v0.n):
        if x != s and not (v1.hand.same(v0.hand, x) and v1.fu.same(v0.fu, x) and v1.fd.same(v0.fd, x)):
            props.fail(
                "IDIOT-INV-9" if x in v0.out else "IDIOT-INV-1",
                f"seat {s}'s move leaves seat {x}'s cards alone",
                "unchanged",
                {"seat": x},
            )


def _row_kept(row0: Rows, row1: Rows, s: int, want: Counter[str] | None) -> bool:
    """The seat's row after the move holds ``want`` (None: what it held before). A row listed as before
    holds what it held before: no Counter of the new row needed."""
    if want is None:
        return row1.same(row0, s)
    return same(want, row0[s]) if row1.lists[s] == row0.lists[s] else same(row1[s], want)


def _others_listed_as_before(v0: View, v1: View, s: int) -> bool:
    """Every seat but ``s`` lists its hand, face-up and face-down rows as before (whole lists compared at once)."""
    for r0, r1 in ((v0.hand.lists, v1.hand.lists), (v0.fu.lists, v1.fu.lists), (v0.fd.lists, v1.fd.lists)):
        if r0[:s] != r1[:s] or r0[s + 1 :] != r1[s + 1 :]:
            return False
    return True


HAND_MESSAGES = {
    "IDIOT-PICKUP-1": "a pickup takes the whole pile into the hand",
    "IDIOT-BLIND-3": "a failed blind card goes into the hand with the whole pile",
}
BURN_MESSAGES = {
    "IDIOT-BURN-10": "a 10 burns the whole pile, itself included",
    "IDIOT-BURN-6S": "{six_burn} or more 6s on top burn the whole pile",
    "IDIOT-BURN-4KIND": "four or more cards of one rank on top burn the whole pile",
}


def _judge_pile(props: IdiotProperties, step: Step, v0: View, v1: View, o: Outcome) -> None:
    """The pile: it burns exactly when the rules say, else the cards land on it (or a pickup empties it)."""
    t, r, pile = o.t, o.r, o.pile
    burned_now = v1.burned_list != v0.burned_list and bool(v1.burned - v0.burned)  # the same list: nothing burned
    if t not in ("play", "play_blind") or o.failed_blind:
        if not (v1.pile == pile and not burned_now):
            props.fail(
                "IDIOT-PICKUP-2" if t == "pickup" else o.ctx,
                "after a pickup or failed blind card the pile is empty and nothing burns"
                if t != "stop"
                else "a stop changes no card",
                pile[-4:],
                v1.pile[-4:],
            )
        return
    # the pile before any burn: without a burn, the predicted pile itself
    landed = v0.pile + o.cards if o.burn else pile
    run = top_run(landed)
    if o.burn == "IDIOT-BURN-4KIND":
        props.situation(o.burn, "five-or-more" if run >= 5 else "one-play" if len(o.cards) >= 4 else "across-plays")
    elif not o.burn and r not in ("2", "6", "T") and run < 4 <= run_past_twos(landed):
        props.situation("IDIOT-BURN-4KIND", "run-broken")
    if o.burn:
        assert o.burned is not None
        ok = burned_now and not v1.pile and same(v1.burned, o.burned)
        props.expect(
            o.burn,
            ok,
            BURN_MESSAGES[o.burn].format(six_burn=v0.opts["six_burn"]),
            None if ok else {"discard": [], "burned": size(o.burned) - size(v0.burned)},
            None if ok else {"discard": v1.pile, "burned": size(v1.burned) - size(v0.burned)},
        )
        return
    # the pile as predicted, card for card, needs no rank lists nor Counters
    if burned_now or not (
        v1.pile == pile or ([rk(x) for x in v1.pile] == [rk(x) for x in pile] and Counter(v1.pile) == Counter(pile))
    ):
        props.fail(
            burn_clause_for(r or "3") if burned_now or not v1.pile else o.ctx,
            f"the pile does not burn (top run of {top_run(pile)} x {r}): the cards land on it, the last listed on top",
            pile[-6:],
            v1.pile[-6:],
        )
    if run >= (2 if r == "6" else 3):
        props.cover(burn_clause_for(r or "3"))  # a run one short of burning stays


def _judge_end(props: IdiotProperties, step: Step, v0: View, v1: View, o: Outcome) -> None:
    """Who is out, whether the game is over and who is the loser, what is pending."""
    after, t, r = step.after, o.t, o.r
    props.require(
        "IDIOT-OUT-1",
        v1.out == o.out,
        "a player left with no hand, face-up or face-down card is out, appended to `out`",
        o.out,
        v1.out,
    )
    want_phase, want_loser = ("over", o.holders[0]) if o.over else ("play", None)
    got_phase, got_loser = v1.phase, (after.get("result") or {}).get("loser")
    if not o.over and o.pending and v0.phase == "opening" and got_phase == "opening":
        got_phase = "play"  # left open: the phase name while the opening play's follow-up is pending
    ok = got_phase == want_phase and got_loser == want_loser
    props.require(
        "IDIOT-END-1",
        ok,
        "the game ends as soon as exactly one player holds cards, and that player is the loser",
        None if ok else {"phase": want_phase, "loser": want_loser},
        None if ok else {"phase": got_phase, "loser": got_loser},
    )
    if o.over:
        props.cover("IDIOT-END-1")
    if v1.phase == "play" and after.get("opening_rank") is not None:
        props.fail(
            "IDIOT-OPEN-2",
            "once the opening card is down the ladder is over (`opening_rank` null)",
            None,
            after.get("opening_rank"),
        )
    pend_clause = (
        "IDIOT-BLIND-2"
        if t == "play_blind"
        else "IDIOT-OUT-1"
        if o.gone
        else "IDIOT-TWO-2"
        if "two_followup" in (o.pending, v1.pending)
        else "IDIOT-DRAW-3"
    )
    if not o.over:
        ok = v1.pending == o.pending
        props.require(
            pend_clause,
            ok,
            "pending after this move: a follow-up after a 2 (two_followup optional, not blind, not burnt, not out), "
            "a chain when a card just drawn has the rank just played, else nothing",
            None if ok else {"pending": o.pending, "drawn": o.drawn},
            v1.pending,
        )
        if o.pending == "two_followup" or v0.pending == "two_followup" or (r == "2" and t == "play"):
            props.cover("IDIOT-TWO-2")
        if o.pending == "chain" or v0.pending == "chain" or (r is not None and o.drawn):
            props.cover("IDIOT-DRAW-3")
    _judge_turn(props, step, v0, v1, o, pend_clause)


def _judge_turn(props: IdiotProperties, step: Step, v0: View, v1: View, o: Outcome, pend_clause: str) -> None:
    """Who acts next, judged under the clause that decides it."""
    t, s, n, to_act = o.t, o.s, v0.n, v1.seat
    if o.over:
        turn_clause = "IDIOT-END-1"
    elif o.to_act is not None and to_act in v1.out:
        turn_clause = "IDIOT-OUT-1"
    elif o.burn:
        turn_clause = "IDIOT-BURN-NEXT"
    elif t == "pickup":
        turn_clause = "IDIOT-PICKUP-2"
    elif o.failed_blind:
        turn_clause = "IDIOT-BLIND-3"
    elif o.pending or t == "stop":
        turn_clause = pend_clause if o.pending else o.ctx
    elif v0.phase == "opening":
        turn_clause = "IDIOT-OPEN-2"
    else:
        turn_clause = "IDIOT-INV-7"
    props.expect(
        turn_clause,
        to_act == o.to_act,
        "who acts next: the same player while a follow-up or chain is pending (or after a burn under "
        "after_burn burner), else the next player clockwise who is not out",
        o.to_act,
        to_act,
    )
    props.cover("IDIOT-INV-7")
    if (
        o.gone
        or (not o.over and o.to_act is not None and o.to_act != s and (s + 1) % n in v1.out)
        or (s + 1) % n in v0.out  # the next seat clockwise was out already: the turn skips it
    ):
        props.cover("IDIOT-OUT-1")
    if t == "pickup":
        props.cover("IDIOT-PICKUP-2")
    if v0.phase == "opening" and t == "play":
        props.cover("IDIOT-OPEN-2")


@checks(
    "IDIOT-SWAP-1",
    "IDIOT-OPEN-1",
    "IDIOT-OPEN-3",
    "IDIOT-PLAY-1",
    "IDIOT-PLAY-2",
    "IDIOT-MULTI-1",
    "IDIOT-PICKUP-1",
    "IDIOT-PICKUP-3",
    "IDIOT-TABLE-1",
    "IDIOT-TABLE-2",
    "IDIOT-TABLE-3",
    "IDIOT-BLIND-1",
    "IDIOT-TWO-1",
    "IDIOT-TWO-2",
    "IDIOT-DRAW-3",
    "IDIOT-BURN-10",
    "IDIOT-RANK-1",
    "IDIOT-END-1",
)
def legal_moves(props: IdiotProperties, step: Step) -> None:
    """The legal moves of the new state are exactly the ones the rules give (plus what is left open)."""
    after = step.after
    if after.phase in ("deal", "over") or after.to_act is None:
        return
    v = props.view(after)
    # kept on the view: the next move's turn_outcome asks of this same snapshot whether its move is legal
    if v.legal is None:
        v.legal = legal_set(v)
    req, opt = v.legal
    listed = {key_of(m): m for m in after.moves}  # as ``after.keyed``, without a JSON encoding of each move
    extra: dict[str, list[Any]] = {}
    for k, m in listed.items():
        if k not in req and k not in opt:
            extra.setdefault(why_illegal(v, m) or "IDIOT-MULTI-1", []).append(m)
    missing: dict[str, list[Any]] = {}
    for k, (m, c) in req.items():
        if k not in listed:
            missing.setdefault(c, []).append(_own_copy(m))
    if "IDIOT-TABLE-1" in missing or "IDIOT-TABLE-2" in missing:  # which of the two: did any face-up play get listed?
        face_up_listed = any(k in req and req[k][1] in ("IDIOT-TABLE-1", "IDIOT-TABLE-2") for k in listed)
        table = missing.pop("IDIOT-TABLE-1", []) + missing.pop("IDIOT-TABLE-2", [])
        missing["IDIOT-TABLE-2" if face_up_listed else "IDIOT-TABLE-1"] = table
    if "IDIOT-PLAY-2" in missing or "IDIOT-PLAY-2" in extra:
        _suits_ignored(props, v, listed, extra, missing)
    for clause, moves in extra.items():  # one finding per clause the extra moves break
        props.fail(
            clause,
            f"legal_moves offers moves the rules forbid here ({clause})",
            {"absent": moves[:4]},
            {"listed": moves[:4]},
        )
    for clause, moves in missing.items():  # each rule that allows a missing move gets its own finding
        props.fail(
            clause, "legal_moves leaves out moves the rules allow here", {"listed": moves[:4]}, {"missing": moves[:4]}
        )
    props.cover(*{c for _, c in req.values()})
    if v.phase == "play" and not v.pending and not v.pile:
        props.cover("IDIOT-PICKUP-3")


def _own_copy(move: dict[str, Any]) -> dict[str, Any]:
    """A copy of a required move for a finding to keep: the plays' moves are cached and shared between steps."""
    return {k: list(x) if isinstance(x, list) else x for k, x in move.items()}


def _suits_ignored(
    props: IdiotProperties,
    v: View,
    listed: dict[Key, Any],
    extra: dict[str, list[Any]],
    missing: dict[str, list[Any]],
) -> None:
    """IDIOT-RANK-1: suits are ignored, so single cards of one rank are all playable or none is.

    A PLAY-2 difference that splits one rank by suit (one card of the rank listed, another
    held card of that rank not) is the engine counting suits: it moves from PLAY-2 to RANK-1.
    """
    if "IDIOT-PLAY-2" not in missing and "IDIOT-PLAY-2" not in extra:
        return  # nothing to move (the usual case: no difference at all)

    def rank_of(m: Any) -> str | None:
        cards = m.get("cards") or []
        return rk(cards[0]) if m.get("type") == "play" and len(cards) == 1 else None

    held = set(v.hand[v.seat]) if v.seat is not None else set()
    one_card = {m["cards"][0] for m in listed.values() if m.get("type") == "play" and len(m.get("cards") or []) == 1}
    singles = {c: c in one_card for c in held}
    listed_ranks = {rk(c) for c, ok in singles.items() if ok}
    unlisted_ranks = {rk(c) for c, ok in singles.items() if not ok}
    split = [m for m in missing.get("IDIOT-PLAY-2", []) if rank_of(m) in listed_ranks]
    split += [m for m in extra.get("IDIOT-PLAY-2", []) if rank_of(m) in unlisted_ranks]
    for bucket in (missing, extra):
        kept = [m for m in bucket.get("IDIOT-PLAY-2", []) if m not in split]
        if "IDIOT-PLAY-2" in bucket:
            bucket["IDIOT-PLAY-2"] = kept
            if not kept:
                del bucket["IDIOT-PLAY-2"]
    if split:
        props.fail(
            "IDIOT-RANK-1",
            "suits are ignored: every card of a rank may go on the pile, or none may",
            {"same treatment for": split[:4]},
            {"treated apart": split[:4]},
        )


@checks("IDIOT-INV-3")
def zone_discipline(props: IdiotProperties, step: Step) -> None:
    """IDIOT-INV-3: face-up cards leave only with hand and draw pile empty (or in a TABLE-3 play); face-down only
    with hand, face-up and draw pile empty; their counts never grow after the swap phase."""
    before, n = step.before, props.n
    if before.phase in ("deal", "swap"):
        return
    v0, v1 = props.views(step)
    fu0s, fd0s, fu1s, fd1s = v0.fu.lists, v0.fd.lists, v1.fu.lists, v1.fd.lists
    for s in range(n):
        fu0, fd0, fu1, fd1 = len(fu0s[s]), len(fd0s[s]), len(fu1s[s]), len(fd1s[s])
        ok = fd1 <= fd0 and fu1 <= fu0
        props.expect(
            "IDIOT-INV-3",
            ok,
            "face-up and face-down rows never grow after the swap phase",
            None if ok else [fu0, fd0],
            None if ok else [fu1, fd1],
        )
        if fu1 < fu0:
            combo = step.kind == "play" and not v0.draw and v0.hand[s] <= Counter(step.move.get("cards") or [])
            props.expect(
                "IDIOT-INV-3",
                s == before.to_act and not v0.draw and (not v0.hand[s] or combo),
                "a face-up card leaves only when the hand and the draw pile are empty (or in a TABLE-3 play)",
                {"hand": 0, "draw": 0},
                {"seat": s, "hand": v0.hand.size(s), "draw": len(v0.draw)},
            )
        if fd1 < fd0:
            props.expect(
                "IDIOT-INV-3",
                s == before.to_act and not v0.draw and not v0.hand[s] and not v0.fu[s] and fd0 - fd1 == 1,
                "one face-down card leaves, only when hand, face-up row and draw pile are empty",
                {"hand": 0, "face_up": 0, "draw": 0},
                {"hand": v0.hand.size(s), "face_up": fu0, "draw": len(v0.draw)},
            )


@checks("IDIOT-INV-5")
def draw_rule(props: IdiotProperties, step: Step) -> None:
    """IDIOT-INV-5: after a play from the hand with cards left to draw the hand has 3+; draws never overfill; no
    draw on a pickup turn."""
    before = step.before
    kind = step.kind
    if before.phase not in ("opening", "play") or kind in ("decline",):
        return
    s = before.to_act
    v0, v1 = props.views(step)
    took = len(v0.draw) - len(v1.draw)
    if kind in ("pickup", "stop"):
        props.expect("IDIOT-INV-5", took == 0, "no draw on a pickup turn or a stop", 0, took)
        return
    if kind == "play" and s is not None and _held(step.move.get("cards") or [], v0, s):
        if v1.draw:
            props.expect(
                "IDIOT-INV-5",
                v1.hand.size(s) >= 3,
                "after a play the hand is refilled to 3 while the draw pile lasts",
                3,
                v1.hand.size(s),
            )
        if took:
            props.expect(
                "IDIOT-INV-5", v1.hand.size(s) <= 3, "a draw step never takes the hand above 3", 3, v1.hand.size(s)
            )
    props.cover("IDIOT-INV-5")


def _held(cards: list[str], v: View, s: int) -> bool:
    """The seat's hand and face-up row hold ``cards`` together; a single card needs no multisets."""
    if len(cards) == 1:
        return cards[0] in v.hand.lists[s] or cards[0] in v.fu.lists[s]
    return within(Counter(cards), v.hand[s], v.fu[s])


@checks("IDIOT-INV-6", "IDIOT-INV-8")
def pile_shape(props: IdiotProperties, step: Step) -> None:
    """IDIOT-INV-6: never a 10, a run of 4+ or (six_burn 3) three 6s on top between moves.
    IDIOT-INV-8: between resets (burn, pickup, a 2) the effective top rank never decreases."""
    after, before = step.after, step.before
    pile = after.zone("discard")
    opts = after.options
    if pile:
        r, run = rk(pile[-1]), top_run(pile)
        ok = r != "T" and (run < opts["six_burn"] if r == "6" else run < 4)
        props.expect(
            "IDIOT-INV-6",
            ok,
            "between moves the pile never shows a 10, a run of 4 or more, or a burning run of 6s on top",
            "no burning top",
            pile[-5:],
        )
    else:
        props.cover("IDIOT-INV-6")
    old = before.zone("discard")
    if old and len(pile) > len(old) and pile[: len(old)] == old:
        prev = rk(old[-1])
        for c in pile[len(old) :]:
            cur = rk(c)
            if prev != "2" and cur != "2":
                props.expect(
                    "IDIOT-INV-8",
                    ORDER.index(cur) >= ORDER.index(prev),
                    "between resets the effective rank on top of the pile never falls",
                    f">= {prev}",
                    cur,
                )
            prev = cur
    else:
        props.cover("IDIOT-INV-8")


@checks("IDIOT-INV-9", "IDIOT-INV-10", "IDIOT-INV-11", "IDIOT-END-1")
def progress(props: IdiotProperties, step: Step) -> None:
    """IDIOT-INV-9..11: out is final, over iff one player holds cards, cards in circulation never increase.
    IDIOT-END-1: the outcome is a loser, never a score (protocol.md: `scores` stays all zeros)."""
    before, after, n = step.before, step.after, props.n
    scores = after.scores
    props.expect("IDIOT-END-1", not any(scores), "Idiot keeps no score: `scores` stays all zeros", 0, scores)
    if before.phase == "deal":
        return
    v0, v1 = props.views(step)
    props.expect(
        "IDIOT-INV-11", v1.out[: len(v0.out)] == v0.out, "the set of out players never shrinks", v0.out, v1.out
    )
    circ0 = v0.count - len(v0.burned_list)
    circ1 = v1.count - len(v1.burned_list)
    props.expect("IDIOT-INV-11", circ1 <= circ0, "cards in circulation (all but burned) never increase", circ0, circ1)
    holding = v1.holding
    for s in v1.out:
        ok = not holding[s] and v1.seat != s
        props.expect(
            "IDIOT-INV-9",
            ok,
            f"out seat {s} never gets cards again nor acts",
            "no cards, not to act",
            None if ok else {"cards": v1.hand.size(s) + v1.fu.size(s) + v1.fd.size(s), "to_act": v1.seat},
        )
    if v1.phase in ("opening", "play", "over"):
        holders = [s for s in range(n) if holding[s]]
        over = v1.phase == "over"
        props.expect(
            "IDIOT-INV-10",
            over == (len(holders) == 1),
            "the game is over iff exactly one player still holds cards",
            len(holders) == 1,
            over,
        )
        if over:
            loser = (after.get("result") or {}).get("loser")
            props.expect(
                "IDIOT-INV-10",
                loser == holders[0] and v1.seat is None,
                "the one player left holding cards is reported as the loser",
                holders[0],
                loser,
            )
            props.expect(
                "IDIOT-END-1",
                sorted([*v1.out, loser]) == list(range(n)) if loser is not None else False,
                "every other player is out when the game ends",
                list(range(n)),
                v1.out,
            )
