"""``ruleproof serve``: the reference engines as an engine behind a pipe.

This is the whole wire side of the contract (protocol.md §1), and the example
to copy when writing an engine in another language: read one JSON-RPC request
per line from stdin, write exactly one response line to stdout and flush,
log to stderr only.  ``bye`` is answered ``{}`` and ends the process.

It declares the optional ``moves`` capability (protocol.md §9) for whatever
engine it serves: asked with ``"moves": true``, ``new_game`` and ``apply``
answer the new state's legal moves too, which it gets from the engine in
process, so a step of the kit's exploration is one round trip, not two.
With ``--no-moves`` it declares none and answers as §2 alone: an engine
behind a pipe without ``moves``, as most are.
"""

from __future__ import annotations

import contextlib
import json
import sys
import traceback
from collections.abc import Sequence
from typing import Any, BinaryIO, TypeVar

import orjson

from ruleproof.model.engine import BadRequest, Engine, EngineError, JSONObject

T = TypeVar("T")

PARSE_ERROR, INVALID_REQUEST, UNKNOWN_METHOD, INTERNAL = -32700, -32600, -32601, -32603


def serve(
    games: list[str] | None = None,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    engine: Engine | None = None,
    capabilities: Sequence[str] | None = None,
) -> int:
    """Serve ``engine`` (default: the reference, only ``games`` when given) until ``bye`` or EOF; the exit status.

    ``capabilities``: what to declare and offer (default ``CAPABILITIES``; ``()`` for none, as
    ``--no-moves``: the engine then stands in for one behind a pipe without ``moves``)."""
    from ruleproof.reference import ReferenceEngine, rules_for

    inp = stdin or sys.stdin.buffer
    out = stdout or sys.stdout.buffer
    if stdout is None:
        sys.stdout = sys.stderr  # a stray print() must never corrupt the protocol stream
    if engine is None:
        engine = ReferenceEngine([rules_for(g) for g in games] if games else None)
    for line in inp:
        request_id, reply, done = handle(engine, line, CAPABILITIES if capabilities is None else capabilities)
        if reply is not None:
            out.write(encode({"jsonrpc": "2.0", "id": request_id, **reply}) + b"\n")
            out.flush()
        if done:
            return 0
    return 0  # EOF: the kit has gone


def handle(engine: Engine, line: bytes, capabilities: Sequence[str] = ()) -> tuple[Any, JSONObject | None, bool]:
    """One request line -> (id, {"result": ...} or {"error": ...} or None for a notification, bye?).

    ``capabilities``: the optional features to declare in ``hello`` and offer (protocol.md §9); none
    by default, as for an engine that knows only §2."""
    try:
        request = _request(line)
    except InvalidRequest as err:
        return None, error(err.code, err.message, "bad_request"), False
    if "id" not in request:
        return None, None, False  # a JSON-RPC notification gets no answer (the kit never sends one)
    request_id, method, params = request["id"], request["method"], request.get("params", {})
    if not isinstance(params, dict):
        return request_id, error(INVALID_REQUEST, "invalid request: params must be an object", "bad_request"), False
    try:
        return request_id, {"result": call(engine, method, params, capabilities)}, method == "bye"
    except EngineError as err:
        return request_id, {"error": err.to_error()}, False
    except Exception as exc:  # the engine failed: say so, log the traceback, keep serving
        traceback.print_exc(file=sys.stderr)
        return request_id, error(INTERNAL, f"{type(exc).__name__}: {exc}", "internal"), False


