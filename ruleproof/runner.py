"""The runner: certify one engine, game by game, a verdict for every clause in one run.

For each game: the smoke stage (can the engine be driven at all?), the
fixtures, then one exploration by the Hypothesis state machine with a fixed
budget (the profile's examples x steps, whatever fails).  Violations are
recorded and the games go on (record and continue), so one exploration judges
every clause.  Afterwards the shallowest counterexample of each failing clause
is minimized on the concrete trace (a budget of engine calls, never seconds)
and replayed once more to confirm it.  Design notes: docs/architecture.md.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from attrs import define, field, frozen
from hypothesis import HealthCheck, Phase, Verbosity, settings
from hypothesis.errors import Unsatisfiable

from ruleproof.checked import CheckedEngine
from ruleproof.engine import AdapterBroken, JSONObject
from ruleproof.findings import Finding, Setup, Trace
from ruleproof.minimize import lenient_replay, minimize
from ruleproof.properties import properties_for
from ruleproof.properties.base import GameProperties
from ruleproof.properties.machine import Exploration, explore
from ruleproof.replay import replay
from ruleproof.report import Failure, GameReport, Stopped
from ruleproof.scenarios import Fixture, fixtures_for, run_fixture
from ruleproof.session import Ledger, Session
from ruleproof.smoke import smoke

__all__ = ["PROFILES", "Profile", "certify_game"]

Progress = Callable[[str, str], None]  # (game, message)


@frozen
class Profile:
    """How hard to look: examples and steps to explore, and what minimizing the failures may spend.

    Minimizing a game's failures may make ``minimize_share`` times as many engine calls as its
    exploration made, and at least ``minimize_calls``: an engine failing many clauses then costs at
    most about (1 + share) times a passing one, however many it fails.  Calls, not replays, because
    a replay of a short candidate costs a few calls and one of the recorded trace hundreds; both are
    counts, so the same seed gives the same certificate.
    """

    name: str
    max_examples: int
    steps: int
    derandomize: bool
    minimize_replays: int  # per failing clause
    minimize_calls: int  # per game, at least
    minimize_share: float  # per game, of the exploration's engine calls


PROFILES = {
    "dev": Profile(
        "dev",
        max_examples=8,
        steps=150,
        derandomize=False,
        minimize_replays=60,
        minimize_calls=10_000,
        minimize_share=0.5,
    ),
    "ci": Profile(
        "ci",
        max_examples=30,
        steps=300,
        derandomize=True,
        minimize_replays=200,
        minimize_calls=20_000,
        minimize_share=0.5,
    ),
    "thorough": Profile(
        "thorough",
        max_examples=400,
        steps=1000,
        derandomize=False,
        minimize_replays=2000,
        minimize_calls=400_000,
        minimize_share=1.0,
    ),
}

for _p in PROFILES.values():  # also usable as Hypothesis profiles by name
    settings.register_profile(f"ruleproof-{_p.name}", max_examples=_p.max_examples, derandomize=_p.derandomize)


@define
class FindingStore:
    """Every violation of one game's run: a counterexample of each clause, and counts.

    The exploration keeps, for each clause, the occurrence that came earliest in its game (the
    shortest path from a ``new_game`` to the violation), not merely the first one: an engine that
    breaks a rule again and again shows it some time near the start of a game, and the minimizer's
    replays go much further from there.  The time to the first violation stays the first one's.
    """

    started: float
    source: str = "properties"
    first: dict[str, tuple[Finding, Trace, str, float]] = field(factory=dict)
    fixtures: dict[str, Fixture] = field(factory=dict)  # source -> the fixture run under it
    counts: Counter[str] = field(factory=Counter)
    depth: dict[str, int] = field(factory=dict)  # clause -> moves into its game of the kept occurrence

    def sink(self, finding: Finding, session: Session) -> None:
        clause = finding.clause
        self.counts[clause] += 1
        depth = session.moves_in_game()
        kept = self.first.get(clause)
        if kept is None:
            self.first[clause] = (finding, session.trace(finding), self.source, time.perf_counter() - self.started)
            self.depth[clause] = depth
        elif kept[2] == self.source == "properties" and depth < self.depth[clause]:
            # a shallower one: copy its trace (a few times a clause, never once per step)
            self.first[clause] = (finding, session.trace(finding), self.source, kept[3])
            self.depth[clause] = depth


def hypothesis_settings(profile: Profile) -> settings:
    return settings(
        max_examples=profile.max_examples,
        derandomize=profile.derandomize,
        deadline=None,
        database=None,
        print_blob=False,
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        phases=(Phase.generate,),  # nothing to shrink: violations are recorded, never raised
        suppress_health_check=list(HealthCheck),
    )


def certify_game(  # noqa: PLR0913 - keyword options of the public API, passed by name by the CLI, plugin and tests
    engine: CheckedEngine,
    game: str,
    profile: Profile,
    *,
    seed: int | None = None,
    progress: Progress = lambda game, msg: None,
    fixtures: bool = True,
    properties: bool = True,
    stop_after: str | None = None,
    stop: threading.Event | None = None,
    user_fixtures: Sequence[Fixture] = (),
) -> GameReport:
    """Certify one game: smoke, fixtures, one exploration, then minimize; a verdict per clause.

    ``stop_after`` ends the exploration once that clause has failed (the mutant
    gallery's tests use it); ``stop`` ends it when set (the run is then
    ``interrupted`` and keeps the verdicts so far).
    """
    started = time.perf_counter()
    props_cls = properties_for(game)
    run = GameRun(
        engine,
        props_cls,
        Ledger(),
        FindingStore(started),
        GameReport(game),
        progress,
        stop or threading.Event(),
        stop_after,
    )
    report, ledger, store = run.report, run.ledger, run.store
    calls0, stage = engine.calls, "smoke"
    declared: JSONObject = {}
    try:
        progress(game, "smoke stage")
        declared = smoke(engine, game, ledger, store.sink)
        if fixtures:
            _run_fixtures(run, fixtures_for(game, declared, user_fixtures))
        stage = "properties"
        explored = engine.calls
        if properties and not run.should_stop():
            _explore(run, declared, profile, seed)
        progress(game, "minimizing counterexamples")
        _minimize_all(run, profile, engine.calls - explored, declared)
    except AdapterBroken as broken:
        if broken.kind == "interrupted":  # a call cut short because the run is stopping: not the engine's fault
            run.stopping.set()
        else:
            report.broken = broken
            report.stopped = Stopped(stage, engine.calls - calls0, f"{broken.kind}: {broken.message}")
    if report.broken is None and run.stopping.is_set():
        report.interrupted = True
        report.stopped = Stopped(stage, engine.calls - calls0, "interrupted: stopped on request")
    if report.broken is not None or report.interrupted:
        _keep_unminimized(store, report)  # the verdicts so far stand, with their traces as recorded
    report.hits = dict(ledger.hits)
    report.situations = {
        clause: {name: ledger.situations.get(clause, Counter())[name] for name in names}
        for clause, names in props_cls.situations.items()
    }
    report.check_errors = [f"{what} (x{n})" for what, n in ledger.check_errors.items()]
    report.stats["calls"] = engine.calls - calls0
    report.clauses = verdicts(props_cls, declared, ledger, report)
    report.seconds = time.perf_counter() - started
    return report


@frozen
class GameRun:
    """One game's certification in progress: what every stage reads and records into."""

    engine: CheckedEngine
    props_cls: type[GameProperties]
    ledger: Ledger
    store: FindingStore
    report: GameReport
    progress: Progress
    stopping: threading.Event
    stop_after: str | None

    def should_stop(self) -> bool:
        """A stop was requested, or ``stop_after``'s clause has failed."""
        return self.stopping.is_set() or (self.stop_after is not None and self.stop_after in self.store.first)


