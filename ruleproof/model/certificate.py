"""The certificate: the verdict of one certification, as JSON (JUnit: ``ruleproof.output.junit``).

Shape (README, "The certificate")::

    {"verdict": "pass"|"fail"|"broken", "engine": {...}, "profile": ..., "seed": ...,
     "games": {GAME: {"verdict": ..., "clauses": {ID: {"status": ..., "hits": n}},
                      "failures": [{"clause", "message", "expected", "got", "trace", ...}]}}}
"""

from __future__ import annotations

import shlex
from typing import Any

import hypothesis
from attrs import frozen

from ruleproof.model.engine import AdapterBroken
from ruleproof.model.report import Failure, GameReport


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
