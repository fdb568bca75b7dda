"""The Hypothesis exploration that drives any engine through whole games.

Each Hypothesis example draws a setup (player count, options the engine
declares, dealer), then runs a fixed number of steps.  A step draws one small
tuple: whether to send a move the rules forbid (one step in ``ILLEGAL_ODDS``)
and which move to play, by index into the engine's own list (never
filtered); deals are drawn whole.  After ``over`` it checks that nothing more
is accepted and starts the next game.

CONTRACT-DET-1 (the same setup and moves give the same state) is judged by
replaying finished games, not all of them: replaying every game cost one more
engine call per step (a third of a certification).  A game is replayed when
the calls its replay costs fit in ``DET_SHARE`` calls per step explored so far
(the first game of an exploration always), a count, so the same seed replays
the same games.  About one game in ten is replayed, finished and unfinished
ones alike, which is enough for an engine that carries anything from game to
game (tests/mutants: CountsGamesHosted).

Violations never stop it (record and continue): the session records them and
the game goes on from the engine's own state.  Only an engine that can no
longer be driven (``AdapterBroken``), a requested stop or ``stop_after``
halts the exploration: every later call is then a no-op, so Hypothesis's
closing replay of the halting example touches no engine.

Every integer the exploration draws lies in 0..99 (``ruleproof.properties.draws``):
Hypothesis replaces some draws by integer literals of "local" modules, but
never by one below 100, so the same seed explores the same games however and
from wherever ruleproof was installed.
"""

from __future__ import annotations

import functools
import random
import weakref
from collections.abc import Callable
from typing import Any

from attrs import define, field
from hypothesis import reject, settings
from hypothesis import strategies as st

from ruleproof.model.engine import AdapterBroken, Unsupported
from ruleproof.model.findings import Setup
from ruleproof.properties import draws
from ruleproof.properties.base import GameProperties, Ledger
from ruleproof.run.session import Session, Sink
from ruleproof.transport.checked import CheckedEngine

# one step in ILLEGAL_ODDS tries a forbidden move; the rest play legal moves
ILLEGAL_ODDS = 8
# the exploration tells how far it has got after every example, and every this many steps
PROGRESS_EVERY = 50
# one example in GameProperties.long_odds (4 by default) runs LONG_FACTOR times the profile's steps
LONG_FACTOR = 4
# a state whose moves the engine refused this many times in a row ends the game (nothing more to learn)
MAX_REFUSALS = 3
# CONTRACT-DET-1's replays may cost this many engine calls per exploration step (a replay costs its game's
# events plus one new_game): about one game in ten is replayed
DET_SHARE = 0.1
# one draw per step, below 100: whether to probe (v % ILLEGAL_ODDS) and the pick's low part (v // ILLEGAL_ODDS)
STEP = st.integers(0, 12 * ILLEGAL_ODDS - 1)
# the pick's higher part: from a Random seeded once per example by a drawn seed, so a step costs one
# Hypothesis draw, as a bare state machine's does (choose uses pick // n for its further choices)
PICK_HIGH = 100_000
_EXAMPLE_RANDOM: weakref.WeakKeyDictionary[st.DataObject, random.Random] = weakref.WeakKeyDictionary()


def draw_step(data: st.DataObject) -> tuple[bool, int]:
    """One step's choice: whether to probe with a forbidden move, and a pick for ``choose``."""
    v = data.draw(STEP, label="step")
    rng = _EXAMPLE_RANDOM.get(data)
    if rng is None:
        rng = _EXAMPLE_RANDOM[data] = random.Random(data.draw(draws.drawn_seed(), label="step seed"))
    low = v // ILLEGAL_ODDS
    return v % ILLEGAL_ODDS == ILLEGAL_ODDS - 1, low + 12 * rng.randrange(PICK_HIGH)


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
    on_progress: Callable[[dict[str, int]], None] = lambda stats: None  # told the stats now and then
    broken: AdapterBroken | None = None
    halted: bool = False
    stats: dict[str, int] = field(
        factory=lambda: {"examples": 0, "steps": 0, "probes": 0, "games": 0, "det_replays": 0, "det_calls": 0}
    )

    def halt(self, broken: AdapterBroken | None = None) -> Halted:
        self.halted = True
        self.broken = self.broken or broken
        return Halted()


