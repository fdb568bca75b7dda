"""Idiot (Shithead) as a web game plays it, its house rules declared where the contract has an option.

- An 8 skips the next player, each 8 of the play (``eight_skips: true``, IDIOT-EIGHT-1): declared.
- A queen reverses the direction of play (``reverse: "Q"``, IDIOT-REVERSE-1): declared.
- The reference's other house options it inherits (``seven_lower``, ``transparent``) are declared too; its 9
  rule refuses a transparent rank on a 9 as well (IDIOT-TRANSPARENT-1, the same rule of the top).
- On a 9 only 3, 5, 7 and 9 may be played: no option says so.  The 2 (IDIOT-TWO-1), the 10
  (IDIOT-BURN-10) and the higher ranks (IDIOT-PLAY-2) are missing from the legal moves, and 3, 5, 7
  are listed where they are not allowed: the one deviation left.
"""

from __future__ import annotations

from ruleproof.model.engine import JSONObject
from ruleproof.reference.base import ReferenceEngine
from ruleproof.reference.idiot import Idiot, IdiotOptions

ODD_ON_NINE = frozenset("3579")


class HouseIdiot(Idiot):
    def declaration(self) -> JSONObject:
        out = super().declaration()
        return {**out, "options": {**out["options"], "eight_skips": [True], "reverse": ["Q"]}}

    def may_play_on(self, card_rank: str, pile: tuple[str, ...], options: IdiotOptions) -> bool:
        if self.effective_top(pile) == "9":
            return card_rank in ODD_ON_NINE
        return super().may_play_on(card_rank, pile, options)


def engine() -> ReferenceEngine:
    return ReferenceEngine([HouseIdiot()], name="house-rules-idiot")
