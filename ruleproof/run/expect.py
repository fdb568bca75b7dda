"""Declared deviations (``--expect FILE``) and comparison with an earlier certificate (``--baseline``).

An expectations file is TOML, one table per game, mapping a clause ID to the
reason the engine deviates from it::

    [black-maria]
    BM-LEAD-1 = "house rule: the holder of the 2C leads the first trick"

A listed clause that fails becomes ``xfail``; one that passes becomes
``xpass`` (the file is out of date, an unexpected result); a listed clause
that was not judged (untested, skipped) stays as it is and is shown as listed.
A baseline is the certificate JSON of an earlier run: clauses that went from
pass to fail are regressions, from fail to pass fixed, and judged clauses
that are no longer judged are reported as untested.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attrs import frozen

from ruleproof.model.fixtures import Fixture
from ruleproof.model.report import BaselineDiff, GameReport

if TYPE_CHECKING:
    from rich.console import Console

    from ruleproof.model.certificate import Certificate

PASSED = frozenset({"pass", "partial", "xpass"})  # judged and never violated (partial: not in every situation)
FAILED = frozenset({"fail", "xfail"})  # judged and violated
JUDGED = PASSED | FAILED

_HEADER = re.compile(r"""^\s*\[\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*\]""")
_KEY = re.compile(r"""^\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*=""")


class ExpectError(ValueError):
    """An expectations or baseline file that cannot be used; the message names the file and line or field."""

    def __init__(self, message: str, flag: str = "expect") -> None:
        super().__init__(message)
        self.flag = flag  # the option that named the file: expect or baseline


@frozen
class Expectation:
    game: str
    clause: str
    reason: str
    line: int  # 1-based line of the file that lists it, for messages


@frozen
class Expectations:
    path: str
    entries: tuple[Expectation, ...]

    def reasons(self, game: str) -> dict[str, str]:
        return {e.clause: e.reason for e in self.entries if e.game == game}

    def games(self) -> list[str]:
        return sorted({e.game for e in self.entries})


def load_expectations(path: str | Path, known: Mapping[str, Sequence[str]]) -> Expectations:
    """Read and check an expectations file; ``ExpectError`` names the file and line of what is wrong."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ExpectError(f"{p}: cannot read ({err.__class__.__name__}: {err})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ExpectError(f"{p}: not TOML ({err})") from None
    lines = _locate(text)
    entries = []
    for game, table in data.items():
        where = f"{p}:{lines.get((game, None), 1)}"
        if game not in known:
            raise ExpectError(f"{where}: unknown game {game!r} (one of {', '.join(known)})")
        if not isinstance(table, dict):
            raise ExpectError(f"{where}: {game} must be a table [{game}] mapping clause IDs to reasons")
        for clause, reason in table.items():
            where = f"{p}:{lines.get((game, clause), lines.get((game, None), 1))}"
            if clause not in known[game]:
                raise ExpectError(f"{where}: unknown clause {clause!r} for {game} (see docs/rules/{game}.md)")
            if not isinstance(reason, str):
                raise ExpectError(
                    f"{where}: {game}.{clause}: the value must be a string giving the reason, not {_toml_type(reason)}"
                )
            if not reason.strip():
                raise ExpectError(f"{where}: {game}.{clause}: the reason is empty; say why the engine deviates")
            entries.append(Expectation(game, clause, reason, lines.get((game, clause), 1)))
    return Expectations(str(p), tuple(entries))


def _locate(text: str) -> dict[tuple[str, str | None], int]:
    """Line numbers of table headers and keys; tomllib keeps none, so scan the simple layout the file uses."""
    found: dict[tuple[str, str | None], int] = {}
    table: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if m := _HEADER.match(line):
            table = next(g for g in m.groups() if g is not None)
            found.setdefault((table, None), number)
        elif m := _KEY.match(line):
            key = next(g for g in m.groups() if g is not None)
            if table is None:  # a top-level key: `game = ...` (an inline table, or a mistake)
                found.setdefault((key, None), number)
            else:
                found.setdefault((table, key), number)
    return found


