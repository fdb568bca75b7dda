"""A fixture's legal-move difference attributed by the properties' own reading of follow lists
(``MoonProperties.listing_clause``), so that one bug reads as one clause whichever found it.

A module of its own (no check imports it back): ``follow_moves`` reads an engine's list the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ruleproof.model.engine import Move
from ruleproof.properties.moon.readings import base_follow_clause, follow_clause, resolve
from ruleproof.properties.moon.state import hand_of
from ruleproof.properties.moon.tiles import legal_plays
from ruleproof.properties.snapshot import Snapshot


def listing_clause(shown: set[str], snap: Snapshot, missing: Sequence[Move], extra: Sequence[Move]) -> str | None:
    """A fixture's scripted listing that lacks ``missing`` and lists ``extra``, read as ``follow_moves``
    reads a list: a lead list is MOON-LEAD-1's, a follow list goes to the reading it shows (a led suit
    read wrongly is MOON-LEAD-2/3's, whichever found it), given the readings this engine has ``shown``;
    None when no reading alone explains it."""
    if snap.phase != "play" or snap.to_act is None:
        return None
    trick = snap.zone("trick")
    if not trick:
        return "MOON-LEAD-1"
    hand, contract = hand_of(snap, snap.to_act), snap.get("contract")
    got = (listed_tiles(snap) | {m.get("tile") for m in extra}) - {m.get("tile") for m in missing}
    if got == set(legal_plays(hand, trick, contract)):
        return base_follow_clause(hand, trick[0], contract)  # the right tiles, listed beside other moves
    found = resolve(shown, lambda known: follow_clause(hand, trick, contract, got, known))
    return None if found is None else found[0]


def listed_tiles(snap: Snapshot) -> set[Any]:
    """The tiles the engine lists to play."""
    return {m.get("tile") for m in snap.moves if m.get("type") == "play"}
