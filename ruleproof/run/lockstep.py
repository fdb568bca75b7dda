"""Two engines driven in lockstep and compared after every step.

``Lockstep`` sends the same events to both sides (a ``Session`` each, so
both sides' properties run as in certification) and records the first step
where they differ: the contract's STATE fields (``contract_view``: the state
schema's own fields, empty zones dropped, unordered zones sorted, extension
fields left out), the legal move sets as the contract compares them
(``move_key``), and whether a move was accepted, with which error kind.
``replay_lockstep`` does the same for a recorded trace (the minimizer's
test) and ``FixtureScript`` for a bundled fixture's script.  ``ruleproof.run.diff``
builds the command on top.

A difference in a field whose value the contract leaves open at that moment
(docs/protocol.md §8, "Left open, never judged"; ``left_open``) is not a
divergence: it is kept as an ``OpenDifference`` (the first of each field) and
the comparison goes on, so a behaviour difference later in the same game is
still found.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Sequence
from typing import Any

import orjson
from attrs import define, evolve, field, frozen

from ruleproof.model.engine import Engine, EngineError, JSONObject, Move, State, Unsupported
from ruleproof.model.findings import Event, Setup, Trace
from ruleproof.properties.base import GameProperties, Ledger
from ruleproof.properties.snapshot import Snapshot, canonical, move_key
from ruleproof.run.session import Session
from ruleproof.transport.checked import CheckedEngine

# after a divergence the game goes on this many steps, so clauses broken a little later
# (a dealer checked only at the next deal) are still named on the side that breaks them
TAIL_STEPS = 40


# -- what is compared -------------------------------------------------------------------------


def contract_view(state: State, game: str, ordered: frozenset[str], drop_options: frozenset[str]) -> JSONObject:
    """The part of a state two engines must agree on.

    Extension fields are left out, empty zones dropped and unordered zones
    sorted (``canonical``); the options set differently on purpose
    (``--vs-options``) are left out of ``options``.
    """
    view = canonical(state, ordered)  # the contract's fields only
    if drop_options and isinstance(view.get("options"), dict):
        view["options"] = {k: v for k, v in view["options"].items() if k not in drop_options}
    return view


@frozen
class Difference:
    """One field that differs after a step: its path and both sides' values."""

    field: str  # "phase", "zones.hand/2", "legal_moves", "accepted", "error", "new_game"
    a: Any
    b: Any

    @property
    def key(self) -> str:
        """The field with seat numbers generalised: the same bug at another seat is not new."""
        return re.sub(r"/\d+", "/*", self.field)


# Fields that usually follow from others come last, so the field reported is the cause: a wrong
# score ends the game on one side (phase, result, dealer differ too), a wrong hand changes the moves.
CONSEQUENCES = ("to_act", "leader", "phase", "result", "round", "dealer", "options", "players", "game")


def state_differences(view_a: JSONObject, view_b: JSONObject) -> list[Difference]:
    """The fields that differ, causes first (zones and scores, the game's own fields, then ``CONSEQUENCES``)."""
    out: list[Difference] = []
    names = list(dict.fromkeys([*view_a, *view_b]))
    names.sort(key=lambda n: (n != "zones", n != "scores", CONSEQUENCES.index(n) if n in CONSEQUENCES else -1))
    for name in names:
        a, b = view_a.get(name), view_b.get(name)
        if name == "zones" and isinstance(a, dict) and isinstance(b, dict):
            out.extend(
                Difference(f"zones.{z}", a.get(z, []), b.get(z, []))
                for z in sorted({*a, *b})
                if a.get(z, []) != b.get(z, [])
            )
        elif a != b:
            out.append(Difference(name, a, b))
    return out


def move_differences(a: Snapshot, b: Snapshot) -> list[Difference]:
    """Legal move sets, compared as the contract says (``move_key``): what only one side lists."""
    if a.move_keys == b.move_keys:
        return []
    only_a = sorted(k for k in a.move_keys - b.move_keys)
    only_b = sorted(k for k in b.move_keys - a.move_keys)
    return [Difference("legal_moves", [orjson.loads(k) for k in only_a], [orjson.loads(k) for k in only_b])]


