"""A whole certification: ``hello``, each game (``ruleproof.run.runner``), then the certificate.

The front ends (the ``ruleproof certify`` command, the pytest plugin) open the engine, build a
``Request`` from their options and hand ``certify`` the handlers of their outputs; every outcome, a
pass as much as an engine that cannot start or a run stopped by SIGTERM, ends in one
``RunFinished`` event carrying the certificate that every output file is made from.
"""

from __future__ import annotations

import datetime
import threading
from collections.abc import Callable, Sequence

from attrs import evolve, frozen

from ruleproof.model.certificate import Certificate
from ruleproof.model.engine import AdapterBroken, JSONObject
from ruleproof.model.errors import UsageError
from ruleproof.model.report import GameReport
from ruleproof.properties import available_games
from ruleproof.run.events import Emit, GameFinished, GameStarted, RunFinished, RunStarted, nothing
from ruleproof.run.expect import RunInputs, baseline_warnings, judge_game
from ruleproof.run.partial import GamePart, Partial
from ruleproof.run.parts import steps_for
from ruleproof.run.runner import PROFILES, Explorer, GameRun, certify_game, collect, finish, merged
from ruleproof.run.shards import owned
from ruleproof.transport.checked import CheckedEngine

# saves a finished game's counterexamples as trace files: (game:clause, path) for each
SaveTraces = Callable[[GameReport, JSONObject], list[tuple[str, str]]]


@frozen
class Request:
    """What to certify and how hard: every front end's options come down to this."""

    games: tuple[str, ...] = ()  # empty: every game the engine declares that the kit has rules for
    profile: str = "ci"
    seed: int | None = None
    fixtures: bool = True
    properties: bool = True
    inputs: RunInputs | None = None  # --expect, --baseline, --fixtures, loaded and checked
    engine_args: tuple[str, ...] = ()  # how to name the engine in a replay command
    expect_file: str | None = None
    baseline_file: str | None = None
    fallback_name: str = "?"  # the engine's name when it never answered hello


def certify(
    engine: CheckedEngine | AdapterBroken,
    request: Request,
    *,
    stop: threading.Event | None = None,
    emit: Emit = nothing,
    save_traces: SaveTraces = lambda report, engine: [],
    explorer: Explorer | None = None,
) -> Certificate:
    """Certify ``engine`` (or say it could not even be started: ``AdapterBroken``); the certificate.

    ``explorer`` explores the shards elsewhere (``ruleproof.run.pool.ShardPool``: ``--workers``).
    ``UsageError`` when the games asked for are not ones the engine declares.
    """
    stop = stop or threading.Event()
    if isinstance(engine, AdapterBroken):
        return _finished(request, stop, emit, {}, (), broken=engine)
    try:
        hello = engine.hello()
    except AdapterBroken as broken:
        return _finished(request, stop, emit, {}, (), broken=broken)
    games = games_to_certify(request.games, hello)
    emit(RunStarted(hello["engine"], tuple(games), request.profile))
    reports: list[GameReport] = []
    saved: list[tuple[str, str]] = []
    for game in games:
        if stop.is_set():
            break
        report = certify_game(
            engine,
            game,
            PROFILES[request.profile],
            seed=request.seed,
            emit=emit,
            fixtures=request.fixtures,
            properties=request.properties,
            stop=stop,
            user_fixtures=request.inputs.fixtures if request.inputs else (),
            explorer=explorer,
        )
        saved += _judged(report, request, reports, emit, lambda r: save_traces(r, hello["engine"]))
        if report.interrupted:
            break
    return _finished(request, stop, emit, hello, tuple(reports), games=games, saved=saved)


def _judged(
    report: GameReport,
    request: Request,
    reports: list[GameReport],
    emit: Emit,
    save: Callable[[GameReport], list[tuple[str, str]]],
) -> list[tuple[str, str]]:
    """A finished game: judged by --expect and --baseline, its traces saved, added to ``reports``, told."""
    if request.inputs is not None:  # --expect and --baseline decide the verdict
        report = judge_game(report, request.inputs)
    saved = save(report)
    reports.append(report)
    emit(GameFinished(report))
    return saved


def certify_part(
    engine: CheckedEngine | AdapterBroken,
    request: Request,
    shard: tuple[int, int],
    *,
    stop: threading.Event | None = None,
    emit: Emit = nothing,
    explorer: Explorer | None = None,
) -> Partial:
    """Part ``shard`` = (K, N) of a certification (``--shard K/N``): every game's head when K is 1, and the
    shards part K explores (``owned``); nothing minimized, for ``merge``.  The run's seed must be fixed
    (``--seed`` or a derandomized profile): every part must explore from the same one."""
    stop = stop or threading.Event()
    profile = PROFILES[request.profile]
    part = Partial(
        {"name": request.fallback_name, "version": "?"},
        request.profile,
        request.seed,
        shard,
        profile.shards,
        request.games,
        request.fixtures,
        request.properties,
        request.engine_args,
        (),
    )
    if isinstance(engine, AdapterBroken):
        return evolve(part, broken=engine, created=_now())
    try:
        hello = engine.hello()
    except AdapterBroken as broken:
        return evolve(part, broken=broken, created=_now())
    games = games_to_certify(request.games, hello)
    emit(RunStarted(hello["engine"], tuple(games), request.profile))
    reports: list[GamePart] = []
    for game in games:
        if stop.is_set():
            break
        run = GameRun.begin(engine, game, emit, stop)
        emit(GameStarted(game, profile.max_examples, steps_for(game, profile)))
        user = request.inputs.fixtures if request.inputs else ()
        only = owned(profile.shards, *shard)
        collect(run, profile, request.seed, fixtures=request.fixtures, properties=request.properties, user=user,
                explorer=explorer, head=shard[0] == 1, only=only)  # fmt: skip
        reports.append(GamePart(game, run.declared, tuple(run.parts)))
    interrupted = stop_reason(stop) if stop.is_set() else None
    part = evolve(part, engine=hello["engine"], games=tuple(games), reports=tuple(reports), interrupted=interrupted)
    return evolve(part, created=_now())


