"""Shared machinery of the properties: snapshots, the checks registry, the base class.

A game's properties are a ``GameProperties`` subclass: an observer that is
shown every transition (state before, move, state after) and records a
``Finding`` naming each clause the transition breaks, then lets the game go
on (record and continue).  Nothing here knows any game's rules.  Driving an
engine is ``ruleproof.session``; the finding and trace model is
``ruleproof.findings``.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import orjson
from attrs import frozen
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from ruleproof.engine import JSONObject, Move, State
from ruleproof.findings import Event, Finding, Setup, Trace, Violation

if TYPE_CHECKING:
    from ruleproof.session import Ledger

__all__ = ["Event", "Finding", "Setup", "Trace", "Violation"]  # re-exported for older imports

# Clauses of the contract itself, checked for every game (docs/rules/contract.md).
CONTRACT_PHASE = "CONTRACT-PHASE-1"  # to_act null iff deal/over; moves [] iff deal/over
CONTRACT_DISTINCT = "CONTRACT-MOVES-1"  # legal moves are distinct
CONTRACT_ACCEPT = "CONTRACT-MOVES-2"  # every listed legal move is accepted
CONTRACT_REJECT = "CONTRACT-REJECT-1"  # a rejected move leaves the state exactly as it was
CONTRACT_ERROR = "CONTRACT-ERROR-1"  # a well-formed rule-breaking move is illegal_move, not bad_request
CONTRACT_DETERMINISM = "CONTRACT-DET-1"  # the same moves from the same deal give the same states
CONTRACT_OVER = "CONTRACT-OVER-1"  # no move is accepted after over
CONTRACT_SETUP = "CONTRACT-SETUP-1"  # the state echoes the setup: game, players, dealer, options, round 0, deal
CONTRACT_OPTIONS = "CONTRACT-SETUP-2"  # a forbidden option (wrong type, unknown, outside the contract) is bad_request
CONTRACT_DEFAULTS = "CONTRACT-SETUP-3"  # an option left out of new_game takes the contract's default
CONTRACT_CLAUSES = (
    CONTRACT_SETUP,
    CONTRACT_OPTIONS,
    CONTRACT_DEFAULTS,
    CONTRACT_PHASE,
    CONTRACT_DISTINCT,
    CONTRACT_ACCEPT,
    CONTRACT_REJECT,
    CONTRACT_ERROR,
    CONTRACT_DETERMINISM,
    CONTRACT_OVER,
)


def move_key(move: Any) -> bytes:
    """Moves compare as JSON after sorting card lists (protocol.md §2)."""
    if isinstance(move, dict) and isinstance(move.get("cards"), list):
        move = {**move, "cards": sorted(move["cards"], key=str)}
    return orjson.dumps(move, option=orjson.OPT_SORT_KEYS)


def move_diff(want: Iterable[Move], got: Iterable[Move], most: int = 6) -> tuple[JSONObject, JSONObject]:
    """Expected versus got for a legal-move set, in one notation: the moves themselves.

    ``expected`` names the moves the rules allow that are not listed
    (``includes``) and the listed moves the rules forbid (``excludes``);
    ``got`` says the same from the engine's side (``lacks`` / ``lists``).
    """
    w = {move_key(m): m for m in want}
    g = {move_key(m): m for m in got}
    missing = [w[k] for k in sorted(w.keys() - g.keys())][:most]
    extra = [g[k] for k in sorted(g.keys() - w.keys())][:most]
    expected: JSONObject = {"includes": missing} if missing else {}
    found: JSONObject = {"lacks": missing} if missing else {}
    if extra:
        expected["excludes"] = extra
        found["lists"] = extra
    if not missing and not extra:  # same set, so the difference is a move listed twice
        expected, found = {"moves": len(w)}, {"moves": len(list(got))}
    return expected, found


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
    def keyed(self) -> dict[bytes, Move]:
        """The legal moves by their comparison key (computed once per snapshot)."""
        return {move_key(m): m for m in self.moves}

    @functools.cached_property
    def move_keys(self) -> frozenset[bytes]:
        return frozenset(self.keyed)

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
    # the clause a refused deal breaks (a deal the properties drew is one the rules allow)
    deal_clause: ClassVar[str]
    # clauses no behaviour can break on their own (a definition others apply, "no guaranteed
    # termination"): reported `covered` when reached, never `pass`
    covered_only: ClassVar[frozenset[str]] = frozenset()
    # clause -> the situations that tell its readings apart (e.g. MOON-SCORE-1: made exactly, made
    # with overtricks, failed); a clause that passes without reaching them all is `partial`
    situations: ClassVar[dict[str, tuple[str, ...]]] = {}

    def __init__(self, setup: Setup, ledger: Ledger) -> None:
        self.setup = setup
        self.ledger = ledger

    # -- reporting -----------------------------------------------------------------
    def cover(self, *clauses: str) -> None:
        for clause in clauses:
            self.ledger.hit(clause)

    def fail(self, clause: str, message: str, expected: Any = None, got: Any = None) -> None:
        """Record a violation of ``clause``; the check (and the game) go on."""
        self.ledger.record(Finding(clause, message, expected, got))

    def expect(self, clause: str, ok: bool, message: str, expected: Any = None, got: Any = None) -> None:
        """Cover ``clause``; record a violation when ``ok`` is false."""
        self.ledger.hits[clause] += 1  # the ledger's hit, inlined: this runs dozens of times a step
        if not ok:
            self.fail(clause, message, expected, got)

    def situation(self, clause: str, name: str) -> None:
        """Count ``clause`` as judged in the situation ``name`` (declared in ``situations``)."""
        self.ledger.situation(clause, name)

    def guarded(self, name: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Run one check so that a crash on a strange state never stops the others (it is reported)."""
        try:
            return fn(*args)
        except HypothesisException:  # Hypothesis's own control flow (a rejected or overrun draw)
            raise
        except Exception as exc:  # the kit's own bug on a state it did not foresee: never a verdict
            self.ledger.crashed(name, exc)
            return None

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

    def choose(self, snap: Snapshot, pick: int, data: st.DataObject) -> Move:
        """Pick a legal move: ``pick`` is a drawn integer far larger than any move list, so
        ``pick % n`` is an index and ``pick // n`` is left for further choices (override to steer
        towards progress; ``data`` is there for the rarer extra draws)."""
        return snap.moves[pick % len(snap.moves)]

    def illegal_moves(self, snap: Snapshot) -> Sequence[tuple[Move, str]]:
        """Well-formed moves the rules forbid here, each with the clause it breaks."""
        return ()

    def start(self, snap: Snapshot) -> None:
        """Checks on the state right after ``new_game``."""

    def observe(self, step: Step) -> None:
        """Run every registered check on one transition, whatever the others found."""
        for check in self.checks.checks:
            self.guarded(check.name, check.fn, self, step)

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
