"""In-process engines (``--engine tests.broken_engines.inprocess:NAME``) that are wrong in one way each.

Factories that cannot give an engine (they raise, or return 42, None, or an
object without ``close()``), an engine declaring no game, one refusing every
deal under its own clause ID, and one whose ``apply`` loops forever after a
number of calls (the in-process hang of issue 12, probe 15), and one that hands out its own
state object and changes it in place.
"""

from __future__ import annotations

import os
from typing import Any

from ruleproof.model.engine import IllegalMove
from ruleproof.reference import ReferenceEngine, rules_for


def raises() -> Any:
    raise RuntimeError("the engine's licence file is missing")


def returns_42() -> Any:
    return 42


def returns_none() -> Any:
    return None


class NoClose:
    """Every method but ``close``."""

    def __init__(self) -> None:
        self.inner = ReferenceEngine([rules_for("black-maria")])

    def hello(self) -> dict[str, Any]:
        return self.inner.hello()

    def new_game(self, game: str, players: int, dealer: int, options: dict[str, Any]) -> dict[str, Any]:
        return self.inner.new_game(game, players, dealer, options)

    def legal_moves(self) -> list[dict[str, Any]]:
        return self.inner.legal_moves()

    def apply(self, move: dict[str, Any]) -> dict[str, Any]:
        return self.inner.apply(move)

    def state(self) -> dict[str, Any]:
        return self.inner.state()


class Wrapped(NoClose):
    """The Black Maria reference, each method overridable."""

    def close(self) -> None:
        self.inner.close()


class NoGames(Wrapped):
    """``hello`` declares ``"games": {}``."""

    def hello(self) -> dict[str, Any]:
        return {**self.inner.hello(), "games": {}}


class RefusesEveryDeal(Wrapped):
    """Every deal is refused under the engine's own clause ``NOPE-1`` (issue 12, probe 14)."""

    def apply(self, move: dict[str, Any]) -> dict[str, Any]:
        if move.get("type") == "deal":
            raise IllegalMove("NOPE-1", "this engine deals its own cards")
        return self.inner.apply(move)


class LoopsForever(Wrapped):
    """The ``LOOPS_AFTER``-th apply (default 40) never returns, as a ``next_active`` that never advances."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0
        self.after = int(os.environ.get("LOOPS_AFTER", "40"))

    def apply(self, move: dict[str, Any]) -> dict[str, Any]:
        self.calls += 1
        if self.calls >= self.after:
            seat = 0
            while True:  # the bug: the next seat is computed from itself
                seat = (seat + 0) % 4
        return self.inner.apply(move)


class HandsOutItsState(Wrapped):
    """Returns one state object and changes it in place from call to call, as an engine that
    hands out its own bookkeeping would."""

    def __init__(self) -> None:
        super().__init__()
        self.mine: dict[str, Any] = {}

    def _own(self, state: dict[str, Any]) -> dict[str, Any]:
        self.mine.clear()
        self.mine.update(state)
        return self.mine

    def new_game(self, game: str, players: int, dealer: int, options: dict[str, Any]) -> dict[str, Any]:
        return self._own(self.inner.new_game(game, players, dealer, options))

    def apply(self, move: dict[str, Any]) -> dict[str, Any]:
        return self._own(self.inner.apply(move))

    def state(self) -> dict[str, Any]:
        return self._own(self.inner.state())


class HangsInFactory:
    """The constructor itself never returns."""

    def __init__(self) -> None:
        while True:
            pass
