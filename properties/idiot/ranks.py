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

Evidence is the engine's own: the ranks of the hand it lists on each top (a rank is listed when any
single card of it is), and the blind cards it accepts or fails.  It is per game (a fresh properties
object per ``new_game``) and describes the engine, not the state, so it never desyncs from it.
"""

from __future__ import annotations

from ruleproof.properties.idiot.aspects import Aspect
from ruleproof.properties.idiot.cards import ORDER, RANK_AT

ALLOWED, REFUSED = 1, 2


class RankVerdicts:
    """The engine's verdicts this game: (rank played, top) -> ALLOWED and/or REFUSED bits.  The top is a
    rank, "2", or "" for an empty pile (those two only for IDIOT-TABLE-2's "as from the hand")."""

    __slots__ = ("seen",)

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], int] = {}

    def record(self, r: str, top: str, allowed: bool) -> None:
        k = (r, top)
        self.seen[k] = self.seen.get(k, 0) | (ALLOWED if allowed else REFUSED)

    def allowed(self, r: str, top: str) -> bool:
        """The engine was seen allowing rank ``r`` on ``top`` (from the hand, or blind)."""
        return bool(self.seen.get((r, top), 0) & ALLOWED)

    def _above(self, a: str, b: str) -> bool:
        """Seen ranking ``a`` above ``b`` where the rules rank it below (``a`` < ``b``): ``b`` refused on ``a``
        or ``a`` allowed on ``b``."""
        return bool(self.seen.get((b, a), 0) & REFUSED or self.seen.get((a, b), 0) & ALLOWED)

    def _below(self, a: str, b: str) -> bool:
        """Seen ranking ``a`` below ``b``, as the rules do (``a`` < ``b``)."""
        return bool(self.seen.get((b, a), 0) & ALLOWED or self.seen.get((a, b), 0) & REFUSED)

    def classify(self, r: str, top: str, allowed: bool, skip: str = "") -> tuple[Aspect, str]:
        """The aspect and cause of the engine's verdict ``allowed`` on ``r`` played on ``top`` (both ordinary
        ranks), a verdict the rules do not give.  ``skip``: a rank no comparison can show (the 10 under
        ten_anytime), left out of the ranks between the two."""
        if r == top:
            return Aspect.EQUAL, "equal rank refused"
        lo, hi = (r, top) if RANK_AT[r] < RANK_AT[top] else (top, r)
        if self.seen.get((r, top), 0) == ALLOWED | REFUSED:
            return Aspect.RANK, f"{r} on {top} judged both ways"
        back = self.seen.get((top, r), 0)
        if back & (ALLOWED if allowed else REFUSED):  # both allowed on the other, or neither
            return Aspect.RANK, f"{r} on {top} and {top} on {r} alike"
        between = ORDER[RANK_AT[lo] + 1 : RANK_AT[hi]]
        if any(c != skip and not (self._above(lo, c) or self._above(c, hi)) for c in between):
            return Aspect.RANK, f"{r} on {top}"
        if self._contradicted(lo, hi):
            return Aspect.RANK, f"{r} on {top}"
        return Aspect.ORDER, f"{lo} above {hi}"

    def _contradicted(self, lo: str, hi: str) -> bool:
        """``lo`` above ``hi`` together with another pair seen inverted forces a third pair inverted that was
        seen as the rules have it (no total order has all three)."""
        for x in ORDER[: RANK_AT[lo]]:
            if self._above(x, lo) and self._below(x, hi):
                return True
        return any(self._above(hi, y) and self._below(lo, y) for y in ORDER[RANK_AT[hi] + 1 :])
