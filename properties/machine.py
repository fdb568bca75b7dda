"""The Hypothesis state machine that drives any engine through whole games.

It draws the setup (player count, options the engine declares, dealer) and
every deal, plays legal moves chosen by index into the engine's own list
(never filtered), and one step in ``ILLEGAL_ODDS`` sends a move the rules
forbid, whatever failed before.  After ``over`` it checks that nothing more is
accepted, replays the game for determinism and starts the next game.

Violations never stop it (record and continue): the session records them and
the game goes on from the engine's own state.  Only an engine that can no
longer be driven (``AdapterBroken``), a requested stop or ``stop_after``
halts the exploration: every later call of the machine is then a no-op, so
Hypothesis's closing replay of the halting example touches no engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from attrs import define, field
from hypothesis import reject
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule

from ruleproof.checked import CheckedEngine
from ruleproof.engine import AdapterBroken, Unsupported
from ruleproof.findings import Setup
from ruleproof.properties.machinery import GameProperties
from ruleproof.session import Ledger, Session, Sink

# one step in ILLEGAL_ODDS tries a forbidden move; the rest play legal moves
ILLEGAL_ODDS = 8
# a state whose moves the engine refused this many times in a row ends the game (nothing more to learn)
MAX_REFUSALS = 3


class Halted(Exception):
    """Raised through Hypothesis to end the exploration early (broken engine, stop requested)."""


@define
class Exploration:
    """What every example of one exploration shares: the engine, the ledger, the budget counters."""

    engine: CheckedEngine
    props_cls: type[GameProperties]
    declared: dict[str, Any]
    ledger: Ledger
    sink: Sink
    on_skip: Callable[[Setup, str], None] = lambda setup, why: None
    should_stop: Callable[[], bool] = lambda: False
    broken: AdapterBroken | None = None
    halted: bool = False
    stats: dict[str, int] = field(factory=lambda: {"examples": 0, "steps": 0, "probes": 0, "games": 0})

    def halt(self, broken: AdapterBroken | None = None) -> Halted:
        self.halted = True
        self.broken = self.broken or broken
        return Halted()


def build_machine(run: Exploration) -> type[RuleBasedStateMachine]:
    """A state machine class bound to one exploration."""
    setups = run.props_cls.setups(run.declared)

    class GameMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.session = Session(run.engine, run.props_cls, run.ledger, run.sink)
            self.refusals = 0

        @initialize(setup=setups)
        def new_game(self, setup: Setup) -> None:
            if run.halted:
                return
            run.stats["examples"] += 1
            self._guard(lambda: self._start(setup))

        @rule(data=st.data())
        def step(self, data: st.DataObject) -> None:
            if run.halted or self.session.snap is None:
                return
            run.stats["steps"] += 1
            self._guard(lambda: _Step(self, data).run())

        def teardown(self) -> None:
            # CONTRACT-DET-1 also for a game the example left unfinished (Idiot games may never end)
            session = self.session
            if not run.halted and session.snap is not None and session.snap.phase != "over" and session.moves_in_game() > 0:
                self._guard(session.replay_current_game)

        def _start(self, setup: Setup) -> None:
            self.refusals = 0
            try:
                self.session.start(setup)
            except Unsupported as err:
                run.on_skip(setup, err.message)
                self.session.snap = None
                reject()
            run.stats["games"] += 1

        def _guard(self, fn: Callable[[], None]) -> None:
            if run.should_stop():
                raise run.halt()
            try:
                fn()
            except AdapterBroken as broken:
                raise run.halt(broken) from None

    GameMachine.__name__ = GameMachine.__qualname__ = f"{run.props_cls.__name__}Machine"
    GameMachine.setups = setups  # type: ignore[attr-defined]
    GameMachine.run = run  # type: ignore[attr-defined]
    return GameMachine


class _Step:
    """One step of the machine: a probe, a deal, a legal move, or the next game."""

    def __init__(self, machine: Any, data: st.DataObject) -> None:
        self.machine, self.data = machine, data
        self.session: Session = machine.session
        self.exploration: Exploration = machine.run

    def run(self) -> None:
        session, data = self.session, self.data
        snap, props = session.snap, session.props
        assert snap is not None and props is not None
        if snap.phase == "over":
            self._next_game()
        elif self.machine.refusals >= MAX_REFUSALS or (snap.phase != "deal" and not snap.moves):
            self._next_game()  # nothing the engine will take here (already recorded): a fresh game
        elif data.draw(st.integers(0, ILLEGAL_ODDS - 1), label="kind") == ILLEGAL_ODDS - 1 and (
            bad := props.guarded("illegal_moves", props.illegal_moves, snap)
        ):
            move, clause = bad[data.draw(st.integers(0, len(bad) - 1), label="illegal")]
            self.exploration.stats["probes"] += 1
            session.reject(move, clause)
        else:
            deal = snap.phase == "deal"
            move = props.guarded("deal" if deal else "choose", props.deal if deal else props.choose, snap, data)
            if move is None:  # the properties could not read this state (reported): a fresh game
                self._next_game()
            else:
                self._accepted(session.apply(move, listed=not deal))

    def _accepted(self, ok: bool) -> None:
        self.machine.refusals = 0 if ok else self.machine.refusals + 1

    def _next_game(self) -> None:
        session = self.session
        assert session.snap is not None
        if session.snap.phase == "over":
            last = next((e.value for e in reversed(session.events) if e.kind == "apply"), None)
            if last is not None:
                session.after_over(last)
        if session.moves_in_game() > 0:
            session.replay_current_game()
        self.machine._start(self.data.draw(self.machine.setups, label="next setup"))
