"""The command line: exit statuses, the JSON certificate, JUnit, traces and replay."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ruleproof.cli import main
from ruleproof.model.traces import unpack

MUTANT = "tests.mutants.black_maria:PassLeft.engine"


def certify(tmp_path: Path, *extra: str) -> tuple[int, dict, Path]:
    cert = tmp_path / "cert.json"
    status = main(
        [
            "certify",
            "--game",
            "black-maria",
            "--json",
            str(cert),
            "--junit",
            str(tmp_path / "junit.xml"),
            "--traces",
            str(tmp_path / "traces"),
            *extra,
        ]
    )
    return status, json.loads(cert.read_text()), tmp_path


def test_reference_certifies_with_exit_0(tmp_path: Path) -> None:
    status, cert, _ = certify(tmp_path, "--profile", "dev")
    assert status == 0
    assert cert["verdict"] == "pass" and cert["profile"] == "dev"
    game = cert["games"]["black-maria"]
    assert game["verdict"] == "pass" and game["failures"] == []
    # dev's 8 examples reach only some pairs of the house rules the reference declares: those clauses
    # are partial (never shown as passed), the others pass
    assert set(s["status"] for s in game["clauses"].values()) <= {"pass", "partial", "untested"}
    assert "BM-FOLLOW-1" in game["clauses"]


def test_a_mutant_fails_with_exit_1_a_trace_and_a_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, cert, folder = certify(tmp_path, "--profile", "dev", "--engine", MUTANT, "--no-properties")
    assert status == 1
    game = cert["games"]["black-maria"]
    assert game["verdict"] == "fail" and cert["verdict"] == "fail"
    failure = next(f for f in game["failures"] if f["clause"] == "BM-PASS-1")
    # format 2: the trace is the game's, by trace_id; unpack gives the failure its trace and states back
    assert {"clause", "message", "expected", "got", "trace_id", "replay", "trace_file"} <= set(failure)
    assert cert["ruleproof_certificate"] == 2 and "trace" not in failure
    assert game["traces"][failure["trace_id"]]["trace"][0]["new_game"]["game"] == "black-maria"
    whole = next(f for f in unpack(cert)["games"]["black-maria"]["failures"] if f["clause"] == "BM-PASS-1")
    assert failure["confirmed"] and whole["trace"][0]["new_game"]["game"] == "black-maria"
    assert len(whole["states"]) == len(whole["trace"]) == whole["steps"]
    assert game["clauses"]["BM-PASS-1"]["status"] == "fail"
    suites = ET.parse(folder / "junit.xml").getroot()
    failed = [c.get("name") for c in suites.iter("testcase") if c.find("failure") is not None]
    assert "BM-PASS-1" in failed
    trace = failure["trace_file"]
    capsys.readouterr()
    assert main(["replay", trace, "--engine", MUTANT]) == 1
    assert "still FAILED BM-PASS-1" in capsys.readouterr().out
    assert main(["replay", trace]) == 0  # the reference: the bug is not there
    assert "FIXED" in capsys.readouterr().out


def test_wrong_calls_exit_2(tmp_path: Path) -> None:
    assert main(["certify", "--engine", "no.such.module:Factory"]) == 2
    assert main(["certify", "--engine", "nocolon"]) == 2
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["certify", "--game", "chess"])
    assert exc.value.code == 2


def test_an_engine_that_breaks_the_schema_is_broken_not_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, cert, _ = certify(tmp_path, "--profile", "dev", "--engine", "tests.test_cli_and_certificate:SchemaBreaker")
    assert status == 2
    broken = cert["games"]["black-maria"]["broken"]
    assert broken["kind"] == "schema" and "scores" in broken["message"]


class SchemaBreaker:
    """The reference, but its states carry scores as strings: an adapter bug, not a rule bug."""

    def __init__(self) -> None:
        from ruleproof.reference import ReferenceEngine

        self.inner = ReferenceEngine()

    def hello(self):
        return self.inner.hello()

    def new_game(self, game, players, dealer, options):
        return self._bad(self.inner.new_game(game, players, dealer, options))

    def legal_moves(self):
        return self.inner.legal_moves()

    def apply(self, move):
        return self._bad(self.inner.apply(move))

    def state(self):
        return self._bad(self.inner.state())

    def close(self) -> None:
        pass

    @staticmethod
    def _bad(state):
        return {**state, "scores": [str(s) for s in state["scores"]]}
