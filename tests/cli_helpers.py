"""What the command-line tests share: running ``ruleproof`` in process or as a command, and the
check that an error is one clear line (issue 12: every bad input gets one line naming it, exit 2,
no traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ruleproof.cli import main

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken_engines"
PY = sys.executable
INPROC = "tests.broken_engines.inprocess"


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def one_line_error(err: str, *words: str) -> None:
    """Exactly one non-empty line on stderr, no traceback, holding ``words``."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert "Traceback" not in err, err
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0], (word, lines[0])


def usage(capsys: pytest.CaptureFixture[str], *args: str, words: tuple[str, ...]) -> None:
    status, _, err = run_main(capsys, *args)
    assert status == 2, err
    one_line_error(err, *words)


def run_cli(
    *args: str, cwd: Path = ROOT, env: dict[str, str] | None = None, limit: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "-m", "ruleproof.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=limit,
        env={**os.environ, "COLUMNS": "200", **(env or {})},
        check=False,
    )
