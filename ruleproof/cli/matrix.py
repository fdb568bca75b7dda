"""``ruleproof matrix ENGINES.toml -o SITE/``: certify many engines, one after another, into a static site.

Each engine is certified by ``ruleproof certify``'s own code (the options object, the engine opened and
checked the same way, ``--workers`` exploring its shards); one that cannot start, breaks or hangs gets a
``broken`` column with the reason and the next engine starts.  Bad input (ENGINES.toml, --previous, -o)
is one line and exit 2 before any engine starts; once the site is written the exit status is 0 whatever
the engines' verdicts (a matrix reports them; a signal stops it early: 130 or 143).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape

from ruleproof.cli.options import PROFILE_NAMES, Options, parse_workers
from ruleproof.model.errors import UsageError, UserError

if TYPE_CHECKING:
    from collections.abc import Callable

    from ruleproof.model.certificate import Certificate
    from ruleproof.run.matrix import EngineEntry, Outcome

    Certification = Callable[[Options], tuple[Certificate, str | None]]

DEFAULT_PROFILE = "dev"  # a matrix certifies many engines: the quick profile unless asked


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    m = sub.add_parser(
        "matrix", parents=[common], help="certify every engine of ENGINES.toml and write a static compliance site"
    )
    m.add_argument("engines", metavar="ENGINES.toml", help="the engines: one [[engine]] table each (docs/matrix.md)")
    m.add_argument("-o", "--output", required=True, metavar="SITE", help="the folder the site is written to")
    m.add_argument(
        "--profile", choices=PROFILE_NAMES, help=f"how hard to look at each engine (default: {DEFAULT_PROFILE})"
    )
    m.add_argument("--workers", metavar="N", help="explore each engine's shards in N local processes (default 1)")
    m.add_argument("--previous", metavar="SUMMARY.json", help="the previous run's matrix.json: what changed per engine")
    m.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def run_matrix(
    args: argparse.Namespace, out: Console, err: Console, certification: Certification, previous: Any
) -> str | None:
    """Certify every engine with ``certification`` (``ruleproof.cli.commands``: certify's own) and write the
    site; the signal that stopped the matrix early, if one did."""
    from ruleproof.cli.options import check_output_dir
    from ruleproof.output.matrix import write_site
    from ruleproof.run.matrix import history, load_engines, summarize

    entries = load_engines(args.engines)
    profile = args.profile or DEFAULT_PROFILE
    workers = 1 if args.workers is None else parse_workers(args.workers)
    site = check_output_dir(args.output, "-o")
    if previous is not None:
        checked_previous(previous, args.previous)
    options = {e.name: entry_options(e, profile, workers, site) for e in entries}  # every file checked first
    outcomes: list[Outcome] = []
    stopped: str | None = None
    for entry in entries:
        if stopped:
            outcomes.append(not_run(entry, stopped))
            continue
        outcome, stopped = certified(entry, options[entry.name], certification, err if not args.quiet else None)
        outcomes.append(outcome)
    summary = summarize(outcomes, profile, str(args.engines))
    if previous is not None:
        changes = history(summary, previous)
        for engine in summary["engines"]:
            if engine["name"] in changes:
                engine["history"] = changes[engine["name"]]
        summary["previous"] = str(args.previous)
    write_site(site, summary, outcomes)
    engines = f"{len(entries)} engine{'s' if len(entries) != 1 else ''}"
    out.print(f"wrote {escape(str(site / 'index.html'))}: {engines}, {', '.join(summary['games'])}")
    return stopped


def entry_options(entry: EngineEntry, profile: str, workers: int, site: Path) -> Options:
    """``certify``'s options for one engine; a bad expectations file names the engine's line."""
    values = {
        "engine": entry.engine,
        "engine_cmd": entry.engine_cmd,
        "game": list(entry.games),
        "profile": profile,
        "timeout": entry.timeout,
        "max_time": entry.max_time,
        "expect": entry.expect,
        "traces": str(site / "engines" / entry.slug / "traces"),
        "workers": workers,
        "quiet": True,
    }
    try:
        return Options.build(values)
    except UserError as exc:
        raise UsageError(f"engine {entry.name!r} (line {entry.line}): {exc}") from None


def checked_previous(data: Any, path: str) -> None:
    """The previous run's summary must match its schema (a wrong file: one line, exit 2)."""
    from ruleproof.output.matrix import schema_errors

    problems = schema_errors(data)
    if problems:
        raise UsageError(f"--previous {path}: not a matrix summary (matrix.json): {problems[0]}")


def certified(
    entry: EngineEntry, opts: Options, certification: Certification, err: Console | None
) -> tuple[Outcome, str | None]:
    """One engine certified as ``ruleproof certify`` does it; anything that stops it is its column's reason.
    Also the signal that stopped it, if one did: the matrix then stops too."""
    from ruleproof.model.engine import EngineError
    from ruleproof.run.matrix import Outcome, broken_reason

    if err is not None:
        err.print(f"matrix: certifying {escape(entry.name)} ({', '.join(entry.games)})")
    start = time.monotonic()
    cert: Certificate | None = None
    reason, signal = "", None
    try:
        cert, signal = certification(opts)
    except UserError as exc:  # a factory that cannot be imported, a game the engine does not declare
        reason = str(exc)
    except EngineError as exc:  # hello refused
        reason = f"the engine refused ({exc.kind}): {exc.message}"
    except Exception as exc:  # an engine (or the kit) broke where nothing expected it: this column only
        reason = f"internal error: {type(exc).__name__}: {exc}"
    data = cert.to_json() if cert is not None else None
    outcome = Outcome(entry, data, reason or (broken_reason(data) if data and data["verdict"] == "broken" else ""),
                      time.monotonic() - start)  # fmt: skip
    if err is not None:
        verdict = "broken" if outcome.reason and data is None else (data or {}).get("verdict", "broken")
        why = f": {outcome.reason}" if outcome.reason else ""
        err.print(f"matrix: {escape(entry.name)}: {verdict}{escape(why)} ({outcome.seconds:.1f}s)")
    return outcome, signal


def not_run(entry: EngineEntry, signal: str) -> Outcome:
    from ruleproof.run.matrix import Outcome

    return Outcome(entry, None, f"not run: the matrix was stopped ({signal})", stopped=True)
