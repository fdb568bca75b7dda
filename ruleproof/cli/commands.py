"""The ``ruleproof`` command: certify, merge, replay, serve, check fixtures, diff, matrix.

Exit status: 0 every clause passes, 1 a rule is violated, 2 the engine or
adapter is broken, the call is wrong, or nothing could be judged (an
interrupted run with no violation included).  A wrong call gets one line that
names the argument, file or field; ``--debug`` adds the traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from rich.console import Console
from rich.markup import escape

from ruleproof import GAMES, __version__
from ruleproof.cli.options import (
    DEFAULT_TIMEOUT,
    FLAGS,
    Options,
    add_to,
    parse_command,
    parse_seconds,
)
from ruleproof.model.engine import AdapterBroken, EngineError, JSONObject
from ruleproof.model.errors import UsageError, UserError, read_user_text
from ruleproof.output.terminal import print_broken
from ruleproof.run.events import Emit, Handler, nothing, to_all

if TYPE_CHECKING:  # imported where used, so that ``ruleproof --help`` stays quick
    from ruleproof.model.certificate import Certificate
    from ruleproof.model.findings import Trace
    from ruleproof.model.report import GameReport
    from ruleproof.run.certification import Request
    from ruleproof.run.diff import DiffResult
    from ruleproof.run.partial import Partial
    from ruleproof.run.replay import ReplayOutcome
    from ruleproof.run.runner import Explorer
    from ruleproof.transport.checked import CheckedEngine

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
    add_to(c)  # every certify flag, from the one table (ruleproof.cli.options.FLAGS)

    r = sub.add_parser("replay", parents=[common], help="re-run a saved failure trace: FIXED or still FAILED")
    r.add_argument("trace", metavar="TRACE", help="a trace file saved by certify, or a certificate (--json)")
    r.add_argument("--clause", metavar="CLAUSE", help="with a certificate: replay this clause's (first) counterexample")
    add_to(r, ("engine", "engine-cmd", "timeout"))

    s = sub.add_parser(
        "serve", parents=[common], help="serve the reference engines over stdio (JSON-RPC, protocol.md §1)"
    )
    s.add_argument("--game", action="append", choices=GAMES, help="serve only this game (repeatable; default: all)")
    s.add_argument(
        "--engine",
        metavar="MODULE:FACTORY",
        help="serve this Python engine instead of the reference (to try an engine behind the pipe)",
    )
    s.add_argument(
        "--no-moves",
        action="store_true",
        help="declare no `moves` capability (protocol.md §9): a step costs two calls, as an engine without it",
    )

    f = sub.add_parser("fixtures", parents=[common], help="validate fixture files against the fixture schema")
    f.add_argument("paths", nargs="*", metavar="PATH", help="fixture files or folders (default: the bundled ones)")
    f.add_argument(
        "--from-trace",
        metavar="TRACE",
        help="turn a failure trace saved by certify into a fixture pinning the expected behaviour",
    )
    f.add_argument("-o", "--output", metavar="FILE", help="with --from-trace: write the fixture here (default: stdout)")
    d = sub.add_parser(
        "diff",
        parents=[common],
        help="drive two engines (or two rule settings) in lockstep and show where they differ",
    )
    add_to(d, command="diff")  # its flags, from the same table

    m = sub.add_parser(
        "merge", parents=[common], help="merge the partial certificates of certify --shard K/N into one certificate"
    )
    m.add_argument("parts", nargs="+", metavar="PART", help="the partial certificates, one for each K of N")
    m.add_argument("-o", "--json", dest="json", metavar="CERT.json", help="write the merged certificate as JSON")
    add_to(
        m,
        ("engine", "engine-cmd", "timeout", "junit", "html", "summary", "traces", "expect", "baseline", "quiet",
         "github-output"),
    )  # fmt: skip
    from ruleproof.cli.matrix import add_parser as add_matrix  # many engines into one site: its own module

    add_matrix(sub, common)
    return parser


def options_from(args: argparse.Namespace) -> Options:
    """The one options object, from ``certify``'s arguments (the pytest plugin builds the same)."""
    return Options.build({flag.key: getattr(args, flag.key, None) for flag in FLAGS})


