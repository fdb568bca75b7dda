"""The ``ruleproof`` command: certify, replay, serve, check fixtures.

Exit status: 0 every clause passes, 1 a rule is violated, 2 the engine or
adapter is broken, the call is wrong, or nothing could be judged (an
interrupted run with no violation included).  A wrong call gets one line that
names the argument, file or field; ``--debug`` adds the traceback.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from attrs import frozen
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from ruleproof import GAMES, __version__
from ruleproof.cli.options import (
    DEFAULT_TIMEOUT,
    DEFAULT_TRACES,
    PROFILE_NAMES,
    Options,
    UsageError,
    parse_command,
    parse_seconds,
)
from ruleproof.model.engine import AdapterBroken, EngineError, EngineLoadError, JSONObject
from ruleproof.run import diff as diff_command

if TYPE_CHECKING:  # imported where used, so that ``ruleproof --help`` stays quick
    from ruleproof.model.certificate import Certificate
    from ruleproof.model.findings import Trace
    from ruleproof.model.report import GameReport
    from ruleproof.run.replay import ReplayOutcome
    from ruleproof.transport.checked import CheckedEngine

STATUS_STYLE = {
    "pass": "green",
    "fail": "bold red",
    "untested": "yellow",
    "skipped": "dim",
    "broken": "bold magenta",
    "interrupted": "bold yellow",
    "xfail": "cyan",
    "xpass": "bold red",
    "covered": "blue",
    "partial": "yellow",
}
SIGNAL_EXIT = {"SIGINT": 130, "SIGTERM": 143}  # 128 + the signal number, as a shell reports it


class Parser(argparse.ArgumentParser):
    """argparse, but a wrong call is one line (and exit 2), not the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> Parser:
    common = Parser(add_help=False)  # a Parser like every subcommand's, whose parents must share its class
    common.add_argument("--debug", action="store_true", help="show the traceback of an error")
    parser = Parser(prog="ruleproof", description="Property-based rules conformance for game engines.")
    parser.add_argument("--version", action="version", version=f"ruleproof {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    c = sub.add_parser(
        "certify", parents=[common], help="certify an engine against the rules (properties and fixtures)"
    )
    c.add_argument(
        "--game",
        action="append",
        choices=GAMES,
        help="a game to certify (repeatable; default: all the engine declares)",
    )
    add_engine_options(c)
    c.add_argument("--profile", choices=PROFILE_NAMES, default="ci", help="how hard to look (default: ci)")
    c.add_argument("--seed", metavar="N", help="explore from this seed instead of the profile's default")
    c.add_argument("--json", metavar="PATH", help="write the certificate as JSON")
    c.add_argument("--junit", metavar="PATH", help="write one JUnit test case per clause")
    c.add_argument(
        "--html", metavar="PATH", help="write the report as one self-contained HTML page (the certificate embedded)"
    )
    c.add_argument(
        "--traces", metavar="DIR", default=DEFAULT_TRACES, help="where failure traces are saved (default: %(default)s)"
    )
    c.add_argument("--no-fixtures", action="store_true", help="skip the fixtures")
    c.add_argument("--no-properties", action="store_true", help="skip the state machine")
    c.add_argument(
        "--max-time",
        metavar="SECONDS",
        help="stop after this long and write a partial certificate (marked interrupted)",
    )
    add_expect_options(c)

    r = sub.add_parser("replay", parents=[common], help="re-run a saved failure trace: FIXED or still FAILED")
    r.add_argument("trace", metavar="TRACE")
    add_engine_options(r)

    s = sub.add_parser(
        "serve", parents=[common], help="serve the reference engines over stdio (JSON-RPC, protocol.md §1)"
    )
    s.add_argument("--game", action="append", choices=GAMES, help="serve only this game (repeatable; default: all)")
    s.add_argument(
        "--engine",
        metavar="MODULE:FACTORY",
        help="serve this Python engine instead of the reference (to try an engine behind the pipe)",
    )

    f = sub.add_parser("fixtures", parents=[common], help="validate fixture files against the fixture schema")
    f.add_argument("paths", nargs="*", metavar="PATH", help="fixture files or folders (default: the bundled ones)")
    f.add_argument(
        "--from-trace",
        metavar="TRACE",
        help="turn a failure trace saved by certify into a fixture pinning the expected behaviour",
    )
    f.add_argument("-o", "--output", metavar="FILE", help="with --from-trace: write the fixture here (default: stdout)")
    diff_command.add_parser(sub, parents=[common])
    return parser


