"""The opening (IDIOT-OPEN-1/-2/-3): the ladder from 3 up, declines, and the end of the ladder.

From the dealer's left each player in turn opens with hand cards of the ladder rank or declines; the
rank moves up when a full circle has declined (the circle starts left of the dealer, so: when the
dealer declines), past the ace to "any", where the player left of the dealer must open with anything.
Once the opening card is down, ``opening_rank`` is null.  (Who plays after the opener is judged with
the turn order, ``check_turn``.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleproof.model import observed as obs
from ruleproof.properties.idiot.aspects import Aspect, listed_under
from ruleproof.properties.idiot.cards import LADDER
from ruleproof.properties.idiot.props import checks
from ruleproof.properties.idiot.reporting import report_applied, report_gaps
from ruleproof.properties.snapshot import Step

if TYPE_CHECKING:
    from ruleproof.properties.idiot.props import IdiotProperties

OPENING_CLAUSES = listed_under({Aspect.LADDER: "IDIOT-OPEN-1", Aspect.LADDER_ANY: "IDIOT-OPEN-3"})


@checks("IDIOT-OPEN-1", "IDIOT-OPEN-3", "IDIOT-INV-1")
def opening_ladder(props: IdiotProperties, step: Step) -> None:
    """A decline passes the ladder on; the dealer's decline closes a circle and moves the rank up, past A
    to "any"; a decline moves no card."""
    before, after, n = step.before, step.after, props.n
    if before.phase != "opening" or step.kind != "decline" or props.applied(step) is not None:
        return
    s = before.to_act
    assert s is not None
    rank = before.get("opening_rank")
    want_rank = rank
    if s == props.setup.dealer:  # a full circle of declines, from the dealer's left to the dealer
        # past the ace the ladder is "any" (IDIOT-OPEN-3); a rank off the ladder (an engine's "2") has no next
        want_rank = "any" if rank not in LADDER[:-1] else LADDER[LADDER.index(rank) + 1]
    clause = "IDIOT-OPEN-3" if want_rank == "any" or rank not in LADDER else "IDIOT-OPEN-1"
    got = {"phase": after.phase, "to_act": after.to_act, "opening_rank": after.get("opening_rank")}
    want = {"phase": "opening", "to_act": (s + 1) % n, "opening_rank": want_rank}
    props.expect(
        clause,
        got == want,
        "a decline passes the opening to the left; after a full circle of declines the ladder rank moves up"
        + (" and past the ace the player left of the dealer must open with anything" if want_rank == "any" else ""),
        want,
        got,
        observed=lambda: [{"to_act": obs.TO_ACT, "phase": obs.PHASE}.get(k, k) for k in want if want[k] != got[k]],
    )
    props.expect(
        "IDIOT-INV-1",
        props.view(after).pile == [] and before.zone("draw") == after.zone("draw"),
        "a decline moves no card",
        "no card moved",
        "cards moved",
        observed=(obs.zone("discard"), obs.zone("draw")),
    )


@checks("IDIOT-OPEN-1", "IDIOT-OPEN-3")
def opening_moves(props: IdiotProperties, step: Step) -> None:
    """The opening's moves: hand plays of the ladder rank (of any one rank once it is "any") and decline
    unless it is "any"; a listed move of the opening the rules forbid that was played."""
    after = step.after
    if after.phase == "opening" and not after.get("pending"):
        report_gaps(props, after, OPENING_CLAUSES)
        props.cover("IDIOT-OPEN-3" if after.get("opening_rank") == "any" else "IDIOT-OPEN-1")
    if step.before.phase == "opening":
        report_applied(props, step, OPENING_CLAUSES)


@checks("IDIOT-OPEN-2")
def opening_ends(props: IdiotProperties, step: Step) -> None:
    """IDIOT-OPEN-2: once the opening card is down the ladder is over (`opening_rank` null)."""
    before, after = step.before, step.after
    if before.phase != "opening" or step.kind != "play" or props.applied(step) is not None:
        return
    rank = after.get("opening_rank")
    props.expect(
        "IDIOT-OPEN-2",
        rank is None or after.phase == "opening",
        "once the opening card is down the ladder is over (`opening_rank` null)",
        None,
        rank,
        observed=("opening_rank",),
    )
