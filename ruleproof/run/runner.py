"""The runner: certify one engine, game by game, a verdict for every clause in one run.

For each game: the smoke stage (can the engine be driven at all?), the
fixtures, then one exploration by the Hypothesis state machine with a fixed
budget (the profile's examples x steps, whatever fails), in the profile's
shards (``ruleproof.run.shards``).  Violations are recorded and the games go on
(record and continue), so one exploration judges every clause.  Each part
(the head, each shard) records on its own and is merged in a fixed order
(``collect``); afterwards (``finish``) the shallowest counterexample of each
failing clause is minimized on the concrete trace (a budget of engine calls,
never seconds) and replayed once more to confirm it.  A certification split
over workers or machines merges the same parts the same way, so it gives the
same certificate.  Design notes: docs/architecture.md.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import orjson
from attrs import define, field

from ruleproof.model.engine import AdapterBroken, JSONObject, State
from ruleproof.model.findings import Finding, Trace
from ruleproof.model.fixtures import Fixture
from ruleproof.model.report import NOT_REPRODUCED, Failure, GameReport, Stopped
from ruleproof.properties import properties_for
from ruleproof.properties.base import GameProperties, Ledger, rules_judged
from ruleproof.properties.contract import CONTRACT_DETERMINISM
from ruleproof.run.causes import Cause, FindingStore
from ruleproof.run.events import ClauseFailed, Emit, Estimated, Explored, GameStarted, StageStarted, nothing
from ruleproof.run.fixtures import run_fixture
from ruleproof.run.minimize import lenient_replay, minimize
from ruleproof.run.parts import ShardJob, expected_calls, explore_shard, kit_error, run_head, steps_for
from ruleproof.run.profiles import PROFILES, Profile, hypothesis_settings
from ruleproof.run.recall import Recall
from ruleproof.run.replay import replay
from ruleproof.run.replay import together as replayed_together
from ruleproof.run.shards import EXPLORED, Found, Shard, absorb_causes, plan
from ruleproof.transport.checked import CheckedEngine

__all__ = ["PROFILES", "Explorer", "GameRun", "Profile", "certify_game", "collect", "finish", "hypothesis_settings"]


# runs a game's shards elsewhere (``ruleproof.run.pool``): what each found, in the order of the shards given
Explorer = Callable[[ShardJob, Sequence[Shard]], Iterator[Found]]


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
    explorer: Explorer | None = None,
) -> GameReport:
    """Certify one game: smoke, fixtures, the exploration's shards, then minimize; a verdict per clause.

    ``emit`` is told what happens (``ruleproof.run.events``); ``stop_after`` ends the exploration
    once that clause has failed (the mutant gallery's tests use it); ``stop`` ends it when set (the
    run is then ``interrupted`` and keeps the verdicts so far); ``explorer`` runs the shards
    elsewhere (worker processes), else they run here, one after the other, on ``engine``.
    """
    run = GameRun.begin(engine, game, emit, stop)
    run.stop_after = stop_after
    emit(GameStarted(game, profile.max_examples, steps_for(game, profile)))
    collect(run, profile, seed, fixtures=fixtures, properties=properties, user=user_fixtures, explorer=explorer)
    return finish(run, profile)


def collect(  # noqa: PLR0913 - what to run of a game, by name
    run: GameRun,
    profile: Profile,
    seed: int | None,
    *,
    fixtures: bool,
    properties: bool,
    user: Sequence[Fixture] = (),
    explorer: Explorer | None = None,
    head: bool = True,
    only: Sequence[int] | None = None,
) -> None:
    """The parts of a game that find things: the head (unless ``head`` is False: ``hello`` alone then
    gives the engine's entry) and the exploration's shards (``only`` those, or all), each merged into
    ``run`` as it ends; nothing is minimized yet (``finish``)."""
    if head:
        declared, found = run_head(
            run.engine,
            run.game,
            fixtures=fixtures,
            user=user,
            stage=run.stage,
            stopping=run.stopping,
            started=run.started,
            on_new=run.announce,
        )
        run.declared = declared
        run.absorb(found)
        if properties and declared and run.draft.broken is None:
            run.estimate(profile)
    else:
        run.declared = run.engine.hello()["games"][run.game]
    if run.declared and properties and run.draft.broken is None and not run.should_stop():
        _explore(run, profile, seed, explorer, only)


def _explore(
    run: GameRun, profile: Profile, seed: int | None, explorer: Explorer | None, only: Sequence[int] | None
) -> None:
    """The exploration's shards, merged in their order; a break, a stop or ``stop_after`` ends it."""
    if seed is None and not profile.derandomize:
        seed = random.SystemRandom().randrange(2**32)  # recorded, so the run can be repeated with --seed
    shards = _planned(run, profile, seed)
    units = [s for s in shards if only is None or s.index in only]
    steps = steps_for(run.game, profile)
    job = ShardJob(run.game, run.declared, profile, steps, run.stop_after, time.time() - run.elapsed())
    found = explorer(job, units) if explorer is not None else _here(run, job, units)
    try:
        _absorb_shards(run, found, job if explorer is not None else None)
    finally:
        close = getattr(found, "close", None)
        if close is not None:
            close()  # shards still running elsewhere are given up


def merged(
    run: GameRun,
    profile: Profile,
    seed: int | None,
    head: Found | None,
    shards: Sequence[Found],
    *,
    properties: bool,
) -> None:
    """A game from parts found elsewhere (``ruleproof merge``): merged exactly as ``collect`` merges its own."""
    if head is not None:
        run.absorb(head)
    if run.declared and properties and run.draft.broken is None and not run.should_stop():
        _planned(run, profile, seed)
        _absorb_shards(run, iter(shards), None)


def _planned(run: GameRun, profile: Profile, seed: int | None) -> tuple[Shard, ...]:
    """The game's shards (recorded in its stats, with the seed they derive from); the stage starts."""
    run.draft.stats["seed"] = seed
    shards = plan(profile.shards, profile.max_examples, seed)
    run.draft.stats["shards"] = len(shards)
    steps = steps_for(run.game, profile)
    run.stage("exploring", f"{profile.name}: {profile.max_examples} examples x {steps} steps")
    return shards


def _absorb_shards(run: GameRun, found: Iterator[Found], job: ShardJob | None) -> None:
    """Merge the shards in their order until one breaks or stops, or ``stop_after``'s clause failed;
    with a ``job`` (shards explored elsewhere), the progress is told as each arrives."""
    for part in found:
        run.absorb(part)
        if job is not None:
            run.progress(job, Counter(), set())
        if part.broken is not None or part.interrupted or run.should_stop():
            break


def _here(run: GameRun, job: ShardJob, units: Sequence[Shard]) -> Iterator[Found]:
    """The shards one after the other on the run's own engine, telling the progress as they go."""
    for shard in units:
        yield explore_shard(
            run.engine,
            job,
            shard,
            stopping=run.stopping,
            started=run.started,
            on_new=run.announce,
            on_progress=lambda stats, failing: run.progress(job, stats, failing),
        )


def finish(run: GameRun, profile: Profile) -> GameReport:
    """Minimize what the parts found (unless the engine broke or the run is stopping), confirm it,
    and freeze the game's report."""
    draft, engine = run.draft, run.engine
    if draft.broken is None and not run.stopping.is_set():  # a stop keeps what was found: nothing is minimized
        run.stage("minimizing")
        calls0 = engine.calls
        run.guarded(lambda: _minimize_all(run, profile, run.explored_calls, run.declared))
        draft.stats["minimize_calls"] = engine.calls - calls0  # its share of the run, tracked by bench/
    if draft.broken is None and run.stopping.is_set():
        draft.interrupted = True
        why = f"a bug of ruleproof stopped the run: {draft.kit_error}" if draft.kit_error else "stopped on request"
        draft.stopped = Stopped(run.stop_stage or run.current, run.calls, f"interrupted: {why}")
    if draft.broken is not None or draft.interrupted:
        run.stage("confirming")
        calls0 = engine.calls
        _keep_unminimized(run)  # the verdicts so far stand, with their traces as recorded
        run.calls += engine.calls - calls0
    steps = played(draft.stats)
    draft.stats["explore_calls"] = run.explored_calls
    draft.stats["calls"] = run.calls
    draft.stats["calls_per_step"] = round(run.calls / steps, 2) if steps else None
    return draft.freeze(run.props_cls, run.declared, run, run.elapsed())


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
            for clause, names in props_cls.situations_for(declared).items()
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
            rules=rules_judged(props_cls, declared) if declared else (),
        )


