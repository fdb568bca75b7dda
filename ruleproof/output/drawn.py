"""A JSON value from a certificate as a person reads it: cards and tiles drawn, moves as their verb and
pieces, seats named, objects as labelled fields; never as JSON text where the game's notation says more.

The HTML report draws expected versus got, the moves of a counterexample and its violating move with
these (``templates/report.html.j2``, macro ``value``).  Values come from the engine under test: anything
unexpected stays text (escaped by the template), nothing here fails on it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from attrs import frozen

from ruleproof.output.render import deal_summary
from ruleproof.output.table import Piece, compact, piece

# keys whose integer value is a seat (a finding's expected/got, a state field)
SEAT_KEYS = frozenset(
    {"seat", "seats", "winner", "winners", "loser", "to_act", "leader", "dealer", "declarer", "first_bidder", "next"}
)
ZONE_KEY = re.compile(r"^([a-z_]+)/(\d{1,2})$")  # "hand/2": seat 2's hand
MAX_ITEMS = 60  # a longer list is drawn up to here, then counted (the certificate embedded has it whole)


@frozen
class Drawn:
    """One value, drawn: ``kind`` says how (the template has one branch per kind)."""

    kind: str  # "pieces" | "move" | "list" | "fields" | "seat" | "text" | "empty"
    text: str = ""  # text, a seat number, a move's verb
    pieces: tuple[Piece, ...] = ()
    items: tuple[Drawn, ...] = ()  # a list's items; a move's other fields (as "fields")
    fields: tuple[tuple[str, Drawn], ...] = ()  # an object's (label, value) pairs, a move's arguments
    more: int = 0  # items left out of a long list


def drawn(game: str, value: Any, key: str = "") -> Drawn:
    """``value`` drawn in ``game``'s notation; ``key`` is the field it came from (a seat's key names a seat)."""
    if value is None or isinstance(value, bool):  # before int: True is no seat
        return Drawn("text", "none" if value is None else str(value).lower())
    if isinstance(value, int) and key in SEAT_KEYS:
        return Drawn("seat", str(value))
    if isinstance(value, str):
        p = piece(game, value)
        return Drawn("pieces", pieces=(p,)) if p.kind != "text" else Drawn("text", value)
    if isinstance(value, list):
        return _list(game, value, key)
    if isinstance(value, Mapping):
        return move(game, value) if isinstance(value.get("type"), str) else _fields(game, value)
    return Drawn("text", compact(value))


def _list(game: str, values: list[Any], key: str) -> Drawn:
    if not values:
        return Drawn("empty", "empty")
    shown, more = values[:MAX_ITEMS], max(0, len(values) - MAX_ITEMS)
    pieces = [piece(game, v) if isinstance(v, str) else None for v in shown]
    if all(p is not None and p.kind != "text" for p in pieces):
        return Drawn("pieces", pieces=tuple(p for p in pieces if p is not None), more=more)
    return Drawn("list", items=tuple(drawn(game, v, key) for v in shown), more=more)


def _fields(game: str, value: Mapping[str, Any]) -> Drawn:
    return Drawn("fields", fields=tuple((label(str(k)), drawn(game, v, str(k))) for k, v in value.items()))


def label(key: str) -> str:
    """A field's name as read: ``hand/2`` -> ``seat 2 hand``; ``to_act`` -> ``to act``."""
    zone = ZONE_KEY.match(key)
    if zone:
        return f"seat {zone.group(2)} {zone.group(1).replace('_', ' ')}"
    return key.replace("_", " ")


def move(game: str, value: Mapping[str, Any]) -> Drawn:
    """A move: its verb (``play``, ``bid``) and its arguments drawn (a card, the cards, a bid's value)."""
    verb = str(value.get("type"))
    if verb == "deal":  # a deal lists every card: its sizes say it (the board draws the cards)
        return Drawn("move", deal_summary(value))
    args = tuple((label(str(k)), drawn(game, v, str(k))) for k, v in value.items() if k != "type")
    return Drawn("move", verb, fields=args)


def seats_named(value: Any) -> set[int]:
    """The seats a finding's expected/got names under a seat's key (``{"winner": 1}``) or a zone's
    (``{"won/1": [...]}``): the seats the clause concerns."""
    found: set[int] = set()
    if isinstance(value, Mapping):
        for k, v in value.items():
            zone = ZONE_KEY.match(str(k))
            if zone:
                found.add(int(zone.group(2)))
            elif str(k) in SEAT_KEYS and type(v) is int:
                found.add(v)
            else:
                found |= seats_named(v)
    return found


def zones_named(value: Any) -> set[str]:
    """The zones a finding's expected/got is keyed by (``{"won/1": [...]}``, ``{"zones": {"trick": ...}}``)."""
    if not isinstance(value, Mapping):
        return set()
    found = {str(k) for k in value if ZONE_KEY.match(str(k)) or str(k) in ("trick", "discard", "widow", "draw")}
    zones = value.get("zones")
    return found | ({str(k) for k in zones} if isinstance(zones, Mapping) else set())
