"""The engine's legal moves against the rules' legal set: each difference with the aspect that explains it.

A state's ``gaps`` are the moves the rules require that the engine does not list and the listed moves
the rules forbid, grouped by the aspect of the rules that explains them by the smallest difference:

- a play missing with the other plays of its rank is the rank's legality (an empty pile, a 2, a 10, on
  a 2, equal rank, or a comparison ``ranks`` tells apart as an order error or not); a set of several
  cards missing while each of its cards is listed alone is the set's rule; one card of a rank listed
  and another of it not is the suits;
- a face-up rank missing is the face-up zone only when the engine was seen listing that rank on that
  top from the hand (or when several ranks of unrelated reasons are all missing): otherwise it is the
  rank's legality like a hand card's;
- a combination missing while its rank's hand plays are listed is the combination's rule;
- a listed move the rules forbid is ``legal.why_illegal``'s aspect, an ordinary rank refined by ``ranks``.

Computing the gaps also records the hand's verdicts of the state in the game's ``RankVerdicts``.
"""

from __future__ import annotations

import os
from collections import defaultdict
from typing import Any

from ruleproof.properties.idiot.aspects import Aspect
from ruleproof.properties.idiot.cards import (
    RANK_AT,
    beneath,
    capped,
    clear,
    judged_top,
    ordinary,
    reason,
    through,
    top_key,
    top_run,
)
from ruleproof.properties.idiot.legal import Ctx, Required, legal_set, why_illegal
from ruleproof.properties.idiot.ranks import ALLOWED, REFUSED, Held, RankVerdicts
from ruleproof.properties.idiot.view import Key, View

HOLD = os.environ.get("IDIOT_HOLD", "1") == "1"  # (experiment)
# the aspect of a missing move that is not a play, by the context the rules allow it in
SIMPLE_ASPECT: dict[str, Aspect] = {
    "swap": Aspect.SWAP,
    "ready": Aspect.SWAP,
    "decline": Aspect.LADDER,
    "pickup": Aspect.PICKUP,
    "blind": Aspect.BLIND,
    "followup": Aspect.FOLLOWUP,  # a blind follow-up
}
# the aspect of a whole rank missing, by the context other than the play phase
RANK_CTX_ASPECT: dict[str, Aspect] = {
    "ladder": Aspect.LADDER,
    "any": Aspect.LADDER_ANY,
    "followup": Aspect.FOLLOWUP,
    "chain": Aspect.CHAIN,
}
REASON_ASPECT: dict[str, Aspect] = {
    "empty": Aspect.EMPTY_PILE,
    "two": Aspect.TWO,
    "ten": Aspect.TEN,
    "on-two": Aspect.ON_TWO,
    "seven": Aspect.SEVEN,
    "transparent": Aspect.TRANSPARENT,
}


class Gap:
    """One difference: moves missing (``missing``) or listed against the rules, the aspect and the cause;
    ``earlier``: seen in an earlier state of the game and held until now (``ranks``)."""

    __slots__ = ("aspect", "cause", "earlier", "missing", "moves")

    def __init__(self, aspect: Aspect, cause: str, missing: bool, earlier: bool = False) -> None:
        self.aspect, self.cause, self.missing, self.earlier = aspect, cause, missing, earlier
        self.moves: list[dict[str, Any]] = []


def gaps(v: View, seen: RankVerdicts) -> list[Gap]:
    """The differences of this state's listed moves from the rules' (once per state)."""
    if v.gaps is not None:
        return v.gaps
    if v.legal is None:
        v.legal = legal_set(v)
    req, opt = v.legal
    listed = v.listed
    record_hand(v, seen)
    found: dict[tuple[Aspect, str, bool], Gap] = {}
    for k, m in listed.items():
        if k not in req and k not in opt:
            aspect, cause = extra_aspect(v, seen, m)
            if aspect is not None:
                _add(found, aspect, cause, False, m)
    missing = [k for k in req if k not in listed]
    if missing:
        _missing(v, seen, req, missing, found)
    _jointly(v, seen, found)
    _hold(v, seen, found)
    v.gaps = [*found.values(), *_resolved(v, seen, False)]
    return v.gaps