def _run_fixtures(run: GameRun, found: Sequence[Fixture]) -> None:
    store, report = run.store, run.report
    for fx in found:  # bundled and --fixtures, under the engine's option values (scenarios.fixtures_for)
        if run.stopping.is_set():
            return
        run.progress(report.game, f"fixture {fx.id}")
        store.source = f"fixture:{fx.id}"
        store.fixtures[store.source] = fx
        result = run_fixture(fx, run.engine, run.props_cls, run.ledger, store.sink)
        report.fixtures[fx.id] = result.status
        if result.status == "skipped":
            report.skipped.append(f"fixture {fx.id}: {result.reason}")
    store.source = "properties"


def _explore(run: GameRun, declared: JSONObject, profile: Profile, seed: int | None) -> None:
    report, props_cls = run.report, run.props_cls

    def skip(setup: Setup, why: str) -> None:
        note = f"setup {setup.to_json()}: {why}"
        if note not in report.skipped:
            report.skipped.append(note)

    exploration = Exploration(run.engine, props_cls, declared, run.ledger, run.store.sink, skip, run.should_stop)
    if seed is None and not profile.derandomize:
        seed = random.SystemRandom().randrange(2**32)  # recorded, so the run can be repeated with --seed
    report.stats["seed"] = seed
    steps = max(10, int(profile.steps * props_cls.step_scale))
    run.progress(props_cls.game, f"exploring ({profile.name}: {profile.max_examples} examples x {steps} steps)")
    try:
        explore(exploration, steps, hypothesis_settings(profile), seed)
    except Unsatisfiable:
        report.skipped.append("every setup drawn was refused as unsupported")
    except KeyboardInterrupt:
        raise
    except BaseException:
        if not exploration.halted:  # a bug of the kit itself, not a verdict: let it surface
            raise
    report.stats.update(exploration.stats)
    if exploration.broken is not None:
        raise exploration.broken


