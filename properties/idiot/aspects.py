"""The aspects of the rules a difference can concern, named without clause IDs.

The model (``legal``, ``diff``, ``ranks``) says *what* differs between the engine and the rules:
a move missing or extra, and the smallest rule that explains it, as an ``Aspect``.  Each check
module maps the aspects of its rule section to its clauses (``check_play.CLAUSES`` and so on), so a
clause ID is named only where its rule is judged, and each discrepancy goes to exactly one check.
"""

from __future__ import annotations

from enum import StrEnum


class Aspect(StrEnum):
    """What makes a move legal or illegal, by the smallest difference from the rules."""

    SWAP = "swap"  # the swap phase: swaps of a hand and a face-up card, ready
    LADDER = "ladder"  # the opening ladder's rank, declines
    LADDER_ANY = "ladder past the ace"  # past the ace: any rank opens, no decline
    EMPTY_PILE = "empty pile"  # anything goes on an empty pile
    EQUAL = "equal rank"  # a rank goes on its own rank
    ON_TWO = "on a 2"  # anything goes on a 2
    RANK = "rank comparison"  # a comparison of two ranks that no order of the ranks explains
    ORDER = "rank order"  # a comparison another order of the ranks explains
    SUITS = "suits"  # every card of a rank is treated alike
    TWO = "a 2"  # a 2 goes on anything
    TEN = "a 10"  # a 10 goes on anything (ten_anytime)
    SEVEN = "on a 7"  # seven_lower: after a 7 a 7 or lower, or a 2; a 10 may not
    TRANSPARENT = "transparent"  # transparent: the rank goes on anything, the next play judged through it
    SET = "set"  # one rank, several cards of it, cards held (not named twice, nor another's)
    FACE_UP = "face-up zone"  # face-up cards only once the hand and the draw pile are empty
    FACE_UP_ALIKE = "face-up like the hand"  # face-up cards follow the hand's legality, several together
    COMBO = "combination"  # the last hand cards with face-up cards of their rank, draw pile empty
    BLIND = "blind"  # face-down cards only once everything else is empty, one by its index
    PICKUP = "pickup"  # a non-empty pile may be taken instead of playing
    PICKUP_EMPTY = "pickup of no pile"  # an empty pile cannot be taken
    FOLLOWUP = "follow-up"  # after a 2, one more set of any rank, or stop
    CHAIN = "chain"  # after drawing the rank just played, more of it, or stop
    OVER = "over"  # no move once the game is over


# every aspect's clause, as the listing checks file it: each check module registers its own map
# (``listed_under``), so that a fixture's listing difference is read by the same maps
# (``listing.listing_clause``) without importing the check modules, which import the properties
ASPECT_CLAUSES: dict[Aspect, str] = {}


def listed_under(clauses: dict[Aspect, str]) -> dict[Aspect, str]:
    """Register one check module's map of aspects to its clauses; the map itself, for the module."""
    ASPECT_CLAUSES.update(clauses)
    return clauses
