"""An engine with a house rule: the dealer leads the first trick of each round.

The rules (docs/rules/black-maria.md, BM-LEAD-1) have the player to the dealer's left lead it.
The engine is the README's adapter (examples/python/adapter.py) with that one rule changed.
"""

from __future__ import annotations

from examples.python.adapter import Adapter
from ruleproof.reference.black_maria import BlackMaria


class DealerLeads(BlackMaria):
    def first_leader(self, dealer: int, players: int) -> int:
        return dealer


class HouseAdapter(Adapter):
    def __init__(self) -> None:
        super().__init__()
        self.rules = DealerLeads()