def merge(
    parts: Sequence[Partial],
    engine: CheckedEngine,
    request: Request,
    *,
    stop: threading.Event | None = None,
    emit: Emit = nothing,
    save_traces: SaveTraces = lambda report, engine: [],
) -> Certificate:
    """The certificate of the run whose parts these are (``ruleproof.run.partial.one_run`` checked them,
    in the order 1..N): each game's parts merged as a single run merges its own, then minimized and
    confirmed on ``engine``, which is called only when something failed.  ``request`` gives the outputs'
    settings (--expect, --baseline); the run's own (profile, seed, games) are the parts'."""
    stop = stop or threading.Event()
    first = parts[0]
    request = evolve(
        request,
        games=first.games,
        profile=first.profile,
        seed=first.seed,
        fixtures=first.fixtures,
        properties=first.properties,
        engine_args=first.engine_args,
    )
    broken = next((p.broken for p in parts if p.broken is not None), None)
    if broken is not None:
        return _finished(request, stop, emit, {}, (), broken=broken)
    why = next((p.interrupted for p in parts if p.interrupted), None)
    if why is not None and isinstance(stop, StopRequest):
        stop.stop(why)  # a part was stopped: so is the run they make up
    hello = {"engine": first.engine}
    emit(RunStarted(first.engine, first.games, first.profile))
    reports: list[GameReport] = []
    saved: list[tuple[str, str]] = []
    for game in first.games:
        pieces = [next((r for r in p.reports if r.game == game), None) for p in parts]
        if any(piece is None for piece in pieces):
            break  # a part stopped before this game: so did the run
        report = _merged_game(engine, game, [piece for piece in pieces if piece is not None], first, stop, emit)
        saved += _judged(report, request, reports, emit, lambda r: save_traces(r, first.engine))
        if report.interrupted:
            break
    if why is not None and not stop.is_set():
        stop.set()
    return _finished(request, stop, emit, hello, tuple(reports), games=first.games, saved=saved)


def _merged_game(
    engine: CheckedEngine, game: str, pieces: Sequence[GamePart], first: Partial, stop: threading.Event, emit: Emit
) -> GameReport:
    """One game of the parts: the head of part 1, then every shard in its order, merged and finished."""
    profile = PROFILES[first.profile]
    run = GameRun.begin(engine, game, emit, stop)
    run.declared = pieces[0].declared
    emit(GameStarted(game, profile.max_examples, steps_for(game, profile)))
    shards = sorted(((k, f) for piece in pieces for k, f in piece.shards().items()), key=lambda kf: kf[0])
    merged(run, profile, first.seed, pieces[0].head, [f for _, f in shards], properties=first.properties)
    return finish(run, profile)


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def _finished(  # noqa: PLR0913 - the parts of a certificate, by name
    request: Request,
    stop: threading.Event,
    emit: Emit,
    hello: JSONObject,
    reports: tuple[GameReport, ...],
    *,
    games: Sequence[str] = (),
    saved: Sequence[tuple[str, str]] = (),
    broken: AdapterBroken | None = None,
) -> Certificate:
    engine = hello.get("engine") or {"name": request.fallback_name, "version": "?"}
    baseline = request.inputs.baseline if request.inputs else None
    warnings = baseline_warnings([r.game for r in reports], baseline, engine) if baseline and hello else []
    interrupted = stop_reason(stop) if stop.is_set() else None
    cert = Certificate(
        engine,
        request.profile,
        request.seed,
        reports,
        request.engine_args,
        tuple(saved),
        expect_file=request.expect_file,
        baseline_file=request.baseline_file,
        baseline_warnings=tuple(warnings),
        interrupted=interrupted,
        not_run=tuple(games[len(reports) :]) if interrupted else (),
        broken=broken,
        created=_now(),
    )
    emit(RunFinished(cert))
    return cert


class StopRequest(threading.Event):
    """A stop event that says why it was set ("SIGTERM", "--max-time 60s")."""

    def __init__(self) -> None:
        super().__init__()
        self.reason = ""

    def stop(self, reason: str) -> None:
        self.reason = self.reason or reason
        self.set()


def stop_reason(stop: threading.Event) -> str:
    """Why the run was stopped, when the front end said (a ``StopRequest``)."""
    return (stop.reason if isinstance(stop, StopRequest) else "") or "stopped"


def games_to_certify(asked: Sequence[str], hello: JSONObject) -> list[str]:
    """The games to certify: those asked for, else every declared game the kit has rules for."""
    declared = list(hello["games"])
    if not declared:
        raise UsageError("the engine declares no game (hello.games is empty): nothing to certify")
    missing = [g for g in asked if g not in declared]
    if missing:
        raise UsageError(
            f"--game: the engine does not declare {', '.join(missing)} (it declares {', '.join(declared)})"
        )
    games = list(asked) or [g for g in declared if g in available_games()]
    if not games:
        raise UsageError(
            f"the engine declares only games the kit has no rules for ({', '.join(declared)}): nothing to certify"
        )
    return games
