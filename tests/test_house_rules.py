"""Engines with several house rules at once are judged on every clause in one ci run.

The runner records each violation and lets the game go on from the engine's
own state, so: every deviation is reported, an invariant broken after an
earlier failure still fails, and (nearly) nothing stays untested.
"""

from __future__ import annotations

import pytest

from ruleproof.model.report import GameReport
from ruleproof.run.runner import PROFILES, certify_game
from ruleproof.transport.checked import CheckedEngine
from tests.house_rules import black_maria, idiot
from tests.independent import idiot as independent_idiot


def certify(engine: object, game: str) -> GameReport:
    return certify_game(CheckedEngine(engine), game, PROFILES["ci"])  # type: ignore[arg-type]


# one xdist worker certifies the Black Maria engine once for all the tests that read its report
BM = pytest.mark.xdist_group("house-rules-black-maria")


@pytest.fixture(scope="module")
def black_maria_report() -> GameReport:
    return certify(black_maria.engine(), "black-maria")


# The three house rules and what follows from each, clause by clause:
BLACK_MARIA_FAILS = {
    "BM-LEAD-1",  # the 2C holder leads
    "BM-SCORE-4",
    "BM-INV-5",
    "BM-INV-6",  # a moon shot scores -26: the round sums to -26, a total falls
    "BM-INV-7",  # ... so a game can outlast ceil(target*n/T) rounds
    "BM-PASS-1",  # ["AD", "AD", "AD"] is accepted
    "BM-INV-1",  # ... and the receiver holds three ADs: conservation
    "BM-INV-2",  # ... a pass applied that is not three distinct cards, hands of unequal size after it
    "CONTRACT-MOVES-1",  # a hand with three ADs lists "play AD" three times (the list, as a set, is right)
    "CONTRACT-PHASE-1",  # hands of unequal size: a seat to act with no card left
}


@BM
def test_black_maria_house_rules_fail_exactly_their_clauses(black_maria_report: GameReport) -> None:
    r = black_maria_report
    failed = {c for c, s in r.clauses.items() if s == "fail"}
    assert failed == BLACK_MARIA_FAILS
    assert all(f.confirmed for f in r.failures), [f.finding.clause for f in r.failures if not f.confirmed]
    assert r.broken is None and not r.check_errors


@BM
def test_a_failing_engine_makes_at_most_2_5_calls_a_step_minimizing_at_most_a_fifth(
    black_maria_report: GameReport,
) -> None:
    # in process as behind a pipe without `moves`: two calls a step to explore, the rest shared out (Profile)
    stats = black_maria_report.stats
    assert stats["calls"] <= 2.5 * stats["steps"], stats
    assert stats["minimize_calls"] <= stats["calls"] / 5, stats


@BM
def test_each_house_rule_is_one_deviation_and_what_it_drags_along_follows_it(black_maria_report: GameReport) -> None:
    r = black_maria_report
    # three deviations, one per house rule, each with what broke in the same step and observed the same
    # difference (the same cards, the same scores)
    assert [d.clause for d in r.deviations()] == ["BM-LEAD-1", "BM-SCORE-4", "BM-PASS-1"]
    assert {frozenset(d.clauses) for d in r.deviations()} == {
        frozenset({"BM-LEAD-1"}),  # the 2C holder leads: nothing else breaks
        frozenset({"BM-SCORE-4", "BM-INV-5", "BM-INV-6"}),  # the moon shot's -26: one difference, the scores
        frozenset({"BM-PASS-1", "BM-INV-1", "BM-INV-2", "CONTRACT-MOVES-1"}),  # three ADs passed and listed
    }
    moon = r.failure("BM-SCORE-4")
    assert moon is not None and set(moon.with_clauses) == {"BM-INV-5", "BM-INV-6"} and not moon.follows
    assert moon.finding.rule == "moon" and "scores:" in " ".join(moon.finding.observed)
    # the consequences, each marked with what it follows: never a deviation of its own.  Totals that fall
    # make a game outlast its rounds (INV-7 reads the round and the scores the moon shot made wrong); a
    # hand of three ADs and another that runs out early: a seat to act with no card (the hands' sizes)
    assert [d.clauses for d in r.consequences()] == [("BM-INV-7",), ("CONTRACT-PHASE-1",)]
    assert set(r.follows("BM-INV-7")) <= {"BM-SCORE-4", "BM-INV-5", "BM-INV-6"}, r.follows("BM-INV-7")
    assert {"BM-PASS-1", "BM-INV-1", "BM-INV-2"} & set(r.follows("CONTRACT-PHASE-1")), r.follows("CONTRACT-PHASE-1")


