"""The deck and the box on every state (FOOL-INV-1, FOOL-SETUP-2..5): ``conservation`` after each step."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleproof.properties.fool.conservation import conservation
from ruleproof.properties.fool.props import checks
from ruleproof.properties.snapshot import Step

if TYPE_CHECKING:
    from ruleproof.properties.fool.props import FoolProperties


@checks("FOOL-INV-1", "FOOL-SETUP-2", "FOOL-SETUP-3", "FOOL-SETUP-4", "FOOL-SETUP-5")
def every_card_once(props: FoolProperties, step: Step) -> None:
    conservation(props, step.after, dealt=step.kind == "deal")
