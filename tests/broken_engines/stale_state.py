"""Broken: apply accepts the move but answers the state from before it."""

import sys

import orjson
from _wire import run


def fault(ctx, method, n, answer):
    reply = orjson.loads(answer)
    if method == "apply" and "result" in reply:
        reply["result"]["state"] = ctx.before
        return orjson.dumps(reply) + b"\n"
    return answer


sys.exit(run(fault))