# -- certify ---------------------------------------------------------------------------------------


def handlers(opts: Options, out: Console, err: Console) -> list[Handler]:
    """The outputs the options ask for, each a handler of the run's events: progress on stderr (a live
    line on a terminal, plain lines in a log, none with --quiet), the report, then the files."""
    from ruleproof.output.progress import LiveProgress, LogProgress
    from ruleproof.output.terminal import TerminalReport

    chosen: list[Handler] = []
    if not opts.quiet:
        chosen.append(LiveProgress(err) if err.is_terminal else LogProgress(err.file))
    return [*chosen, TerminalReport(out, err), *file_handlers(opts)]


def file_handlers(opts: Options) -> list[Handler]:
    """--json, --junit, --html, --summary: each file written when the run finishes (also by the plugin)."""
    from ruleproof.output.files import CertificateFile
    from ruleproof.output.html import HtmlFile
    from ruleproof.output.junit import JUnitFile
    from ruleproof.output.summary import SummaryFile

    files: list[tuple[Path | None, Callable[[Path], Handler]]] = [
        (opts.json_path, CertificateFile),
        (opts.junit_path, JUnitFile),
        (opts.html_path, HtmlFile),
        (opts.summary_path, SummaryFile),
    ]
    return [make(path) for path, make in files if path is not None]


def request(opts: Options) -> Request:
    from ruleproof.run.certification import Request
    from ruleproof.run.profile_table import run_seed

    return Request(
        games=opts.games,
        profile=opts.profile,
        seed=run_seed(opts.profile, opts.seed),  # a randomized run's seed drawn here, to be recorded
        fixtures=opts.fixtures,
        properties=opts.properties,
        inputs=opts.inputs,
        engine_args=opts.engine_args,
        expect_file=opts.expect,
        baseline_file=opts.baseline,
        fallback_name=opts.engine or opts.engine_cmd_text or "ruleproof-reference",
    )


def saver(opts: Options) -> Callable[[GameReport, JSONObject], list[tuple[str, str]]]:
    """Save a finished game's counterexamples as trace files in ``--traces``."""
    from ruleproof.output.files import write_traces

    return lambda report, engine: write_traces([report], opts.traces, engine)


def cmd_certify(args: argparse.Namespace, out: Console, err: Console) -> int:
    opts = options_from(args)  # every argument and output path is checked before the engine starts
    if opts.shard is not None:
        return certify_shard(opts, args, out, err)
    cert, signal_name = certification(opts, to_all(handlers(opts, out, err)))
    args.verdict = cert.verdict  # for --github-output
    return finished(cert, opts, signal_name, err)


def certification(opts: Options, emit: Emit = nothing) -> tuple[Certificate, str | None]:
    """The engine the options name, certified (each call under SIGTERM, Ctrl-C and --max-time); the
    certificate and the signal that stopped it, if one did.  ``ruleproof matrix`` certifies each engine
    with it."""
    from ruleproof.cli.stopper import Stopper
    from ruleproof.run.certification import certify

    with Stopper(opts.max_time) as stopper:
        engine = opened(opts, stopper.event)
        try:
            with shard_pool(opts, stopper.event) as explorer:
                cert = certify(
                    engine, request(opts), stop=stopper.event, emit=emit, save_traces=saver(opts), explorer=explorer
                )
        finally:
            if not isinstance(engine, AdapterBroken):
                engine.close()
    return cert, stopper.signal


def opened(opts: Options, stop: threading.Event) -> CheckedEngine | AdapterBroken:
    """The engine the options name, checked; or why it could not even start (still a certificate)."""
    from ruleproof.transport.checked import CheckedEngine

    try:
        return CheckedEngine(opts.open_engine(stop))
    except AdapterBroken as broken:
        return broken


