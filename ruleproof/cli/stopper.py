"""What stops a certification early: SIGTERM, a first Ctrl-C (a second stops at once), ``--max-time``.

The ``event`` is handed to the run and to the engine's transport: a call still running once it is
set is abandoned after a short grace (``interrupted``), the run keeps the verdicts so far, and every
output is written, marked interrupted.
"""

from __future__ import annotations

import signal
import threading
from typing import Any

from ruleproof.run.certification import StopRequest


class Stopper:
    """The ``stop`` event handed to the runner, set by SIGTERM, a first Ctrl-C, or ``--max-time``."""

    def __init__(self, max_time: float | None) -> None:
        self.event = StopRequest()
        self.reason: str | None = None
        self.signal: str | None = None
        self._timer = threading.Timer(max_time, self._expire, args=(max_time,)) if max_time else None
        self._saved: dict[int, Any] = {}

    def __enter__(self) -> Stopper:
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGINT):
                self._saved[sig] = signal.signal(sig, self._on_signal)
        if self._timer is not None:
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._timer is not None:
            self._timer.cancel()
        for sig, handler in self._saved.items():
            signal.signal(sig, handler)

    def _expire(self, seconds: float) -> None:
        self._set(f"--max-time {seconds:g}s")

    def _on_signal(self, signum: int, frame: Any) -> None:
        name = signal.Signals(signum).name
        if self.event.is_set() and name == "SIGINT":
            raise KeyboardInterrupt  # a second Ctrl-C: stop now, without a certificate
        self.signal = self.signal or name
        self._set(name)

    def _set(self, reason: str) -> None:
        if not self.event.is_set():
            self.reason = reason
            self.event.stop(reason)
