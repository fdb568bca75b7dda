"""The loop shared by the broken engines: the reference server with one fault injected.

Each engine calls ``run(fault)``; ``fault(ctx, method, n, answer)`` sees every
request (``n`` counts calls of that method, from 1) and returns the bytes to
write instead of ``answer`` (one well-formed response line).  It may also
sleep, exit or write to stderr.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

import orjson

from ruleproof.reference import ReferenceEngine
from ruleproof.transport.server import handle


class Context:
    def __init__(self) -> None:
        self.engine = ReferenceEngine()
        self.request: dict[str, Any] = {}
        self.before: Any = None  # the state before this request (for apply)


def run(fault: Callable[[Context, str, int, bytes], bytes]) -> int:
    if os.environ.get("BROKEN_ENGINE_PIDFILE"):  # the tests check this process is gone afterwards
        with open(os.environ["BROKEN_ENGINE_PIDFILE"], "a") as f:
            f.write(f"{os.getpid()}\n")
    ctx, counts = Context(), Counter[str]()
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        ctx.request = orjson.loads(line)
        method = ctx.request["method"]
        counts[method] += 1
        ctx.before = ctx.engine.state() if method == "apply" else None
        request_id, reply, done = handle(ctx.engine, line)
        answer = orjson.dumps({"jsonrpc": "2.0", "id": request_id, **(reply or {})}) + b"\n"
        out.write(fault(ctx, method, counts[method], answer))
        out.flush()
        if done:
            return 0
    return 0
