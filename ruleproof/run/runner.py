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

import orjson
from attrs import define, field, frozen
from hypothesis import HealthCheck, Phase, Verbosity, settings
from hypothesis.errors import Unsatisfiable

from ruleproof.model.engine import AdapterBroken, JSONObject, State
from ruleproof.model.findings import Finding, Setup, Trace
from ruleproof.model.fixtures import Fixture
from ruleproof.model.report import NOT_REPRODUCED, Failure, GameReport, Stopped
from ruleproof.properties import properties_for
from ruleproof.properties.base import GameProperties, Ledger
from ruleproof.run.causes import Cause, FindingStore
from ruleproof.run.events import ClauseFailed, Emit, Explored, GameStarted, StageStarted, nothing
from ruleproof.run.explore import Exploration, explore
from ruleproof.run.fixtures import fixtures_for, run_fixture
from ruleproof.run.minimize import lenient_replay, minimize
from ruleproof.run.replay import replay
from ruleproof.run.smoke import smoke
from ruleproof.transport.checked import CheckedEngine

__all__ = ["PROFILES", "Profile", "certify_game"]


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
    emit: Emit = nothing,
    fixtures: bool = True,
    properties: bool = True,
    stop_after: str | None = None,
    stop: threading.Event | None = None,
    user_fixtures: Sequence[Fixture] = (),
) -> GameReport:
    """Certify one game: smoke, fixtures, one exploration, then minimize; a verdict per clause.

    ``emit`` is told what happens (``ruleproof.run.events``); ``stop_after`` ends the exploration
    once that clause has failed (the mutant gallery's tests use it); ``stop`` ends it when set (the
    run is then ``interrupted`` and keeps the verdicts so far).
    """
    started = time.perf_counter()
    props_cls = properties_for(game)
    store = FindingStore(started, on_new=lambda f: emit(ClauseFailed(game, f.clause, f.message)))
    run = GameRun(engine, props_cls, Ledger(), store, Draft(game), emit, stop or threading.Event())
    run.stop_after = stop_after
    emit(GameStarted(game, profile.max_examples, max(10, int(profile.steps * props_cls.step_scale))))
    declared = _stages(run, profile, seed, fixtures=fixtures, properties=properties, user=user_fixtures)
    return run.draft.freeze(props_cls, declared, run, time.perf_counter() - started)


def _stages(
    run: GameRun, profile: Profile, seed: int | None, *, fixtures: bool, properties: bool, user: Sequence[Fixture]
) -> JSONObject:
    """Smoke, fixtures, exploration and minimizing, until one breaks or a stop; the engine's hello entry."""
    engine, draft, game = run.engine, run.draft, run.draft.game
    calls0, explored, declared = engine.calls, engine.calls, {}
    try:
        run.stage("smoke")
        declared = smoke(engine, game, run.ledger, run.store.sink)
        if fixtures:
            run.stage("fixtures")
            _run_fixtures(run, fixtures_for(game, declared, user))
        run.current = "properties"  # the exploration says so itself, with its budget
        explored = engine.calls
        if properties and not run.should_stop():
            _explore(run, declared, profile, seed)
        if not run.stopping.is_set():  # a stop keeps what was found: nothing more is minimized
            run.stage("minimizing")
            _minimize_all(run, profile, engine.calls - explored, declared)
    except AdapterBroken as broken:
        if broken.kind == "interrupted":  # a call cut short because the run is stopping: not the engine's fault
            run.stopping.set()
        else:
            draft.broken = broken
            draft.stopped = Stopped(run.current, engine.calls - calls0, f"{broken.kind}: {broken.message}", broken.sent)
    except Exception as exc:  # a bug of the kit itself: the run stops, and what was judged is still written
        draft.kit_error = _kit_error(exc)
        run.stopping.set()
    if draft.broken is None and run.stopping.is_set():
        draft.interrupted = True
        why = f"a bug of ruleproof stopped the run: {draft.kit_error}" if draft.kit_error else "stopped on request"
        draft.stopped = Stopped(run.current, engine.calls - calls0, f"interrupted: {why}")
    if draft.broken is not None or draft.interrupted:
        run.stage("confirming")
        _keep_unminimized(run)  # the verdicts so far stand, with their traces as recorded
    draft.stats["calls"] = engine.calls - calls0
    return declared


