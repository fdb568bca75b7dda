"""Process helpers shared by the transport and CLI tests."""

from __future__ import annotations

import os
import queue
import threading
import time
from pathlib import Path
from typing import IO


def gone(pid: int) -> bool:
    """Ended: no such process, or a zombie (killed; only its parent's wait is missing)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False
    return stat[stat.rfind(")") + 2] in "ZX"


def wait_for_file(path: Path, limit: float = 60.0) -> None:
    """Until ``path`` exists: the signal a broken engine gives once it is where the test needs it."""
    deadline = time.monotonic() + limit
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


def wait_for_line(stream: IO[str], text: str, limit: float = 60.0) -> list[str]:
    """Read ``stream`` until a line holds ``text`` (the run's progress says it is under way); the lines
    read.  A reader thread, so a run that never says it fails the test instead of hanging it."""
    seen: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [seen.put(line) for line in stream], daemon=True).start()
    lines: list[str] = []
    deadline = time.monotonic() + limit
    while not lines or text not in lines[-1]:
        try:
            lines.append(seen.get(timeout=max(0.0, deadline - time.monotonic())))
        except queue.Empty:
            raise AssertionError(f"no line with {text!r} within {limit}s: {lines[-5:]}") from None
    return lines
