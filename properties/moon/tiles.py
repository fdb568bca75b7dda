"""The model of the tiles (rules.md §3.2) as pure functions: the constants of the game (players, the
bid ladder, the tile set, hand and trick counts, the options' defaults) and which tiles are trumps,
which suit a lead calls, which tiles follow it, how they rank, who wins a trick and what may be played.

Nothing here reads an engine's state: ``readings`` and the checks apply these to the tiles of it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ruleproof.model.notation import MOON_TILES, tile_ends

GAME = "moon"
N = 3

BIDS = (4, 5, 6, 7, 21)  # MOON-BID-3
SHOOT = 21  # MOON-SCORE-2
TILESET = Counter(MOON_TILES)  # MOON-SETUP-2
HAND = 7  # MOON-DEAL-1
TRICKS = 7  # MOON-WIN-2
DEFAULTS = {"all_pass": "redeal", "doubles_trump": True, "shoot": "wins_game", "target": 21}
WON = tuple(f"won/{s}" for s in range(N))


def is_double(t: str) -> bool:
    hi, lo = tile_ends(t)
    return hi == lo


def is_trump(t: str, contract: Any) -> bool:
    """MOON-TRUMP-2/3/4: a number trump takes every tile carrying it; doubles take the doubles."""
    if contract == "doubles":
        return is_double(t)
    if isinstance(contract, int) and not isinstance(contract, bool):
        return contract in tile_ends(t)
    return False


def led_suit(t: str, contract: Any) -> Any:
    """MOON-LEAD-2/3: "T" for a trump lead, else the higher end (a double's number)."""
    return "T" if is_trump(t, contract) else tile_ends(t)[0]


def follows(t: str, suit: Any, contract: Any) -> bool:
    """MOON-FOLLOW-1/2: trumps follow a trump lead; a non-trump tile carrying s follows s."""
    if suit == "T":
        return is_trump(t, contract)
    return not is_trump(t, contract) and suit in tile_ends(t)


def other_end(t: str, s: int) -> int:
    hi, lo = tile_ends(t)
    return lo if hi == s else hi


def pips(t: str) -> int:
    hi, lo = tile_ends(t)
    return hi + lo


def trump_rank(t: str, contract: Any) -> int:
    """MOON-RANK-2 (number trump: the double, then by the other end) / MOON-RANK-3 (doubles by pips)."""
    if contract == "doubles":
        return tile_ends(t)[0]
    return 7 if is_double(t) else other_end(t, contract)


def suit_rank(t: str, s: int) -> int:
    """MOON-RANK-1: the (non-trump) double heads its suit, then the other end descending."""
    return 7 if is_double(t) else other_end(t, s)


def trick_winner(trick: Sequence[str], contract: Any) -> int:
    """MOON-WIN-1: the index of the winning tile."""
    trumps = [i for i, t in enumerate(trick) if is_trump(t, contract)]
    if trumps:
        return max(trumps, key=lambda i: trump_rank(trick[i], contract))
    s = led_suit(trick[0], contract)
    return max((i for i, t in enumerate(trick) if follows(t, s, contract)), key=lambda i: suit_rank(trick[i], s))


def legal_plays(hand: Sequence[str], trick: Sequence[str], contract: Any) -> list[str]:
    """MOON-LEAD-1 / MOON-FOLLOW-1/2/3: the tiles the player to act may play."""
    if not trick:
        return list(hand)
    s = led_suit(trick[0], contract)
    same = [t for t in hand if follows(t, s, contract)]
    return same or list(hand)