@contextlib.contextmanager
def shard_pool(opts: Options, stop: threading.Event) -> Iterator[Explorer | None]:
    """``--workers N``: N local processes exploring the shards (None: this process does, as with one worker
    or a profile of one shard, where there is nothing to share out)."""
    from ruleproof.run.profiles import PROFILES

    if opts.workers <= 1 or PROFILES[opts.profile].shards <= 1:
        yield None
        return
    from ruleproof.cli.options import open_engine
    from ruleproof.run.pool import ShardPool

    opener = functools.partial(open_engine, opts.engine, opts.engine_cmd, opts.timeout)
    with ShardPool(opts.workers, opener, stop) as pool:
        yield pool


def finished(cert: Certificate, opts: Options, signal_name: str | None, err: Console) -> int:
    """The exit status of a certification (or a merge), saying so when it was interrupted."""
    if cert.interrupted is not None:
        where = f"; certificate {opts.json_path}" if opts.json_path else ""
        err.print(
            f"[yellow]interrupted[/] ({cert.interrupted}): the verdicts so far are kept, marked interrupted{where}"
        )
        if signal_name in SIGNAL_EXIT:
            return SIGNAL_EXIT[signal_name]
    return cert.exit_status


# -- certify --shard K/N, merge ------------------------------------------------------------------------


def certify_shard(opts: Options, args: argparse.Namespace, out: Console, err: Console) -> int:
    """``certify --shard K/N``: this machine's part, written to --json as a partial certificate."""
    from ruleproof.cli.stopper import Stopper
    from ruleproof.output.files import write_atomic
    from ruleproof.run.certification import certify_part

    path = shard_checked(opts)
    assert opts.shard is not None
    progress = handlers(opts, out, err)[:-1] if not opts.quiet else []  # no report: the merge makes it
    with Stopper(opts.max_time) as stopper:
        engine = opened(opts, stopper.event)
        try:
            with shard_pool(opts, stopper.event) as explorer:
                part = certify_part(
                    engine, request(opts), opts.shard, stop=stopper.event, emit=to_all(progress), explorer=explorer
                )
        finally:
            if not isinstance(engine, AdapterBroken):
                engine.close()
    write_atomic(path, json.dumps(part.to_json()))
    k, n = opts.shard
    what = f"broken ({part.broken.kind}): " if part.broken else ""
    what = f"interrupted ({part.interrupted}): " if part.interrupted else what
    out.print(f"part {k}/{n}: {what}partial certificate {escape(str(path))}; merge the {n} parts with ruleproof merge")
    args.verdict = "partial"  # judged by the merge
    return SIGNAL_EXIT.get(stopper.signal or "", 0)


def shard_checked(opts: Options) -> Path:
    """What ``--shard`` needs: --json (where the part goes), a fixed seed, and no report of its own."""
    from ruleproof.run.profiles import PROFILES

    if opts.json_path is None:
        raise UsageError("--shard: give --json PATH, where this part of the run is written")
    for flag, value in (("--junit", opts.junit_path), ("--html", opts.html_path), ("--summary", opts.summary_path),
                        ("--expect", opts.expect), ("--baseline", opts.baseline)):  # fmt: skip
        if value is not None:
            raise UsageError(f"--shard with {flag}: a part has no verdict of its own; give {flag} to ruleproof merge")
    if opts.seed is None and not PROFILES[opts.profile].derandomize:
        raise UsageError(
            f"--shard with --profile {opts.profile}: give --seed N, the same on every machine (this profile "
            "draws a new seed each run, and the parts of one run must explore from one seed)"
        )
    return opts.json_path


