"""Engines behind a pipe: the subprocess transport, the stdio server, broken engines.

Every deliberately broken engine in ``tests/broken_engines/`` must be reported
as a broken adapter (exit status 2) naming the kind, quickly, and leave no
process behind; the reference served over stdio must certify.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from ruleproof import GAMES
from ruleproof.model.engine import AdapterBroken, BadRequest, IllegalMove
from ruleproof.run.runner import PROFILES, certify_game
from ruleproof.transport import subprocess as subprocess_transport
from ruleproof.transport.checked import CheckedEngine
from ruleproof.transport.server import serve
from ruleproof.transport.subprocess import SubprocessEngine
from tests import cli_helpers
from tests.processes import gone, wait_for_file

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken_engines"
PY = sys.executable


def serve_cmd(*games: str) -> list[str]:
    return [PY, "-m", "ruleproof.cli", "serve", *[a for g in games for a in ("--game", g)]]


def broken_cmd(name: str, *args: str) -> list[str]:
    return [PY, str(BROKEN / f"{name}.py"), *args]


def run_cli(
    *args: str, cwd: Path = ROOT, env: dict[str, str] | None = None, limit: float = 30
) -> tuple[subprocess.CompletedProcess[str], float]:
    """The command as a process, and how long it took (a hang must be cut short, not waited out)."""
    started = time.monotonic()
    proc = cli_helpers.run_cli(*args, cwd=cwd, env=env, limit=limit)
    return proc, time.monotonic() - started


# -- broken engines through the CLI ------------------------------------------------------------

CASES = [
    # (engine, kind, words in the message)
    ("exits_midgame", "exited", "exited with status 3"),
    ("not_json", "not_json", "is not JSON"),
    ("wrong_id", "wrong_id", "has id"),
    ("answers_twice", "extra_output", "more than one line"),
    ("huge_line", "too_long", "exceeds 4194304 bytes"),
    ("floods_stderr", "exited", "exited with status 1"),
    ("hangs", "timeout", "no answer to apply within 1.0s"),
    ("schema_invalid", "schema", '"zones" is a required property'),
    ("stale_state", "stale_state", "returned the state from before it"),
    ("no_result", "bad_response", "exactly one of result and error"),
]


@pytest.mark.parametrize("name,kind,words", CASES, ids=[c[0] for c in CASES])
def test_broken_engine_is_reported(name: str, kind: str, words: str, tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    cmd = shlex.join(broken_cmd(name))
    proc, seconds = run_cli(
        "certify",
        "--engine-cmd",
        cmd,
        "--game",
        "black-maria",
        "--timeout",
        "1",
        "--profile",
        "dev",
        "--traces",
        str(tmp_path / "traces"),
        env={"BROKEN_ENGINE_PIDFILE": str(pidfile)},
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 2, out[-3000:]
    assert f"ADAPTER BROKEN (black-maria, {kind})" in out, out[-3000:]
    assert words in out, out[-3000:]
    assert seconds < 15
    pids = [int(p) for p in pidfile.read_text().split()]
    assert pids and all(gone(p) for p in pids)


def test_engine_that_cannot_start() -> None:
    proc, _ = run_cli("certify", "--engine-cmd", "no-such-engine-ruleproof --x", "--game", "black-maria")
    assert proc.returncode == 2
    assert "ADAPTER BROKEN (start, exited)" in proc.stdout + proc.stderr


# -- the transport in process --------------------------------------------------------------------


def test_timeout_kills_and_reaps_and_stays_broken() -> None:
    engine = SubprocessEngine(broken_cmd("hangs"), timeout=0.5)
    checked = CheckedEngine(engine)
    checked.hello()
    checked.new_game("black-maria", 4, 0, {})
    deal = {"type": "deal", "hands": [["2C", "3C"]]}
    started = time.monotonic()
    with pytest.raises(AdapterBroken) as info:
        for _ in range(8):  # the 8th apply hangs; the first 7 are refused deals
            with contextlib.suppress(IllegalMove):
                checked.apply(deal)
    assert info.value.kind == "timeout" and time.monotonic() - started < 3
    assert "waiting for a lock" in info.value.stderr
    assert engine.proc.returncode is not None  # killed and reaped
    with pytest.raises(AdapterBroken) as again:
        checked.state()
    assert again.value.kind == "timeout"
    engine.close()


def test_stderr_flood_never_blocks() -> None:
    with SubprocessEngine(broken_cmd("floods_stderr", "--forever"), timeout=5) as engine:
        engine.hello()
        engine.new_game("black-maria", 4, 0, {})
        for _ in range(10):  # 1 MiB of log per call, far beyond a pipe's buffer
            engine.state()
        tail = engine.stderr_tail()
        assert "chatty engine log" in tail and len(tail) <= 2 * 64 * 1024
    assert engine.proc.returncode == 0  # said bye and exited by itself


def test_close_sends_bye_and_context_manager_reaps() -> None:
    with SubprocessEngine(serve_cmd("black-maria")) as engine:
        assert "black-maria" in engine.hello()["games"]
        with pytest.raises(BadRequest):
            engine.state()  # before new_game
    assert engine.proc.returncode == 0 and gone(engine.pid)


def test_unsolicited_line_between_calls() -> None:
    script = (
        "import sys\nfor line in sys.stdin:\n"
        '    print(\'{"jsonrpc":"2.0","id":1,"result":{}}\', flush=True)\n'
        "    print('late', flush=True)\n"
    )
    with SubprocessEngine([PY, "-c", script], timeout=2) as engine:
        try:
            engine.hello()  # both lines may arrive together (extra_output now) or apart (next call)
            time.sleep(0.2)
            engine.state()
        except AdapterBroken as broken:
            assert broken.kind == "extra_output"
        else:
            pytest.fail("the unsolicited line went unnoticed")


@pytest.mark.parametrize("spins", [0, subprocess_transport.SPINS])
def test_answers_read_spinning_or_asleep_are_the_same(spins: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # SPINS = 0 waits for every answer in select; the default reads a fast answer while spinning and a
    # slow one (past the spin: 50 ms) in select, split across two writes
    monkeypatch.setattr(subprocess_transport, "SPINS", spins)
    script = (
        "import sys, time\nfor n, line in enumerate(sys.stdin, 1):\n"
        "    if n == 2:\n"
        '        sys.stdout.write(\'{"jsonrpc":"2.0",\'); sys.stdout.flush(); time.sleep(0.05)\n'
        '        print(\'"id":2,"result":{"state":{"slow":true}}}\', flush=True)\n'
        "    else:\n"
        '        print(\'{"jsonrpc":"2.0","id":%d,"result":{"state":{"n":%d}}}\' % (n, n), flush=True)\n'
    )
    with SubprocessEngine([PY, "-c", script], timeout=5) as engine:
        assert [engine.state(), engine.state(), engine.state()] == [{"n": 1}, {"slow": True}, {"n": 3}]


# -- the stdio server ---------------------------------------------------------------------------


def test_server_errors_and_bye() -> None:
    lines = [
        b"not json",
        b"[1, 2]",
        b'{"jsonrpc": "2.0", "id": 1, "method": "nope"}',
        b'{"jsonrpc": "2.0", "id": 2, "method": "new_game", "params": {"game": "black-maria"}}',
        b'{"jsonrpc": "2.0", "id": 3, "method": "new_game",'
        b' "params": {"game": "black-maria", "players": 4, "dealer": 0, "options": {}}}',
        b'{"jsonrpc": "2.0", "id": 4, "method": "apply", "params": {"move": {"type": "play", "card": "2C"}}}',
        b'{"jsonrpc": "2.0", "id": 5, "method": "bye"}',
        b'{"jsonrpc": "2.0", "id": 6, "method": "hello"}',
    ]
    out = io.BytesIO()
    assert serve(["black-maria"], stdin=io.BytesIO(b"\n".join(lines) + b"\n"), stdout=out) == 0
    replies = [orjson.loads(x) for x in out.getvalue().splitlines()]
    assert len(replies) == 7  # nothing after bye
    codes = [(r.get("error") or {}).get("code") for r in replies]
    kinds = [(r.get("error") or {}).get("data", {}).get("kind") for r in replies]
    assert codes == [-32700, -32600, -32601, -32602, None, -32001, None]
    assert kinds == ["bad_request", "bad_request", "unsupported", "bad_request", None, "illegal_move", None]
    assert replies[6] == {"jsonrpc": "2.0", "id": 5, "result": {}}
    assert serve(None, stdin=io.BytesIO(b""), stdout=io.BytesIO()) == 0  # EOF


# -- the reference over the pipe: certify, replay, pytest plugin ---------------------------------


def _games() -> list[str]:
    from ruleproof.properties import available_games
    from ruleproof.reference import RULES, all_rules

    have = {r.game for r in all_rules()}
    return [g for g in GAMES if g in RULES and g in have and g in available_games()]


@pytest.mark.parametrize("game", GAMES)
def test_reference_certifies_over_the_pipe(game: str) -> None:
    if game not in _games():
        pytest.skip(f"{game}: reference or properties not written yet")
    with SubprocessEngine(serve_cmd(game), timeout=10) as engine:
        report = certify_game(CheckedEngine(engine), game, PROFILES["dev"])
    assert report.broken is None, report.broken and report.broken.to_json()
    assert report.verdict == "pass", [f.finding.to_json() for f in report.failures]


def test_replay_with_engine_cmd(tmp_path: Path) -> None:
    deal = {"type": "deal", "hands": [["2C", "3C", "4C"], [], [], []]}  # a wrong deal: must be rejected
    trace = {
        "ruleproof_trace": 1,
        "game": "black-maria",
        "violation": {"clause": "BM-DEAL-1", "message": "accepted a short deal"},
        "steps": [
            {"new_game": {"game": "black-maria", "players": 4, "dealer": 0, "options": {}}},
            {"reject": deal, "clause": "BM-DEAL-1"},
        ],
    }
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(trace))
    proc, _ = run_cli("replay", str(path), "--engine-cmd", shlex.join(serve_cmd("black-maria")))
    assert proc.returncode == 0 and "FIXED" in proc.stdout, proc.stdout + proc.stderr
    proc, _ = run_cli(
        "replay", str(path), "--engine-cmd", shlex.join(broken_cmd("exits_midgame")) + " --x", "--timeout", "1"
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr  # broken only on its 10th apply: not reached


def test_pytest_plugin_with_engine_cmd(tmp_path: Path) -> None:
    cmd = shlex.join(serve_cmd("black-maria"))
    proc = subprocess.run(
        [
            PY,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--ruleproof-engine-cmd",
            cmd,
            "--ruleproof-game",
            "black-maria",
            "--ruleproof-profile",
            "dev",
            "--ruleproof-traces",
            str(tmp_path / "traces"),
            "--rootdir",
            str(tmp_path),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_interrupted_kit_reaps_the_engine(sig: str, tmp_path: Path) -> None:
    import signal

    pidfile, hung = tmp_path / "pids", tmp_path / "hung"
    proc = subprocess.Popen(
        [
            PY,
            "-m",
            "ruleproof.cli",
            "certify",
            "--engine-cmd",
            shlex.join(broken_cmd("hangs")),
            "--game",
            "black-maria",
            "--timeout",
            "100",
            "--profile",
            "dev",
            "--traces",
            str(tmp_path / "traces"),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "BROKEN_ENGINE_PIDFILE": str(pidfile), "BROKEN_ENGINE_READY": str(hung)},
    )
    wait_for_file(hung)  # the engine now hangs in its 8th apply; the kit waits in the call
    started = time.monotonic()
    proc.send_signal(getattr(signal, sig))
    proc.communicate(timeout=20)
    assert proc.returncode == {"SIGINT": 130, "SIGTERM": 143}[sig]  # 128 + the signal, after the partial report
    assert time.monotonic() - started < 10  # the hung call is abandoned soon, not after its 100 s timeout
    assert all(gone(int(p)) for p in pidfile.read_text().split())


def test_engine_runs_in_its_own_session() -> None:
    with SubprocessEngine(serve_cmd("moon")) as engine:
        engine.hello()
        assert os.getsid(engine.pid) == engine.pid and os.getpgid(engine.pid) == engine.pid
        assert os.getsid(engine.pid) != os.getsid(0)


def test_reply_ids_must_be_the_integer_sent() -> None:
    # 1.0 and true compare equal to 1 in Python, but are not the id that was sent
    for bad in ("1.0", "true"):
        answer = f'{{"jsonrpc":"2.0","id":{bad},"result":{{}}}}'
        script = f"import sys\nfor line in sys.stdin:\n    print({answer!r}, flush=True)\n"
        with SubprocessEngine([PY, "-c", script], timeout=5) as engine:
            with pytest.raises(AdapterBroken) as info:
                engine.hello()
            assert info.value.kind == "wrong_id", info.value.message


def test_an_in_process_engine_handing_out_its_own_state_is_broken() -> None:
    from tests.broken_engines.inprocess import HandsOutItsState

    report = certify_game(CheckedEngine(HandsOutItsState()), "black-maria", PROFILES["dev"], seed=1)
    assert report.broken is not None and report.broken.kind == "stale_state"
    assert "same object" in report.broken.message and "new state from every call" in report.broken.message
