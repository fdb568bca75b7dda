"""Nothing judged is not a pass (probe 3): an engine declaring no game, a run with neither fixtures
nor properties, a game where no clause was reached."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import INPROC, usage

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