def _minimize_all(run: GameRun, profile: Profile, explored: int, declared: JSONObject) -> None:
    """Minimize each failing clause's counterexample, then confirm it by one more replay.

    ``explored``: the engine calls the exploration made, which sets the game's budget of calls;
    ``declared``: the engine's hello entry, which bounds the smaller setups tried.
    """
    engine, props_cls, store = run.engine, run.props_cls, run.store
    left = max(profile.minimize_calls, int(profile.minimize_share * explored))
    replays = 0
    # an engine failing many clauses shares the game's budget fairly: each clause gets at most its
    # share of what is left (what one does not use goes to the next), not the first few all of it
    waiting = sum(1 for c, (_, _, src, _) in store.first.items() if src == "properties" and run.stop_after in (None, c))
    # the shallowest counterexamples first: they cost least, and what they leave goes to the deeper ones
    order = sorted(store.first, key=lambda c: store.depth.get(c, 0))
    for clause in order:
        finding, recorded, source, seconds = store.first[clause]
        if run.stop_after is not None and clause != run.stop_after:
            continue
        trace, original = recorded, len(recorded.events)
        if source == "properties" and left > 0:
            share = max(1, left // max(1, waiting))
            waiting -= 1
            lenient = lenient_replay(engine, props_cls, clause)  # a dropped move does not strand the rest
            before = engine.calls
            small = minimize(
                trace,
                _reproduces(engine, props_cls, clause),
                budget=profile.minimize_replays,
                lenient=lenient,
                calls=(lambda: engine.calls, share),
                setups=lambda setup: props_cls.smaller_setups(setup, declared),
                adapt=props_cls.adapt_deal,
                fresh=props_cls.fresh_deal,
            )
            trace, left, replays = small.trace, left - (engine.calls - before), replays + small.replays
        outcome = replay(trace, engine, props_cls, stop_at=clause)
        replays += 1
        at = outcome.first(clause)
        if at is not None:  # end the trace at the violating step, with the finding as replayed
            seen = next(f for f in outcome.findings if f.clause == clause)
            trace = Trace(trace.game, trace.events[: at + 1], seen)
        # a fixture's own expectation is not a property: its failure is confirmed by running the fixture again
        fixture = store.fixtures.get(source)
        confirmed = at is not None or (fixture is not None and _fixture_fails(engine, props_cls, fixture, clause))
        run.report.failures.append(
            Failure(
                trace.finding or finding,
                trace,
                source,
                confirmed,
                seconds,
                original,
                store.counts[clause],
                outcome.states[: len(trace.events)],
            )
        )
    rank = {clause: i for i, clause in enumerate(store.first)}  # reported in the order first seen
    run.report.failures.sort(key=lambda f: rank.get(f.finding.clause, len(rank)))
    run.report.stats["replays"] = replays


def _fixture_fails(engine: CheckedEngine, props_cls: type[GameProperties], fixture: Fixture, clause: str) -> bool:
    seen: list[str] = []
    run_fixture(fixture, engine, props_cls, Ledger(), lambda finding, _: seen.append(finding.clause))
    return clause in seen


def _reproduces(engine: CheckedEngine, props_cls: type[GameProperties], clause: str) -> Callable[[Trace], int | None]:
    """The minimizer's test: does this candidate still fail ``clause``? (events up to the violation)"""

    def test(candidate: Trace) -> int | None:
        at = replay(candidate, engine, props_cls, stop_at=clause).first(clause)
        return None if at is None else at + 1

    return test


def _keep_unminimized(store: FindingStore, report: GameReport) -> None:
    """After a break or an interruption: every failure found so far, with its trace as recorded."""
    done = {f.finding.clause for f in report.failures}
    for clause, (finding, trace, source, seconds) in store.first.items():
        if clause not in done:
            report.failures.append(
                Failure(finding, trace, source, False, seconds, len(trace.events), store.counts[clause])
            )


def verdicts(
    props_cls: type[GameProperties], declared: dict[str, Any], ledger: Ledger, report: GameReport
) -> dict[str, str]:
    """fail when violated; pass only when exercised and never violated; untested when never reached.

    A clause no behaviour can break on its own is ``covered`` when reached, never ``pass``.
    """
    failed = {f.finding.clause for f in report.failures}
    skipped = _skipped_by_options(props_cls, declared)
    known = list(props_cls.all_clauses())
    out = {}
    for clause in known + sorted(failed - set(known)):
        if clause in failed:
            out[clause] = "fail"
        elif clause in skipped:
            out[clause] = "skipped"
        elif ledger.hits.get(clause, 0) > 0:
            out[clause] = "covered" if clause in props_cls.covered_only else _passed(props_cls, ledger, clause)
        else:
            out[clause] = "untested"
    return out


def _passed(props_cls: type[GameProperties], ledger: Ledger, clause: str) -> str:
    """``pass`` once every situation the clause names was judged; ``partial`` before that."""
    seen = ledger.situations.get(clause, Counter())
    return "partial" if any(not seen.get(name) for name in props_cls.situations.get(clause, ())) else "pass"


def _skipped_by_options(props_cls: type[GameProperties], declared: dict[str, Any]) -> set[str]:
    """Clauses that only an option value or player count the engine does not declare could exercise."""
    options = declared.get("options", {})
    skipped: set[str] = set()
    for (name, value), clauses in props_cls.option_clauses.items():
        allowed = options.get(name)
        if allowed is not None and not isinstance(allowed, dict) and value not in allowed:
            skipped.update(clauses)
        if name == "players" and value not in declared.get("players", []):
            skipped.update(clauses)
    return skipped
