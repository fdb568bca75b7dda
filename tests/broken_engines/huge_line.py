"""Broken: the 2nd state answer carries a 6 MiB debug field (over the kit's 4 MiB line cap)."""

import sys

from _wire import run


def fault(ctx, method, n, answer):
    if method == "state" and n == 2:
        return answer[:-3] + b',"debug":"' + b"x" * (6 << 20) + b'"}}\n'
    return answer


sys.exit(run(fault))
