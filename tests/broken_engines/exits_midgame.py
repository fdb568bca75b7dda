"""Broken: the engine dies (exit status 3) on its 10th apply, mid-game."""

import os
import sys

from _wire import run


def fault(ctx, method, n, answer):
    if method == "apply" and n == 10:
        sys.stderr.write("engine: assertion failed in trick.c:42\n")
        sys.stderr.flush()
        os._exit(3)
    return answer


sys.exit(run(fault))
