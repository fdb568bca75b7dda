"""The rules of Fool as pure functions of cards and tricks (rules.md §1): the box and the round deck P(n)
(A-FOOL-DECK), hand size and k(n), the lead colour, off-colour cards, the worst-card order, the trick's
winner, the cards a hand may play, and the seat to the left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ruleproof.model.notation import FOOL_COLOURS, FOOL_WILD, fool_box, fool_colour, fool_number

GAME = "fool"

# Assumption A-FOOL-DECK (rules.md §1.2): players -> (G max, R max, Y max, B max, number of 1s).
ASSUMED_2018 = {
    8: {"G": 27, "R": 23, "Y": 21, "B": 15, "1": 6},
    7: {"G": 26, "R": 22, "Y": 20, "B": 14, "1": 6},
    6: {"G": 23, "R": 19, "Y": 17, "B": 12, "1": 5},
    5: {"G": 20, "R": 16, "Y": 14, "B": 10, "1": 4},
    4: {"G": 17, "R": 13, "Y": 11, "B": 8, "1": 3},
}
BOX: Counter[str] = Counter(fool_box())
BOX_SORTED = sorted(fool_box())  # the box as a sorted list: the per-step conservation check compares lists
DEFAULTS = {"deck": "assumed-2018", "two_fools_from": 7, "loss": "net"}
GAME_END_LOSS = 80  # FOOL-GAME-1
SIXTH_TEN = 6
# what a hand may play (legal_cards): lead anything, follow the lead colour, or play anything; the
# clause that allows it.  The duty is a plain word so that the steering (choose) names no clause.
DUTY_CLAUSE = {"lead": "FOOL-LEAD-1", "follow": "FOOL-FOLLOW-1", "free": "FOOL-FOLLOW-2"}


def profile(players: int, deck: Any) -> dict[str, int]:
    """The active profile P(n) as colour maxima and a count of 1s (FOOL-SETUP-3)."""
    if isinstance(deck, dict):
        return {k: int(deck[k]) for k in ("G", "R", "Y", "B", "1")}
    return ASSUMED_2018[players]


def deck_cards(prof: dict[str, int]) -> list[str]:
    """The cards of a profile: each colour 2..max, plus the 1s."""
    cards = [f"{c}{v}" for c in FOOL_COLOURS for v in range(2, prof[c] + 1)]
    return cards + [FOOL_WILD] * prof["1"]


def hand_size(players: int) -> int:
    """FOOL-DEAL-1: 12 cards each, 11 at 8 players."""
    return 11 if players == 8 else 12


def deck_size(players: int) -> int:
    """FOOL-SETUP-4."""
    return 88 if players == 8 else 12 * players


def fool_count(players: int, two_fools_from: int) -> int:
    """FOOL-SETUP-5 / FOOL-AMB-5: k(n)."""
    return 2 if players >= two_fools_from else 1


def value(card: str) -> int:
    """FOOL-SCORE-3: a numbered card costs its number, a 1 costs 5."""
    return 5 if card == FOOL_WILD else fool_number(card)


def lead_colour(trick: Sequence[str]) -> str | None:
    """FOOL-COLOUR-1: the colour of the first card that is not a 1 (None while only 1s)."""
    for c in trick:
        if c != FOOL_WILD:
            return fool_colour(c)
    return None


def off_colour(card: str, lead: str | None) -> bool:
    """FOOL-OFF-1 / FOOL-WILD-2: neither a 1 nor of the lead colour."""
    return lead is not None and card != FOOL_WILD and fool_colour(card) != lead


def worst_order(trick: Sequence[str], lead: str | None) -> list[int]:
    """FOOL-WORST-4: play indices from worst to best: off-colour first, lower number first, later first."""
    return sorted(range(len(trick)), key=lambda i: (0 if off_colour(trick[i], lead) else 1, fool_number(trick[i]), -i))


def winner_index(trick: Sequence[str], lead: str | None) -> int:
    """FOOL-WIN-1: the highest card counting as the lead colour; the earliest among equals (1s)."""
    return max(
        (i for i in range(len(trick)) if not off_colour(trick[i], lead)), key=lambda i: (fool_number(trick[i]), -i)
    )


def legal_cards(hand: Sequence[str], trick: Sequence[str]) -> tuple[set[str], str]:
    """The cards that may be played, and the duty that allows them (a key of ``DUTY_CLAUSE``): any card
    when leading (FOOL-LEAD-1), the lead colour or a 1 when the hand holds a non-1 card of it
    (FOOL-FOLLOW-1, FOOL-WILD-1), else any card (FOOL-FOLLOW-2)."""
    cards = set(hand)
    if not trick:
        return cards, "lead"
    lead = lead_colour(trick)
    if lead is not None and any(c != FOOL_WILD and fool_colour(c) == lead for c in cards):
        return {c for c in cards if c == FOOL_WILD or fool_colour(c) == lead}, "follow"
    return cards, "free"


def play(card: str) -> dict[str, str]:
    return {"type": "play", "card": card}


def clockwise_after(seat: int, n: int, skip: set[int]) -> int:
    """The next seat to the left of ``seat`` that is not sitting out."""
    for d in range(1, n + 1):
        s = (seat + d) % n
        if s not in skip:
            return s
    return seat
