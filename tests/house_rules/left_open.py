"""Correct engines that make the choices the contract leaves open (protocol.md §8), for every game.

Each is the reference engine with its states rewritten one way the contract allows: the order of
cards within a hand, empty zones left out, no ``leader`` while the trick is empty, and the won
cards moved out of their zones once a round is scored (to ``deck``, the pile between rounds).  A
certification must pass every one of them: a kit that fails a correct engine for a choice the
contract leaves open is wrong, however plausible its habit.
"""

from __future__ import annotations

import copy

from ruleproof.model.engine import JSONObject, Move, State
from ruleproof.reference.base import ReferenceEngine


class _Rewrites(ReferenceEngine):
    """The reference, each state it answers rewritten by ``rewrite`` (a copy: the engine's own
    state is never touched)."""

    def rewrite(self, state: State) -> State:
        raise NotImplementedError

    def _out(self, state: State) -> State:
        return self.rewrite(copy.deepcopy(state))

    def new_game(self, game: str, players: int, dealer: int, options: JSONObject) -> State:
        return self._out(super().new_game(game, players, dealer, options))

    def apply(self, move: Move) -> State:
        return self._out(super().apply(move))

    def state(self) -> State:
        return self._out(super().state())


class HandsReversed(_Rewrites):
    """Cards within a hand in the other order."""

    def rewrite(self, state: State) -> State:
        for name, cards in state["zones"].items():
            if name.startswith("hand/"):
                cards.reverse()
        return state


class NoEmptyZones(_Rewrites):
    """Empty zones left out of the state."""

    def rewrite(self, state: State) -> State:
        state["zones"] = {name: cards for name, cards in state["zones"].items() if cards}
        return state


class NoLeaderOnEmptyTrick(_Rewrites):
    """``leader`` null whenever the trick holds no card."""

    def rewrite(self, state: State) -> State:
        if "leader" in state and not state["zones"].get("trick"):
            state["leader"] = None
        return state


class WonCardsCleared(_Rewrites):
    """Once a round is scored (the next deal awaited, or the game over), the finished tricks' cards
    lie in ``deck``, not in the winners' zones."""

    def rewrite(self, state: State) -> State:
        if state.get("phase") not in ("deal", "over"):
            return state
        zones = state["zones"]
        moved = [card for name in zones if name.startswith("won/") or name == "played" for card in zones[name]]
        for name in zones:
            if name.startswith("won/") or name == "played":
                zones[name] = []
        if moved:
            zones["deck"] = sorted([*zones.get("deck", []), *moved])
        return state


CHOICES = (HandsReversed, NoEmptyZones, NoLeaderOnEmptyTrick, WonCardsCleared)