@BM
def test_an_invariant_broken_after_an_earlier_failure_still_fails(black_maria_report: GameReport) -> None:
    # the duplicated pass is first BM-PASS-1; the 54 cards it leaves must still fail conservation
    first = {f.finding.clause: f.seconds for f in black_maria_report.failures}
    assert first["BM-PASS-1"] <= first["BM-INV-1"]
    conservation = black_maria_report.failure("BM-INV-1")
    assert conservation is not None and conservation.violations > 1, "an invariant is never switched off"
    # and one step can fail several clauses: the moon shot fails SCORE-4, INV-5 and INV-6 together
    moon = {c: black_maria_report.failure(c) for c in ("BM-SCORE-4", "BM-INV-5", "BM-INV-6")}
    assert all(f is not None for f in moon.values())


@BM
def test_nothing_applicable_stays_untested(black_maria_report: GameReport) -> None:
    untested = [c for c, s in black_maria_report.clauses.items() if s == "untested"]
    assert len(untested) <= 2, untested


@BM
def test_probing_keeps_its_share_on_a_failing_engine(black_maria_report: GameReport) -> None:
    stats = black_maria_report.stats
    assert stats["probes"] >= stats["steps"] // 16, stats  # about 1 step in 8 probes, failures or not


def test_idiot_house_rules_declared_leave_only_the_one_no_option_expresses() -> None:
    """tests/house_rules/idiot.py: an 8 skips and a Q reverses, both declared (``eight_skips``, ``reverse``);
    on a 9 only 3, 5, 7 and 9 may be played, which no option expresses."""
    r = certify(idiot.engine(), "idiot")
    assert r.broken is None and not r.check_errors
    # the declared house rules are judged, and pass: the 8s and the queens are played and the turns checked
    assert r.clauses["IDIOT-EIGHT-1"] == "pass" and r.clauses["IDIOT-REVERSE-1"] == "pass"
    assert r.clauses["IDIOT-INV-7"] == "pass"
    # one deviation: on a 9 the 2 (IDIOT-TWO-1), the 10 (IDIOT-BURN-10), the transparent rank it inherits the
    # declaration of (IDIOT-TRANSPARENT-1: on anything) and the higher ranks (IDIOT-PLAY-2, a comparison no order
    # of the ranks explains, never IDIOT-RANK-1) are refused, and 3, 5, 7 taken: one rule of the top, every
    # difference of one state observing it; a blind 3 taken on a 9 is that card's verdict, and the rank below
    # the top it leaves on the pile its consequence (IDIOT-INV-8 is not judged on it)
    devs = r.deviations()
    assert [(set(d.clauses), d.cause) for d in devs] == [
        ({"IDIOT-PLAY-2", "IDIOT-TWO-1", "IDIOT-BURN-10", "IDIOT-TRANSPARENT-1"}, "9 unlike any order")
    ], [(d.clauses, d.cause) for d in devs]
    assert r.clauses["IDIOT-INV-8"] == "pass"
    assert r.consequences() == []
    assert {c for c, s in r.clauses.items() if s == "fail"} == set(devs[0].clauses)
    untested = [c for c, s in r.clauses.items() if s == "untested"]
    assert len(untested) <= 2, untested
    # the deviation's clean counterexample, minimized with a budget of engine calls, fits in a few turns
    assert devs[0].head.steps <= 12, devs[0].head.steps
    seconds = [f.seconds for f in r.failures]
    assert seconds == sorted(seconds)  # reported in the order first seen, though minimized shallowest first


