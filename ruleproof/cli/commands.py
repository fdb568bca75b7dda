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
from ruleproof.model.errors import UsageError, UserError
from ruleproof.output.terminal import print_broken
from ruleproof.run.events import Handler, to_all

if TYPE_CHECKING:  # imported where used, so that ``ruleproof --help`` stays quick
    from ruleproof.model.findings import Trace
    from ruleproof.model.report import GameReport
    from ruleproof.run.certification import Request
    from ruleproof.run.diff import DiffResult
    from ruleproof.run.replay import ReplayOutcome
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
    r.add_argument("trace", metavar="TRACE")
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

    return Request(
        games=opts.games,
        profile=opts.profile,
        seed=opts.seed,
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
    from ruleproof.cli.stopper import Stopper
    from ruleproof.run.certification import certify
    from ruleproof.transport.checked import CheckedEngine

    opts = options_from(args)  # every argument and output path is checked before the engine starts
    emit = to_all(handlers(opts, out, err))
    with Stopper(opts.max_time) as stopper:
        try:
            engine: CheckedEngine | AdapterBroken = CheckedEngine(opts.open_engine(stopper.event))
        except AdapterBroken as broken:  # it cannot even start: still a certificate that says so
            engine = broken
        try:
            cert = certify(engine, request(opts), stop=stopper.event, emit=emit, save_traces=saver(opts))
        finally:
            if isinstance(engine, CheckedEngine):
                engine.close()
    if cert.interrupted is not None:
        where = f"; certificate {opts.json_path}" if opts.json_path else ""
        err.print(
            f"[yellow]interrupted[/] ({cert.interrupted}): the verdicts so far are kept, marked interrupted{where}"
        )
        if stopper.signal in SIGNAL_EXIT:
            return SIGNAL_EXIT[stopper.signal]
    return cert.exit_status


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


COMMANDS: dict[str, Callable[[argparse.Namespace, Console, Console], int]] = {
    "certify": cmd_certify,
    "replay": cmd_replay,
    "serve": cmd_serve,
    "fixtures": cmd_fixtures,
    "diff": cmd_diff,
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
