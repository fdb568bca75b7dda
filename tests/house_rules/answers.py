"""Engines whose error answers and values the kit must read as findings, never as a broken engine.

- ``CrashesOnRepeatedCard``: a Black Maria engine that crashes on a pass naming one card twice
  (``ValueError: Card('4', 'C') is not in list``), as a real Python Hearts engine does.  In process
  the exception is the engine's ``internal`` answer; behind the pipe (``ruleproof serve --engine``)
  its server answers JSON-RPC ``internal``.  The state is left as it was: CONTRACT-ERROR-1 fails on
  the probe, and the run goes on to judge every other clause.
- ``LadderPastAce``: an Idiot engine whose opening ladder goes on past the ace to ``"2"`` before
  ``"any"``.  Which ranks the ladder reaches is a rule (IDIOT-OPEN-3), not notation: the state's
  ``opening_rank`` of ``"2"`` is judged by the properties, never refused by the JSON Schema.
"""

from __future__ import annotations

from ruleproof.reference.base import ReferenceEngine
from ruleproof.reference.black_maria import BlackMaria, BlackMariaState
from ruleproof.reference.idiot import Idiot


class CrashesOnRepeatedCard(BlackMaria):
    def pass_move(self, state: BlackMariaState, cards: list[str]) -> BlackMariaState:
        seat = state.to_act
        assert seat is not None
        hand = list(state.hands[seat])
        for card in cards:  # the real engine removes each card from a list, and the second one is gone
            if card not in hand:
                raise ValueError(f"Card({card[0]!r}, {card[1]!r}) is not in list")
            hand.remove(card)
        return super().pass_move(state, cards)


class LadderPastAce(Idiot):
    def next_opening_rank(self, ladder_rank: str) -> str:
        if ladder_rank == "A":
            return "2"
        if ladder_rank == "2":
            return "any"
        return super().next_opening_rank(ladder_rank)


def crashes_on_repeated_card() -> ReferenceEngine:
    return ReferenceEngine([CrashesOnRepeatedCard()], name="crashes-on-repeated-card")


def ladder_past_ace() -> ReferenceEngine:
    return ReferenceEngine([LadderPastAce()], name="ladder-past-ace")
