"""--expect and --baseline: declared deviations are xfail, out-of-date ones xpass, changes against a baseline.

The CLI tests certify a gallery mutant (passes to the left) with the fixtures
only: deterministic, about a second each.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ruleproof.cli import main
from ruleproof.model.certificate import Certificate
from ruleproof.model.report import GameReport
from ruleproof.output.junit import junit_xml
from ruleproof.properties import known_clauses
from ruleproof.run.expect import (
    ExpectError,
    apply_baseline,
    apply_expectations,
    baseline_warnings,
    compare,
    differences,
    load_baseline,
    load_expectations,
)

KNOWN = known_clauses(["black-maria", "idiot"])
PASS_LEFT = "tests.mutants.black_maria:PassLeft.engine"


def write(tmp_path: Path, text: str, name: str = "expect.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def flat(text: str) -> str:
    """Rich wraps long lines at the terminal width, even inside a word (a long tmp path): compare
    the text with every line break and space taken out."""
    return "".join(text.split())


def report(**clauses: str) -> GameReport:
    return GameReport("black-maria", clauses={c.replace("_", "-"): s for c, s in clauses.items()})


# -- the file --------------------------------------------------------------------------------------


def test_a_valid_file_maps_each_listed_clause_to_its_reason(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '# house rules\n[black-maria]\nBM-LEAD-1 = "2C leads"\n"BM-SCORE-4" = "moon: -26"\n\n'
        '[idiot]\nIDIOT-BURN-NEXT = "burner starts"\n',
    )
    exp = load_expectations(path, KNOWN)
    assert exp.reasons("black-maria") == {"BM-LEAD-1": "2C leads", "BM-SCORE-4": "moon: -26"}
    assert exp.reasons("idiot") == {"IDIOT-BURN-NEXT": "burner starts"}
    assert [e.line for e in exp.entries] == [3, 4, 7]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('[black-maria]\nBM-LEAD-1 = "x"\n\n[hearts]\nH-1 = "y"\n', 4, "unknown game 'hearts'"),
        ('[black-maria]\nBM-LEAD-1 = "x"\nBM-LEAD-9 = "y"\n', 3, "unknown clause 'BM-LEAD-9'"),
        ('[black-maria]\nBM-LEAD-1 = "x"\nBM-SCORE-4 = 26\n', 3, "must be a string"),
        ("[black-maria]\nBM-LEAD-1 = true\n", 2, "not a boolean"),
        ('[black-maria]\nBM-LEAD-1 = "  "\n', 2, "the reason is empty"),
        ('BM-LEAD-1 = "at the top, outside any table"\n', 1, "unknown game 'BM-LEAD-1'"),
    ],
)
def test_a_bad_entry_names_the_file_and_line(tmp_path: Path, text: str, line: int, words: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ExpectError) as info:
        load_expectations(path, KNOWN)
    assert str(info.value).startswith(f"{path}:{line}: ")
    assert words in str(info.value)


def test_not_toml_is_an_error_naming_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[black-maria\nBM-LEAD-1 = 'x'\n")
    with pytest.raises(ExpectError, match=rf"^{path}: not TOML .*line 1"):
        load_expectations(path, KNOWN)


def test_the_cli_refuses_a_bad_file_with_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, '[black-maria]\nBM-LEAD-1 = "x"\nBM-NOPE-1 = "y"\n')
    assert main(["certify", "--expect", str(path), "--game", "black-maria", "--profile", "dev"]) == 2
    err = capsys.readouterr().err
    assert flat(f"--expect: {path}:3: unknown clause 'BM-NOPE-1'") in flat(err)
    assert "Traceback" not in err


# -- statuses and verdicts -------------------------------------------------------------------------


def test_listed_failures_are_xfail_listed_passes_xpass_and_untested_stays(tmp_path: Path) -> None:
    path = write(tmp_path, '[black-maria]\nBM-LEAD-1 = "2C leads"\nBM-SCORE-4 = "moon"\nBM-PASS-3 = "rotates"\n')
    r = report(BM_LEAD_1="fail", BM_SCORE_4="pass", BM_PASS_3="untested", BM_WIN_1="pass")
    r = apply_expectations(r, load_expectations(path, KNOWN))
    assert r.clauses == {"BM-LEAD-1": "xfail", "BM-SCORE-4": "xpass", "BM-PASS-3": "untested", "BM-WIN-1": "pass"}
    assert r.verdict == "fail", "an xpass is an unexpected result"
    assert differences([r], str(path)) == [f"black-maria: BM-SCORE-4 is listed but passed: remove it from {path}"]


def test_only_unlisted_failures_fail_the_run(tmp_path: Path) -> None:
    path = write(tmp_path, '[black-maria]\nBM-LEAD-1 = "2C leads"\n')
    r = report(BM_LEAD_1="fail", BM_LEAD_2="fail", BM_WIN_1="pass")
    r = apply_expectations(r, load_expectations(path, KNOWN))
    assert r.verdict == "fail"
    assert differences([r], str(path)) == [f"black-maria: BM-LEAD-2 failed and is not in {path}"]
    green = report(BM_LEAD_1="fail", BM_WIN_1="pass")
    green = apply_expectations(green, load_expectations(path, KNOWN))
    assert green.verdict == "pass" and differences([green], str(path)) == []


def test_the_certificate_and_junit_show_the_new_statuses(tmp_path: Path) -> None:
    path = write(tmp_path, '[black-maria]\nBM-LEAD-1 = "2C leads"\nBM-SCORE-4 = "moon"\nBM-PASS-3 = "rotates"\n')
    r = report(BM_LEAD_1="fail", BM_SCORE_4="pass", BM_PASS_3="untested")
    r = apply_expectations(r, load_expectations(path, KNOWN))
    cert = Certificate({"name": "e", "version": "1"}, "ci", None, (r,), expect_file=str(path))
    clauses = cert.to_json()["games"]["black-maria"]["clauses"]
    assert clauses["BM-LEAD-1"] == {"status": "xfail", "hits": 0, "expected": "2C leads"}
    assert clauses["BM-PASS-3"] == {"status": "untested", "hits": 0, "expected": "rotates"}
    assert cert.to_json()["expect"] == str(path)
    cases = {c.get("name"): c for c in ET.fromstring(junit_xml(cert)).iter("testcase")}
    skipped = cases["BM-LEAD-1"].find("skipped")
    assert skipped is not None and "2C leads" in skipped.get("message", "")
    failure = cases["BM-SCORE-4"].find("failure")
    assert failure is not None and "listed but passed" in failure.get("message", "")


# -- baseline --------------------------------------------------------------------------------------


def test_compare_finds_regressions_fixed_and_no_longer_judged() -> None:
    before = {"BM-LEAD-1": "pass", "BM-LEAD-2": "fail", "BM-WIN-1": "pass", "BM-WIN-2": "xfail", "BM-END-1": "untested"}
    now = report(BM_LEAD_1="fail", BM_LEAD_2="pass", BM_WIN_1="untested", BM_WIN_2="xpass", BM_END_1="fail")
    diff = compare(now, before)
    assert diff.regressions == ("BM-LEAD-1",)
    assert diff.fixed == ("BM-LEAD-2", "BM-WIN-2")
    assert diff.untested == ("BM-WIN-1",)


def test_a_listed_clause_is_not_a_regression(tmp_path: Path) -> None:
    path = write(tmp_path, '[black-maria]\nBM-LEAD-1 = "2C leads"\n')
    r = report(BM_LEAD_1="fail")
    r = apply_expectations(r, load_expectations(path, KNOWN))
    assert compare(r, {"BM-LEAD-1": "pass"}).regressions == ()


def test_another_engine_or_game_set_is_a_warning(tmp_path: Path) -> None:
    cert = {"engine": {"name": "old"}, "games": {"idiot": {"clauses": {"IDIOT-BURN-10": {"status": "pass"}}}}}
    baseline = load_baseline(write(tmp_path, json.dumps(cert), "cert.json"))
    assert apply_baseline(report(BM_LEAD_1="pass"), baseline).baseline is None  # no black-maria in it
    warnings = baseline_warnings(["black-maria"], baseline, {"name": "new"})
    assert len(warnings) == 2
    assert "engine 'old'" in warnings[0] and "games idiot" in warnings[1]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ("[]", "<root>"),
        ('{"games": {"black-maria": {}}}', 'games["black-maria"]'),
        ('{"games": {"black-maria": {"clauses": {"BM-LEAD-1": {}}}}}', 'games["black-maria"].clauses["BM-LEAD-1"]'),
    ],
)
def test_a_bad_baseline_names_the_field(tmp_path: Path, data: str, field: str) -> None:
    # checked against the certificate's published schema (ruleproof/schemas/certificate.json)
    path = write(tmp_path, data, "cert.json")
    with pytest.raises(ExpectError, match="^" + re.escape(f"{path} at {field}: ")):
        load_baseline(path)


# -- the command line, end to end ----------------------------------------------------------------


def certify(tmp_path: Path, *extra: str, engine: str | None = PASS_LEFT, name: str = "cert.json") -> int:
    args = [
        "certify",
        "--game",
        "black-maria",
        "--no-properties",
        "--json",
        str(tmp_path / name),
        "--traces",
        str(tmp_path / "traces"),
    ]
    return main([*args, *(["--engine", engine] if engine else []), *extra])


def test_a_declared_deviation_gives_a_green_run_and_an_undeclared_one_a_red_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = write(tmp_path, '[black-maria]\nBM-PASS-1 = "house rule: we pass to the left"\n')
    assert certify(tmp_path, "--expect", str(listed)) == 0
    cert = json.loads((tmp_path / "cert.json").read_text())
    assert cert["verdict"] == "pass"
    assert {c for c, v in cert["games"]["black-maria"]["clauses"].items() if v["status"] == "xfail"} == {"BM-PASS-1"}
    capsys.readouterr()

    stale = write(tmp_path, '[black-maria]\nBM-PASS-1 = "left"\nBM-SETUP-1 = "we think 5 players work"\n', "stale.toml")
    assert certify(tmp_path, "--expect", str(stale)) == 1
    assert flat(f"black-maria: BM-SETUP-1 is listed but passed: remove it from {stale}") in flat(
        capsys.readouterr().out
    )

    empty = write(tmp_path, "[black-maria]\n", "empty.toml")
    assert certify(tmp_path, "--expect", str(empty)) == 1
    assert flat(f"black-maria: BM-PASS-1 failed and is not in {empty}") in flat(capsys.readouterr().out)


def test_a_baseline_shows_the_regression_and_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert certify(tmp_path, engine=None, name="reference.json") == 0
    assert certify(tmp_path, engine=PASS_LEFT, name="mutant.json") == 1

    assert certify(tmp_path, "--baseline", str(tmp_path / "reference.json"), name="regressed.json") == 1
    out = capsys.readouterr()
    block = json.loads((tmp_path / "regressed.json").read_text())["games"]["black-maria"]["baseline"]
    before = json.loads((tmp_path / "reference.json").read_text())["games"]["black-maria"]["clauses"]
    now = json.loads((tmp_path / "regressed.json").read_text())["games"]["black-maria"]["clauses"]
    assert block["regressions"] == ["BM-PASS-1"] and block["fixed"] == []
    # the failing fixture ends early, so clauses the reference's run judged go unjudged: listed, not hidden
    # (and so do the house rules the reference declares and the mutant does not: skipped for it)
    unjudged = ("untested", "skipped")
    judged = ("pass", "partial")
    gone = [c for c in before if before[c]["status"] in judged and (c not in now or now[c]["status"] in unjudged)]
    assert sorted(block["untested"]) == sorted(gone)
    assert block["untested"], "this run judges fewer clauses than the baseline did"
    assert flat("black-maria: BM-PASS-1 failed; it passed in the baseline (a regression)") in flat(out.out)
    assert "warning" in out.err and "reference" in flat(out.err), "another engine name is a warning, not an error"

    listed = write(tmp_path, '[black-maria]\nBM-PASS-1 = "left"\n')
    assert (
        certify(tmp_path, "--baseline", str(tmp_path / "reference.json"), "--expect", str(listed), name="declared.json")
        == 0
    )
    assert json.loads((tmp_path / "declared.json").read_text())["games"]["black-maria"]["baseline"]["regressions"] == []

    assert certify(tmp_path, "--baseline", str(tmp_path / "mutant.json"), engine=None, name="fixed.json") == 0
    assert json.loads((tmp_path / "fixed.json").read_text())["games"]["black-maria"]["baseline"]["fixed"] == [
        "BM-PASS-1"
    ]


# -- the pytest plugin ----------------------------------------------------------------------------


def run_plugin(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """pytest on an empty folder: the only items are the plugin's, one per clause."""
    empty = tmp_path / "empty"
    empty.mkdir(exist_ok=True)
    args = [
        sys.executable,
        "-m",
        "pytest",
        str(empty),
        "-n",
        "0",
        "-q",
        "-rxX",
        "--ruleproof-engine",
        PASS_LEFT,
        "--ruleproof-game",
        "black-maria",
        "--ruleproof-no-properties",
        "--ruleproof-traces",
        str(tmp_path / "traces"),
    ]
    return subprocess.run(
        [*args, *extra], capture_output=True, text=True, cwd=Path(__file__).parent.parent, timeout=300, check=False
    )


