"""Process helpers shared by the transport and CLI tests."""

from __future__ import annotations

import os
from pathlib import Path


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
