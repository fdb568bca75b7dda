"""JUnit XML: one test case per clause, and one ``certify`` case per game that did the work.

Read by CI systems as a test report: a failing clause is a failure (its message says "fail, after X"
for a consequence), a declared deviation a skipped case with its reason, a clause no run reached a
skipped case, and a run that could not finish an error, so it is never green.  Times: the clauses of
a game are judged together, on the same steps, so the game's time goes to its ``certify`` case (as the
pytest plugin gives it to its ``GAME::certify`` item) and each clause case has the time of zero that
it took on its own; the ``certify`` case is also where a stop (a broken engine, an interruption) is
the one error.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from ruleproof.model.certificate import Certificate
from ruleproof.model.report import Failure, GameReport
from ruleproof.output.files import write_atomic
from ruleproof.run.events import Event, RunFinished


def junit_xml(cert: Certificate) -> str:
    """One JUnit test case per clause (failure, skipped or passed), and a ``certify`` case per game.

    The ``certify`` case carries the game's time; it is the one error of a game whose engine could not
    be driven any further, or that was interrupted (the clauses judged before keep their verdicts, so a
    broken adapter is one error, never one per clause, and a stopped run is never green), and a failure
    when the game judged nothing or regressed against the baseline.
    """
    suites = ET.Element("testsuites", name="ruleproof", tests="0", failures="0", errors="0", skipped="0")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    if cert.broken is not None:  # nothing ran: the engine did not start or answer hello
        suite = ET.SubElement(suites, "testsuite", name="ruleproof", time="0.000")
        broken = json.dumps(cert.broken.to_json(), indent=1, default=str)
        _stop_case(suite, "ruleproof", f"adapter-broken:{cert.broken.kind}", cert.broken.message, broken)
        _count(suite, {"tests": 1, "errors": 1}, totals)
    for r in cert.reports:
        _count(*_game_suite(suites, cert, r), totals)
    for game in cert.not_run:  # asked for, never started: the run was stopped first
        suite = ET.SubElement(suites, "testsuite", name=game, time="0.000")
        _stop_case(suite, f"ruleproof.{game}", "interrupted", f"not run: {cert.interrupted}", "")
        _count(suite, {"tests": 1, "errors": 1}, totals)
    for k, v in totals.items():
        suites.set(k, str(v))
    return ET.tostring(suites, encoding="unicode", xml_declaration=True)


def _game_suite(suites: ET.Element, cert: Certificate, r: GameReport) -> tuple[ET.Element, dict[str, int]]:
    """A game's test suite and its counts: its ``certify`` case first, then a case per clause."""
    suite = ET.SubElement(suites, "testsuite", name=r.game, time=f"{r.seconds:.3f}")
    # the rules it was judged under, so that two runs of one engine under other house rules read apart
    props = ET.SubElement(suite, "properties")
    ET.SubElement(props, "property", name="rules", value=r.title)
    # the deviations as every output counts them (``GameReport.deviations``): the count, then the first
    deviations = r.deviations()
    ET.SubElement(props, "property", name="deviations", value=str(len(deviations)))
    if deviations:
        ET.SubElement(props, "property", name="first_deviation", value=deviations[0].label)
    counts = {"tests": 1, "failures": 0, "errors": 0, "skipped": 0}
    stop = _stop_of(r)
    work = _stop_case(suite, f"ruleproof.{r.game}", *stop) if stop else _work_case(suite, r)
    work.set("time", f"{r.seconds:.3f}")
    if stop:
        counts["errors"] += 1
    elif work.find("failure") is not None:
        counts["failures"] += 1
    for clause, status in r.clauses.items():
        case = ET.SubElement(suite, "testcase", classname=f"ruleproof.{r.game}", name=clause, time="0.000")
        counts["tests"] += 1
        outcome = _clause_outcome(cert, r, clause, status, case)
        if outcome:
            counts[outcome] += 1
    return suite, counts


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


def _stop_case(suite: ET.Element, classname: str, kind: str, message: str, text: str) -> ET.Element:
    """The ``certify`` case of a run that stopped: one error, of type ``kind``."""
    case = ET.SubElement(suite, "testcase", classname=classname, name="certify", time="0.000")
    ET.SubElement(case, "error", message=message, type=kind).text = text
    return case


def _work_case(suite: ET.Element, r: GameReport) -> ET.Element:
    """The passing ``certify`` case of a game that ran to its end: what the run did, in its output."""
    case = ET.SubElement(suite, "testcase", classname=f"ruleproof.{r.game}", name="certify")
    if r.verdict == "untested":  # a run that judged nothing is not a pass
        ET.SubElement(case, "failure", message="no clause was judged", type="untested")
    elif r.baseline is not None and r.baseline.regressions:  # worse than the baseline, even where no case fails
        node = ET.SubElement(case, "failure", message="regressions against the baseline", type="baseline")
        node.text = ", ".join(r.baseline.regressions)
    ET.SubElement(case, "system-out").text = json.dumps(r.stats, sort_keys=True, default=str)
    return case


def _cause_text(cert: Certificate, r: GameReport, clause: str, k: int, f: Failure, n: int) -> str:
    """One cause of a failing clause: what it found, expected and got, its trace and how to replay it."""
    path = cert.trace_file(r.game, clause, k)
    return "\n".join(
        line
        for line in [
            f"cause {k + 1} of {n}: {f.finding.message}" if n > 1 else "",
            f"expected: {json.dumps(f.finding.expected)}",
            f"got: {json.dumps(f.finding.got)}",
            f"trace ({len(f.trace.events)} steps): {json.dumps(f.trace.moves())}",
            f"replay: {cert.replay_command(path)}" if path else "",
        ]
        if line
    )


def _clause_outcome(cert: Certificate, r: GameReport, clause: str, status: str, case: ET.Element) -> str:
    """Fill one clause's test case; the JUnit count it adds to ("" for a pass)."""
    if status == "fail":
        causes = r.failures_of(clause)
        f = causes[0] if causes else None
        after = f"fail, after {', '.join(r.follows(clause))}: " if r.follows(clause) else ""
        more = f" (and {len(causes) - 1} more cause{'s' if len(causes) > 2 else ''})" if len(causes) > 1 else ""
        node = ET.SubElement(case, "failure", message=after + (f.finding.message if f else clause) + more, type=clause)
        node.text = "\n\n".join(_cause_text(cert, r, clause, k, c, len(causes)) for k, c in enumerate(causes))
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


class JUnitFile:
    """``--junit``: the JUnit XML, written when the run finishes."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def handle(self, event: Event) -> None:
        if isinstance(event, RunFinished):
            write_atomic(self.path, junit_xml(event.certificate))
