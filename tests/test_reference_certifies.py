"""The unmodified reference passes every clause of every game, none untested."""

from __future__ import annotations

import pytest

from ruleproof.properties import available_games
from ruleproof.runner import PROFILES, certify_game


@pytest.mark.parametrize("game", available_games())
def test_reference_passes_every_clause(game: str, reference) -> None:
    report = certify_game(reference(game), game, PROFILES["ci"])
    assert report.broken is None, report.broken and report.broken.to_json()
    assert not report.failures, [(f.finding, f.trace.moves()[-5:]) for f in report.failures]
    not_passed = {c: s for c, s in report.clauses.items() if s != "pass"}
    assert not not_passed, f"clauses not exercised by the ci profile: {not_passed}"
    assert all(status == "pass" for status in report.fixtures.values()), report.fixtures
