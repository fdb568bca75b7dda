"""Notation shared by engines, properties and fixtures (protocol.md §3).

Only data types and spelling live here: which strings name which cards and
tiles.  No rule of any game is decided in this module.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

RANKS = "23456789TJQKA"
SUITS = "CDHS"
STANDARD_DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
STANDARD_CARDS = frozenset(STANDARD_DECK)


def rank(card: str) -> str:
    """The rank character of a standard card (``"TD"`` -> ``"T"``)."""
    return card[0]


def suit(card: str) -> str:
    """The suit character of a standard card (``"TD"`` -> ``"D"``)."""
    return card[1]


def rank_index(card: str) -> int:
    """0 for a 2 up to 12 for an ace: the face order of ``RANKS``."""
    return RANKS.index(card[0])


# Fool: colour then number ("G27", "B2"); the wild one is "1".
FOOL_COLOURS = "GRYB"
FOOL_WILD = "1"
FOOL_BOX_MAX = {"G": 27, "R": 23, "Y": 21, "B": 15}
FOOL_BOX_WILDS = 6


def fool_card(colour: str, number: int) -> str:
    return f"{colour}{number}"


def fool_colour(card: str) -> str | None:
    """The colour letter, or None for the wild 1."""
    return None if card == FOOL_WILD else card[0]


def fool_number(card: str) -> int:
    """The printed number (1 for the wild card)."""
    return 1 if card == FOOL_WILD else int(card[1:])


def fool_box() -> tuple[str, ...]:
    """The 88 cards of the FOOL! box (rules.md FOOL-SETUP-2)."""
    cards = [fool_card(c, n) for c in FOOL_COLOURS for n in range(2, FOOL_BOX_MAX[c] + 1)]
    return tuple(cards + [FOOL_WILD] * FOOL_BOX_WILDS)


# Dominoes: high end first ("6-4", "0-0").
def tile(a: int, b: int) -> str:
    hi, lo = max(a, b), min(a, b)
    return f"{hi}-{lo}"


def tile_ends(t: str) -> tuple[int, int]:
    """(high, low) ends of a tile string."""
    ends = _ENDS.get(t)
    return ends if ends is not None else (int(t[0]), int(t[2]))


# every domino string, parsed once: properties and engines ask for a tile's ends many times a step
_ENDS: dict[str, tuple[int, int]] = {f"{a}-{b}": (a, b) for a in range(7) for b in range(a + 1)}


MOON_TILES: tuple[str, ...] = ("0-0", *tuple(tile(a, b) for a in range(1, 7) for b in range(1, a + 1)))


def multiset(cards: Iterable[str]) -> Counter[str]:
    """Cards as a multiset (several Idiot decks repeat cards)."""
    return Counter(cards)
