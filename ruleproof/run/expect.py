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
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import hypothesis
from attrs import evolve, frozen

from ruleproof.model import schema
from ruleproof.model.certificate import Certificate, CertificateError
from ruleproof.model.errors import InputFileError, read_user_text, read_user_toml
from ruleproof.model.fixtures import Fixture
from ruleproof.model.report import BaselineDiff, GameReport

PASSED = frozenset({"pass", "partial", "xpass"})  # judged and never violated (partial: not in every situation)
FAILED = frozenset({"fail", "xfail"})  # judged and violated
JUDGED = PASSED | FAILED

_HEADER = re.compile(r"""^\s*\[\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*\]""")
_KEY = re.compile(r"""^\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*=""")


class ExpectError(InputFileError):
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
    text, data = read_user_toml(p, ExpectError)
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


def apply_expectations(report: GameReport, expectations: Expectations) -> GameReport:
    """The report with the listed clauses' fail as xfail and pass as xpass; untested and skipped stay.

    A house rule is declared once, by the clause it breaks: the clauses of its deviation (broken with it
    in the same step, observing the same difference: ``with``) are expected with it, and so are the
    deviations that only follow declared ones (``follows``), each with a reason naming the declared
    clause.  A clause is xfail only when every failure of it is so excused.
    """
    reasons = dict(expectations.reasons(report.game))
    excused = excused_by(report, set(reasons))
    for clause, status in report.clauses.items():
        causes = report.failures_of(clause)
        if status == "fail" and clause not in reasons and causes and all(id(f) in excused for f in causes):
            reasons[clause] = "; ".join(dict.fromkeys(excused[id(f)] for f in causes))
    swap = {"fail": "xfail", "pass": "xpass"}
    clauses = {c: swap.get(s, s) if c in reasons else s for c, s in report.clauses.items()}
    return evolve(report, clauses=clauses, expected=reasons)


def excused_by(report: GameReport, declared: set[str]) -> dict[int, str]:
    """Each failure (by ``id``) that a declared clause accounts for, with the reason shown: "expected with
    BM-PASS-1 (declared)" for one of a declared clause's deviation, "a consequence of BM-PASS-1
    (declared)" for one that only follows declared deviations."""
    out: dict[int, str] = {}
    for d in report.deviations():
        heads = [c for c in d.clauses if c in declared and "-INV-" not in c and not c.startswith("CONTRACT-")]
        head = d.clause if d.clause in declared else heads[0] if heads else None
        if head is not None:
            out.update({id(f): f"expected with {head} (declared)" for f in d.failures})
    accounted = declared | {f.finding.clause for d in report.deviations() for f in d.failures if id(f) in out}
    for d in report.consequences():
        if set(d.follows) <= accounted:
            reason = f"a consequence of {', '.join(d.follows)} (declared)"
            out.update({id(f): reason for f in d.failures})
    return out


def differences(reports: Iterable[GameReport], expectations_path: str | None) -> list[str]:
    """What the run says beyond what was declared: unlisted failures (and regressions), listed clauses that passed."""
    out = []
    for r in reports:
        regressed = set(r.baseline.regressions) if r.baseline is not None else set()
        excused = excused_by(r, set(r.expected)) if r.expected else {}
        for clause, status in r.clauses.items():
            if status == "fail":
                unlisted = f" and is not in {expectations_path}" if expectations_path else ""
                was = "; it passed in the baseline (a regression)" if clause in regressed else ""
                came = [excused[id(f)] for f in r.failures_of(clause) if id(f) in excused]
                partly = f" (one of its causes is {came[0]}, but not every one)" if came else ""
                out.append(f"{r.game}: {clause} failed{unlisted}{partly}{was}")
            elif status == "xpass":
                out.append(f"{r.game}: {clause} is listed but passed: remove it from {expectations_path}")
    return out


def listed_untested(report: GameReport) -> list[str]:
    """Listed clauses this run did not judge: neither xfail nor xpass."""
    return [c for c in report.expected if report.clauses.get(c, "untested") not in JUDGED]


@frozen
class Baseline:
    """An earlier certificate (``--baseline``), read by ``Certificate.from_json``, and where it came from."""

    path: str
    certificate: Certificate

    @property
    def engine(self) -> dict[str, Any]:
        return self.certificate.engine

    @property
    def games(self) -> dict[str, dict[str, str]]:
        """game -> clause -> status"""
        return {r.game: dict(r.clauses) for r in self.certificate.reports}


def load_baseline(path: str | Path) -> Baseline:
    """Read an earlier certificate; ``ExpectError`` names the file and the field that is wrong."""
    p = Path(path)
    text = read_user_text(p, lambda message: ExpectError(message, "baseline"))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ExpectError(f"{p}: not JSON ({err})", "baseline") from None
    try:
        schema.check("certificate", None, data, str(p))
        return Baseline(str(p), Certificate.from_json(data))
    except schema.SchemaError as err:
        raise ExpectError(
            f"{err}; a baseline is a certificate written by `ruleproof certify --json`", "baseline"
        ) from None
    except CertificateError as err:
        raise ExpectError(f"{p}: {err}", "baseline") from None


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
    was = baseline.certificate.versions.get("hypothesis")
    if was and was != hypothesis.__version__:
        warnings.append(
            f"the baseline {baseline.path} was made with Hypothesis {was}, this run uses {hypothesis.__version__}: "
            "the same seed explores other games under another Hypothesis release, so a clause may change "
            "verdict without the engine changing (README, 'Same seed, same certificate')"
        )
    return warnings


def apply_baseline(report: GameReport, baseline: Baseline) -> GameReport:
    """The report with its comparison to the baseline's game, when the baseline has that game."""
    if report.game not in baseline.games:
        return report
    return evolve(report, baseline=compare(report, baseline.games[report.game]))


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


def judge_game(report: GameReport, inputs: RunInputs) -> GameReport:
    """The report judged by the expectations, then the baseline (so a listed clause is never a regression)."""
    if inputs.expectations is not None:
        report = apply_expectations(report, inputs.expectations)
    if inputs.baseline is not None:
        report = apply_baseline(report, inputs.baseline)
    return report


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