def add_expect_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--expect",
        metavar="FILE",
        help='TOML of declared deviations, [GAME] CLAUSE = "reason": a listed failure is xfail, a listed pass xpass',
    )
    p.add_argument(
        "--baseline",
        metavar="CERT.json",
        help="an earlier certificate (--json) of this engine: show regressions, fixed and untested clauses",
    )
    p.add_argument(
        "--fixtures", action="append", metavar="DIR", help="also run your own fixture files from DIR (repeatable)"
    )


def add_engine_options(p: argparse.ArgumentParser) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--engine", metavar="MODULE:FACTORY", help="a Python engine factory (default: the reference engines)"
    )
    group.add_argument(
        "--engine-cmd",
        metavar="CMD",
        help="an engine in any language: a command speaking the JSON-RPC contract on stdio",
    )
    p.add_argument(
        "--timeout",
        metavar="SECONDS",
        help=f"limit for one engine call, in process or over the pipe (default {DEFAULT_TIMEOUT:g})",
    )


def options_from(args: argparse.Namespace) -> Options:
    """The one options object, from ``certify``'s arguments (the pytest plugin builds the same)."""
    return Options.build(
        engine=args.engine,
        engine_cmd=args.engine_cmd,
        timeout=args.timeout,
        games=args.game,
        profile=args.profile,
        seed=args.seed,
        json_path=args.json,
        junit_path=args.junit,
        html_path=args.html,
        traces=args.traces,
        fixtures=not args.no_fixtures,
        properties=not args.no_properties,
        max_time=args.max_time,
        expect=args.expect,
        baseline=args.baseline,
        fixture_dirs=args.fixtures,
    )


# -- certify ---------------------------------------------------------------------------------------


class Stopper:
    """The ``stop`` event handed to the runner, set by SIGTERM, a first Ctrl-C, or ``--max-time``."""

    def __init__(self, max_time: float | None) -> None:
        self.event = threading.Event()
        self.reason: str | None = None
        self.signal: str | None = None
        self._timer = threading.Timer(max_time, self._expire, args=(max_time,)) if max_time else None
        self._saved: dict[int, Any] = {}

    def __enter__(self) -> Stopper:
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGINT):
                self._saved[sig] = signal.signal(sig, self._on_signal)
        if self._timer is not None:
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._timer is not None:
            self._timer.cancel()
        for sig, handler in self._saved.items():
            signal.signal(sig, handler)

    def _expire(self, seconds: float) -> None:
        self._set(f"--max-time {seconds:g}s")

    def _on_signal(self, signum: int, frame: Any) -> None:
        name = signal.Signals(signum).name
        if self.event.is_set() and name == "SIGINT":
            raise KeyboardInterrupt  # a second Ctrl-C: stop now, without a certificate
        self.signal = self.signal or name
        self._set(name)

    def _set(self, reason: str) -> None:
        if not self.event.is_set():
            self.reason = reason
            self.event.set()


def cmd_certify(args: argparse.Namespace, out: Console, err: Console) -> int:
    from ruleproof.properties import available_games
    from ruleproof.transport.checked import CheckedEngine

    opts = options_from(args)  # every argument and output path is checked before the engine starts
    with Stopper(opts.max_time) as stopper:
        try:
            checked = CheckedEngine(opts.open_engine(stopper.event))
        except AdapterBroken as broken:  # it cannot even start: still a certificate that says so
            return _finish(opts, Certified({}, list(opts.games), [], broken, "start"), stopper, out, err)
        try:
            try:
                hello = checked.hello()
            except AdapterBroken as broken:
                return _finish(opts, Certified({}, list(opts.games), [], broken, "hello"), stopper, out, err)
            games = _games_to_certify(opts, hello, available_games())
            reports = _run(checked, games, opts, stopper, err)
        finally:
            checked.close()
    return _finish(opts, Certified(hello, games, reports), stopper, out, err)


@frozen
class Certified:
    """What a certify run produced: the engine's ``hello``, the games asked for, a report per game run;
    ``broken`` when the engine could not be started or answer ``hello`` (no game was run)."""

    hello: JSONObject
    games: list[str]
    reports: list[GameReport]
    broken: AdapterBroken | None = None
    broken_at: str = ""  # "start" or "hello"


