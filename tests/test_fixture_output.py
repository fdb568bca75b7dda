"""``ruleproof fixtures --from-trace T -o DIR/x.json``: the folder of a new fixture is created."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleproof.cli import main
from ruleproof.model.fixtures import load_file


def pass_left_trace(tmp_path: Path) -> Path:
    """The trace certify saves for the PassLeft mutant (fixtures only: seconds)."""
    traces = tmp_path / "traces"
    status = main(
        [
            "certify",
            "--game",
            "black-maria",
            "--engine",
            "tests.mutants.black_maria:PassLeft.engine",
            "--no-properties",
            "--quiet",
            "--traces",
            str(traces),
        ]
    )
    assert status == 1
    return traces / "black-maria-BM-PASS-1.json"


def test_the_output_folder_is_created(tmp_path: Path) -> None:
    trace = pass_left_trace(tmp_path)
    out = tmp_path / "rules-fixtures" / "deeper" / "pass.json"
    assert not out.parent.exists()
    assert main(["fixtures", "--from-trace", str(trace), "-o", str(out)]) == 0
    assert load_file(out).clauses == ("BM-PASS-1",)
    assert json.loads(out.read_text(encoding="utf-8"))["id"].startswith("pinned-black-maria-BM-PASS-1")


def test_an_output_under_a_file_is_still_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = pass_left_trace(tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    capsys.readouterr()
    assert main(["fixtures", "--from-trace", str(trace), "-o", str(blocker / "pass.json")]) == 2
    err = capsys.readouterr().err
    assert "-o" in err and "not a folder" in err and "Traceback" not in err
