"""The smoke stage (ruleproof/run/smoke.py): broken only when the engine cannot be driven; what its
scripted exchanges show about the rules is a clause finding like any other."""

from __future__ import annotations

from typing import Any

import pytest

from ruleproof.model.engine import AdapterBroken, BadRequest, JSONObject, Move, State, Unsupported
from ruleproof.model.findings import Finding
from ruleproof.properties.base import Ledger
from ruleproof.reference import ReferenceEngine, rules_for
from ruleproof.run.smoke import smoke
from ruleproof.transport.checked import CheckedEngine


def run_smoke(engine: Any, game: str = "black-maria") -> tuple[list[Finding], Ledger]:
    found: list[Finding] = []
    ledger = Ledger()
    smoke(CheckedEngine(engine), game, ledger, lambda f, _: found.append(f))
    return found, ledger


class DeclaresNothing(ReferenceEngine):
    def hello(self) -> JSONObject:
        return {**super().hello(), "games": {}}


class RefusesEverySetup(ReferenceEngine):
    def new_game(self, game: str, players: int, dealer: int, options: JSONObject) -> State:
        raise Unsupported("no table today")


class UnknownMoveIsBadRequest(ReferenceEngine):
    def apply(self, move: Move) -> State:
        if move.get("type") == "no-such-move":
            raise BadRequest("unknown move type")
        return super().apply(move)


class AcceptsAnyDeal(ReferenceEngine):
    """Takes every deal without looking at it: deals the reference with its own cards."""

    def apply(self, move: Move) -> State:
        if move.get("type") == "deal" and self.state()["phase"] == "deal":
            players = self.state()["players"]
            deck = rules_for("black-maria").deck(players)
            hands = [[c for i, c in enumerate(deck) if i % players == s] for s in range(players)]
            return super().apply({"type": "deal", "hands": hands})
        return super().apply(move)


def test_a_correct_engine_passes_the_smoke_stage_without_a_finding() -> None:
    found, ledger = run_smoke(ReferenceEngine([rules_for("black-maria")]))
    assert found == []
    assert ledger.hits["CONTRACT-ERROR-1"] > 0 and ledger.hits["BM-DEAL-1"] > 0  # probes judged


def test_hello_declaring_no_game_is_broken() -> None:
    with pytest.raises(AdapterBroken) as info:
        run_smoke(DeclaresNothing())
    assert info.value.kind == "hello"


def test_a_game_the_engine_does_not_declare_is_unsupported_not_broken() -> None:
    with pytest.raises(Unsupported):
        run_smoke(ReferenceEngine([rules_for("moon")]))


def test_refusing_every_declared_setup_is_broken_with_what_was_sent() -> None:
    with pytest.raises(AdapterBroken) as info:
        run_smoke(RefusesEverySetup([rules_for("black-maria")]))
    assert info.value.kind == "smoke" and "no table today" in info.value.message
    assert isinstance(info.value.sent, dict) and info.value.sent["method"] == "new_game"


def test_an_unknown_move_answered_bad_request_is_contract_error_1() -> None:
    found, _ = run_smoke(UnknownMoveIsBadRequest([rules_for("black-maria")]))
    assert [f.clause for f in found] == ["CONTRACT-ERROR-1"]
    assert found[0].got == "bad_request"


def test_a_wrong_deal_accepted_is_a_finding_under_the_deal_clause_and_the_stage_ends() -> None:
    found, _ = run_smoke(AcceptsAnyDeal([rules_for("black-maria")]))
    assert found and {f.clause for f in found} <= {"BM-DEAL-1", "CONTRACT-REJECT-1", "BM-INV-1"}
    assert found[0].clause == "BM-DEAL-1"
