"""The engine contract (protocol.md §2) as a Python interface.

Every engine the kit talks to, in process or behind a pipe, is an ``Engine``:
plain JSON values in, plain JSON values out.  Errors are the four kinds of the
contract; ``IllegalMove`` may name the rule clause the move breaks.
"""

from __future__ import annotations

import importlib
import os
import sys
import typing
from collections.abc import Callable
from typing import Any, ClassVar, Literal, Protocol, TypeAlias, runtime_checkable

from ruleproof.model.errors import UserError

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
        # the message names the clause once, also when rebuilt from a wire message that already does
        named = clause and not message.startswith(f"{clause}:")
        super().__init__(f"{clause}: {message}" if named else message, data=data)
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
ENGINE_METHODS = ("hello", "new_game", "legal_moves", "apply", "state", "close")


class EngineLoadError(UserError, ValueError):
    """``MODULE:FACTORY`` cannot give an engine; the message names the spec and says why, in one line."""


def load_factory(spec: str, *, from_cwd: bool = False) -> EngineFactory:
    """Resolve ``MODULE:FACTORY`` (a class or a function returning an Engine).

    Importing runs the user's module, which may fail in any way (a syntax
    error, an exception at import time, ``sys.exit``): each becomes an
    ``EngineLoadError`` naming the spec, never a traceback.  With ``from_cwd``
    (the command line's ``--engine``), MODULE is also looked up from the
    current directory, as uvicorn does.
    """
    if from_cwd and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise EngineLoadError(f"{spec!r}: expected MODULE:FACTORY, e.g. mypackage.adapter:Adapter")
    module = _import(spec, module_name)
    factory: Any = module
    for i, part in enumerate(attr.split(".")):
        try:
            factory = getattr(factory, part)
        except AttributeError:
            owner = ".".join([module_name, *attr.split(".")[:i]])
            raise EngineLoadError(f"{spec}: {owner} has no attribute {part!r}") from None
        except Exception as err:  # a property or __getattr__ of the user's code that raises
            raise EngineLoadError(f"{spec}: looking up {part!r} raised {_describe(err)}") from err
    if not callable(factory):
        raise EngineLoadError(f"{spec}: {attr} is a {type(factory).__name__}, not a class or function")
    found: EngineFactory = factory  # callable, as far as can be told before calling it: make_engine checks the rest
    return found


def _import(spec: str, module_name: str) -> Any:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name is not None and module_name != err.name and not module_name.startswith(f"{err.name}."):
            # the module exists but imports something missing: name both
            raise EngineLoadError(f"{spec}: importing {module_name} failed: no module named {err.name!r}") from err
        raise EngineLoadError(f"{spec}: no module named {module_name!r} (run from the folder that holds it)") from err
    except SyntaxError as err:
        where = f"{err.filename}:{err.lineno}" if err.filename else module_name
        raise EngineLoadError(f"{spec}: {module_name} has a syntax error at {where}: {err.msg}") from err
    except (Exception, SystemExit) as err:  # anything the module's top level raises (SystemExit included)
        raise EngineLoadError(f"{spec}: importing {module_name} raised {_describe(err)}") from err


def make_engine(spec: str, factory: EngineFactory | None = None, *, from_cwd: bool = False) -> Engine:
    """Call the factory of ``spec`` and check that what it returns has the contract's methods."""
    factory = factory or load_factory(spec, from_cwd=from_cwd)
    try:
        engine = factory()
    except (Exception, SystemExit) as err:
        raise EngineLoadError(f"{spec}: calling the factory raised {_describe(err)}") from err
    check_engine(spec, engine)
    return engine


def check_engine(spec: str, engine: Any) -> None:
    """An ``EngineLoadError`` unless ``engine`` has every method of the contract."""
    if engine is None or isinstance(engine, (bool, int, float, str, bytes, list, tuple, dict)):
        raise EngineLoadError(f"{spec}: the factory returned {_short(engine)}, not an engine")
    missing = [m for m in ENGINE_METHODS if not callable(getattr(engine, m, None))]
    if missing:
        raise EngineLoadError(
            f"{spec}: the factory returned a {type(engine).__name__} without {', '.join(f'{m}()' for m in missing)}"
        )


def _describe(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return f"{type(err).__name__}: {_short(text)}" if text else type(err).__name__


def _short(value: Any, limit: int = 160) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else f"{text[:limit]}..."


BrokenKind: TypeAlias = Literal[
    # the transport: the wire is out of step (protocol.md §7, ``exited`` to ``bad_response``)
    "exited",
    "timeout",
    "not_json",
    "wrong_id",
    "extra_output",
    "too_long",
    "bad_response",
    # the contract's structure and first exchange
    "schema",
    "stale_state",
    "smoke",
    "hello",
    "crash",
    "state_error",
    # not the engine's fault: the run was being stopped
    "interrupted",
]
"""Why an engine cannot be driven: ``AdapterBroken.kind``, as the certificate and reports print it."""
BROKEN_KINDS: frozenset[str] = frozenset(typing.get_args(BrokenKind))


class AdapterBroken(Exception):
    """The engine or its adapter broke the contract itself (not a game rule).

    ``kind`` classifies it (a ``BrokenKind``, protocol.md §7); ``sent`` and
    ``received`` show the exchange and ``stderr`` the tail of the engine's log,
    where there is one.
    """

    def __init__(
        self,
        kind: BrokenKind,
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

    @classmethod
    def from_json(cls, data: JSONObject) -> AdapterBroken:
        kind = data.get("kind")
        return cls(
            kind if kind in BROKEN_KINDS else "crash",
            str(data.get("message", "")),
            sent=data.get("sent"),
            received=data.get("received"),
            stderr=str(data.get("stderr") or ""),
        )
