"""An engine that declares the house rules it plays is judged by them (issue 29): it certifies with only
its real bugs failing, and a house rule it plays wrong fails that rule's own clause.

The engines are the independent Black Maria engine's ``DECLARING`` entries (tests/independent): one
certification each, shared by the tests that read it.
"""

from __future__ import annotations

import pytest

from ruleproof.model.report import GameReport
from ruleproof.run.runner import PROFILES, certify_game
from ruleproof.transport.checked import CheckedEngine
from tests.independent import black_maria

GAME = "black-maria"
HOUSE_CLAUSES = ("BM-PASS-4", "BM-LEAD-3", "BM-LEAD-4", "BM-LEAD-6", "BM-SCORE-6")


def certify(name: str) -> GameReport:
    return certify_game(CheckedEngine(black_maria.declaring_engine(name)), GAME, PROFILES["ci"])


@pytest.fixture(scope="module")
def py_hearts6() -> GameReport:
    return certify("py_hearts6")


@pytest.fixture(scope="module")
def moon_25() -> GameReport:
    return certify("moon_25")


@pytest.mark.xdist_group("declared-house-rules-py-hearts6")
def test_declared_house_rules_pass_and_only_the_real_bug_fails(py_hearts6: GameReport) -> None:
    r = py_hearts6
    assert r.broken is None and not r.check_errors
    # its five house rules, declared, are judged and played right
    assert {c: r.clauses[c] for c in HOUSE_CLAUSES} == dict.fromkeys(HOUSE_CLAUSES, "pass")
    # the rules it does not declare are not judged: right passes, the left-of-dealer leader, no moon
    assert {r.clauses[c] for c in ("BM-PASS-3", "BM-LEAD-5")} == {"skipped"}
    # one deviation: a pass naming one card twice is accepted (the passer keeps 14 cards)
    assert [d.clause for d in r.deviations()] == ["BM-PASS-1"], [d.label for d in r.deviations()]
    assert r.title == (
        "Black Maria (pass rotate, first_lead two_clubs, first_trick lowest_club, hearts_broken hearts, "
        "moon others_score)"
    ), r.title


def test_the_same_engine_undeclared_fails_its_house_rules() -> None:
    """Without its declaration the house rules are deviations of the documents' clauses (the hello alone
    differs): what declaring them changes, measured on the same engine at the dev profile."""
    engine = black_maria.engine(*black_maria.DECLARING["py_hearts6"].bugs)
    r = certify_game(CheckedEngine(engine), GAME, PROFILES["dev"], fixtures=False)
    failed = {c for c, s in r.clauses.items() if s == "fail"}
    assert {"BM-LEAD-1", "BM-LEAD-2"} <= failed, failed
    assert r.clauses["BM-SCORE-6"] == "skipped"


@pytest.mark.xdist_group("declared-house-rules-moon-25")
def test_a_declared_house_rule_played_wrong_fails_its_own_clause(moon_25: GameReport) -> None:
    r = moon_25
    assert r.broken is None and not r.check_errors
    # a moon shot paid 25 to each other seat under moon=others_score (26): BM-SCORE-6, not BM-SCORE-4
    assert [d.clause for d in r.deviations()] == ["BM-SCORE-6"], [d.label for d in r.deviations()]
    assert r.clauses["BM-SCORE-4"] == "pass"
    shot = r.failure("BM-SCORE-6")
    assert shot is not None and shot.confirmed
    assert "scores:" in " ".join(shot.finding.observed)
