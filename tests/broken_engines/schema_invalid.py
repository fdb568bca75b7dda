"""Broken: from the 3rd apply on, the state has no zones (schema-invalid)."""

import sys

import orjson
from _wire import run


def fault(ctx, method, n, answer):
    reply = orjson.loads(answer)
    if method == "apply" and n >= 3 and "result" in reply:
        del reply["result"]["state"]["zones"]
        return orjson.dumps(reply) + b"\n"
    return answer


sys.exit(run(fault))
