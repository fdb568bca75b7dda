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
