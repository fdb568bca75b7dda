"""Replaying a trace against an engine, with every property checking it.

The outcome tells four cases apart (``ReplayOutcome.status``): the recorded
clause still fails (``same``), another clause fails (``other``), nothing fails
(``fixed``), or the engine no longer lists or accepts a recorded move
(``diverged``: expected after a fix, since the game goes elsewhere).  A move
the engine does not list is never blamed on CONTRACT-MOVES-2.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from ruleproof.model.engine import JSONObject, Move, State, Unsupported
from ruleproof.model.findings import Event, Finding, Setup, Trace
from ruleproof.model.observed import overlaps
from ruleproof.properties.base import GameProperties, Ledger
from ruleproof.properties.contract import CONTRACT_DETERMINISM
from ruleproof.properties.snapshot import Snapshot, move_key
from ruleproof.run.session import Session
from ruleproof.transport.checked import CheckedEngine


@frozen
class ReplayOutcome:
    """What replaying a trace showed."""

    found: tuple[tuple[int, Finding], ...]  # (trace step index, finding), in order
    diverged: int | None  # the step where the engine no longer listed or accepted a recorded move
    divergence: str
    states: tuple[State, ...]  # the engine's state after each replayed step
    priors: tuple[frozenset[str], ...] = ()  # for each finding: what had left the rules before it (Session.prior)

    @property
    def findings(self) -> tuple[Finding, ...]:
        return tuple(f for _, f in self.found)

    def first(self, clause: str, signature: str | None = None) -> int | None:
        """The index of the step where ``clause`` first failed (with that ``signature``, when given)."""
        return next(
            (i for i, f in self.found if f.clause == clause and signature in (None, f.signature)),
            None,
        )

    def finding_at(self, at: int, clause: str, signature: str | None = None) -> Finding:
        return next(f for i, f in self.found if i == at and f.clause == clause and signature in (None, f.signature))

    def related(
        self, at: int, clause: str, signature: str | None = None
    ) -> tuple[tuple[tuple[str, str], ...], frozenset[str]]:
        """The other clauses violated in step ``at`` where ``clause`` (with ``signature``) was, that observed
        a part of what it observed (``with``, each with its signature: one deviation), and what had left
        the rules in earlier steps of its game where it looks (``Session.prior_for``)."""
        k, target = next(
            (k, f)
            for k, (i, f) in enumerate(self.found)
            if i == at and f.clause == clause and signature in (None, f.signature)
        )
        return together(target, [f for i, f in self.found if i == at]), self.priors[k] if k < len(
            self.priors
        ) else frozenset()

    def status(self, clause: str | None) -> str:
        if clause is not None and self.first(clause) is not None:
            return "same"
        if self.found:
            return "other"
        return "diverged" if self.diverged is not None else "fixed"


def together(target: Finding, step: Sequence[Finding]) -> tuple[tuple[str, str], ...]:
    """The findings of one step, other than ``target``'s clause, whose observed parts overlap its own: the
    same difference seen by another clause (``with``), each clause once with its first signature."""
    out: dict[str, str] = {}
    for f in step:
        if f.clause != target.clause and f.clause not in out and overlaps(f.observed, target.observed):
            out[f.clause] = f.signature
    return tuple(sorted(out.items()))


def replay(
    trace: Trace,
    engine: CheckedEngine,
    props_cls: type[GameProperties],
    *,
    stop_at: str | None = None,
    signature: str | None = None,
) -> ReplayOutcome:
    """Re-run a trace with the properties; ``stop_at`` ends it once that clause (with that ``signature``,
    when given) has failed, after the whole step that showed it."""
    found: list[tuple[int, Finding]] = []
    priors: list[frozenset[str]] = []
    index = [0]

    def sink(finding: Finding, session: Session) -> None:
        found.append((index[0], finding))
        priors.append(session.prior_for(finding))

    session = Session(engine, props_cls, Ledger(), sink)
    states: list[State] = []
    for i, event in enumerate(trace.events):
        index[0] = i
        why = _step(session, event)
        if why:
            return ReplayOutcome(tuple(found), i, why, tuple(states), tuple(priors))
        assert session.snap is not None
        states.append(session.snap.raw)
        if stop_at is not None and any(f.clause == stop_at and signature in (None, f.signature) for _, f in found):
            break
    else:
        if trace.finding is not None and trace.finding.clause == CONTRACT_DETERMINISM and session.snap is not None:
            session.replay_current_game()
    return ReplayOutcome(tuple(found), None, "", tuple(states), tuple(priors))


def _step(session: Session, event: Event) -> str:
    """Replay one event; a reason when the engine went another way (divergence), else ''."""
    if event.kind == "new_game":
        return _start(session, event.value)
    if session.snap is None:
        return "no game is running"
    if event.kind == "reject":
        session.reject(event.value, event.clause or "CONTRACT-REJECT-1")
        return ""
    return _apply(session, session.snap, event.value)


def _start(session: Session, setup: JSONObject) -> str:
    try:
        session.start(Setup.from_json(setup))
    except Unsupported as err:
        return f"the engine does not take this setup any more: {err.message}"
    return ""


def _apply(session: Session, snap: Snapshot, move: Move) -> str:
    deal = move.get("type") == "deal"
    if not deal and move_key(move) not in snap.move_keys:
        return "the engine does not list this recorded move here"
    if not session.apply(move, listed=not deal):
        # a listed move refused is CONTRACT-MOVES-2 (recorded by the session); the game cannot follow the trace
        return "the engine refused this recorded move"
    return ""
