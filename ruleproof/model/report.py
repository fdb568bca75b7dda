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

from collections import Counter
from typing import Any

from attrs import evolve, field, frozen

from ruleproof.model.engine import JSON, AdapterBroken, JSONObject, State
from ruleproof.model.findings import Event, Finding, Trace
from ruleproof.model.games import BY_NAME

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
    # when no counterexample without an earlier violation was found: the clauses that took the state off
    # the rules before it, where it looks (what they touched, it observed), in every counterexample tried;
    # this failure is then their consequence, not a deviation of its own
    follows: tuple[str, ...] = ()
    # the signature of each of ``with_clauses``' findings in that step (the cause it is one deviation with)
    with_signatures: tuple[str, ...] = ()

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
            **({"with_signatures": list(self.with_signatures)} if self.with_signatures else {}),
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
            tuple(str(c) for c in data.get("with_signatures") or ()),
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
    # the rules it was judged under: each option the engine declares with other values than the document's
    # rule alone, as "pass rotate", "moon others_score" ("pass any": every value of the contract)
    rules: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """The game and the rules judged: "Black Maria (pass rotate, moon others_score)", so that two
        certificates of one engine under different house rules are never confused."""
        name = BY_NAME[self.game].title if self.game in BY_NAME else self.game
        return f"{name} ({', '.join(self.rules)})" if self.rules else name

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

    def deviations(self) -> list[Deviation]:
        """The deviations of their own, in the order first seen: each a difference a person goes looking
        for, with every cause that observed it (``Deviation``; grouped by ``deviations_of``)."""
        return [d for d in self._grouped() if not d.follows]

    def consequences(self) -> list[Deviation]:
        """The groups of failures that only follow deviations that took the state off the rules."""
        return [d for d in self._grouped() if d.follows]

    def _grouped(self) -> tuple[Deviation, ...]:
        return deviations_of(self.failures)

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
            "title": self.title,
            "rules": list(self.rules),
            "interrupted": self.interrupted,
            "seconds": round(self.seconds, 3),
            "clauses": {c: self.clause_json(c) for c in self.clauses},
            "failures": [f.to_json() for f in self.failures],
            "fixtures": self.fixtures,
            "skipped": list(self.skipped),
            "stats": self.stats,  # examples, steps, probes, games, engine calls, replays, seed
            "violations": self.violations,
            # the failures grouped as a person counts them (``deviations_of``): what every output shows
            "deviations": [d.to_json(self.failures) for d in self.deviations()],
            "consequences": [d.to_json(self.failures) for d in self.consequences()],
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
            rules=tuple(str(r) for r in data.get("rules") or ()),
        )


def family(clause: str) -> str:
    """The rule section a clause belongs to: its ID without the last dash-separated part."""
    return clause.rsplit("-", 1)[0]


@frozen
class Kill:
    """How a certificate reads for an engine with one bug planted under one clause (the gallery, the
    independent engines): the measure of "one deviation, one clause", read from ``deviations()``."""

    caught: bool  # the planted clause fails, in a deviation of its own (not only as a consequence)
    clean: bool  # caught, and every other failing clause is of its family or in the planted clause's deviation
    marked: bool  # caught, and every other failing clause is of its family, in its deviation, or a consequence
    unclean: tuple[str, ...]  # other failing clauses outside its family and its deviation
    unmarked: tuple[str, ...]  # ... that are not marked as a consequence either

    @classmethod
    def of(cls, report: GameReport, planted: str) -> Kill:
        failing = [c for c, s in report.clauses.items() if s == "fail"]
        own = report.deviations()
        mine = [d for d in own if planted in d.clauses]
        together = {c for d in mine for c in d.clauses}
        consequences = {c for d in report.consequences() for c in d.clauses} - {c for d in own for c in d.clauses}
        unclean = tuple(c for c in failing if c != planted and family(c) != family(planted) and c not in together)
        unmarked = tuple(c for c in unclean if c not in consequences)
        caught = bool(mine)
        return cls(caught, caught and not unclean, caught and not unmarked, unclean, unmarked)

    @property
    def label(self) -> str:
        return "clean" if self.clean else "marked" if self.marked else "caught" if self.caught else "missed"


