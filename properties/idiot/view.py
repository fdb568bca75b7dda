"""The model of one state: each seat's rows, the piles, whose turn, and how moves are keyed.

A ``View`` reads one snapshot once (every check of a step shares the views of its two states) and
builds multisets only when a rule reads them; it also holds what the model works out about that
state once (its legal set, the listed moves by key, the difference between the two).  Everything is
read from the engine's own state: a check judges each transition from the state the engine reports.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from ruleproof.properties.idiot.cards import same
from ruleproof.properties.snapshot import Snapshot, move_key

if TYPE_CHECKING:
    from ruleproof.properties.idiot.diff import Gap
    from ruleproof.properties.idiot.legal import LegalSets

Key = bytes | str | tuple[Any, ...]


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
        self.legal: LegalSets | None = None  # the legal set of this state (legal.legal_set)
        self.gaps: list[Gap] | None = None  # the listed moves against the legal set (diff.gaps)
        self._listed: dict[Key, Any] | None = None
        self._holding: list[bool] | None = None
        self._count = -1

    @functools.cached_property
    def burned(self) -> Counter[str]:
        return Counter(self.burned_list)

    @property
    def listed(self) -> dict[Key, Any]:
        """The engine's legal moves by key (as ``snap.keyed``, without a JSON encoding of each move)."""
        got = self._listed
        if got is None:
            got = self._listed = {key_of(m): m for m in self.snap.moves}
        return got

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
        """``holds`` of every seat (the outcome and the progress check both ask it of every seat)."""
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
    """The next seat clockwise (to the left, IDIOT-AMB-14) that is not out."""
    for i in range(1, n + 1):
        s = (seat + i) % n
        if s not in out:
            return s
    return None


def prev_active(seat: int, n: int, out: Collection[int]) -> int | None:
    """The next seat counter-clockwise that is not out (a reversed direction of play)."""
    for i in range(1, n + 1):
        s = (seat - i) % n
        if s not in out:
            return s
    return None
