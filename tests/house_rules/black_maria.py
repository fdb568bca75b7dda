"""Black Maria as many Hearts programs play it.

- The holder of the 2C leads the first trick (the lowest club at 3 players,
  where the 2C is out), not the player left of the dealer (BM-LEAD-1).
- Shooting the moon: a player who takes every heart and the QS scores -26
  and the others nothing (BM-SCORE-4, and so BM-INV-5 and BM-INV-6).
- A pass is not checked for repeats: ``["AD", "AD", "AD"]`` is accepted and
  the receiver gets three aces of diamonds (BM-PASS-1, then conservation,
  BM-INV-1, and everything that counts cards).

It declares none of its house rules (only the documents' options): the kit judges it by the
documents' rules, and each house rule is a deviation.
"""

from __future__ import annotations

from attrs import evolve

from ruleproof.model.engine import JSONObject
from ruleproof.reference.base import ReferenceEngine
from ruleproof.reference.black_maria import BlackMaria, BlackMariaState, in_deck_order


class HouseBlackMaria(BlackMaria):
    def declaration(self) -> JSONObject:
        full = super().declaration()
        return {**full, "options": {k: full["options"][k] for k in ("scoring", "target")}}

    def pass_move(self, state: BlackMariaState, cards: list[str]) -> BlackMariaState:
        seat = state.to_act
        assert seat is not None
        if len(cards) == 3 and len(set(cards)) < 3 and set(cards) <= set(state.hands[seat]):
            state = evolve(
                state,
                hands=_replace(state.hands, seat, tuple(c for c in state.hands[seat] if c not in cards)),
                passing=_replace(state.passing, seat, in_deck_order(cards)),
            )
            if seat != state.dealer:
                return evolve(state, to_act=self.next_player(seat, state.players))
            return self._lead_by_lowest_club(self.exchange(state))
        after = super().pass_move(state, cards)
        return self._lead_by_lowest_club(after) if after.phase == "play" and state.phase == "pass" else after

    def _lead_by_lowest_club(self, state: BlackMariaState) -> BlackMariaState:
        if state.phase != "play" and not all(not p for p in state.passing):
            return state
        club = "2C" if state.players == 4 else "3C"
        holder = next(s for s, hand in enumerate(state.hands) if club in hand)
        return evolve(state, phase="play", to_act=holder, leader=holder)

    def round_scores(self, won: tuple[tuple[str, ...], ...], scoring: str) -> tuple[int, ...]:
        scores = super().round_scores(won, scoring)
        total = sum(scores)
        shooter = next((s for s, v in enumerate(scores) if v == total), None)
        if scoring == "standard" and shooter is not None and total == 26:
            return tuple(-26 if s == shooter else 0 for s in range(len(scores)))
        return scores


def _replace(items: tuple, index: int, value: object) -> tuple:
    return (*items[:index], value, *items[index + 1 :])


def engine() -> ReferenceEngine:
    return ReferenceEngine([HouseBlackMaria()], name="house-rules-black-maria")
