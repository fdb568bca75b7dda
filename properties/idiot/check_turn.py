"""The turn: what is pending after a move (IDIOT-TWO-2, IDIOT-DRAW-3, and what ends it) and who acts next.

``followups``: after a 2 (``two_followup: optional``, not blind, not burnt, not going out) the same
player may play one more set of any rank or stop (IDIOT-TWO-2); after drawing the rank just played, more
of it or stop (IDIOT-DRAW-3); a blind card earns neither (IDIOT-BLIND-2), nor does going out
(IDIOT-OUT-1).  The same player acts while something is pending; a stop changes no card and ends the
turn.

``turn_order``: who acts next is filed by what differs, not by the move of the moment: the turn kept
where the rule passes it (or passed where it keeps it) is the rule that decides it (the next player
after a pickup IDIOT-PICKUP-2, after a burn or the burner IDIOT-BURN-NEXT, after a failed blind card
IDIOT-BLIND-3, after the opening IDIOT-OPEN-2, the player left of the dealer for the opener's left
being OPEN-2's misreading); the turn passed to another seat than the next active one clockwise is
IDIOT-INV-7 (counter-clockwise, a seat skipped), an out seat IDIOT-OUT-1, anyone once over IDIOT-END-1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleproof.model import observed as obs
from ruleproof.properties.idiot.aspects import Aspect, listed_under
from ruleproof.properties.idiot.props import checks
from ruleproof.properties.idiot.reporting import report_applied, report_gaps
from ruleproof.properties.idiot.view import View, next_active, prev_active
from ruleproof.properties.snapshot import Step

if TYPE_CHECKING:
    from ruleproof.properties.idiot.outcome import Outcome
    from ruleproof.properties.idiot.props import IdiotProperties

PENDING_CLAUSES = listed_under({Aspect.FOLLOWUP: "IDIOT-TWO-2", Aspect.CHAIN: "IDIOT-DRAW-3"})
PENDING = "pending"  # the contract's extra field: what the same player may still do
# the two ways a turn goes to another seat than the next one clockwise, each a rule of its own (an engine may
# reverse the direction and not skip, or skip and not reverse): the direction, and a seat skipped
DIRECTION, SKIP = "direction", "skip"


@checks("IDIOT-TWO-2", "IDIOT-DRAW-3", "IDIOT-BLIND-2", "IDIOT-OUT-1")
def followups(props: IdiotProperties, step: Step) -> None:
    """The moves of a follow-up or chain, what is pending after a move, and a stop."""
    after = step.after
    if after.phase in ("opening", "play") and after.to_act is not None:
        report_gaps(props, after, PENDING_CLAUSES)
    if step.before.phase in ("opening", "play"):
        report_applied(props, step, PENDING_CLAUSES)
    o = props.outcome(step)
    if o is None:
        return
    v0, v1 = props.views(step)
    if not o.over:
        _pending(props, step, v0, v1, o)
    if o.t == "stop":
        _stop(props, v0, v1, o)


def pending_clause(o: Outcome, v0: View, v1: View) -> str:
    """The rule that decides what is pending after this move (and whether the turn stays for it)."""
    if o.t == "play_blind":
        return "IDIOT-BLIND-2"
    if o.gone:
        return "IDIOT-OUT-1"
    return "IDIOT-TWO-2" if "two_followup" in (o.pending, v1.pending) else "IDIOT-DRAW-3"


def _pending_atoms(clause: str) -> tuple[str, ...]:
    """What a pending difference observes: the field, and what it rests on: the cards just drawn for a chain;
    the seat kept to act for a follow-up earned going out or by a blind card (the turn stays with it)."""
    if clause == "IDIOT-DRAW-3":
        return (PENDING, obs.zone("draw"))
    return (PENDING, obs.TO_ACT) if clause in ("IDIOT-OUT-1", "IDIOT-BLIND-2") else (PENDING,)


def _pending(props: IdiotProperties, step: Step, v0: View, v1: View, o: Outcome) -> None:
    """What is pending after the move, and the same player acting while it is."""
    clause = pending_clause(o, v0, v1)
    ok = v1.pending == o.pending
    props.require(
        clause,
        ok,
        "pending after this move: a follow-up after a 2 (two_followup optional, not blind, not burnt, not out), "
        "a chain when a card just drawn has the rank just played, else nothing",
        None if ok else {"pending": o.pending, "drawn": o.drawn},
        v1.pending,
        # a chain rests on the cards just drawn: the draw pile too (a draw rule's chain is the draw's step)
        observed=_pending_atoms(clause),
    )
    if ok and o.pending:
        props.expect(
            clause,
            v1.seat == o.s,
            "while a follow-up or chain is pending the same player acts",
            o.s,
            v1.seat,
            observed=(obs.TO_ACT,),
        )
    if o.pending == "two_followup" or v0.pending == "two_followup" or (o.r == "2" and o.t == "play"):
        props.cover("IDIOT-TWO-2")
    if o.pending == "chain" or v0.pending == "chain" or (o.r is not None and o.drawn):
        props.cover("IDIOT-DRAW-3")
    if o.t == "play_blind":
        props.cover("IDIOT-BLIND-2")
    if o.gone:
        props.cover("IDIOT-OUT-1")


def _stop(props: IdiotProperties, v0: View, v1: View, o: Outcome) -> None:
    """A stop changes no card and ends the turn (the next player is the turn order's)."""
    clause = "IDIOT-TWO-2" if v0.pending == "two_followup" else "IDIOT-DRAW-3"
    s = o.s
    same = v1.pile == v0.pile and v1.draw == v0.draw and v1.hand.same(v0.hand, s)
    cards = (obs.zone("discard"), obs.zone("draw"), obs.zone(f"hand/{s}"))
    props.expect(
        clause, same, "a stop changes no card", "no card moved", None if same else "cards moved", observed=cards
    )
    if not o.over:
        props.expect(
            clause,
            v1.seat != s or bool(v1.pending),
            "a stop ends the turn",
            o.to_act,
            v1.seat,
            observed=(obs.TO_ACT,),
        )


@checks(
    "IDIOT-INV-7",
    "IDIOT-PICKUP-2",
    "IDIOT-BURN-NEXT",
    "IDIOT-BLIND-3",
    "IDIOT-OPEN-2",
    "IDIOT-OUT-1",
    "IDIOT-END-1",
    "IDIOT-EIGHT-1",
    "IDIOT-REVERSE-1",
)
def turn_order(props: IdiotProperties, step: Step) -> None:
    """Who acts next, filed under the rule that differs (the module's docstring)."""
    o = props.outcome(step)
    if o is None:
        props.opener = None if step.before.phase != "opening" else props.opener
        return
    v0, v1 = props.views(step)
    s, got = o.s, v1.seat
    if v0.phase == "opening" and o.t == "play":
        props.opener = s
    opening = props.opener == s
    _cover(props, o, opening)
    if o.pending or v1.pending or (o.t == "stop" and got == s):
        return  # the same player goes on, or should: ``followups``
    if got is None and v1.phase == "over" and not o.over:
        return  # the engine ended the game early: no one acts, the end's difference (check_end), not a turn's
    if got != o.to_act:
        clause, cause = _turn_clause(props, v0, v1, o, opening)
        props.fail(
            clause,
            "who acts next: the same player while a follow-up or chain is pending (or after a burn under "
            "after_burn burner), else the next player clockwise who is not out",
            o.to_act,
            got,
            cause=cause,
            observed=(obs.TO_ACT,),
            rule=_turn_rule(clause, cause),
        )
    if got != s:
        props.opener = None


def _turn_rule(clause: str, cause: str) -> str:
    """IDIOT-INV-7's rule a wrong seat breaks: the direction of play, or a seat skipped (its cause says)."""
    if clause != "IDIOT-INV-7":
        return ""
    # the turn kept by a plain play is every other seat skipped (with two players, the one skip there is)
    return DIRECTION if cause == "counter-clockwise" else SKIP if cause in ("a seat skipped", "kept") else ""


def _cover(props: IdiotProperties, o: Outcome, opening: bool) -> None:
    """The clauses this move's next player is judged under."""
    props.cover("IDIOT-INV-7")
    if o.t == "pickup":
        props.cover("IDIOT-PICKUP-2")
    if o.burn:
        props.cover("IDIOT-BURN-NEXT")
    if o.failed_blind:
        props.cover("IDIOT-BLIND-3")
    if opening:
        props.cover("IDIOT-OPEN-2")
    if o.over:
        props.cover("IDIOT-END-1")
    if o.gone or o.out:
        props.cover("IDIOT-OUT-1")
    if o.eights:
        props.cover("IDIOT-EIGHT-1")
    if o.reversed or o.direction == -1:
        props.cover("IDIOT-REVERSE-1")


def _turn_clause(props: IdiotProperties, v0: View, v1: View, o: Outcome, opening: bool) -> tuple[str, str]:
    """The rule that decides the seat the engine got wrong, by what differs."""
    s, got, want = o.s, v1.seat, o.to_act
    if o.over or want is None:
        return "IDIOT-END-1", "a seat acts once over"
    if got is not None and got in o.out:
        return "IDIOT-OUT-1", "an out seat acts"
    house = _house_clause(o, got, want)
    if house:
        return house
    if s in (want, got):  # the turn kept where it passes, or passed where it is kept
        moment = _moment(o, opening)
        if moment == "IDIOT-OPEN-2" and got == s and s != next_active(props.setup.dealer, v0.n, o.out):
            return "IDIOT-INV-7", "kept"  # not the dealer's-left reading of the opening: the order of turns
        return moment, "kept" if got == s else "passed"
    return _other_seat(props, v0.n, o, got, opening)


def _house_clause(o: Outcome, got: int | None, want: int) -> tuple[str, str] | None:
    """A house rule of the turn that decides the seat (only with its option declared: ``outcome``): 8s played
    that skip (IDIOT-EIGHT-1, the same seat again with two players), the direction reversed (IDIOT-REVERSE-1)."""
    if o.eights:
        return "IDIOT-EIGHT-1", "skips"
    if (o.reversed or o.direction == -1) and o.s not in (want, got):
        return "IDIOT-REVERSE-1", "direction"
    return None


def _other_seat(props: IdiotProperties, n: int, o: Outcome, got: int | None, opening: bool) -> tuple[str, str]:
    """The turn passed to another seat than the rules' next one: the opener's left read as the dealer's
    (IDIOT-OPEN-2), else the order of turns (IDIOT-INV-7)."""
    want = o.to_act
    assert want is not None
    if opening and got == next_active(props.setup.dealer, n, o.out):
        return "IDIOT-OPEN-2", "the dealer's left"
    # with three active seats a seat skipped and the direction reversed look alike in one turn: a skip (a
    # reversed direction shows apart at a larger table)
    if got == next_active(want, n, o.out):
        return "IDIOT-INV-7", "a seat skipped"
    if got == prev_active(o.s, n, o.out):
        return "IDIOT-INV-7", "counter-clockwise"
    if got is not None and _nearer_counter_clockwise(o.s, got, n, o.out):
        return "IDIOT-INV-7", "counter-clockwise"  # a seat skipped the other way round: the direction shows
    return "IDIOT-INV-7", "another seat"


def _nearer_counter_clockwise(s: int, got: int, n: int, out: list[int]) -> bool:
    """``got`` is fewer active seats from ``s`` counter-clockwise than clockwise."""
    ring = [x for x in range(n) if x not in out or x in (s, got)]
    i, j = ring.index(s), ring.index(got)
    return (i - j) % len(ring) < (j - i) % len(ring)


def _moment(o: Outcome, opening: bool) -> str:
    """The rule that decides the next player after this move: a burn's own rule first (a burn in the
    opener's turn too: IDIOT-OPEN-2 restates it), then a pickup's, a failed blind card's, the opening's."""
    if o.burn:
        return "IDIOT-BURN-NEXT"
    if o.t == "pickup":
        return "IDIOT-PICKUP-2"
    if o.failed_blind:
        return "IDIOT-BLIND-3"
    if opening:
        return "IDIOT-OPEN-2"
    return "IDIOT-INV-7"
