"""How a list of legal moves differs from the rules, read once for the checks and for the fixtures.

``listed_cards`` is what a play listing offers; ``follow_clause`` files a follow list's difference under
the rule it breaks (BM-FOLLOW-1, or BM-LEAD-2's first-trick rule for a void hand held back from hearts
and the QS); ``listing_clause`` reads a fixture's scripted listing the same way
(``GameProperties.listing_clause``), so one bug reads as one clause whichever found it.
"""

from __future__ import annotations

from typing import Any

from ruleproof.properties.black_maria.cards import PENALTY
from ruleproof.properties.black_maria.house import House, broken, follow_allowed, lead_forbidden, missing_rule
from ruleproof.properties.black_maria.view import first_trick, holds_led
from ruleproof.properties.snapshot import Snapshot


def listed_cards(snap: Snapshot) -> set[Any]:
    return {m.get("card") for m in snap.moves if m.get("type") == "play"}


def follow_clause(house: House, want: set[str], got: set[Any], follows: bool, first: bool) -> str:
    """A void hand's list on the first trick that lacks only hearts and the QS plays a first-trick rule
    (BM-LEAD-2 when none is declared, BM-LEAD-5 when no_points_first_trick is: a hand of nothing else
    held back); one that lists only hearts and the QS it may not discard, BM-LEAD-5's; any other
    difference is following's (BM-FOLLOW-1)."""
    void_first = not follows and first
    if void_first and got <= want and want - got and want - got <= PENALTY:
        return "BM-LEAD-5" if house.no_points else "BM-LEAD-2"
    if void_first and house.no_points and want <= got and got - want and got - want <= PENALTY:
        return "BM-LEAD-5"
    return "BM-FOLLOW-1"


def listing_clause(snap: Snapshot, n: int, house: House, missing: list[Any], extra: list[Any]) -> str | None:
    """A listing that lacks ``missing`` and lists ``extra``, read as the listing checks read it: a pass
    list is passing's, a card not held or a move of another kind listed is BM-FOLLOW-1's, a lead list
    by the house rule that forbids a card listed or the rule a card held back plays (BM-LEAD-2..6), a
    follow list by ``follow_clause``."""
    if snap.phase == "pass":
        return "BM-PASS-1"
    if snap.phase != "play" or snap.to_act is None:
        return None
    hand, trick = snap.zone(f"hand/{snap.to_act}"), snap.zone("trick")
    if any(m.get("type") != "play" or m.get("card") not in hand for m in extra):
        return "BM-FOLLOW-1"
    first = first_trick(snap, n)
    if not trick:
        is_broken = broken([c for s in range(n) for c in snap.zone(f"won/{s}")], house)
        forbidden = lead_forbidden(house, hand, n, first, is_broken)
        listed = [forbidden[m["card"]] for m in extra if m.get("card") in forbidden]
        held_back = {str(m.get("card")) for m in missing}
        return listed[0] if listed else missing_rule(house, held_back, first, is_broken)[0] if missing else None
    want = follow_allowed(house, hand, trick, first)
    got = (listed_cards(snap) | {m.get("card") for m in extra}) - {m.get("card") for m in missing}
    return follow_clause(house, want, got, holds_led(hand, trick), first)