def _toml_type(value: Any) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", list: "an array", dict: "a table"}
    return next((name for kind, name in names.items() if isinstance(value, kind)), type(value).__name__)


def apply_expectations(report: GameReport, expectations: Expectations) -> None:
    """Turn the listed clauses' fail into xfail and pass into xpass; untested and skipped stay.

    A failure that only follows listed deviations (every cause of it came after one: ``follows``) is
    their consequence, expected with them: xfail too, its reason naming what it follows, so a house
    rule is declared once, not once per clause it drags along.
    """
    reasons = dict(expectations.reasons(report.game))
    for clause, status in list(report.clauses.items()):
        follows = report.follows(clause)
        if status == "fail" and clause not in reasons and follows and set(follows) <= set(reasons):
            reasons[clause] = f"a consequence of {', '.join(follows)} (declared)"
    report.expected = reasons
    for clause in reasons:
        now = report.clauses.get(clause)
        if now == "fail":
            report.clauses[clause] = "xfail"
        elif now == "pass":
            report.clauses[clause] = "xpass"


def differences(reports: Iterable[GameReport], expectations_path: str | None) -> list[str]:
    """What the run says beyond what was declared: unlisted failures (and regressions), listed clauses that passed."""
    out = []
    for r in reports:
        regressed = set(r.baseline.regressions) if r.baseline is not None else set()
        for clause, status in r.clauses.items():
            if status == "fail":
                unlisted = f" and is not in {expectations_path}" if expectations_path else ""
                was = "; it passed in the baseline (a regression)" if clause in regressed else ""
                out.append(f"{r.game}: {clause} failed{unlisted}{was}")
            elif status == "xpass":
                out.append(f"{r.game}: {clause} is listed but passed: remove it from {expectations_path}")
    return out


def listed_untested(report: GameReport) -> list[str]:
    """Listed clauses this run did not judge: neither xfail nor xpass."""
    return [c for c in report.expected if report.clauses.get(c, "untested") not in JUDGED]


@frozen
class Baseline:
    """The parts of an earlier certificate a comparison needs."""

    path: str
    engine: Any
    games: dict[str, dict[str, str]]  # game -> clause -> status


def load_baseline(path: str | Path) -> Baseline:
    """Read an earlier certificate; ``ExpectError`` names the file and the field that is wrong."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise ExpectError(f"{p}: cannot read ({err.__class__.__name__}: {err})", "baseline") from None
    except json.JSONDecodeError as err:
        raise ExpectError(f"{p}: not JSON ({err})", "baseline") from None
    if not isinstance(data, dict) or not isinstance(data.get("games"), dict):
        raise ExpectError(
            f"{p}: games: missing; a baseline is a certificate written by `ruleproof certify --json`", "baseline"
        )
    games: dict[str, dict[str, str]] = {}
    for game, body in data["games"].items():
        clauses = body.get("clauses") if isinstance(body, dict) else None
        if not isinstance(clauses, dict):
            raise ExpectError(f"{p}: games.{game}.clauses: missing or not an object", "baseline")
        games[game] = {}
        for clause, entry in clauses.items():
            status = entry.get("status") if isinstance(entry, dict) else None
            if not isinstance(status, str):
                raise ExpectError(f"{p}: games.{game}.clauses.{clause}.status: missing or not a string", "baseline")
            games[game][clause] = status
    return Baseline(str(p), data.get("engine"), games)


def compare(report: GameReport, before: Mapping[str, str]) -> BaselineDiff:
    """Regressions (pass -> fail), fixed (fail -> pass), and clauses judged before but not now.

    A clause listed in the expectations is xfail now, not fail, so it is
    never a regression: the user declared it.
    """
    regressions, fixed, untested = [], [], []
    for clause, now in report.clauses.items():
        was = before.get(clause)
        if was in PASSED and now == "fail":
            regressions.append(clause)
        elif was in FAILED and now in PASSED:
            fixed.append(clause)
        elif was in JUDGED and now not in JUDGED:
            untested.append(clause)
    return BaselineDiff(tuple(regressions), tuple(fixed), tuple(untested))


def baseline_warnings(games: Sequence[str], baseline: Baseline, engine: Any) -> list[str]:
    """A baseline of another engine or another set of games is compared anyway, with a warning."""
    warnings = []
    before_name = baseline.engine.get("name") if isinstance(baseline.engine, dict) else None
    now_name = engine.get("name") if isinstance(engine, dict) else None
    if before_name != now_name:
        warnings.append(
            f"the baseline {baseline.path} certifies engine {before_name!r}, this run {now_name!r}: comparing anyway"
        )
    if sorted(baseline.games) != sorted(games):
        had, now = ", ".join(sorted(baseline.games)) or "none", ", ".join(sorted(games))
        warnings.append(f"the baseline {baseline.path} has games {had}, this run {now}")
    return warnings


def apply_baseline(reports: Sequence[GameReport], baseline: Baseline, engine: Any) -> list[str]:
    """Attach each game's comparison; returns the warnings."""
    for r in reports:
        if r.game in baseline.games:
            r.baseline = compare(r, baseline.games[r.game])
    return baseline_warnings([r.game for r in reports], baseline, engine)