def _jointly(v: View, seen: RankVerdicts, found: dict[tuple[Aspect, str, bool], Gap]) -> None:
    """The comparisons of one state share its top card: when one of them is a play error not due to a rank the
    engine treats specially, one rule of the top explains them all, a new order of the ranks none of them."""
    ranks = [(k, g) for k, g in found.items() if g.aspect in (Aspect.ORDER, Aspect.RANK)]
    if not any(g.aspect is Aspect.ORDER for _, g in ranks):
        return
    if not any(g.aspect is Aspect.RANK and not seen.special(g.moves[0]["cards"][0][0]) for _, g in ranks):
        return
    top = judged_top(v.pile, v.opts)  # through a transparent card, the card below is compared
    for k, g in ranks:
        if g.aspect is Aspect.ORDER:
            del found[k]
            for m in g.moves:
                _add(
                    found,
                    Aspect.RANK,
                    f"{seen.blame(m['cards'][0][0], top, not g.missing)} unlike any order",
                    g.missing,
                    m,
                )


def held_gaps(v: View, seen: RankVerdicts) -> list[Gap]:
    """The differences held back this game, filed as they read now: the game is over (once per state)."""
    if v.gaps is None:
        v.gaps = _resolved(v, seen, True)
    return v.gaps


def _hold(v: View, seen: RankVerdicts, found: dict[tuple[Aspect, str, bool], Gap]) -> None:
    """A comparison another order explains but seen one way only (the other way round never seen) is as well
    explained by a rule of its own: held back until the other way is seen (``ranks``)."""
    for key, gap in list(found.items()):
        if gap.aspect is Aspect.ORDER:
            r, top = gap.moves[0]["cards"][0][0], judged_top(v.pile, v.opts)
            if seen.one_sided(r, top):
                Held(r, top, not gap.missing, gap.moves).hold(seen)
                del found[key]


def _resolved(v: View, seen: RankVerdicts, over: bool) -> list[Gap]:
    """The held differences whose other way round has been seen now (every one, when ``over``)."""
    out = []
    for key, held in list(seen.held.items()):
        if over or not seen.one_sided(held.r, held.top):
            aspect, cause = seen.classify(held.r, held.top, held.allowed, _skip(v))
            gap = Gap(aspect, cause, not held.allowed, earlier=True)
            gap.moves = held.moves
            out.append(gap)
            del seen.held[key]
    return out


def _add(found: dict[tuple[Aspect, str, bool], Gap], aspect: Aspect, cause: str, missing: bool, m: Any) -> None:
    gap = found.get((aspect, cause, missing))
    if gap is None:
        gap = found[aspect, cause, missing] = Gap(aspect, cause, missing)
    # a copy: the required plays are cached and shared between steps
    gap.moves.append({k: list(x) if isinstance(x, list) else x for k, x in m.items()} if isinstance(m, dict) else m)


def record_hand(v: View, seen: RankVerdicts) -> None:
    """The engine's verdicts this state shows: the top card's rank on the rank under its run (the engine
    took that play), and in the play phase, nothing pending, each rank of the hand (listed or not)."""
    pile, opts = v.pile, v.opts
    if capped(pile, opts) or through(pile, opts):
        return  # on a 7 under seven_lower, or through a transparent card, the ranks are judged by that rule
    under = pile[: -top_run(pile)]
    if pile and ordinary(pile[-1][0], opts) and not capped(under, opts) and not through(under, opts):
        run = top_run(pile)
        if len(pile) > run and pile[-run - 1][0] != "2":
            seen.record(pile[-1][0], pile[-run - 1][0], True)
    s = v.seat
    if s is None or v.phase != "play" or v.pending or v.zone_of(s) != "hand":
        return
    top, listed = top_key(v.pile), v.listed
    ranks: dict[str, bool] = {}
    for c in v.hand.lists[s]:
        r = c[0]
        ranks[r] = ranks.get(r, False) or (c,) in listed
    for r, allowed in ranks.items():
        seen.record_hand(r, top, allowed)
        if ordinary(r, opts) or not pile:
            seen.record(r, top, allowed)


def extra_aspect(v: View, seen: RankVerdicts, m: Any, now: bool = False) -> tuple[Aspect | None, str]:
    """The aspect and cause of a listed move the rules do not allow here (``now``: applied, ``ranks``)."""
    aspect = why_illegal(v, m) if isinstance(m, dict) else Aspect.SET
    if aspect is not Aspect.RANK:
        return aspect, aspect.value if aspect is not None else ""
    if _suits_apart(v, m["cards"]):
        return Aspect.SUITS, "suits"
    if through(v.pile, v.opts):
        if misread_through(v, seen, m["cards"][0][0], True):
            return Aspect.TRANSPARENT, f"through a {v.pile[-1][0]}"
        return _below_aspect(v, seen, m, now)
    if capped(v.pile, v.opts):
        return Aspect.SEVEN, "above a 7"
    return seen.classify(m["cards"][0][0], v.pile[-1][0], True, _skip(v), now)


