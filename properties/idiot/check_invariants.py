"""The invariants of rules.md §2.6 (IDIOT-INV-1 .. IDIOT-INV-11), judged on every step.

An invariant states what every state the rules reach has (the pool conserved, zones in their order,
hands refilled, no burning top left on the pile, out players gone for good, ...).  When the engine's
state leaves the rules, one of these fails in that same step, so that what follows is marked as its
consequence (``follows``); a deviation that keeps the state within the rules (a wrong seat to act, a
move missing from the list) breaks no invariant.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import TYPE_CHECKING

from ruleproof.model import observed as obs
from ruleproof.properties.idiot.cards import RANK_AT, beneath, clear, diff, top_run, within
from ruleproof.properties.idiot.props import checks
from ruleproof.properties.idiot.view import View
from ruleproof.properties.shown import top
from ruleproof.properties.snapshot import Snapshot, Step

if TYPE_CHECKING:
    from ruleproof.properties.idiot.props import IdiotProperties


PILE = obs.zone("discard")
OUT = "out"  # the contract's extra field: the seats out, in order


def _drawn(s: int | None) -> tuple[str, ...]:
    """What a draw step observes: the draw pile, and the size of the hand it fills."""
    return (obs.zone("draw"), obs.size(f"hand/{s}"))


def _deal(step: Step) -> frozenset[str]:
    """A deal lays the whole pool out: the cards it creates or loses are the move's (the deal probe it accepted)."""
    return frozenset({obs.MOVE}) if step.kind == "deal" else frozenset()


def _unconserved(props: IdiotProperties, after: Snapshot) -> frozenset[str]:
    """The cards created or lost: each one's atom (the pool's copies of it, wherever they lie)."""
    total = props.view(after).total
    return obs.cards(((total - props.pool) + (props.pool - total)).keys())


@checks("IDIOT-INV-4")
def play_legality(props: IdiotProperties, step: Step) -> None:
    """IDIOT-INV-4: every non-blind play is one the rules allow here (the clause it breaks is reported by
    the probe, or by the check of its rule when the engine listed it); a failed blind card shows up in the
    hand with the whole pile."""
    bad = props.applied(step)
    if step.kind == "play" and step.before.phase in ("opening", "play"):
        props.expect(
            "IDIOT-INV-4",
            bad is None,
            f"a play applied must be one the rules allow here (not: {bad[0].value})" if bad else "",
            "legal",
            step.move,
            observed=(obs.MOVE, PILE),  # the play, and the pile it landed on
        )
    o = props.outcome(step)
    if o is None or not o.failed_blind:
        return
    v1 = props.view(step.after)
    ok = not v1.pile and v1.hand[o.s] == o.hand
    props.expect(
        "IDIOT-INV-4",
        ok,
        "a failed blind card shows up in the hand with the whole pile",
        None if ok else sorted(o.hand.elements()),
        None if ok else {"hand": sorted(v1.hand.lists[o.s]), "pile": top(v1.pile)},
        observed=(obs.zone(f"hand/{o.s}"), PILE),
    )


def _conserved(props: IdiotProperties, before: Snapshot, after: Snapshot) -> bool:
    """All zones of ``after`` together hold the pool, as sorted lists (a seventh of a Counter's cost).

    When ``before`` was judged to hold the pool, ``after`` does exactly when the cards of the zones the
    move changed are the same before and after: only those are sorted and compared."""
    z1 = after.raw["zones"]
    if before is not props.conserved:
        return sorted(itertools.chain.from_iterable(z1.values())) == props.pool_sorted
    z0 = before.raw["zones"]
    gone: list[str] = []
    came: list[str] = []
    for name, cards in z1.items():
        old = z0.get(name)
        if old != cards:
            came += cards
            gone += old or []
    if z0.keys() != z1.keys():
        for name, cards in z0.items():
            if name not in z1:
                gone += cards
    return len(gone) == len(came) and sorted(gone) == sorted(came)


