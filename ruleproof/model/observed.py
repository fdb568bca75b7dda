"""What a finding observed: the parts of a state or a listing where its difference shows.

A check that records a violation names the parts of the engine's answer it found different (or that
its judgement rests on) as *atoms*: short paths such as ``to_act``, ``scores:2``, ``zone:hand/1``,
``zone:hand/1:size``, ``card:AD``, ``moves:play:AH`` or ``move`` (the move applied in that step).
Two atoms overlap when one is the other or a part of it (``scores`` overlaps ``scores:2``;
``zone:hand/1`` overlaps ``zone:hand/1:size``; ``moves`` overlaps every listed move).

Two uses, both in docs/protocol.md ("Deviations, `with` and `follows`"):

- **with**: two clauses broken in the same step are one deviation only when what they observed
  overlaps (the same field, the same cards or seats, the same listed moves);
- **follows**: a violation is the consequence of an earlier one that took the state off the rules
  only when that one touched what this one observed (a hand of the wrong size, a card in two zones).

Nothing here knows a game: the atoms are the contract's field and zone names, cards and tiles.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Atoms = frozenset[str]

MOVE = "move"  # the move applied (or accepted) in the step: every finding that judges it observes it
TO_ACT = "to_act"
MOVES = "moves"  # the whole list of legal moves (a list that is empty, or counted wrong)
SCORES = "scores"
PHASE = "phase"
RESULT = "result"
DEALER = "dealer"
LEADER = "leader"
ROUND = "round"
OPTIONS = "options"
MOST_ATOMS = 24  # a difference larger than this is observed as its whole field


def zone(name: str) -> str:
    """The contents of one zone (``hand/2``, ``pile``, ``won/1``)."""
    return f"zone:{name}"


def size(name: str) -> str:
    """How many cards one zone holds (a part of its contents)."""
    return f"zone:{name}:size"


def card(name: Any) -> str:
    """One card or tile wherever it lies (conservation: a card in two zones, or in none)."""
    return f"card:{name}"


def score(seat: int) -> str:
    return f"scores:{seat}"


def listed(move: Any) -> str:
    """One listed move, by its type and pieces (``moves:play:AH``, ``moves:pass:2C,3C,4C``)."""
    if not isinstance(move, dict):
        return MOVES
    pieces = move.get("cards")
    if isinstance(pieces, list):
        what = ",".join(sorted(str(c) for c in pieces))
    else:
        what = ":".join(str(move[k]) for k in sorted(move) if k != "type")
    return f"moves:{move.get('type')}:{what}" if what else f"moves:{move.get('type')}"


def moves(listing: Iterable[Any]) -> Atoms:
    """The atoms of some listed moves; many of them are the listing as a whole."""
    atoms = frozenset(listed(m) for m in listing)
    return atoms if 0 < len(atoms) <= MOST_ATOMS else frozenset({MOVES})


def cards(names: Iterable[Any]) -> Atoms:
    atoms = frozenset(card(c) for c in names)
    return atoms if len(atoms) <= MOST_ATOMS else frozenset({"card"})


def crash(message: str) -> str:
    """An engine that answered ``internal``: the same crash, whatever request showed it, is one defect."""
    return f"crash:{message}"


def _parts_overlap(a: str, b: str) -> bool:
    if a == b:
        return True
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return long.startswith(short) and long[len(short)] == ":"


def overlaps(a: Iterable[str], b: Iterable[str]) -> bool:
    """Whether two findings observed a common part (one atom the other or a part of it)."""
    theirs = tuple(b)
    return any(_parts_overlap(x, y) for x in a for y in theirs)