@define
class Draft:
    """A game's report while it is being certified; ``freeze`` makes the ``GameReport``."""

    game: str
    failures: list[Failure] = field(factory=list)
    broken: AdapterBroken | None = None
    stopped: Stopped | None = None
    interrupted: bool = False
    kit_error: str = ""
    skipped: list[str] = field(factory=list)
    fixtures: dict[str, str] = field(factory=dict)
    stats: dict[str, Any] = field(factory=dict)

    def freeze(self, props_cls: type[GameProperties], declared: JSONObject, run: GameRun, seconds: float) -> GameReport:
        ledger = run.ledger
        situations = {
            clause: {name: ledger.situations.get(clause, Counter())[name] for name in names}
            for clause, names in props_cls.situations.items()
        }
        return GameReport(
            self.game,
            clauses=verdicts(props_cls, declared, ledger, self.failures),
            failures=tuple(self.failures),
            broken=self.broken,
            stopped=self.stopped,
            interrupted=self.interrupted,
            kit_error=self.kit_error,
            skipped=tuple(self.skipped),
            fixtures=self.fixtures,
            hits=dict(ledger.hits),
            violations=dict(run.store.counts),
            situations=situations,
            stats=self.stats,
            check_errors=tuple(f"{what} (x{n})" for what, n in ledger.check_errors.items()),
            seconds=seconds,
        )


@define
class GameRun:
    """One game's certification in progress: what every stage reads and records into."""

    engine: CheckedEngine
    props_cls: type[GameProperties]
    ledger: Ledger
    store: FindingStore
    draft: Draft
    emit: Emit
    stopping: threading.Event
    stop_after: str | None = None
    current: str = "smoke"  # the stage running now

    def stage(self, name: str, detail: str = "") -> None:
        self.current = name
        self.emit(StageStarted(self.draft.game, name, detail))

    def should_stop(self) -> bool:
        """A stop was requested, or ``stop_after``'s clause has failed."""
        return self.stopping.is_set() or (self.stop_after is not None and self.stop_after in self.store.clauses())


def _run_fixtures(run: GameRun, found: Sequence[Fixture]) -> None:
    store, draft = run.store, run.draft
    for fx in found:  # bundled and --fixtures, under the engine's option values (fixtures_for)
        if run.stopping.is_set():
            return
        run.stage("fixtures", fx.id)
        store.source = f"fixture:{fx.id}"
        store.fixtures[store.source] = fx
        result = run_fixture(fx, run.engine, run.props_cls, run.ledger, store.sink)
        draft.fixtures[fx.id] = result.status
        if result.status == "skipped":
            draft.skipped.append(f"fixture {fx.id}: {result.reason}")
    store.source = "properties"


def _explore(run: GameRun, declared: JSONObject, profile: Profile, seed: int | None) -> None:
    draft, props_cls = run.draft, run.props_cls

    def skip(setup: Setup, why: str) -> None:
        note = f"setup {setup.to_json()}: {why}"
        if note not in draft.skipped:
            draft.skipped.append(note)

    def done(stats: dict[str, int]) -> None:  # after each example: how far the exploration has got
        failing = len(run.store.clauses())
        run.emit(
            Explored(draft.game, stats["examples"], profile.max_examples, stats["steps"], run.engine.calls, failing)
        )

    exploration = Exploration(run.engine, props_cls, declared, run.ledger, run.store.sink, skip, run.should_stop)
    exploration.on_progress = done
    if seed is None and not profile.derandomize:
        seed = random.SystemRandom().randrange(2**32)  # recorded, so the run can be repeated with --seed
    draft.stats["seed"] = seed
    steps = max(10, int(profile.steps * props_cls.step_scale))
    run.stage("exploring", f"{profile.name}: {profile.max_examples} examples x {steps} steps")
    try:
        explore(exploration, steps, hypothesis_settings(profile), seed)
    except Unsatisfiable:
        draft.skipped.append("every setup drawn was refused as unsupported")
    except KeyboardInterrupt:
        raise
    except BaseException:
        if not exploration.halted:  # a bug of the kit itself, not a verdict: let it surface
            raise
    draft.stats.update(exploration.stats)
    if exploration.broken is not None:
        raise exploration.broken