def explore(run: Exploration, steps: int, config: settings, seed: int | None = None) -> None:
    """One exploration: ``config.max_examples`` examples of ``steps`` steps each (``seed``: ``--seed``)."""
    setups = run.props_cls.setups(run.declared)

    def example(data: st.DataObject) -> None:
        if run.halted:
            return
        run.stats["examples"] += 1
        walker = Walker(run, setups, data)
        walker.guard(walker.first_game)
        # a share of long examples plays whole games to a high target (a real engine may only play to 100)
        odds = run.props_cls.long_odds(run.declared)
        length = steps * LONG_FACTOR if data.draw(st.integers(0, odds - 1), label="long") == 0 else steps
        for _ in range(length):
            if run.halted or walker.session.snap is None:
                return
            run.stats["steps"] += 1
            probe, pick = draw_step(data)
            walker.guard(functools.partial(walker.step, probe, pick))
            if run.stats["steps"] % PROGRESS_EVERY == 0:
                run.on_progress(run.stats)
        walker.guard(walker.teardown)
        run.on_progress(run.stats)

    draws.explore(example, config, seed)


class Walker:
    """One example's walk through games: a session, the steps, the next game."""

    def __init__(self, run: Exploration, setups: st.SearchStrategy[Setup], data: st.DataObject) -> None:
        self.run, self.setups, self.data = run, setups, data
        self.session = Session(run.engine, run.props_cls, run.ledger, run.sink)
        self.refusals = 0

    def guard(self, fn: Callable[[], None]) -> None:
        if self.run.should_stop():
            raise self.run.halt()
        try:
            fn()
        except AdapterBroken as broken:
            raise self.run.halt(broken) from None

    def first_game(self) -> None:
        self._start(self.data.draw(self.setups, label="setup"))

    def _start(self, setup: Setup) -> None:
        self.refusals = 0
        try:
            self.session.start(setup)
        except Unsupported as err:
            self.run.on_skip(setup, err.message)
            self.session.snap = None
            reject()
        self.run.stats["games"] += 1

    def step(self, probe: bool, pick: int) -> None:
        """A probe, a deal, a legal move, or the next game."""
        session = self.session
        snap, props = session.snap, session.props
        assert snap is not None and props is not None
        if snap.phase == "over" or self.refusals >= MAX_REFUSALS or (snap.phase != "deal" and not snap.moves):
            self._next_game()  # over; or nothing the engine will take here (already recorded)
        elif probe and (bad := props.guarded("illegal_moves", props.illegal_moves, snap)):
            move, clause = bad[pick % len(bad)]
            self.run.stats["probes"] += 1
            session.reject(move, clause)
        elif snap.phase == "deal":
            self._play(props.guarded("deal", props.deal, snap, self.data), listed=False)
        else:
            self._play(props.guarded("choose", props.choose, snap, pick, self.data), listed=True)

    def _play(self, move: Any, *, listed: bool) -> None:
        if move is None:  # the properties could not read this state (reported): a fresh game
            self._next_game()
        elif self.session.apply(move, listed=listed):
            self.refusals = 0
        else:
            self.refusals += 1

    def _next_game(self) -> None:
        session = self.session
        assert session.snap is not None
        if session.snap.phase == "over":
            last = next((e.value for e in reversed(session.events) if e.kind == "apply"), None)
            if last is not None:
                session.after_over(last)
        self._replay_if_due()
        self._start(self.data.draw(self.setups, label="next setup"))

    def teardown(self) -> None:
        """CONTRACT-DET-1 also for a game the example left unfinished (Idiot games may never end)."""
        snap = self.session.snap
        if snap is not None and snap.phase != "over":
            self._replay_if_due()

    def _replay_if_due(self) -> None:
        """Replay the current game for CONTRACT-DET-1 when its cost fits the budget (``DET_SHARE``)."""
        moves = self.session.moves_in_game()
        stats = self.run.stats
        cost = moves + 1  # new_game, then every event sent again
        if moves > 0 and (not stats["det_replays"] or stats["det_calls"] + cost <= DET_SHARE * stats["steps"]):
            stats["det_replays"] += 1
            stats["det_calls"] += cost
            self.session.replay_current_game()