@define
class GameRun:
    """One game's certification in progress: the parts merged so far, and what minimizing reads."""

    engine: CheckedEngine
    props_cls: type[GameProperties]
    ledger: Ledger
    store: FindingStore
    draft: Draft
    emit: Emit
    stopping: threading.Event
    started: float  # time.perf_counter() at the start
    stop_after: str | None = None
    current: str = "smoke"  # the stage running now
    declared: JSONObject = field(factory=dict)  # the engine's hello entry for the game
    parts: list[Found] = field(factory=list)  # every part merged, in order (a partial certificate's content)
    calls: int = 0  # engine calls of the parts merged (and of minimizing, once it ran)
    explored_calls: int = 0  # ... of the exploration's shards alone
    stop_stage: str = ""  # the stage of the first part that was stopped
    announced: set[str] = field(factory=set)  # clauses told as failed (ClauseFailed)

    @classmethod
    def begin(
        cls, engine: CheckedEngine, game: str, emit: Emit = nothing, stop: threading.Event | None = None
    ) -> GameRun:
        """A game's certification starting now, with nothing merged yet."""
        started = time.perf_counter()
        stopping = stop or threading.Event()
        return cls(engine, properties_for(game), Ledger(), FindingStore(started), Draft(game), emit, stopping, started)

    @property
    def game(self) -> str:
        return self.draft.game

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def estimate(self, profile: Profile) -> None:
        """What a call cost in the head (smoke and fixtures) and how long the exploration will take at
        that cost: told to the outputs and kept in the stats, outside what a seed reproduces."""
        if not self.calls:  # the head's calls, merged
            return
        per_call = self.elapsed() / self.calls
        expected = expected_calls(self.game, profile)
        seconds = per_call * expected
        self.draft.stats["seconds_per_call"] = round(per_call, 6)
        self.draft.stats["estimated_seconds"] = round(seconds, 1)
        self.emit(Estimated(self.game, per_call, expected, seconds, seconds * (1 + profile.minimize_share)))

    def stage(self, name: str, detail: str = "") -> None:
        self.current = name
        self.emit(StageStarted(self.draft.game, name, detail))

    def should_stop(self) -> bool:
        """A stop was requested, or ``stop_after``'s clause has failed."""
        return self.stopping.is_set() or (self.stop_after is not None and self.stop_after in self.store.clauses())

    def announce(self, finding: Finding) -> None:
        """A clause failed: told once per game, whichever part saw it first."""
        if finding.clause not in self.announced:
            self.announced.add(finding.clause)
            self.emit(ClauseFailed(self.game, finding.clause, finding.message))

    def progress(self, job: ShardJob, running: Mapping[str, int], failing: set[str]) -> None:
        """How far the exploration has got: the shards merged, and ``running``'s stats (one running here)."""
        stats = self.draft.stats
        self.emit(
            Explored(
                self.game,
                int(stats.get("examples", 0)) + running.get("examples", 0),
                job.profile.max_examples,
                int(stats.get("steps", 0)) + running.get("steps", 0),
                self.engine.calls,
                len(self.store.clauses() | failing),
            )
        )

    def guarded(self, stage: Callable[[], None]) -> None:
        """Run a stage of the finish on the run's engine: a break or a kit bug is recorded, never raised."""
        calls0 = self.engine.calls
        try:
            stage()
        except AdapterBroken as broken:
            self.calls += self.engine.calls - calls0
            self._broke(Found(self.current, broken=broken, stage=self.current))
            return
        except Exception as exc:  # a bug of the kit itself: the run stops, and what was judged is still written
            self.draft.kit_error = self.draft.kit_error or kit_error(exc)
            self.stopping.set()
        self.calls += self.engine.calls - calls0

    def absorb(self, found: Found) -> None:
        """Merge one more part: hits and counts add up, causes merge (``absorb_causes``), a break or a stop
        stands."""
        self.parts.append(found)
        ledger, store, draft = self.ledger, self.store, self.draft
        ledger.hits.update(found.hits)
        ledger.check_errors.update(found.check_errors)
        for clause, seen in found.situations.items():
            ledger.situations.setdefault(clause, Counter()).update(seen)
        absorb_causes(store.causes, found)
        store.counts.update(found.counts)
        store.fixtures.update(found.fixtures)
        for cause in found.causes:
            self.announce(cause.kept.finding)
        draft.fixtures.update(found.fixture_status)
        draft.skipped.extend(note for note in dict.fromkeys(found.skipped) if note not in draft.skipped)
        for key in EXPLORED:
            if key in found.stats:
                draft.stats[key] = int(draft.stats.get(key, 0)) + found.stats[key]
        self.calls += found.stats.get("calls", 0)
        if found.part.startswith("shard"):
            self.explored_calls += found.stats.get("calls", 0)
        if found.kit_error and not draft.kit_error:
            draft.kit_error = found.kit_error
        self._broke(found)

    def _broke(self, found: Found) -> None:
        broken, draft = found.broken, self.draft
        if broken is not None and draft.broken is None:
            draft.broken = broken
            draft.stopped = Stopped(found.stage, self.calls, f"{broken.kind}: {broken.message}", broken.sent)
        if found.interrupted:
            self.stop_stage = self.stop_stage or found.stage
            self.stopping.set()