def _minimize_all(run: GameRun, profile: Profile, explored: int, declared: JSONObject) -> None:
    """Minimize each cause's counterexample, then confirm it by one more replay.

    ``explored``: the engine calls the exploration made, which sets the game's budget of calls;
    ``declared``: the engine's hello entry, which bounds the smaller setups tried.
    """
    store = run.store
    budget = _Budget(max(profile.minimize_calls, int(profile.minimize_share * explored)))
    causes = [c for c in reported_causes(store) if run.stop_after in (None, c.clause)]
    # an engine failing many clauses shares the game's budget fairly: each cause gets at most its
    # share of what is left (what one does not use goes to the next), not the first few all of it
    budget.waiting = sum(1 for c in causes if c.start.source == "properties")
    # the shallowest counterexamples first: they cost least, and what they leave goes to the deeper ones
    settled = [_settle(run, cause, profile, declared, budget) for cause in sorted(causes, key=lambda c: c.start.depth)]
    rank = {key: i for i, key in enumerate(store.causes)}  # reported in the order first seen
    run.draft.failures.extend(_distinct(sorted(settled, key=lambda f: rank.get(f.finding.key, len(rank)))))
    run.draft.stats["replays"] = budget.replays


def _distinct(failures: list[Failure]) -> list[Failure]:
    """Two checks of one clause that minimized to the same counterexample are one cause, shown once."""
    seen: set[tuple[str, bytes]] = set()
    out = []
    for f in failures:
        key = (f.finding.clause, orjson.dumps(f.trace.moves(), option=orjson.OPT_SORT_KEYS))
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def reported_causes(store: FindingStore) -> list[Cause]:
    """The causes a report shows: all but a fixture's scripted expectation that the properties also found
    broken another way (the same deviation, seen by a script: the properties' cause says more)."""
    by_properties = {c.clause for c in store.causes.values() if not c.kept.finding.signature.startswith("fixture:")}
    return [
        c
        for c in store.causes.values()
        if not (c.kept.finding.signature.startswith("fixture:") and c.clause in by_properties)
    ]


