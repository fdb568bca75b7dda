"""What the certification of one game found: a verdict per clause and the failures.

``GameReport`` is built by the runner once a game ends, and read by the certificate, every output
and the pytest plugin; ``to_json`` and ``from_json`` are the certificate's game entry, both ways.
A clause's status is one of
``STATUSES``; ``pass`` means exercised and never violated, ``untested`` that
nothing reached it (never shown as passed), ``partial`` that it was exercised
and never violated but not in every situation it names (``missing`` says
which), ``covered`` that it was reached but no behaviour can break it on its
own (a definition other clauses apply).
"""

from __future__ import annotations

from typing import Any

from attrs import field, frozen

from ruleproof.model.engine import JSON, AdapterBroken, JSONObject, State
from ruleproof.model.findings import Event, Finding, Trace

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

    @classmethod
    def from_json(cls, data: JSONObject) -> BaselineDiff:
        return cls(*(tuple(str(c) for c in data.get(k) or ()) for k in ("regressions", "fixed", "untested")))


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

    @classmethod
    def from_json(cls, data: JSONObject, game: str) -> Failure:
        """A failure as a certificate gives it (``to_json``; a trace file's path and replay command are the
        certificate's)."""
        events = tuple(Event.from_json(e) for e in data.get("trace") or ())
        finding = Finding.from_json(data)
        return cls(
            finding,
            Trace(game, events, finding),
            str(data.get("source", "")),
            bool(data.get("confirmed")),
            float(data.get("seconds") or 0.0),
            int(data.get("original_steps") or 0),
            int(data.get("violations") or 1),
            tuple(data.get("states") or ()),
            str(data.get("unconfirmed") or ""),
            tuple(str(c) for c in data.get("with") or ()),
            tuple(str(c) for c in data.get("follows") or ()),
        )


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

    @classmethod
    def from_json(cls, data: JSONObject) -> Stopped:
        return cls(
            str(data.get("stage", "")), int(data.get("calls") or 0), str(data.get("reason", "")), data.get("request")
        )


