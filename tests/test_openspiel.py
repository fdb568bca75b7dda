"""A real third-party engine in the kit's own CI: OpenSpiel's Hearts as Black Maria, with its house rules declared.

OpenSpiel is installed by the ``[test]`` extra, so this never skips.  Its adapter declares the house
rules OpenSpiel plays as options (each judged under its own clause and passed); certified at ci with
``examples/openspiel/expect.toml`` (what no option expresses) it exits 0 with exactly the listed
clauses xfail; remove one line and the run exits 1, naming that clause.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from ruleproof.cli import main

EXAMPLE = Path(__file__).parent.parent / "examples" / "openspiel"
ENGINE = "examples.openspiel.hearts:OpenSpielHearts"
LISTED = tomllib.loads((EXAMPLE / "expect.toml").read_text(encoding="utf-8"))["black-maria"]

pytestmark = pytest.mark.xdist_group("openspiel")


def certify(tmp_path: Path, expect: Path, name: str) -> tuple[int, dict]:
    cert = tmp_path / f"{name}.json"
    code = main(
        [
            "certify",
            "--engine",
            ENGINE,
            "--profile",
            "ci",
            "--expect",
            str(expect),
            "--json",
            str(cert),
            "--traces",
            str(tmp_path / "traces"),
        ]
    )
    return code, json.loads(cert.read_text())["games"]["black-maria"]


def test_openspiel_hearts_is_green_with_its_house_rules_declared(tmp_path: Path) -> None:
    code, game = certify(tmp_path, EXAMPLE / "expect.toml", "listed")
    statuses = {clause: v["status"] for clause, v in game["clauses"].items()}
    assert {c for c, s in statuses.items() if s == "xfail"} == set(LISTED)
    assert not [c for c, s in statuses.items() if s in ("fail", "xpass")]
    assert code == 0
    assert sum(s == "pass" for s in statuses.values()) >= 20, "most of the rules are judged, and hold"
    # its house rules, declared as options, are judged under their own clauses, and hold
    assert {statuses[c] for c in ("BM-PASS-4", "BM-LEAD-3", "BM-LEAD-4", "BM-LEAD-5", "BM-LEAD-6")} == {"pass"}
    assert statuses["BM-SCORE-6"] in ("pass", "partial")  # a game to target 1: every shot reaches it
    assert game["title"].startswith("Black Maria (pass left, first_lead two_clubs"), game["title"]


def test_removing_one_declared_house_rule_turns_the_run_red(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = (EXAMPLE / "expect.toml").read_text(encoding="utf-8").splitlines(keepends=True)
    dropped = next(i for i, line in enumerate(lines) if line.startswith("BM-INV-6 "))
    shorter = tmp_path / "expect.toml"
    shorter.write_text("".join(lines[:dropped] + lines[dropped + 1 :]), encoding="utf-8")
    code, game = certify(tmp_path, shorter, "shorter")
    assert code == 1
    assert game["clauses"]["BM-INV-6"]["status"] == "fail"
    # rich wraps at the terminal width, even inside a long tmp path: compare with all white space taken out
    flat = "".join(capsys.readouterr().out.split())
    assert "".join(f"black-maria: BM-INV-6 failed and is not in {shorter}".split()) in flat
