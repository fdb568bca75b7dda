"""How a list of legal moves differs from the rules, read once for the checks and for the fixtures.

``listed_cards`` is what a play listing offers; ``follow_clause`` files a follow list's difference under
the rule it breaks (BM-FOLLOW-1, or BM-LEAD-2's first-trick rule for a void hand held back from hearts
and the QS); ``listing_clause`` reads a fixture's scripted listing the same way
(``GameProperties.listing_clause``), so one bug reads as one clause whichever found it.
"""

from __future__ import annotations

from typing import Any

from ruleproof.properties.black_maria.cards import PENALTY, playable
from ruleproof.properties.black_maria.view import first_trick, holds_led
from ruleproof.properties.snapshot import Snapshot


def listed_cards(snap: Snapshot) -> set[Any]:
    return {m.get("card") for m in snap.moves if m.get("type") == "play"}


def follow_clause(want: set[str], got: set[Any], follows: bool, first: bool) -> str:
    """A void hand's list on the first trick that lacks only hearts and the QS is a first-trick rule
    (BM-LEAD-2: none here); any other difference is following's (BM-FOLLOW-1)."""
    if not follows and first and got <= want and want - got and want - got <= PENALTY:
        return "BM-LEAD-2"
    return "BM-FOLLOW-1"


def listing_clause(snap: Snapshot, n: int, missing: list[Any], extra: list[Any]) -> str | None:
    """A listing that lacks ``missing`` and lists ``extra``, read as the listing checks read it: a pass
    list is passing's, a card not held or a move of another kind listed is BM-FOLLOW-1's, a lead list
    lacking cards BM-LEAD-2's, a follow list by ``follow_clause``."""
    if snap.phase == "pass":
        return "BM-PASS-1"
    if snap.phase != "play" or snap.to_act is None:
        return None
    hand, trick = snap.zone(f"hand/{snap.to_act}"), snap.zone("trick")
    if any(m.get("type") != "play" or m.get("card") not in hand for m in extra):
        return "BM-FOLLOW-1"
    if not trick:
        return "BM-LEAD-2" if missing else None
    want = set(playable(hand, trick))
    got = (listed_cards(snap) | {m.get("card") for m in extra}) - {m.get("card") for m in missing}
    return follow_clause(want, got, holds_led(hand, trick), first_trick(snap, n))
