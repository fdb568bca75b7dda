"""Normal play (IDIOT-PLAY-1/-2, IDIOT-RANK-1, IDIOT-MULTI-1, and "a 2 / a 10 goes on anything" of
IDIOT-TWO-1 and IDIOT-BURN-10): which ranks may go on the pile, and a play's cards.

``rank_moves`` judges rank legality wherever the engine shows it: the plays it lists (a rank missing
or extra, by ``diff``'s smallest difference), a listed play it applied, and its verdict on a blind
card.  A wrong comparison of two ordinary ranks is IDIOT-RANK-1 when another order of the ranks
explains what the engine did this game, else IDIOT-PLAY-2 (``ranks``); equal rank refused and
"anything on a 2" are IDIOT-PLAY-2, an empty pile IDIOT-PLAY-1.  ``cards_land`` judges where a play's
cards go: out of the hand (hand cards first), onto the pile in the order listed.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ruleproof.model import observed as obs
from ruleproof.properties.idiot.aspects import Aspect, listed_under
from ruleproof.properties.idiot.cards import (
    RANK_AT,
    beneath,
    capped,
    clear,
    ordinary,
    reason,
    sorted_cards,
    through,
    top_key,
    top_run,
)
from ruleproof.properties.idiot.diff import misread_through
from ruleproof.properties.idiot.props import checks
from ruleproof.properties.idiot.reporting import TOP, rank_rule, report_applied, report_gaps
from ruleproof.properties.idiot.view import View
from ruleproof.properties.snapshot import Snapshot, Step

if TYPE_CHECKING:
    from ruleproof.properties.idiot.outcome import Outcome
    from ruleproof.properties.idiot.props import IdiotProperties

RANK_CLAUSES = listed_under(
    {
        Aspect.EMPTY_PILE: "IDIOT-PLAY-1",
        Aspect.EQUAL: "IDIOT-PLAY-2",
        Aspect.ON_TWO: "IDIOT-PLAY-2",
        Aspect.RANK: "IDIOT-PLAY-2",
        Aspect.ORDER: "IDIOT-RANK-1",
        Aspect.SUITS: "IDIOT-RANK-1",
        Aspect.TWO: "IDIOT-TWO-1",
        Aspect.TEN: "IDIOT-BURN-10",
        Aspect.SEVEN: "IDIOT-SEVEN-1",
        Aspect.TRANSPARENT: "IDIOT-TRANSPARENT-1",
        Aspect.SET: "IDIOT-MULTI-1",
    }
)
# the clauses a rank's reason to be playable rests on (what a state judges, for coverage)
REASON_CLAUSES = {
    "empty": ("IDIOT-PLAY-1",),
    "two": ("IDIOT-TWO-1",),
    "ten": ("IDIOT-BURN-10",),
    "on-two": ("IDIOT-PLAY-2",),
    "seven": ("IDIOT-SEVEN-1",),
    "transparent": ("IDIOT-TRANSPARENT-1",),
    "order": ("IDIOT-PLAY-2", "IDIOT-RANK-1"),
    None: ("IDIOT-PLAY-2", "IDIOT-RANK-1"),
}


@checks(
    "IDIOT-PLAY-1",
    "IDIOT-PLAY-2",
    "IDIOT-RANK-1",
    "IDIOT-MULTI-1",
    "IDIOT-TWO-1",
    "IDIOT-BURN-10",
    "IDIOT-SEVEN-1",
    "IDIOT-TRANSPARENT-1",
)
def rank_moves(props: IdiotProperties, step: Step) -> None:
    """The plays of one rank the engine lists, applies and judges blind are those the pile allows."""
    after = step.after
    if after.phase in ("opening", "play", "over"):
        report_gaps(props, after, RANK_CLAUSES)  # once over: what ``ranks`` held back this game
        _cover(props, after)
    if step.before.phase in ("opening", "play"):
        report_applied(props, step, RANK_CLAUSES)
        o = props.outcome(step)
        if o is not None and o.engine_legal is not None and o.engine_legal != o.rules_legal:
            _blind_verdict(props, step, o)


def _cover(props: IdiotProperties, snap: Snapshot) -> None:
    """The clauses this state's plays are judged under (each rank of the open zone, by its reason)."""
    v = props.view(snap)
    s = v.seat
    if s is None or v.pending or v.phase != "play":
        props.cover("IDIOT-MULTI-1")
        return
    zone = v.zone_of(s)
    if zone == "face_down":
        return
    props.cover("IDIOT-MULTI-1")
    ranks = {c[0] for c in (v.hand if zone == "hand" else v.fu).lists[s]}
    for r in ranks:
        props.cover(*REASON_CLAUSES[reason(r, v.pile, v.opts)])
    _transparent_situations(props, v, ranks)


def _transparent_situations(props: IdiotProperties, v: View, ranks: set[str]) -> None:
    """IDIOT-TRANSPARENT-1's situations this state judges: the transparent rank held over a card it does not beat,
    the open zone judged through transparent cards on top (against the card below, an empty pile, several)."""
    pile, opts = v.pile, v.opts
    if not opts.get("transparent") or not pile:
        return
    top = pile[-1][0]
    if (
        any(clear(r, opts) for r in ranks)
        and top != "2"
        and not clear(top, opts)
        and RANK_AT[opts["transparent"]] < RANK_AT[top]
    ):
        props.situation("IDIOT-TRANSPARENT-1", "on-anything")
    if not through(pile, opts) or not any(not clear(r, opts) and r != "2" for r in ranks):
        return
    props.situation("IDIOT-TRANSPARENT-1", "judged-below" if beneath(pile, opts) else "empty-below")
    props.paired_situations("IDIOT-TRANSPARENT-1")  # judged through it under this game's burns and cap
    if top_run(pile) >= 2:
        props.situation("IDIOT-TRANSPARENT-1", "stacked")


