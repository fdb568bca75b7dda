"""Broken late: the reference, until its Nth call overall (``late.py KIND N``) goes wrong as KIND.

KIND is ``hang`` (never answers), ``wrong_id``, ``huge_line`` (a 100 MB line),
``exit`` (dies) or ``not_json``.  Deep in a run, each must still be reported as
what it is, never as a nondeterministic engine.
"""

import itertools
import os
import sys
import time

import orjson
from _wire import run

KIND, AFTER = sys.argv[1], int(sys.argv[2])
CALLS = itertools.count(1)  # every call, whatever its method


def fault(ctx, method, n, answer):
    if next(CALLS) < AFTER:
        return answer
    if KIND == "hang":
        time.sleep(3600)
    if KIND == "wrong_id":
        reply = orjson.loads(answer)
        reply["id"] = reply["id"] + 1000
        return orjson.dumps(reply) + b"\n"
    if KIND == "huge_line":
        sys.stdout.buffer.write(b'{"jsonrpc": "2.0", "debug": "' + b"x" * (100 << 20))
        sys.stdout.buffer.flush()
        time.sleep(3600)
    if KIND == "exit":
        os._exit(4)
    if KIND == "not_json":
        return b"Segmentation fault (core dumped)\n"
    raise SystemExit(f"late.py: unknown KIND {KIND!r}")


sys.exit(run(fault))
