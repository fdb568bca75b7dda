"""ruleproof.stateful: each game's rules as a Hypothesis state machine for a user's own suite (issue 24).

The reference passes every game's machine under a quick profile; a gallery mutant fails it on its own
clause with a shrunk counterexample that the example database replays first on the next run; declared
deviations (and what only follows them) do not fail it; a subclass adds invariants of its own.
"""

from __future__ import annotations

import unittest
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hypothesis
import pytest
from hypothesis import Phase, seed
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.stateful import invariant, run_state_machine_as_test

from ruleproof.model.errors import UsageError
from ruleproof.model.findings import Event
from ruleproof.reference import ReferenceEngine
from ruleproof.reference.base import ReferenceEngine as Engine
from ruleproof.run.expect import ExpectError
from ruleproof.stateful import ClauseViolated, GameMachine, default_settings, machine
from tests.house_rules import black_maria as house
from tests.mutants.black_maria import DocumentsRules, PassLeft


def quick(game: str, **changes: Any) -> hypothesis.settings:
    """A few short examples, the same ones every run (derandomized: no database)."""
    config = {"max_examples": 10, "stateful_step_count": 90, "derandomize": True, "database": None, **changes}
    return hypothesis.settings(default_settings(game), **config)


# the kit's own use of it, as a user's suite has it: one TestCase per game against the reference
TestReferenceBlackMaria = machine("black-maria", ReferenceEngine, settings=quick("black-maria")).TestCase
TestReferenceIdiot = machine("idiot", ReferenceEngine, settings=quick("idiot")).TestCase
TestReferenceFool = machine("fool", ReferenceEngine, settings=quick("fool")).TestCase
TestReferenceMoon = machine("moon", ReferenceEngine, settings=quick("moon")).TestCase


def violations(exc: BaseException) -> Iterator[BaseException]:
    """The failures Hypothesis raised: one, or each of a group (distinct bugs)."""
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            yield from violations(inner)
    else:
        yield exc


def failures(cls: type[GameMachine], config: hypothesis.settings) -> list[BaseException]:
    with pytest.raises(BaseException) as info:  # any failure: the assertions say which
        run_state_machine_as_test(cls, settings=config)
    return list(violations(info.value))


def test_each_clause_raises_its_own_exception_type() -> None:
    passes, leads = ClauseViolated.of("BM-PASS-1"), ClauseViolated.of("BM-LEAD-1")
    assert passes is ClauseViolated.of("BM-PASS-1") and passes is not leads
    assert issubclass(passes, ClauseViolated) and issubclass(passes, AssertionError)
    assert passes.__qualname__ == "ClauseViolated[BM-PASS-1]" and passes.clause == "BM-PASS-1"


def test_a_mutant_fails_on_its_clause_shrunk_and_the_database_replays_it_first(tmp_path: Path) -> None:
    db = DirectoryBasedExampleDatabase(str(tmp_path / "examples"))
    config = hypothesis.settings(default_settings("black-maria"), max_examples=60, database=db)
    runs: list[bool] = []  # per example, in order: whether it failed

    @seed(4)  # one whose first failing example carries probes, here and at the oldest Hypothesis supported
    class Watched(machine("black-maria", PassLeft.engine)):  # type: ignore[misc]
        def teardown(self) -> None:
            runs.append(self.raised)
            super().teardown()

    replay_only = hypothesis.settings(config, phases=[Phase.reuse])
    with pytest.raises(unittest.SkipTest):  # an empty database: nothing to replay, so nothing runs
        run_state_machine_as_test(Watched, settings=replay_only)
    assert runs == []

    (found,) = failures(Watched, hypothesis.settings(config, database=None, phases=[Phase.generate]))
    (err,) = failures(Watched, config)
    assert isinstance(err, ClauseViolated.of("BM-PASS-1")) and isinstance(found, ClauseViolated.of("BM-PASS-1"))
    before, kinds = [e.kind for e in found.trace.events], [e.kind for e in err.trace.events]
    # shrunk to about the shortest game that shows it: new_game, the deal, one pass per seat (3 or 4), the
    # probes of the first failing example (most of them at least) gone
    assert len(kinds) < len(before) and kinds.count("reject") < before.count("reject"), (before, kinds)
    assert kinds[:2] == ["new_game", "apply"] and len(kinds) <= 7, kinds
    assert "BM-PASS-1" in str(err) and "right-hand neighbour" in str(err)  # the clause's text

    runs.clear()
    (again,) = failures(Watched, replay_only)  # only what the database holds: it held the failure
    assert isinstance(again, ClauseViolated.of("BM-PASS-1")) and again.trace.events == err.trace.events
    runs.clear()
    (third,) = failures(Watched, config)  # a full run replays it first
    assert isinstance(third, ClauseViolated.of("BM-PASS-1")) and runs[0] is True