def misread_through(v: View, seen: RankVerdicts, r: str, allowed: bool) -> bool:
    """A verdict on ordinary rank ``r`` through a transparent card that the rules do not give: the transparent
    rule's (IDIOT-TRANSPARENT-1) when the engine gives the other verdict on the card below with nothing on it
    (the transparent card changed it), or nothing lies below (no other card to judge against).  The same
    verdict on the bare card is the engine's order of the ranks, as on any pile, which the rank rules judge (a
    Q taken on a K, a 4 refused on a 2 when the 2 is passed over).  Neither seen yet: the rule's only where
    the listing is the transparent card's own, as an ordinary card of its rank, in two ranks or more."""
    below = judged_top(v.pile, v.opts)
    if not below:
        return True
    if not ordinary(below, v.opts):
        return False  # a 2 (or a 10) below: its own rule, whatever lies under it, which a rank cannot show
    bits = seen.seen.get((r, below), 0)
    if bits:
        return not bits & (ALLOWED if allowed else REFUSED)
    return _as_itself(v)


def _as_itself(v: View) -> bool:
    """The plain ranks the zone in play holds are listed exactly as the transparent card on top allows them as
    an ordinary card of its rank, where at least two of them the card below does not allow: one rank alone is
    as well an order of the ranks, which the rank rules judge (a house rule is not blamed for what the
    documents' rules explain as well)."""
    s, opts = v.seat, v.opts
    zone = {"hand": v.hand, "face_up": v.fu}.get(v.zone_of(s)) if s is not None else None
    if zone is None or s is None:
        return False
    ranks = {c[0] for c in zone[s] if ordinary(c[0], opts)}
    listed = {m["cards"][0][0] for m in v.listed.values() if isinstance(m, dict) and m.get("cards")}
    itself = {r for r in ranks if RANK_AT[r] >= RANK_AT[v.pile[-1][0]]}
    by_rules = {r for r in ranks if reason(r, v.pile, opts) is not None}
    return len(itself ^ by_rules) >= 2 and ranks & listed == itself


def _below_aspect(v: View, seen: RankVerdicts, m: dict[str, Any], now: bool) -> tuple[Aspect, str]:
    """An extra play through a transparent card that the engine's order explains: judged as on the card below."""
    under = beneath(v.pile, v.opts)
    if capped(under, v.opts):
        return Aspect.SEVEN, "above a 7"
    return seen.classify(m["cards"][0][0], top_key(under), True, _skip(v), now)


def _suits_apart(v: View, cards: list[str]) -> bool:
    """A card of a rank listed alone while another card of that rank in the open zone is not: the engine
    tells the suits apart (whatever the pile allows)."""
    s = v.seat
    if s is None or len(cards) != 1:
        return False
    zone = v.zone_of(s)
    row = v.hand.lists[s] if zone == "hand" else v.fu.lists[s] if zone == "face_up" else []
    listed = v.listed
    return any(c[0] == cards[0][0] and (c,) not in listed for c in row)


def _skip(v: View) -> str:
    return "T" if v.opts["ten_anytime"] else ""


def _missing(
    v: View, seen: RankVerdicts, req: Required, missing: list[Key], found: dict[tuple[Aspect, str, bool], Gap]
) -> None:
    """Each missing move under the aspect that explains it (the module's docstring)."""
    listed = v.listed
    plays: dict[str, list[tuple[dict[str, Any], Ctx]]] = defaultdict(list)
    for k in missing:
        m, ctx = req[k]
        if m["type"] == "play":
            plays[m["cards"][0][0]].append((m, ctx))
        elif ctx == "stop":
            aspect = Aspect.FOLLOWUP if v.pending == "two_followup" else Aspect.CHAIN
            _add(found, aspect, aspect.value, True, m)
        else:
            aspect = SIMPLE_ASPECT[ctx]
            _add(found, aspect, aspect.value, True, m)
    # the ranks some plain (not combined) required play of which is listed
    shown = {m["cards"][0][0] for k, (m, c) in req.items() if c != "combo" and m["type"] == "play" and k in listed}
    for r, group in plays.items():
        for m, ctx in group:
            aspect, cause = _missing_play(v, seen, m, ctx, r in shown)
            _add(found, aspect, cause, True, m)


