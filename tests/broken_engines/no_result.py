"""Broken: the 3rd legal_moves answer has neither result nor error."""

import sys

import orjson
from _wire import run


def fault(ctx, method, n, answer):
    if method == "legal_moves" and n == 3:
        reply = orjson.loads(answer)
        reply.pop("result", None)
        return orjson.dumps(reply) + b"\n"
    return answer


sys.exit(run(fault))
