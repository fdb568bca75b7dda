"""The rules' model of the moves: the legal set of a state, and why a move outside it is illegal.

``legal_set`` gives the moves the rules require in a state, each tagged with the context that makes
it legal (a play of the open zone, a combination, a follow-up, a chain, the ladder, ...), and the
moves the contract leaves open (offered or not, both pass).  ``why_illegal`` names the ``Aspect`` a
move outside that set breaks, by the smallest difference: a card named more often than the open zone
holds it is a set of cards not held (not a face-up or face-down card), a face-up card while the hand
holds cards is the face-up zone, and so on.  The checks map aspects to clauses.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any, Literal

from ruleproof.properties.idiot.aspects import Aspect
from ruleproof.properties.idiot.cards import by_rank, play, playable, rank_groups, submultisets, within
from ruleproof.properties.idiot.view import Key, View, key_of

# the context a required move is legal in (which the difference of a missing move starts from)
Ctx = Literal[
    "swap", "ready", "ladder", "any", "decline", "pickup", "stop", "followup", "chain", "blind", "play", "combo"
]
Required = dict[Key, tuple[dict[str, Any], Ctx]]
LegalSets = tuple[Required, set[Key]]  # the required moves (key -> move, context), and the keys left open
SIMPLE_KEYS = {t: key_of({"type": t}) for t in ("ready", "decline", "pickup", "stop")}


def legal_set(v: View) -> LegalSets:
    """The moves the rules require in this state (key -> (move, context)) and those left open."""
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


class LegalSet:
    """legal_set's work: the required moves by key, with the context of each, and the keys left open."""

    def __init__(self, v: View, s: int) -> None:
        self.v, self.s = v, s
        self.req: Required = {}
        self.opt: set[Key] = set()

    # the seat's multisets, built only when a rule reads them (the play phase reads the card lists)
    @property
    def hand(self) -> Counter[str]:
        return self.v.hand[self.s]

    @property
    def fu(self) -> Counter[str]:
        return self.v.fu[self.s]

    def add(self, move: dict[str, Any], ctx: Ctx) -> None:
        self.req[key_of(move)] = (move, ctx)

    def add_simple(self, kind: str, ctx: Ctx) -> None:
        self.req[SIMPLE_KEYS[kind]] = ({"type": kind}, ctx)

    def plays(self, cards: dict[str, int], ctx: Ctx) -> None:
        for move, key in group_plays(cards):
            self.req[key] = (move, ctx)

    def blind(self, s: int, ctx: Ctx) -> None:
        for i in range(len(self.v.fd_list[s])):
            self.add({"type": "play_blind", "index": i}, ctx)

    def combos(self, r: str, required: bool) -> None:
        """IDIOT-TABLE-3: draw pile empty, the whole hand of rank r, plus face-up cards of rank r."""
        hand = self.hand
        if self.v.draw or not hand or {c[0] for c in hand} != {r}:
            return
        extra = Counter({c: k for c, k in self.fu.items() if c[0] == r})
        for f in submultisets(extra):
            m = play(sorted(list(hand.elements()) + f))
            if required:
                self.add(m, "combo")
            else:
                self.opt.add(key_of(m))

    def swap_phase(self) -> None:
        for h in self.hand:
            for f in self.fu:
                self.add({"type": "swap", "hand": h, "face_up": f}, "swap")
        self.add_simple("ready", "ready")

    def chain(self) -> None:
        """IDIOT-DRAW-3: hand plays of the rank just played, and stop (a pickup and combinations left open)."""
        pile = self.v.pile
        r = pile[-1][0] if pile else None
        self.plays(Counter({c: k for c, k in self.hand.items() if c[0] == r}), "chain")
        if r:
            self.combos(r, False)
        self.add_simple("stop", "stop")
        self.opt.add(SIMPLE_KEYS["pickup"])

    def two_followup(self, s: int) -> None:
        """IDIOT-TWO-2: one set of any rank from the open zone (a blind card from face-down), and stop."""
        zone = self.v.zone_of(s)
        if zone == "face_down":
            self.blind(s, "followup")
        else:
            for r, cs in by_rank(self.hand if zone == "hand" else self.fu).items():
                self.plays(cs, "followup")
                if zone == "hand":
                    self.combos(r, False)
        self.add_simple("stop", "stop")
        self.opt.add(SIMPLE_KEYS["pickup"])

    def opening(self) -> None:
        """IDIOT-OPEN-1/-3: hand plays of the ladder rank (of any rank once it is "any"), decline until then."""
        rank = self.v.snap.get("opening_rank")
        for r, cs in by_rank(self.hand).items():
            if rank in ("any", r):
                self.plays(cs, "any" if rank == "any" else "ladder")
        if rank != "any":
            self.add_simple("decline", "decline")

    def play_phase(self, s: int) -> None:
        """Nothing pending: pickup, blind cards, or plays of a playable rank from the open zone."""
        v = self.v
        zone = v.zone_of(s)
        if v.pile:
            self.add_simple("pickup", "pickup")
        if zone == "face_down":
            self.blind(s, "blind")
            return
        groups = rank_groups((v.hand if zone == "hand" else v.fu).lists[s])
        # IDIOT-TABLE-3 needs the draw pile empty and a hand of one rank
        combos = zone == "hand" and not v.draw and len(groups) == 1
        req = self.req
        for r, cs in groups.items():
            if not playable(r, v.pile, v.opts):
                continue
            for move, key in listed_group_plays(tuple(sorted(cs))):
                req[key] = (move, "play")
            if combos:
                self.combos(r, True)


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


