"""Progress while a certification runs, on stderr: a live line on a terminal, plain lines in a CI log.

Both are handlers of the run's events.  ``LiveProgress`` draws one line per game (stage, examples done
out of the budget, clauses failing so far, engine calls per second) and rewrites it in place;
``LogProgress`` writes a plain line whenever the stage changes and, while a stage runs, every
``every`` seconds at most (a ticker thread keeps a line coming every ``every`` seconds even while one
engine call or one minimization takes long), so a CI log never goes quiet for long.  The seconds
here only pace what is shown: nothing a verdict depends on is timed.
"""

from __future__ import annotations

import threading
import time
from typing import IO

from attrs import define
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn

from ruleproof.run.events import (
    ClauseFailed,
    Estimated,
    Event,
    Explored,
    GameFinished,
    GameStarted,
    RunFinished,
    StageStarted,
)


@define
class Status:
    """What is known of one game's progress, for a line."""

    game: str
    stage: str = "starting"
    detail: str = ""
    examples: int = 0
    of: int = 0
    steps: int = 0
    calls: int = 0
    failing: int = 0
    rate: float = 0.0  # engine calls per second, over the last report
    at: float = 0.0  # when the calls were counted

    def update(self, event: Explored, now: float) -> None:
        if self.at and now > self.at and event.calls >= self.calls:
            self.rate = (event.calls - self.calls) / (now - self.at)
        self.examples, self.of, self.steps = event.examples, event.of, event.steps
        self.calls, self.failing, self.at = event.calls, event.failing, now

    def line(self) -> str:
        parts = [self.stage + (f" {self.detail}" if self.detail and self.stage == "fixtures" else "")]
        if self.of:
            # Hypothesis runs more than the examples it counts (a setup refused: rejected), never shown
            # as more done than planned
            done = f"{min(self.examples, self.of)}/{self.of} examples"
            if self.examples > self.of:
                done += f" (+{self.examples - self.of} rejected)"
            parts.append(f"{done}, {self.steps:,} steps")
        parts.append(f"{self.failing} clause{'s' if self.failing != 1 else ''} failing")
        if self.rate:
            parts.append(f"{self.rate:,.0f} calls/s")
        return ", ".join(parts)


def estimate_line(event: Estimated) -> str:
    """``black-maria: 41 µs an engine call; exploring takes about 1m 20s (at most 2m 0s with minimizing)``."""
    return (
        f"{event.game}: {event.seconds_per_call * 1e6:,.0f} µs an engine call (smoke and fixtures); "
        f"exploring {event.calls:,} calls takes about {_duration(event.seconds)} "
        f"(at most {_duration(event.at_most)} if clauses fail and are minimized)"
    )


def _duration(seconds: float) -> str:
    whole = round(seconds)
    if whole < 60:
        return f"{whole}s"
    hours, rest = divmod(whole, 3600)
    return (f"{hours}h " if hours else "") + f"{rest // 60}m {rest % 60:02d}s"


class LiveProgress:
    """A spinner line per game on a terminal, rewritten as the run goes."""

    def __init__(self, console: Console) -> None:
        columns = (
            SpinnerColumn(),
            TextColumn("[bold]{task.fields[game]}[/]"),
            TextColumn("{task.description}"),
            TimeElapsedColumn(),
        )
        self.progress = Progress(*columns, console=console, transient=False)
        self.tasks: dict[str, tuple[TaskID, Status]] = {}

    def handle(self, event: Event) -> None:
        if isinstance(event, GameStarted):
            if not self.tasks:
                self.progress.start()
            status = Status(event.game, of=event.examples)
            self.tasks[event.game] = (self.progress.add_task(status.line(), game=event.game), status)
        elif isinstance(event, RunFinished):
            self.progress.stop()
        elif isinstance(event, Estimated):
            self.progress.console.print(escape(estimate_line(event)), highlight=False)
        elif isinstance(event, GameFinished):
            task, _ = self.tasks[event.report.game]
            verdict = event.report.verdict
            self.progress.update(task, description=f"{verdict} in {event.report.seconds:.1f}s")
        elif (found := _status(self.tasks, event)) is not None:
            task, status = found
            _apply(status, event, time.monotonic())
            self.progress.update(task, description=escape(status.line()))


class LogProgress:
    """Plain progress lines for a log: one per stage, and one at least every ``every`` seconds."""

    def __init__(self, stream: IO[str], every: float = 5.0) -> None:
        self.stream, self.every = stream, every
        self.started = time.monotonic()
        self.status: Status | None = None
        self.last = 0.0  # when a line was last written
        self.lock = threading.Lock()
        self.ticker: threading.Thread | None = None
        self.done = threading.Event()

    def handle(self, event: Event) -> None:
        now = time.monotonic()
        if isinstance(event, GameStarted):
            self.status = Status(event.game, of=event.examples)
            self._write(f"{event.game}: started ({event.examples} examples of {event.steps} steps)", now)
            self._tick()
        elif isinstance(event, GameFinished):
            r = event.report
            self._write(f"{r.game}: {r.verdict} in {r.seconds:.1f}s ({r.stats.get('calls', 0):,} engine calls)", now)
            self.status = None
        elif isinstance(event, RunFinished):
            self.done.set()
        elif isinstance(event, Estimated):
            self._write(estimate_line(event), now)
        elif self.status is not None and self.status.game == getattr(event, "game", None):
            changed = isinstance(event, StageStarted) and event.stage != self.status.stage
            _apply(self.status, event, now)
            if changed or isinstance(event, ClauseFailed) or now - self.last >= self.every:
                self._write(f"{self.status.game}: {self.status.line()}", now)

    def _write(self, text: str, now: float) -> None:
        with self.lock:
            self.stream.write(f"[{now - self.started:7.1f}s] {text}\n")
            self.stream.flush()
            self.last = now

    def _tick(self) -> None:
        """Keep a line coming while nothing else is said (a slow engine, a long minimization)."""
        if self.ticker is not None:
            return

        def run() -> None:
            while not self.done.wait(self.every):
                now, status = time.monotonic(), self.status
                if status is not None and now - self.last >= self.every:
                    self._write(f"{status.game}: {status.line()} (still running)", now)

        self.ticker = threading.Thread(target=run, name="ruleproof progress", daemon=True)
        self.ticker.start()


def _status(tasks: dict[str, tuple[TaskID, Status]], event: Event) -> tuple[TaskID, Status] | None:
    game = getattr(event, "game", None)
    return tasks.get(game) if isinstance(game, str) else None


def _apply(status: Status, event: Event, now: float) -> None:
    if isinstance(event, StageStarted):
        status.stage, status.detail = event.stage, event.detail
    elif isinstance(event, Explored):
        status.update(event, now)
    elif isinstance(event, ClauseFailed):
        status.failing += 1
