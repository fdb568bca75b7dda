"""Broken: answers the 3rd apply twice."""

import sys

from _wire import run


def fault(ctx, method, n, answer):
    return answer * 2 if method == "apply" and n == 3 else answer


sys.exit(run(fault))
