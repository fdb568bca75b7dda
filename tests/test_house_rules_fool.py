"""A Fool engine with five deviations at once (tests/independent/fool.py, house set ``pub_league``): four
house rules, two by two shown in one step, and one real bug.  Each is reported as a deviation of its own,
under its own clause, with the invariant that observed the same difference; the real bug stands apart.

- the deal step of round 2 onwards shows two: the dealer never moves (FOOL-TURN-2, `dealer`) and the
  dealer leads the first trick (FOOL-TURN-1, `to_act`): different fields, two deviations;
- the step that scores a round shows two: a 1 left in hand costs 1 (FOOL-SCORE-3, that seat's total) and
  going out as a fool adds to the tally (FOOL-SCORE-4, that seat's tally): FOOL-INV-9 goes with each on
  the part it observed (its rules `scores`, `tallies`), never joining the two;
- the real bug: a deal of wrong hand sizes is accepted (FOOL-DEAL-1, the move), the hands of 11 and 13
  it leaves are FOOL-INV-2's (the move, and those hands' sizes): one deviation, with no house rule in it.
"""

from __future__ import annotations

import pytest

from ruleproof.model.report import GameReport
from ruleproof.run.runner import PROFILES, certify_game
from ruleproof.transport.checked import CheckedEngine
from tests.independent import fool

pytestmark = pytest.mark.xdist_group("house-rules-fool")

HOUSE = {
    frozenset({"FOOL-TURN-2"}),  # one seat deals every round
    frozenset({"FOOL-TURN-1"}),  # ... and leads the first trick itself
    frozenset({"FOOL-SCORE-3", "FOOL-INV-9"}),  # a 1 left in hand costs 1: the scores
    frozenset({"FOOL-SCORE-4", "FOOL-INV-9"}),  # going out as a fool counts as a +10: the tallies
}
REAL_BUG = frozenset({"FOOL-DEAL-1", "FOOL-INV-2"})  # a deal of 11 and 13 cards accepted


@pytest.fixture(scope="module")
def report() -> GameReport:
    return certify_game(CheckedEngine(fool.engine(*fool.HOUSE["pub_league"].bugs)), "fool", PROFILES["ci"])


def test_five_deviations_each_under_its_own_clause(report: GameReport) -> None:
    groups = [frozenset(d.clauses) for d in report.deviations()]
    assert len(groups) == 5, [d.label for d in report.deviations()]
    assert set(groups) == HOUSE | {REAL_BUG}
    assert sorted(d.clause for d in report.deviations()) == sorted(
        ["FOOL-TURN-2", "FOOL-TURN-1", "FOOL-SCORE-3", "FOOL-SCORE-4", "FOOL-DEAL-1"]
    )
    assert report.consequences() == [], [d.label for d in report.consequences()]
    failed = {c for c, s in report.clauses.items() if s == "fail"}
    assert failed == set().union(*groups)
    assert report.broken is None and not report.check_errors


def test_the_invariant_goes_with_each_scoring_rule_on_the_part_it_observed(report: GameReport) -> None:
    by_head = {d.clause: d for d in report.deviations()}
    for head, part, atom in (("FOOL-SCORE-3", "scores", "scores:"), ("FOOL-SCORE-4", "tallies", "tens:")):
        inv9 = [f for f in by_head[head].failures if f.finding.clause == "FOOL-INV-9"]
        assert inv9 and all(f.finding.rule in (part, "penalty sums") for f in inv9), [f.finding.rule for f in inv9]
        assert any(f.finding.rule == part for f in inv9)
        assert all(a.startswith((atom, "penalties:")) for f in by_head[head].failures for a in f.finding.observed)


def test_the_real_bug_stands_apart_from_the_house_rules(report: GameReport) -> None:
    bug = next(d for d in report.deviations() if d.clause == "FOOL-DEAL-1")
    assert frozenset(bug.clauses) == REAL_BUG and not bug.follows
    accepted = next(f for f in bug.failures if f.finding.clause == "FOOL-DEAL-1")
    assert accepted.finding.rule == "accepted"
    sizes = next(f for f in bug.failures if f.finding.clause == "FOOL-INV-2")
    assert any(a.endswith(":size") for a in sizes.finding.observed)  # the hands the bad deal left
    house = set().union(*HOUSE)
    assert not house & set(bug.clauses)
    # and the two deviations of one deal step stay apart: the dealer, and who leads
    turn = [d for d in report.deviations() if d.clause in ("FOOL-TURN-1", "FOOL-TURN-2")]
    assert [set(d.clauses) for d in turn] in ([{"FOOL-TURN-1"}, {"FOOL-TURN-2"}], [{"FOOL-TURN-2"}, {"FOOL-TURN-1"}])