class TwoBugs(DocumentsRules):
    """At 3 players the 2D is removed (BM-DEAL-1); at 4 the cards go left (BM-PASS-1): two bugs no
    example can show together (declaring no house rule: the pass always goes right)."""

    def removed_cards(self, players: int) -> tuple[str, ...]:
        return ("2D",) if players == 3 else ()

    def pass_target(self, seat: int, players: int, round_: int) -> int:
        return (seat + 1) % players if players == 4 else super().pass_target(seat, players, round_)


def test_two_clauses_are_reported_as_two_bugs() -> None:
    cls = machine("black-maria", lambda: Engine([TwoBugs()]))
    found = failures(cls, quick("black-maria", max_examples=60))  # derandomized: the same examples every run
    assert {type(f) for f in found} == {ClauseViolated.of("BM-DEAL-1"), ClauseViolated.of("BM-PASS-1")}, found
    # told apart by their types: one type for every clause would be one bug, shrunk to one of them
    assert sorted(f.finding.clause for f in found if isinstance(f, ClauseViolated)) == ["BM-DEAL-1", "BM-PASS-1"]


@pytest.mark.parametrize(
    "expect",
    [{"BM-PASS-1": "we pass left"}, {"black-maria": {"BM-PASS-1": "we pass left"}, "idiot": {}}, "file"],
    ids=["mapping", "tables", "file"],
)
def test_a_declared_deviation_does_not_fail_the_machine(expect: Any, tmp_path: Path) -> None:
    if expect == "file":
        expect = tmp_path / "expect.toml"
        expect.write_text('[black-maria]\nBM-PASS-1 = "we pass left"\n', encoding="utf-8")
    run_state_machine_as_test(machine("black-maria", PassLeft.engine, expect=expect, settings=quick("black-maria")))


def test_declaring_another_clause_hides_nothing() -> None:
    cls = machine("black-maria", PassLeft.engine, expect={"BM-LEAD-1": "house rule"})
    (err,) = failures(cls, quick("black-maria", max_examples=40))  # the first examples of older releases are short
    assert isinstance(err, ClauseViolated.of("BM-PASS-1"))


# the house engine's deviations, each with what breaks in the same step (tests/test_house_rules.py)
HOUSE = ("BM-LEAD-1", "BM-SCORE-4", "BM-INV-5", "BM-INV-6", "BM-PASS-1", "BM-INV-1", "BM-INV-2", "CONTRACT-MOVES-1")


def test_what_only_follows_declared_deviations_does_not_fail_the_machine() -> None:
    config = quick("black-maria", max_examples=30, phases=[Phase.generate])
    declared = machine("black-maria", house.engine, expect=dict.fromkeys(HOUSE, "house"))
    run_state_machine_as_test(declared, settings=config)
    # the same run fails once the repeated pass (off the rules) is not declared, nor what broke with it
    # in its step (a deviation declared once is declared by any of its clauses): what follows it is no
    # longer excused
    undeclared = dict.fromkeys(HOUSE[:4], "house")
    found = failures(machine("black-maria", house.engine, expect=undeclared), config)
    assert {type(f) for f in found} == {ClauseViolated.of("BM-PASS-1")}


