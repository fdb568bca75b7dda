"""Every engine the kit drives is wrapped in ``CheckedEngine``.

It validates each value the engine returns against the contract's JSON
Schemas and turns anything outside the contract (a schema violation, an
unexpected Python exception) into ``AdapterBroken`` naming the offending
field, so a broken adapter is never mistaken for a broken rule.

An engine that declares the ``moves`` capability in ``hello`` (protocol.md
§9; ``ruleproof serve`` does) answers ``new_game`` and ``apply`` with the new
state's legal moves too, when asked: the next ``legal_moves`` is then
answered from that reply, and a step of the exploration costs one round trip
instead of two.  ``calls`` counts the calls actually made.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, Protocol, TypeVar, cast

from ruleproof.model import schema
from ruleproof.model.engine import AdapterBroken, Engine, EngineError, InternalError, JSONObject, Move, State

T = TypeVar("T")
# An in-process engine that raises from these calls has answered ``internal`` (as the wire's server answers
# any exception): the kit records a finding and plays on. From ``hello`` or ``state`` it cannot be driven.
ANSWERED = frozenset({"new_game", "legal_moves", "apply"})
MOVES = "moves"  # the capability (hello.capabilities) of answering a new state with its legal moves


class Listing(Protocol):
    """A transport that can ask for the ``moves`` capability's answers (``SubprocessEngine``)."""

    def new_game_listing(self, game: str, players: int, dealer: int, options: JSONObject) -> tuple[State, Any]: ...

    def apply_listing(self, move: Move) -> tuple[State, Any]: ...


class CheckedEngine:
    """An ``Engine`` whose every answer has been checked against the schemas."""

    def __init__(self, engine: Engine) -> None:
        self.inner = engine
        self.game: str | None = None
        self.calls = 0  # engine calls made through this wrapper (budgets and reports count them)
        self._hello: JSONObject | None = None
        self._listing: Listing | None = None  # set when the engine declares ``moves`` and its transport can ask
        self._listed: list[Move] | None = None  # the current state's legal moves, as its last answer gave them

    def hello(self) -> JSONObject:
        if self._hello is None:
            result = self._call("hello", {}, self.inner.hello)
            self._validate("protocol", None, result, "hello result", "hello", {})
            self._hello = result
            if MOVES in result.get("capabilities", ()) and hasattr(self.inner, "apply_listing"):
                self._listing = cast(Listing, self.inner)
        return self._hello

    def new_game(self, game: str, players: int, dealer: int, options: JSONObject) -> State:
        params = {"game": game, "players": players, "dealer": dealer, "options": options}
        self._listed = None
        listed: Any = None
        if (lister := self._listing) is not None:
            state, listed = self._call(
                "new_game", params, lambda: lister.new_game_listing(game, players, dealer, options)
            )
        else:
            state = self._call("new_game", params, lambda: self.inner.new_game(game, players, dealer, options))
        self.game = game
        checked = self._state(state, "new_game", params)
        self._listed = self._moves(listed, "new_game result (moves)", "new_game", params)
        return checked

    def legal_moves(self) -> list[Move]:
        if self._listed is not None:  # the answer that gave this state listed its moves: no call
            moves, self._listed = self._listed, None
            return moves
        moves = self._call("legal_moves", {}, self.inner.legal_moves)
        if not isinstance(moves, list):
            raise AdapterBroken(
                "schema", "legal_moves must return a list", sent={"method": "legal_moves"}, received=moves
            )
        self._validate(self._game(), "moves", moves, "legal_moves result", "legal_moves", {})
        return moves

    def apply(self, move: Move) -> State:
        lister = self._listing
        if lister is None:
            return self._state(self.replay_apply(move), "apply", {"move": move})
        self._listed = None
        params = {"move": move}
        state, listed = self._call("apply", params, lambda: lister.apply_listing(move))
        checked = self._state(state, "apply", params)
        self._listed = self._moves(listed, "apply result (moves)", "apply", params)
        return checked

    def replay_apply(self, move: Move) -> Any:
        """``apply`` for a replay that reads only the last state: that one is checked by ``checked_state``.

        A determinism replay compares the final state alone, so validating every intermediate one
        would cost a schema check per replayed move for nothing read (nor are the moves asked for).
        """
        self._listed = None
        return self._call("apply", {"move": move}, lambda: self.inner.apply(move))

    def _moves(self, listed: Any, what: str, method: str, params: JSONObject) -> list[Move] | None:
        """The legal moves an answer carried (None when it carried none), checked as ``legal_moves``'s."""
        if listed is None:
            return None
        self._validate(self._game(), "moves", listed, what, method, params)
        moves: list[Move] = listed  # the schema says it is a list of moves
        return moves

    def checked_state(self, state: Any) -> State:
        """``state`` (a ``replay_apply`` answer) checked against the game's schema, as ``apply`` checks it."""
        return self._state(state, "apply", {})

    def state(self) -> State:
        return self._state(self._call("state", {}, self.inner.state), "state", {})

    def close(self) -> None:
        self._listed = None
        with contextlib.suppress(EngineError):  # closing a dead engine is no error
            self.inner.close()

    def _game(self) -> str:
        if self.game is None:
            raise AdapterBroken("smoke", "no game started")
        return self.game

    def _state(self, state: Any, method: str, params: JSONObject) -> State:
        # every reply is checked: the compiled validator first, the message (and its field) only on a failure
        if self.game is None or not schema.validator(self.game, "state").is_valid(state):
            self._validate(self._game(), "state", state, f"{method} result (STATE)", method, params)
        checked: State = state  # the schema says it is one
        return checked

    def _call(self, method: str, params: JSONObject, fn: Callable[[], T]) -> T:
        self.calls += 1
        try:
            return fn()
        except (EngineError, AdapterBroken):
            raise
        except Exception as exc:
            if method in ANSWERED:  # the in-process form of an ``internal`` answer: a finding, never a break
                raise InternalError(f"{method} raised {type(exc).__name__}: {exc}") from exc
            raise AdapterBroken(  # hello or state: without them the engine cannot be driven at all
                "crash",
                f"{method} raised {type(exc).__name__}: {exc}",
                sent={"method": method, "params": params},
            ) from exc

    @staticmethod
    def _validate(name: str, definition: str | None, value: Any, what: str, method: str, params: JSONObject) -> None:
        try:
            schema.check(name, definition, value, what)
        except schema.SchemaError as err:
            raise AdapterBroken(
                "schema",
                str(err),
                sent={"method": method, "params": params},
                received=value,
            ) from None
