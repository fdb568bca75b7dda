"""The tiles (MOON-INV-1 / MOON-SETUP-2) after every step: the 22, each exactly once, over the zones;
and the scores (MOON-INV-8), which change only when a hand is scored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleproof.properties.moon.props import checks
from ruleproof.properties.moon.state import changed_scores, conservation
from ruleproof.properties.snapshot import Step

if TYPE_CHECKING:
    from ruleproof.properties.moon.props import MoonProperties


@checks("MOON-INV-1", "MOON-SETUP-2", "MOON-INV-8")
def every_tile_once(props: MoonProperties, step: Step) -> None:
    conservation(props, step.after, dealt=step.kind == "deal")
    before, after = step.before, step.after
    hand_over = before.phase == "play" and after.phase != "play"
    if not hand_over:
        props.expect(
            "MOON-INV-8",
            after.scores == before.scores,
            "scores change only when a hand is scored at the end of its seventh trick",
            before.scores,
            after.scores,
            observed=lambda: changed_scores(before.scores, after.scores),
        )