class InvalidRequest(Exception):
    """A line that is not a JSON-RPC 2.0 request: answered with a null id (JSON-RPC 2.0 §5)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _request(line: bytes) -> JSONObject:
    """The request object of one line, or ``InvalidRequest``."""
    try:
        request = decode(line)
    except ValueError as err:
        raise InvalidRequest(PARSE_ERROR, f"parse error: {err}") from None
    if not isinstance(request, dict) or request.get("jsonrpc") != "2.0" or not isinstance(request.get("method"), str):
        raise InvalidRequest(INVALID_REQUEST, "invalid request: need jsonrpc '2.0' and a string method")
    if "id" in request and not valid_id(request["id"]):  # §4: a String, a Number without fractional part, or Null
        raise InvalidRequest(INVALID_REQUEST, "invalid request: id must be a string, an integer or null")
    return request


def decode(line: bytes) -> Any:
    """One JSON value; integers of any size stay integers (orjson alone turns those past 64 bits into floats)."""
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        value = _slow_decode(line)  # valid JSON orjson refuses, e.g. 1e400; else a parse error
    else:
        if isinstance(value, dict) and isinstance(value.get("id"), float):
            value = _slow_decode(line)  # was the id a float, or an integer orjson could not hold?
    return value


def _slow_decode(line: bytes) -> Any:
    try:
        return json.loads(line, parse_constant=_not_json)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    except UnicodeDecodeError as err:
        raise ValueError(f"not UTF-8 ({err.reason})") from None


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def valid_id(value: Any) -> bool:
    return value is None or isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def encode(reply: JSONObject) -> bytes:
    """The response line; an id past 64 bits goes back exactly as it came."""
    try:
        return orjson.dumps(reply)
    except TypeError:  # "Integer exceeds 64-bit range"
        return json.dumps(reply, separators=(",", ":"), ensure_ascii=False).encode()


CAPABILITIES = ("moves",)  # protocol.md §9: what ``ruleproof serve`` offers whatever engine it serves


def call(engine: Engine, method: str, params: JSONObject, capabilities: Sequence[str] = ()) -> JSONObject:
    """Dispatch one method of protocol.md §2 to the in-process engine (and §9's ``capabilities``)."""
    if method == "hello":
        return declared(engine.hello(), capabilities)
    listed = "moves" in capabilities and params.get("moves") is True
    if method == "new_game":
        game, players, dealer = param(params, "game", str), param(params, "players", int), param(params, "dealer", int)
        options = params.get("options", {})
        return listing(engine, listed, {"state": engine.new_game(game, players, dealer, options)})
    if method == "legal_moves":
        return {"moves": engine.legal_moves()}
    if method == "apply":
        return listing(engine, listed, {"state": engine.apply(param(params, "move", dict))})
    if method == "state":
        return {"state": engine.state()}
    if method == "bye":
        return {}
    raise UnknownMethod(f"unknown method {method!r}")


def declared(hello: JSONObject, capabilities: Sequence[str]) -> JSONObject:
    """``hello``'s answer with ``capabilities`` added to what the engine declares itself."""
    if not capabilities:
        return hello
    return {**hello, "capabilities": sorted({*hello.get("capabilities", ()), *capabilities})}


def listing(engine: Engine, listed: bool, result: JSONObject) -> JSONObject:
    """The ``moves`` capability: when ``listed`` (asked with ``"moves": true``), the result carries the new
    state's legal moves too.

    When ``legal_moves`` fails here they are left out: the kit then asks ``legal_moves`` itself and
    hears the error as its answer, as from an engine without the capability.
    """
    if listed:
        with contextlib.suppress(Exception):  # an EngineError or a crash: answered to the kit's legal_moves instead
            result["moves"] = engine.legal_moves()
    return result


def param(params: JSONObject, name: str, kind: type[T]) -> T:
    """A required param of the right JSON type, else bad_request."""
    value = params.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise BadRequest(f"params.{name}: {'missing' if value is None else f'{value!r} has the wrong JSON type'}")
    return value


class UnknownMethod(EngineError):
    kind = "unsupported"
    code = UNKNOWN_METHOD


def error(code: int, message: str, kind: str) -> JSONObject:
    return {"error": {"code": code, "message": message, "data": {"kind": kind}}}
