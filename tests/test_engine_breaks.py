"""An engine that cannot be driven is broken, reported as what happened (probes 5, 6, 15): a wire
that breaks deep in a run, helpers an engine starts, in-process calls that never return."""

from __future__ import annotations

import json
import os
import shlex
import signal
import time
from pathlib import Path

import pytest

from tests.cli_helpers import BROKEN, INPROC, PY, run_cli, run_main
from tests.processes import gone

# -- probe 5: a wire that breaks deep in a run is reported as what it is ----------------------------


@pytest.mark.parametrize(
    "kind,reported",
    [("hang", "timeout"), ("wrong_id", "wrong_id"), ("huge_line", "too_long"), ("not_json", "not_json")],
)
def test_probe5_late_break_is_not_nondeterminism(kind: str, reported: str, tmp_path: Path) -> None:
    cert = tmp_path / "cert.json"
    proc = run_cli(
        "certify",
        "--engine-cmd",
        shlex.join([PY, str(BROKEN / "late.py"), kind, "3000"]),
        "--game",
        "black-maria",
        "--profile",
        "dev",
        "--timeout",
        "2",
        "--json",
        str(cert),
        "--traces",
        str(tmp_path / "traces"),
    )
    assert proc.returncode == 2, proc.stdout[-2000:] + proc.stderr[-2000:]
    game = json.loads(cert.read_text())["games"]["black-maria"]
    assert game["verdict"] == "broken" and game["broken"]["kind"] == reported, game.get("broken")
    assert "nondeterministic" not in proc.stdout + proc.stderr


# -- probe 6: what an engine starts ends with it ----------------------------------------------------


@pytest.mark.parametrize("mode", ["holds", "detached", "daemon"])
def test_probe6_engine_helpers_end_with_the_engine(mode: str, tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    proc = run_cli(
        "certify",
        "--engine-cmd",
        shlex.join([PY, str(BROKEN / "spawns.py"), mode]),
        "--game",
        "black-maria",
        "--profile",
        "dev",
        "--timeout",
        "5",
        "--traces",
        str(tmp_path / "traces"),
        env={"BROKEN_ENGINE_PIDFILE": str(pidfile)},
    )
    out = proc.stdout + proc.stderr
    pids = [int(p) for p in pidfile.read_text().split()]
    try:
        assert len(pids) == 2, pids  # the engine and its helper
        assert all(gone(p) for p in pids), [p for p in pids if not gone(p)]
        if mode == "holds":  # the engine died while its child held the pipe: exited, not a timeout
            assert proc.returncode == 2 and "ADAPTER BROKEN (black-maria, exited)" in out, out[-3000:]
            assert "still holds its stdout" in out
        else:
            assert proc.returncode == 0, out[-3000:]
    finally:
        for p in pids:
            if not gone(p):
                os.kill(p, signal.SIGKILL)


# -- probe 15: an in-process engine that never returns -----------------------------------------------


def test_probe15_in_process_hang_is_broken_timeout(tmp_path: Path) -> None:
    cert = tmp_path / "cert.json"
    started = time.monotonic()
    proc = run_cli(
        "certify",
        "--engine",
        f"{INPROC}:LoopsForever",
        "--game",
        "black-maria",
        "--profile",
        "dev",
        "--timeout",
        "1",
        "--json",
        str(cert),
        "--traces",
        str(tmp_path / "traces"),
        limit=60,
    )
    assert proc.returncode == 2, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert time.monotonic() - started < 30
    broken = json.loads(cert.read_text())["games"]["black-maria"]["broken"]
    assert broken["kind"] == "timeout" and "apply did not return within 1s" in broken["message"]


def test_probe15_a_constructor_that_never_returns(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_main(capsys, "certify", "--engine", f"{INPROC}:HangsInFactory", "--timeout", "0.5")
    assert status == 2 and "ADAPTER BROKEN (start, timeout)" in err and "factory did not return within 0.5s" in err


def test_probe15_an_abandoned_call_stops_taking_the_cpu() -> None:
    import threading

    from ruleproof.model.engine import AdapterBroken, load_factory
    from ruleproof.transport.inprocess import TimedEngine

    with pytest.raises(AdapterBroken) as info:
        TimedEngine("hangs", load_factory(f"{INPROC}:HangsInFactory"), timeout=0.3)
    assert info.value.kind == "timeout"
    deadline = time.monotonic() + 5
    while any(t.name == "engine hangs" for t in threading.enumerate()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(t.name == "engine hangs" for t in threading.enumerate())  # the endless loop was ended
