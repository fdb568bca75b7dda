"""The session reads every answer of a drivable engine as a finding, never as a break (issue 20).

An error of the wrong kind (``internal`` above all) to a probe is CONTRACT-ERROR-1; to a move the
engine listed itself, CONTRACT-MOVES-2; in every case the state must be unchanged (CONTRACT-REJECT-1)
and the run goes on.  The contract clauses that compare states look only at the contract's fields.
"""

from __future__ import annotations

from typing import Any

import pytest

from ruleproof.model.engine import IllegalMove, InternalError, JSONObject, Move, State, error_from_wire
from ruleproof.model.findings import Finding, Setup
from ruleproof.properties import properties_for
from ruleproof.properties.base import Ledger
from ruleproof.reference import ReferenceEngine, rules_for
from ruleproof.run.runner import PROFILES, certify_game
from ruleproof.run.session import Session
from ruleproof.transport.checked import CheckedEngine
from tests.house_rules import answers


def session_of(engine: Any, game: str) -> tuple[Session, list[Finding]]:
    found: list[Finding] = []
    session = Session(CheckedEngine(engine), properties_for(game), Ledger(), lambda f, _: found.append(f))
    return session, found


class InternalOnEveryMove(ReferenceEngine):
    """Answers `internal` to every move after the deal, state unchanged."""

    def apply(self, move: Move) -> State:
        if move.get("type") != "deal":
            raise InternalError("boom")
        return super().apply(move)


def started(engine: Any) -> tuple[Session, list[Finding]]:
    session, found = session_of(engine, "black-maria")
    session.start(Setup("black-maria", 4, 0, {"scoring": "standard", "target": 100}))
    hands = [[c for i, c in enumerate(rules_for("black-maria").deck(4)) if i % 4 == s] for s in range(4)]
    assert session.apply({"type": "deal", "hands": hands})
    return session, found


def test_an_internal_answer_to_a_probe_is_contract_error_1_and_the_state_is_checked() -> None:
    session, found = started(InternalOnEveryMove([rules_for("black-maria")]))
    assert session.snap is not None
    before = session.snap
    session.reject({"type": "play", "card": "2C"}, "BM-PASS-1")
    assert [f.clause for f in found] == ["CONTRACT-ERROR-1"]
    assert found[0].got == "internal" and "boom" in found[0].message
    assert session.ledger.hits["CONTRACT-REJECT-1"] == 1  # judged unchanged, and it was
    assert session.snap is before


def test_an_internal_answer_to_a_listed_move_is_contract_moves_2() -> None:
    session, found = started(InternalOnEveryMove([rules_for("black-maria")]))
    assert session.snap is not None
    assert not session.apply(session.snap.moves[0], listed=True)
    assert [f.clause for f in found] == ["CONTRACT-MOVES-2"]
    assert session.ledger.hits["CONTRACT-REJECT-1"] == 1


def test_an_exception_in_process_is_the_engines_internal_answer() -> None:
    class Raises(ReferenceEngine):
        def apply(self, move: Move) -> State:
            if move.get("type") == "pass":
                raise KeyError(move["cards"][0])
            return super().apply(move)

    session, found = started(Raises([rules_for("black-maria")]))
    assert session.snap is not None
    assert not session.apply(session.snap.moves[0], listed=True)
    assert [(f.clause, f.got) for f in found] == [("CONTRACT-MOVES-2", "internal")]
    assert "KeyError" in found[0].message


def test_an_error_from_legal_moves_is_contract_phase_1() -> None:
    class NoMoves(ReferenceEngine):
        def legal_moves(self) -> list[Move]:
            if self.state()["phase"] == "pass":
                raise InternalError("cannot list passes")
            return super().legal_moves()

    session, found = started(NoMoves([rules_for("black-maria")]))
    assert session.snap is not None and session.snap.moves == ()
    assert {f.clause for f in found} == {"CONTRACT-PHASE-1"}
    assert any("legal_moves answered internal" in f.message for f in found)


