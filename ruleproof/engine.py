"""The engine contract (protocol.md §2) as a Python interface.

Every engine the kit talks to, in process or behind a pipe, is an ``Engine``:
plain JSON values in, plain JSON values out.  Errors are the four kinds of the
contract; ``IllegalMove`` may name the rule clause the move breaks.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, ClassVar, Protocol, runtime_checkable

JSON = Any
JSONObject = dict[str, Any]
Move = dict[str, Any]
State = dict[str, Any]


@runtime_checkable
class Engine(Protocol):
    """One engine, one game at a time (the wire protocol is stateful too)."""

    def hello(self) -> JSONObject:
        """The ``hello`` result: protocol, engine name/version, games declared."""

    def new_game(self, game: str, players: int, dealer: int, options: JSONObject) -> State:
        """Start a game in phase ``deal`` and return its state."""

    def legal_moves(self) -> list[Move]:
        """Every distinct legal move of whoever is to act ([] in deal and over)."""

    def apply(self, move: Move) -> State:
        """Apply one move (a deal included) and return the new state."""

    def state(self) -> State:
        """The current state snapshot."""

    def close(self) -> None:
        """Release the engine (``bye`` on the wire)."""


class EngineError(Exception):
    """An error the contract defines, answered by the engine (protocol.md §1)."""

    kind: ClassVar[str] = "internal"
    code: ClassVar[int] = -32603

    def __init__(self, message: str, *, data: JSONObject | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.data = dict(data or {})

    def to_error(self) -> JSONObject:
        """The JSON-RPC ``error`` member for this error."""
        return {"code": self.code, "message": self.message, "data": {**self.data, "kind": self.kind}}


class IllegalMove(EngineError):
    """A well-formed move that breaks a rule; the game state is unchanged."""

    kind = "illegal_move"
    code = -32001

    def __init__(self, clause: str | None, message: str, *, data: JSONObject | None = None) -> None:
        super().__init__(f"{clause}: {message}" if clause else message, data=data)
        self.clause = clause
        if clause:
            self.data["clause"] = clause


class BadRequest(EngineError):
    """Malformed params or move, unknown option value, call before new_game."""

    kind = "bad_request"
    code = -32602


class Unsupported(EngineError):
    """A valid request the engine chose not to implement."""

    kind = "unsupported"
    code = -32002


class InternalError(EngineError):
    """The engine itself failed."""

    kind = "internal"
    code = -32603


ERROR_KINDS: dict[str, type[EngineError]] = {
    cls.kind: cls for cls in (IllegalMove, BadRequest, Unsupported, InternalError)
}


def error_from_wire(error: JSONObject) -> EngineError:
    """Rebuild the Python error from a JSON-RPC error object."""
    data = dict(error.get("data") or {})
    kind = data.pop("kind", None)
    message = str(error.get("message", ""))
    if kind == "illegal_move":
        return IllegalMove(data.pop("clause", None), message, data=data)
    cls = ERROR_KINDS.get(kind or "", InternalError)
    if kind is None and error.get("code") == -32601:
        cls = Unsupported
    return cls(message, data=data)


EngineFactory = Callable[[], Engine]


def load_factory(spec: str) -> EngineFactory:
    """Resolve ``MODULE:FACTORY`` (a class or a function returning an Engine)."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"--engine expects MODULE:FACTORY, got {spec!r}")
    module = importlib.import_module(module_name)
    factory = module
    for part in attr.split("."):
        factory = getattr(factory, part)
    if not callable(factory):
        raise ValueError(f"{spec!r} is not callable")
    return factory  # type: ignore[return-value]


class AdapterBroken(Exception):
    """The engine or its adapter broke the contract itself (not a game rule).

    ``kind`` classifies it (``schema``, ``crash``, ``timeout``, ``exited``,
    ``not_json``, ``wrong_id``, ``extra_output``, ``too_long``, ``stale_state``,
    ``hello``, ``smoke``); ``sent`` and ``received`` show the exchange and
    ``stderr`` the tail of the engine's log, where there is one.
    """

    def __init__(
        self,
        kind: str,
        message: str,
        *,
        sent: JSON = None,
        received: JSON = None,
        stderr: str = "",
    ) -> None:
        super().__init__(f"adapter broken ({kind}): {message}")
        self.kind, self.message = kind, message
        self.sent, self.received, self.stderr = sent, received, stderr

    def to_json(self) -> JSONObject:
        return {
            "kind": self.kind,
            "message": self.message,
            "sent": self.sent,
            "received": self.received,
            "stderr": self.stderr,
        }