def _minimize_all(run: GameRun, profile: Profile, explored: int, declared: JSONObject) -> None:
    """Minimize each cause's counterexample, then confirm it by one more replay.

    ``explored``: the engine calls the exploration made, which sets the game's budget of calls;
    ``declared``: the engine's hello entry, which bounds the smaller setups tried.
    """
    store = run.store
    budget = _Budget(_allowed(run, profile, explored))
    causes = [c for c in reported_causes(store) if run.stop_after in (None, c.clause)]
    # the shallowest counterexamples first: they cost least, and what they leave goes to the deeper ones
    ordered = sorted(causes, key=lambda c: c.start.depth)
    # the causes' replays share one recall: causes that start from one counterexample replay it once
    work = _Minimizing(run, profile, declared, budget, Recall(run.engine))
    # every cause gets the cheap passes first (a long counterexample's probes and earlier moves go for a
    # few replays), then the costly ones with what is left: a deep cause is never starved by the
    # fruitless search of a shallow one
    first = {c.kept.finding.key: work.minimize(c, c.start.trace, c.earlier, quick=True) for c in work.fair(ordered)}
    settled = [work.settle(c, *first[c.kept.finding.key]) for c in work.fair(ordered)]
    rank = {key: i for i, key in enumerate(store.causes)}  # reported in the order first seen
    run.draft.failures.extend(_distinct(sorted(settled, key=lambda f: rank.get(f.finding.key, len(rank)))))
    run.draft.stats["replays"] = budget.replays