def _games_to_certify(opts: Options, hello: JSONObject, available: list[str]) -> list[str]:
    declared = list(hello["games"])
    if not declared:
        raise UsageError("the engine declares no game (hello.games is empty): nothing to certify")
    missing = [g for g in opts.games if g not in declared]
    if missing:
        raise UsageError(
            f"--game: the engine does not declare {', '.join(missing)} (it declares {', '.join(declared)})"
        )
    games = list(opts.games) or [g for g in declared if g in available]
    if not games:
        raise UsageError(
            f"the engine declares only games the kit has no rules for ({', '.join(declared)}): nothing to certify"
        )
    return games


def _run(
    checked: CheckedEngine, games: Sequence[str], opts: Options, stopper: Stopper, err: Console
) -> list[GameReport]:
    from ruleproof.run.runner import PROFILES, certify_game

    reports = []
    columns = (
        SpinnerColumn(),
        TextColumn("[bold]{task.fields[game]}[/]"),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err, transient=False) as progress:
        for game in games:
            if stopper.event.is_set():
                break
            task = progress.add_task("starting", game=game)

            def show(g: str, message: str, task: TaskID = task) -> None:
                progress.update(task, description=escape(message))

            report = certify_game(
                checked,
                game,
                PROFILES[opts.profile],
                seed=opts.seed,
                progress=show,
                fixtures=opts.fixtures,
                properties=opts.properties,
                stop=stopper.event,
                user_fixtures=opts.inputs.fixtures if opts.inputs else (),
            )
            if opts.inputs is not None:  # --expect and --baseline decide the verdict shown below
                from ruleproof.run.expect import judge_game

                judge_game(report, opts.inputs)
            from ruleproof.model.certificate import game_verdict

            verdict = game_verdict(report)
            progress.update(task, description=f"[{STATUS_STYLE.get(verdict, '')}]{verdict}[/] in {report.seconds:.1f}s")
            reports.append(report)
            if report.interrupted:
                break
    return reports


def _finish(opts: Options, run: Certified, stopper: Stopper, out: Console, err: Console) -> int:
    from ruleproof.model.certificate import Certificate
    from ruleproof.output.files import write_atomic, write_traces
    from ruleproof.output.junit import junit_xml
    from ruleproof.run.expect import baseline_warnings, print_differences

    hello, games, reports = run.hello, run.games, run.reports
    engine = hello.get("engine") or {"name": opts.engine or opts.engine_cmd_text or "?", "version": "?"}
    interrupted = stopper.reason if stopper.event.is_set() else None
    baseline = opts.inputs.baseline if opts.inputs else None
    warnings = baseline_warnings([r.game for r in reports], baseline, engine) if baseline and hello else []
    for warning in warnings:
        err.print(f"[yellow]warning[/]: {escape(warning)}")
    saved = write_traces(reports, opts.traces, engine)
    cert = Certificate(
        engine,
        opts.profile,
        opts.seed,
        tuple(reports),
        opts.engine_args,
        tuple(saved),
        expect_file=opts.expect,
        baseline_file=opts.baseline,
        baseline_warnings=tuple(warnings),
        interrupted=interrupted,
        not_run=tuple(games[len(reports) :]) if interrupted else (),
        broken=run.broken,
    )
    if run.broken is not None:
        _print_broken(err, run.broken_at, run.broken)
    _print_report(out, cert)
    print_differences(out, cert)
    if opts.json_path is not None:
        write_atomic(opts.json_path, json.dumps(cert.to_json(), indent=1, default=str) + "\n")
    if opts.junit_path is not None:
        write_atomic(opts.junit_path, junit_xml(cert))
    if opts.html_path is not None:
        from ruleproof.output.html import render_html

        write_atomic(opts.html_path, render_html(cert.to_json()))  # the page embeds and draws this very JSON
    if cert.verdict == "untested":
        err.print("[yellow]nothing was judged[/]: every clause is untested or skipped, so this is not a pass")
    if interrupted is not None:
        where = f"; certificate {opts.json_path}" if opts.json_path else ""
        err.print(f"[yellow]interrupted[/] ({interrupted}): the verdicts so far are kept, marked interrupted{where}")
        if stopper.signal in SIGNAL_EXIT:
            return SIGNAL_EXIT[stopper.signal]
    return cert.exit_status


