"""Broken: the 8th apply never answers (sleeps far past the kit's timeout)."""

import sys
import time

from _wire import run


def fault(ctx, method, n, answer):
    if method == "apply" and n == 8:
        sys.stderr.write("engine: waiting for a lock...\n")
        sys.stderr.flush()
        time.sleep(120)
    return answer


sys.exit(run(fault))
