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
from collections.abc import Callable
from typing import Any

from ruleproof.properties.idiot.aspects import Aspect
from ruleproof.properties.idiot.cards import (
    ORDER,
    beneath,
    capped,
    clear,
    judged_top,
    ordinary,
    play,
    playable,
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
    _record_suits(v, seen, [m for k, m in listed.items() if k not in req and k not in opt])
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
                # listed as the transparent card on top itself allows it: the transparent rule's, should no
                # order explain it once the other way round is seen
                itself = f"through a {v.pile[-1][0]}" if _apart_as_itself(v) == {r} else ""
                Held(r, top, not gap.missing, gap.moves, itself).hold(seen)
                del found[key]


def _resolved(v: View, seen: RankVerdicts, over: bool) -> list[Gap]:
    """The held differences whose other way round has been seen now (every one, when ``over``)."""
    out = []
    for key, held in list(seen.held.items()):
        if over or not seen.one_sided(held.r, held.top):
            aspect, cause = seen.classify(held.r, held.top, held.allowed, _skip(v))
            if held.through and aspect is not Aspect.ORDER:
                aspect, cause = Aspect.TRANSPARENT, held.through
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
    if through(pile, opts):
        return  # through a transparent card the ranks are judged by that rule
    if capped(pile, opts):  # on a 7 under seven_lower: by that rule, kept apart from the order's verdicts
        for r, allowed in _hand_verdicts(v, seen).items():
            seen.record_capping(r, allowed)
        return
    under = pile[: -top_run(pile)]
    if pile and ordinary(pile[-1][0], opts) and not capped(under, opts) and not through(under, opts):
        run = top_run(pile)
        if len(pile) > run and pile[-run - 1][0] != "2":
            seen.record(pile[-1][0], pile[-run - 1][0], True)
    top = top_key(v.pile)
    s = v.seat
    if s is not None and v.phase == "play" and not v.pending and v.zone_of(s) == "hand":
        for c in v.hand.lists[s]:  # each card's own, so that one suit's verdict is told from another's
            seen.record_card(c, top, (c,) in v.listed)
    for r, allowed in _hand_verdicts(v, seen).items():
        seen.record_hand(r, top, allowed)
        if ordinary(r, opts) or not pile:
            seen.record(r, top, allowed)


def _hand_verdicts(v: View, seen: RankVerdicts) -> dict[str, bool]:
    """In the play phase, nothing pending, each rank of the hand: listed (any card of it) or not.  A card of a
    suit the engine tells apart (``RankVerdicts.suits``) says nothing of its rank."""
    s = v.seat
    if s is None or v.phase != "play" or v.pending or v.zone_of(s) != "hand":
        return {}
    listed = v.listed
    ranks: dict[str, bool] = {}
    for c in v.hand.lists[s]:
        if c[1:] not in seen.suits:
            r = c[0]
            ranks[r] = ranks.get(r, False) or (c,) in listed
    return ranks


def _record_suits(v: View, seen: RankVerdicts, extra: list[Any]) -> None:
    """The suits the engine is seen telling apart (IDIOT-RANK-1), from the single cards listed against the rules'
    rank legality: one listed while another card of its rank in the zone is not.  (Cards of two ranks all of
    one suit listed so are no evidence alone: a house rule of the top, odd ranks on a 9, lists them too.)"""
    singles = [m["cards"][0] for m in extra if isinstance(m, dict) and m.get("type") == "play" and len(m["cards"]) == 1]
    for c in singles:
        if why_illegal(v, play([c])) is Aspect.RANK and _suits_apart(v, [c]):
            seen.suits.add(c[1:])


def extra_aspect(v: View, seen: RankVerdicts, m: Any, now: bool = False) -> tuple[Aspect | None, str]:
    """The aspect and cause of a listed move the rules do not allow here (``now``: applied, ``ranks``)."""
    aspect = why_illegal(v, m) if isinstance(m, dict) else Aspect.SET
    if aspect is not Aspect.RANK:
        return aspect, aspect.value if aspect is not None else ""
    if _suits_apart(v, m["cards"], seen) or (len(m["cards"]) == 1 and m["cards"][0][1:] in seen.suits):
        return Aspect.SUITS, "suits"
    if through(v.pile, v.opts):
        if misread_through(v, seen, m["cards"][0][0], True):
            return Aspect.TRANSPARENT, f"through a {v.pile[-1][0]}"
        return _below_aspect(v, seen, m, now)
    if capped(v.pile, v.opts):
        return Aspect.SEVEN, "above a 7"
    return seen.classify(m["cards"][0][0], v.pile[-1][0], True, _skip(v), now)


def misread_through(v: View, seen: RankVerdicts, r: str, allowed: bool) -> bool:
    """A verdict on rank ``r`` through a transparent card that the rules do not give: the transparent rule's
    (IDIOT-TRANSPARENT-1) when the engine gives the other verdict on the card below with nothing on it (the
    transparent card changed it), or nothing lies below (no other card to judge against).  The same verdict
    on the bare card is the engine's own rule of that card, as on any pile, which the rules of that card judge
    (a Q taken on a K, a 4 refused on a 2, a 9 taken on a 7 under seven_lower, when the card is passed over).
    Neither seen yet: the rule's only where the listing is the transparent card's own (``_as_itself``)."""
    below = judged_top(v.pile, v.opts)
    if not below:
        return True
    if capped(beneath(v.pile, v.opts), v.opts):
        bits = seen.capping.get(r, 0)  # a 7 under seven_lower below: the verdicts on a bare such 7
        kept = _kept(seen.capping, lambda x: playable(x, ["7"], v.opts))
        # a 10 is the cap's own case ("a 10 may not"): only the engine's verdict on a 10 on a bare 7 tells
        kept = False if r == "T" else kept
    elif not ordinary(below, v.opts):
        bits = seen.from_hand(r, below)  # a 2 below: the hand's verdicts on a bare 2
        kept = _kept({x: b for (x, top), b in seen.hand.items() if top == below}, lambda x: True)
    else:
        bits, kept = seen.seen.get((r, below), 0), None
    if bits:
        return not bits & (ALLOWED if allowed else REFUSED)
    return kept is True or _as_itself(v, seen, kept is not False)


def _kept(verdicts: dict[str, int], allows: Callable[[str], bool]) -> bool | None:
    """Was the engine seen keeping the rule of a bare card (a 2, a 7 under seven_lower)?  True: every rank it
    judged on it was judged as that rule does (``allows``), one of them refused where the rule refuses any;
    False: one was judged otherwise; None: too little seen.  Through a transparent card a verdict against a rule
    the engine keeps is the transparent card's, not a lapse of the rule."""
    if any(b != (ALLOWED if allows(x) else REFUSED) for x, b in verdicts.items()):
        return False
    refuses = not all(allows(x) for x in ORDER)
    shown = bool(verdicts) and (not refuses or any(b == REFUSED for b in verdicts.values()))
    return True if shown else None


def _as_itself(v: View, seen: RankVerdicts, kept: bool = True) -> bool:
    """The ranks the zone in play holds are listed exactly as the transparent card on top allows them as an
    ordinary card of its rank, where at least two of them the card below does not allow.  One rank alone is as
    well the rule of the card below, which its own clauses judge (a house rule is not blamed for what the other
    rules explain as well), unless nothing seen says that rule is broken: a 2 or a 7 under seven_lower below
    whose bare verdicts were all as their rule (``kept``), an ordinary rank no order explains the verdict with
    (``RankVerdicts.classify``).  Then only the transparent card does."""
    apart = _apart_as_itself(v)
    if len(apart) != 1:
        return len(apart) >= 2
    (r,) = apart
    opts = v.opts
    below = judged_top(v.pile, opts)
    if not ordinary(below, opts) or capped(beneath(v.pile, opts), opts):
        return kept
    return ordinary(r, opts) and seen.classify(r, below, not playable(r, v.pile, opts), _skip(v))[0] is not Aspect.ORDER


def _apart_as_itself(v: View) -> set[str]:
    """When the ranks of the zone in play are listed exactly as the transparent card on top allows them as an
    ordinary card of its rank: the ranks that the rules judge otherwise through it (else none)."""
    s, opts = v.seat, v.opts
    zone = {"hand": v.hand, "face_up": v.fu}.get(v.zone_of(s)) if s is not None else None
    if zone is None or s is None or not through(v.pile, opts):
        return set()
    plain = {**opts, "transparent": None}  # the card on top as an ordinary card of its rank
    ranks = {c[0] for c in zone[s] if not clear(c[0], opts)}
    listed = {m["cards"][0][0] for m in v.listed.values() if isinstance(m, dict) and m.get("cards")}
    itself = {r for r in ranks if playable(r, v.pile[-1:], plain)}
    if ranks & listed != itself:
        return set()
    return itself ^ {r for r in ranks if playable(r, v.pile, opts)}


def _below_aspect(v: View, seen: RankVerdicts, m: dict[str, Any], now: bool) -> tuple[Aspect, str]:
    """An extra play through a transparent card that the engine's order explains: judged as on the card below."""
    under = beneath(v.pile, v.opts)
    if capped(under, v.opts):
        return Aspect.SEVEN, "above a 7"
    return seen.classify(m["cards"][0][0], top_key(under), True, _skip(v), now)


def _suits_apart(v: View, cards: list[str], seen: RankVerdicts | None = None) -> bool:
    """A card of a rank listed alone while another card of that rank in the open zone is not, or (on a pile
    judged by its top card) was seen refused from the hand this game on that top: the engine tells the suits
    apart (whatever the pile allows).  Through a transparent card a verdict unlike the bare card's is the
    transparent rule's question (``misread_through``), not the suits'."""
    s = v.seat
    if s is None or len(cards) != 1:
        return False
    if seen is not None and not through(v.pile, v.opts) and seen.refused_other_suit(cards[0], top_key(v.pile)):
        return True
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
