"""The rules' vocabulary: ranks and their order, the pool, what may go on a pile, what burns.

Pure functions of cards (docs/rules/idiot.md: IDIOT-SETUP-2's pool, IDIOT-RANK-1's order, the
legality of IDIOT-PLAY-1/-2, IDIOT-TWO-1 and IDIOT-BURN-10, the burns of IDIOT-BURN-10/-4KIND/-6S)
and the multiset helpers the model and the checks share.  Nothing here names a clause: which
clause a difference breaks is the business of the checks (the ``check_*`` modules).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from typing import Any, Literal

from ruleproof.model.notation import STANDARD_DECK

GAME = "idiot"

ORDER = "3456789TJQKA"  # IDIOT-RANK-1: the "same or higher" order; a 2 is never higher than anything
LADDER = list(ORDER)  # IDIOT-OPEN-1: 3, 4, ..., 10, J, Q, K, A, then "any" (IDIOT-OPEN-3)
RANK_AT = {r: i for i, r in enumerate(ORDER)}
ZONE_ROWS = ("face_down", "face_up", "hand")  # each seat's three rows of three cards, as dealt

# why a rank may go on the pile: an empty pile, a 2, a 10 (ten_anytime), anything on a 2, or the order; a 7
# capping it (seven_lower), the transparent rank or a card judged through it (transparent)
Reason = Literal["empty", "two", "ten", "on-two", "order", "seven", "transparent"]
# what burns the pile: a 10, three (or four) 6s, a run of four of another rank
Burn = Literal["ten", "sixes", "run"]


def rk(card: str) -> str:
    return card[0]


def laid_out(cards: list[str], n: int) -> dict[str, Any]:
    """A deal of shuffled ``cards`` to ``n`` seats: three rows of three each, the rest the draw pile."""
    rows = [[cards[3 * (k * n + s) : 3 * (k * n + s) + 3] for s in range(n)] for k in range(3)]
    return {"type": "deal", "face_down": rows[0], "face_up": rows[1], "hand": rows[2], "draw": cards[9 * n :]}


def default_decks(n: int) -> int:
    """IDIOT-SETUP-2's default: one deck per three players, and enough for nine cards a player."""
    return max(math.ceil(n / 3), math.ceil(9 * n / 52))


def pool(decks: int) -> Counter[str]:
    """IDIOT-SETUP-2: D standard decks shuffled together."""
    return Counter({c: decks for c in STANDARD_DECK})


def top_key(pile: list[str]) -> str:
    """The top of the pile as a rank comparison sees it: its rank, or "" for an empty pile."""
    return pile[-1][0] if pile else ""


def ordinary(r: str, opts: dict[str, Any]) -> bool:
    """A rank that goes on the pile by the order alone: not a 2, nor a 10 under ``ten_anytime``, nor the
    transparent rank (IDIOT-TRANSPARENT-1)."""
    return r != "2" and not (r == "T" and opts["ten_anytime"]) and not clear(r, opts)


def clear(r: str, opts: dict[str, Any]) -> bool:
    """IDIOT-TRANSPARENT-1: ``r`` is the transparent rank (it goes on anything)."""
    return r == opts.get("transparent")


def through(pile: list[str], opts: dict[str, Any]) -> bool:
    """IDIOT-TRANSPARENT-1: a transparent card on top: the next play is judged against the card below."""
    return bool(pile) and clear(pile[-1][0], opts)


def beneath(pile: list[str], opts: dict[str, Any]) -> list[str]:
    """IDIOT-TRANSPARENT-1: the pile the next play is judged against: the transparent cards on top left out
    (the first card below of another rank decides; an empty pile when there is none)."""
    k = len(pile)
    while k and clear(pile[k - 1][0], opts):
        k -= 1
    return pile if k == len(pile) else pile[:k]


def judged_top(pile: list[str], opts: dict[str, Any]) -> str:
    """The rank a play is compared with: the top's, or through transparent cards the first card below of
    another rank's ("" for none: IDIOT-TRANSPARENT-1)."""
    return top_key(beneath(pile, opts))


