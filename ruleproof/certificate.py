"""The certificate: the verdict of one certification, as JSON and as JUnit XML.

Shape (README, "The certificate")::

    {"verdict": "pass"|"fail"|"broken", "engine": {...}, "profile": ..., "seed": ...,
     "games": {GAME: {"verdict": ..., "clauses": {ID: {"status": ..., "hits": n}},
                      "failures": [{"clause", "message", "expected", "got", "trace", ...}]}}}
"""

from __future__ import annotations

import json
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Iterable

from attrs import frozen

from ruleproof.runner import Failure, GameReport


@frozen
class Certificate:
    engine: dict[str, Any]
    profile: str
    seed: int | None
    reports: tuple[GameReport, ...]
    engine_args: tuple[str, ...] = ()  # the --engine/--engine-cmd arguments, for replay commands
    trace_files: tuple[tuple[str, str], ...] = ()  # (game:clause, path)

    @property
    def verdict(self) -> str:
        verdicts = {r.verdict for r in self.reports}
        if "broken" in verdicts:
            return "broken"
        return "fail" if "fail" in verdicts else "pass"

    @property
    def exit_status(self) -> int:
        return {"pass": 0, "fail": 1, "broken": 2}[self.verdict]

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
            "games": {r.game: self._game(r) for r in self.reports},
        }

    def _game(self, r: GameReport) -> dict[str, Any]:
        out: dict[str, Any] = {
            "verdict": r.verdict,
            "seconds": round(r.seconds, 3),
            "clauses": {c: {"status": s, "hits": r.hits.get(c, 0)} for c, s in r.clauses.items()},
            "failures": [self._failure(r.game, f) for f in r.failures],
            "fixtures": r.fixtures,
            "skipped": r.skipped,
        }
        if r.broken is not None:
            out["broken"] = r.broken.to_json()
        return out

    def _failure(self, game: str, f: Failure) -> dict[str, Any]:
        out = f.to_json()
        path = self.trace_file(game, f.finding.clause)
        if path:
            out["trace_file"] = path
            out["replay"] = self.replay_command(path)
        return out


def write_traces(reports: Iterable[GameReport], folder: Path, engine: dict[str, Any]) -> list[tuple[str, str]]:
    """Save each failure as a replayable trace file; returns (game:clause, path) pairs."""
    saved = []
    for r in reports:
        for f in r.failures:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{r.game}-{f.finding.clause}.json"
            n = 1
            while str(path) in {p for _, p in saved}:
                n += 1
                path = folder / f"{r.game}-{f.finding.clause}-{n}.json"
            data = {**f.trace.to_json(), "engine": engine, "source": f.source}
            path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            saved.append((f"{r.game}:{f.finding.clause}", str(path)))
    return saved


def junit_xml(cert: Certificate) -> str:
    """One JUnit test case per clause: failure, skipped (untested or skipped) or error (broken)."""
    suites = ET.Element("testsuites", name="ruleproof", tests="0", failures="0", errors="0", skipped="0")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for r in cert.reports:
        suite = ET.SubElement(suites, "testsuite", name=r.game, time=f"{r.seconds:.3f}")
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        failures = {f.finding.clause: f for f in r.failures}
        for clause, status in r.clauses.items():
            case = ET.SubElement(suite, "testcase", classname=f"ruleproof.{r.game}", name=clause)
            counts["tests"] += 1
            if r.broken is not None:
                err = ET.SubElement(case, "error", message=r.broken.message, type=f"adapter-broken:{r.broken.kind}")
                err.text = json.dumps(r.broken.to_json(), indent=1, default=str)
                counts["errors"] += 1
            elif status == "fail":
                f = failures[clause]
                node = ET.SubElement(case, "failure", message=f.finding.message, type=clause)
                path = cert.trace_file(r.game, clause)
                node.text = "\n".join(
                    [
                        f"expected: {json.dumps(f.finding.expected)}",
                        f"got: {json.dumps(f.finding.got)}",
                        f"trace ({len(f.trace.events)} steps): {json.dumps(f.trace.moves())}",
                        f"replay: {cert.replay_command(path)}" if path else "",
                    ]
                )
                counts["failures"] += 1
            elif status in ("untested", "skipped"):
                ET.SubElement(case, "skipped", message=status)
                counts["skipped"] += 1
        for k, v in counts.items():
            suite.set(k, str(v))
            totals[k] += v
    for k, v in totals.items():
        suites.set(k, str(v))
    return ET.tostring(suites, encoding="unicode", xml_declaration=True)
