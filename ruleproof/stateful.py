"""The games' rules as Hypothesis state machines, for a test suite of your own (issue 24).

``machine(game, engine)`` is a ``RuleBasedStateMachine`` subclass that plays ``engine`` under the
same properties a certification judges it by (``ruleproof.properties``), through the same
``Session`` (``ruleproof.run.session``: the contract checks, the forbidden-move probes, the
snapshots), so it keeps no second copy of the rules.  Its steps are Hypothesis rules:

- ``start`` (``@initialize``) draws a setup the engine declares in ``hello``;
- ``deal`` deals, ``play`` plays a move the engine lists (picked as the certification picks it),
  ``probe`` sends a move the rules forbid here (the game's own probes) and ``next_game`` starts the
  next game once one is over (checking that nothing more is accepted and that a replay of the
  game ends in the same state);
- ``rules_hold`` (``@invariant``) runs after every step: the session has judged the step against
  every clause, and the first violated clause that is not declared raises ``ClauseViolated.of(clause)``.

Each clause raises its own exception type, and Hypothesis tells failures apart by exception type
and location: it shrinks a failure while it stays on the same clause, reports two clauses as two
bugs, and replays the failure from its example database on the next run.  Unlike a certification
it stops at the first failing clause, and gives no per-clause verdicts and no certificate
(docs/stateful.md)::

    import ruleproof.stateful
    from mypackage.adapter import Adapter
    TestMyEngine = ruleproof.stateful.machine("black-maria", Adapter).TestCase
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, TypeAlias, cast

import hypothesis
import orjson
from hypothesis import HealthCheck, reject
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from ruleproof.model.clauses import clause_line, clause_text
from ruleproof.model.engine import EngineFactory, JSONObject, Move, State, Unsupported, load_factory, make_engine
from ruleproof.model.errors import UsageError
from ruleproof.model.findings import Finding, Setup, Trace
from ruleproof.model.observed import overlaps
from ruleproof.output.render import LAST_STEPS, Step, field_of, step_line
from ruleproof.output.table import compact
from ruleproof.properties import available_games, known_clauses, properties_for
from ruleproof.properties.base import GameProperties, Ledger
from ruleproof.properties.snapshot import Snapshot
from ruleproof.run.expect import ExpectError, load_expectations
from ruleproof.run.explore import MAX_REFUSALS
from ruleproof.run.session import Session, is_invariant
from ruleproof.transport.checked import CheckedEngine

__all__ = ["CheckCrashed", "ClauseViolated", "GameMachine", "default_settings", "machine"]

# the steps of one example (Hypothesis's stateful_step_count) are this many times the game's step_scale:
# two rounds of Black Maria (some 57 steps each with the probes), several Fool and Moon hands
STEPS = 100
# play's pick: far larger than any move list (Black Maria lists up to 680 passes), as the properties'
# choose expects (pick % n is the index, pick // n steers); shrinks towards 0, the first listed move
PICKS = 1 << 24
MAX_VALUE_CHARS = 600  # expected/got longer than this are cut in the message (err.finding has them whole)

# an expectations file (ruleproof/run/expect.py's format), or its tables: {game: {clause: reason}},
# or one game's table {clause: reason}
Expect: TypeAlias = "str | os.PathLike[str] | Mapping[str, str] | Mapping[str, Mapping[str, str]] | None"


class ClauseViolated(AssertionError):
    """A step broke a rule clause.  Each clause has its own subclass, ``ClauseViolated.of(clause)``.

    ``finding`` is what the properties found (clause, message, expected, got), ``trace`` every call
    sent to the engine in this example (``ruleproof replay`` reads ``trace.to_json()``), ``also`` the
    other clauses the same step broke.
    """

    clause: ClassVar[str] = ""

    def __init__(self, finding: Finding, trace: Trace, last_steps: Sequence[str], also: Sequence[str] = ()) -> None:
        super().__init__(describe(finding, len(trace.events), last_steps, also))
        self.finding, self.trace, self.also = finding, trace, tuple(also)

    @staticmethod
    def of(clause: str) -> type[ClauseViolated]:
        """The exception type of ``clause``: the same class for every call, so ``except`` and
        ``pytest.raises`` work with it and Hypothesis sees one bug per clause."""
        return _violation_type(clause)


@functools.cache
def _violation_type(clause: str) -> type[ClauseViolated]:
    name = f"ClauseViolated[{clause}]"
    return cast(
        "type[ClauseViolated]",
        type(name, (ClauseViolated,), {"clause": clause, "__module__": __name__, "__qualname__": name}),
    )


class CheckCrashed(Exception):
    """A check of ruleproof raised on a state it did not foresee: a bug of the kit, never a verdict
    (a certification lists it under the report's check errors; a state machine cannot go on silently)."""


class EngineUndeclared(UsageError):
    """The engine's ``hello`` does not declare the machine's game."""


def describe(finding: Finding, sent: int, last_steps: Sequence[str], also: Sequence[str] = ()) -> str:
    """The message of a ``ClauseViolated``: the clause, its text, expected vs got, the last steps
    (and the other clauses the same step broke)."""
    lines = [f"{finding.clause}: {finding.message}"]
    text = clause_text(finding.clause)
    if text:
        where = clause_line(finding.clause)
        lines.append(f"  rule: {text}" + (f"  ({where[0].name}:{where[1]})" if where else ""))
    if finding.expected is not None or finding.got is not None:
        field = field_of(finding.to_json())
        expected = f"  expected: {_cut(compact(finding.expected))}" + (f"   ({field})" if field else "")
        lines += [expected, f"  got:      {_cut(compact(finding.got))}"]
    if also:
        lines.append(f"  the same step also broke: {', '.join(also)}")
    lines.append(f"  the last steps ({len(last_steps)} of {sent} calls sent in this example):")
    lines += [f"    {line}" for line in last_steps]
    return "\n".join(lines)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_VALUE_CHARS else f"{text[:MAX_VALUE_CHARS]} … ({len(text)} characters)"


def default_settings(game: str) -> hypothesis.settings:
    """The machine's settings when ``machine`` is given none: the current Hypothesis profile (its
    examples, database, seed), no deadline (an engine over a pipe is slow), no health checks (one
    example plays whole rounds), ``STEPS`` times the game's step scale steps per example, and every
    phase but ``explain``: it replays a shrunk failure hundreds of times to list the lines of the
    properties only failing examples ran, which the message's clause and steps already say better."""
    steps = max(10, int(STEPS * properties_for(game).step_scale))
    phases = tuple(p for p in hypothesis.settings().phases if p.name != "explain")
    return hypothesis.settings(
        deadline=None, suppress_health_check=list(HealthCheck), stateful_step_count=steps, phases=phases
    )


def machine(
    game: str, engine: EngineFactory | str, *, expect: Expect = None, settings: hypothesis.settings | None = None
) -> type[GameMachine]:
    """The state machine of ``game`` driving engines made by ``engine``.

    ``engine``: a factory called once per Hypothesis example (a class, a function, or
    ``"module:factory"`` as ``--engine`` takes it). ``expect``: the declared deviations, an
    ``--expect`` file or its tables; a declared clause, and what only follows from declared ones, does
    not fail the machine. ``settings``: the Hypothesis settings of its ``TestCase`` (default:
    ``default_settings(game)``; a subclass keeps them unless it is decorated with its own).
    """
    if game not in available_games():
        raise UsageError(f"unknown game {game!r} (one of {', '.join(available_games())})")
    factory = load_factory(engine) if isinstance(engine, str) else engine
    name = engine if isinstance(engine, str) else getattr(engine, "__qualname__", repr(engine))
    namespace = {
        "game": game,
        "engine_factory": staticmethod(factory),
        "engine_name": name,
        "deviations": declared(expect, game),
        "machine_settings": settings if settings is not None else default_settings(game),
        "__module__": __name__,
    }
    # named by the game: Hypothesis prints `state = BlackMariaMachine()` and keys its database by the name
    title = "".join(part.title() for part in game.split("-"))
    return cast("type[GameMachine]", type(f"{title}Machine", (GameMachine,), namespace))


def declared(expect: Expect, game: str) -> dict[str, str]:
    """The declared deviations of ``game``: clause -> reason, checked as ``--expect`` checks them."""
    if expect is None:
        return {}
    if isinstance(expect, (str, os.PathLike)):
        return load_expectations(Path(expect), known_clauses(available_games())).reasons(game)
    games = set(available_games())
    if expect and all(key in games for key in expect):  # {game: {clause: reason}}, as the file's tables
        table: Any = expect.get(game, {})
    else:
        table = expect
    known = set(known_clauses([game])[game])
    for clause, reason in table.items():
        if clause not in known:
            raise ExpectError(f"expect: unknown clause {clause!r} for {game} (see docs/rules/{game}.md)")
        if not isinstance(reason, str) or not reason.strip():
            raise ExpectError(f"expect: {game}.{clause}: the value must be a non-empty string saying why")
    return dict(table)


_SETUPS: dict[tuple[type[GameProperties], bytes], st.SearchStrategy[Setup]] = {}


def _setups(props_cls: type[GameProperties], entry: JSONObject) -> st.SearchStrategy[Setup]:
    """The setups to draw from one ``hello`` entry, made once: building a composite strategy
    compiles a function, which would cost more than many steps of an example."""
    key = (props_cls, orjson.dumps(entry, option=orjson.OPT_SORT_KEYS))
    if key not in _SETUPS:
        _SETUPS[key] = props_cls.setups(entry)
    return _SETUPS[key]


class GameMachine(RuleBasedStateMachine):
    """One game of the engine's, played under the kit's properties; made by ``machine()``.

    Subclass it to add rules or invariants of your own: ``self.snapshot`` is the engine's state
    and legal moves after the last step (``self.state`` the state alone), ``self.setup`` the current
    game's ``new_game``, ``self.session`` the driver (``self.session.apply(move)``).
    """

    game: ClassVar[str]
    engine_factory: ClassVar[EngineFactory]
    engine_name: ClassVar[str]
    deviations: ClassVar[Mapping[str, str]] = {}
    machine_settings: ClassVar[hypothesis.settings | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.machine_settings is not None:  # @settings on a subclass comes after this, and wins
            cls.TestCase.settings = cls.machine_settings

    def __init__(self) -> None:
        super().__init__()
        if not hasattr(self, "game"):
            raise TypeError("make a game's machine with ruleproof.stateful.machine(game, engine)")
        self.props_cls: type[GameProperties] = properties_for(self.game)
        self.engine = CheckedEngine(make_engine(self.engine_name, type(self).engine_factory))
        self.ledger = Ledger()
        self.session = Session(self.engine, self.props_cls, self.ledger, self._sink)
        self.found: list[tuple[Finding, frozenset[str]]] = []  # each with what had left the rules before it
        self.seats: dict[int, int | None] = {}  # event index -> the seat to act before it (for the message)
        self.refusals = 0  # listed moves refused in a row (MAX_REFUSALS ends the game, as the exploration does)
        self.raised = False

    # -- what a subclass reads ------------------------------------------------------------
    @property
    def snapshot(self) -> Snapshot | None:
        return self.session.snap

    @property
    def state(self) -> State | None:
        snap = self.session.snap
        return snap.raw if snap is not None else None

    @property
    def setup(self) -> Setup | None:
        props = self.session.props
        return props.setup if props is not None else None

    # -- the steps ------------------------------------------------------------------------
    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        __tracebackhide__ = True
        self._new_game(data)

    @precondition(lambda self: self._phase() == "deal" and not self._stuck())
    @rule(data=st.data())
    def deal(self, data: st.DataObject) -> None:
        __tracebackhide__ = True
        snap, props = self._live()
        self._apply(props.guarded("deal", props.deal, snap, data), listed=False)

    @precondition(lambda self: self._phase() not in (None, "deal", "over") and not self._stuck())
    @rule(pick=st.integers(0, PICKS - 1), data=st.data())
    def play(self, pick: int, data: st.DataObject) -> None:
        __tracebackhide__ = True
        snap, props = self._live()
        self._apply(props.guarded("choose", props.choose, snap, pick, data), listed=True)

    @precondition(lambda self: self._phase() not in (None, "over") and not self._stuck())
    @rule(which=st.integers(0, 99))
    def probe(self, which: int) -> None:
        __tracebackhide__ = True
        snap, props = self._live()
        bad = props.guarded("illegal_moves", props.illegal_moves, snap)
        if bad:
            move, clause = bad[which % len(bad)]
            self._mark()
            self.session.reject(move, clause)

    @precondition(lambda self: self._phase() == "over" or self._stuck())
    @rule(data=st.data())
    def next_game(self, data: st.DataObject) -> None:
        __tracebackhide__ = True
        self._finish_game()
        self._new_game(data)

    @invariant()
    def rules_hold(self) -> None:
        """Every clause the last step was judged on holds (or is declared)."""
        __tracebackhide__ = True  # pytest: the failure, not the kit's frames
        self._raise_first()

    def teardown(self) -> None:
        """CONTRACT-DET-1 for the game the example ends in, unless the example is failing already."""
        __tracebackhide__ = True
        try:
            if not self.raised and sys.exc_info()[1] is None and self.session.snap is not None:
                self._finish_game()
                self._raise_first()
        finally:
            self.engine.close()

    # -- driving --------------------------------------------------------------------------
    def _phase(self) -> str | None:
        snap = self.session.snap
        return snap.phase if snap is not None else None

    def _stuck(self) -> bool:
        """Nothing more the engine will take in this game (already recorded): the next game."""
        snap = self.session.snap
        return snap is not None and (self.refusals >= MAX_REFUSALS or (snap.phase != "deal" and not snap.moves))

    def _live(self) -> tuple[Snapshot, GameProperties]:
        snap, props = self.session.snap, self.session.props
        assert snap is not None and props is not None
        return snap, props

    def _mark(self) -> None:
        snap = self.session.snap
        self.seats[len(self.session.events)] = snap.to_act if snap is not None else None

    def _apply(self, move: Move | None, *, listed: bool) -> None:
        __tracebackhide__ = True
        if move is None:  # the properties could not read this state: rules_hold reports the crash
            return
        self._mark()
        self.refusals = 0 if self.session.apply(move, listed=listed) else self.refusals + 1

    def _new_game(self, data: st.DataObject) -> None:
        __tracebackhide__ = True
        hello = self.engine.hello()
        entry: JSONObject | None = hello["games"].get(self.game)
        if entry is None:
            raise EngineUndeclared(f"{self.engine_name}: hello does not declare {self.game!r}")
        setup = data.draw(_setups(self.props_cls, entry), label="setup")
        self.refusals = 0
        try:
            self.session.start(setup)
        except Unsupported:
            if not any(not self._excused(f, prior) for f, prior in self.found):
                reject()  # a setup the engine does not support (and need not): not an example
            self.session.snap = None  # a declared setup refused (CONTRACT-SETUP-1): rules_hold raises it

    def _finish_game(self) -> None:
        """CONTRACT-OVER-1 once a game is over, then CONTRACT-DET-1: its replay ends where it did."""
        __tracebackhide__ = True
        session = self.session
        if session.snap is not None and session.snap.phase == "over":
            last = next((e.value for e in reversed(session.events) if e.kind == "apply"), None)
            if last is not None:
                self._mark()
                session.after_over(last)
        if session.snap is not None and session.moves_in_game() > 0:
            session.replay_current_game()

    # -- judging --------------------------------------------------------------------------
    def _sink(self, finding: Finding, session: Session) -> None:
        self.found.append((finding, session.prior_for(finding)))

    def _excused(self, finding: Finding, prior: frozenset[str]) -> bool:
        """Declared, or following declared deviations that left the rules (as --expect judges).

        ``prior`` holds the clauses of this game's earlier steps that left the rules; the machine is
        still running, so each of them was declared or followed declared ones itself: a violation
        after them follows only declared deviations.
        """
        return finding.clause in self.deviations or bool(prior)

    def _raise_first(self) -> None:
        __tracebackhide__ = True
        if self.ledger.check_errors:
            self.raised = True
            raise CheckCrashed(
                f"a check of ruleproof crashed (a bug of the kit): {next(iter(self.ledger.check_errors))}"
            )
        found, self.found = self.found, []
        declared = [f for f, _ in found if f.clause in self.deviations]
        failing = [
            f
            for f, prior in found
            if not self._excused(f, prior) and not any(overlaps(f.observed, d.observed) for d in declared)
        ]  # broken with a declared deviation in its step, observing the same difference: expected with it
        if failing:
            # a step that broke a rule and an invariant at once is reported by its rule (what went wrong),
            # the invariant named with it: what every state has is broken by some rule first
            first = next((f for f in failing if not is_invariant(f.clause)), failing[0])
            also = tuple(dict.fromkeys(f.clause for f in failing if f.clause != first.clause))
            self.raised = True
            raise ClauseViolated.of(first.clause)(first, self.session.trace(first), self._last_steps(), also)

    def _last_steps(self) -> list[str]:
        events = self.session.events
        first = max(0, len(events) - LAST_STEPS)
        return [
            f"{i + 1}. " + step_line(Step(i + 1, e.kind, e.value, e.clause, self.seats.get(i), None, None))
            for i, e in enumerate(events[first:], start=first)
        ]
