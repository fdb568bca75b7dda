"""What one game's run found, grouped so that one deviation reads as one clause.

Every violation the session hands on lands in a ``FindingStore``.  Violations of one clause are
grouped by their ``Finding.signature`` into causes (a clause keeps at most ``MAX_CAUSES``, so that
"Q above K" is not hidden behind "5 goes on anything"); each cause keeps two counterexamples:

- its shallowest occurrence (the fewest moves since its ``new_game``), and
- its shallowest *clean* occurrence: one with no other clause violated before it in its game.

A cause that has a clean counterexample is a deviation of its own.  One seen only after other
violations may be their consequence: the minimizer then looks for a clean counterexample (the
independence test), and if it finds none the failure records ``follows``, the clauses violated
before it in every counterexample tried.  ``with`` is what broke in the very same step.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from attrs import define, field

from ruleproof.model.findings import Finding, Trace

if TYPE_CHECKING:
    from ruleproof.model.fixtures import Fixture
    from ruleproof.run.session import Session

MAX_CAUSES = 3  # distinct causes of one clause kept, minimized and reported


@define
class Occurrence:
    """One recorded violation: the finding, the trace up to it, where it was found and when."""

    finding: Finding
    trace: Trace
    source: str  # "properties" or "fixture:ID"
    seconds: float  # from the start of the game's certification
    depth: int  # moves since its game's new_game
    prior: frozenset[str]  # the other clauses violated earlier in its game


@define
class Cause:
    """One clause broken one way (a signature): its counterexamples and what came before it."""

    kept: Occurrence  # the shallowest occurrence (a fixture's is kept unless a clean one turns up)
    clean: Occurrence | None = None  # the shallowest with nothing violated before it in its game
    count: int = 1
    earlier: frozenset[str] = frozenset()  # clauses violated before it in every occurrence so far
    first_seconds: float = 0.0  # when it was first seen

    @property
    def clause(self) -> str:
        return self.kept.finding.clause

    @property
    def start(self) -> Occurrence:
        """The counterexample to minimize: the clean one when there is one."""
        return self.clean or self.kept


@define
class FindingStore:
    """Every violation of one game's run, by cause, with counts per clause.

    A trace is copied only when a cause's kept or clean occurrence improves (a few times a cause,
    never once per step).  Causes are kept in the order first seen, which is the report's order.
    """

    started: float
    source: str = "properties"
    causes: dict[tuple[str, str], Cause] = field(factory=dict)
    fixtures: dict[str, Fixture] = field(factory=dict)  # source -> the fixture run under it
    counts: Counter[str] = field(factory=Counter)  # clause -> violations seen, every cause counted
    on_new: Callable[[Finding], None] = lambda finding: None  # told when a clause fails for the first time

    def clauses(self) -> set[str]:
        return {clause for clause, _ in self.causes}

    def sink(self, finding: Finding, session: Session) -> None:
        clause, key = finding.clause, finding.key
        if not self.counts[clause]:
            self.on_new(finding)
        self.counts[clause] += 1
        depth, prior = session.moves_in_game(), session.prior_for(finding)
        cause = self.causes.get(key)
        if cause is None:
            # a fixture's scripted expectation takes no place: the report shows it only when nothing else did
            if not finding.signature.startswith("fixture:") and self._kept(clause) >= MAX_CAUSES:
                return  # counted; this clause already shows enough distinct causes
            now = time.perf_counter() - self.started
            occurrence = Occurrence(finding, session.trace(finding), self.source, now, depth, prior)
            self.causes[key] = Cause(occurrence, None if prior else occurrence, 1, prior, now)
            return
        cause.count += 1
        cause.earlier &= prior
        from_properties = self.source == "properties"
        if from_properties and cause.kept.source == "properties" and depth < cause.kept.depth:
            cause.kept = self._occurrence(finding, session, depth, prior)
        if not prior and from_properties and (cause.clean is None or depth < cause.clean.depth):
            cause.clean = self._occurrence(finding, session, depth, prior)
            if cause.kept.prior:  # a fixture's counterexample that followed another deviation gives way
                cause.kept = cause.clean

    def _kept(self, clause: str) -> int:
        return sum(1 for c, sig in self.causes if c == clause and not sig.startswith("fixture:"))

    def _occurrence(self, finding: Finding, session: Session, depth: int, prior: frozenset[str]) -> Occurrence:
        return Occurrence(
            finding, session.trace(finding), self.source, time.perf_counter() - self.started, depth, prior
        )