def why_illegal(v: View, move: dict[str, Any]) -> Aspect | None:
    """None if the rules allow ``move`` here (required or left open); else the aspect it breaks.

    A play of an ordinary rank the pile does not allow is ``Aspect.RANK`` here: whether another order of
    the ranks explains the engine's allowing it (``Aspect.ORDER``) is for ``ranks`` to tell."""
    t = move.get("type")
    s = v.seat
    if s is None:
        return Aspect.OVER
    if v.phase == "swap":
        return _swapping(v, s, move)
    if t in ("swap", "ready"):
        return Aspect.SWAP
    if t == "play":
        return _play(v, s, move)
    return _turn(v, s, move)


def _swapping(v: View, s: int, move: dict[str, Any]) -> Aspect | None:
    """In the swap phase, a swap of a hand card for a face-up card, or ready."""
    t = move.get("type")
    if t == "swap":
        ok = move.get("hand") in v.hand[s] and move.get("face_up") in v.fu[s]
        return None if ok else Aspect.SWAP
    return None if t == "ready" else Aspect.SWAP


def _turn(v: View, s: int, move: dict[str, Any]) -> Aspect | None:
    """A decline (the ladder), stop (a follow-up or chain), pickup or blind play; any other type is no move
    of the game (a set of cards)."""
    t = move.get("type")
    if t == "decline":
        if v.phase == "opening" and not v.pending:
            return Aspect.LADDER_ANY if v.snap.get("opening_rank") == "any" else None
        return Aspect.LADDER
    if t == "stop":  # ends a chain or a two's follow-up, and nothing else
        return None if v.pending in ("chain", "two_followup") else Aspect.FOLLOWUP
    if t == "pickup":
        return Aspect.PICKUP_EMPTY if not v.pile else None if v.phase == "play" else Aspect.LADDER
    return _blind(v, s, move) if t == "play_blind" else Aspect.SET


def _blind(v: View, s: int, move: dict[str, Any]) -> Aspect | None:
    """A face-down card, by its index, only when face-down cards are the open zone."""
    i = move.get("index")
    if v.phase != "play" or v.pending == "chain" or v.zone_of(s) != "face_down":
        return Aspect.BLIND
    return None if isinstance(i, int) and 0 <= i < len(v.fd_list[s]) else Aspect.BLIND


def _play(v: View, s: int, move: dict[str, Any]) -> Aspect | None:
    """A play: cards of one rank, from the open zone, of a rank the state allows."""
    cards = move.get("cards") or []
    if not cards or len({c[0] for c in cards}) != 1:
        return Aspect.SET
    parts = split_play(v, cards)
    if parts is None:
        return _not_open(v, s, Counter(cards))
    from_hand, from_fu = parts
    return _rank(v, cards[0][0], from_hand, from_fu)


def _not_open(v: View, s: int, want: Counter[str]) -> Aspect:
    """A play not taken from the seat's open zone, by the smallest difference: the combination while the
    draw pile has cards; a card named more often than the open zone holds it (though it holds it); a
    face-up card while the hand holds cards; a face-down card; else cards the seat does not hold."""
    hand, fu = v.hand[s], v.fu[s]
    if hand and v.draw and within(hand, want) and within(want - hand, fu) and len({c[0] for c in hand}) == 1:
        return Aspect.COMBO
    zone = v.zone_of(s)
    row = hand if zone == "hand" else fu if zone == "face_up" else Counter()
    if any(k > row[c] >= 1 for c, k in want.items()):
        return Aspect.SET  # the card is held, but not that often: named twice
    if hand and within(want, hand, fu):
        return Aspect.FACE_UP
    if within(want, hand, fu, v.fd[s]):
        return Aspect.BLIND
    return Aspect.SET


def _rank(v: View, r: str, from_hand: Counter[str], from_fu: Counter[str]) -> Aspect | None:
    """Cards of rank ``r`` from the open zone: the opening ladder's rank (hand cards only), a chain's rank,
    anything in a follow-up, else a rank the pile allows."""
    if v.phase == "opening" and not v.pending:
        if from_fu:
            return Aspect.LADDER  # only hand cards open (IDIOT-AMB-3)
        return None if v.snap.get("opening_rank") in ("any", r) else Aspect.LADDER
    if v.pending == "chain":
        return None if v.pile and r == v.pile[-1][0] else Aspect.CHAIN
    if v.pending == "two_followup":
        return None
    return None if playable(r, v.pile, v.opts) else Aspect.RANK
