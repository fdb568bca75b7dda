"""What a check looks at: one engine state with its legal moves, one transition, and their views.

``Snapshot`` parses a state once per step, ``Step`` is the transition shown to
the checks; ``move_key`` is how moves compare (protocol.md §2), ``move_diff``,
``canonical`` and ``summary`` are the views findings and comparisons use.
Nothing here knows any game's rules.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable
from typing import Any, cast

import orjson
from attrs import frozen

from ruleproof.model import observed as seen
from ruleproof.model import schema
from ruleproof.model.engine import JSONObject, Move, State
from ruleproof.model.games import BY_NAME


def move_key(move: Any) -> bytes:
    """Moves compare as JSON after sorting card lists (protocol.md §2)."""
    if isinstance(move, dict) and isinstance(move.get("cards"), list):
        move = {**move, "cards": sorted(move["cards"], key=str)}
    return orjson.dumps(move, option=orjson.OPT_SORT_KEYS)


def move_diff(want: Iterable[Move], got: Iterable[Move], most: int = 6) -> tuple[JSONObject, JSONObject]:
    """Expected versus got for a legal-move set, in one notation: the moves themselves.

    ``expected`` names the moves the rules allow that are not listed
    (``includes``) and the listed moves the rules forbid (``excludes``);
    ``got`` says the same from the engine's side (``lacks`` / ``lists``).
    """
    w = {move_key(m): m for m in want}
    g = {move_key(m): m for m in got}
    missing = [w[k] for k in sorted(w.keys() - g.keys())][:most]
    extra = [g[k] for k in sorted(g.keys() - w.keys())][:most]
    expected: JSONObject = {"includes": missing} if missing else {}
    found: JSONObject = {"lacks": missing} if missing else {}
    if extra:
        expected["excludes"] = extra
        found["lists"] = extra
    if not missing and not extra:  # same set, so the difference is a move listed twice
        expected, found = {"moves": len(w)}, {"moves": len(list(got))}
    return expected, found


def move_diff_observed(want: Iterable[Move], got: Iterable[Move]) -> frozenset[str]:
    """What a wrong legal-move set observed (``ruleproof.model.observed``): the moves allowed and not
    listed and those listed and not allowed; for the right set with a move listed twice, that move and
    its pieces (a card or tile held twice lists its move twice: the piece a conservation finding saw)."""
    w = {move_key(m): m for m in want}
    listed = list(got)
    g = {move_key(m): m for m in listed}
    differing = [w[k] for k in w.keys() - g.keys()] + [g[k] for k in g.keys() - w.keys()]
    if differing:
        return seen.moves(differing)
    counts = Counter(move_key(m) for m in listed)
    twice = [g[k] for k, n in counts.items() if n > 1]
    pieces = [m.get(k) for m in twice if isinstance(m, dict) for k in ("card", "tile") if isinstance(m.get(k), str)]
    return seen.moves(twice) | seen.cards(pieces) if twice else frozenset({seen.MOVES})


@frozen
class Snapshot:
    """One engine state with its legal moves, parsed once per step."""

    raw: State
    moves: tuple[Move, ...]

    @property
    def phase(self) -> str:
        return cast(str, self.raw["phase"])

    @property
    def to_act(self) -> int | None:
        return cast("int | None", self.raw["to_act"])

    @property
    def players(self) -> int:
        return cast(int, self.raw["players"])

    @property
    def options(self) -> JSONObject:
        return cast(JSONObject, self.raw["options"])

    @property
    def scores(self) -> list[int]:
        return cast("list[int]", self.raw["scores"])

    def get(self, name: str, default: Any = None) -> Any:
        return self.raw.get(name, default)

    def zone(self, name: str) -> list[str]:
        """A zone's cards; a zone left out is empty (protocol.md §4)."""
        return self.raw["zones"].get(name) or []

    def zone_names(self) -> Iterable[str]:
        return cast("Iterable[str]", self.raw["zones"].keys())

    @functools.cached_property
    def keyed(self) -> dict[bytes, Move]:
        """The legal moves by their comparison key (computed once per snapshot)."""
        return {move_key(m): m for m in self.moves}

    @functools.cached_property
    def move_keys(self) -> frozenset[bytes]:
        return frozenset(self.keyed)

    def all_cards(self) -> Counter[str]:
        """Every card in every zone, as a multiset."""
        total: Counter[str] = Counter()
        for cards in self.raw["zones"].values():
            total.update(cards)
        return total


@frozen
class Step:
    """One transition shown to the checks."""

    before: Snapshot
    move: Move
    after: Snapshot

    @property
    def kind(self) -> str:
        return cast(str, self.move.get("type", ""))


def canonical(state: State, ordered: frozenset[str]) -> JSONObject:
    """The contract's fields of a state, unordered zones sorted and empty zones dropped, for comparison.

    An engine's own extension fields (a game id, a ``last_error``) are its business: the contract
    clauses that compare states (CONTRACT-REJECT-1, CONTRACT-DET-1) never look at them.
    """
    zones = {
        name: (list(cards) if name in ordered else sorted(cards))
        for name, cards in state.get("zones", {}).items()
        if cards
    }
    game = state.get("game")
    fields = schema.contract_fields(game) if isinstance(game, str) and game in BY_NAME else None
    return {k: v for k, v in state.items() if fields is None or k in fields} | {"zones": zones}


def summary(state: State) -> JSONObject:
    """A short view of a state for messages: phase, who acts, sizes of zones."""
    return {
        "phase": state.get("phase"),
        "to_act": state.get("to_act"),
        "round": state.get("round"),
        "scores": state.get("scores"),
        "zones": {k: len(v) for k, v in state.get("zones", {}).items() if v},
    }