def cmd_merge(args: argparse.Namespace, out: Console, err: Console) -> int:
    from ruleproof.cli.stopper import Stopper
    from ruleproof.run.certification import merge
    from ruleproof.run.partial import Partial, one_run

    opts = options_from(args)
    parts = one_run([(path, Partial.from_json(read_json_file(path, "merge"), path)) for path in args.parts])
    emit = to_all(handlers(opts, out, err))
    with Stopper(opts.max_time) as stopper:
        engine = merge_engine(opts, parts, stopper.event)
        try:
            cert = merge(parts, engine, request(opts), stop=stopper.event, emit=emit, save_traces=saver(opts))
        finally:
            engine.close()
    args.verdict = cert.verdict  # for --github-output
    return finished(cert, opts, stopper.signal, err)


def merge_engine(opts: Options, parts: Sequence[Partial], stop: threading.Event) -> CheckedEngine:
    """The engine that minimizes and confirms what the parts found: the one merge is given, else the one
    the parts name; when nothing failed, none is started.  It must be the engine the parts certified."""
    from ruleproof.transport.checked import CheckedEngine

    first = parts[0]
    failing = any(f.causes for p in parts for r in p.reports for f in r.found)
    if not failing or any(p.broken for p in parts):
        return CheckedEngine(Unopened())
    if opts.engine is not None or opts.engine_cmd:
        named = opts
    else:  # as the parts were certified (the reference when they name no engine)
        named = options_from(build_parser().parse_args(["certify", *first.engine_args]))
    engine = opened(named, stop)
    if isinstance(engine, AdapterBroken):
        why = f"{engine.kind}: {engine.message}"
        raise UsageError(f"merge: the engine that minimizes the failures could not start ({why})")
    got = engine.hello()["engine"]
    if got != first.engine:
        engine.close()
        raise UsageError(
            f"merge: the engine answers hello as {got}, but the parts certified {first.engine}: give merge that engine "
            "(--engine or --engine-cmd)"
        )
    return engine


class Unopened:
    """The engine of a merge that needs none (nothing failed): any call is a bug of the kit."""

    def __getattr__(self, name: str) -> Any:
        if name == "close":
            return lambda: None
        raise AdapterBroken("exited", f"merge started no engine, yet {name} was called")


# -- replay ------------------------------------------------------------------------------------------


