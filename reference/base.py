"""The shared shape of every reference game, and the engine that serves them.

A game is a ``Rules`` object: pure functions from frozen attrs states to new
states.  ``ReferenceEngine`` wraps any set of ``Rules`` in the ``Engine``
contract (protocol.md §2), so a mutant is simply a ``Rules`` subclass with one
method overridden.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any, ClassVar, Generic, TypeVar, cast

from ruleproof import GAMES, PROTOCOL_VERSION, __version__
from ruleproof.model.engine import BadRequest, IllegalMove, JSONObject, Move, State, Unsupported, load_factory
from ruleproof.model.games import SPECS

S = TypeVar("S")


class Rules(ABC, Generic[S]):
    """One game's rules.  Subclasses implement the abstract methods."""

    game: ClassVar[str]

    @abstractmethod
    def declaration(self) -> JSONObject:
        """``hello.games[game]``: player counts and the option values implemented."""

    @abstractmethod
    def defaults(self, players: int) -> JSONObject:
        """The document's default for every option at this player count."""

    @abstractmethod
    def start(self, players: int, dealer: int, options: JSONObject) -> S:
        """The state before the first deal (phase ``deal``); options are complete."""

    @abstractmethod
    def legal_moves(self, state: S) -> list[Move]:
        """Every distinct legal move of whoever is to act."""

    @abstractmethod
    def apply(self, state: S, move: Move) -> S:
        """The state after ``move``; raises IllegalMove/BadRequest and never mutates."""

    @abstractmethod
    def to_json(self, state: S) -> State:
        """The contract's STATE snapshot."""

    def check_options(self, players: int, options: JSONObject) -> None:
        """Cross-option checks beyond the declared values (raise BadRequest)."""

    def common_state(
        self,
        state: Any,
        *,
        players: int,
        options: JSONObject,
        zones: JSONObject,
        scores: list[int],
        result: JSONObject | None,
    ) -> State:
        """The STATE fields every game shares (protocol.md §4); games add their extras."""
        return {
            "game": self.game,
            "players": players,
            "options": options,
            "dealer": state.dealer,
            "phase": state.phase,
            "to_act": state.to_act,
            "round": state.round,
            "zones": zones,
            "scores": scores,
            "result": result,
        }


def check_setup(rules: Rules[Any], players: Any, dealer: Any, options: Any) -> JSONObject:
    """Validate ``new_game`` params against the declaration; return full options."""
    decl = rules.declaration()
    if not isinstance(players, int) or isinstance(players, bool) or players not in decl["players"]:
        raise BadRequest(f"players: {players!r} is not one of {decl['players']}")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise BadRequest(f"dealer: {dealer!r} is not a seat 0..{players - 1}")
    if not isinstance(options, dict):
        raise BadRequest("options: must be an object")
    declared = decl["options"]
    for name, value in options.items():
        if name not in declared:
            raise BadRequest(f"options.{name}: unknown option for {rules.game}")
        allowed = declared[name]
        if isinstance(allowed, dict):
            if not isinstance(value, int) or isinstance(value, bool) or not allowed["min"] <= value <= allowed["max"]:
                raise BadRequest(f"options.{name}: {value!r} is not an integer in {allowed['min']}..{allowed['max']}")
        elif isinstance(value, dict) and "custom" in allowed:
            pass  # an explicit value (Fool's deck); the game's check_options validates it
        elif value not in allowed:
            raise BadRequest(f"options.{name}: {value!r} is not one of {allowed}")
    full = {**rules.defaults(players), **options}
    rules.check_options(players, full)
    return full


def require(move: Move, name: str, kind: type | tuple[type, ...]) -> Any:
    """A move field of the right JSON type, or BadRequest naming the field."""
    if name not in move:
        raise BadRequest(f"move.{name}: missing")
    value = move[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _as_tuple(kind)):
        raise BadRequest(f"move.{name}: {value!r} has the wrong JSON type")
    return value


def require_list(move: Move, name: str, item: type) -> list[Any]:
    """A list field whose items all have the given JSON type."""
    value = require(move, name, list)
    for i, x in enumerate(value):
        if not isinstance(x, item) or (isinstance(x, bool) and item is not bool):
            raise BadRequest(f"move.{name}[{i}]: {x!r} has the wrong JSON type")
    items: list[Any] = value
    return items


def move_type(move: Any) -> str:
    """The move's ``type``; malformed moves are bad requests (protocol.md §2)."""
    if not isinstance(move, dict):
        raise BadRequest("move: must be an object")
    kind: str = require(move, "type", str)
    return kind


def wrong_phase(clause: str, kind: str, phase: str) -> IllegalMove:
    """The error for a move type that does not belong to the current phase."""
    return IllegalMove(clause, f"a {kind!r} move is not allowed in phase {phase!r}")


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


class ReferenceEngine:
    """The ``Engine`` contract over one or more ``Rules`` (default: all four games)."""

    def __init__(self, rules: Iterable[Rules[Any]] | None = None, *, name: str = "ruleproof-reference") -> None:
        if rules is None:  # every game of the registry (``ruleproof.reference.all_rules``, named by SPECS)
            rules = [cast("Rules[Any]", load_factory(s.rules)()) for s in SPECS]
        self._rules = {r.game: r for r in rules}
        self._name = name
        self._game: Rules[Any] | None = None
        self._state: Any = None
        self._legal: list[Move] | None = None

    def hello(self) -> JSONObject:
        return {
            "protocol": PROTOCOL_VERSION,
            "engine": {"name": self._name, "version": __version__},
            "games": {g: r.declaration() for g, r in self._rules.items()},
        }

    def new_game(self, game: str, players: int, dealer: int, options: JSONObject) -> State:
        if game not in self._rules:
            if game in GAMES:
                raise Unsupported(f"game: {game!r} is not implemented by this engine")
            raise BadRequest(f"game: {game!r} is not a game of the contract")
        rules = self._rules[game]
        full = check_setup(rules, players, dealer, options)
        self._game, self._state, self._legal = rules, rules.start(players, dealer, full), None
        return rules.to_json(self._state)

    def legal_moves(self) -> list[Move]:
        rules = self._current()
        if self._legal is None:
            self._legal = rules.legal_moves(self._state)
        return self._legal

    def apply(self, move: Move) -> State:
        rules = self._current()
        new = rules.apply(self._state, move)
        self._state, self._legal = new, None
        return rules.to_json(new)

    def state(self) -> State:
        return self._current().to_json(self._state)

    def close(self) -> None:
        self._game = self._state = self._legal = None

    def _current(self) -> Rules[Any]:
        if self._game is None:
            raise BadRequest("no game: call new_game first")
        return self._game