@frozen
class Deviation:
    """One deviation as a person counts it: the failures (causes) that observed one difference.

    Two failures are one deviation when they were broken in the same step and observed a common part
    of the state or listing (``with``), when they are the same crash (an ``internal`` answer with the
    same message, whatever request showed it), or when they break the same rule of one clause
    (``Finding.rule``).  ``follows`` is set when every one of them only follows deviations that took the
    state off the rules where they look: the group is then their consequence.
    """

    failures: tuple[Failure, ...]  # in the report's order
    follows: tuple[str, ...] = ()
    shared: bool = False  # another deviation of the report is filed under the same clause: name the cause too

    @property
    def head(self) -> Failure:
        """The failure it is filed under (its clause's first cause here): its counterexample is shown."""
        return next(f for f in self.failures if f.finding.clause == self.clause)

    @property
    def cause(self) -> str:
        """The head's cause in words: the rule it breaks, else its signature without the check's name."""
        finding = self.head.finding
        text = finding.signature.split(":", 1)[-1]
        if finding.rule == "accepted":  # a forbidden move the engine took: which move
            text = "accepted " + text.split(":", 1)[-1]
        elif finding.rule:
            return finding.rule
        return text if len(text) <= 60 else text[:59] + "…"

    @property
    def label(self) -> str:
        """How outputs name it: "BM-PASS-1 with BM-INV-2", the cause added when its clause heads another."""
        head = f"{self.clause} ({self.cause})" if self.shared else self.clause
        return " with ".join([head, *self.clauses[1:]])

    @property
    def clause(self) -> str:
        """The clause it is filed under: the forbidden move's clause when the engine took one (or
        CONTRACT-REJECT-1 when a refusal changed the state), else the first rule (not an invariant, not
        the contract's) broken, else the first clause."""
        return self.clauses[0]

    @property
    def clauses(self) -> tuple[str, ...]:
        seen = list(dict.fromkeys(f.finding.clause for f in self.failures))
        return tuple(sorted(seen, key=lambda c: (_rank(c, self.failures), seen.index(c))))

    def to_json(self, failures: tuple[Failure, ...]) -> JSONObject:
        out: JSONObject = {
            "clause": self.clause,
            "label": self.label,
            "clauses": list(self.clauses),
            "failures": [next(i for i, g in enumerate(failures) if g is f) for f in self.failures],
        }
        if self.follows:
            out["follows"] = list(self.follows)
        return out


def _rank(clause: str, failures: tuple[Failure, ...]) -> int:
    """Which clause a deviation is filed under: an accepted forbidden move's, a rule's, an invariant's, the
    contract's."""
    if any(f.finding.clause == clause and f.finding.rule in ("accepted", "changed") for f in failures):
        return 0  # the engine took a move it had to refuse, or a refusal changed the state: the root
    if clause.startswith("CONTRACT-"):
        return 3
    return 2 if "-INV-" in clause else 1


def deviations_of(failures: tuple[Failure, ...]) -> tuple[Deviation, ...]:
    """The failures grouped into deviations, in the order first seen (``Deviation`` says when two are one)."""
    parent = list(range(len(failures)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in _joined(failures):
        parent[root(i)] = root(j)
    groups: dict[int, list[Failure]] = {}
    for i, f in enumerate(failures):
        groups.setdefault(root(i), []).append(f)
    out = []
    for members in groups.values():
        follows = () if any(not f.follows for f in members) else tuple(sorted({c for f in members for c in f.follows}))
        out.append(Deviation(tuple(members), follows))
    heads = Counter(d.clause for d in out)
    return tuple(evolve(d, shared=True) if heads[d.clause] > 1 else d for d in out)


def _of_rule(signature: str, rule: str) -> bool:
    """A signature (``check:rule:cause``) of a finding of ``rule`` (a named rule only)."""
    return bool(rule) and signature.partition(":")[2].startswith(rule + ":")


def _joined(failures: tuple[Failure, ...]) -> list[tuple[int, int]]:
    """The pairs of failures that are one deviation: ``with`` (read from either side), one crash, one rule."""
    pairs = []
    by_clause: dict[str, list[int]] = {}
    for i, f in enumerate(failures):
        by_clause.setdefault(f.finding.clause, []).append(i)
    for i, f in enumerate(failures):
        signatures = f.with_signatures if len(f.with_signatures) == len(f.with_clauses) else ("",) * len(f.with_clauses)
        for clause, signature in zip(f.with_clauses, signatures, strict=True):
            others = by_clause.get(clause, [])
            exact = [j for j in others if failures[j].signature == signature]
            # a cause not kept (a clause keeps three): one of the same rule of that clause, when it names one
            ruled = [j for j in others if _of_rule(signature, failures[j].finding.rule)]
            named = [j for j in others if f.finding.clause in failures[j].with_clauses]
            pairs += [(i, j) for j in exact or ruled or named or others]
        crashes = {a for a in f.finding.observed if a.startswith("crash:")}
        for j in range(i):
            g = failures[j]
            same_rule = g.finding.clause == f.finding.clause and g.finding.rule == f.finding.rule
            if same_rule or (crashes and crashes & g.finding.observed):
                pairs.append((i, j))
    return pairs
