"""Table cards (IDIOT-TABLE-1/-2/-3, IDIOT-BLIND-1): which zone a player plays from.

Face-up cards only once the hand and the draw pile are empty (IDIOT-TABLE-1), with the hand's legality
and several of a rank together (IDIOT-TABLE-2), or all the last hand cards with face-up cards of their
rank once the draw pile is empty (IDIOT-TABLE-3, hand cards taken first); face-down cards only once
everything else is empty, one a turn by its index (IDIOT-BLIND-1).  ``table_moves`` judges the zone of
the plays listed (a face-up rank missing counts here only when the hand would list it, ``diff``) and
of the plays applied, and that exactly the cards played leave the face-up and face-down rows.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ruleproof.model import observed as obs
from ruleproof.properties.idiot.aspects import Aspect, listed_under
from ruleproof.properties.idiot.cards import same, sorted_cards
from ruleproof.properties.idiot.props import checks
from ruleproof.properties.idiot.reporting import report_applied, report_gaps
from ruleproof.properties.idiot.view import Rows
from ruleproof.properties.snapshot import Snapshot, Step

if TYPE_CHECKING:
    from ruleproof.properties.idiot.outcome import Outcome
    from ruleproof.properties.idiot.props import IdiotProperties

TABLE_CLAUSES = listed_under(
    {
        Aspect.FACE_UP: "IDIOT-TABLE-1",
        Aspect.FACE_UP_ALIKE: "IDIOT-TABLE-2",
        Aspect.COMBO: "IDIOT-TABLE-3",
        Aspect.BLIND: "IDIOT-BLIND-1",
    }
)


@checks("IDIOT-TABLE-1", "IDIOT-TABLE-2", "IDIOT-TABLE-3", "IDIOT-BLIND-1")
def table_moves(props: IdiotProperties, step: Step) -> None:
    """The zone of the plays listed and applied, and the rows after a play."""
    after = step.after
    if after.phase in ("opening", "play") and after.to_act is not None:
        report_gaps(props, after, TABLE_CLAUSES)
        _cover(props, after)
    if step.before.phase in ("opening", "play"):
        report_applied(props, step, TABLE_CLAUSES)
        o = props.outcome(step)
        if o is not None:
            _rows(props, step, o)


def _cover(props: IdiotProperties, snap: Snapshot) -> None:
    """The zone clauses this state's open zone is judged under."""
    v = props.view(snap)
    s = v.seat
    if s is None or v.phase != "play":
        return
    zone = v.zone_of(s)
    if zone == "face_up":
        props.cover("IDIOT-TABLE-1", "IDIOT-TABLE-2")
    elif zone == "face_down":
        props.cover("IDIOT-BLIND-1")
    elif v.fu.lists[s]:
        props.cover("IDIOT-TABLE-1")  # face-up cards held back while the hand has cards
        if not v.draw:
            props.cover("IDIOT-TABLE-3")


def _rows(props: IdiotProperties, step: Step, o: Outcome) -> None:
    """Exactly the face-up cards played leave the face-up row, and only a blind play takes a face-down card."""
    v0, v1 = props.views(step)
    s = o.s
    if not _row_kept(v0.fu, v1.fu, s, o.fu):
        clause = "IDIOT-TABLE-1"
        if o.from_fu:
            clause = "IDIOT-TABLE-3" if o.from_hand else "IDIOT-TABLE-2" if len(o.cards) > 1 else "IDIOT-TABLE-1"
        props.fail(
            clause,
            "exactly the face-up cards played leave the face-up row (hand cards are taken first)",
            sorted_cards(v0.fu[s] if o.fu is None else o.fu),
            sorted(v1.fu.lists[s]),
            # the row, and the cards that differ in it (a card kept there may be one a hand lost or gained)
            observed=lambda: {obs.zone(f"face_up/{s}")} | _differ(v0.fu[s] if o.fu is None else o.fu, v1.fu[s]),
        )
    if not _row_kept(v0.fd, v1.fd, s, o.fd):
        props.fail(
            "IDIOT-BLIND-1",
            "exactly the face-down card at the index played leaves the face-down row, and only by a blind play",
            sorted_cards(v0.fd[s] if o.fd is None else o.fd),
            sorted(v1.fd.lists[s]),
            observed=(obs.zone(f"face_down/{s}"),),
        )


def _differ(want: Counter[str], got: Counter[str]) -> frozenset[str]:
    return obs.cards(((want - got) + (got - want)).keys())


def _row_kept(row0: Rows, row1: Rows, s: int, want: Counter[str] | None) -> bool:
    """The seat's row after the move holds ``want`` (None: what it held before). A row listed as before
    holds what it held before: no Counter of the new row needed."""
    if want is None:
        return row1.same(row0, s)
    return same(want, row0[s]) if row1.lists[s] == row0.lists[s] else same(row1[s], want)
