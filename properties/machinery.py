"""Shared machinery of the properties: findings, checks, snapshots, sessions.

A game's properties are a ``GameProperties`` subclass: an observer that is
shown every transition (state before, move, state after) and raises a
``Violation`` naming the clause it breaks.  Nothing here knows any game's
rules; it only drives an engine through the contract and keeps the trace.

The same ``Session`` serves three drivers: the Hypothesis state machine
(``properties.machine``), the fixtures (``ruleproof.scenarios``) and
``ruleproof replay``.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any, Callable, ClassVar, Iterable, Sequence

import orjson
from attrs import define, field, frozen
from hypothesis import strategies as st

from ruleproof.checked import CheckedEngine
from ruleproof.engine import AdapterBroken, BadRequest, IllegalMove, JSONObject, Move, State, Unsupported

# Clauses of the contract itself, checked for every game (docs/rules/contract.md).
CONTRACT_PHASE = "CONTRACT-PHASE-1"  # to_act null iff deal/over; moves [] iff deal/over
CONTRACT_DISTINCT = "CONTRACT-MOVES-1"  # legal moves are distinct
CONTRACT_ACCEPT = "CONTRACT-MOVES-2"  # every listed legal move is accepted
CONTRACT_REJECT = "CONTRACT-REJECT-1"  # a rejected move leaves the state exactly as it was
CONTRACT_ERROR = "CONTRACT-ERROR-1"  # a well-formed rule-breaking move is illegal_move, not bad_request
CONTRACT_DETERMINISM = "CONTRACT-DET-1"  # the same moves from the same deal give the same states
CONTRACT_OVER = "CONTRACT-OVER-1"  # no move is accepted after over
CONTRACT_SETUP = "CONTRACT-SETUP-1"  # the state echoes the setup: game, players, dealer, options, round 0, deal
CONTRACT_CLAUSES = (
    CONTRACT_SETUP,
    CONTRACT_PHASE,
    CONTRACT_DISTINCT,
    CONTRACT_ACCEPT,
    CONTRACT_REJECT,
    CONTRACT_ERROR,
    CONTRACT_DETERMINISM,
    CONTRACT_OVER,
)


@frozen
class Finding:
    """What a check found: the clause, a sentence, expected versus got."""

    clause: str
    message: str
    expected: Any = None
    got: Any = None

    def to_json(self) -> JSONObject:
        return {"clause": self.clause, "message": self.message, "expected": self.expected, "got": self.got}


class Violation(AssertionError):
    """A rule clause was broken; carries the finding and the trace that shows it.

    Each clause gets its own subclass, because Hypothesis tells bugs apart by
    exception type and place: the shrinker must never turn a violation of one
    clause into a smaller example of another.
    """

    def __new__(cls, finding: Finding, trace: "Trace | None" = None) -> "Violation":
        if cls is Violation:
            cls = _violation_class(finding.clause)
        return super().__new__(cls, finding, trace)

    def __init__(self, finding: Finding, trace: "Trace | None" = None) -> None:
        super().__init__(f"{finding.clause}: {finding.message}")
        self.finding = finding
        self.trace = trace


class Stuck(Exception):
    """The game cannot go on: a needed move was refused under an already-failed clause."""


@functools.cache
def _violation_class(clause: str) -> type[Violation]:
    return type(f"Violation[{clause}]", (Violation,), {"__module__": __name__})


@frozen
class Setup:
    """The ``new_game`` parameters (options complete: the kit sends every option)."""

    game: str
    players: int
    dealer: int
    options: JSONObject

    def to_json(self) -> JSONObject:
        return {"game": self.game, "players": self.players, "dealer": self.dealer, "options": self.options}

    @classmethod
    def from_json(cls, data: JSONObject) -> "Setup":
        return cls(data["game"], data["players"], data["dealer"], dict(data.get("options") or {}))


@frozen
class Event:
    """One line of a trace: a game started, a move applied, or a move that must be rejected."""

    kind: str  # "new_game" | "apply" | "reject"
    value: JSONObject
    clause: str | None = None

    def to_json(self) -> JSONObject:
        out: JSONObject = {self.kind: self.value}
        if self.clause:
            out["clause"] = self.clause
        return out

    @classmethod
    def from_json(cls, data: JSONObject) -> "Event":
        for kind in ("new_game", "apply", "reject"):
            if kind in data:
                return cls(kind, data[kind], data.get("clause"))
        raise ValueError(f"trace step {data!r} has none of new_game/apply/reject")


@frozen
class Trace:
    """A replayable sequence of events, and the clause it violated (if any)."""

    game: str
    events: tuple[Event, ...]
    finding: Finding | None = None
    # clauses already known to fail when this trace was recorded: replay skips them too
    ignored: tuple[str, ...] = ()

    def moves(self) -> list[JSONObject]:
        return [e.to_json() for e in self.events]

    def to_json(self) -> JSONObject:
        return {
            "ruleproof_trace": 1,
            "game": self.game,
            "violation": self.finding.to_json() if self.finding else None,
            "ignoring": list(self.ignored),
            "steps": self.moves(),
        }

    @classmethod
    def from_json(cls, data: JSONObject) -> "Trace":
        v = data.get("violation")
        finding = Finding(v["clause"], v.get("message", ""), v.get("expected"), v.get("got")) if v else None
        events = tuple(Event.from_json(s) for s in data["steps"])
        return cls(data["game"], events, finding, tuple(data.get("ignoring", ())))


def move_key(move: Any) -> bytes:
    """Moves compare as JSON after sorting card lists (protocol.md §2)."""
    if isinstance(move, dict) and isinstance(move.get("cards"), list):
        move = {**move, "cards": sorted(move["cards"], key=str)}
    return orjson.dumps(move, option=orjson.OPT_SORT_KEYS)


@frozen
class Snapshot:
    """One engine state with its legal moves, parsed once per step."""

    raw: State
    moves: tuple[Move, ...]

    @property
    def phase(self) -> str:
        return self.raw["phase"]

    @property
    def to_act(self) -> int | None:
        return self.raw["to_act"]

    @property
    def players(self) -> int:
        return self.raw["players"]

    @property
    def options(self) -> JSONObject:
        return self.raw["options"]

    @property
    def scores(self) -> list[int]:
        return self.raw["scores"]

    def get(self, name: str, default: Any = None) -> Any:
        return self.raw.get(name, default)

    def zone(self, name: str) -> list[str]:
        """A zone's cards; a zone left out is empty (protocol.md §4)."""
        return self.raw["zones"].get(name) or []

    def zone_names(self) -> Iterable[str]:
        return self.raw["zones"].keys()

    @functools.cached_property
    def move_keys(self) -> frozenset[bytes]:
        return frozenset(move_key(m) for m in self.moves)

    def all_cards(self) -> Counter[str]:
        """Every card in every zone, as a multiset."""
        total: Counter[str] = Counter()
        for cards in self.raw["zones"].values():
            total.update(cards)
        return total


