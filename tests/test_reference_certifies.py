"""The unmodified reference passes every clause of every game, none untested."""

from __future__ import annotations

import pytest

from ruleproof.properties import available_games, properties_for
from ruleproof.run.runner import PROFILES, certify_game


@pytest.mark.parametrize("game", available_games())
def test_reference_passes_every_clause(game: str, reference) -> None:
    report = certify_game(reference(game), game, PROFILES["ci"])
    assert report.broken is None, report.broken and report.broken.to_json()
    assert not report.failures, [(f.finding, f.trace.moves()[-5:]) for f in report.failures]
    covered_only = properties_for(game).covered_only
    not_passed = {c: s for c, s in report.clauses.items() if s != ("covered" if c in covered_only else "pass")}
    assert not not_passed, f"clauses not exercised by the ci profile: {not_passed}"
    assert not report.check_errors, report.check_errors
    assert all(status == "pass" for status in report.fixtures.values()), report.fixtures
