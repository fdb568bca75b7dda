"""Broken: a debug print on stdout (not JSON) before the 5th legal_moves answer."""

import sys

from _wire import run


def fault(ctx, method, n, answer):
    if method == "legal_moves" and n == 5:
        return b"DEBUG computing legal moves...\n" + answer
    return answer


sys.exit(run(fault))
