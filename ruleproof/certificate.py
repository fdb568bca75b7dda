"""The certificate: the verdict of one certification, as JSON and as JUnit XML.

Shape (README, "The certificate")::

    {"verdict": "pass"|"fail"|"broken", "engine": {...}, "profile": ..., "seed": ...,
     "games": {GAME: {"verdict": ..., "clauses": {ID: {"status": ..., "hits": n}},
                      "failures": [{"clause", "message", "expected", "got", "trace", ...}]}}}
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import hypothesis
from attrs import frozen

from ruleproof.engine import AdapterBroken
from ruleproof.report import Failure, GameReport


@frozen
class Certificate:
    engine: dict[str, Any]
    profile: str
    seed: int | None
    reports: tuple[GameReport, ...]
    engine_args: tuple[str, ...] = ()  # the --engine/--engine-cmd arguments, for replay commands
    trace_files: tuple[tuple[str, str], ...] = ()  # (game:clause, path)
    expect_file: str | None = None  # --expect FILE: the declared deviations
    baseline_file: str | None = None  # --baseline CERT.json
    baseline_warnings: tuple[str, ...] = ()  # another engine or game set than the baseline's
    interrupted: str | None = None  # why the run stopped early ("SIGTERM", "--max-time 60s"): a partial certificate
    not_run: tuple[str, ...] = ()  # games asked for but not started because the run was interrupted
    broken: AdapterBroken | None = None  # the engine could not be started or answer hello: no game was run

    @property
    def verdict(self) -> str:
        """broken, fail, then interrupted or untested (neither is a pass), else pass."""
        if self.broken is not None:
            return "broken"
        verdicts = {game_verdict(r) for r in self.reports}
        for verdict in ("broken", "fail", "interrupted"):
            if verdict in verdicts:
                return verdict
        if self.interrupted is not None or self.not_run:
            return "interrupted"
        return "untested" if not self.reports or "untested" in verdicts else "pass"

    @property
    def exit_status(self) -> int:
        # an interrupted or empty run never passes: 2 says "not certified", as for a wrong call
        return {"pass": 0, "fail": 1, "broken": 2, "interrupted": 2, "untested": 2}[self.verdict]

    def replay_command(self, path: str) -> str:
        return shlex.join(["ruleproof", "replay", path, *self.engine_args])

    def trace_file(self, game: str, clause: str) -> str | None:
        """The first saved trace of this clause (a clause can fail in several fixtures)."""
        return next((path for key, path in self.trace_files if key == f"{game}:{clause}"), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "engine": self.engine,
            "profile": self.profile,
            "seed": self.seed,
            # the same seed gives the same certificate only under the same Hypothesis release
            "hypothesis": hypothesis.__version__,
            "games": {r.game: self._game(r) for r in self.reports},
            "interrupted": self.interrupted is not None,
            **(
                {"interrupted_by": self.interrupted, "not_run": list(self.not_run)}
                if self.interrupted is not None
                else {}
            ),
            **({"broken": self.broken.to_json()} if self.broken is not None else {}),
            **({"expect": self.expect_file} if self.expect_file else {}),
            **(
                {"baseline": {"file": self.baseline_file, "warnings": list(self.baseline_warnings)}}
                if self.baseline_file
                else {}
            ),
        }

    def _game(self, r: GameReport) -> dict[str, Any]:
        out: dict[str, Any] = {
            "verdict": game_verdict(r),
            "interrupted": r.interrupted,
            "seconds": round(r.seconds, 3),
            "clauses": {c: self._clause(r, c, s) for c, s in r.clauses.items()},
            "failures": [self._failure(r.game, f) for f in r.failures],
            "fixtures": r.fixtures,
            "skipped": r.skipped,
            "stats": r.stats,  # examples, steps, probes, games, engine calls, replays, seed
        }
        if r.stopped is not None:  # where driving stopped: the verdicts above were judged before it
            out["stopped"] = r.stopped.to_json()
        if r.check_errors:
            out["check_errors"] = r.check_errors
        if r.kit_error:
            out["kit_error"] = r.kit_error
        if r.baseline is not None:
            out["baseline"] = r.baseline.to_json()
        if r.broken is not None:
            out["broken"] = r.broken.to_json()
        return out

    @staticmethod
    def _clause(r: GameReport, clause: str, status: str) -> dict[str, Any]:
        out: dict[str, Any] = {"status": status, "hits": r.hits.get(clause, 0)}
        if r.follows(clause):  # every cause of it came after these: a consequence, "fail, after ..."
            out["follows"] = list(r.follows(clause))
        if clause in r.situations:  # how often each of its readings was judged
            out["situations"] = r.situations[clause]
            if r.missing(clause):
                out["missing"] = r.missing(clause)
        if clause in r.expected:  # listed in --expect: the declared reason (also when untested)
            out["expected"] = r.expected[clause]
        return out

    def _failure(self, game: str, f: Failure) -> dict[str, Any]:
        out = f.to_json()
        path = self.trace_file(game, f.finding.clause)
        if path:
            out["trace_file"] = path
            out["replay"] = self.replay_command(path)
        return out


def game_verdict(r: GameReport) -> str:
    """The report's verdict, except that a game interrupted, or in which nothing was judged, does not pass."""
    if r.broken is not None and r.broken.kind == "interrupted":
        return "interrupted"  # a call cut short because the run was stopping: the engine is not to blame
    if r.verdict != "pass":
        return r.verdict
    if r.interrupted:
        return "interrupted"
    return "pass" if any(s not in ("untested", "skipped", "covered") for s in r.clauses.values()) else "untested"


