"""A house rule declared, and stated as an invariant of one's own.

The engine deviates from BM-LEAD-1 on purpose: ``expect.toml`` declares it, so the kit's rules do
not fail it there; the subclass adds the house rule itself as an ``@invariant``, checked after every
step like the kit's own, so a change that loses the house rule fails too.  ``settings`` are the
project's to choose (here: fewer examples than Hypothesis's default).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import settings
from hypothesis.stateful import invariant

import ruleproof.stateful
from examples.stateful.house_rules import HouseAdapter

BlackMaria = ruleproof.stateful.machine(
    "black-maria",
    HouseAdapter,
    expect=Path(__file__).with_name("expect.toml"),
    settings=settings(ruleproof.stateful.default_settings("black-maria"), max_examples=25),
)


class HouseRules(BlackMaria):
    @invariant()
    def the_dealer_leads_the_first_trick(self) -> None:
        state = self.state
        if state is None or state["phase"] != "play" or state["zones"]["trick"]:
            return
        size = 52 // state["players"]  # 17 cards at 3 players (the 2C is out), 13 at 4
        if all(len(state["zones"][f"hand/{seat}"]) == size for seat in range(state["players"])):
            assert state["to_act"] == state["dealer"], f"seat {state['to_act']} leads the first trick, not the dealer"


TestHouseRules = HouseRules.TestCase