class WithExtensions(ReferenceEngine):
    """The reference plus fields of its own: a game id, a call counter and the last error."""

    def __init__(self, rules: Any) -> None:
        super().__init__(rules)
        self.calls = 0
        self.last_error: str | None = None

    def _extended(self, state: State) -> State:
        self.calls += 1
        return {**state, "game_id": self.calls // 50, "calls": self.calls, "last_error": self.last_error}

    def new_game(self, game: str, players: int, dealer: int, options: JSONObject) -> State:
        return self._extended(super().new_game(game, players, dealer, options))

    def apply(self, move: Move) -> State:
        try:
            return self._extended(super().apply(move))
        except Exception as err:
            self.last_error = str(err)
            raise

    def state(self) -> State:
        return self._extended(super().state())


@pytest.mark.parametrize("game", ["black-maria", "moon"])
def test_extension_fields_never_decide_a_contract_clause(game: str) -> None:
    report = certify_game(CheckedEngine(WithExtensions([rules_for(game)])), game, PROFILES["dev"], seed=3)
    assert report.clauses["CONTRACT-DET-1"] == "pass"
    assert report.clauses["CONTRACT-REJECT-1"] == "pass"
    assert not report.failures, [f.finding.clause for f in report.failures]


def test_an_engine_that_crashes_on_a_repeated_card_gets_every_verdict() -> None:
    report = certify_game(CheckedEngine(answers.crashes_on_repeated_card()), "black-maria", PROFILES["ci"])
    assert report.broken is None and not report.interrupted
    assert {c for c, s in report.clauses.items() if s == "fail"} == {"CONTRACT-ERROR-1"}
    failure = report.failure("CONTRACT-ERROR-1")
    assert failure is not None and failure.confirmed
    assert failure.trace.events[-1].kind == "reject"  # the probe is the counterexample
    assert not [c for c, s in report.clauses.items() if s == "untested"]


def test_a_ladder_past_the_ace_is_judged_not_broken() -> None:
    report = certify_game(CheckedEngine(answers.ladder_past_ace()), "idiot", PROFILES["ci"])
    assert report.broken is None
    assert {c for c, s in report.clauses.items() if s == "fail"} == {"IDIOT-OPEN-3"}
    assert len([c for c, s in report.clauses.items() if s == "untested"]) <= 2


class RefusesEveryDeal(ReferenceEngine):
    """Refuses every deal, citing the clause it is built with (or none)."""

    def __init__(self, cites: str | None) -> None:
        super().__init__([rules_for("black-maria")])
        self.cites = cites

    def apply(self, move: Move) -> State:
        if move.get("type") == "deal":
            raise IllegalMove(self.cites, "not the deck I know")
        return super().apply(move)


@pytest.mark.parametrize(
    ("cites", "filed"),
    [
        ("BM-SETUP-1", "BM-SETUP-1"),
        (None, "BM-DEAL-1"),
        ("NOT-A-CLAUSE", "BM-DEAL-1"),
        ("CONTRACT-ERROR-1", "BM-DEAL-1"),
    ],
)
def test_a_refused_lawful_deal_is_filed_under_the_rule_the_engine_cites(cites: str | None, filed: str) -> None:
    session, found = session_of(RefusesEveryDeal(cites), "black-maria")
    session.start(Setup("black-maria", 4, 0, {"scoring": "standard", "target": 100}))
    hands = [[c for i, c in enumerate(rules_for("black-maria").deck(4)) if i % 4 == s] for s in range(4)]
    assert not session.apply({"type": "deal", "hands": hands})
    assert [f.clause for f in found] == [filed]


def test_an_illegal_move_names_its_clause_once_across_the_wire() -> None:
    sent = IllegalMove("BM-FOLLOW-1", "QS revokes")
    back = error_from_wire(sent.to_error())
    assert isinstance(back, IllegalMove) and back.clause == "BM-FOLLOW-1"
    assert back.message == sent.message == "BM-FOLLOW-1: QS revokes"
