"""Ending an engine and everything it started.

Engines are started in a session of their own (``start_new_session``), so the
engine, its children and their children share a session and a process group
whose ids are the engine's pid.  Ending an engine ends all of them: the
members of its session (found in ``/proc``, which also finds children that
moved to a process group of their own), the descendants of the engine still
linked to it (which finds a grandchild that started a session of its own
while the engine lives), and the process group (the portable fallback where
there is no ``/proc``).  SIGTERM first, SIGKILL for what is left after
``grace`` seconds.

A daemon that double-forks and starts a session of its own escapes all three
once its parent has exited.  The CLI therefore makes the kit a child
subreaper (``become_subreaper``, Linux): such orphans become the kit's own
children, and ending an engine also ends every child of the kit that is not
a running engine.  The pytest plugin does not, since a test session has
children of its own.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

PROC = Path("/proc")
PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>

_subreaper = False
_running: set[int] = set()  # pids of engines started and not yet ended


def become_subreaper() -> bool:
    """Make orphaned descendants of this process its children (Linux); True if it worked."""
    global _subreaper  # noqa: PLW0603 - one process-wide switch, set once by the CLI before any engine starts
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        _subreaper = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        _subreaper = False
    return _subreaper


def started(pid: int) -> None:
    """Note a running engine, so ending another engine never ends it."""
    _running.add(pid)


def family(pid: int) -> set[int]:
    """The processes to end with the engine ``pid``: its session and its descendants (Linux ``/proc``)."""
    table = _process_table()
    found = {p for p, (_, sid) in table.items() if sid == pid}
    if _subreaper:  # orphans that re-parented to the kit: ours to end, unless they are another engine
        found |= {p for p, (ppid, _) in table.items() if ppid == os.getpid() and p not in _running - {pid}}
    children: dict[int, list[int]] = {}
    for p, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(p)
    todo = [pid, *found]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    found.discard(os.getpid())  # never the kit itself
    return found


def end(proc: subprocess.Popen[bytes], grace: float) -> None:
    """Wait up to ``grace`` seconds for the engine to exit, then end its whole family; never leave a zombie."""
    if grace > 0 and proc.poll() is None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=grace)
    members = family(proc.pid)  # before the engine dies: its children are still linked to it
    _running.discard(proc.pid)
    if proc.poll() is None or members:
        _signal_all(proc, members, signal.SIGTERM)
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline and (proc.poll() is None or _alive(members)):
            time.sleep(0.02)
        _signal_all(proc, members | family(proc.pid), signal.SIGKILL)
        _reap_orphans(members - {proc.pid})
    with contextlib.suppress(subprocess.TimeoutExpired):  # only a process SIGKILL cannot end (in the kernel)
        proc.wait(timeout=5.0)


def _signal_all(proc: subprocess.Popen[bytes], members: set[int], sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)  # the engine's process group: its pid, as it leads its own session
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(sig)
    for pid in members:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def _reap_orphans(pids: set[int]) -> None:
    """Collect the exit status of ended helpers that re-parented to the kit (a subreaper): no zombies left."""
    me = os.getpid()
    deadline = time.monotonic() + 1.0
    pending = {p for p in pids if (_stat(p) or ("", -1, -1))[1] == me}
    while pending and time.monotonic() < deadline:
        for pid in list(pending):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = pid
            if done:
                pending.discard(pid)
        if pending:
            time.sleep(0.01)


def _alive(pids: set[int]) -> set[int]:
    out = set()
    for pid in pids:
        state = _stat(pid)
        if state is not None and state[0] != "Z":  # a zombie is already ended; its parent reaps it
            out.add(pid)
    return out


def _process_table() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, session id) for every process we can see; empty without /proc."""
    table = {}
    try:
        entries = list(PROC.iterdir())
    except OSError:
        return {}
    for entry in entries:
        if entry.name.isdigit():
            state = _stat(int(entry.name))
            if state is not None and state[0] != "Z":
                table[int(entry.name)] = (state[1], state[2])
    return table


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, ppid, session) from /proc/PID/stat, or None if gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # the command name is in parentheses and may hold spaces or parentheses: split after the last ')'
    fields = text[text.rfind(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[3])
