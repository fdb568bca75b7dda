"""Broken: logs 1 MiB to stderr on every call (the kit must keep draining it), and exits
with status 1 on its 20th apply; with --forever it keeps working."""

import os
import sys

from _wire import run

FOREVER = "--forever" in sys.argv
CHUNK = b"".join(b"trace: line %d of a very chatty engine log\n" % i for i in range(23000))  # about 1 MiB


def fault(ctx, method, n, answer):
    sys.stderr.buffer.write(CHUNK)
    sys.stderr.buffer.flush()
    if method == "apply" and n == 20 and not FOREVER:
        sys.stderr.buffer.write(b"fatal: log disk full\n")
        sys.stderr.buffer.flush()
        os._exit(1)
    return answer


sys.exit(run(fault))
