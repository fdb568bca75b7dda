"""Every bad input to the command line gets one clear line naming it and exit 2, and loses nothing
(issue 12's probes 1, 2, 4, 7-10): factories, modules, commands, numbers, output paths, traces,
fixture files."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import INPROC, ROOT, one_line_error, run_main, usage

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


# -- probe 4: --engine-cmd that is no command --------------------------------------------------------


def test_probe4_empty_and_unbalanced_engine_cmd(capsys: pytest.CaptureFixture[str]) -> None:
    usage(capsys, "certify", "--engine-cmd", "", words=("--engine-cmd is empty",))
    usage(capsys, "certify", "--engine-cmd", "   ", words=("--engine-cmd is empty",))
    usage(capsys, "certify", "--engine-cmd", "python3 'abc", words=("--engine-cmd", "no closing quotation"))
    usage(capsys, "replay", str(ROOT / "README.md"), "--engine-cmd", "", words=("trace",))  # the trace is checked first


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
