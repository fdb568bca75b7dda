"""How a check shows part of a zone in its expected/got: cut, and saying so.

A pile of forty cards in a message hides the difference; its top few show it.  A value cut without a
mark reads as the whole zone (a five-card pile shown as four cards looks like a miscount), so the
cut part is named first, with its count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

TOP = 4  # the cards a pile's top shows: enough for a burn of four of a kind


def top(pile: Sequence[Any], n: int = TOP) -> list[Any]:
    """The last ``n`` items of ``pile`` (its top), after ``"… K more"`` when some are left out."""
    items = list(pile)
    if len(items) <= n:
        return items
    return [f"… {len(items) - n} more", *items[-n:]]