# -- what the contract leaves open ------------------------------------------------------------

# a seat's held cards: where they lie is the game itself, never left open
HELD = ("hand/", "face_up/", "face_down/", "passing/")
# a round's own fields: judged once the next round is dealt, their values between rounds left open
ROUND_FIELDS = frozenset({"dealer", "first_bidder", "leader", "trick_seats", "bids", "declarer", "contract"})
BETWEEN_ROUNDS = "between rounds: only the value once the next round is dealt is judged"
EMPTY_TRICK = "`leader` while the trick is empty: null or the seat to lead"
OUTSIDE_PLAY = "`leader` outside phase play"


def between_rounds(view: JSONObject) -> bool:
    """After a round (phase ``deal`` once a deal was made, or ``over``): the next deal is the kit's."""
    rounds = view.get("round")
    return view.get("phase") in ("deal", "over") and isinstance(rounds, int) and rounds >= 1


def left_open(d: Difference, view_a: JSONObject, view_b: JSONObject) -> str | None:
    """The reading the contract leaves open that ``d`` is a difference in, or None when the contract pins
    the field down here (docs/protocol.md §8, "Left open, never judged").

    Open: when the dealer (Moon's first bidder) moves and what a round leaves behind (its bids, declarer
    and contract, where its finished tricks lie) while both sides are between rounds; ``leader`` while
    both tricks are empty, null or the seat to lead (any value outside phase ``play``).  Moves listed,
    acceptance, scores, phases, the seat to act and the cards a seat holds are always pinned down.
    """
    round_state = d.field in ROUND_FIELDS or (d.field.startswith("zones.") and not d.field[6:].startswith(HELD))
    if round_state and between_rounds(view_a) and between_rounds(view_b):
        return BETWEEN_ROUNDS
    if d.field != "leader" or any(_zones(v).get("trick") for v in (view_a, view_b)):
        return None
    if view_a.get("phase") != "play" and view_b.get("phase") != "play":
        return OUTSIDE_PLAY
    if all(v.get("leader") in (None, v.get("to_act")) for v in (view_a, view_b)):
        return EMPTY_TRICK
    return None


def _zones(view: JSONObject) -> JSONObject:
    zones = view.get("zones")
    return zones if isinstance(zones, dict) else {}


@frozen
class OpenDifference:
    """A difference in a reading the contract leaves open: listed, never a divergence."""

    difference: Difference  # the first field of this step not seen open before
    reading: str  # which reading (``left_open``)
    start: int  # index in the lockstep's events of its game's new_game
    at: int  # ... and of the step after which it showed
    also: tuple[Difference, ...] = ()  # the step's other open differences

    @property
    def keys(self) -> set[str]:
        return {d.key for d in (self.difference, *self.also)}


# -- one side ---------------------------------------------------------------------------------