@frozen
class RunInputs:
    """What the user declared for a run, loaded and checked before any engine is started."""

    expectations: Expectations | None = None
    baseline: Baseline | None = None
    fixtures: tuple[Fixture, ...] = ()


def load_inputs(expect: str | None, baseline: str | None, fixture_dirs: Sequence[str] | None) -> RunInputs:
    """``--expect``, ``--baseline``, ``--fixtures``; a bad file: ``ExpectError`` or ``FixtureError`` (ValueErrors)."""
    from ruleproof.properties import available_games, known_clauses
    from ruleproof.run.fixtures import load_dirs

    return RunInputs(
        load_expectations(expect, known_clauses(available_games())) if expect else None,
        load_baseline(baseline) if baseline else None,
        tuple(load_dirs(fixture_dirs)) if fixture_dirs else (),
    )


def judge_game(report: GameReport, inputs: RunInputs) -> None:
    """Apply the expectations, then the baseline (so a listed clause is never a regression)."""
    if inputs.expectations is not None:
        apply_expectations(report, inputs.expectations)
    if inputs.baseline is not None and report.game in inputs.baseline.games:
        report.baseline = compare(report, inputs.baseline.games[report.game])


def expectation_notes(report: GameReport) -> dict[str, str]:
    """The table's note for each listed clause: its reason, and what to do when it is out of date."""
    notes = {}
    for clause, reason in report.expected.items():
        status = report.clauses.get(clause, "untested")
        if status == "xpass":
            notes[clause] = f"listed but passed: remove it ({reason})"
        elif status not in JUDGED:
            notes[clause] = f"listed and {status}: {reason}"
        elif status == "xfail":
            notes[clause] = f"listed: {reason}"
    return notes


def print_differences(out: Console, cert: Certificate) -> None:
    """After the tables: what differs from the declared expectations and from the baseline."""
    from rich.markup import escape

    for line in differences(cert.reports, cert.expect_file) if (cert.expect_file or cert.baseline_file) else []:
        out.print(f"[bold red]{escape(line)}[/]")
    for r in cert.reports:
        untested = listed_untested(r)
        if untested:
            out.print(f"[yellow]{r.game}: listed and not judged in this run:[/] {escape(', '.join(untested))}")
        if r.baseline is not None:
            b = r.baseline
            parts = [
                f"{len(b.regressions)} regressions",
                f"{len(b.fixed)} fixed",
                f"{len(b.untested)} no longer judged",
            ]
            out.print(f"{r.game} against the baseline: {', '.join(parts)}")
            for name, clauses in (("regressions", b.regressions), ("fixed", b.fixed), ("untested", b.untested)):
                if clauses:
                    out.print(f"  {name}: {escape(', '.join(clauses))}")
