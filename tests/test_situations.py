"""Situations (issue 10): the reference reaches every reading of every clause at ci, and a clause
judged without all of its situations is reported ``partial``, never a plain ``pass``."""

from __future__ import annotations

import pytest

from ruleproof.model.certificate import Certificate
from ruleproof.model.report import GameReport
from ruleproof.output.junit import junit_xml
from ruleproof.properties import available_games, properties_for
from ruleproof.properties.base import Ledger
from ruleproof.run.runner import PROFILES, _passed, certify_game
from ruleproof.run.setup_probes import defaults, forbidden, probes


@pytest.mark.parametrize("game", available_games())
def test_reference_reaches_every_situation(game: str, reference) -> None:
    report = certify_game(reference(game), game, PROFILES["ci"])
    declared = properties_for(game).situations
    assert declared, f"{game} names no situations"
    # the reference declares every house rule: its pairs of interacting values are situations too
    assert declared.keys() <= report.situations.keys()
    missing = {clause: report.missing(clause) for clause in report.situations if report.missing(clause)}
    assert not missing, f"situations the reference never reached at ci: {missing}"
    assert all(report.clauses[c] == "pass" for c in report.situations)
    assert report.clauses["CONTRACT-SETUP-2"] == "pass" and report.clauses["CONTRACT-SETUP-3"] == "pass"


def test_a_clause_missing_a_situation_is_partial() -> None:
    props = properties_for("moon")
    ledger = Ledger()
    ledger.situation("MOON-SCORE-1", "failed")
    ledger.situation("MOON-SCORE-1", "made-exactly")
    assert _passed(props, ledger, "MOON-SCORE-1") == "partial"
    ledger.situation("MOON-SCORE-1", "overtricks")
    assert _passed(props, ledger, "MOON-SCORE-1") == "pass"
    assert _passed(props, ledger, "MOON-BID-1") == "pass"  # a clause without situations


def test_partial_is_named_in_the_report_and_junit() -> None:
    report = GameReport(
        "moon",
        clauses={"MOON-SCORE-1": "partial"},
        situations={"MOON-SCORE-1": {"made-exactly": 3, "overtricks": 0, "failed": 9}},
    )
    assert report.missing("MOON-SCORE-1") == ["overtricks"]
    cert = Certificate({"name": "fake", "version": "0"}, "ci", None, (report,))
    assert "overtricks" in junit_xml(cert)
    entry = cert.to_json()["games"]["moon"]["clauses"]["MOON-SCORE-1"]
    assert entry["status"] == "partial" and entry["missing"] == ["overtricks"] and entry["situations"]["failed"] == 9


def test_setup_probes_are_forbidden_by_the_contract_and_defaults_are_declared() -> None:
    declared = {"players": [3], "options": {"all_pass": ["redeal"], "target": {"min": 1, "max": 21}}}
    sent = probes("moon", declared)
    assert {what for _, what in sent} >= {"unknown option no_such_option", "target: '1'", "target: True", "target: 22"}
    for setup, what in sent:
        assert any(forbidden("moon", k, v) for k, v in setup.options.items()), what
    assert forbidden("moon", "target", 21) is None and forbidden("idiot", "ten_anytime", "true") is not None
    assert defaults("black-maria", 4, {"scoring": "spot"})["target"] == 500
    assert defaults("idiot", 7, {})["decks"] == 3


def test_overtricks_scored_is_killed_by_the_properties_alone() -> None:
    """Bids weighted low and hands steered to the declarer give overtricks without a fixture."""
    from ruleproof.transport.checked import CheckedEngine
    from tests.mutants import all_mutants

    mutant = next(m for m in all_mutants() if m.name == "OvertricksScored")
    report = certify_game(
        CheckedEngine(mutant.engine()), "moon", PROFILES["ci"], stop_after=mutant.clause, fixtures=False
    )
    assert [f.source for f in report.failures if f.finding.clause == "MOON-SCORE-1"] == ["properties"]


class OnlyToHundred:
    """The reference Black Maria declaring only the standard scheme and a target of 100 (a real Hearts engine)."""

    def __init__(self) -> None:
        from ruleproof.reference import ReferenceEngine, rules_for

        self.inner = ReferenceEngine([rules_for("black-maria")])

    def hello(self) -> dict:
        hello = self.inner.hello()
        games = {
            "black-maria": {**hello["games"]["black-maria"], "options": {"scoring": ["standard"], "target": [100]}}
        }
        return {**hello, "games": games}

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


def test_an_engine_that_only_plays_to_100_has_its_game_end_judged() -> None:
    from ruleproof.transport.checked import CheckedEngine

    report = certify_game(CheckedEngine(OnlyToHundred()), "black-maria", PROFILES["ci"], fixtures=False)
    assert not report.failures
    # the long examples (one in four) play whole games to 100: every game-end reading is reached
    assert {c: report.clauses[c] for c in ("BM-END-1", "BM-END-2", "CONTRACT-OVER-1")} == {
        "BM-END-1": "pass",
        "BM-END-2": "pass",
        "CONTRACT-OVER-1": "pass",
    }
    with_fixtures = certify_game(CheckedEngine(OnlyToHundred()), "black-maria", PROFILES["ci"])
    assert with_fixtures.clauses["BM-END-1"] == "pass" and not with_fixtures.missing("BM-END-2")


def test_covering_plays_every_pair_of_interacting_values_in_a_few_rows() -> None:
    from itertools import product

    from ruleproof.properties.options import covering

    values = {"a": ["x", "y", "z"], "b": [False, True], "c": [1, 2, 3], "d": ["p", "q"]}
    pairs = [("a", "b"), ("b", "c"), ("a", "c")]
    rows = covering(values, pairs)
    for one, other in pairs:
        for v, w in product(values[one], values[other]):
            assert any(r[one] == v and r[other] == w for r in rows), (one, v, other, w)
    assert all(any(r["d"] == v for r in rows) for v in values["d"])  # every value of an option that pairs with none
    assert len(rows) < len(list(product(*values.values()))) // 3  # not the full product
    assert rows == covering(values, pairs)  # the same rows every time


def test_an_idiot_engine_of_one_deck_count_is_partial_on_the_pool() -> None:
    # issue 28 item 5: an engine that declares one deck only never shows identical cards; the pool and the
    # draw pile are judged for one of their two tables, and the other is named missing
    props = properties_for("idiot")
    ledger = Ledger()
    for clause in ("IDIOT-SETUP-2", "IDIOT-DEAL-2"):
        ledger.situation(clause, "1 deck")
        assert _passed(props, ledger, clause) == "partial"
    report = GameReport(
        "idiot",
        clauses={"IDIOT-SETUP-2": "partial"},
        situations={"IDIOT-SETUP-2": {"1 deck": 12, "several decks": 0}},
    )
    assert report.missing("IDIOT-SETUP-2") == ["several decks"]
    ledger.situation("IDIOT-SETUP-2", "several decks")
    assert _passed(props, ledger, "IDIOT-SETUP-2") == "pass"
