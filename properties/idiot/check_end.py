"""The end (IDIOT-OUT-1, IDIOT-END-1): who is out and when the game is over.

A player left with no hand, face-up or face-down card is out, appended to ``out``; the game ends the
moment exactly one player still holds cards, that player the loser.  The out list and the end follow
the engine's own verdict on a last blind card (``outcome``): a dispute over that card is rank
legality's (``check_play``), never a second deviation here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleproof.model import observed as obs
from ruleproof.properties.idiot.aspects import Aspect, listed_under
from ruleproof.properties.idiot.props import checks
from ruleproof.properties.idiot.reporting import report_gaps
from ruleproof.properties.snapshot import Step

if TYPE_CHECKING:
    from ruleproof.properties.idiot.props import IdiotProperties

END_CLAUSES = listed_under({Aspect.OVER: "IDIOT-END-1"})
OUT = "out"  # the contract's extra field: the seats out, in order


@checks("IDIOT-OUT-1", "IDIOT-END-1")
def game_end(props: IdiotProperties, step: Step) -> None:
    """The out list, the phase and the loser after a play, blind play, pickup or stop."""
    report_gaps(props, step.after, END_CLAUSES)
    o = props.outcome(step)
    if o is None:
        return
    v0, v1 = props.views(step)
    props.require(
        "IDIOT-OUT-1",
        v1.out == o.out,
        "a player left with no hand, face-up or face-down card is out, appended to `out`",
        o.out,
        v1.out,
        observed=(OUT,),
    )
    want_phase, want_loser = ("over", o.holders[0]) if o.over else ("play", None)
    got_phase, got_loser = v1.phase, (step.after.get("result") or {}).get("loser")
    if not o.over and o.pending and v0.phase == "opening" and got_phase == "opening":
        got_phase = "play"  # left open: the phase name while the opening play's follow-up is pending
    ok = got_phase == want_phase and got_loser == want_loser
    props.require(
        "IDIOT-END-1",
        ok,
        "the game ends as soon as exactly one player holds cards, and that player is the loser",
        None if ok else {"phase": want_phase, "loser": want_loser},
        None if ok else {"phase": got_phase, "loser": got_loser},
        observed=(obs.PHASE, obs.RESULT),
    )
    props.cover("IDIOT-END-1")
    if o.gone:
        props.cover("IDIOT-OUT-1")