@checks("IDIOT-INV-1")
def conservation(props: IdiotProperties, step: Step) -> None:
    """IDIOT-INV-1: all zones together are D decks; the burn pile only grows."""
    ok = _conserved(props, step.before, step.after)
    props.conserved = step.after if ok else None
    props.expect(
        "IDIOT-INV-1",
        ok,
        f"every zone together must hold exactly {props.decks} deck(s)",
        52 * props.decks,
        None if ok else diff(props.view(step.after).total, props.pool),
        observed=lambda: _unconserved(props, step.after) | _deal(step),
    )
    old, new = step.before.zone("burned"), step.after.zone("burned")
    # the burn pile kept as it was, with cards added on top, needs no Counters to be a superset
    grew = new[: len(old)] == old or Counter(old) <= Counter(new)
    props.expect(
        "IDIOT-INV-1",
        grew,
        "the burn pile only grows (burned cards are out of play for good)",
        "a superset of the burned cards",
        None if grew else diff(Counter(new), Counter(old)),
        observed=(obs.zone("burned"),),
    )


@checks("IDIOT-INV-1", "IDIOT-INV-9")
def others_untouched(props: IdiotProperties, step: Step) -> None:
    """IDIOT-INV-1 (IDIOT-INV-9 for an out seat): a seat's turn leaves every other seat's cards alone."""
    o = props.outcome(step)
    if o is None:
        return
    v0, v1 = props.views(step)
    s = o.s
    props.cover("IDIOT-INV-1", "IDIOT-INV-9")
    if _others_listed_as_before(v0, v1, s):
        return  # every other seat's rows listed as before: nothing to compare seat by seat
    for x in range(v0.n):
        if x != s and not (v1.hand.same(v0.hand, x) and v1.fu.same(v0.fu, x) and v1.fd.same(v0.fd, x)):
            props.fail(
                "IDIOT-INV-9" if x in v0.out else "IDIOT-INV-1",
                f"seat {s}'s move leaves seat {x}'s cards alone",
                "unchanged",
                {"seat": x},
                observed=(obs.zone(f"hand/{x}"), obs.zone(f"face_up/{x}"), obs.zone(f"face_down/{x}")),
            )


def _others_listed_as_before(v0: View, v1: View, s: int) -> bool:
    """Every seat but ``s`` lists its hand, face-up and face-down rows as before (whole lists compared at once)."""
    for r0, r1 in ((v0.hand.lists, v1.hand.lists), (v0.fu.lists, v1.fu.lists), (v0.fd.lists, v1.fd.lists)):
        if r0[:s] != r1[:s] or r0[s + 1 :] != r1[s + 1 :]:
            return False
    return True


@checks("IDIOT-INV-3")
def zone_discipline(props: IdiotProperties, step: Step) -> None:
    """IDIOT-INV-3: face-up cards leave only with hand and draw pile empty (or in a TABLE-3 play); face-down only
    with hand, face-up and draw pile empty; their counts never grow after the swap phase."""
    before, n = step.before, props.n
    if before.phase in ("deal", "swap"):
        return
    v0, v1 = props.views(step)
    fu0s, fd0s, fu1s, fd1s = v0.fu.lists, v0.fd.lists, v1.fu.lists, v1.fd.lists
    for s in range(n):
        fu0, fd0, fu1, fd1 = len(fu0s[s]), len(fd0s[s]), len(fu1s[s]), len(fd1s[s])
        ok = fd1 <= fd0 and fu1 <= fu0
        props.expect(
            "IDIOT-INV-3",
            ok,
            "face-up and face-down rows never grow after the swap phase",
            None if ok else [fu0, fd0],
            None if ok else [fu1, fd1],
            observed=(obs.size(f"face_up/{s}"), obs.size(f"face_down/{s}")),
        )
        if fu1 < fu0:
            combo = step.kind == "play" and not v0.draw and v0.hand[s] <= Counter(step.move.get("cards") or [])
            props.expect(
                "IDIOT-INV-3",
                s == before.to_act and not v0.draw and (not v0.hand[s] or combo),
                "a face-up card leaves only when the hand and the draw pile are empty (or in a TABLE-3 play)",
                {"hand": 0, "draw": 0},
                {"seat": s, "hand": v0.hand.size(s), "draw": len(v0.draw)},
                observed=(obs.zone(f"face_up/{s}"),),
            )
        if fd1 < fd0:
            props.expect(
                "IDIOT-INV-3",
                s == before.to_act and not v0.draw and not v0.hand[s] and not v0.fu[s] and fd0 - fd1 == 1,
                "one face-down card leaves, only when hand, face-up row and draw pile are empty",
                {"hand": 0, "face_up": 0, "draw": 0},
                {"hand": v0.hand.size(s), "face_up": fu0, "draw": len(v0.draw)},
                observed=(obs.zone(f"face_down/{s}"),),
            )


