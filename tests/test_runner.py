"""One game's certification (ruleproof/run/runner.py): the stages in order, told as events; a stop
keeps the verdicts so far; a check that crashes is the kit's bug, never a verdict or a stop; every
failure comes minimized, confirmed and with the engine's states along its trace."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from ruleproof.model.certificate import without_timings
from ruleproof.output.progress import estimate_line
from ruleproof.properties import properties_for
from ruleproof.properties.checks import Check
from ruleproof.reference import ReferenceEngine
from ruleproof.run.events import ClauseFailed, Estimated, Event, GameStarted, StageStarted
from ruleproof.run.parts import expected_calls
from ruleproof.run.runner import PROFILES, certify_game
from ruleproof.transport.checked import CheckedEngine
from tests.mutants.moon import OvertricksScored


def certify(engine: Any, **named: Any) -> tuple[Any, list[Event]]:
    events: list[Event] = []
    report = certify_game(CheckedEngine(engine), "moon", PROFILES["dev"], seed=1, emit=events.append, **named)
    return report, events


def test_the_stages_run_in_order_and_are_told_as_events() -> None:
    report, events = certify(ReferenceEngine())
    assert isinstance(events[0], GameStarted) and events[0].game == "moon"
    stages = list(dict.fromkeys(e.stage for e in events if isinstance(e, StageStarted)))
    assert stages[:3] == ["smoke", "fixtures", "exploring"]
    assert report.verdict == "pass" and not report.failures
    assert report.stats["examples"] == PROFILES["dev"].max_examples


def test_the_run_tells_what_a_call_costs_and_how_long_exploring_will_take() -> None:
    report, events = certify(ReferenceEngine())
    (estimate,) = [e for e in events if isinstance(e, Estimated)]
    started = [e.stage for e in events if isinstance(e, StageStarted)]
    # told once the head has run (smoke and fixtures measured the cost), before the exploration
    assert events.index(estimate) < next(i for i, e in enumerate(events) if getattr(e, "stage", "") == "exploring")
    assert "exploring" in started and estimate.calls == expected_calls("moon", PROFILES["dev"])
    assert estimate.seconds_per_call > 0 and 0 < estimate.seconds <= estimate.at_most
    assert estimate.seconds == pytest.approx(estimate.seconds_per_call * estimate.calls)
    assert report.stats["seconds_per_call"] > 0 and report.stats["estimated_seconds"] > 0
    # a measure of time: outside what the same seed must reproduce
    assert "seconds_per_call" not in without_timings(report.stats)
    line = estimate_line(estimate)
    assert line.startswith("moon: ") and "µs an engine call" in line and "at most" in line, line


def test_a_failing_engine_gets_minimized_confirmed_failures_and_clause_events() -> None:
    report, events = certify(OvertricksScored.engine())
    failed = {e.clause for e in events if isinstance(e, ClauseFailed)}
    assert "MOON-SCORE-1" in failed and report.clauses["MOON-SCORE-1"] == "fail"
    for failure in report.failures:
        assert failure.confirmed and failure.steps <= failure.original_steps
        assert len(failure.states) == failure.steps  # the engine's state after every step, for the drawings


def test_a_stop_before_the_exploration_keeps_the_verdicts_so_far() -> None:
    stop = threading.Event()

    def emit_and_stop(event: Event) -> None:
        if isinstance(event, StageStarted) and event.stage == "exploring":
            stop.set()

    report = certify_game(
        CheckedEngine(ReferenceEngine()), "moon", PROFILES["dev"], seed=1, emit=emit_and_stop, stop=stop
    )
    assert report.interrupted and report.verdict == "interrupted"
    assert report.stopped is not None
    assert "pass" in report.clauses.values()  # the smoke stage's and the fixtures' verdicts stand


def test_a_check_that_crashes_is_a_kit_error_and_the_other_checks_still_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    registry = properties_for("moon").checks
    first = registry.checks[0]

    def crashes(props: Any, step: Any) -> None:
        raise ZeroDivisionError("a state the check did not foresee")

    monkeypatch.setattr(registry, "checks", [Check(first.name, first.clauses, crashes), *registry.checks[1:]])
    report, _ = certify(ReferenceEngine())
    assert any("ZeroDivisionError" in e for e in report.check_errors)
    assert not report.failures  # never a verdict against the engine
    others = [c for check in registry.checks[1:] for c in check.clauses if c not in first.clauses]
    assert all(report.clauses[c] in ("pass", "covered", "untested", "partial") for c in others)
    assert "pass" in {report.clauses[c] for c in others}


def test_minimizing_never_spends_past_the_calls_a_step_cap_whatever_its_floor() -> None:
    """``minimize_calls`` is a floor under the share of the exploration, never over ``calls_per_step``: at
    ``dev`` (a floor of 10,000) a short run failing many clauses stays near 2.5 calls a step, and the
    fixtures' moves count as steps played, as explored ones do."""
    from types import SimpleNamespace

    from ruleproof.run.runner import _allowed, played

    dev = PROFILES["dev"]
    stats = {"steps": 1000, "fixture_steps": 200}
    run: Any = SimpleNamespace(draft=SimpleNamespace(stats=stats), calls=2400)
    assert played(stats) == 1200
    assert _allowed(run, dev, explored=2000) == int(2.5 * 1200) - 2400 < dev.minimize_calls
    run.calls = 3100  # already past the cap: nothing to minimize (each failure is still confirmed)
    assert _allowed(run, dev, explored=2000) == 0
    # room under the cap: the share of the exploration's calls, or the floor when that is less
    roomy: Any = SimpleNamespace(draft=SimpleNamespace(stats={"steps": 100_000}), calls=100_000)
    assert _allowed(roomy, dev, explored=100_000) == int(dev.minimize_share * 100_000)
    assert _allowed(roomy, dev, explored=1_000) == dev.minimize_calls
