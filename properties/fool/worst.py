"""Which rule a wrong set of fools breaks (docs/rules/fool.md, "Which clause a deviation is filed
under"): the misreadings of the worst-card order (``MISREADINGS``), each with its clause, and the first
card ranked wrongly when none gives the engine's fools (``misjudged``).
"""

from __future__ import annotations

from collections.abc import Callable

from ruleproof.model.notation import FOOL_WILD, fool_colour, fool_number
from ruleproof.properties.fool.cards import off_colour
from ruleproof.properties.fool.trick import Trick

# the misreadings of the worst-card order a wrong choice of fools may follow, each with the rule it breaks:
# a sort key over (card, play index, lead colour), smaller is worse
Key = Callable[[str, int, str | None], tuple[int, ...]]
MISREADINGS: tuple[tuple[str, str, Key], ...] = (
    (
        "FOOL-WORST-3",
        "among equal candidates the later-played card is worse, never the earlier",
        lambda c, i, lead: (0 if off_colour(c, lead) else 1, fool_number(c), i),
    ),
    (
        "FOOL-WILD-2",
        "a 1 counts as a lead-colour card of rank 1 and is never off-colour, so an off-colour card is worse",
        lambda c, i, lead: (
            0 if lead is not None and (c == FOOL_WILD or fool_colour(c) != lead) else 1,
            fool_number(c),
            -i,
        ),
    ),
    (
        "FOOL-WORST-2",
        "every off-colour card is worse than every lead-colour card, whatever the numbers",
        lambda c, i, lead: (fool_number(c), -i),
    ),
)


def misjudged(t: Trick, k: int) -> list[tuple[str, str]]:
    """Which rule a wrong set of fools breaks, by the smallest difference: the rules whose one misreading
    (``MISREADINGS``; for a second disc, the second fool taken by number alone, FOOL-WORST-4) gives
    exactly the engine's fools.  Two misreadings that give the same fools on this trick (a 1 taken over
    an off-colour card, both by "a 1 is off-colour" and by "numbers alone") are both named: the trick
    cannot tell them apart.  When none does, the first card the engine ranked wrongly decides."""
    got = set(t.got_fools)
    cards, seats, lead = t.cards, t.seats, t.lead
    found: list[tuple[str, str]] = []
    for clause, why, key in MISREADINGS:
        order = sorted(range(len(cards)), key=lambda i: key(cards[i], i, lead))
        if {seats[i] for i in order[:k]} == got:
            found.append((clause, why))
    if k > 1:
        rest = sorted((i for i in t.order[1:]), key=lambda i: (fool_number(cards[i]), -i))
        if {seats[i] for i in (t.order[0], *rest[: k - 1])} == got:
            found.append(
                (
                    "FOOL-WORST-4",
                    "the fools are the players of the k(n) worst cards of one total order: the second is the "
                    "next worst by the same order (off-colour before lead-colour), not the next lowest number",
                )
            )
    return found or [_first_misranked(t)]


def _first_misranked(t: Trick) -> tuple[str, str]:
    """The ordering rule that makes ``e`` (the worst card by the rules whose player the engine left
    without a disc) worse than ``x`` (the card of a player it gave one)."""
    cards, seats, lead = t.cards, t.seats, t.lead
    e = next(i for i in t.order if seats[i] in t.want_fools and seats[i] not in t.got_fools)
    x = next(i for i in t.order[::-1] if seats[i] in t.got_fools and seats[i] not in t.want_fools)
    ce, cx = cards[e], cards[x]
    if lead is None or (fool_number(ce) == fool_number(cx) and off_colour(ce, lead) == off_colour(cx, lead)):
        return "FOOL-WORST-3", "among equal candidates the later-played card is worse"
    if off_colour(ce, lead):
        return _off_colour_clause(cx, lead)
    if ce == FOOL_WILD:
        return "FOOL-WILD-2", "a 1 is the lowest card of the lead colour"
    if any(off_colour(c, lead) for c in cards):
        return "FOOL-WORST-4", "after the off-colour cards the next worst is the lowest lead-colour card"
    return "FOOL-WORST-1", "with no off-colour card the lowest-ranked card is worst"


def _off_colour_clause(cx: str, lead: str) -> tuple[str, str]:
    """An off-colour card left without a disc for ``cx``: a 1 (FOOL-WILD-2), a lead-colour card, or a
    higher off-colour card (FOOL-WORST-2)."""
    if cx == FOOL_WILD:
        return "FOOL-WILD-2", "a 1 counts as the lead colour and is never off-colour, so an off-colour card is worse"
    if not off_colour(cx, lead):
        return "FOOL-WORST-2", "every off-colour card is worse than every lead-colour card"
    return "FOOL-WORST-2", "with off-colour cards the lowest-numbered off-colour card is worst"
