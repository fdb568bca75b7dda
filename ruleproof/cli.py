"""The ``ruleproof`` command: certify, replay, serve, check fixtures.

Exit status: 0 every clause passes, 1 a rule is violated, 2 the engine or
adapter is broken or the call is wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import sys
import threading
from pathlib import Path
from typing import Any, Sequence

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from ruleproof import GAMES, __version__
from ruleproof.certificate import Certificate, junit_xml, write_traces
from ruleproof.checked import CheckedEngine
from ruleproof.engine import AdapterBroken, Engine, EngineError, load_factory
from ruleproof.properties import available_games, properties_for
from ruleproof.properties.machinery import Trace
from ruleproof.runner import PROFILES, GameReport, certify_game, replay

STATUS_STYLE = {"pass": "green", "fail": "bold red", "untested": "yellow", "skipped": "dim", "broken": "bold magenta"}
DEFAULT_TIMEOUT = 10.0


class UsageError(Exception):
    """A wrong call: exit status 2 with the message."""


def add_engine_options(p: argparse.ArgumentParser) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("--engine", metavar="MODULE:FACTORY", help="a Python engine factory (default: the reference engines)")
    group.add_argument("--engine-cmd", metavar="CMD", help="an engine in any language: a command speaking the JSON-RPC contract on stdio")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS", help="per-call timeout for --engine-cmd (default %(default)s)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ruleproof", description="Property-based rules conformance for game engines.")
    parser.add_argument("--version", action="version", version=f"ruleproof {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    c = sub.add_parser("certify", help="certify an engine against the rules (properties and fixtures)")
    c.add_argument("--game", action="append", choices=GAMES, help="a game to certify (repeatable; default: all the engine declares)")
    add_engine_options(c)
    c.add_argument("--profile", choices=sorted(PROFILES), default="ci", help="how hard to look (default: ci)")
    c.add_argument("--seed", type=int, help="run from this seed instead of the derandomized default")
    c.add_argument("--json", metavar="PATH", help="write the certificate as JSON")
    c.add_argument("--junit", metavar="PATH", help="write one JUnit test case per clause")
    c.add_argument("--traces", metavar="DIR", default="ruleproof-traces", help="where failure traces are saved (default: %(default)s)")
    c.add_argument("--no-fixtures", action="store_true", help="skip the fixtures")
    c.add_argument("--no-properties", action="store_true", help="skip the state machine")

    r = sub.add_parser("replay", help="re-run a saved failure trace: FIXED or still FAILED")
    r.add_argument("trace", metavar="TRACE")
    add_engine_options(r)

    s = sub.add_parser("serve", help="serve the reference engines over stdio (JSON-RPC, protocol.md §1)")
    s.add_argument("--game", action="append", choices=GAMES, help="serve only this game (repeatable; default: all)")

    f = sub.add_parser("fixtures", help="validate fixture files against the fixture schema")
    f.add_argument("paths", nargs="*", metavar="PATH", help="fixture files (default: the bundled ones)")
    return parser


def make_engine(args: argparse.Namespace) -> tuple[Engine, list[str]]:
    """The engine named on the command line, and the arguments that name it again."""
    if getattr(args, "engine_cmd", None):
        from ruleproof.transport.subprocess import SubprocessEngine

        argv = shlex.split(args.engine_cmd)
        if not argv:
            raise UsageError("--engine-cmd is empty")
        return SubprocessEngine(argv, timeout=args.timeout), ["--engine-cmd", args.engine_cmd]
    if getattr(args, "engine", None):
        if os.getcwd() not in sys.path:  # MODULE is looked up from the current directory, as uvicorn does
            sys.path.insert(0, os.getcwd())
        try:
            factory = load_factory(args.engine)
        except (ValueError, ImportError, AttributeError) as err:
            raise UsageError(f"--engine {args.engine}: {err}") from None
        return factory(), ["--engine", args.engine]
    from ruleproof.reference import ReferenceEngine

    return ReferenceEngine(), []


def cmd_certify(args: argparse.Namespace, out: Console, err: Console) -> int:
    engine, engine_args = make_engine(args)
    checked = CheckedEngine(engine)
    try:
        hello = checked.hello()
        declared = [g for g in hello["games"] if g in available_games()]
        games = args.game or declared
        missing = [g for g in games if g not in hello["games"]]
        if missing:
            raise UsageError(f"the engine does not declare {', '.join(missing)} (it declares {', '.join(hello['games']) or 'nothing'})")
        reports = _run(checked, games, args, err)
    except AdapterBroken as broken:
        _print_broken(err, "hello", broken)
        return 2
    finally:
        checked.close()
    saved = write_traces(reports, Path(args.traces), hello["engine"])
    cert = Certificate(hello["engine"], args.profile, args.seed, tuple(reports), tuple(engine_args), tuple(saved))
    _print_report(out, cert)
    if args.json:
        Path(args.json).write_text(json.dumps(cert.to_json(), indent=1, default=str) + "\n", encoding="utf-8")
    if args.junit:
        Path(args.junit).write_text(junit_xml(cert), encoding="utf-8")
    return cert.exit_status


def _run(checked: CheckedEngine, games: Sequence[str], args: argparse.Namespace, err: Console) -> list[GameReport]:
    reports = []
    columns = (SpinnerColumn(), TextColumn("[bold]{task.fields[game]}[/]"), TextColumn("{task.description}"), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=False) as progress:
        for game in games:
            task = progress.add_task("starting", game=game)

            def show(g: str, message: str, task: Any = task) -> None:
                progress.update(task, description=message)

            report = certify_game(
                checked, game, PROFILES[args.profile], seed=args.seed, progress=show,
                fixtures=not args.no_fixtures, properties=not args.no_properties,
            )  # fmt: skip
            style = STATUS_STYLE[report.verdict]
            progress.update(task, description=f"[{style}]{report.verdict}[/] in {report.seconds:.1f}s")
            reports.append(report)
    return reports


def _print_report(out: Console, cert: Certificate) -> None:
    for r in cert.reports:
        table = Table(title=f"{r.game}: {r.verdict}", title_style=STATUS_STYLE[r.verdict], show_lines=False)
        table.add_column("clause")
        table.add_column("verdict")
        table.add_column("checks", justify="right")
        table.add_column("note", overflow="fold")
        notes = {f.finding.clause: f.finding.message for f in r.failures}
        for clause, status in r.clauses.items():
            table.add_row(clause, f"[{STATUS_STYLE[status]}]{status}[/]", str(r.hits.get(clause, 0)), notes.get(clause, ""))
        out.print(table)
        if r.broken is not None:
            _print_broken(out, r.game, r.broken)
        for f in r.failures:
            out.print(f"[bold red]FAIL {f.finding.clause}[/] ({r.game}, {f.source}): {f.finding.message}")
            out.print(f"  expected: {json.dumps(f.finding.expected, default=str)}")
            out.print(f"  got:      {json.dumps(f.finding.got, default=str)}")
            out.print(f"  shrunk trace: {len(f.trace.events)} steps{'' if f.confirmed else ' (NOT reproduced on replay: the engine may be nondeterministic)'}")
            for e in f.trace.events[-6:]:
                out.print(f"    {json.dumps(e.to_json())[:160]}")
            path = cert.trace_file(r.game, f.finding.clause)
            if path:
                out.print(f"  replay: {cert.replay_command(path)}")
        untested = [c for c, s in r.clauses.items() if s == "untested"]
        if untested:
            out.print(f"[yellow]untested (no run reached them; not passed):[/] {', '.join(untested)}")
        for note in r.skipped:
            out.print(f"[dim]skipped: {note}[/]")
    counts = {s: sum(1 for r in cert.reports for v in r.clauses.values() if v == s) for s in STATUS_STYLE}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    out.print(f"[{STATUS_STYLE[cert.verdict]}]{cert.verdict.upper()}[/]: {summary}")


def _print_broken(out: Console, where: str, broken: AdapterBroken) -> None:
    out.print(f"[bold magenta]ADAPTER BROKEN[/] ({where}, {broken.kind}): {broken.message}")
    if broken.sent is not None:
        out.print(f"  sent:     {json.dumps(broken.sent, default=str)[:500]}")
    if broken.received is not None:
        out.print(f"  received: {json.dumps(broken.received, default=str)[:500]}")
    if broken.stderr:
        out.print("  engine stderr (tail):")
        for line in broken.stderr.splitlines()[-10:]:
            out.print(f"    {line}")


def cmd_replay(args: argparse.Namespace, out: Console, err: Console) -> int:
    try:
        trace = Trace.from_json(json.loads(Path(args.trace).read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{args.trace}: not a ruleproof trace ({exc})") from None
    engine, _ = make_engine(args)
    checked = CheckedEngine(engine)
    try:
        finding = replay(trace, checked, properties_for(trace.game))
    except AdapterBroken as broken:
        _print_broken(err, trace.game, broken)
        return 2
    finally:
        checked.close()
    want = trace.finding.clause if trace.finding else None
    if finding is None:
        out.print(f"[green]FIXED[/]: {len(trace.events)} steps replayed, no clause violated (was {want})")
        return 0
    same = "still " if finding.clause == want else f"FAILED differently (was {want}); "
    out.print(f"[bold red]{same}FAILED[/] {finding.clause}: {finding.message}")
    out.print(f"  expected: {json.dumps(finding.expected, default=str)}")
    out.print(f"  got:      {json.dumps(finding.got, default=str)}")
    return 1


def cmd_serve(args: argparse.Namespace, out: Console, err: Console) -> int:
    from ruleproof.transport.server import serve

    return serve(args.game or None)


def cmd_fixtures(args: argparse.Namespace, out: Console, err: Console) -> int:
    from ruleproof.scenarios import FixtureError, bundled, load_file

    try:
        if args.paths:
            found = [load_file(p) for p in args.paths]
        else:
            found = [fx for g in GAMES for fx in bundled(g)]
    except FixtureError as exc:
        err.print(f"[red]invalid fixture[/]: {exc}")
        return 2
    for fx in found:
        out.print(f"ok {fx.path}: {fx.id} ({', '.join(fx.clauses)})")
    return 0


COMMANDS = {"certify": cmd_certify, "replay": cmd_replay, "serve": cmd_serve, "fixtures": cmd_fixtures}


def _terminated(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    out, err = Console(), Console(stderr=True)
    if threading.current_thread() is threading.main_thread():  # SIGTERM unwinds like Ctrl-C: engines are closed
        signal.signal(signal.SIGTERM, _terminated)
    try:
        return COMMANDS[args.command](args, out, err)
    except UsageError as exc:
        err.print(f"[red]error[/]: {exc}")
        return 2
    except EngineError as exc:
        err.print(f"[red]the engine refused[/] ({exc.kind}): {exc.message}")
        return 2
    except AdapterBroken as broken:  # e.g. --engine-cmd names a program that cannot start
        _print_broken(err, "start", broken)
        return 2
    except KeyboardInterrupt:
        err.print("[red]interrupted[/]")
        return 130


if __name__ == "__main__":
    sys.exit(main())