def test_the_plugin_makes_listed_clauses_strict_xfail(tmp_path: Path) -> None:
    listed = write(tmp_path, '[black-maria]\nBM-PASS-1 = "house rule: we pass to the left"\n')
    green = run_plugin(tmp_path, "--ruleproof-expect", str(listed))
    assert green.returncode == 0, green.stdout
    assert "XFAIL" in green.stdout and "house rule: we pass to the left" in green.stdout and "1 xfailed" in green.stdout

    stale = write(tmp_path, '[black-maria]\nBM-PASS-1 = "left"\nBM-SETUP-1 = "stale"\n', "stale.toml")
    red = run_plugin(tmp_path, "--ruleproof-expect", str(stale))
    assert red.returncode == 1
    assert "XPASS(strict)" in red.stdout and "1 failed" in red.stdout

    bad = write(tmp_path, '[black-maria]\nBM-NOPE-1 = "x"\n', "bad.toml")
    usage = run_plugin(tmp_path, "--ruleproof-expect", str(bad))
    assert usage.returncode == 4, "pytest's usage-error status"
    assert f"--ruleproof-expect: {bad}:2: unknown clause 'BM-NOPE-1'" in usage.stderr


def test_the_plugin_names_a_regression_against_the_baseline(tmp_path: Path) -> None:
    assert certify(tmp_path, engine=None, name="reference.json") == 0
    run = run_plugin(tmp_path, "--ruleproof-baseline", str(tmp_path / "reference.json"))
    assert run.returncode == 1
    assert "regressed: it passed in the baseline" in run.stdout
