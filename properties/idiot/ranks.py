"""The engine's rank comparisons, seen this game, and whether another order of the ranks explains them.

IDIOT-RANK-1 states the order (3 < 4 < ... < 10 < J < Q < K < A); IDIOT-PLAY-2 states how a play is
compared with the pile (same or higher than the top card, a 2 resets, equal rank allowed).  When the
engine allows or refuses a rank on a top rank against the rules, either rule may be the one broken:

- an *order error* (IDIOT-RANK-1): the engine compares by another total order of the ranks.  Its
  smallest form inverts exactly the pairs seen out of order: so a pair counts as an order error when
  every rank between the two is itself seen out of order with one of them (Q above K needs nothing
  else; 5 above K needs each of 6 .. Q seen below the 5 or above the K), when the reverse comparison
  was not seen going the same way (a total order allows exactly one of "Q on K" and "K on Q"), and when
  no comparison seen contradicts the order's transitivity;
- otherwise a *play error* (IDIOT-PLAY-2): a comparison no order explains, e.g. a 5 that goes on
  anything both ways (on a K, and a K on it), a top card ignored (the card under it decides: the same
  rank on the same top judged both ways), "after a 7 only 7 or lower";
- equal rank refused is always a play error: every order ranks a card with itself.

A rank *special* to the engine (seen compared unlike any order with two other ranks: a 5 on a K and a
K on the 5, an 8 refused on a 7 and the 7 on the 8) makes every comparison with it a play error, so
that it does not drag a pair of ordinary ranks (Q and K) with it.  A comparison seen one way only (a K
refused on a Q, the Q on the K not seen yet) is explained as well by a rule of its own as by an order:
a listed move's difference of that kind is *held* (``held``) until the other way is seen, or the game
ends, and filed then.

Evidence is the engine's own: the ranks of the hand it lists on each top (a rank is listed when any
single card of it is), the top card of the pile on the card under its run (a play the engine took),
and the blind cards it accepts or fails.  It is per game (a fresh properties object per ``new_game``)
and describes the engine, not the state, so it never desyncs from it.
"""

from __future__ import annotations

from typing import Any

from ruleproof.properties.idiot.aspects import Aspect
from ruleproof.properties.idiot.cards import ORDER, RANK_AT

ALLOWED, REFUSED = 1, 2


class Held:
    """A difference of the listed moves held back: the engine's verdict ``allowed`` on ``r`` played on
    ``top`` (moves missing when refused, listed when allowed), and those moves; ``through``: the cause to
    file it under as the transparent rule's when no order explains it (judged through a transparent card,
    listed as that card itself allows), else ""."""

    __slots__ = ("allowed", "moves", "r", "through", "top")

    def __init__(self, r: str, top: str, allowed: bool, moves: list[Any], through: str = "") -> None:
        self.r, self.top, self.allowed, self.moves, self.through = r, top, allowed, moves, through

    def hold(self, seen: RankVerdicts) -> None:
        """Keep this difference in ``seen`` (the first sighting of its pair is the one kept)."""
        lo, hi = (self.r, self.top) if RANK_AT[self.r] < RANK_AT[self.top] else (self.top, self.r)
        seen.held.setdefault((lo, hi), self)