_UMASK = os.umask(0o22)
os.umask(_UMASK)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` all or nothing: a temporary file in the same folder, then a rename."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_UMASK)  # mkstemp makes 0600; give the mode a plain open() would
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):  # the write failed already: that error is the one to raise
            os.unlink(tmp)
        raise


def write_traces(reports: Iterable[GameReport], folder: Path, engine: dict[str, Any]) -> list[tuple[str, str]]:
    """Save each failure as a replayable trace file; returns (game:clause, path) pairs."""
    saved: list[tuple[str, str]] = []
    for r in reports:
        for f in r.failures:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{r.game}-{f.finding.clause}.json"
            n = 1
            while str(path) in {p for _, p in saved}:
                n += 1
                path = folder / f"{r.game}-{f.finding.clause}-{n}.json"
            data = {**f.trace.to_json(), "engine": engine, "source": f.source}
            write_atomic(path, json.dumps(data, indent=1) + "\n")
            saved.append((f"{r.game}:{f.finding.clause}", str(path)))
    return saved


def junit_xml(cert: Certificate) -> str:
    """One JUnit test case per clause (failure, skipped or passed), and one error per stop.

    A game whose engine could not be driven any further, or that was interrupted, gets one more case
    (``GAME::engine``) in error, with where driving stopped: the clauses judged before keep their
    verdicts, so a broken adapter is one error, never one per clause, and a stopped run is never green.
    """
    suites = ET.Element("testsuites", name="ruleproof", tests="0", failures="0", errors="0", skipped="0")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    if cert.broken is not None:  # nothing ran: the engine did not start or answer hello
        suite = ET.SubElement(suites, "testsuite", name="ruleproof", time="0.000")
        _stop_case(
            suite,
            "ruleproof",
            "engine",
            f"adapter-broken:{cert.broken.kind}",
            cert.broken.message,
            json.dumps(cert.broken.to_json(), indent=1, default=str),
        )
        _count(suite, {"tests": 1, "errors": 1}, totals)
    for r in cert.reports:
        suite = ET.SubElement(suites, "testsuite", name=r.game, time=f"{r.seconds:.3f}")
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for clause, status in r.clauses.items():
            case = ET.SubElement(suite, "testcase", classname=f"ruleproof.{r.game}", name=clause)
            counts["tests"] += 1
            outcome = _clause_outcome(cert, r, clause, status, case)
            if outcome:
                counts[outcome] += 1
        stop = _stop_of(r)
        if stop is not None:
            _stop_case(suite, f"ruleproof.{r.game}", "engine", *stop)
            counts["tests"] += 1
            counts["errors"] += 1
        _count(suite, counts, totals)
    for game in cert.not_run:  # asked for, never started: the run was stopped first
        suite = ET.SubElement(suites, "testsuite", name=game, time="0.000")
        _stop_case(suite, f"ruleproof.{game}", "engine", "interrupted", f"not run: {cert.interrupted}", "")
        _count(suite, {"tests": 1, "errors": 1}, totals)
    for k, v in totals.items():
        suites.set(k, str(v))
    return ET.tostring(suites, encoding="unicode", xml_declaration=True)


def _count(suite: ET.Element, counts: dict[str, int], totals: dict[str, int]) -> None:
    for k in totals:
        suite.set(k, str(counts.get(k, 0)))
        totals[k] += counts.get(k, 0)


def _stop_of(r: GameReport) -> tuple[str, str, str] | None:
    """(type, message, text) of the error case of a game that stopped early, or None."""
    stopped = json.dumps(r.stopped.to_json(), indent=1, default=str) if r.stopped is not None else ""
    if r.broken is not None and r.broken.kind != "interrupted":
        text = json.dumps(
            {"broken": r.broken.to_json(), "stopped": r.stopped.to_json() if r.stopped else None}, indent=1, default=str
        )
        return f"adapter-broken:{r.broken.kind}", r.broken.message, text
    if r.interrupted or (r.broken is not None and r.broken.kind == "interrupted"):
        return "interrupted", r.stopped.reason if r.stopped else "interrupted", stopped
    return None


def _stop_case(suite: ET.Element, classname: str, name: str, kind: str, message: str, text: str) -> None:
    case = ET.SubElement(suite, "testcase", classname=classname, name=name)
    ET.SubElement(case, "error", message=message, type=kind).text = text


def _clause_outcome(cert: Certificate, r: GameReport, clause: str, status: str, case: ET.Element) -> str:
    """Fill one clause's test case; the JUnit count it adds to ("" for a pass)."""
    if status == "fail":
        f = r.failure(clause)
        after = f"fail, after {', '.join(r.follows(clause))}: " if r.follows(clause) else ""
        node = ET.SubElement(case, "failure", message=after + (f.finding.message if f else clause), type=clause)
        path = cert.trace_file(r.game, clause)
        if f is not None:
            node.text = "\n".join(
                [
                    f"expected: {json.dumps(f.finding.expected)}",
                    f"got: {json.dumps(f.finding.got)}",
                    f"trace ({len(f.trace.events)} steps): {json.dumps(f.trace.moves())}",
                    f"replay: {cert.replay_command(path)}" if path else "",
                ]
            )
        return "failures"
    if status == "xfail":  # a declared deviation: skipped, carrying the reason (pytest's own convention)
        ET.SubElement(case, "skipped", type="pytest.xfail", message=f"xfail: {r.expected.get(clause, '')}")
        return "skipped"
    if status == "xpass":  # listed but passed: the expectations are out of date
        node = ET.SubElement(case, "failure", message=f"{clause} is listed but passed: remove it", type="xpass")
        node.text = f"listed as: {r.expected.get(clause, '')}"
        return "failures"
    if status == "partial":  # passed where judged, but not in every situation: say which are missing
        ET.SubElement(case, "system-out").text = f"partial: situations never reached: {', '.join(r.missing(clause))}"
        return ""
    if status in ("untested", "skipped", "covered"):  # covered: reached, but nothing can fail it alone
        listed = f" (listed: {r.expected[clause]})" if clause in r.expected else ""
        ET.SubElement(case, "skipped", message=status + listed)
        return "skipped"
    return ""