def read_json_file(path: str, what: str) -> Any:
    """The JSON in ``path``; a missing, unreadable, non-UTF-8, non-JSON or too deeply nested file: ``UsageError``."""
    text = read_user_text(path, UsageError, what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise UsageError(f"{what} {path}: not JSON ({err.msg} at line {err.lineno}, column {err.colno})") from None
    except RecursionError:  # json's C scanner counts its depth: 10^5 nested arrays end here, not in a crash
        raise UsageError(f"{what} {path}: JSON nested too deeply") from None


def trace_of_certificate(data: dict[str, Any], path: str, clause: str | None) -> dict[str, Any]:
    """A certificate's counterexample (of ``clause``, or its only failing clause) as a trace file has it;
    the certificate in any format (``unpack``)."""
    from ruleproof.model.findings import TRACE_FORMAT, Finding
    from ruleproof.model.traces import unpack

    try:
        games = unpack(data).get("games")
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        raise UsageError(f"certificate {path}: its traces do not unpack (not a format this ruleproof reads)") from None
    found = [
        (str(game), f)
        for game, g in (games.items() if isinstance(games, dict) else ())
        if isinstance(g, dict) and isinstance(g.get("failures"), list)
        for f in g["failures"]
        if isinstance(f, dict) and isinstance(f.get("trace"), list) and isinstance(f.get("clause"), str)
    ]
    clauses = list(dict.fromkeys(f["clause"] for _, f in found))
    if clause is not None:
        found = [(g, f) for g, f in found if f["clause"] == clause]
    if not found:
        which = f" of {clause} (its failing clauses: {', '.join(clauses) or 'none'})" if clause else ""
        raise UsageError(f"certificate {path}: no counterexample{which} to replay")
    if clause is None and len(clauses) > 1:
        raise UsageError(f"certificate {path} fails {', '.join(clauses)}: say which to replay with --clause")
    game, failure = found[0]
    violation = Finding.from_json(failure).to_json()
    return {"ruleproof_trace": TRACE_FORMAT, "game": game, "violation": violation, "steps": failure["trace"]}


def load_trace(path: str, clause: str | None = None) -> Trace:
    """A replayable trace of a game the kit knows (a trace file, or a certificate's counterexample), or a
    ``UsageError`` naming the file and field."""
    from ruleproof.model.findings import Trace, TraceError
    from ruleproof.properties import available_games

    data = read_json_file(path, "trace")
    if isinstance(data, dict) and "games" in data and "steps" not in data:
        data = trace_of_certificate(data, path, clause)
    elif clause is not None:
        raise UsageError(f"--clause: {path} is a trace file, not a certificate (a trace replays its own clause)")
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

    trace = load_trace(args.trace, args.clause)
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
        print_broken(err, trace.game, broken)
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
    return serve(args.game or None, engine=engine, capabilities=() if args.no_moves else None)


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
        from ruleproof.cli.options import check_output_dir, check_output_file
        from ruleproof.output.files import write_atomic

        # a new fixture usually starts a new folder (--fixtures DIR): create it, as --traces is created
        folder = check_output_dir(Path(args.output).parent, "-o")
        folder.mkdir(parents=True, exist_ok=True)
        path = check_output_file(args.output, "-o")
        write_atomic(path, text)
        out.print(
            f"wrote {escape(str(path))}: fixture {data['id']} pinning {data['clauses'][0]} ({len(data['steps'])} steps)"
        )
    else:
        sys.stdout.write(text)
    return 0


# -- diff ------------------------------------------------------------------------------------------


def cmd_diff(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Two engines (or two settings) in lockstep: the divergences, --json and the traces; the exit status."""
    from ruleproof.cli.options import check_output_dir, check_output_file, parse_seed
    from ruleproof.output.diff_report import Replays, print_result, save_traces
    from ruleproof.output.files import write_atomic
    from ruleproof.run.diff import DIFF_PROFILES

    games = list(dict.fromkeys(args.game or ()))
    if len(games) != 1:
        raise UsageError("--game: give the one game to compare" + (f" (got {', '.join(games)})" if games else ""))
    timeout = DEFAULT_TIMEOUT if args.timeout is None else parse_seconds(args.timeout, "--timeout")
    seed = None if args.seed is None else parse_seed(args.seed)
    json_path = check_output_file(args.json, "--json") if args.json else None
    traces = check_output_dir(args.traces or "ruleproof-traces", "--traces")
    result = _run_diff(args, games[0], DIFF_PROFILES[args.profile or "ci"], timeout, seed)
    saved = save_traces(result, traces)
    replays = Replays(_replay_args(args.engine, args.engine_cmd, timeout), _replay_args(args.vs, args.vs_cmd, timeout))
    print_result(out, result, saved, replays)
    if json_path is not None:
        write_atomic(json_path, json.dumps(result.to_json(), indent=1, default=str) + "\n")
    return result.exit_status


def _replay_args(engine: str | None, cmd: str | None, timeout: float) -> tuple[str, ...]:
    """The arguments naming one side again for ``ruleproof replay`` (none for the reference)."""
    named = ("--engine", engine) if engine is not None else ("--engine-cmd", cmd) if cmd is not None else ()
    return (*named, *(("--timeout", f"{timeout:g}") if named and timeout != DEFAULT_TIMEOUT else ()))


def _run_diff(args: argparse.Namespace, game: str, profile: Any, timeout: float, seed: int | None) -> DiffResult:
    from ruleproof.run.diff import diff, make_side, parse_options

    options = parse_options(args.options or (), "--options")
    vs_options = parse_options(args.vs_options or (), "--vs-options")
    flag_a = "--engine-cmd" if args.engine_cmd is not None else "--engine"
    a = make_side("A", args.engine, args.engine_cmd, timeout, flag_a)
    try:
        b = make_side("B", args.vs, args.vs_cmd, timeout, "--vs-cmd" if args.vs_cmd is not None else "--vs")
        try:
            return diff(
                a,
                b,
                game,
                profile,
                seed=seed,
                options=options,
                vs_options=vs_options,
                ignore=args.ignore or (),
                strict=args.strict,
            )
        finally:
            b.close()
    finally:
        a.close()


def cmd_matrix(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``ruleproof matrix``: each engine certified by ``certification``, as ``certify`` does (ruleproof.cli.matrix)."""
    from ruleproof.cli.matrix import run_matrix

    previous = read_json_file(args.previous, "--previous") if args.previous else None
    return SIGNAL_EXIT.get(run_matrix(args, out, err, certification, previous) or "", 0)


COMMANDS: dict[str, Callable[[argparse.Namespace, Console, Console], int]] = {
    "certify": cmd_certify,
    "merge": cmd_merge,
    "replay": cmd_replay,
    "serve": cmd_serve,
    "fixtures": cmd_fixtures,
    "diff": cmd_diff,
    "matrix": cmd_matrix,
}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if argv is None:  # run as the program (not called from Python, as tests do): the kit has no other children
        from ruleproof.transport.reaper import become_subreaper

        become_subreaper()  # a daemon an engine leaves behind re-parents to the kit, which ends it
    out, err = Console(), Console(stderr=True, soft_wrap=True)  # a message stays one line in a log, however long
    if threading.current_thread() is threading.main_thread():  # SIGTERM unwinds like Ctrl-C: engines are ended
        signal.signal(signal.SIGTERM, _terminated)  # (certify sets its own, for a partial certificate)
    outputs = getattr(args, "github_output", None)
    if outputs is not None:  # checked first: a run whose outputs cannot be written is not started
        try:
            Path(outputs).open("a", encoding="utf-8").close()
        except OSError as exc:
            return _error(err, args, "error", f"--github-output {outputs}: cannot write ({exc.strerror})")
    status = _run(args, out, err)
    if outputs is not None:
        verdict = getattr(args, "verdict", None) or ("interrupted" if status in SIGNAL_EXIT.values() else "broken")
        write_github_output(Path(outputs), status, verdict)
    return status


def write_github_output(path: Path, status: int, verdict: str) -> None:
    """``--github-output``: a step's outputs, set by the kit itself whatever the run gave.  GitHub runs a
    step's bash with ``-eo pipefail``: a script that wrote them after a failing ``ruleproof`` never would."""
    with path.open("a", encoding="utf-8") as file:
        file.write(f"status={status}\nverdict={verdict}\n")


def _run(args: argparse.Namespace, out: Console, err: Console) -> int:
    try:
        return COMMANDS[args.command](args, out, err)
    except UserError as exc:  # a wrong argument, file, fixture or trace: one line naming it
        return _error(err, args, "error", str(exc), exc.hint)
    except EngineError as exc:  # the engine refused a call the kit had to make (hello, a replayed step)
        return _error(err, args, f"the engine refused ({exc.kind})", exc.message)
    except AdapterBroken as broken:  # e.g. --engine-cmd names a program that cannot start
        if args.debug:
            traceback.print_exc()
        print_broken(err, "start", broken)
        return 2
    except KeyboardInterrupt:
        err.print("[red]interrupted[/]")
        return 130
    except Exception as exc:  # a bug of the kit (or of an engine, seen where the kit did not expect it)
        return _error(err, args, "internal error", f"{type(exc).__name__}: {exc} (run with --debug for the traceback)")


def _terminated(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _error(err: Console, args: argparse.Namespace, label: str, message: str, hint: str = "") -> int:
    if args.debug:
        traceback.print_exc()
        if hint:
            err.print(f"hint: {escape(hint)}")
    err.print(f"[red]ruleproof {args.command}: {label}[/]: {escape(message)}", soft_wrap=True)
    return 2


if __name__ == "__main__":
    sys.exit(main())
