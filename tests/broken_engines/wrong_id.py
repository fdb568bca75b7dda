"""Broken: echoes the id of the 2nd state call as a string ("7" instead of 7)."""

import sys

import orjson
from _wire import run


def fault(ctx, method, n, answer):
    if method == "state" and n == 2:
        reply = orjson.loads(answer)
        reply["id"] = str(reply["id"])
        return orjson.dumps(reply) + b"\n"
    return answer


sys.exit(run(fault))