def test_an_idiot_engine_with_five_deviations_reads_as_five() -> None:
    """tests/independent/idiot.py ``house.py_shithead``: the draw comes before the play leaves the hand (from the
    first play of every game: whatever follows comes after it in time), a 3 is transparent (declared:
    ``transparent: "3"``, judged by IDIOT-TRANSPARENT-1), an 8 skips, a queen reverses, and the opening ladder
    crashes past the ace (its one real bug)."""
    r = certify(independent_idiot.house.py_shithead(), "idiot")
    assert r.broken is None and not r.check_errors
    # the transparent 3, declared, is judged by its own clause and played right: no rank rule fails any more
    assert r.clauses["IDIOT-TRANSPARENT-1"] == "pass" and r.clauses["IDIOT-PLAY-2"] == "pass"
    devs = r.deviations()
    got = {
        (frozenset(d.clauses), d.cause if d.head.finding.rule or d.clause.startswith("CONTRACT") else "") for d in devs
    }
    # an 8 that skips in the opener's own turn with two players keeps the turn with the opener, the dealer's left:
    # the opening's dealer's-left reading (IDIOT-OPEN-2) gives that same seat, and one turn cannot tell them apart
    # (the 8's skip read twice, when the exploration reaches it)
    twice = (frozenset({"IDIOT-OPEN-2"}), "")
    assert got - {twice} == {
        # the hand short after every play: the draw pile and the hand's size, and a chain judged on the cards the
        # rules would have drawn, in the same step
        (frozenset({"IDIOT-DRAW-1", "IDIOT-INV-5", "IDIOT-DRAW-3"}), ""),
        (frozenset({"IDIOT-INV-7"}), "skip"),
        (frozenset({"IDIOT-INV-7"}), "direction"),
        (frozenset({"CONTRACT-MOVES-2"}), "refused decline (internal)"),
    }, [(d.clauses, d.cause) for d in devs]
    if twice in got:
        kept = r.failure("IDIOT-OPEN-2")
        assert kept is not None and kept.states and kept.states[-1]["zones"]["discard"][-1][0] == "8"
    assert r.consequences() == []
    # the draw rule's deviation comes first in every game, and follows nothing
    draw = r.failure("IDIOT-DRAW-1")
    assert draw is not None and not draw.follows
    # the real bug stands apart: one crash, one finding, joined with nothing
    crash = next(d for d in devs if d.clause == "CONTRACT-MOVES-2")
    assert len(crash.failures) == 1 and not crash.head.with_clauses
    assert any(a.startswith("crash:") for a in crash.head.finding.observed)


@pytest.mark.parametrize(
    ("name", "clause"),
    [
        # a rank the rules forbid, taken on apply (an 8 under reverse "8" among them): the play still lands, so
        # the direction the later turns are judged in reverses with it; no turn is a second deviation
        ("RankUncheckedOnApply", "IDIOT-PLAY-2"),
        # a transparent card judged as itself: through it on a capping 7, on a 2, or on an ordinary card (a
        # listing, a blind card, a difference held until the other way round is seen): its one rule
        ("TransparentJudgedItself", "IDIOT-TRANSPARENT-1"),
    ],
)
def test_one_misjudged_rule_with_house_rules_declared_is_one_deviation(name: str, clause: str) -> None:
    from tests.mutants import idiot as mutants

    r = certify(getattr(mutants, name).engine(), "idiot")
    assert r.broken is None and not r.check_errors
    devs = r.deviations()
    assert [d.clause for d in devs] == [clause], [(d.clauses, d.cause) for d in devs]
    assert r.consequences() == []
