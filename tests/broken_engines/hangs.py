"""Broken: the 8th apply never answers (sleeps far past the kit's timeout).

With ``BROKEN_ENGINE_READY`` set, it creates that file once it hangs: the tests' signal that the kit
is now waiting in the call (instead of a fixed sleep).
"""

import os
import sys
import time

from _wire import run


def fault(ctx, method, n, answer):
    if method == "apply" and n == 8:
        sys.stderr.write("engine: waiting for a lock...\n")
        sys.stderr.flush()
        if os.environ.get("BROKEN_ENGINE_READY"):
            open(os.environ["BROKEN_ENGINE_READY"], "w").close()
        time.sleep(120)
    return answer


sys.exit(run(fault))
