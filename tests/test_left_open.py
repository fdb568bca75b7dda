"""Never fail a correct engine for a choice the contract leaves open (protocol.md §8): each choice of
tests/house_rules/left_open.py certifies every game with every clause passed or unreached."""

from __future__ import annotations

import pytest

from ruleproof import GAMES
from ruleproof.run.runner import PROFILES, certify_game
from ruleproof.transport.checked import CheckedEngine
from tests.house_rules.left_open import CHOICES


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("choice", CHOICES, ids=[c.__name__ for c in CHOICES])
def test_a_choice_the_contract_leaves_open_fails_no_clause(game: str, choice: type) -> None:
    report = certify_game(CheckedEngine(choice()), game, PROFILES["dev"], seed=1)
    failing = {c: s for c, s in report.clauses.items() if s == "fail"}
    assert not failing, [f"{f.finding.clause}: {f.finding.message}" for f in report.failures]
    assert report.verdict == "pass" and not report.check_errors
