"""Files the kit writes, each whole or not at all: the certificate, JUnit, HTML, the failure traces.

A file is written to a temporary file in the same folder, then renamed over the target, so a
reader (a CI step, a second run) never sees half a certificate, even when the run is killed.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ruleproof.model.report import GameReport
from ruleproof.run.events import Event, RunFinished

_UMASK = os.umask(0o22)
os.umask(_UMASK)


def certificate_text(data: Any) -> str:
    """The ``--json`` file's text: indented for a person and a diff, but each trace (its moves and states, most
    of the file) on one line of its own, which keeps a failing engine's certificate a third of the size."""
    games = data.get("games") if isinstance(data, dict) else None
    if not isinstance(games, dict):
        return json.dumps(data, indent=1, default=str) + "\n"
    token = f"@@ruleproof-trace-{uuid.uuid4().hex}-"
    compact: dict[str, str] = {}
    shown = dict(data)
    shown["games"] = {}
    for name, game in games.items():
        traces = game.get("traces") if isinstance(game, dict) else None
        if not isinstance(traces, dict):
            shown["games"][name] = game
            continue
        marks = {}
        for key, trace in traces.items():
            marks[key] = mark = f"{token}{len(compact)}"
            compact[json.dumps(mark)] = json.dumps(trace, separators=(",", ":"), default=str)
        shown["games"][name] = {**game, "traces": marks}
    text = json.dumps(shown, indent=1, default=str)
    for mark, trace in compact.items():
        text = text.replace(mark, trace, 1)
    return text + "\n"


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` all or nothing: a temporary file in the same folder, then a rename."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_UMASK)  # mkstemp makes 0600; give the mode a plain open() would
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):  # the write failed already: that error is the one to raise
            os.unlink(tmp)
        raise


def write_traces(reports: Iterable[GameReport], folder: Path, engine: dict[str, Any]) -> list[tuple[str, str]]:
    """Save each failure as a replayable trace file; returns (game:clause, path) pairs."""
    saved: list[tuple[str, str]] = []
    for r in reports:
        for f in r.failures:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{r.game}-{f.finding.clause}.json"
            n = 1
            while str(path) in {p for _, p in saved}:
                n += 1
                path = folder / f"{r.game}-{f.finding.clause}-{n}.json"
            data = {**f.trace.to_json(), "engine": engine, "source": f.source}
            write_atomic(path, json.dumps(data, indent=1) + "\n")
            saved.append((f"{r.game}:{f.finding.clause}", str(path)))
    return saved


class CertificateFile:
    """``--json``: the certificate, written when the run finishes (whatever the verdict)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def handle(self, event: Event) -> None:
        if isinstance(event, RunFinished):
            write_atomic(self.path, certificate_text(event.certificate.to_json()))