@checks("IDIOT-INV-5")
def draw_rule(props: IdiotProperties, step: Step) -> None:
    """IDIOT-INV-5: after a play from the hand with cards left to draw the hand has 3+; draws never overfill; no
    draw on a pickup turn."""
    before = step.before
    kind = step.kind
    if before.phase not in ("opening", "play") or kind in ("decline",):
        return
    s = before.to_act
    v0, v1 = props.views(step)
    took = len(v0.draw) - len(v1.draw)
    if kind in ("pickup", "stop"):
        props.expect("IDIOT-INV-5", took == 0, "no draw on a pickup turn or a stop", 0, took, observed=_drawn(s))
        return
    if kind == "play" and s is not None and _held(step.move.get("cards") or [], v0, s):
        if v1.draw:
            props.expect(
                "IDIOT-INV-5",
                v1.hand.size(s) >= 3,
                "after a play the hand is refilled to 3 while the draw pile lasts",
                3,
                v1.hand.size(s),
                observed=_drawn(s),
            )
        if took:
            props.expect(
                "IDIOT-INV-5",
                v1.hand.size(s) <= 3,
                "a draw step never takes the hand above 3",
                3,
                v1.hand.size(s),
                observed=_drawn(s),
            )
    props.cover("IDIOT-INV-5")


def _held(cards: list[str], v: View, s: int) -> bool:
    """The seat's hand and face-up row hold ``cards`` together; a single card needs no multisets."""
    if len(cards) == 1:
        return cards[0] in v.hand.lists[s] or cards[0] in v.fu.lists[s]
    return within(Counter(cards), v.hand[s], v.fu[s])


@checks("IDIOT-INV-6", "IDIOT-INV-8")
def pile_shape(props: IdiotProperties, step: Step) -> None:
    """IDIOT-INV-6: never a 10, a run of 4+ or (six_burn 3) three 6s on top between moves; after a play the pile
    is empty exactly when it burned, after a pickup it is empty.
    IDIOT-INV-8: between resets (burn, pickup, a 2) the effective top rank never decreases."""
    after, before = step.after, step.before
    pile = after.zone("discard")
    opts = after.options
    if pile:
        r, run = pile[-1][0], top_run(pile)
        ok = r != "T" and (run < opts["six_burn"] if r == "6" else run < 4)
        props.expect(
            "IDIOT-INV-6",
            ok,
            "between moves the pile never shows a 10, a run of 4 or more, or a burning run of 6s on top",
            "no burning top",
            pile[-5:],
            observed=(PILE,),
        )
    else:
        props.cover("IDIOT-INV-6")
    if before.phase in ("opening", "play"):
        _emptied(props, step, pile)
    o = props.outcome(step) if step.kind == "play_blind" else None
    # a blind card the engine took against the rules is that card's rank legality (check_play): the pile it
    # leaves is the verdict's consequence, not a second deviation
    taken = o is not None and o.engine_legal is True and o.rules_legal is False
    if props.applied(step) is None and not taken:  # a play the rules forbid, applied, is IDIOT-INV-4's and its rule's
        _never_falls(props, before.zone("discard"), pile)
    else:
        props.cover("IDIOT-INV-8")


def _emptied(props: IdiotProperties, step: Step, pile: list[str]) -> None:
    """IDIOT-INV-6: a play empties the pile exactly when it burns; a pickup always empties it."""
    if step.kind == "pickup":
        props.expect("IDIOT-INV-6", not pile, "after a pickup the pile is empty", [], top(pile), observed=(PILE,))
    elif step.kind == "play":
        burned = len(step.after.zone("burned")) > len(step.before.zone("burned"))
        props.expect(
            "IDIOT-INV-6",
            (not pile) == burned,
            "after a play the pile is empty exactly when it burned",
            {"empty": burned},
            {"empty": not pile, "burned": burned},
            observed=(PILE, obs.zone("burned")),
        )


