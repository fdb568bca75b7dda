"""The messages say what they mean (issue 30 item 8): a cut value says so, counts are true and in the
singular where one, the verdict line is one line in a log, the HTML header reads as prose, a scalar
expected/got names its field, a randomized run records its seed, ``--help`` lists the profiles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console

from ruleproof.output.html import run_facts, shown_path
from ruleproof.output.progress import Status
from ruleproof.output.render import field_of, more_steps, render_failure
from ruleproof.run.events import Explored
from ruleproof.run.profile_table import PROFILES, run_seed
from tests.cli_helpers import run_main

MUTANT = "tests.mutants.moon:OvertricksScored.engine"


def test_progress_never_counts_more_examples_done_than_planned() -> None:
    status = Status("moon", of=30)
    status.update(Explored("moon", 36, 30, 9000, 100, 0), 1.0)
    assert "30/30 examples (+6 rejected), 9,000 steps" in status.line()
    status.update(Explored("moon", 12, 30, 3000, 100, 0), 2.0)
    assert "12/30 examples, 3,000 steps" in status.line()


def test_one_step_left_out_is_one_more_step() -> None:
    assert (more_steps(1), more_steps(19)) == ("1 more step", "19 more steps")


def test_a_scalar_expected_and_got_name_the_field_they_compare() -> None:
    assert field_of({"expected": 4, "got": 7, "observed": ["move", "scores:1"]}) == "seat 1's score"
    assert field_of({"expected": 5, "got": 4, "observed": ["zone:burned:size"]}) == "the size of burned"
    assert field_of({"expected": 1, "got": 0, "observed": ["check:hand_end"]}) == ""  # nothing of the state
    assert field_of({"expected": [1], "got": [0], "observed": ["scores:1"]}) == ""  # a list names itself
    failure = {"clause": "MOON-SCORE-1", "message": "m", "expected": 4, "got": 7, "observed": ["scores:0"]}
    out = Console(width=200, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    out.print(render_failure("moon", failure, {"status": "fail"}))
    assert "expected: 4   (seat 0's score)" in out.export_text()


def test_the_html_header_reads_as_prose() -> None:
    cert = {"ruleproof_certificate": 1, "verdict": "pass", "hypothesis": "6.1", "created": "2026-01-01",
            "baseline": {"file": "/somewhere/else/base.json", "warnings": ["another engine"]}}  # fmt: skip
    facts = {f.key: f.text for f in run_facts(cert)}
    assert "ruleproof_certificate" not in facts
    assert facts["baseline"] == "base.json (another engine)" and facts["Hypothesis"] == "6.1"
    assert shown_path("ruleproof-baseline/certificate.json") == "ruleproof-baseline/certificate.json"
    assert shown_path(str(Path.cwd() / "b" / "c.json")) == "b/c.json"


def test_a_randomized_run_records_the_seed_it_drew() -> None:
    assert run_seed("ci", None) is None and PROFILES["ci"].derandomize  # its examples are fixed already
    assert run_seed("dev", 5) == 5
    assert isinstance(run_seed("dev", None), int)


def test_a_dev_certificate_has_its_seed_and_the_verdict_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")  # a narrow log: rich wraps at its width, but not this line
    cert = tmp_path / "cert.json"
    status, out, _ = run_main(capsys, "certify", "--engine", MUTANT, "--game", "moon", "--profile", "dev",
                              "--json", str(cert), "--traces", str(tmp_path / "t"), "--quiet")  # fmt: skip
    assert status == 1
    assert isinstance(json.loads(cert.read_text())["seed"], int)
    (line,) = [x for x in out.splitlines() if x.startswith("FAIL: ")]
    assert len(line) > 40 and line.endswith("covered"), line
    assert " 1 regressions" not in out


def test_help_lists_the_profiles(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run_main(capsys, "certify", "--help")
    text = " ".join(capsys.readouterr().out.split())
    for profile in PROFILES.values():
        assert f"{profile.name}: {profile.max_examples} examples of {profile.steps} steps" in text
