"""Deviations counted as a person counts them (issue 28): what each failure observed decides what is
one deviation (``with``), what is a consequence (``follows``), and how failures group
(``GameReport.deviations``)."""

from __future__ import annotations

from typing import Any

from ruleproof.model.engine import Move
from ruleproof.model.findings import Event, Finding, Trace
from ruleproof.model.observed import card, listed, moves, overlaps, score, size, zone
from ruleproof.model.report import Failure, GameReport, Kill, deviations_of
from ruleproof.reference.base import ReferenceEngine
from ruleproof.reference.black_maria import BlackMaria
from ruleproof.run.runner import PROFILES, certify_game
from ruleproof.transport.checked import CheckedEngine


def test_atoms_overlap_when_one_is_part_of_the_other() -> None:
    assert overlaps({"scores"}, {score(2)}) and overlaps({zone("hand/1")}, {size("hand/1")})
    assert not overlaps({zone("hand/1")}, {zone("hand/10")}) and not overlaps({"to_act"}, {"moves"})
    assert overlaps({"moves"}, {listed({"type": "play", "card": "AH"})})
    assert listed({"type": "pass", "cards": ["4C", "2C", "3C"]}) == "moves:pass:2C,3C,4C"
    assert moves([{"type": "play", "card": c} for c in ["2C"] * 1 + [f"{r}H" for r in "23456789TJQKA"] * 2]) != {
        "moves"
    }
    assert overlaps({card("AD")}, {card("AD"), zone("passing/1")})


def failure(
    clause: str, sig: str = "c:x", *, with_: tuple[str, ...] = (), sigs: tuple[str, ...] = (), **kw: Any
) -> Failure:
    finding = Finding(
        clause, f"{clause} broke", signature=sig, observed=frozenset(kw.get("observed", ())), rule=kw.get("rule", "")
    )
    trace = Trace("black-maria", (Event("new_game", {}),), finding)
    return Failure(
        finding, trace, "properties", True, 0.0, with_clauses=with_, follows=kw.get("follows", ()), with_signatures=sigs
    )


def test_with_joins_one_difference_read_from_either_side_and_nothing_more() -> None:
    moon = failure("BM-SCORE-4", "s:moon", with_=("BM-INV-5",), sigs=("s:total",), rule="moon")
    total = failure("BM-INV-5", "s:total")  # names nothing itself: joined from SCORE-4's side
    lead = failure("BM-LEAD-1", "l:first")
    groups = deviations_of((moon, total, lead))
    assert [d.clauses for d in groups] == [("BM-SCORE-4", "BM-INV-5"), ("BM-LEAD-1",)]
    assert groups[0].clause == "BM-SCORE-4"  # a rule heads the invariants it broke with


def test_two_rules_of_one_clause_are_two_deviations_and_one_rule_is_one() -> None:
    first = failure("BM-LEAD-2", "l:first lead:x", rule="first lead")
    hearts = failure("BM-LEAD-2", "l:hearts broken:x", rule="hearts broken")
    across = failure("BM-PASS-3", "p:passed across")
    hold = failure("BM-PASS-3", "b:no pass")  # the same rotation, seen in a hold round
    report = GameReport(
        "black-maria", clauses={"BM-LEAD-2": "fail", "BM-PASS-3": "fail"}, failures=(first, hearts, across, hold)
    )
    assert [d.clauses for d in report.deviations()] == [("BM-LEAD-2",), ("BM-LEAD-2",), ("BM-PASS-3",)]
    assert [d.label for d in report.deviations()] == [
        "BM-LEAD-2 (first lead)",
        "BM-LEAD-2 (hearts broken)",
        "BM-PASS-3",
    ]


def test_a_forbidden_move_taken_heads_what_it_broke_and_consequences_stay_apart() -> None:
    inv = failure("BM-INV-2", "i:x", with_=("BM-PASS-1",), sigs=("contract:accepted:pass",))
    taken = failure("BM-PASS-1", "contract:accepted:pass", rule="accepted")
    left = failure("BM-PASS-1", "p:passed left")  # the same clause, another rule: its own deviation
    stuck = failure("CONTRACT-PHASE-1", "contract:stuck", follows=("BM-INV-2",))
    report = GameReport(
        "black-maria",
        clauses={"BM-PASS-1": "fail", "BM-INV-2": "fail", "CONTRACT-PHASE-1": "fail"},
        failures=(inv, taken, left, stuck),
    )
    assert [(d.clause, d.clauses) for d in report.deviations()] == [
        ("BM-PASS-1", ("BM-PASS-1", "BM-INV-2")),
        ("BM-PASS-1", ("BM-PASS-1",)),
    ]
    assert report.deviations()[0].label == "BM-PASS-1 (accepted pass) with BM-INV-2"
    assert [(d.clauses, d.follows) for d in report.consequences()] == [(("CONTRACT-PHASE-1",), ("BM-INV-2",))]
    assert Kill.of(report, "BM-PASS-1").marked and not Kill.of(report, "BM-PASS-1").clean
    entry = report.to_json()["deviations"][0]
    assert entry["clause"] == "BM-PASS-1" and entry["failures"] == [0, 1]


class CrashesOnHearts(BlackMaria):
    """Any play of a heart raises, listed or not: one crash, whatever request shows it."""

    def apply(self, state: Any, move: Move) -> Any:
        if move.get("type") == "play" and str(move.get("card", "")).endswith("H"):
            raise KeyError(move["card"])
        return super().apply(state, move)


def test_one_crash_is_one_deviation_whichever_request_showed_it() -> None:
    report = certify_game(CheckedEngine(ReferenceEngine([CrashesOnHearts()])), "black-maria", PROFILES["dev"], seed=1)
    failing = {c for c, s in report.clauses.items() if s == "fail"}
    assert {"CONTRACT-MOVES-2", "CONTRACT-ERROR-1"} <= failing, failing
    crashes = [d for d in report.deviations() if {"CONTRACT-MOVES-2", "CONTRACT-ERROR-1"} & set(d.clauses)]
    assert len(crashes) == 1 and {"CONTRACT-MOVES-2", "CONTRACT-ERROR-1"} <= set(crashes[0].clauses), [
        d.clauses for d in report.deviations()
    ]
    assert any(a.startswith("crash:") for f in crashes[0].failures for a in f.finding.observed)
