"""The rules' vocabulary: the pack, hands, penalty values, who wins a trick, what may be played.

Pure functions of cards (docs/rules/black-maria.md: BM-DEAL-1's pack and hand sizes, the values of
BM-SCORE-1/2/3 and their round totals, BM-WIN-1's winner, BM-FOLLOW-1's following).  Nothing here
says which clause a difference breaks: that is the business of the checks (the ``check_*`` modules).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ruleproof.model.notation import RANKS, STANDARD_DECK, rank, rank_index, suit

GAME = "black-maria"

HEARTS = [r + "H" for r in RANKS]
POINTS: dict[str, dict[str, int]] = {  # the penalty values of each scheme
    "standard": {**{h: 1 for h in HEARTS}, "QS": 13},
    "spades": {**{h: 1 for h in HEARTS}, "QS": 13, "KS": 10, "AS": 7},
    "spot": {
        **{f"{r}H": int(r) for r in "23456789"},
        "TH": 10,
        "JH": 10,
        "QH": 10,
        "KH": 10,
        "AH": 15,
        "QS": 25,
    },
}
ROUND_TOTAL = {"standard": 26, "spades": 43, "spot": 124}  # what one round hands out (BM-INV-5)
DEFAULT_TARGET = {"standard": 100, "spades": 100, "spot": 500}  # BM-AMB-5
PACK = Counter(STANDARD_DECK)  # every card once (BM-INV-1)
PENALTY = frozenset(HEARTS) | {"QS"}  # what a first-trick rule of other Hearts games holds back
MOON = PENALTY  # what a shooter of the moon takes in the Hearts family (BM-AMB-4: no such rule here)


def deck_for(players: int) -> list[str]:
    """The 52 cards, the 2C taken out with 3 players."""
    return [c for c in STANDARD_DECK if not (players == 3 and c == "2C")]


def hand_size(players: int) -> int:
    return 17 if players == 3 else 13


def play(card: str) -> dict[str, str]:
    return {"type": "play", "card": card}


def best_of(trick: Sequence[str]) -> str:
    """The card that wins a trick: the highest of the led suit (no trumps)."""
    led = suit(trick[0])
    return max((c for c in trick if suit(c) == led), key=rank_index)


def playable(hand: Sequence[str], trick: Sequence[str]) -> list[str]:
    """The cards of the led suit if the hand holds any, else the whole hand; anything on a lead."""
    if not trick:
        return list(hand)
    led = suit(trick[0])
    return [c for c in hand if suit(c) == led] or list(hand)


def won_by(card: str, best: str) -> str:
    """How a card other than the best took a trick, as a cause: "Q above K" when it is of the led suit
    (an order of the ranks), "off the led suit" when it is not."""
    if suit(card) == suit(best):
        return f"{rank(card)} above {rank(best)}"
    return "a card off the led suit"


def value(cards: Sequence[str], scheme: str) -> int:
    points = POINTS[scheme]
    return sum(points.get(c, 0) for c in cards)
