"""Every property can fail: each mutant must be caught on the clause it breaks.

The mutant gallery (``tests/mutants``) holds the reference with one plausible
bug each.  Certification under the ``ci`` profile must report a failure of
the mutant's clause, confirmed by replaying the shrunk trace.
"""

from __future__ import annotations

import pytest

from ruleproof.properties import available_games
from ruleproof.run.runner import PROFILES, certify_game
from ruleproof.transport.checked import CheckedEngine
from tests.mutants import Mutant, all_mutants

MUTANTS = [m for m in all_mutants() if m.game in available_games()]


def test_every_game_has_a_gallery() -> None:
    for game in available_games():
        assert len([m for m in MUTANTS if m.game == game]) >= 10, game


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: f"{m.game}:{m.name}")
def test_mutant_is_killed_on_its_clause(mutant: Mutant) -> None:
    report = certify_game(CheckedEngine(mutant.engine()), mutant.game, PROFILES["ci"], stop_after=mutant.clause)
    assert report.broken is None, f"{mutant.name}: adapter reported broken: {report.broken}"
    failed = {f.finding.clause: f for f in report.failures}
    assert mutant.clause in failed, f"{mutant.name} ({mutant.description}) escaped; reported {list(failed)}"
    failure = failed[mutant.clause]
    assert failure.confirmed, f"{mutant.name}: the shrunk trace did not reproduce {mutant.clause}"
    assert failure.trace.events, "a failure carries its trace"
    assert report.clauses[mutant.clause] == "fail"