class WitnessedEngine(CheckedEngine):
    """A checked engine remembering its answer to the last ``new_game`` or ``apply``: accepted, or the error kind."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine)
        self.last = "accepted"

    def new_game(self, game: str, players: int, dealer: int, options: JSONObject) -> State:
        try:
            state = super().new_game(game, players, dealer, options)
        except EngineError as err:
            self.last = err.kind
            raise
        self.last = "accepted"
        return state

    def apply(self, move: Move) -> State:
        try:
            state = super().apply(move)
        except EngineError as err:
            self.last = err.kind
            raise
        self.last = "accepted"
        return state


@define
class Side:
    """One engine under diff, with the options it overrides and its session."""

    name: str  # "A" | "B"
    engine: WitnessedEngine
    props_cls: type[GameProperties]
    options: JSONObject = field(factory=dict)  # applied over every setup (B's --vs-options)
    session: Session | None = None

    def setup(self, setup: Setup) -> Setup:
        return (
            Setup(setup.game, setup.players, setup.dealer, {**setup.options, **self.options}) if self.options else setup
        )

    def start(self, setup: Setup) -> None:
        self.session = Session(self.engine, self.props_cls, Ledger(), lambda finding, session: None)
        self.session.start(self.setup(setup))

    @property
    def snap(self) -> Snapshot:
        assert self.session is not None and self.session.snap is not None
        return self.session.snap


# -- lockstep ---------------------------------------------------------------------------------


class TraceDiverged(Exception):
    """Replaying a recorded trace, side A no longer lists a recorded move (a minimizer's candidate that fails)."""


@define
class Lockstep:
    """Two sides driven through the same events; the first difference of the current game."""

    a: Side
    b: Side
    ignore: tuple[str, ...] = ()
    events: list[Event] = field(factory=list)
    game_start: int = 0
    differences: list[Difference] = field(factory=list)  # at the first divergent step of this game
    at: int | None = None  # index in events of that step
    open: list[OpenDifference] = field(factory=list)  # each step showing a field not seen open before
    states: list[tuple[State | None, State | None]] = field(factory=list)  # each side's state after each event
    # after the divergence: the index of the first move a side refused (the game is no longer one game on
    # both sides there: a side whose game is over refuses the other's next deal, and breaks no rule)
    tail_end: int | None = None

    @property
    def diverged(self) -> bool:
        return self.at is not None

    def start(self, setup: Setup) -> None:
        """``new_game`` on both; Unsupported on either propagates (the setup is skipped)."""
        self.events.append(Event("new_game", setup.to_json()))
        self.game_start, self.at, self.differences = len(self.events) - 1, None, []
        refused: dict[str, str] = {}
        for side in (self.a, self.b):
            try:
                side.start(setup)
            except Unsupported as err:
                refused[side.name] = err.message
        if refused:
            self.states.append((None, None))
            raise Unsupported("; ".join(f"side {k}: {v}" for k, v in refused.items()))
        self._compare()

    def apply(self, move: Move, *, from_trace: bool = False) -> bool:
        """A deal or a move from A's list, to both sides; False when either refused it."""
        deal = move.get("type") == "deal"
        if from_trace and not deal and move_key(move) not in self.a.snap.move_keys:
            raise TraceDiverged("side A does not list this recorded move")
        self.events.append(Event("apply", move))
        after_divergence = self.diverged
        ok_a = self._session(self.a).apply(move, listed=not deal)
        ok_b = self._session(self.b).apply(move, listed=not deal)
        self._compare(outcome=(self.a.engine.last, self.b.engine.last))
        if after_divergence and not (ok_a and ok_b) and self.tail_end is None:
            self.tail_end = len(self.events) - 1
        return ok_a and ok_b

    def tail(self, start: int) -> tuple[Event, ...]:
        """The events from index ``start`` on that both sides took (up to ``tail_end``): the game played on
        after the divergence, to name the clauses each side breaks."""
        return tuple(self.events[start : self.tail_end])

    def probe(self, move: Move, clause: str) -> None:
        """A move the rules forbid, to both sides: both must answer alike."""
        self.events.append(Event("reject", move, clause))
        self._session(self.a).reject(move, clause)
        self._session(self.b).reject(move, clause)
        self._compare(outcome=(self.a.engine.last, self.b.engine.last))

    def game_trace(self, upto: int | None = None, start: int | None = None) -> Trace:
        """This game's events (or the game starting at index ``start``), up to and including index ``upto``,
        as side A's trace."""
        end = len(self.events) if upto is None else upto + 1
        return Trace(self.a.props_cls.game, tuple(self.events[self.game_start if start is None else start : end]))

    def _session(self, side: Side) -> Session:
        assert side.session is not None
        return side.session

    def _compare(self, outcome: tuple[str, str] | None = None) -> None:
        self.states.append((self.a.snap.raw, self.b.snap.raw))
        if self.diverged:
            return
        found: list[Difference] = []
        if outcome is not None and outcome[0] != outcome[1]:
            accepted = [o == "accepted" for o in outcome]
            found.append(Difference("accepted" if accepted[0] != accepted[1] else "error", *outcome))
        # the house options are echoed only by an engine that declares them: what was sent, not a result
        drop = frozenset(self.b.options) | self.a.props_cls.house_options
        ordered = self.a.props_cls.ordered_zones
        view_a = contract_view(self.a.snap.raw, self.a.props_cls.game, ordered, drop)
        view_b = contract_view(self.b.snap.raw, self.b.props_cls.game, ordered, drop)
        found += state_differences(view_a, view_b)
        found += move_differences(self.a.snap, self.b.snap)
        found = [d for d in found if not self.ignored(d.field)]
        readings = {d.field: left_open(d, view_a, view_b) for d in found}
        pinned = [d for d in found if readings[d.field] is None]
        at = len(self.events) - 1
        if pinned:  # a behaviour difference; the open ones at the same step come after it
            self.differences, self.at = pinned + [d for d in found if readings[d.field] is not None], at
            return
        seen = {k for o in self.open for k in o.keys}
        new = next((d for d in found if d.key not in seen), None)
        if new is not None:  # one entry per step: its fields differ together (a round left behind)
            also = tuple(d for d in found if d is not new)
            self.open.append(OpenDifference(new, readings[new.field] or "", self.game_start, at, also))

    def ignored(self, name: str) -> bool:
        return is_ignored(name, self.ignore)


def is_ignored(name: str, ignore: tuple[str, ...]) -> bool:
    """``--ignore``: a field by name, everything under it (``zones``), or a pattern (``zones.won/*``)."""
    return any(name == ig or name.startswith(ig + ".") or fnmatch.fnmatchcase(name, ig) for ig in ignore)


def new_game_differences(a: Side, b: Side, setup: Setup, ignore: tuple[str, ...] = ()) -> list[Difference]:
    """One ``new_game`` to both sides, straight to the engines: accepted or which error, then the states.

    For the setups the contract forbids or leaves incomplete (an option left
    out, a value outside the contract): no session, since the properties'
    model need not hold such a setup.  A side answering ``unsupported`` is
    never a difference (the contract lets an engine decline a setup).
    """
    outcome: dict[str, tuple[str, State | None]] = {}
    for side in (a, b):
        s = side.setup(setup)
        try:
            outcome[side.name] = ("accepted", side.engine.new_game(s.game, s.players, s.dealer, s.options))
        except EngineError as err:
            outcome[side.name] = (err.kind, None)
    (kind_a, state_a), (kind_b, state_b) = outcome[a.name], outcome[b.name]
    if kind_a != kind_b:
        found = [] if "unsupported" in (kind_a, kind_b) else [Difference("new_game", kind_a, kind_b)]
    elif state_a is None or state_b is None:
        found = []
    else:
        ordered, drop = a.props_cls.ordered_zones, frozenset(b.options) | a.props_cls.house_options
        game = a.props_cls.game
        found = state_differences(
            contract_view(state_a, game, ordered, drop), contract_view(state_b, game, ordered, drop)
        )
    return [d for d in found if not is_ignored(d.field, ignore)]


def replay_lockstep(
    trace: Trace, a: Side, b: Side, ignore: tuple[str, ...], open_key: str | None = None
) -> Lockstep | None:
    """Drive both sides through a recorded trace, stopping at the first divergence (or at the first open
    difference of ``open_key``); None if A refuses the trace."""
    lock = Lockstep(a, b, ignore)
    try:
        for event in trace.events:
            if event.kind == "new_game":
                lock.start(Setup.from_json(event.value))
            elif event.kind == "apply":
                lock.apply(event.value, from_trace=True)
            else:
                lock.probe(event.value, event.clause or "CONTRACT-REJECT-1")
            if lock.diverged or (open_key is not None and any(open_key in o.keys for o in lock.open)):
                return lock
    except (TraceDiverged, Unsupported):
        return None
    return lock


def evolve_options(fx: Any, options: JSONObject) -> Any:
    """A fixture with ``options`` set over its own (side B's view of it)."""
    return evolve(fx, setup={**fx.setup, "options": {**(fx.setup.get("options") or {}), **options}}) if options else fx


@define
class FixtureScript:
    """One fixture's steps played in lockstep: applies, probes, and ``auto`` stretches on A's least (or greatest) move.

    Expectations are skipped (the two sides are compared instead).  After a
    divergence the script goes on while side B still lists A's moves, so the
    clauses broken a little later are named too.
    """

    lock: Lockstep
    ordered: frozenset[str]

    def step(self, step: JSONObject) -> bool:
        """Play one fixture step; False when the script cannot go on."""
        if "apply" in step:
            return self.play(step["apply"])
        if "reject" in step:
            self.lock.probe(step["reject"], step.get("clause") or "CONTRACT-REJECT-1")
            return True
        if "auto" in step:
            return self.auto(step["auto"])
        return True  # an expectation: the other side is the expectation here

    def play(self, move: Move) -> bool:
        lock = self.lock
        if move.get("type") != "deal":
            key = move_key(move)
            if key not in lock.a.snap.move_keys or (lock.diverged and key not in lock.b.snap.move_keys):
                return False  # side A (or, after the divergence, side B) left the script
        return lock.apply(move) or lock.diverged

    def play_on(self) -> None:
        """After the script, up to ``TAIL_STEPS`` after the divergence: A's least move, the last deal again.

        A rule checked only at the next deal (who deals, who bids first) is
        then still judged; the same cards dealt again are a deal the rules allow.
        """
        lock = self.lock
        deal = last_deal(lock.events)
        while lock.at is not None and len(lock.events) - 1 - lock.at < TAIL_STEPS:
            snap = lock.a.snap
            if snap.phase == "deal":
                if deal is None or not self.play(deal):
                    return
            elif snap.phase == "over" or not snap.moves or not self.play(min(snap.moves, key=move_key)):
                return

    def play_on_b(self) -> tuple[Event, ...]:
        """Then side B alone, where the two list no move in common: B's least listed move, the last deal
        again, so that what B's difference leads to (a pass of four cards applied) is judged on B."""
        lock = self.lock
        return b_alone(
            lock, lambda snap: last_deal(lock.events) if snap.phase == "deal" else min(snap.moves, key=move_key)
        )

    def auto(self, auto: JSONObject) -> bool:
        from ruleproof.run.fixtures import matches

        deals = iter(auto.get("deals", []))
        pick = max if auto.get("policy", "first") == "last" else min
        for _ in range(auto.get("max_steps", 5000)):
            snap = self.lock.a.snap
            if matches(auto["until"], snap.raw, self.ordered):
                return True
            if snap.phase == "deal":
                deal = next(deals, None)
                if deal is None or not self.play(deal):
                    return False
            elif snap.phase == "over" or not snap.moves or not self.play(pick(snap.moves, key=move_key)):
                return False
            if self.lock.diverged and len(self.lock.events) - 1 - (self.lock.at or 0) >= TAIL_STEPS:
                return False
        return False


def last_deal(events: Sequence[Event]) -> Move | None:
    """The last deal among ``events`` (dealt again when a script's game goes on)."""
    return next((e.value for e in reversed(events) if e.kind == "apply" and e.value.get("type") == "deal"), None)


def b_alone(lock: Lockstep, choose: Callable[[Snapshot], Move | None]) -> tuple[Event, ...]:
    """Side B played on alone with the moves of ``choose``, up to ``TAIL_STEPS`` after the divergence,
    once the lockstep's tail ended with no move refused (a refused one would leave B's state off the
    recorded events): where B's difference is a list of moves A never lists, only B's own moves show
    which rule it breaks."""
    session = lock.b.session
    if session is None or lock.tail_end is not None:
        return ()
    events: list[Event] = []
    for _ in range(max(0, TAIL_STEPS - (len(lock.events) - 1 - (lock.at or 0)))):
        snap = lock.b.snap
        move = choose(snap) if snap.phase != "over" and (snap.moves or snap.phase == "deal") else None
        if move is None:
            break
        events.append(Event("apply", move))
        if not session.apply(move, listed=snap.phase != "deal"):
            break
    return tuple(events)
