"""Broken: the engine starts a helper process that outlives it (``spawns.py MODE``).

``holds``: at the 5th apply the engine starts a child that inherits its stdout
and sleeps, then exits itself: the kit must say ``exited`` (not ``timeout``)
and end the child.  ``detached``: at start the engine starts a child in a new
session with its stdio closed, and serves normally; ``daemon``: the same child
double-forked, so its parent is gone.  Every helper's pid goes to the pidfile,
so the test can check that nothing is left once the kit has exited.
"""

import os
import subprocess
import sys

from _wire import run

MODE = sys.argv[1]
SLEEPER = [sys.executable, "-c", "import time; time.sleep(3600)"]


def note(pid):
    if os.environ.get("BROKEN_ENGINE_PIDFILE"):
        with open(os.environ["BROKEN_ENGINE_PIDFILE"], "a") as f:
            f.write(f"{pid}\n")


def detached():
    return subprocess.Popen(
        SLEEPER, start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    ).pid


if MODE == "detached":
    note(detached())
elif MODE == "daemon":
    middle = os.fork()
    if middle == 0:  # the middle process starts the daemon, reports it and exits at once
        note(detached())
        os._exit(0)
    os.waitpid(middle, 0)


def fault(ctx, method, n, answer):
    if MODE == "holds" and method == "apply" and n == 5:
        note(subprocess.Popen(SLEEPER).pid)  # inherits stdout and stderr
        os._exit(5)
    return answer


sys.exit(run(fault))