def _missing_play(v: View, seen: RankVerdicts, m: dict[str, Any], ctx: Ctx, rank_listed: bool) -> tuple[Aspect, str]:
    """A missing play: a combination, a single card, or a set, by what else of its rank is listed."""
    listed, cards = v.listed, m["cards"]
    if ctx == "combo":
        return (Aspect.COMBO, "combination") if rank_listed else _whole_rank(v, seen, cards[0][0], "play")
    singles = [(c,) in listed for c in dict.fromkeys(cards)]
    if len(cards) == 1:
        return (Aspect.SUITS, "suits") if rank_listed else _whole_rank(v, seen, cards[0][0], ctx)
    if all(singles):
        face_up = ctx in ("play", "followup") and v.seat is not None and v.zone_of(v.seat) == "face_up"
        return (Aspect.FACE_UP_ALIKE, "several") if face_up else (Aspect.SET, "several")
    if any(singles) or rank_listed:
        return Aspect.SUITS, "suits"
    return _whole_rank(v, seen, cards[0][0], ctx)


def _whole_rank(v: View, seen: RankVerdicts, r: str, ctx: Ctx) -> tuple[Aspect, str]:
    """Every play of rank ``r`` missing: the context's rule, or in the play phase the rank's legality (or,
    from the face-up row, the face-up zone when the hand would list it)."""
    if ctx == "chain" and _equal_refused(v, seen, r):
        return Aspect.EQUAL, f"{Aspect.EQUAL.value} on {r}"
    if ctx in RANK_CTX_ASPECT:
        aspect = RANK_CTX_ASPECT[ctx]
        return aspect, aspect.value
    s = v.seat
    assert s is not None
    why = reason(r, v.pile, v.opts)
    top = top_key(v.pile)
    if v.zone_of(s) == "face_up" and _zone_closed(v, seen, s, r, top):
        face_up_listed = any(m.get("type") == "play" for m in v.listed.values())
        return (Aspect.FACE_UP_ALIKE, "as from the hand") if face_up_listed else (Aspect.FACE_UP, "face-up")
    if why == "transparent" and not clear(r, v.opts) and not misread_through(v, seen, r, False):
        # refused through a transparent card as the engine refuses it on the card below: the rank rules'
        under = beneath(v.pile, v.opts)
        why, top = reason(r, under, v.opts), top_key(under)
    if why is None or why == "order":
        return seen.classify(r, top, False, _skip(v))
    return REASON_ASPECT[why], f"{REASON_ASPECT[why].value} on {top or 'nothing'}"


def _equal_refused(v: View, seen: RankVerdicts, r: str) -> bool:
    """A chain the engine itself says is pending, its rank missing: the cards are of the top's rank, and an
    engine never seen taking a rank on itself this game refuses them as it refuses equal rank (IDIOT-PLAY-2),
    one bug whichever state shows it; a chain not opened at all is the chain's rule (``pending``)."""
    if v.pending != "chain" or r == "2" or top_key(v.pile) != r:
        return False
    return not (seen.seen.get((r, r), 0) & ALLOWED or seen.from_hand(r, r) & ALLOWED)


def _zone_closed(v: View, seen: RankVerdicts, s: int, r: str, top: str) -> bool:
    """A face-up rank missing is the face-up zone's difference when the engine lists that rank on this top
    from the hand, or when no face-up play is listed though ranks the pile allows for different reasons
    (an empty pile, a 2, a 10, the order) are there, none of them seen refused from the hand on this top."""
    if top and ordinary(top, v.opts) and seen.special(top):
        return False  # a top the engine judges unlike any order (a transparent 3): its verdicts vary, not the zone
    if seen.from_hand(r, top) & ALLOWED:
        return True
    if any(m.get("type") == "play" for m in v.listed.values()):
        return False
    ranks = {c[0] for c in v.fu.lists[s]}
    why = {reason(x, v.pile, v.opts) for x in ranks}
    why.discard(None)
    unrelated = len(why) >= 2 or "empty" in why
    return unrelated and not any(seen.from_hand(x, top) & REFUSED for x in ranks)
