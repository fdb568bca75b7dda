"""The minimizer's engine: what a deterministic engine answered once, answered again without a call.

Minimizing replays many candidates that begin alike (the same setup, the same deal, the same first
moves), and several causes of one game often start from the same counterexample.  An engine the kit
can certify gives the same answers to the same setup and the same moves sent since its ``new_game``
(CONTRACT-DET-1), so ``Recall`` keeps every answer by that position (a tree of positions, one per
setup) and answers from it whatever it has seen.  Calls are deferred, not faked: only when a
replay asks something not yet answered does the engine get there, by the ``new_game`` and the
moves of the position (no ``legal_moves`` nor ``state`` on the way), or by the moves still missing
when it already stands on the way.  A replay that stays among known positions costs no call.

Only the minimizer's attempts read it.  A verdict never rests on a recalled answer: each failure's
counterexample is confirmed by a fresh replay on the engine itself, and CONTRACT-DET-1, which is
about an engine answering the same twice, is minimized on the engine itself.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import orjson
from attrs import define, field

from ruleproof.model.engine import EngineError, JSONObject, Move, State
from ruleproof.transport.checked import CheckedEngine

# an answer: what the engine returned, or the error it answered
Answer = Any


@define(eq=False)
class _Position:
    """A setup and the moves sent since its ``new_game`` (refused ones too): what the engine answered there."""

    parent: _Position | None
    move: Move | None  # the move sent to get here from ``parent`` (None at a new_game)
    reached: Answer = None  # the answer that got here: new_game's or apply's state, or its error
    listed: Answer = None  # legal_moves' answer here, or its error
    read: Answer = None  # state's answer here, or its error
    after: dict[bytes, _Position] = field(factory=dict)  # by the exact move sent next

    def path(self) -> list[_Position]:
        """The positions from the new_game here, in order."""
        out: list[_Position] = []
        node: _Position | None = self
        while node is not None:
            out.append(node)
            node = node.parent
        return out[::-1]


def _key(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def _give(answer: Answer) -> Any:
    if isinstance(answer, EngineError):
        # raised afresh each time: a kept error would otherwise gather every replay's frames in its traceback
        raise answer.with_traceback(None)
    return answer


class Recall(CheckedEngine):
    """A ``CheckedEngine`` for replays that answers from what ``engine`` answered at the same position.

    ``engine.calls`` counts the calls actually made (this one's own ``calls`` stays 0).  The engine's
    own position is trusted only while nothing else has called it since this one last did.
    """

    def __init__(self, engine: CheckedEngine) -> None:  # the base's own state is never read: no super().__init__
        self.real = engine
        self.inner = engine.inner
        self.game = engine.game
        self.calls = 0
        self._games: dict[bytes, _Position] = {}
        self._setups: dict[int, JSONObject] = {}  # id of a game's root position -> its new_game params
        self.at: _Position | None = None  # where the replay is
        self._there: _Position | None = None  # where the engine is, as of ``_calls``
        self._calls = -1

    def hello(self) -> JSONObject:
        return self.real.hello()

    def new_game(self, game: str, players: int, dealer: int, options: JSONObject) -> State:
        params = {"game": game, "players": players, "dealer": dealer, "options": options}
        root = self._games.get(key := _key(params))
        if root is None:
            root = self._games[key] = _Position(None, None)
            self._setups[id(root)] = params
        self.at, self.game = root, game
        if root.reached is None:
            root.reached = self._ask(root, lambda: self.real.new_game(game, players, dealer, options))
        state: State = _give(root.reached)
        return state

    def legal_moves(self) -> list[Move]:
        at = self._here()
        if at.listed is None:
            at.listed = self._ask(at, self.real.legal_moves)
        moves: list[Move] = _give(at.listed)
        return moves

    def state(self) -> State:
        at = self._here()
        if at.read is None:
            at.read = self._ask(at, self.real.state)
        state: State = _give(at.read)
        return state

    def apply(self, move: Move) -> State:
        state: State = self._step(move, lambda: self.real.apply(move))
        return state

    def replay_apply(self, move: Move) -> Any:
        return self._step(move, lambda: self.real.replay_apply(move))

    def checked_state(self, state: Any) -> State:
        return self.real.checked_state(state)

    def close(self) -> None:
        """The engine is the run's: closing a replay's view of it closes nothing."""

    def _here(self) -> _Position:
        if self.at is None:
            raise EngineError("no game started")  # as an engine without a game answers; never reached by a session
        return self.at

    def _step(self, move: Move, call: Callable[[], Any]) -> Any:
        at = self._here()
        nxt = at.after.get(key := _key(move))
        if nxt is None:
            nxt = _Position(at, move)
            nxt.reached = self._ask(at, call, then=nxt)
            at.after[key] = nxt
        self.at = nxt
        return _give(nxt.reached)

    def _ask(self, at: _Position, call: Callable[[], Any], then: _Position | None = None) -> Answer:
        """The engine's answer to ``call`` made at ``at`` (the engine brought there first); it is then at
        ``then`` (a move sent) or still at ``at`` (a question)."""
        self._bring(at)
        self._there = None  # until the call has answered: an AdapterBroken leaves the engine anywhere
        try:
            answer = call()
        except EngineError as err:
            answer = err.with_traceback(None)  # kept as an answer: not the frames that raised it
        self._there, self._calls = then or at, self.real.calls
        return answer

    def _bring(self, at: _Position) -> None:
        """Send the engine what it lacks of ``at``'s position: the moves missing, or its new_game and all of them."""
        path = at.path()
        there = self._there if self._calls == self.real.calls else None
        start = next((k + 1 for k, node in enumerate(path) if node is there), 0)
        self._there = None
        if start == 0 and at.reached is not None:  # the root was answered before: set the game up again
            params = self._setups[id(path[0])]
            with contextlib.suppress(EngineError):  # as answered before (kept in the root)
                self.real.new_game(params["game"], params["players"], params["dealer"], params["options"])
            start = 1
        for node in path[max(start, 1) :]:
            with contextlib.suppress(EngineError):  # a refusal answered before, now as then
                self.real.replay_apply(node.move or {})
        self._there, self._calls = at, self.real.calls