def reason(r: str, pile: list[str], opts: dict[str, Any]) -> Reason | None:
    """Why a set of rank ``r`` may go on this pile (IDIOT-PLAY-1/-2, IDIOT-TWO-1, IDIOT-BURN-10), or
    None when it may not."""
    if not pile:
        return "empty"
    if r == "2":
        return "two"
    if clear(r, opts) or through(pile, opts) or capped(pile, opts):
        return _house_reason(r, pile, opts)
    if r == "T" and opts["ten_anytime"]:
        return "ten"
    top = pile[-1][0]
    if top == "2":
        return "on-two"
    return "order" if RANK_AT[r] >= RANK_AT[top] else None


def _house_reason(r: str, pile: list[str], opts: dict[str, Any]) -> Reason | None:
    """IDIOT-TRANSPARENT-1: the transparent rank goes on anything; through a transparent card on top the play
    is judged against the card below (a 10 is still a 10 there, the rest is the rule's).  IDIOT-SEVEN-1: on a
    7 a 7 or lower (a 2 is judged before); a 10 may not."""
    if clear(r, opts):
        return "transparent"
    if not through(pile, opts):
        return "seven" if RANK_AT[r] <= RANK_AT["7"] else None
    why = reason(r, beneath(pile, opts), opts)
    return "ten" if why == "ten" else None if why is None else "transparent"


def capped(pile: list[str], opts: dict[str, Any]) -> bool:
    """IDIOT-SEVEN-1: a 7 on top under ``seven_lower``: the next play is judged by that rule, not the order."""
    return bool(pile) and pile[-1][0] == "7" and bool(house(opts, "seven_lower")) and not clear("7", opts)


def playable(r: str, pile: list[str], opts: dict[str, Any]) -> bool:
    """May a set of rank r go on this pile?  (``reason`` is not None, without building the reason.)"""
    if not pile or r == "2":
        return True
    if clear(r, opts):
        return True
    if through(pile, opts):
        return playable(r, beneath(pile, opts), opts)
    if capped(pile, opts):
        return RANK_AT[r] <= RANK_AT["7"]
    if r == "T" and opts["ten_anytime"]:
        return True
    top = pile[-1][0]
    return top == "2" or RANK_AT[r] >= RANK_AT[top]


def top_run(pile: list[str]) -> int:
    """IDIOT-AMB-8: the maximal run of same-rank cards on top of the pile."""
    if not pile:
        return 0
    r, n = pile[-1][0], 0
    for c in reversed(pile):
        if c[0] != r:
            break
        n += 1
    return n


def burn_of(r: str) -> Burn:
    """The kind of burn a pile topped by rank ``r`` makes, if it burns."""
    return "ten" if r == "T" else "sixes" if r == "6" else "run"


def burn_kind(pile: list[str], opts: dict[str, Any]) -> Burn | None:
    """The burn this pile triggers (a 10, a run of 6s, a run of four), or None."""
    if not pile:
        return None
    r, run = pile[-1][0], top_run(pile)
    if r == "T":
        return "ten"
    if r == "6":
        return "sixes" if run >= opts["six_burn"] else None
    return "run" if run >= 4 else None


def run_past_twos(pile: list[str]) -> int:
    """The cards of the top card's rank on top of the pile, counting through 2s (IDIOT-BURN-4KIND's
    misreading: 9 9 2 9 9 is a run of two, not four)."""
    if not pile or pile[-1][0] == "2":
        return 0
    r, n = pile[-1][0], 0
    for c in reversed(pile):
        if c[0] == r:
            n += 1
        elif c[0] != "2":
            break
    return n


def submultisets(cards: Counter[str]) -> list[list[str]]:
    """Every non-empty sub-multiset (sorted card lists)."""
    items = sorted(cards.items())
    out = []
    for counts in itertools.product(*(range(n + 1) for _, n in items)):
        picked = [c for (c, _), k in zip(items, counts, strict=False) for _ in range(k)]
        if picked:
            out.append(picked)
    return out


def by_rank(cards: Counter[str]) -> dict[str, dict[str, int]]:
    """The cards grouped by rank, each group a card -> count dict (plain dicts: read, never counted into)."""
    out: dict[str, dict[str, int]] = {}
    for c, n in cards.items():
        group = out.get(c[0])
        if group is None:
            group = out[c[0]] = {}
        group[c] = n
    return out


def rank_groups(cards: list[str]) -> dict[str, list[str]]:
    """The cards grouped by rank, the ranks in the order they first appear (as ``by_rank`` of their multiset)."""
    out: dict[str, list[str]] = {}
    for c in cards:
        group = out.get(c[0])
        if group is None:
            out[c[0]] = [c]
        else:
            group.append(c)
    return out


