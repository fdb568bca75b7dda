"""JUnit tells the truth (issue 23): a stopped or broken run is red, once; every case has a time.

The certificates are built from reports directly (``Certificate``/``GameReport`` as the runner freezes
them), so each case of the JUnit writer is reached without running an engine.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ruleproof.model.certificate import Certificate
from ruleproof.model.engine import AdapterBroken
from ruleproof.model.report import BaselineDiff, GameReport, Stopped
from ruleproof.output.junit import junit_xml

CLAUSES = {"BM-LEAD-1": "pass", "BM-FOLLOW-1": "pass", "BM-END-2": "untested"}


def junit(*reports: GameReport, **named: object) -> ET.Element:
    cert = Certificate({"name": "e", "version": "1"}, "ci", 0, reports, **named)  # type: ignore[arg-type]
    return ET.fromstring(junit_xml(cert))


def cases(root: ET.Element) -> dict[str, ET.Element]:
    return {f"{c.get('classname')}::{c.get('name')}": c for c in root.iter("testcase")}


def counts(root: ET.Element) -> dict[str, str | None]:
    return {k: root.get(k) for k in ("tests", "failures", "errors", "skipped")}


def test_every_case_has_a_time_and_the_game_time_goes_to_its_certify_case() -> None:
    root = junit(GameReport("black-maria", dict(CLAUSES), hits={"BM-LEAD-1": 3, "BM-FOLLOW-1": 9}, seconds=12.5))
    found = cases(root)
    assert all(c.get("time") is not None for c in found.values())
    assert found["ruleproof.black-maria::certify"].get("time") == "12.500"
    assert found["ruleproof.black-maria::BM-LEAD-1"].get("time") == "0.000"
    assert counts(root) == {"tests": "4", "failures": "0", "errors": "0", "skipped": "1"}


def test_a_broken_engine_is_one_error_and_the_verdicts_so_far_stand() -> None:
    broken = AdapterBroken("timeout", "no answer to apply within 10 s")
    report = GameReport(
        "black-maria", dict(CLAUSES), broken=broken, stopped=Stopped("properties", 812, "timeout"), seconds=3.0
    )
    root = junit(report)
    errors = [c for c in root.iter("testcase") if c.find("error") is not None]
    assert [c.get("name") for c in errors] == ["certify"]
    error = errors[0].find("error")
    assert error is not None and error.get("type") == "adapter-broken:timeout"
    assert counts(root) == {"tests": "4", "failures": "0", "errors": "1", "skipped": "1"}


def test_an_engine_that_never_answered_hello_is_one_error() -> None:
    root = junit(broken=AdapterBroken("crash", "exited with status 1 before hello"))
    assert counts(root) == {"tests": "1", "failures": "0", "errors": "1", "skipped": "0"}


def test_an_interrupted_run_is_red_for_the_game_stopped_and_the_games_never_started() -> None:
    report = GameReport(
        "black-maria", dict(CLAUSES), interrupted=True, stopped=Stopped("properties", 40, "--max-time 2s")
    )
    root = junit(report, interrupted="--max-time 2s", not_run=("idiot",))
    found = cases(root)
    for name in ("ruleproof.black-maria::certify", "ruleproof.idiot::certify"):
        error = found[name].find("error")
        assert error is not None and error.get("type") == "interrupted", name
    assert counts(root)["errors"] == "2"


def test_a_game_that_judged_nothing_is_not_green() -> None:
    root = junit(GameReport("black-maria", {"BM-LEAD-1": "untested", "BM-END-2": "untested"}))
    failure = cases(root)["ruleproof.black-maria::certify"].find("failure")
    assert failure is not None and failure.get("type") == "untested"
    assert counts(root)["failures"] == "1"


def test_a_regression_against_the_baseline_fails_the_certify_case() -> None:
    report = GameReport("black-maria", dict(CLAUSES), baseline=BaselineDiff(("BM-END-2",), (), ()))
    failure = cases(junit(report))["ruleproof.black-maria::certify"].find("failure")
    assert failure is not None and failure.text == "BM-END-2"