@frozen
class Check:
    """A named check, the clauses it states, and the function that states them."""

    name: str
    clauses: tuple[str, ...]
    fn: Callable[..., None]


class CheckRegistry:
    """The invariant registry of one game's properties (Schemathesis-style named checks)."""

    def __init__(self) -> None:
        self.checks: list[Check] = []

    def __call__(self, *clauses: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
        """Register a transition check ``fn(props, step)`` that states ``clauses``."""

        def register(fn: Callable[..., None]) -> Callable[..., None]:
            self.checks.append(Check(fn.__name__, clauses, fn))
            return fn

        return register

    def clauses(self) -> list[str]:
        seen: dict[str, None] = {}
        for c in self.checks:
            for clause in c.clauses:
                seen.setdefault(clause, None)
        return list(seen)


@define
class Coverage:
    """How often each clause was actually exercised, and which are switched off.

    A clause is reported ``pass`` only if it was exercised at least once and
    never failed; a clause no run reached is ``untested``, never ``pass``.
    """

    hits: Counter[str] = field(factory=Counter)
    disabled: set[str] = field(factory=set)

    def hit(self, clause: str, n: int = 1) -> None:
        self.hits[clause] += n


@frozen
class Step:
    """One transition shown to the checks."""

    before: Snapshot
    move: Move
    after: Snapshot

    @property
    def kind(self) -> str:
        return self.move.get("type", "")


class GameProperties:
    """Base of one game's properties: the model a check may keep, and the hooks.

    Subclasses set ``game``, ``checks`` (a ``CheckRegistry``), ``clauses``
    (every clause they report on, for the verdict table) and implement the
    hooks that draw setups, deals and illegal moves.  One instance observes
    one game (a fresh one per ``new_game``).
    """

    game: ClassVar[str]
    checks: ClassVar[CheckRegistry]
    # zones whose order is meaningful (a trick, a pile); the others compare as multisets
    ordered_zones: ClassVar[frozenset[str]] = frozenset({"trick"})
    # (option, value) -> clauses that can only be checked with that option value
    option_clauses: ClassVar[dict[tuple[str, Any], tuple[str, ...]]] = {}
    # the step budget of one Hypothesis example is this many times the profile's base
    step_scale: ClassVar[float] = 1.0

    def __init__(self, setup: Setup, coverage: Coverage) -> None:
        self.setup = setup
        self.coverage = coverage

    # -- reporting -----------------------------------------------------------------
    def cover(self, *clauses: str) -> None:
        for clause in clauses:
            self.coverage.hits[clause] += 1

    def fail(self, clause: str, message: str, expected: Any = None, got: Any = None) -> None:
        """Raise a violation of ``clause`` (unless that clause is already known failing)."""
        if clause in self.coverage.disabled:
            return
        raise Violation(Finding(clause, message, expected, got))

    def expect(self, clause: str, ok: bool, message: str, expected: Any = None, got: Any = None) -> None:
        """Cover ``clause``; fail it when ``ok`` is false."""
        self.coverage.hits[clause] += 1
        if not ok:
            self.fail(clause, message, expected, got)

    # -- hooks ---------------------------------------------------------------------
    @classmethod
    def setups(cls, declared: JSONObject) -> st.SearchStrategy[Setup]:
        """The setups to draw, from the engine's ``hello`` entry for this game."""
        raise NotImplementedError

    @classmethod
    def all_clauses(cls) -> list[str]:
        """Every clause these properties (and the game's fixtures) report on."""
        raise NotImplementedError

    def deal(self, snap: Snapshot, data: st.DataObject) -> Move:
        """Draw a complete deal for the current state (phase ``deal``)."""
        raise NotImplementedError

    def choose(self, snap: Snapshot, data: st.DataObject) -> Move:
        """Pick a legal move by index (override to steer towards progress)."""
        return snap.moves[data.draw(st.integers(0, len(snap.moves) - 1), label="move")]

    def illegal_moves(self, snap: Snapshot) -> Sequence[tuple[Move, str]]:
        """Well-formed moves the rules forbid here, each with the clause it breaks."""
        return ()

    def start(self, snap: Snapshot) -> None:
        """Checks on the state right after ``new_game``."""

    def observe(self, step: Step) -> None:
        """Run every registered check on one transition."""
        for check in self.checks.checks:
            check.fn(self, step)

    def after_rejection(self, snap: Snapshot, move: Move, clause: str) -> None:
        """Checks after an illegal move was rejected (beyond 'state unchanged')."""


def canonical(state: State, ordered: frozenset[str]) -> JSONObject:
    """A state with unordered zones sorted and empty zones dropped, for comparison."""
    zones = {
        name: (list(cards) if name in ordered else sorted(cards))
        for name, cards in state.get("zones", {}).items()
        if cards
    }
    return {**state, "zones": zones}


def summary(state: State) -> JSONObject:
    """A short view of a state for messages: phase, who acts, sizes of zones."""
    return {
        "phase": state.get("phase"),
        "to_act": state.get("to_act"),
        "round": state.get("round"),
        "scores": state.get("scores"),
        "zones": {k: len(v) for k, v in state.get("zones", {}).items() if v},
    }


class Session:
    """Drives one engine through games of one kind, checking and recording.

    Every call goes through here: the trace it keeps is exactly what was
    sent, so a failure can be replayed move for move.
    """

    def __init__(
        self,
        engine: CheckedEngine,
        props_cls: type[GameProperties],
        coverage: Coverage,
    ) -> None:
        self.engine = engine
        self.props_cls = props_cls
        self.coverage = coverage
        self.events: list[Event] = []
        self.props: GameProperties | None = None
        self.snap: Snapshot | None = None
        self._game_start = 0  # index in events of the current game's new_game

    # -- trace -----------------------------------------------------------------------
    def trace(self, finding: Finding | None = None) -> Trace:
        return Trace(self.props_cls.game, tuple(self.events), finding, tuple(sorted(self.coverage.disabled)))

    def violation(self, finding: Finding) -> Violation:
        return Violation(finding, self.trace(finding))

    # -- steps -----------------------------------------------------------------------
    def snapshot(self, state: State) -> Snapshot:
        snap = Snapshot(state, tuple(self.engine.legal_moves()))
        self._check_contract(snap)
        return snap

    def start(self, setup: Setup) -> Snapshot:
        self.events.append(Event("new_game", setup.to_json()))
        self._game_start = len(self.events) - 1
        try:
            state = self.engine.new_game(setup.game, setup.players, setup.dealer, setup.options)
        except Unsupported:
            raise
        except BadRequest as err:
            raise AdapterBroken(
                "smoke",
                f"new_game refused a setup the engine declared in hello: {err.message}",
                sent=setup.to_json(),
            ) from None
        self.props = self.props_cls(setup, self.coverage)
        self.snap = self.snapshot(state)
        with self._violations():
            self._check_setup(setup, self.snap)
            self.props.start(self.snap)
        return self.snap

    def apply(self, move: Move, *, listed: bool = False) -> Snapshot:
        """Apply a move that must be accepted (a deal, or a listed legal move)."""
        assert self.snap is not None and self.props is not None
        before = self.snap
        self.events.append(Event("apply", move))
        with self._violations():
            try:
                state = self.engine.apply(move)
            except IllegalMove as err:
                clause = CONTRACT_ACCEPT if listed else (err.clause or CONTRACT_ACCEPT)
                what = "a move it listed as legal" if listed else "a move the rules allow"
                self._fail(clause, f"the engine rejected {what}: {err.message}", "accepted", "illegal_move")
                raise Stuck(clause) from None
            except BadRequest as err:
                self._fail(CONTRACT_ACCEPT, f"the engine answered bad_request to a well-formed move: {err.message}", "accepted", "bad_request")
                raise Stuck(CONTRACT_ACCEPT) from None
            if listed:
                self.coverage.hit(CONTRACT_ACCEPT)
            after = self.snapshot(state)
            self.snap = after
            self.props.observe(Step(before, move, after))
        return after

    def reject(self, move: Move, clause: str) -> None:
        """Send a move the rules forbid; require illegal_move and an unchanged state."""
        assert self.snap is not None and self.props is not None
        before = self.snap
        self.events.append(Event("reject", move, clause))
        with self._violations():
            try:
                state = self.engine.apply(move)
            except IllegalMove:
                self.coverage.hit(clause)
                self.coverage.hit(CONTRACT_ERROR)
            except BadRequest as err:
                self._fail(CONTRACT_ERROR, f"a well-formed move that breaks {clause} was answered bad_request ({err.message}); the contract says illegal_move", "illegal_move", "bad_request")
            else:
                self.snap = Snapshot(state, ())  # the engine moved on: later checks see where it went
                self._fail(clause, f"the engine accepted a move that breaks {clause}: {orjson.dumps(move).decode()}", "illegal_move", summary(state))
                return
            now = self.engine.state()
            ordered = self.props_cls.ordered_zones
            same = canonical(now, ordered) == canonical(before.raw, ordered)
            self.coverage.hit(CONTRACT_REJECT)
            if not same:
                self._fail(CONTRACT_REJECT, "the state changed after a rejected move", summary(before.raw), summary(now))
            self.props.after_rejection(before, move, clause)

    def moves_in_game(self) -> int:
        """How many moves the current game has seen (applied or rejected)."""
        return len(self.events) - self._game_start - 1

    def replay_current_game(self) -> None:
        """CONTRACT-DET-1: the same setup and moves must give the same state."""
        assert self.snap is not None
        events = self.events[self._game_start :]
        setup = Setup.from_json(events[0].value)
        final = canonical(self.snap.raw, self.props_cls.ordered_zones)
        with self._violations():
            state = self.engine.new_game(setup.game, setup.players, setup.dealer, setup.options)
            for e in events[1:]:
                if e.kind == "apply":
                    try:
                        state = self.engine.apply(e.value)
                    except IllegalMove as err:
                        self._fail(CONTRACT_DETERMINISM, f"replaying the same moves, a move accepted the first time was refused: {err.message}", "accepted", "illegal_move")
                        return
                else:
                    try:
                        state = self.engine.apply(e.value)
                    except IllegalMove:
                        pass
            self.coverage.hit(CONTRACT_DETERMINISM)
            again = canonical(state, self.props_cls.ordered_zones)
            if again != final:
                self._fail(CONTRACT_DETERMINISM, "replaying the same setup and moves gave a different state", summary(final), summary(again))

    def after_over(self, move: Move) -> None:
        """CONTRACT-OVER-1: after ``over`` any move is rejected and changes nothing."""
        self.reject(move, CONTRACT_OVER)

    # -- contract checks ------------------------------------------------------------------
    def _check_setup(self, setup: Setup, snap: Snapshot) -> None:
        s = snap.raw
        got = {k: s.get(k) for k in ("game", "players", "dealer", "phase", "round")}
        want = {"game": setup.game, "players": setup.players, "dealer": setup.dealer, "phase": "deal", "round": 0}
        self.coverage.hit(CONTRACT_SETUP)
        if got != want:
            self._fail(CONTRACT_SETUP, "new_game must return the setup in phase deal, round 0", want, got)
        sent = {k: v for k, v in setup.options.items()}
        echoed = {k: s["options"].get(k) for k in sent}
        if echoed != sent:
            self._fail(CONTRACT_SETUP, "the state's options must echo the options sent", sent, echoed)

    def _check_contract(self, snap: Snapshot) -> None:
        idle = snap.phase in ("deal", "over")
        with self._violations():
            self.coverage.hit(CONTRACT_PHASE)
            if idle and (snap.to_act is not None or snap.moves):
                self._fail(CONTRACT_PHASE, f"in phase {snap.phase!r} nobody acts and legal_moves is []", {"to_act": None, "moves": 0}, {"to_act": snap.to_act, "moves": len(snap.moves)})
            if not idle and (snap.to_act is None or not snap.moves):
                self._fail(CONTRACT_PHASE, f"in phase {snap.phase!r} a seat must act and have at least one legal move", "to_act set, moves non-empty", {"to_act": snap.to_act, "moves": len(snap.moves)})
            if snap.moves:
                self.coverage.hit(CONTRACT_DISTINCT)
                if len(snap.move_keys) != len(snap.moves):
                    dupes = [m for m, n in Counter(move_key(m) for m in snap.moves).items() if n > 1]
                    self._fail(CONTRACT_DISTINCT, "legal_moves lists a move more than once", "distinct moves", [orjson.loads(d) for d in dupes][:3])

    def _fail(self, clause: str, message: str, expected: Any = None, got: Any = None) -> None:
        if clause in self.coverage.disabled:
            return
        raise Violation(Finding(clause, message, expected, got))

    def _violations(self) -> "_AttachTrace":
        return _AttachTrace(self)


class _AttachTrace:
    """Context manager: a Violation leaving it carries the session's trace so far."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        if isinstance(exc, Violation) and exc.trace is None:
            exc.trace = self.session.trace(exc.finding)
        return False

