"""Issue 12's probes: every bad input gets one clear line and exit 2, and the same seed gives the same certificate.

Each probe is tried as a new user would: through ``ruleproof`` (in process
with ``main``, or as a command where signals, hangs and processes matter) or
through ``pytest --ruleproof``.  "One line" means: a single line on stderr
naming the argument, file, field or engine, and no traceback.
"""

from __future__ import annotations

import io
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import pytest

from ruleproof.cli import main
from tests.processes import gone

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken_engines"
PY = sys.executable
INPROC = "tests.broken_engines.inprocess"

pytest_plugins = ["pytester"]


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


# -- probe 1: a factory that cannot give an engine ------------------------------------------------


@pytest.mark.parametrize(
    "factory,words",
    [
        ("raises", ("calling the factory raised RuntimeError", "licence file")),
        ("returns_42", ("returned 42, not an engine",)),
        ("returns_none", ("returned None, not an engine",)),
        ("NoClose", ("returned a NoClose without close()",)),
    ],
)
def test_probe1_factory_that_gives_no_engine(
    factory: str, words: tuple[str, ...], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    usage(
        capsys,
        "certify",
        "--engine",
        f"{INPROC}:{factory}",
        "--traces",
        str(tmp_path),
        words=(f"--engine {INPROC}:{factory}", *words),
    )


# -- probe 2: a module that fails at import ---------------------------------------------------------


@pytest.mark.parametrize(
    "source,words",
    [
        ("raise RuntimeError('no config')\n", ("importing", "raised RuntimeError: no config")),
        ("def broken(:\n    pass\n", ("has a syntax error at", ":1")),
        ("import sys\nsys.exit(3)\n", ("raised SystemExit",)),
        ("import no_such_dependency_ruleproof\n", ("no module named 'no_such_dependency_ruleproof'",)),
    ],
    ids=["raises", "syntax-error", "exits", "missing-dependency"],
)
def test_probe2_module_that_fails_at_import(
    source: str,
    words: tuple[str, ...],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    name = f"probe2_{abs(hash(source))}"
    (tmp_path / f"{name}.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    usage(capsys, "certify", "--engine", f"{name}:Engine", words=(f"--engine {name}:Engine", *words))


def test_probe2_missing_attribute_and_not_callable(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    usage(
        capsys, "certify", "--engine", f"{INPROC}:Nope", "--traces", str(tmp_path), words=("has no attribute 'Nope'",)
    )
    usage(
        capsys,
        "certify",
        "--engine",
        f"{INPROC}:os",
        "--traces",
        str(tmp_path),
        words=("is a module, not a class or function",),
    )


# -- probe 3: nothing to judge is not a pass --------------------------------------------------------


def test_probe3_engine_declaring_no_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    usage(
        capsys,
        "certify",
        "--engine",
        f"{INPROC}:NoGames",
        "--traces",
        str(tmp_path),
        words=("declares no game", "hello.games"),
    )


def test_probe3_no_fixtures_and_no_properties(capsys: pytest.CaptureFixture[str]) -> None:
    usage(
        capsys,
        "certify",
        "--no-fixtures",
        "--no-properties",
        words=("--no-fixtures", "--no-properties", "nothing to judge"),
    )


def test_probe3_a_game_with_nothing_judged_does_not_pass() -> None:
    from ruleproof.model.certificate import Certificate
    from ruleproof.model.report import GameReport

    empty = GameReport("moon", clauses={"MOON-BID-1": "untested", "MOON-BID-2": "skipped"})
    assert empty.verdict == "untested"
    cert = Certificate({"name": "x", "version": "1"}, "ci", None, (empty,))
    assert cert.verdict == "untested" and cert.exit_status == 2
    judged = GameReport("moon", clauses={"MOON-BID-1": "pass", "MOON-BID-2": "untested"})
    assert Certificate({"name": "x", "version": "1"}, "ci", None, (judged,)).exit_status == 0


# -- probe 4: --engine-cmd that is no command --------------------------------------------------------


def test_probe4_empty_and_unbalanced_engine_cmd(capsys: pytest.CaptureFixture[str]) -> None:
    usage(capsys, "certify", "--engine-cmd", "", words=("--engine-cmd is empty",))
    usage(capsys, "certify", "--engine-cmd", "   ", words=("--engine-cmd is empty",))
    usage(capsys, "certify", "--engine-cmd", "python3 'abc", words=("--engine-cmd", "no closing quotation"))
    usage(capsys, "replay", str(ROOT / "README.md"), "--engine-cmd", "", words=("trace",))  # the trace is checked first


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


# -- probe 7: a timeout that is no duration ----------------------------------------------------------


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "0", "soon"])
def test_probe7_timeout_must_be_a_positive_finite_number(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    usage(capsys, "certify", f"--timeout={value}", words=("--timeout",))
    usage(capsys, "certify", f"--max-time={value}", words=("--max-time",))


def test_probe7_seed_must_be_an_integer(capsys: pytest.CaptureFixture[str]) -> None:
    usage(capsys, "certify", "--seed", "1.5", words=("--seed", "'1.5' is not an integer"))


# -- probe 8: output paths checked before the run, written atomically --------------------------------


@pytest.mark.parametrize("flag", ["--json", "--junit"])
def test_probe8_output_file_checked_before_the_run(
    flag: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    started = time.monotonic()
    # LoopsForever would hang a run: a refusal that comes at once shows the check came first
    engine = ("--engine", f"{INPROC}:LoopsForever", "--timeout", "30", "--traces", str(tmp_path / "traces"))
    usage(capsys, "certify", flag, str(tmp_path), *engine, words=(flag, "is a directory"))
    usage(capsys, "certify", flag, str(blocker / "out.xml"), *engine, words=(flag, "is not a folder"))
    usage(capsys, "certify", flag, str(tmp_path / "missing" / "out.xml"), *engine, words=(flag, "does not exist"))
    if Path("/proc/self").is_dir():  # a folder nobody can write in, not even root
        usage(capsys, "certify", flag, "/proc/out.xml", *engine, words=(flag, "cannot write in '/proc'"))
    assert time.monotonic() - started < 10


def test_probe8_traces_folder_checked_before_the_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    usage(capsys, "certify", "--traces", str(blocker), words=("--traces", "is not a folder"))
    usage(
        capsys, "certify", "--traces", str(blocker / "deeper" / "traces"), words=("--traces", "which is not a folder")
    )


def test_probe8_atomic_write_replaces_whole_or_not_at_all(tmp_path: Path) -> None:
    from ruleproof.output.files import write_atomic

    target = tmp_path / "cert.json"
    target.write_text("old")
    write_atomic(target, '{"new": true}\n')
    assert target.read_text() == '{"new": true}\n'
    assert oct(target.stat().st_mode & 0o777) == oct(0o666 & ~_umask())
    with pytest.raises(TypeError):
        write_atomic(target, None)  # type: ignore[arg-type]  # fails mid-write
    assert target.read_text() == '{"new": true}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["cert.json"]  # no temporary file left behind


def _umask() -> int:
    mask = os.umask(0o22)
    os.umask(mask)
    return mask


# -- probe 9: replay of something that is no trace ---------------------------------------------------


@pytest.mark.parametrize(
    "content,words",
    [
        ([1, 2], ("a trace must be a JSON object",)),
        (
            {"game": "chess", "steps": [{"new_game": {"game": "chess", "players": 3, "dealer": 0}}]},
            ("game: 'chess'", "not a game the kit knows"),
        ),
        ({"game": "moon", "steps": [{"apply": {"type": "deal"}}]}, ("steps[0]", "new_game")),
        ({"game": "moon", "steps": []}, ("steps", "non-empty")),
        (
            {"game": "moon", "steps": [{"new_game": {"game": "fool", "players": 3, "dealer": 0}}]},
            ("steps[0].new_game.game",),
        ),
        (
            {"game": "moon", "steps": [{"new_game": {"game": "moon", "players": "3", "dealer": 0}}]},
            ("new_game.players",),
        ),
    ],
    ids=["array", "unknown-game", "no-new-game", "no-steps", "other-game", "bad-players"],
)
def test_probe9_replay_of_a_bad_trace(
    content: Any, words: tuple[str, ...], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(content))
    usage(capsys, "replay", str(path), words=(str(path), *words))


def test_probe9_replay_of_a_file_that_is_not_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    usage(capsys, "replay", str(tmp_path / "missing.json"), words=("no such file",))
    usage(capsys, "replay", str(tmp_path), words=("is a directory",))
    (tmp_path / "t.json").write_text("{not json")
    usage(capsys, "replay", str(tmp_path / "t.json"), words=("not JSON", "line 1"))


def test_probe9_a_replay_that_cannot_follow_the_trace_diverges(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # issue 11: DIVERGED is what a fix looks like (the engine no longer lists a recorded move); exit 0, never FIXED
    trace = {
        "game": "black-maria",
        "violation": {"clause": "BM-DEAL-1", "message": "accepted a short deal"},
        "steps": [
            {"new_game": {"game": "black-maria", "players": 4, "dealer": 0, "options": {}}},
            {"apply": {"type": "play", "card": "2C"}},
        ],
    }
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(trace))
    status, out, err = run_main(capsys, "replay", str(path))
    assert status == 0 and "DIVERGED at step 2 of 2" in out and "FIXED" not in out
    assert "CONTRACT-MOVES-2" not in out + err, "a move the engine never listed is not blamed on CONTRACT-MOVES-2"


# -- probe 10: fixtures that are no fixture files ----------------------------------------------------


def test_probe10_fixtures_bad_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "latin1.json").write_bytes(b'{"id": "caf\xe9"}')
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    usage(capsys, "fixtures", str(tmp_path / "missing.json"), words=("missing.json", "no such file"))
    usage(capsys, "fixtures", str(tmp_path / "latin1.json"), words=("latin1.json", "not UTF-8", "0xe9"))
    usage(capsys, "fixtures", str(tmp_path / "deep.json"), words=("deep.json", "nested too deeply"))
    status, _, err = run_main(capsys, "fixtures", str(tmp_path / "empty-dir-that-does-not-exist"))
    assert status == 2 and "Traceback" not in err


def test_probe10_fixtures_on_a_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no fixtures here")
    status, _, err = run_main(capsys, "fixtures", str(tmp_path))
    assert status == 2, err
    one_line_error(err, str(tmp_path))


def test_debug_shows_the_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_main(capsys, "certify", "--engine", f"{INPROC}:raises", "--debug")
    assert status == 2 and "Traceback" in err and "licence file" in err


# -- probe 14: the CLI and the plugin give one set of verdicts ---------------------------------------


def run_pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")  # not the kit's own configuration (-n 2, testpaths)
    return subprocess.run(
        [
            PY,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-c",
            str(tmp_path / "pytest.ini"),
            "--rootdir",
            str(tmp_path),
            "--ruleproof-traces",
            str(tmp_path / "traces"),
            *args,
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "200"},
        check=False,
    )


def test_probe14_engine_refusing_every_deal_fails_in_both(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    engine = f"{INPROC}:RefusesEveryDeal"
    status, out, _ = run_main(
        capsys,
        "certify",
        "--engine",
        engine,
        "--game",
        "black-maria",
        "--profile",
        "dev",
        "--traces",
        str(tmp_path / "t"),
    )
    assert status == 1, out[-3000:]
    proc = run_pytest(
        tmp_path, "--ruleproof-engine", engine, "--ruleproof-game", "black-maria", "--ruleproof-profile", "dev"
    )
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " failed" in proc.stdout.splitlines()[-1], proc.stdout[-1000:]


def test_probe14_a_failure_outside_the_table_gets_its_own_item(pytester: pytest.Pytester) -> None:
    # the runner is replaced by one reporting a failure under the engine's own clause ID NOPE-1
    pytester.makeconftest(
        """
import ruleproof.run.runner
from ruleproof.model.findings import Finding, Setup, Trace, Event
from ruleproof.model.report import Failure, GameReport
from ruleproof.properties import properties_for

def fake(engine, game, profile, **kw):
    clauses = {c: "pass" for c in properties_for(game).all_clauses()}
    trace = Trace(game, (Event("new_game", Setup(game, 3, 0, {}).to_json()),), Finding("NOPE-1", "refused"))
    finding = Finding("NOPE-1", "the engine refused every deal", "accepted", "refused")
    failure = Failure(finding, trace, "properties", True, 0.0)
    return GameReport(game, clauses={**clauses, "NOPE-1": "fail"}, failures=[failure], hits={c: 1 for c in clauses})

ruleproof.run.runner.certify_game = fake
"""
    )
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--ruleproof",
        "--ruleproof-game",
        "moon",
        "--ruleproof-traces",
        str(pytester.path / "traces"),
    )
    result.assert_outcomes(failed=1, passed=len(_moon_clauses()))
    result.stdout.fnmatch_lines(["*moon::certify*", "*NOPE-1*the engine refused every deal*"])


def _moon_clauses() -> list[str]:
    from ruleproof.properties import properties_for

    return list(properties_for("moon").all_clauses())


def test_plugin_options_are_prefixed_and_checked_like_the_cli(tmp_path: Path) -> None:
    proc = run_pytest(tmp_path, "--engine", "x:Y")
    assert proc.returncode == 4 and "unrecognized arguments: --engine" in proc.stderr, proc.stderr[-2000:]
    proc = run_pytest(tmp_path, "--ruleproof", "--ruleproof-timeout", "nan")
    assert proc.returncode == 4 and "--ruleproof-timeout: must be a positive, finite number" in proc.stderr, (
        proc.stderr[-2000:]
    )
    proc = run_pytest(tmp_path, "--ruleproof-engine-cmd", "")
    assert proc.returncode == 4 and "--ruleproof-engine-cmd is empty" in proc.stderr, proc.stderr[-2000:]
    proc = run_pytest(tmp_path, "--ruleproof-engine", f"{INPROC}:returns_42")
    assert proc.returncode == 4 and "--ruleproof-engine" in proc.stderr and "returned 42" in proc.stderr, proc.stderr[
        -2000:
    ]


def test_plugin_imports_nothing_heavy_at_start() -> None:
    code = (
        "import sys, ruleproof.cli.plugin; print(sorted(m for m in sys.modules"
        " if m.split('.')[0] in ('hypothesis', 'jsonschema_rs')"
        " or m.startswith(('ruleproof.run.runner', 'ruleproof.properties', 'ruleproof.reference'))))"
    )
    proc = subprocess.run([PY, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT, check=False)
    assert proc.stdout.strip() == "[]", proc.stdout + proc.stderr


def test_profile_names_match_the_runner() -> None:
    from ruleproof.cli.options import PROFILE_NAMES
    from ruleproof.run.runner import PROFILES

    assert set(PROFILE_NAMES) == set(PROFILES)


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
    "engine",
    [(), ("--engine-cmd", shlex.join([PY, str(BROKEN / "hangs.py")]), "--timeout", "100")],
    ids=["reference", "hung-engine"],
)
def test_probe16_sigterm_writes_a_partial_certificate(engine: tuple[str, ...], tmp_path: Path) -> None:
    cert, pidfile = tmp_path / "cert.json", tmp_path / "pids"
    proc = subprocess.Popen(
        [
            PY,
            "-m",
            "ruleproof.cli",
            "certify",
            "--game",
            "black-maria",
            "--profile",
            "thorough",
            *engine,
            "--json",
            str(cert),
            "--traces",
            str(tmp_path / "traces"),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "BROKEN_ENGINE_PIDFILE": str(pidfile)},
    )
    time.sleep(3)  # under way (the hung engine now waits in its 8th apply)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 143, out[-2000:] + err[-2000:]
    data = json.loads(cert.read_text())
    assert data["interrupted"] is True and data["interrupted_by"] == "SIGTERM" and data["verdict"] == "interrupted"
    assert data["games"]["black-maria"]["verdict"] == "interrupted"
    if pidfile.exists():
        assert all(gone(int(p)) for p in pidfile.read_text().split())


# -- serve: JSON-RPC ids -------------------------------------------------------------------------------


def test_serve_ids() -> None:
    from ruleproof.transport.server import serve

    big = 123456789012345678901234567890
    lines = [
        b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": [1], "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": true, "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": 1.5, "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": 2.0, "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": 18446744073709551616, "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": -9223372036854775809, "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": "abc", "method": "hello"}',
        b'{"jsonrpc": "2.0", "id": %d, "method": "bye"}' % big,
    ]
    out = io.BytesIO()
    assert serve(["moon"], stdin=io.BytesIO(b"\n".join(lines) + b"\n"), stdout=out) == 0
    replies = [json.loads(x) for x in out.getvalue().splitlines()]  # the stdlib keeps big integers exact
    assert [r.get("error", {}).get("code") for r in replies[:5]] == [-32600] * 5
    assert all(r["id"] is None for r in replies[:5])
    assert [r["id"] for r in replies[5:]] == [2**64, -(2**63) - 1, "abc", big]
    assert all("result" in r for r in replies[5:])
    assert orjson.loads(out.getvalue().splitlines()[7])["id"] == "abc"


# -- reproducibility (issue 12, probes 11-12): the lead's runner seeds through Hypothesis's public API --


MUTANT = "tests.mutants.moon:FailedBidNotDeducted.engine"  # Moon: the cheapest game to certify at ci


def _without_timings(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items() if k not in ("seconds", "duration", "time", "created")}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


def _certify(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, *extra: str) -> dict[str, Any]:
    path = tmp_path / f"{name}.json"
    run_main(capsys, "certify", "--game", "moon", "--json", str(path), "--traces", str(tmp_path / name), *extra)
    return json.loads(path.read_text())


def test_same_run_twice_gives_the_same_certificate(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    first = _certify(capsys, tmp_path, "a", "--profile", "ci", "--engine", MUTANT)
    second = _certify(capsys, tmp_path, "b", "--profile", "ci", "--engine", MUTANT)
    assert first["verdict"] == "fail"
    first_text = json.dumps(_without_timings(first), sort_keys=True).replace(str(tmp_path / "a"), "TRACES")
    second_text = json.dumps(_without_timings(second), sort_keys=True).replace(str(tmp_path / "b"), "TRACES")
    assert first_text == second_text


def test_two_seeds_explore_differently(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the reference engine: nothing fails, so nothing is minimized and the three runs stay cheap
    one = _certify(capsys, tmp_path, "s1", "--profile", "ci", "--seed", "1", "--no-fixtures")
    two = _certify(capsys, tmp_path, "s2", "--profile", "ci", "--seed", "2", "--no-fixtures")
    assert one["seed"] == 1 and two["seed"] == 2
    hits = [{c: v["hits"] for c, v in cert["games"]["moon"]["clauses"].items()} for cert in (one, two)]
    assert hits[0] != hits[1]
    # the same seed again, in the same process, after more modules were imported: the same exploration
    import ruleproof.output.html  # noqa: F401  (a module with integer literals the first run had not seen)

    again = _certify(capsys, tmp_path, "s1b", "--profile", "ci", "--seed", "1", "--no-fixtures")
    assert _without_timings(again["games"])["moon"]["clauses"] == _without_timings(one["games"])["moon"]["clauses"]


# -- install independence (probe 13): draws that no "local constant" can replace -----------------------


def test_explore_runs_each_example_and_honours_the_seed() -> None:
    from hypothesis import Phase, settings

    from ruleproof.properties.draws import drawn_seed, explore

    def collect(seed: int | None, derandomize: bool) -> list[int]:
        seen: list[int] = []
        config = settings(
            max_examples=10, derandomize=derandomize, database=None, phases=(Phase.generate,), deadline=None
        )
        explore(lambda data: seen.append(data.draw(drawn_seed())), config, seed)
        return seen

    assert len(collect(None, True)) == 10
    assert collect(None, True) == collect(None, True)  # derandomized: the same examples every time
    assert collect(1, True) == collect(1, True) != collect(2, True)  # a seed wins over derandomize
