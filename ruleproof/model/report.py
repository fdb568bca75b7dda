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

from ruleproof.model.engine import JSON, AdapterBroken, JSONObject, State
from ruleproof.model.findings import Finding, Trace

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


# Failure.unconfirmed when a replay ran and did not show the clause again: the only case that says "nondeterministic"
NOT_REPRODUCED = "not reproduced on replay: the engine may be nondeterministic"


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
    # why it is not confirmed: NOT_REPRODUCED when a replay ran and differed, else why no replay could run
    # (the engine broke, the run was interrupted); "" when confirmed
    unconfirmed: str = ""
    # the other clauses violated in the counterexample's violating step (JSON "with")
    with_clauses: tuple[str, ...] = ()
    # when no counterexample without an earlier violation was found: the clauses violated before it in
    # every counterexample tried; this failure is then their consequence, not a deviation of its own
    follows: tuple[str, ...] = ()

    @property
    def steps(self) -> int:
        return len(self.trace.events)

    @property
    def signature(self) -> str:
        return self.finding.signature

    def to_json(self) -> JSONObject:
        return {
            **self.finding.to_json(),
            "source": self.source,
            "confirmed": self.confirmed,
            **({"unconfirmed": self.unconfirmed} if not self.confirmed else {}),
            "with": list(self.with_clauses),
            "follows": list(self.follows),
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

    stage: str  # "smoke" | "fixtures" | "properties" | "minimizing"
    calls: int  # engine calls made in this game before it stopped
    reason: str
    request: JSON = None  # the request that got no usable answer, when there was one

    def to_json(self) -> JSONObject:
        out: JSONObject = {"stage": self.stage, "calls": self.calls, "reason": self.reason}
        if self.request is not None:
            out["request"] = self.request
        return out


@define
class GameReport:
    game: str
    clauses: dict[str, str] = field(factory=dict)  # clause -> a status of STATUSES
    failures: list[Failure] = field(factory=list)
    broken: AdapterBroken | None = None
    stopped: Stopped | None = None  # set when broken or interrupted: the verdicts so far stand
    interrupted: bool = False
    kit_error: str = ""  # a bug of ruleproof that stopped this game (then `interrupted`: nothing judged past it)
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

    def failures_of(self, clause: str) -> list[Failure]:
        """Every cause of ``clause`` kept (at most ``ruleproof.run.causes.MAX_CAUSES``)."""
        return [f for f in self.failures if f.finding.clause == clause]

    def follows(self, clause: str) -> tuple[str, ...]:
        """The clauses a failing ``clause`` follows from, when every cause of it follows some
        (it is then a consequence, shown as "fail, after ..."); () for a deviation of its own."""
        causes = self.failures_of(clause)
        if not causes or any(not f.follows for f in causes):
            return ()
        return tuple(sorted({c for f in causes for c in f.follows}))

    def deviations(self) -> list[list[str]]:
        """The failing clauses that are deviations of their own, grouped with those violated in the same
        step (``with``): each group is one deviation a person goes looking for.  A clause joins the group
        it shares most clauses with (in the order first seen), else starts one."""
        own = [c for c in dict.fromkeys(f.finding.clause for f in self.failures) if not self.follows(c)]
        groups: list[list[str]] = []
        for clause in own:
            together = {w for f in self.failures_of(clause) for w in f.with_clauses} & set(own)
            root = self._accepted_probe(clause)
            if root in together:  # broken in the step the engine took a move it had to refuse: that move's
                together = {root}  # clause is the cause of what the step broke
            best = max(groups, key=lambda g: len(together & set(g)), default=None)
            if best is None or not together & set(best):
                groups.append([clause])
            else:
                best.append(clause)
        return groups

    def _accepted_probe(self, clause: str) -> str | None:
        """The clause of the forbidden move a failure's counterexample ends with, if it ends with one."""
        f = self.failure(clause)
        last = f.trace.events[-1] if f is not None and f.trace.events else None
        return last.clause if last is not None and last.kind == "reject" else None

    def consequences(self) -> list[str]:
        return [c for c in dict.fromkeys(f.finding.clause for f in self.failures) if self.follows(c)]


def family(clause: str) -> str:
    """The rule section a clause belongs to: its ID without the last dash-separated part."""
    return clause.rsplit("-", 1)[0]


@frozen
class Kill:
    """How a certificate reads for an engine with one bug planted under one clause (the gallery, the
    independent engines): the measure of "one deviation, one clause"."""

    caught: bool  # the planted clause fails, as a deviation of its own (it follows nothing)
    clean: bool  # caught, and every other failing clause is of its family or broken in the same step
    marked: bool  # caught, and every other failing clause is of its family, in the same step, or a consequence
    unclean: tuple[str, ...]  # other failing clauses outside its family and its step
    unmarked: tuple[str, ...]  # ... that are not marked as a consequence either

    @classmethod
    def of(cls, report: GameReport, planted: str) -> Kill:
        failing = [c for c, s in report.clauses.items() if s == "fail"]
        mine = report.failures_of(planted)
        caught = any(not f.follows for f in mine)
        together = {c for f in mine for c in f.with_clauses}
        unclean = tuple(c for c in failing if c != planted and family(c) != family(planted) and c not in together)
        unmarked = tuple(c for c in unclean if not report.follows(c))
        return cls(caught, caught and not unclean, caught and not unmarked, unclean, unmarked)

    @property
    def label(self) -> str:
        return "clean" if self.clean else "marked" if self.marked else "caught" if self.caught else "missed"