class RankVerdicts:
    """The engine's verdicts this game: (rank played, top) -> ALLOWED and/or REFUSED bits.  The top is a
    rank, "2", or "" for an empty pile (those two only for IDIOT-TABLE-2's "as from the hand")."""

    __slots__ = ("capping", "cards", "hand", "held", "seen", "suits")

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], int] = {}
        # the hand's verdicts on every rank, 2s and 10s included (IDIOT-TABLE-2: "as from the hand")
        self.hand: dict[tuple[str, str], int] = {}
        # (lower rank, higher rank) -> a difference seen one way only, filed once the other way round is
        # seen (or the game is over)
        self.held: dict[tuple[str, str], Held] = {}
        # the hand's verdicts on every rank on a bare 7 under seven_lower (IDIOT-SEVEN-1's, not an order's):
        # what a transparent card on such a 7 is told apart by (``diff.misread_through``)
        self.capping: dict[str, int] = {}
        # the suits the engine treats apart from their rank (a heart that goes anywhere): a card of one is
        # IDIOT-RANK-1's suits, never evidence of its rank's order (``diff._record_suits``)
        self.suits: set[str] = set()
        # (rank played, top) -> the suits of that rank seen refused from the hand on that top
        self.cards: dict[tuple[str, str], set[str]] = {}

    def record(self, r: str, top: str, allowed: bool) -> None:
        k = (r, top)
        self.seen[k] = self.seen.get(k, 0) | (ALLOWED if allowed else REFUSED)

    def record_hand(self, r: str, top: str, allowed: bool) -> None:
        k = (r, top)
        self.hand[k] = self.hand.get(k, 0) | (ALLOWED if allowed else REFUSED)

    def record_capping(self, r: str, allowed: bool) -> None:
        self.capping[r] = self.capping.get(r, 0) | (ALLOWED if allowed else REFUSED)

    def record_card(self, card: str, top: str, allowed: bool) -> None:
        if not allowed:
            self.cards.setdefault((card[0], top), set()).add(card[1:])

    def refused_other_suit(self, card: str, top: str) -> bool:
        """A card of ``card``'s rank and another suit was seen refused from the hand on ``top``."""
        return bool(self.cards.get((card[0], top), set()) - {card[1:]})

    def from_hand(self, r: str, top: str) -> int:
        """The engine's verdicts seen on rank ``r`` from the hand on ``top`` (ALLOWED / REFUSED bits)."""
        return self.hand.get((r, top), 0)

    def _above(self, a: str, b: str) -> bool:
        """Seen ranking ``a`` above ``b`` where the rules rank it below (``a`` < ``b``): ``b`` refused on ``a``
        or ``a`` allowed on ``b``."""
        return bool(self.seen.get((b, a), 0) & REFUSED or self.seen.get((a, b), 0) & ALLOWED)

    def _below(self, a: str, b: str) -> bool:
        """Seen ranking ``a`` below ``b``, as the rules do (``a`` < ``b``)."""
        return bool(self.seen.get((b, a), 0) & ALLOWED or self.seen.get((a, b), 0) & REFUSED)

    def classify(self, r: str, top: str, allowed: bool, skip: str = "", now: bool = False) -> tuple[Aspect, str]:
        """The aspect and cause of the engine's verdict ``allowed`` on ``r`` played on ``top`` (both ordinary
        ranks), a verdict the rules do not give.  ``skip``: a rank no comparison can show (the 10 under
        ten_anytime), left out of the ranks between the two.  ``now``: a move the engine applied (it listed nothing
        the rules allow), whose finding cannot wait for more evidence since IDIOT-INV-4 fails in this step:
        a comparison seen one way only is then the smaller difference of a rule of its own (one verdict,
        where an order changes two)."""
        if r == top:
            return Aspect.EQUAL, "equal rank refused"
        lo, hi = (r, top) if RANK_AT[r] < RANK_AT[top] else (top, r)
        if self._unlike_any_order(r, top, allowed) or self.special(lo) or self.special(hi):
            return Aspect.RANK, f"{self._odd(r, top, allowed)} unlike any order"
        if self._not_minimal(lo, hi, skip) or (now and self.one_sided(r, top)):
            return Aspect.RANK, f"{self._odd(r, top, allowed)} unlike any order"
        return Aspect.ORDER, f"{lo} above {hi}"

    def _odd(self, r: str, top: str, allowed: bool) -> str:
        """The rank a comparison no order explains is blamed on (the cause of its finding, so that the
        comparisons of one special rank read as one cause): of the two, the one seen out of order with more
        ranks; on a tie the played rank of a lower card allowed (a 5 on anything), else the top of a higher
        card refused (on a 7 only lower).  A rank already special to the engine (``special``) is blamed first:
        with two special ranks (a 3 on anything, a 7 capping), their comparisons with each other fall on the
        one the engine showed its rule with."""
        special_r, special_top = self.special(r), self.special(top)
        if special_r != special_top:
            return r if special_r else top
        odd_r, odd_top = self._deviations(r), self._deviations(top)
        if odd_r != odd_top:
            return r if odd_r > odd_top else top
        return r if allowed else top

    def _deviations(self, x: str) -> int:
        """How many ranks ``x`` was seen compared with against the rules' order, leaving out the ranks special to
        the engine (a transparent 3 makes every rank refused on it look out of order: not their rule)."""
        at = RANK_AT[x]
        return sum(
            1
            for y in ORDER
            if y != x and (self._above(x, y) if at < RANK_AT[y] else self._above(y, x)) and not self.special(y)
        )

    def blame(self, r: str, top: str, allowed: bool) -> str:
        """``_odd``, for a comparison judged a play error with others of its state (``diff``)."""
        return self._odd(r, top, allowed)

    def _unlike_any_order(self, r: str, top: str, allowed: bool) -> str:
        """Why no order compares ``r`` on ``top`` so (a cause), or "": judged both ways, or the comparison the
        other way round going the same way."""
        if self.seen.get((r, top), 0) == ALLOWED | REFUSED:
            return f"{r} on {top} judged both ways"
        if self.seen.get((top, r), 0) & (ALLOWED if allowed else REFUSED):  # each allowed on the other, or neither
            return f"{r} on {top} and {top} on {r} alike"
        return ""

    def _not_minimal(self, lo: str, hi: str, skip: str) -> bool:
        """``lo`` above ``hi`` is not the smallest order of what was seen: a rank between them was not seen out
        of order with either, or another pair seen inverted forces a third one the other way than seen."""
        between = ORDER[RANK_AT[lo] + 1 : RANK_AT[hi]]
        if any(c != skip and not (self._above(lo, c) or self._above(c, hi)) for c in between):
            return True
        return self._contradicted(lo, hi)

    def one_sided(self, r: str, top: str) -> bool:
        """The comparison of ``top`` on ``r`` (the other way round) was never seen."""
        return (top, r) not in self.seen

    def _alike(self, a: str, b: str) -> bool:
        """The pair was seen compared unlike any order: a directed comparison judged both ways, or each rank
        allowed on the other, or neither."""
        ab, ba = self.seen.get((a, b), 0), self.seen.get((b, a), 0)
        both = ALLOWED | REFUSED
        return both in (ab, ba) or bool(ab and ba and ab == ba)

    def special(self, r: str) -> bool:
        """``r`` was seen compared unlike any order with two other ranks or more."""
        return sum(1 for x in ORDER if x != r and self._alike(r, x)) >= 2

    def _contradicted(self, lo: str, hi: str) -> bool:
        """``lo`` above ``hi`` together with another pair seen inverted forces a third pair inverted that was
        seen as the rules have it (no total order has all three)."""
        for x in ORDER[: RANK_AT[lo]]:
            if self._above(x, lo) and self._below(x, hi):
                return True
        return any(self._above(hi, y) and self._below(lo, y) for y in ORDER[RANK_AT[hi] + 1 :])
