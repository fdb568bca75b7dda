"""The runner: certify one engine, game by game, clause by clause.

For each game: a smoke stage (is the adapter sane?), the fixtures, then the
Hypothesis state machine.  When the machine finds a violation, Hypothesis
shrinks it; the runner replays the shrunk trace to confirm the verdict,
records the failure, switches that clause off and runs again, so one engine
gets a verdict per clause rather than a single first failure.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import hypothesis.core
import hypothesis.internal.conjecture.engine as engine_module
from attrs import define, field, frozen
from hypothesis import HealthCheck, Phase, Verbosity, settings
from hypothesis.errors import Flaky, FlakyFailure, FlakyReplay, Unsatisfiable
from hypothesis.stateful import run_state_machine_as_test

from ruleproof.checked import CheckedEngine
from ruleproof.engine import AdapterBroken, EngineError, IllegalMove, Unsupported
from ruleproof.properties import properties_for
from ruleproof.properties.machine import build_machine
from ruleproof.properties.machinery import (
    CONTRACT_DETERMINISM,
    Coverage,
    Finding,
    GameProperties,
    Session,
    Setup,
    Stuck,
    Trace,
    Violation,
)
from ruleproof.scenarios import bundled, run_fixture
from ruleproof.smoke import smoke

Progress = Callable[[str, str], None]  # (game, message)


@frozen
class Profile:
    """How hard to look: examples per run, steps per example, derandomized or not."""

    name: str
    max_examples: int
    steps: int
    derandomize: bool
    max_failures: int = 6  # distinct clauses to report before stopping
    shrink_seconds: int = 20  # cap on Hypothesis's shrinking of one failure


PROFILES = {
    "dev": Profile("dev", max_examples=8, steps=150, derandomize=False, shrink_seconds=5),
    "ci": Profile("ci", max_examples=30, steps=300, derandomize=True, shrink_seconds=8),
    "thorough": Profile("thorough", max_examples=400, steps=1000, derandomize=False, max_failures=20, shrink_seconds=300),
}

for _p in PROFILES.values():  # also usable as Hypothesis profiles by name
    settings.register_profile(f"ruleproof-{_p.name}", max_examples=_p.max_examples, derandomize=_p.derandomize)


@frozen
class Failure:
    """One violated clause with its shrunk, re-checked counterexample."""

    finding: Finding
    trace: Trace
    source: str  # "properties" or "fixture:ID"
    confirmed: bool  # the replay of the shrunk trace reproduced the same clause
    seconds: float  # from the start of the game's certification to this verdict

    def to_json(self) -> dict[str, Any]:
        return {
            **self.finding.to_json(),
            "source": self.source,
            "confirmed": self.confirmed,
            "seconds": round(self.seconds, 3),
            "trace": self.trace.moves(),
        }


@define
class GameReport:
    game: str
    clauses: dict[str, str] = field(factory=dict)  # clause -> pass|fail|untested|skipped
    failures: list[Failure] = field(factory=list)
    broken: AdapterBroken | None = None
    skipped: list[str] = field(factory=list)  # setups or fixtures skipped, and why
    fixtures: dict[str, str] = field(factory=dict)  # fixture id -> status
    hits: dict[str, int] = field(factory=dict)
    seconds: float = 0.0

    @property
    def verdict(self) -> str:
        if self.broken is not None:
            return "broken"
        return "fail" if self.failures else "pass"


def hypothesis_settings(profile: Profile, props_cls: type[GameProperties]) -> settings:
    return settings(
        max_examples=profile.max_examples,
        stateful_step_count=max(10, int(profile.steps * props_cls.step_scale)),
        derandomize=profile.derandomize,
        deadline=None,
        database=None,
        print_blob=False,
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        phases=(Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
    )


def replay(trace: Trace, engine: CheckedEngine, props_cls: type[GameProperties]) -> Finding | None:
    """Re-run a trace with the properties; the finding it produces, if any."""
    session = Session(engine, props_cls, Coverage(disabled=set(trace.ignored)))
    try:
        for event in trace.events:
            if event.kind == "new_game":
                session.start(Setup.from_json(event.value))
            elif event.kind == "apply":
                session.apply(event.value, listed=event.value.get("type") != "deal")
            else:
                session.reject(event.value, event.clause or "CONTRACT-REJECT-1")
        if trace.finding is not None and trace.finding.clause == CONTRACT_DETERMINISM and session.snap is not None:
            session.replay_current_game()
    except Violation as v:
        return v.finding
    except Stuck as stuck:  # refused a needed move under a clause the trace ignores
        return Finding(str(stuck), "the engine refused a move the rules allow (a clause this trace ignores)")
    return None


def certify_game(
    engine: CheckedEngine,
    game: str,
    profile: Profile,
    *,
    seed: int | None = None,
    progress: Progress = lambda game, msg: None,
    fixtures: bool = True,
    properties: bool = True,
    stop_after: str | None = None,
) -> GameReport:
    """Certify one game: smoke, fixtures, properties; a verdict per clause.

    ``stop_after`` ends the search as soon as that clause has failed (the
    mutant gallery's tests use it; certification itself looks for all).
    """
    started = time.perf_counter()
    report = GameReport(game)
    props_cls = properties_for(game)
    coverage = Coverage()
    try:
        progress(game, "smoke stage")
        declared = smoke(engine, game)
        if fixtures:
            _run_fixtures(engine, game, props_cls, coverage, report, progress, started)
        if properties and not (stop_after and stop_after in coverage.disabled):
            _run_properties(engine, game, props_cls, declared, coverage, report, profile, seed, progress, started, stop_after)
    except AdapterBroken as broken:
        report.broken = broken
    report.hits = dict(coverage.hits)
    report.clauses = verdicts(props_cls, declared if report.broken is None else {}, coverage, report)
    report.seconds = time.perf_counter() - started
    return report


def _run_fixtures(engine: CheckedEngine, game: str, props_cls: type[GameProperties], coverage: Coverage,
                  report: GameReport, progress: Progress, started: float) -> None:  # fmt: skip
    for fx in bundled(game):
        progress(game, f"fixture {fx.id}")
        result = run_fixture(fx, engine, props_cls, coverage)
        report.fixtures[fx.id] = result.status
        if result.status == "skipped":
            report.skipped.append(f"fixture {fx.id}: {result.reason}")
        elif result.status == "fail" and result.finding is not None:
            if result.finding.clause in coverage.disabled:
                continue  # one failure per clause; the fixture's status still says fail
            confirmed = replay(result.trace, engine, props_cls)
            report.failures.append(
                Failure(result.finding, result.trace, f"fixture:{fx.id}",
                        confirmed is not None and confirmed.clause == result.finding.clause,
                        time.perf_counter() - started)  # fmt: skip
            )
            coverage.disabled.add(result.finding.clause)


def _run_properties(engine: CheckedEngine, game: str, props_cls: type[GameProperties], declared: dict[str, Any],
                    coverage: Coverage, report: GameReport, profile: Profile, seed: int | None,
                    progress: Progress, started: float, stop_after: str | None) -> None:  # fmt: skip
    def skip(setup: Setup, why: str) -> None:
        note = f"setup {setup.to_json()}: {why}"
        if note not in report.skipped:
            report.skipped.append(note)

    machine = build_machine(props_cls, engine, declared, coverage, skip)
    found = 0
    while found < profile.max_failures:
        progress(game, f"properties ({profile.name}), run {found + 1}")
        try:
            with _seeded(seed), _shrink_budget(profile.shrink_seconds):
                run_state_machine_as_test(machine, settings=hypothesis_settings(profile, props_cls))
            return
        except Violation as v:
            trace = v.trace or Trace(game, ())
            again = replay(trace, engine, props_cls)
            report.failures.append(
                Failure(v.finding, trace, "properties", again is not None and again.clause == v.finding.clause,
                        time.perf_counter() - started)  # fmt: skip
            )
            coverage.disabled.add(v.finding.clause)
            found += 1
            progress(game, f"violation of {v.finding.clause}")
            if v.finding.clause == stop_after:
                return
        except (Flaky, FlakyFailure, FlakyReplay) as err:
            raise AdapterBroken("nondeterministic", f"the engine behaved differently on the same moves: {err}") from None
        except Unsatisfiable:
            report.skipped.append("every setup drawn was refused as unsupported")
            return


class _shrink_budget:
    """Cap shrinking time: Hypothesis has no public setting for it, only this constant."""

    def __init__(self, seconds: int) -> None:
        self.seconds = seconds
        self.saved = engine_module.MAX_SHRINKING_SECONDS

    def __enter__(self) -> None:
        engine_module.MAX_SHRINKING_SECONDS = self.seconds

    def __exit__(self, *exc: Any) -> None:
        engine_module.MAX_SHRINKING_SECONDS = self.saved


class _seeded:
    """``--seed N``: run Hypothesis from that seed instead of the derandomized one."""

    def __init__(self, seed: int | None) -> None:
        self.seed = seed
        self.saved: Any = None

    def __enter__(self) -> None:
        # Hypothesis reads this module global for its seed (as its pytest plugin's --hypothesis-seed does)
        self.saved = hypothesis.core.global_force_seed
        if self.seed is not None:
            hypothesis.core.global_force_seed = self.seed

    def __exit__(self, *exc: Any) -> None:
        hypothesis.core.global_force_seed = self.saved


def verdicts(props_cls: type[GameProperties], declared: dict[str, Any], coverage: Coverage, report: GameReport) -> dict[str, str]:
    """pass only when exercised and never failed; untested when never reached."""
    failed = {f.finding.clause for f in report.failures}
    options = declared.get("options", {})
    skipped: set[str] = set()
    for (name, value), clauses in props_cls.option_clauses.items():
        allowed = options.get(name)
        if allowed is not None and not isinstance(allowed, dict) and value not in allowed:
            skipped.update(clauses)
        if name == "players" and value not in declared.get("players", []):
            skipped.update(clauses)
    out = {}
    for clause in list(props_cls.all_clauses()) + sorted(failed - set(props_cls.all_clauses())):
        if clause in failed:
            out[clause] = "fail"
        elif report.broken is not None:
            out[clause] = "untested"
        elif clause in skipped:
            out[clause] = "skipped"
        elif coverage.hits.get(clause, 0) > 0:
            out[clause] = "pass"
        else:
            out[clause] = "untested"
    return out
