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

from attrs import frozen

from ruleproof.model.certificate import Certificate
from ruleproof.model.engine import AdapterBroken, JSONObject
from ruleproof.model.errors import UsageError
from ruleproof.model.report import GameReport
from ruleproof.properties import available_games
from ruleproof.run.events import Emit, GameFinished, RunFinished, RunStarted, nothing
from ruleproof.run.expect import RunInputs, baseline_warnings, judge_game
from ruleproof.run.runner import PROFILES, certify_game
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
) -> Certificate:
    """Certify ``engine`` (or say it could not even be started: ``AdapterBroken``); the certificate.

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
        )
        if request.inputs is not None:  # --expect and --baseline decide the verdict
            report = judge_game(report, request.inputs)
        saved += save_traces(report, hello["engine"])
        reports.append(report)
        emit(GameFinished(report))
        if report.interrupted:
            break
    return _finished(request, stop, emit, hello, tuple(reports), games=games, saved=saved)


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
        created=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
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
