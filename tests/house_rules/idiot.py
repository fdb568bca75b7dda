"""Idiot (Shithead) as a web game plays it.

- An 8 skips the next player (IDIOT-INV-7: turns go to the next seat clockwise).
- A queen reverses the direction of play (IDIOT-INV-7 again, seen once a
  queen has been played and the next seat is not the one on the left).
- On a 9 only 3, 5, 7 and 9 may be played: the 2 (IDIOT-TWO-1), the 10
  (IDIOT-BURN-10) and the higher ranks (IDIOT-PLAY-2) are missing from the
  legal moves, and 3, 5, 7 are listed where they are not allowed.
"""

from __future__ import annotations

from attrs import evolve

from ruleproof.reference.base import ReferenceEngine
from ruleproof.reference.idiot import Idiot, IdiotOptions, IdiotState

ODD_ON_NINE = frozenset("3579")


class HouseIdiot(Idiot):
    def start(self, players: int, dealer: int, options: dict) -> IdiotState:
        self.step = 1  # the direction of play: 1 clockwise, -1 after an odd number of queens
        return super().start(players, dealer, options)

    def left_of(self, seat: int, players: int) -> int:
        return (seat + getattr(self, "step", 1)) % players

    def may_play_on(self, card_rank: str, pile: tuple[str, ...], options: IdiotOptions) -> bool:
        if self.effective_top(pile) == "9":
            return card_rank in ODD_ON_NINE
        return super().may_play_on(card_rank, pile, options)

    def after_play(
        self, state: IdiotState, seat: int, card_rank: str, drawn: tuple[str, ...], burned: bool, blind: bool
    ) -> IdiotState:
        if card_rank == "Q" and not burned:
            self.step = -getattr(self, "step", 1)
        after = super().after_play(state, seat, card_rank, drawn, burned, blind)
        if card_rank == "8" and not burned and after.phase == "play" and after.pending is None and after.to_act != seat:
            after = evolve(after, to_act=self.next_active(after.out, after.to_act, after.players))
        return after


def engine() -> ReferenceEngine:
    return ReferenceEngine([HouseIdiot()], name="house-rules-idiot")