def test_bad_declarations_and_games_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(ExpectError, match="unknown clause 'BM-NOPE-1' for black-maria"):
        machine("black-maria", ReferenceEngine, expect={"BM-NOPE-1": "why"})
    with pytest.raises(ExpectError, match="non-empty string"):
        machine("black-maria", ReferenceEngine, expect={"BM-PASS-1": " "})
    bad = tmp_path / "expect.toml"
    bad.write_text("[black-maria]\nBM-PASS-1 = 3\n", encoding="utf-8")
    with pytest.raises(ExpectError, match=r"expect.toml:2: .*must be a string"):
        machine("black-maria", ReferenceEngine, expect=bad)
    with pytest.raises(UsageError, match="unknown game 'hearts'"):
        machine("hearts", ReferenceEngine)


def test_an_engine_that_does_not_declare_the_game_fails_with_a_message() -> None:
    from ruleproof.reference import rules_for

    cls = machine("black-maria", lambda: Engine([rules_for("idiot")]))
    (err,) = failures(cls, quick("black-maria"))
    assert "hello does not declare 'black-maria'" in str(err)


def test_the_message_names_the_clause_its_text_expected_got_and_the_last_steps() -> None:
    (err,) = failures(machine("black-maria", PassLeft.engine), quick("black-maria", max_examples=40))
    text = str(err)
    assert isinstance(err, ClauseViolated)
    assert text.startswith("BM-PASS-1: ") and "(black-maria.md:" in text
    assert "expected: [" in text and "got:      [" in text
    assert "1. new_game {" in text and "apply deal: hands" in text and 'apply {"type": "pass"' in text
    assert err.finding.clause == "BM-PASS-1" and err.trace.events[0].kind == "new_game"


class ForgetsTheDealer(Engine):
    """Takes the dealer it is given only in the first game it hosts: a replay of a game ends elsewhere."""

    def __init__(self) -> None:
        super().__init__()
        self.hosted = 0

    def new_game(self, game: str, players: int, dealer: int, options: dict[str, Any]) -> dict[str, Any]:
        self.hosted += 1
        return super().new_game(game, players, (dealer + 1) % players if self.hosted > 1 else dealer, options)


def test_the_game_an_example_ends_in_is_replayed_for_determinism() -> None:
    # three steps: no game is over, so only the replay at teardown can see it
    (err,) = failures(machine("black-maria", ForgetsTheDealer), quick("black-maria", stateful_step_count=3))
    assert isinstance(err, ClauseViolated.of("CONTRACT-DET-1")), err


def test_a_subclass_adds_an_invariant_of_its_own() -> None:
    passes: list[Event] = []  # the pass that broke the house rule, as sent

    class NoHeartPassed(machine("black-maria", ReferenceEngine)):  # type: ignore[misc]
        """A house rule of one's own: no heart is ever passed (the reference may pass one)."""

        @invariant()
        def no_heart_passed(self) -> None:
            state = self.state
            zones = state["zones"].items() if state is not None else ()
            passed = any(c.endswith("H") for z, cards in zones if "passing" in z for c in cards)
            if passed:
                passes.append(next(e for e in reversed(self.session.events) if e.value.get("type") == "pass"))
            assert not passed, "a heart was passed"

    (err,) = failures(NoHeartPassed, quick("black-maria", max_examples=40))
    assert not isinstance(err, ClauseViolated) and str(err).startswith("a heart was passed")
    assert any(c.endswith("H") for c in passes[-1].value["cards"])


def test_a_subclass_keeps_the_machines_settings() -> None:
    config = quick("moon", max_examples=3)
    base = machine("moon", ReferenceEngine, settings=config)

    class Mine(base):  # type: ignore[misc,valid-type]
        pass

    assert Mine.TestCase.settings is config and base.TestCase.settings is config