@frozen
class GameReport:
    """One game's certification, built once when it ends (``ruleproof.run.runner``); declared deviations
    and a baseline give a new report (``ruleproof.run.expect``), never a changed one."""

    game: str
    clauses: dict[str, str] = field(factory=dict)  # clause -> a status of STATUSES
    failures: tuple[Failure, ...] = ()
    broken: AdapterBroken | None = None
    stopped: Stopped | None = None  # set when broken or interrupted: the verdicts so far stand
    interrupted: bool = False
    kit_error: str = ""  # a bug of ruleproof that stopped this game (then `interrupted`: nothing judged past it)
    skipped: tuple[str, ...] = ()  # setups or fixtures skipped, and why
    fixtures: dict[str, str] = field(factory=dict)  # fixture id -> status
    hits: dict[str, int] = field(factory=dict)  # clause -> times judged
    violations: dict[str, int] = field(factory=dict)  # clause -> times violated (every cause, fixtures included)
    situations: dict[str, dict[str, int]] = field(factory=dict)  # clause -> situation -> times judged (0: missing)
    stats: dict[str, Any] = field(factory=dict)  # examples, steps, probes, calls, replays
    check_errors: tuple[str, ...] = ()  # a check that crashed on a state (a kit bug)
    seconds: float = 0.0
    expected: dict[str, str] = field(factory=dict)  # clause -> reason, from --expect
    baseline: BaselineDiff | None = None  # set by --baseline

    @property
    def verdict(self) -> str:
        """broken, fail, interrupted (a run stopped early never passes), untested (nothing judged), or pass."""
        if self.broken is not None and self.broken.kind == "interrupted":
            return "interrupted"  # a call cut short because the run was stopping: the engine is not to blame
        if self.broken is not None:
            return "broken"
        # a failure whose clause is not in the table counts as unexpected too
        unexpected = any(self.clauses.get(f.finding.clause, "fail") == "fail" for f in self.failures)
        unexpected = unexpected or any(s in UNEXPECTED for s in self.clauses.values())
        if unexpected or (self.baseline is not None and self.baseline.regressions):
            return "fail"
        if self.interrupted:
            return "interrupted"
        judged = any(s not in ("untested", "skipped", "covered") for s in self.clauses.values())
        return "pass" if judged else "untested"

    def checks(self, clause: str) -> int:
        """How often ``clause`` was judged: every hit, and every violation (a fixture's failed expectation
        judges its clause too, once)."""
        return max(self.hits.get(clause, 0), self.violations.get(clause, 0))

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

    def clause_json(self, clause: str) -> JSONObject:
        """A clause's line of the certificate."""
        out: JSONObject = {"status": self.clauses.get(clause, "untested"), "hits": self.checks(clause)}
        if self.follows(clause):  # every cause of it came after these: a consequence, "fail, after ..."
            out["follows"] = list(self.follows(clause))
        if clause in self.situations:  # how often each of its readings was judged
            out["situations"] = self.situations[clause]
            if self.missing(clause):
                out["missing"] = self.missing(clause)
        if clause in self.expected:  # listed in --expect: the declared reason (also when untested)
            out["expected"] = self.expected[clause]
        if self.baseline is not None:  # the baseline's word on this clause, on its row
            change = next((k for k, cs in self.baseline.to_json().items() if clause in cs), None)
            if change is not None:
                out["baseline"] = change
        return out

    def to_json(self) -> JSONObject:
        out: JSONObject = {
            "verdict": self.verdict,
            "interrupted": self.interrupted,
            "seconds": round(self.seconds, 3),
            "clauses": {c: self.clause_json(c) for c in self.clauses},
            "failures": [f.to_json() for f in self.failures],
            "fixtures": self.fixtures,
            "skipped": list(self.skipped),
            "stats": self.stats,  # examples, steps, probes, games, engine calls, replays, seed
            "violations": self.violations,
        }
        for name, value in (("stopped", self.stopped), ("baseline", self.baseline), ("broken", self.broken)):
            if value is not None:  # stopped: where driving stopped; the verdicts above were judged before it
                out[name] = value.to_json()
        if self.check_errors:
            out["check_errors"] = list(self.check_errors)
        if self.kit_error:
            out["kit_error"] = self.kit_error
        return out

    @classmethod
    def from_json(cls, game: str, data: JSONObject) -> GameReport:
        """A game of a certificate, as ``to_json`` wrote it."""
        clauses = data.get("clauses") or {}
        return cls(
            game,
            clauses={c: str(v.get("status", "untested")) for c, v in clauses.items()},
            failures=tuple(Failure.from_json(f, game) for f in data.get("failures") or ()),
            broken=AdapterBroken.from_json(data["broken"]) if data.get("broken") else None,
            stopped=Stopped.from_json(data["stopped"]) if data.get("stopped") else None,
            interrupted=bool(data.get("interrupted")),
            kit_error=str(data.get("kit_error") or ""),
            skipped=tuple(data.get("skipped") or ()),
            fixtures=dict(data.get("fixtures") or {}),
            hits={c: int(v.get("hits") or 0) for c, v in clauses.items()},
            violations=dict(data.get("violations") or {}),
            situations={c: v["situations"] for c, v in clauses.items() if "situations" in v},
            stats=dict(data.get("stats") or {}),
            check_errors=tuple(data.get("check_errors") or ()),
            seconds=float(data.get("seconds") or 0.0),
            expected={c: str(v["expected"]) for c, v in clauses.items() if "expected" in v},
            baseline=BaselineDiff.from_json(data["baseline"]) if data.get("baseline") else None,
        )


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
        # broken in the same step as it, seen from either side
        together |= {c for c in failing if any(planted in f.with_clauses for f in report.failures_of(c))}
        unclean = tuple(c for c in failing if c != planted and family(c) != family(planted) and c not in together)
        unmarked = tuple(c for c in unclean if not report.follows(c))
        return cls(caught, caught and not unclean, caught and not unmarked, unclean, unmarked)

    @property
    def label(self) -> str:
        return "clean" if self.clean else "marked" if self.marked else "caught" if self.caught else "missed"