def _never_falls(props: IdiotProperties, old: list[str], pile: list[str]) -> None:
    """IDIOT-INV-8 on the cards a step put on top of the pile (under seven_lower a 7 caps: lower may follow;
    a transparent card is seen through: the effective rank is the first card below of another rank)."""
    opts = props.setup.options
    capped_on = bool(opts.get("seven_lower", False)) and not clear("7", opts)
    if old and len(pile) > len(old) and pile[: len(old)] == old:
        below = beneath(old, opts)
        prev = below[-1][0] if below else "2"  # nothing but transparent cards: anything goes, as on a 2
        for c in pile[len(old) :]:
            cur = c[0]
            if clear(cur, opts):
                continue  # it goes on anything and leaves the effective rank as it was
            # a 2 resets the pile, and so does a 10 (it burns: a card on a 10 left standing is the burn's difference)
            if prev not in ("2", "T") and cur != "2" and not (prev == "7" and capped_on):
                props.expect(
                    "IDIOT-INV-8",
                    RANK_AT[cur] >= RANK_AT[prev],
                    "between resets the effective rank on top of the pile never falls",
                    f">= {prev}",
                    cur,
                    observed=(obs.MOVE, PILE),
                )
            prev = cur
    else:
        props.cover("IDIOT-INV-8")


@checks("IDIOT-INV-9", "IDIOT-INV-10", "IDIOT-INV-11", "IDIOT-END-1")
def progress(props: IdiotProperties, step: Step) -> None:
    """IDIOT-INV-9..11: out is final, over iff one player holds cards, cards in circulation never increase.
    IDIOT-END-1: the outcome is a loser, never a score (protocol.md: `scores` stays all zeros)."""
    before, after = step.before, step.after
    scores = after.scores
    props.expect(
        "IDIOT-END-1",
        not any(scores),
        "Idiot keeps no score: `scores` stays all zeros",
        0,
        scores,
        observed=(obs.SCORES,),
    )
    if before.phase == "deal":
        return
    v0, v1 = props.views(step)
    props.expect(
        "IDIOT-INV-11",
        v1.out[: len(v0.out)] == v0.out,
        "the set of out players never shrinks",
        v0.out,
        v1.out,
        observed=(OUT,),
    )
    circ0 = v0.count - len(v0.burned_list)
    circ1 = v1.count - len(v1.burned_list)
    props.expect(
        "IDIOT-INV-11",
        circ1 <= circ0,
        "cards in circulation (all but burned) never increase",
        circ0,
        circ1,
        observed=(obs.zone("burned"), "card"),
    )
    holding = v1.holding
    for s in v1.out:
        ok = not holding[s] and v1.seat != s
        props.expect(
            "IDIOT-INV-9",
            ok,
            f"out seat {s} never gets cards again nor acts",
            "no cards, not to act",
            None if ok else {"cards": v1.hand.size(s) + v1.fu.size(s) + v1.fd.size(s), "to_act": v1.seat},
            observed=(obs.zone(f"hand/{s}"), obs.zone(f"face_up/{s}"), obs.zone(f"face_down/{s}"), obs.TO_ACT),
        )
    if v1.phase in ("opening", "play", "over"):
        _over_iff_one_left(props, step, v1)


def _over_iff_one_left(props: IdiotProperties, step: Step, v1: View) -> None:
    """IDIOT-INV-10, IDIOT-END-1: over exactly when one player holds cards, that player the loser."""
    n, holding = props.n, v1.holding
    holders = [s for s in range(n) if holding[s]]
    over = v1.phase == "over"
    props.expect(
        "IDIOT-INV-10",
        over == (len(holders) == 1),
        "the game is over iff exactly one player still holds cards",
        len(holders) == 1,
        over,
        observed=(obs.PHASE,),
    )
    if over:
        loser = (step.after.get("result") or {}).get("loser")
        props.expect(
            "IDIOT-INV-10",
            loser == holders[0] and v1.seat is None,
            "the one player left holding cards is reported as the loser",
            holders[0],
            loser,
            observed=(obs.RESULT, obs.TO_ACT),
        )
        props.expect(
            "IDIOT-END-1",
            sorted([*v1.out, loser]) == list(range(n)) if loser is not None else False,
            "every other player is out when the game ends",
            list(range(n)),
            v1.out,
            observed=(OUT, obs.RESULT),
        )
