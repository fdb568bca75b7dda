"""The invariants judged on every step (BM-INV-1, BM-INV-6's totals); the others are judged where their
rule is (BM-INV-2 with passing, BM-INV-3/4 with play, BM-INV-5/6 with scoring, BM-INV-7 with the end).

An invariant states what every state the rules reach has.  When the engine's state leaves the rules an
invariant fails in that same step, so that what follows is marked as its consequence (``follows``); a
deviation that keeps the state within the rules (the wrong seat to act, a move missing from the list,
a pass in the wrong direction, a trick on the wrong pile) breaks none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleproof.model import observed as seen
from ruleproof.properties.black_maria.conservation import conservation
from ruleproof.properties.black_maria.props import checks
from ruleproof.properties.snapshot import Step

if TYPE_CHECKING:
    from ruleproof.properties.black_maria.props import BlackMariaProperties


@checks("BM-INV-1", "BM-DEAL-1")
def every_card_once(props: BlackMariaProperties, step: Step) -> None:
    conservation(props, step.after, props.n)


@checks("BM-INV-6")
def totals_never_fall(props: BlackMariaProperties, step: Step) -> None:
    """BM-INV-6: penalty points only ever add up; no step lowers a running total (with moon=shooter_minus
    the step that scores a round may: its moon shot is BM-SCORE-6's to judge)."""
    before, after = step.before.scores, step.after.scores
    if props.house.moon == "shooter_minus" and step.before.phase == "play" and step.after.phase != "play":
        props.cover("BM-INV-6")
        return
    fell = [s for s in range(min(len(before), len(after))) if after[s] < before[s]]
    props.expect(
        "BM-INV-6",
        not fell,
        "totals never go down",
        {"at least": before},
        {"scores": after},
        observed=lambda: {seen.score(s) for s in fell},
    )
