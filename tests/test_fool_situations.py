"""Fool's readings per player and disc count (issue 28 item 5): an engine that declares only some player
counts has the clauses whose reading depends on the count reported ``partial``, the counts (and the
disc count, the hand size, the deck size) it never played named, never a plain ``pass``."""

from __future__ import annotations

from ruleproof.model.engine import JSONObject
from ruleproof.reference import ReferenceEngine, rules_for
from ruleproof.run.runner import PROFILES, certify_game
from ruleproof.transport.checked import CheckedEngine


class FourAndFive(ReferenceEngine):
    """The reference, declaring 4 and 5 players only (a correct engine of a smaller table)."""

    def __init__(self) -> None:
        super().__init__([rules_for("fool")])

    def hello(self) -> JSONObject:
        out = super().hello()
        out["games"]["fool"]["players"] = [4, 5]
        return out


def test_the_player_counts_an_engine_does_not_declare_are_named_as_unjudged() -> None:
    report = certify_game(CheckedEngine(FourAndFive()), "fool", PROFILES["dev"], seed=1)
    assert not [c for c, s in report.clauses.items() if s == "fail"]
    missing = {
        "FOOL-SETUP-1": ["6 players", "7 players", "8 players"],
        "FOOL-SETUP-3": ["6 players", "7 players", "8 players"],
        "FOOL-SETUP-4": ["88 cards at 8 players"],
        "FOOL-SETUP-5": ["2 discs"],
        "FOOL-DEAL-1": ["11 cards each"],
    }
    for clause, names in missing.items():
        assert report.clauses[clause] == "partial", (clause, report.clauses[clause])
        assert report.missing(clause) == names, (clause, report.missing(clause))
    assert report.verdict == "pass"  # partial is said, and is no failure