def played(stats: Mapping[str, Any]) -> int:
    """The steps a game's run made the engine play: the exploration's and the fixtures' moves (a fixture's
    step costs its calls as an explored one does, so the run's calls a step count both)."""
    return int(stats.get("steps", 0)) + int(stats.get("fixture_steps", 0))


def _allowed(run: GameRun, profile: Profile, explored: int) -> int:
    """The calls minimizing a game's failures may make (``Profile``): a share of the exploration's, within
    ``calls_per_step`` calls per explored step, at least ``minimize_calls``, and never so many that the run
    makes more than ``calls_per_step`` calls per step played (the fixtures' moves too): the floor gives a
    long run's minimizing room, it never takes a short one (``dev``'s) past the cap."""
    allowed = int(profile.minimize_share * explored)
    steps, cap = int(run.draft.stats.get("steps", 0)), int(profile.calls_per_step * played(run.draft.stats))
    if steps:
        allowed = min(allowed, int(profile.calls_per_step * steps) - run.calls)
    allowed = max(profile.minimize_calls, allowed)
    return max(0, min(allowed, cap - run.calls)) if cap else allowed


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


def _minimizable(cause: Cause) -> bool:
    """A violation the properties found, in the exploration or along a fixture's script, is minimized by
    the one minimizer (a replay shows it again); a fixture's own scripted expectation is not (only the
    fixture shows it: it is confirmed by running the fixture again)."""
    return cause.start.source == "properties" or not cause.kept.finding.signature.startswith("fixture:")


@define
class _Minimizing:
    """What minimizing one game's failures shares: the run, the profile's budget, the engine's answers."""

    run: GameRun
    profile: Profile
    declared: JSONObject  # the engine's hello entry: it bounds the smaller setups tried
    budget: _Budget
    recall: Recall

    def fair(self, causes: list[Cause]) -> Iterator[Cause]:
        """The causes in turn, each minimizable one to get at most its share of what is left (what one
        does not use goes to the next), not the first few all of it."""
        self.budget.waiting = sum(1 for c in causes if _minimizable(c))
        yield from causes

    def minimize(
        self, cause: Cause, trace: Trace, hint: frozenset[str], *, quick: bool = False
    ) -> tuple[Trace, frozenset[str]]:
        """``trace`` minimized for ``cause`` (``quick``: the cheap passes alone) within its share, and ``hint``
        narrowed to what every dirty candidate tried had before it; as given when there is nothing to spend."""
        run, budget = self.run, self.budget
        if not _minimizable(cause) or budget.left <= 0:
            return trace, hint
        engine, props_cls, declared = run.engine, run.props_cls, self.declared
        clause, signature = cause.clause, cause.kept.finding.signature
        # CONTRACT-DET-1 is about the engine answering the same twice: never answered from what it said once
        replays = engine if clause == CONTRACT_DETERMINISM else self.recall
        # its confirming replay comes from its share: a fresh replay of the trace as it is, at worst
        reserve = 0 if quick else 2 * len(trace.events) + 2
        before = engine.calls
        try:
            small = minimize(
                trace,
                _reproduces(replays, props_cls, clause, signature),
                budget=self.profile.minimize_replays,
                lenient=lenient_replay(replays, props_cls, clause, signature),  # a dropped move strands nothing
                calls=(lambda: engine.calls, budget.share() - reserve),
                setups=lambda setup: props_cls.smaller_setups(setup, declared),
                adapt=props_cls.adapt_deal,
                fresh=props_cls.fresh_deal,
                quick=quick,
            )
        finally:
            budget.left -= engine.calls - before
        budget.replays += small.replays
        return small.trace, hint & small.prior if small.prior else hint

    def settle(self, cause: Cause, trace: Trace, hint: frozenset[str]) -> Failure:
        """One cause's failure: its counterexample (``trace``, as the cheap passes left it) minimized
        (independent of other violations if it can be), confirmed by a replay on the engine itself,
        with what broke in the same step and what it follows from.

        Its confirming replay is paid from the game's budget too, so that what the causes after it may
        spend shrinks by it: an engine failing many clauses costs at most about (1 + share) times its
        exploration."""
        trace, hint = self.minimize(cause, trace, hint)
        before = self.run.engine.calls
        try:
            return _replayed(self.run, cause, trace, hint, self.budget)
        finally:
            self.budget.left -= self.run.engine.calls - before


