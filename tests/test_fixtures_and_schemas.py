"""Fixtures are validated with precise messages; expectations can fail; schemas name fields."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ruleproof import GAMES
from ruleproof.model import schema
from ruleproof.model.engine import AdapterBroken, InternalError
from ruleproof.model.fixtures import Fixture, FixtureError, bundled, load_file
from ruleproof.model.games import SPECS
from ruleproof.properties import available_games, properties_for
from ruleproof.properties.base import Ledger
from ruleproof.reference import ReferenceEngine, rules_for
from ruleproof.run.fixtures import run_fixture, validate
from ruleproof.transport.checked import CheckedEngine


@pytest.mark.parametrize("game", GAMES)
def test_bundled_fixtures_are_valid(game: str) -> None:
    for fx in bundled(game):
        assert fx.game == game and fx.clauses
        validate(fx)  # what the schema cannot say: known clauses, moves of the game, holds_under's options and values


def test_a_malformed_fixture_names_the_field(tmp_path: Path) -> None:
    bad = {
        "id": "x",
        "game": "black-maria",
        "title": "t",
        "clauses": ["BM-FOLLOW-1"],
        "setup": {"players": "four", "dealer": 0},
        "steps": [{"apply": {"type": "deal"}}],
    }
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(FixtureError, match=r"setup\.players"):
        load_file(path)
    path.write_text("{not json")
    with pytest.raises(FixtureError, match="not JSON"):
        load_file(path)
    no_clause = {**bad, "setup": {"players": 4, "dealer": 0}, "steps": [{"reject": {"type": "play", "card": "2C"}}]}
    path.write_text(json.dumps(no_clause))
    with pytest.raises(FixtureError, match="steps"):
        load_file(path)


def wrong_dealer_fixture(focus: str) -> Fixture:
    return Fixture.parse(
        {
            "id": "wrong",
            "game": "black-maria",
            "title": "expects the wrong dealer",
            "clauses": [focus],
            "setup": {"players": 4, "dealer": 0, "options": {"scoring": "standard", "target": 100}},
            "steps": [{"expect": {"state": {"phase": "deal", "dealer": 2}}, "clause": "BM-DEAL-2"}],
        },
        "inline",
    )


def test_a_wrong_expectation_fails_on_its_clause() -> None:
    engine = CheckedEngine(ReferenceEngine([rules_for("black-maria")]))
    seen: list[str] = []
    result = run_fixture(
        wrong_dealer_fixture("BM-DEAL-2"),
        engine,
        properties_for("black-maria"),
        Ledger(),
        lambda finding, _: seen.append(finding.clause),
    )
    assert seen == ["BM-DEAL-2"], "the sink gets the finding too"
    assert result.status == "fail" and result.finding is not None
    assert result.finding.clause == "BM-DEAL-2"
    assert result.finding.expected == {"phase": "deal", "dealer": 2}
    assert result.finding.got == {"phase": "deal", "dealer": 0}


def test_an_expectation_outside_the_focus_leaves_the_fixture_blocked() -> None:
    # the finding is recorded under its own clause, and the fixture is no verdict on its focus
    engine = CheckedEngine(ReferenceEngine([rules_for("black-maria")]))
    seen: list[str] = []
    ledger = Ledger()
    result = run_fixture(
        wrong_dealer_fixture("BM-LEAD-1"),
        engine,
        properties_for("black-maria"),
        ledger,
        lambda f, _: seen.append(f.clause),
    )
    assert seen == ["BM-DEAL-2"]
    assert result.status == "blocked at step 1 by BM-DEAL-2"
    assert ledger.hits["BM-LEAD-1"] == 0, "a blocked fixture judges nothing of its focus"


def test_schema_errors_name_the_offending_field() -> None:
    engine = ReferenceEngine([rules_for("black-maria")])
    state = engine.new_game("black-maria", 4, 0, {})
    state["zones"]["hand/0"] = ["ZZ"]
    with pytest.raises(schema.SchemaError) as err:
        schema.check("black-maria", "state", state, "STATE")
    assert 'zones["hand/0"][0]' in str(err.value)


def test_an_in_process_exception_is_an_internal_answer_but_from_state_a_crash() -> None:
    # legal_moves, apply and new_game answer: an exception there is the engine's `internal` answer, a
    # finding the run goes on from; without hello or state the engine cannot be driven at all
    class Crashes(ReferenceEngine):
        def legal_moves(self):  # type: ignore[override]
            raise ZeroDivisionError("oops")

        def state(self):  # type: ignore[override]
            raise ZeroDivisionError("no state")

    engine = CheckedEngine(Crashes([rules_for("black-maria")]))
    engine.new_game("black-maria", 4, 0, {"scoring": "standard", "target": 100})
    with pytest.raises(InternalError) as answered:
        engine.legal_moves()
    assert "ZeroDivisionError: oops" in answered.value.message
    with pytest.raises(AdapterBroken) as err:
        engine.state()
    assert err.value.kind == "crash" and "ZeroDivisionError" in err.value.message


@pytest.mark.parametrize("game", available_games())
def test_reference_states_validate(game: str) -> None:
    engine = CheckedEngine(ReferenceEngine([rules_for(game)]))
    hello = engine.hello()
    players = hello["games"][game]["players"][0]
    engine.new_game(game, players, 0, {})
    assert engine.state()["phase"] == "deal"


@pytest.mark.parametrize("name", ["protocol", "fixture", *(s.schema.removesuffix(".json") for s in SPECS)])
def test_shipped_schemas_are_valid_json_schemas(name: str) -> None:
    import jsonschema_rs

    jsonschema_rs.meta.validate(schema.load(name))


@pytest.mark.parametrize(
    "game,change",
    [
        ("idiot", lambda s: s.update(opening_rank="2")),  # the ladder's reach is IDIOT-OPEN-3
        ("idiot", lambda s: s.update(scores=[1] * s["players"])),  # Idiot keeps no score: IDIOT-END-1
        ("moon", lambda s: s["zones"].update({"hand/0": ["0-1"]})),  # the tile set is MOON-SETUP-2
        ("moon", lambda s: s.update(players=4)),  # MOON-SETUP-1
        ("black-maria", lambda s: s.update(players=5)),  # BM-SETUP-1
        ("fool", lambda s: s.update(tens=[-1] * s["players"])),  # a count the properties judge
    ],
)
def test_a_value_that_breaks_a_rule_is_no_schema_error(game: str, change: Any) -> None:
    """The schemas hold structure and notation only (docs/protocol.md §6): a rule is a verdict, never broken."""
    engine = ReferenceEngine([rules_for(game)])
    hello = engine.hello()["games"][game]
    state = engine.new_game(game, hello["players"][0], 0, {})
    change(state)
    schema.check(game, "state", state, "STATE")


@pytest.mark.parametrize(
    "game,move",
    [
        ("idiot", {"type": "play_blind", "index": 7}),
        ("idiot", {"type": "play", "cards": []}),
        ("moon", {"type": "bid", "value": 8}),
    ],
)
def test_a_listed_move_that_breaks_a_rule_is_no_schema_error(game: str, move: dict[str, Any]) -> None:
    schema.check(game, "move", move, "move")
