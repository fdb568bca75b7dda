"""What the certification of one game found: a verdict per clause and the failures.

``GameReport`` is filled by the runner and read by the certificate, the
terminal report and the pytest plugin.  A clause's status is one of
``STATUSES``; ``pass`` means exercised and never violated, ``untested`` that
nothing reached it (never shown as passed), ``partial`` that it was exercised
and never violated but not in every situation it names (``missing`` says
which), ``covered`` that it was reached but no behaviour can break it on its
own (a definition other clauses apply).
"""

from __future__ import annotations

from typing import Any

from attrs import define, field, frozen

from ruleproof.engine import AdapterBroken, JSONObject, State
from ruleproof.findings import Finding, Trace

STATUSES = ("pass", "partial", "fail", "untested", "skipped", "covered", "xfail", "xpass")
# xfail: failed and listed in --expect; xpass: listed but passed (the list is out of date: an unexpected result)
UNEXPECTED = frozenset({"fail", "xpass"})


@frozen
class BaselineDiff:
    """This run against an earlier certificate (``--baseline``): what changed, by clause."""

    regressions: tuple[str, ...] = ()  # pass -> fail (a clause listed in --expect is xfail, never a regression)
    fixed: tuple[str, ...] = ()  # fail -> pass
    untested: tuple[str, ...] = ()  # judged in the baseline, not judged now

    def to_json(self) -> JSONObject:
        return {"regressions": list(self.regressions), "fixed": list(self.fixed), "untested": list(self.untested)}


@frozen
class Failure:
    """One violated clause with its minimized, re-checked counterexample."""

    finding: Finding
    trace: Trace  # minimized; its last event is the violating step
    source: str  # "properties" or "fixture:ID"
    confirmed: bool  # replaying the minimized trace reproduced the same clause
    seconds: float  # from the start of the game's certification to this verdict
    original_steps: int = 0  # the counterexample's length as first recorded
    violations: int = 1  # how often the run saw this clause violated
    states: tuple[State, ...] = ()  # the engine's state after each trace event (replay of the minimized trace)

    @property
    def steps(self) -> int:
        return len(self.trace.events)

    def to_json(self) -> JSONObject:
        return {
            **self.finding.to_json(),
            "source": self.source,
            "confirmed": self.confirmed,
            "seconds": round(self.seconds, 3),
            "steps": self.steps,
            "original_steps": self.original_steps,
            "violations": self.violations,
            "trace": self.trace.moves(),
            "states": list(self.states),
        }


@frozen
class Stopped:
    """Where driving stopped when a game became undrivable (or the run was interrupted)."""

    stage: str  # "smoke" | "fixture:ID" | "properties"
    calls: int  # engine calls made in this game before it stopped
    reason: str

    def to_json(self) -> JSONObject:
        return {"stage": self.stage, "calls": self.calls, "reason": self.reason}


@define
class GameReport:
    game: str
    clauses: dict[str, str] = field(factory=dict)  # clause -> a status of STATUSES
    failures: list[Failure] = field(factory=list)
    broken: AdapterBroken | None = None
    stopped: Stopped | None = None  # set when broken or interrupted: the verdicts so far stand
    interrupted: bool = False
    skipped: list[str] = field(factory=list)  # setups or fixtures skipped, and why
    fixtures: dict[str, str] = field(factory=dict)  # fixture id -> status
    hits: dict[str, int] = field(factory=dict)
    situations: dict[str, dict[str, int]] = field(factory=dict)  # clause -> situation -> times judged (0: missing)
    stats: dict[str, Any] = field(factory=dict)  # examples, steps, probes, calls, replays
    check_errors: list[str] = field(factory=list)  # a check that crashed on a state (a kit bug)
    seconds: float = 0.0
    expected: dict[str, str] = field(factory=dict)  # clause -> reason, from --expect
    baseline: BaselineDiff | None = None  # set by --baseline

    @property
    def verdict(self) -> str:
        if self.broken is not None:
            return "broken"
        # a failure whose clause is not in the table counts as unexpected too
        unexpected = any(self.clauses.get(f.finding.clause, "fail") == "fail" for f in self.failures)
        unexpected = unexpected or any(s in UNEXPECTED for s in self.clauses.values())
        if unexpected or (self.baseline is not None and self.baseline.regressions):
            return "fail"
        return "pass"

    def missing(self, clause: str) -> list[str]:
        """The situations of ``clause`` no run reached."""
        return [name for name, n in self.situations.get(clause, {}).items() if n == 0]

    def failure(self, clause: str) -> Failure | None:
        return next((f for f in self.failures if f.finding.clause == clause), None)
