"""``ruleproof serve``: the reference engines on stdio, JSON-RPC ids as the specification has them."""

from __future__ import annotations

import io
import json

import orjson

# -- serve: JSON-RPC ids -------------------------------------------------------------------------------


def test_serve_ids() -> None:
    from ruleproof.transport.server import serve

    big = 123456789012345678901234567890
    lines = [
        b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": [1], "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": true, "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": 1.5, "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": 2.0, "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": 18446744073709551616, "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": -9223372036854775809, "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": "abc", "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": %d, "method": "bye"}' % big,
    ]
    out = io.BytesIO()
    assert serve(["moon"], stdin=io.BytesIO(b"\n".join(lines) + b"\n"), stdout=out) == 0
    replies = [json.loads(x) for x in out.getvalue().splitlines()]  # the stdlib keeps big integers exact
    assert [r.get("error", {}).get("code") for r in replies[:5]] == [-32600] * 5
    assert all(r["id"] is None for r in replies[:5])
    assert [r["id"] for r in replies[5:]] == [2**64, -(2**63) - 1, "abc", big]
    assert all("result" in r for r in replies[5:])
    assert orjson.loads(out.getvalue().splitlines()[7])["id"] == "abc"


# -- serve: the moves capability, and --no-moves -----------------------------------------------------------


def _served(capabilities: tuple[str, ...] | None) -> list[dict[str, object]]:
    from ruleproof.transport.server import serve

    lines = [
        b'{"jsonrpc": "2.0", "id": 1, "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": 2, "method": "new_game", "params": {"game": "moon", "players": 3, "dealer": 0,'
        b' "options": {}, "moves": true}}',
        b'{"jsonrpc": "2.0", "id": 3, "method": "bye"}',
    ]
    out = io.BytesIO()
    assert serve(["moon"], stdin=io.BytesIO(b"\n".join(lines) + b"\n"), stdout=out, capabilities=capabilities) == 0
    return [orjson.loads(x)["result"] for x in out.getvalue().splitlines()]


def test_serve_declares_moves_and_without_them_answers_a_state_alone() -> None:
    hello, started, _ = _served(None)
    assert "moves" in hello["capabilities"]  # type: ignore[operator]
    assert set(started) == {"state", "moves"}
    hello, started, _ = _served(())
    assert "moves" not in hello.get("capabilities", [])  # type: ignore[attr-defined]
    assert set(started) == {"state"}, "asked for moves it did not declare: the state alone, as §2 answers"


def test_serve_no_moves_makes_a_pipe_engine_ask_legal_moves_itself() -> None:
    """``ruleproof serve --no-moves``: the kit calls legal_moves after new_game, as for an engine without ``moves``."""
    import sys

    from ruleproof.transport.checked import CheckedEngine
    from ruleproof.transport.subprocess import SubprocessEngine

    calls = {}
    for flags in ((), ("--no-moves",)):
        with SubprocessEngine([sys.executable, "-m", "ruleproof.cli", "serve", "--game", "moon", *flags]) as inner:
            engine = CheckedEngine(inner)
            engine.hello()
            engine.new_game("moon", 3, 0, {})
            assert engine.legal_moves() == []  # phase deal: nobody acts
            calls[flags] = engine.calls
    assert calls == {(): 2, ("--no-moves",): 3}
