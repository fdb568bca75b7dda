"""A house rule is declared once (issue 30): the clauses broken with it and what only follows from it
are expected with it, in certify, the pytest plugin and the state machine alike.

The engine is the gallery's ShootingTheMoon: a moon shot scores 0 and 26 for the others, which in the
round it is scored breaks BM-SCORE-4 (the adding up), BM-INV-5 (the round hands out 78, not 26) and
BM-INV-6 (the round scores are not the cards' values), all on the same scores.  Only BM-SCORE-4 is
declared.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

import ruleproof.stateful
from ruleproof.cli import main
from ruleproof.model.report import GameReport
from ruleproof.properties import known_clauses
from ruleproof.run.expect import Expectations, apply_expectations, differences, load_expectations
from ruleproof.run.runner import PROFILES, certify_game
from ruleproof.transport.checked import CheckedEngine
from tests.mutants.black_maria import ShootingTheMoon

MOON = "tests.mutants.black_maria:ShootingTheMoon.engine"
DECLARED = '[black-maria]\nBM-SCORE-4 = "house rule: shooting the moon"\n'


def expectations(tmp_path: Path, text: str = DECLARED) -> tuple[Path, Expectations]:
    path = tmp_path / "expect.toml"
    path.write_text(text, encoding="utf-8")
    return path, load_expectations(str(path), known_clauses(["black-maria"]))


def moon_report() -> GameReport:
    return certify_game(CheckedEngine(ShootingTheMoon.engine()), "black-maria", PROFILES["ci"])


def test_what_breaks_with_a_declared_clause_is_expected_with_it(tmp_path: Path) -> None:
    report = moon_report()
    moon = next(d for d in report.deviations() if "BM-SCORE-4" in d.clauses)
    assert {"BM-INV-5", "BM-INV-6"} <= set(moon.clauses), moon.clauses
    judged = apply_expectations(report, expectations(tmp_path)[1])
    assert judged.verdict == "pass", {c: s for c, s in judged.clauses.items() if s == "fail"}
    assert judged.clauses["BM-SCORE-4"] == "xfail" and judged.clauses["BM-INV-5"] == "xfail"
    assert judged.expected["BM-INV-5"] == "expected with BM-SCORE-4 (declared)"
    assert differences([judged], "expect.toml") == []
    # declaring an unrelated clause instead excuses nothing, and says so clause by clause
    other = apply_expectations(report, expectations(tmp_path, '[black-maria]\nBM-LEAD-1 = "x"\n')[1])
    assert {c for c, s in other.clauses.items() if s == "fail"} >= {"BM-SCORE-4", "BM-INV-5", "BM-INV-6"}


def test_certify_with_the_rule_declared_once_exits_0(tmp_path: Path) -> None:
    path, _ = expectations(tmp_path)
    args = ["certify", "--engine", MOON, "--game", "black-maria", "--profile", "ci", "--json", str(tmp_path / "c.json")]
    assert main([*args, "--expect", str(path), "--traces", str(tmp_path / "t")]) == 0
    clauses = json.loads((tmp_path / "c.json").read_text())["games"]["black-maria"]["clauses"]
    assert clauses["BM-INV-6"]["status"] == "xfail" and "BM-SCORE-4" in clauses["BM-INV-6"]["expected"]


def test_the_plugin_with_the_rule_declared_once_is_green(tmp_path: Path) -> None:
    path, _ = expectations(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    args = ["-m", "pytest", str(empty), "-n", "0", "-q", "-p", "no:cacheprovider", "--ruleproof-engine", MOON]
    args += ["--ruleproof-game", "black-maria", "--ruleproof-expect", str(path)]
    done = subprocess.run(
        [sys.executable, *args, "--ruleproof-traces", str(tmp_path / "t")], check=False, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert "xfailed" in done.stdout and "failed" not in done.stdout.replace("xfailed", "")


def test_the_state_machine_with_the_rule_declared_once_passes(tmp_path: Path) -> None:
    path, _ = expectations(tmp_path)
    machine = ruleproof.stateful.machine(
        "black-maria",
        ShootingTheMoon.engine,
        expect=path,
        settings=settings(
            ruleproof.stateful.default_settings("black-maria"),
            max_examples=40,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        ),
    )
    machine.TestCase().runTest()  # raises on any failure the declaration does not account for
