"""The Hypothesis state machine that drives any engine through one game.

It draws the setup (player count, options the engine declares, dealer) and
every deal, plays legal moves chosen by index into the engine's own list
(never filtered), now and then sends a move the rules forbid and requires a
rejection, and after ``over`` checks that nothing more is accepted and starts
the next game.  Every transition is shown to the game's properties.
"""

from __future__ import annotations

from typing import Any, Callable

from hypothesis import strategies as st
from hypothesis.control import reject
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule

from ruleproof.checked import CheckedEngine
from ruleproof.engine import Unsupported
from ruleproof.properties.machinery import Coverage, GameProperties, Session, Setup, Stuck

# one step in ILLEGAL_ODDS tries a forbidden move; the rest play legal moves
ILLEGAL_ODDS = 8


def build_machine(
    props_cls: type[GameProperties],
    engine: CheckedEngine,
    declared: dict[str, Any],
    coverage: Coverage,
    on_skip: Callable[[Setup, str], None] = lambda setup, why: None,
) -> type[RuleBasedStateMachine]:
    """A state machine class bound to one engine and one game's properties."""
    setups = props_cls.setups(declared)

    class GameMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.session = Session(engine, props_cls, coverage)
            self.failed = False

        def _start(self, setup: Setup) -> None:
            try:
                self.session.start(setup)
            except Unsupported as err:
                on_skip(setup, err.message)
                reject()

        @initialize(setup=setups)
        def new_game(self, setup: Setup) -> None:
            self._start(setup)

        @rule(data=st.data())
        def step(self, data: st.DataObject) -> None:
            try:
                self._step(data)
            except Stuck:
                self.failed = True
                reject()  # a clause already reported blocks this game; explore others
            except BaseException:
                self.failed = True
                raise

        def teardown(self) -> None:
            # CONTRACT-DET-1 also for a game the example left unfinished (Idiot games may never end)
            session = self.session
            if not self.failed and session.snap is not None and session.snap.phase != "over" and session.moves_in_game() > 0:
                session.replay_current_game()

        def _step(self, data: st.DataObject) -> None:
            session = self.session
            snap, props = session.snap, session.props
            assert snap is not None and props is not None
            if snap.phase == "over":
                last = next((e.value for e in reversed(session.events) if e.kind == "apply"), None)
                if last is not None:
                    session.after_over(last)
                session.replay_current_game()
                self._start(data.draw(setups, label="next setup"))
            elif data.draw(st.integers(0, ILLEGAL_ODDS - 1), label="kind") == ILLEGAL_ODDS - 1 and (
                bad := props.illegal_moves(snap)
            ):
                move, clause = bad[data.draw(st.integers(0, len(bad) - 1), label="illegal")]
                session.reject(move, clause)
            elif snap.phase == "deal":
                session.apply(props.deal(snap, data))
            elif not snap.moves:  # CONTRACT-PHASE-1 already reported: nothing to play here
                raise Stuck("CONTRACT-PHASE-1")
            else:
                session.apply(props.choose(snap, data), listed=True)

    GameMachine.__name__ = GameMachine.__qualname__ = f"{props_cls.__name__}Machine"
    return GameMachine