def _print_report(out: Console, cert: Certificate) -> None:
    from ruleproof.output.render import render_failure

    for r in cert.reports:
        out.print(_clause_table(r))
        if r.broken is not None and r.broken.kind == "interrupted":  # the run was stopping: not the engine's fault
            out.print(f"[yellow]stopped[/] ({r.game}): {escape(r.broken.message)}")
        elif r.broken is not None:
            _print_broken(out, r.game, r.broken)
        if r.kit_error:
            out.print(f"[bold red]kit error[/] ({r.game}): {escape(r.kit_error)} (a bug of ruleproof, not the engine)")
        data = cert.to_json()["games"][r.game]  # drawn from the certificate JSON, as --json and --html have it
        for failure in data["failures"]:  # an xfail (declared in --expect) is shown, but not as a failure
            out.print(
                render_failure(r.game, failure, data["clauses"].get(failure["clause"])), soft_wrap=True
            )  # JSON stays copyable
        untested = [c for c, s in r.clauses.items() if s == "untested"]
        if untested:
            out.print(f"[yellow]untested (no run reached them; not passed):[/] {escape(', '.join(untested))}")
        for note in r.skipped:
            out.print(f"[dim]skipped: {escape(note)}[/]")
    out.print(f"[{STATUS_STYLE.get(cert.verdict, '')}]{cert.verdict.upper()}[/]: {escape(summary_line(cert.reports))}")


def verdict_text(r: GameReport, clause: str, status: str) -> str:
    """A clause's verdict as shown: "fail, after BM-PASS-1" for a failure that follows others."""
    follows = r.follows(clause) if status in ("fail", "xfail") else ()
    return f"{status}, after {', '.join(follows)}" if follows else status


def summary_line(reports: Sequence[GameReport]) -> str:
    """Deviations first (each group of clauses broken together counts once), then their consequences,
    then the other verdicts."""
    deviations = [group for r in reports for group in r.deviations()]
    consequences = [c for r in reports for c in r.consequences()]
    counts: dict[str, int] = {}
    for r in reports:
        for status in r.clauses.values():
            counts[status] = counts.get(status, 0) + 1
    parts = []
    if deviations:
        named = "; ".join(" with ".join(g) if len(g) > 1 else g[0] for g in deviations[:6])
        more = f"; +{len(deviations) - 6} more" if len(deviations) > 6 else ""
        parts.append(f"{len(deviations)} deviation{'s' if len(deviations) != 1 else ''} ({named}{more})")
    if consequences:
        parts.append(f"{len(consequences)} consequence{'s' if len(consequences) != 1 else ''} of them")
    verdicts = ", ".join(f"{n} {s}" for s, n in counts.items())
    return " · ".join([*parts, verdicts or "no clause"])


def _clause_table(r: GameReport) -> Table:
    """One game's verdicts, a row per clause, with the first failure's message or why it stands as it does."""
    from ruleproof.model.certificate import game_verdict
    from ruleproof.run.expect import expectation_notes

    verdict = game_verdict(r)
    table = Table(title=f"{r.game}: {verdict}", title_style=STATUS_STYLE.get(verdict, ""), show_lines=False)
    table.add_column("clause")
    table.add_column("verdict")
    table.add_column("checks", justify="right")
    table.add_column("note", overflow="fold")
    notes: dict[str, str] = {}
    for f in r.failures:
        notes.setdefault(f.finding.clause, f.finding.message)
    notes.update(expectation_notes(r))
    for clause in r.clauses:  # a partial clause says which of its situations no run reached
        if r.missing(clause) and clause not in notes:
            notes[clause] = f"not reached: {', '.join(r.missing(clause))}"
    for clause, status in r.clauses.items():
        style = STATUS_STYLE.get(status, "")
        shown = verdict_text(r, clause, status)
        table.add_row(
            escape(clause),
            f"[{style}]{escape(shown)}[/]" if style else escape(shown),
            str(r.hits.get(clause, 0)),
            escape(notes.get(clause, "")),
        )
    return table


def _print_broken(out: Console, where: str, broken: AdapterBroken) -> None:
    method = broken.sent.get("method") if isinstance(broken.sent, dict) else None
    on = f" on {method}" if method else ""  # the one line names the request that got no usable answer
    out.print(f"[bold magenta]ADAPTER BROKEN[/] ({where}, {broken.kind}){on}: {escape(broken.message)}")
    if broken.sent is not None:
        out.print(f"  sent:     {escape(json.dumps(broken.sent, default=str)[:500])}")
    if broken.received is not None:
        out.print(f"  received: {escape(json.dumps(broken.received, default=str)[:500])}")
    if broken.stderr:
        out.print("  engine stderr (tail):")
        for line in broken.stderr.splitlines()[-10:]:
            out.print(f"    {escape(line)}")


