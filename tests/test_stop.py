"""A stopped run leaves a partial certificate (probe 16): ``--max-time`` and SIGTERM, each waiting
for a signal that the run is under way, never for a fixed time."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.cli_helpers import BROKEN, PY, ROOT, run_cli
from tests.processes import gone, wait_for_file, wait_for_line

# -- probe 16: a stopped run leaves a partial certificate -------------------------------------------


def test_probe16_max_time_writes_a_partial_certificate(tmp_path: Path) -> None:
    cert = tmp_path / "cert.json"
    started = time.monotonic()
    proc = run_cli(
        "certify",
        "--game",
        "black-maria",
        "--game",
        "moon",
        "--profile",
        "thorough",
        "--max-time",
        "2",
        "--json",
        str(cert),
        "--traces",
        str(tmp_path / "traces"),
    )
    assert time.monotonic() - started < 60
    assert proc.returncode == 2, proc.stdout[-2000:] + proc.stderr[-2000:]
    data = json.loads(cert.read_text())
    assert (
        data["interrupted"] is True and data["interrupted_by"] == "--max-time 2s" and data["verdict"] == "interrupted"
    )
    assert data["not_run"] == ["moon"]
    game = data["games"]["black-maria"]
    assert game["interrupted"] is True and game["verdict"] == "interrupted"
    assert "pass" in {c["status"] for c in game["clauses"].values()}  # the verdicts so far are kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cert.json"]  # no temporary file; no trace (nothing failed)


@pytest.mark.parametrize(
    ("engine", "ready"),
    [((), "exploring"), (("--engine-cmd", shlex.join([PY, str(BROKEN / "hangs.py")]), "--timeout", "100"), "")],
    ids=["reference", "hung-engine"],
)
def test_probe16_sigterm_writes_a_partial_certificate(engine: tuple[str, ...], ready: str, tmp_path: Path) -> None:
    cert, pidfile, hung = tmp_path / "cert.json", tmp_path / "pids", tmp_path / "hung"
    command = [PY, "-m", "ruleproof.cli", "certify", "--game", "black-maria", "--profile", "thorough", *engine]
    with (tmp_path / "stdout").open("w") as out:
        proc = subprocess.Popen(
            [*command, "--json", str(cert), "--traces", str(tmp_path / "traces")],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "BROKEN_ENGINE_PIDFILE": str(pidfile), "BROKEN_ENGINE_READY": str(hung)},
        )
        assert proc.stderr is not None
        if ready:  # the reference: its progress says the exploration is under way
            wait_for_line(proc.stderr, ready)
        else:  # the hung engine: it signals once it hangs in its 8th apply, the kit waiting in the call
            wait_for_file(hung)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    assert proc.returncode == 143, (tmp_path / "stdout").read_text()[-2000:]
    data = json.loads(cert.read_text())
    assert data["interrupted"] is True and data["interrupted_by"] == "SIGTERM" and data["verdict"] == "interrupted"
    assert data["games"]["black-maria"]["verdict"] == "interrupted"
    if pidfile.exists():
        assert all(gone(int(p)) for p in pidfile.read_text().split())