@define
class _Budget:
    """What minimizing one game's failures may still spend (engine calls), shared among the causes."""

    left: int
    waiting: int = 0
    replays: int = 0

    def share(self) -> int:
        share = max(1, self.left // max(1, self.waiting))
        self.waiting -= 1
        return share


def _settle(run: GameRun, cause: Cause, profile: Profile, declared: JSONObject, budget: _Budget) -> Failure:
    """One cause's failure: its counterexample minimized (independent of other violations if it can be),
    confirmed by a replay, with what broke in the same step and what it follows from."""
    engine, props_cls = run.engine, run.props_cls
    start, clause, signature = cause.start, cause.clause, cause.kept.finding.signature
    trace, hint = start.trace, cause.earlier
    if start.source == "properties" and budget.left > 0:
        before = engine.calls
        small = minimize(
            trace,
            _reproduces(engine, props_cls, clause, signature),
            budget=profile.minimize_replays,
            lenient=lenient_replay(engine, props_cls, clause, signature),  # a dropped move strands nothing
            calls=(lambda: engine.calls, budget.share()),
            setups=lambda setup: props_cls.smaller_setups(setup, declared),
            adapt=props_cls.adapt_deal,
            fresh=props_cls.fresh_deal,
        )
        trace, hint = small.trace, hint & small.prior if small.prior else hint
        budget.left -= engine.calls - before
        budget.replays += small.replays
    outcome = replay(trace, engine, props_cls, stop_at=clause, signature=signature)
    budget.replays += 1
    at = outcome.first(clause, signature)
    fixture = run.store.fixtures.get(start.source)
    if at is None and fixture is not None:  # a fixture's own expectation: confirmed by running it again
        budget.replays += 1
        return _fixture_failure(run, cause, fixture, outcome.states)
    if at is None:
        return _failure(cause, trace, prior=start.prior, unconfirmed=NOT_REPRODUCED)
    trace = Trace(trace.game, trace.events[: at + 1], outcome.finding_at(at, clause, signature))
    together, prior = outcome.related(at, clause)
    return _failure(cause, trace, prior=prior, states=outcome.states[: len(trace.events)], together=together, hint=hint)


def _failure(  # noqa: PLR0913 - the parts of a Failure, by name
    cause: Cause,
    trace: Trace,
    *,
    prior: frozenset[str],
    states: tuple[State, ...] = (),
    unconfirmed: str = "",
    together: tuple[str, ...] = (),
    hint: frozenset[str] = frozenset(),
) -> Failure:
    """The report's entry for a cause; ``follows`` only when its counterexample is not clean: the clauses
    violated before it there, narrowed to those before it in every counterexample tried."""
    follows = tuple(sorted((hint & prior) or prior)) if prior else ()
    return Failure(
        trace.finding or cause.kept.finding,
        trace,
        cause.start.source,
        not unconfirmed,
        cause.first_seconds,
        len(cause.start.trace.events),
        cause.count,
        states,
        unconfirmed,
        together,
        follows,
    )


def _fixture_failure(run: GameRun, cause: Cause, fixture: Fixture, states: tuple[State, ...] = ()) -> Failure:
    """A fixture's failure of a scripted expectation, confirmed by running the fixture again (which also
    gives ``with``); ``states``: the engine's states along its trace, from a replay of it."""
    kept = cause.start
    seen = _fixture_findings(run.engine, run.props_cls, fixture)
    at = next((i for i, f in seen if f.key == kept.finding.key), None)
    if at is None:
        return _failure(cause, kept.trace, prior=kept.prior, unconfirmed=NOT_REPRODUCED)
    together = tuple(sorted({f.clause for i, f in seen if i == at} - {cause.clause}))
    return _failure(cause, kept.trace, prior=kept.prior, states=states, together=together, hint=cause.earlier)


def _kit_error(exc: Exception) -> str:
    """One line naming a kit bug and where it happened (the traceback is for ``--debug``)."""
    import traceback

    where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f" at {where.filename.rsplit('/', 1)[-1]}:{where.lineno}" if where else ""
    return f"{type(exc).__name__}: {exc}{at}"


def _fixture_findings(
    engine: CheckedEngine, props_cls: type[GameProperties], fixture: Fixture
) -> list[tuple[int, Finding]]:
    """Run a fixture again: every finding with the index of the trace step that showed it."""
    seen: list[tuple[int, Finding]] = []
    run_fixture(fixture, engine, props_cls, Ledger(), lambda f, session: seen.append((len(session.events) - 1, f)))
    return seen


def _reproduces(
    engine: CheckedEngine, props_cls: type[GameProperties], clause: str, signature: str | None = None
) -> Callable[[Trace], int | None]:
    """The minimizer's test: does this candidate still fail ``clause`` (with ``signature``)? (events up to it)"""

    def test(candidate: Trace) -> int | None:
        at = replay(candidate, engine, props_cls, stop_at=clause, signature=signature).first(clause, signature)
        return None if at is None else at + 1

    return test


def _keep_unminimized(run: GameRun) -> None:
    """After a break or an interruption: every cause found so far, with its counterexample as recorded.

    Each is confirmed by one replay while the engine can still be driven (an interrupted run: a replay
    costs a few calls, not a minimization); after a break, or once a replay itself is cut short, the
    failure says why it could not be confirmed, never that the engine may be nondeterministic.
    """
    draft = run.draft
    done = {f.finding.key for f in draft.failures}
    why_not = f"the engine broke ({draft.broken.kind}) before it could be replayed" if draft.broken else ""
    for cause in reported_causes(run.store):
        if cause.kept.finding.key in done:
            continue
        failure = None
        if not why_not:
            try:
                failure = _confirmed(run, cause)
            except AdapterBroken as broken:
                why_not = f"the run was stopped before it could be replayed ({broken.kind})"
        start = cause.start
        draft.failures.append(failure or _failure(cause, start.trace, prior=start.prior, unconfirmed=why_not))


def _confirmed(run: GameRun, cause: Cause) -> Failure:
    """One replay of a recorded counterexample (a fixture is run again), without minimizing it."""
    start, clause, signature = cause.start, cause.clause, cause.kept.finding.signature
    outcome = replay(start.trace, run.engine, run.props_cls, stop_at=clause, signature=signature)
    at = outcome.first(clause, signature)
    fixture = run.store.fixtures.get(start.source)
    if at is None and fixture is not None:
        return _fixture_failure(run, cause, fixture, outcome.states)
    if at is None:
        return _failure(cause, start.trace, prior=start.prior, unconfirmed=NOT_REPRODUCED)
    together, prior = outcome.related(at, clause)
    return _failure(cause, start.trace, prior=prior, states=outcome.states, together=together, hint=cause.earlier)


def verdicts(
    props_cls: type[GameProperties], declared: dict[str, Any], ledger: Ledger, failures: Sequence[Failure]
) -> dict[str, str]:
    """fail when violated; pass only when exercised and never violated; untested when never reached.

    A clause no behaviour can break on its own is ``covered`` when reached, never ``pass``.
    """
    failed = {f.finding.clause for f in failures}
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