def _blind_verdict(props: IdiotProperties, step: Step, o: Outcome) -> None:
    """The engine failed a blind card the pile allows, or took one it does not: rank legality, like a
    listed play (what follows is judged from the engine's verdict)."""
    v0 = props.view(step.before)
    r = o.r
    assert r is not None
    why = reason(r, v0.pile, v0.opts)
    pile = v0.pile
    if why not in ("ten", "two") and through(pile, v0.opts) and not clear(r, v0.opts):
        if misread_through(v0, props.ranks, r, bool(o.engine_legal)):
            aspect, cause = Aspect.TRANSPARENT, f"{r} on {o.top or 'nothing'}"
            return _report_blind(props, o, aspect, cause)
        pile = beneath(pile, v0.opts)  # the engine's own verdict on the card below: judged as there
        why = reason(r, pile, v0.opts)
    top = top_key(pile)
    if why not in ("ten", "two") and clear(r, v0.opts):  # the rank itself goes on anything
        aspect, cause = Aspect.TRANSPARENT, f"{r} on {o.top or 'nothing'}"
    elif capped(pile, v0.opts):  # the 7's rule, whichever way the card went
        aspect, cause = Aspect.SEVEN, f"{r} on a 7"
    elif why is not None and why != "order":
        aspect = _REASON_ASPECT[why]
        cause = f"{aspect.value} on {top or 'nothing'}"
    elif ordinary(r, v0.opts) and pile:
        skip = "T" if v0.opts["ten_anytime"] else ""
        aspect, cause = props.ranks.classify(r, top, bool(o.engine_legal), skip)
    else:
        return
    _report_blind(props, o, aspect, cause)


def _report_blind(props: IdiotProperties, o: Outcome, aspect: Aspect, cause: str) -> None:
    clause = RANK_CLAUSES[aspect]
    verdict = "took as legal" if o.engine_legal else "failed"
    props.fail(
        clause,
        f"a blind card is judged by the pile like any other: the engine {verdict} {o.cards[0]} on {o.top or 'nothing'}",
        {"legal": o.rules_legal},
        {"legal": o.engine_legal},
        # the engine's judgment of a blind card, apart from its listed moves (and a card taken apart from one
        # failed: only a card taken leaves the rules, IDIOT-INV-8 in the same step)
        cause=f"blind {'taken' if o.engine_legal else 'failed'}: {cause}",
        observed=(obs.MOVE, TOP),  # the card judged on the engine's own top, like a listed play
        rule=rank_rule(aspect, cause),
    )


_REASON_ASPECT = {
    "empty": Aspect.EMPTY_PILE,
    "two": Aspect.TWO,
    "ten": Aspect.TEN,
    "on-two": Aspect.ON_TWO,
    "seven": Aspect.SEVEN,
    "transparent": Aspect.TRANSPARENT,
}


@checks("IDIOT-MULTI-1")
def cards_land(props: IdiotProperties, step: Step) -> None:
    """IDIOT-MULTI-1 (§2.3b): the cards a play names leave the hand (hand cards first, the draw aside) and,
    unless the pile burns, land on it in the order listed, the last on top."""
    o = props.outcome(step)
    if o is None or o.t != "play":
        return
    props.cover("IDIOT-MULTI-1")
    v0, v1 = props.views(step)
    s = o.s
    if _hand_off(v0, v1, o):
        props.fail(
            "IDIOT-MULTI-1",
            "the cards played leave the hand (hand cards first); nothing else does, but the cards drawn come in",
            sorted_cards(v0.hand[s] - o.from_hand + Counter(_drawn(v0, v1, o))),
            sorted(v1.hand.lists[s]),
            observed=(obs.zone(f"hand/{s}"),),
        )
    burned_now = len(v1.burned_list) > len(v0.burned_list)
    if o.burn or burned_now or v1.pile == o.pile:
        return  # a burn is check_special's; an empty pile without one IDIOT-INV-6's too
    if v1.pile:
        props.fail(
            "IDIOT-MULTI-1",
            "a play that does not burn lands on the pile in the order listed, the last card on top",
            o.pile[-6:],
            v1.pile[-6:],
            cause="order" if Counter(v1.pile) == Counter(o.pile) else "landing",
            observed=(obs.zone("discard"),),
        )


def _drawn(v0: View, v1: View, o: Outcome) -> list[str]:
    """The cards the engine took from the top of the draw pile (those predicted when its pile is no prefix)."""
    if v1.draw == v0.draw[: len(v1.draw)]:
        return v0.draw[len(v1.draw) :]
    return o.drawn


def _hand_off(v0: View, v1: View, o: Outcome) -> bool:
    """The hand is not the hand before, less the hand cards played, plus what the engine drew, while the
    face-up row is as predicted (a face-up card taken for a hand card is the row's rule, ``check_table``)."""
    s = o.s
    if v1.hand[s] == o.hand:
        return False
    want = v0.hand[s] - o.from_hand + Counter(_drawn(v0, v1, o))
    fu_ok = v1.fu.same(v0.fu, s) if o.fu is None else v1.fu[s] == o.fu
    return fu_ok and v1.hand[s] != want