def play(cards: list[str]) -> dict[str, Any]:
    return {"type": "play", "cards": list(cards)}


def size(c: Counter[str]) -> int:
    return sum(c.values())


def same(a: Counter[str], b: Counter[str]) -> bool:
    """``a == b`` for multisets, fast: Counter's own ``==`` walks both key sets in Python, while equal
    dicts are equal Counters; only dicts that differ (a zero count, or a real difference) take the slow test."""
    return dict.__eq__(a, b) or a == b


def within(want: Counter[str], *zones: Counter[str]) -> bool:
    """``want <= zones[0] + zones[1] + ...`` for multisets, without Counter's ``+`` and ``<=`` (each a walk
    over every key in Python); every Counter here holds positive counts only, so the two agree."""
    if len(zones) == 1:
        have = zones[0]
        return all(k <= have[c] for c, k in want.items())
    return all(k <= sum(z[c] for z in zones) for c, k in want.items())


def take(have: Counter[str], cards: Counter[str]) -> None:
    """``have -= cards`` for cards ``have`` holds: only the played cards' counts are touched (Counter's ``-=``
    walks every key of the hand)."""
    for c, k in cards.items():
        left = have[c] - k
        if left > 0:
            have[c] = left
        else:
            have.pop(c, None)


def sorted_cards(c: Counter[str]) -> list[str]:
    return sorted(c.elements())


# the house-rule options of the turn and their values when an engine does not declare them (docs/rules/idiot.md):
# each 8 of the play that passes the turn skips a player (IDIOT-EIGHT-1); a play of the rank reverses (REVERSE-1)
# after a 7 only a 7 or lower, or a 2 (IDIOT-SEVEN-1); a card of the rank goes on anything and is seen through
# (IDIOT-TRANSPARENT-1: any rank but the 2, which resets, and the 10, which burns)
HOUSE_OPTIONS: dict[str, Any] = {"seven_lower": False, "eight_skips": False, "reverse": None, "transparent": None}
REVERSE_RANKS = tuple("23456789TJQKA")
TRANSPARENT_RANKS = tuple("3456789JQKA")
# IDIOT-TRANSPARENT-1's situations: a transparent card on a card it does not beat, a play judged against the
# card below, against an empty pile (nothing but transparent cards), through several transparent cards
# the options a transparent rank plays with (IDIOT-TRANSPARENT-1's pairs): the rank each names, which plays
# differently as the transparent one (three transparent 6s burn under six_burn 3; a transparent 7 does not cap
# under seven_lower); every other rank alike ("another rank"), and with after_burn every rank alike (a burn of
# transparent cards hands on the turn as any burn)
TRANSPARENT_PAIRS: dict[str, str | None] = {"six_burn": "6", "seven_lower": "7", "after_burn": None}
TRANSPARENT_SITUATIONS = ("on-anything", "judged-below", "empty-below", "stacked")


def house(opts: dict[str, Any], name: str) -> Any:
    """A house-rule option's value in a state's options (its default when the engine does not report it)."""
    return opts.get(name, HOUSE_OPTIONS[name])


DECK_SITUATIONS = ("1 deck", "several decks")  # the pools IDIOT-SETUP-2 and IDIOT-DEAL-2 are judged with


def deck_situation(decks: int) -> str:
    """The situation of a pool of ``decks`` packs: with more than one, identical cards exist."""
    return DECK_SITUATIONS[0] if decks == 1 else DECK_SITUATIONS[1]


def diff(got: Counter[str], want: Counter[str]) -> dict[str, Any]:
    """Extra and missing cards, for a finding (a few of each)."""
    return {"extra": sorted((got - want).elements())[:8], "missing": sorted((want - got).elements())[:8]}


def progress_score(m: dict[str, Any]) -> int:
    """Lower is more progress: keep 2s and 10s, shed low cards and several at once, pick up last."""
    t = m.get("type")
    if t == "play":
        cards = m.get("cards") or ["3C"]
        r = rk(cards[0])
        base = 13 if r == "2" else 12 if r == "T" else RANK_AT.get(r, 0)
        return base - len(cards)
    return {"pickup": 100, "stop": 30, "decline": 20, "swap": 10}.get(t or "", 0)