# -- replay ------------------------------------------------------------------------------------------


def read_json_file(path: str, what: str) -> Any:
    """The JSON in ``path``; a missing, unreadable, non-UTF-8, non-JSON or too deeply nested file: ``UsageError``."""
    p = Path(path)
    if p.is_dir():
        raise UsageError(f"{what} {path}: is a directory; give a file")
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"{what} {path}: no such file") from None
    except OSError as err:
        raise UsageError(f"{what} {path}: cannot read it ({err.strerror or err})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise UsageError(f"{what} {path}: not UTF-8 (byte {raw[err.start]:#04x} at offset {err.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise UsageError(f"{what} {path}: not JSON ({err.msg} at line {err.lineno}, column {err.colno})") from None
    except RecursionError:  # json's C scanner counts its depth: 10^5 nested arrays end here, not in a crash
        raise UsageError(f"{what} {path}: JSON nested too deeply") from None


def load_trace(path: str) -> Trace:
    """A replayable trace of a game the kit knows, or a ``UsageError`` naming the file and field."""
    from ruleproof.model.findings import Trace, TraceError
    from ruleproof.properties import available_games

    data = read_json_file(path, "trace")
    try:
        trace = Trace.from_json(data)
    except TraceError as err:
        raise UsageError(f"trace {path}: {err}") from None
    if trace.game not in available_games():
        raise UsageError(
            f"trace {path}: game: {trace.game!r} is not a game the kit knows ({', '.join(available_games())})"
        )
    for i, event in enumerate(trace.events):
        if event.kind == "new_game" and event.value.get("game") != trace.game:
            game = event.value.get("game")
            raise UsageError(f"trace {path}: steps[{i}].new_game.game is {game!r}, but the trace is of {trace.game!r}")
    return trace


def cmd_replay(args: argparse.Namespace, out: Console, err: Console) -> int:
    from ruleproof.cli.options import open_engine
    from ruleproof.properties import properties_for
    from ruleproof.run.replay import replay
    from ruleproof.transport.checked import CheckedEngine

    trace = load_trace(args.trace)
    timeout = DEFAULT_TIMEOUT if args.timeout is None else parse_seconds(args.timeout, "--timeout")
    argv = parse_command(args.engine_cmd) if args.engine_cmd is not None else ()
    checked = CheckedEngine(open_engine(args.engine, argv, timeout))
    try:
        hello = checked.hello()
        if trace.game not in hello["games"]:
            raise UsageError(
                f"the engine does not declare {trace.game} (it declares {', '.join(hello['games']) or 'nothing'})"
            )
        outcome = replay(trace, checked, properties_for(trace.game))
    except AdapterBroken as broken:
        _print_broken(err, trace.game, broken)
        return 2
    finally:
        checked.close()
    return _print_replay(out, err, trace, outcome)


def _print_replay(out: Console, err: Console, trace: Trace, outcome: ReplayOutcome) -> int:
    want = trace.finding.clause if trace.finding else None
    steps = len(trace.events)
    if outcome.findings:
        status = outcome.status(want) if want else "other"
        first = next((f for f in outcome.findings if f.clause == want), outcome.findings[0])
        label = "still FAILED" if status == "same" else f"FAILED differently (was {want})" if want else "FAILED"
        out.print(f"[bold red]{label}[/] {escape(first.clause)}: {escape(first.message)}")
        out.print(f"  expected: {escape(json.dumps(first.expected, default=str))}", soft_wrap=True)
        out.print(f"  got:      {escape(json.dumps(first.got, default=str))}", soft_wrap=True)
        others = sorted({f.clause for f in outcome.findings} - {first.clause})
        if others:
            out.print(f"  also violated: {escape(', '.join(others))}")
        return 1
    if outcome.diverged is not None:  # expected after a fix: the game goes elsewhere, so nothing fails
        out.print(f"[yellow]DIVERGED[/] at step {outcome.diverged + 1} of {steps}: {escape(outcome.divergence)}")
        out.print(
            f"  no clause was violated up to there (was {want}); after a fix the game goes another way, as"
            " expected: certify again to judge it"
        )
        return 0
    was = f" (was {want})" if want else ""
    out.print(
        f"[green]FIXED[/]: {steps} steps replayed, no clause violated{was}"
        if want
        else f"[green]OK[/]: {steps} steps replayed, no clause violated"
    )
    return 0


# -- serve, fixtures ---------------------------------------------------------------------------------


def cmd_serve(args: argparse.Namespace, out: Console, err: Console) -> int:
    from ruleproof.model.engine import make_engine
    from ruleproof.transport.server import serve

    engine = make_engine(args.engine, from_cwd=True) if args.engine else None  # a bad spec: one line (EngineLoadError)
    return serve(args.game or None, engine=engine)


def cmd_fixtures(args: argparse.Namespace, out: Console, err: Console) -> int:
    from ruleproof.model.fixtures import Fixture, FixtureError, bundled
    from ruleproof.run.fixtures import load_dirs, validate

    if args.from_trace:
        return _fixture_from_trace(args, out)
    if args.output:
        raise UsageError("-o/--output: only with --from-trace")
    try:
        if args.paths:
            found = [
                fx
                for p in args.paths
                for fx in (
                    load_dirs([p], beside_bundled=False)
                    if Path(p).is_dir()
                    else [Fixture.parse(read_json_file(p, "fixture"), p)]
                )
            ]
        else:
            found = [fx for g in GAMES for fx in bundled(g)]
        for fx in found:  # clause IDs the game knows, moves in the game's schema
            validate(fx)
    except FixtureError as exc:
        err.print(f"[red]invalid fixture[/]: {escape(str(exc))}")
        return 2
    for fx in found:
        out.print(f"ok {escape(fx.path)}: {fx.id} ({', '.join(fx.clauses)})")
    return 0


def _fixture_from_trace(args: argparse.Namespace, out: Console) -> int:
    """``fixtures --from-trace TRACE [-o FILE]``: a failure found once, pinned as a fixture."""
    from ruleproof.run.pin import PinError, fixture_from_trace, load_trace

    if args.paths:
        raise UsageError("--from-trace takes no fixture paths")
    try:
        data = fixture_from_trace(load_trace(args.from_trace), Path(args.from_trace).stem)
    except PinError as exc:
        raise UsageError(f"--from-trace {args.from_trace}: {exc}") from None
    text = json.dumps(data, indent=1) + "\n"
    if args.output:
        from ruleproof.cli.options import check_output_file
        from ruleproof.output.files import write_atomic

        path = check_output_file(args.output, "-o")
        write_atomic(path, text)
        out.print(
            f"wrote {escape(str(path))}: fixture {data['id']} pinning {data['clauses'][0]} ({len(data['steps'])} steps)"
        )
    else:
        sys.stdout.write(text)
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace, Console, Console], int]] = {
    "certify": cmd_certify,
    "replay": cmd_replay,
    "serve": cmd_serve,
    "fixtures": cmd_fixtures,
    "diff": lambda args, out, err: diff_command.run(args),
}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if argv is None:  # run as the program (not called from Python, as tests do): the kit has no other children
        from ruleproof.transport.reaper import become_subreaper

        become_subreaper()  # a daemon an engine leaves behind re-parents to the kit, which ends it
    out, err = Console(), Console(stderr=True, soft_wrap=True)  # a message stays one line in a log, however long
    if threading.current_thread() is threading.main_thread():  # SIGTERM unwinds like Ctrl-C: engines are ended
        signal.signal(signal.SIGTERM, _terminated)  # (certify sets its own, for a partial certificate)
    try:
        return COMMANDS[args.command](args, out, err)
    except (UsageError, EngineLoadError) as exc:
        return _error(err, args, "error", str(exc))
    except EngineError as exc:  # the engine refused a call the kit had to make (hello, a replayed step)
        return _error(err, args, f"the engine refused ({exc.kind})", exc.message)
    except AdapterBroken as broken:  # e.g. --engine-cmd names a program that cannot start
        if args.debug:
            traceback.print_exc()
        _print_broken(err, "start", broken)
        return 2
    except KeyboardInterrupt:
        err.print("[red]interrupted[/]")
        return 130
    except Exception as exc:  # a bug of the kit (or of an engine, seen where the kit did not expect it)
        return _error(err, args, "internal error", f"{type(exc).__name__}: {exc} (run with --debug for the traceback)")


def _terminated(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _error(err: Console, args: argparse.Namespace, label: str, message: str) -> int:
    if args.debug:
        traceback.print_exc()
    err.print(f"[red]ruleproof {args.command}: {label}[/]: {escape(message)}", soft_wrap=True)
    return 2


if __name__ == "__main__":
    sys.exit(main())
