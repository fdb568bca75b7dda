"""A game STATE laid out as a table a person reads: seats, their zones, the shared piles.

The terminal report (``render.py``) and the HTML report (``html_report.py``)
draw the same ``TableView``, so both show the same zones in the same order.
States come from the engine under test: every value is treated as untrusted
and anything unexpected is shown as its JSON text instead of failing.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen

from ruleproof.model.games import BY_NAME, Layout

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
STANDARD_CARD = re.compile(r"^[2-9TJQKA][CDHS]$")
FOOL_CARD = re.compile(r"^(?:[GRYB](?:[2-9]|[12][0-9])|1)$")
TILE = re.compile(r"^[0-6]-[0-6]$")
FOOL_COLOURS = {"G": "green", "R": "red", "Y": "yellow", "B": "blue"}


@frozen
class Piece:
    """One card or tile, parsed from its notation string (protocol.md §4)."""

    kind: str  # "card" | "fool" | "tile" | "text" (a string the game's notation does not know)
    text: str  # the notation string exactly as in the JSON: "QS", "G27", "1", "6-4"
    rank: str = ""  # card: "Q"; fool: "27" ("1" for the wild card); tile: the high end
    suit: str = ""  # card: "S"; fool: the colour letter ("" for the wild 1); tile: the low end

    @property
    def label(self) -> str:
        """The piece with a suit symbol (terminal and screen-reader text)."""
        if self.kind == "card":
            return self.rank + SUIT_SYMBOLS[self.suit]
        if self.kind == "tile":
            return f"[{self.rank}|{self.suit}]"
        return self.text

    @property
    def red(self) -> bool:
        return self.kind == "card" and self.suit in "HD"


def piece(game: str, value: Any) -> Piece:
    """Parse one zone entry in the notation of ``game``; anything else is plain text."""
    if not isinstance(value, str):
        return Piece("text", json.dumps(value))
    notation = BY_NAME[game].notation if game in BY_NAME else None
    if notation == "card" and STANDARD_CARD.match(value):
        return Piece("card", value, value[0], value[1])
    if notation == "fool" and FOOL_CARD.match(value):
        return Piece("fool", value, value if value == "1" else value[1:], "" if value == "1" else value[0])
    if notation == "tile" and TILE.match(value):
        return Piece("tile", value, value[0], value[2])
    return Piece("text", value)


MARKS = (("dealer", "dealer"), ("to act", "to_act"), ("leader", "leader"))  # (label, STATE field naming a seat)
# Top-level fields drawn by the table itself; every other field is listed as JSON.
DRAWN = {
    "game",
    "players",
    "options",
    "dealer",
    "phase",
    "to_act",
    "round",
    "zones",
    "scores",
    "result",
    "trick_seats",
    "leader",
}


@frozen
class Zone:
    name: str
    pieces: tuple[Piece, ...]
    counted: bool = False
    labels: tuple[str, ...] = ()  # per piece, e.g. the seat that played it to the trick
    added: tuple[Piece, ...] = ()  # pieces that arrived in the step just made
    removed: tuple[Piece, ...] = ()  # pieces that left in the step just made

    @property
    def changed(self) -> bool:
        return bool(self.added or self.removed)


@frozen
class Seat:
    seat: int
    marks: tuple[str, ...]  # "dealer", "to act", "leader"
    zones: tuple[Zone, ...]
    fields: tuple[tuple[str, str], ...]  # ("score", "12"), ("tens", "1")


@frozen
class TableView:
    game: str
    headline: tuple[tuple[str, str], ...]  # phase, round, ...: (name, value)
    seats: tuple[Seat, ...]
    shared: tuple[Zone, ...]
    info: tuple[tuple[str, str], ...]  # the game's other fields, as compact JSON
    result: str | None


def compact(value: Any) -> str:
    """One JSON notation everywhere: the value as JSON, with spaces after separators."""
    return json.dumps(value, ensure_ascii=False, default=str)


def _zones(state: Mapping[str, Any]) -> dict[str, list[Any]]:
    zones = state.get("zones")
    if not isinstance(zones, dict):
        return {}
    return {str(k): (v if isinstance(v, list) else [v]) for k, v in zones.items()}


def _players(state: Mapping[str, Any], zones: Mapping[str, Any]) -> int:
    n = state.get("players")
    if isinstance(n, int) and not isinstance(n, bool) and 0 < n <= 16:
        return n
    seats = [int(name.rsplit("/", 1)[1]) for name in zones if re.fullmatch(r"[a-z_]+/\d{1,2}", name)]
    return max(seats, default=-1) + 1


def _zone(
    game: str,
    name: str,
    cards: Sequence[Any],
    before: Mapping[str, list[Any]] | None,
    counted: bool = False,
    labels: tuple[str, ...] = (),
) -> Zone:
    pieces = tuple(piece(game, c) for c in cards)
    if before is None:
        return Zone(name, pieces, counted, labels)
    now, was = Counter(map(compact, cards)), Counter(map(compact, before.get(name, [])))
    # a multiset difference: Idiot's several decks repeat equal cards
    added = tuple(piece(game, json.loads(k)) for k in (now - was).elements())
    removed = tuple(piece(game, json.loads(k)) for k in (was - now).elements())
    return Zone(name, pieces, counted, labels, added, removed)


def _seat_value(values: Any, seat: int) -> str | None:
    if isinstance(values, list) and seat < len(values):
        return compact(values[seat])
    return None


def table_of(
    state: Mapping[str, Any], before: Mapping[str, Any] | None = None, marked: Mapping[int, str] | None = None
) -> TableView:
    """Lay out ``state``; with ``before``, mark what each zone gained and lost in this step; ``marked``
    adds a mark to a seat (the seat that moved in a violating step: "broke the rule")."""
    state = state if isinstance(state, Mapping) else {}
    game = str(state.get("game", ""))
    layout = BY_NAME[game].layout if game in BY_NAME else Layout((), (), ())
    zones = _zones(state)
    was = _zones(before) if isinstance(before, Mapping) else None
    n = _players(state, zones)
    seen: set[str] = set()

    seats = []
    for s in range(n):
        names = [z for z in layout.seat_zones if f"{z}/{s}" in zones]
        names += sorted(
            z.split("/")[0] for z in zones if z.endswith(f"/{s}") and z.split("/")[0] not in layout.seat_zones
        )
        seat_zones = tuple(_rename(_zone(game, f"{z}/{s}", zones[f"{z}/{s}"], was), z) for z in names)
        seen.update(f"{z}/{s}" for z in names)
        marks = tuple(
            m for m, key in MARKS if type(state.get(key)) is int and state.get(key) == s
        )  # True is not seat 1
        if marked and s in marked:
            marks = (marked[s], *marks)
        fields = [("score", v) for v in [_seat_value(state.get("scores"), s)] if v is not None]
        fields += [(f, v) for f in layout.seat_fields for v in [_seat_value(state.get(f), s)] if v is not None]
        seats.append(Seat(s, marks, seat_zones, tuple(fields)))

    shared = []
    trick_seats = state.get("trick_seats")
    for name in (*layout.shown, *layout.counted, *sorted(zones)):
        if name in seen or name not in zones:
            continue
        seen.add(name)
        labels: tuple[str, ...] = ()
        if name == "trick" and isinstance(trick_seats, list) and len(trick_seats) == len(zones[name]):
            labels = tuple(f"seat {compact(t)}" for t in trick_seats)
        shared.append(_zone(game, name, zones[name], was, counted=name in layout.counted, labels=labels))

    headline = [
        (k, state[k] if isinstance(state[k], str) else compact(state[k])) for k in ("phase", "round") if k in state
    ]
    if isinstance(state.get("options"), dict):
        headline.append(("options", compact(state["options"])))
    info = tuple((k, compact(v)) for k, v in state.items() if k not in DRAWN and k not in layout.seat_fields)
    result = state.get("result")
    return TableView(
        game, tuple(headline), tuple(seats), tuple(shared), info, None if result is None else compact(result)
    )


def _rename(zone: Zone, name: str) -> Zone:
    """A seat's zone is shown under its bare name ("hand"), the seat being the row."""
    return Zone(name, zone.pieces, zone.counted, zone.labels, zone.added, zone.removed)