def _replayed(run: GameRun, cause: Cause, trace: Trace, hint: frozenset[str], budget: _Budget) -> Failure:
    """The failure a fresh replay of ``trace`` confirms (a fixture's own expectation: running it again)."""
    engine, props_cls = run.engine, run.props_cls
    start, clause, signature = cause.start, cause.clause, cause.kept.finding.signature
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
    together, prior = outcome.related(at, clause, signature)
    return _failure(cause, trace, prior=prior, states=outcome.states[: len(trace.events)], together=together, hint=hint)


def _failure(  # noqa: PLR0913 - the parts of a Failure, by name
    cause: Cause,
    trace: Trace,
    *,
    prior: frozenset[str],
    states: tuple[State, ...] = (),
    unconfirmed: str = "",
    together: tuple[tuple[str, str], ...] = (),
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
        tuple(c for c, _ in together),
        follows,
        tuple(sig for _, sig in together),
    )


def _fixture_failure(run: GameRun, cause: Cause, fixture: Fixture, states: tuple[State, ...] = ()) -> Failure:
    """A fixture's failure of a scripted expectation, confirmed by running the fixture again (which also
    gives ``with``); ``states``: the engine's states along its trace, from a replay of it."""
    kept = cause.start
    seen = _fixture_findings(run.engine, run.props_cls, fixture)
    at = next((i for i, f in seen if f.key == kept.finding.key), None)
    if at is None:
        return _failure(cause, kept.trace, prior=kept.prior, unconfirmed=NOT_REPRODUCED)
    mine = next(f for i, f in seen if i == at and f.key == kept.finding.key)
    together = replayed_together(mine, [f for i, f in seen if i == at])
    return _failure(cause, kept.trace, prior=kept.prior, states=states, together=together, hint=cause.earlier)


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
    together, prior = outcome.related(at, clause, signature)
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
            out[clause] = (
                "covered" if clause in props_cls.covered_only else _passed(props_cls, ledger, clause, declared)
            )
        else:
            out[clause] = "untested"
    return out


def _passed(
    props_cls: type[GameProperties], ledger: Ledger, clause: str, declared: dict[str, Any] | None = None
) -> str:
    """``pass`` once every situation the clause names was judged; ``partial`` before that."""
    seen = ledger.situations.get(clause, Counter())
    names = props_cls.situations_for(declared or {}).get(clause, ())
    return "partial" if any(not seen.get(name) for name in names) else "pass"


def _skipped_by_options(props_cls: type[GameProperties], declared: dict[str, Any]) -> set[str]:
    """Clauses that only an option value or player count the engine does not declare could exercise."""
    options = declared.get("options", {})
    reachable: dict[str, bool] = {}  # clause -> some value that exercises it is declared
    for (name, value), clauses in props_cls.option_clauses.items():
        allowed = options.get(name)
        if name == "players":
            declared_it = value in declared.get("players", [])
        elif allowed is None:  # not declared: only its default is played
            declared_it = value == props_cls.option_default(name, min(declared.get("players") or [0]) or 0)
        else:
            declared_it = isinstance(allowed, dict) or value in allowed
        for clause in clauses:
            reachable[clause] = reachable.get(clause, False) or declared_it
    return {clause for clause, yes in reachable.items() if not yes}
