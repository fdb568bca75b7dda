"""What every in-process adapter needs, written once: an adapter is its engine's mapping and nothing else.

The contract (docs/protocol.md) asks an engine to refuse a ``new_game`` it was not built for and to
fill in what was left out: a game it does not declare is ``unsupported``, a player count, a dealer
or an option value outside what its ``hello`` declares is ``bad_request`` (CONTRACT-SETUP-2), and an
option left out takes the contract's default (CONTRACT-SETUP-3), which the state echoes.  Any call
before ``new_game`` is ``bad_request``.  ``Adapter`` does all of that from the engine's own
``hello``; a subclass writes that declaration and maps its engine in four methods::

    from ruleproof.adapter import Adapter, IllegalMove

    class MyAdapter(Adapter):
        def hello(self):
            return {"protocol": 1, "engine": {"name": "mygame", "version": "1.0"},
                    "games": {"black-maria": {"players": [3, 4], "options": {"scoring": ["standard"]}}}}

        def start(self, game, players, dealer, options):  # options: checked, every one filled in
            self.table = mygame.Table(players, dealer, **options)

        def moves(self):
            return [to_json_move(m) for m in self.table.legal_moves()]

        def play(self, move):  # raise IllegalMove(clause, why) for a move the rules forbid
            self.table.play(from_json_move(move))

        def to_json(self):
            return to_json_state(self.table)

``check_setup`` is the same check for an adapter that keeps its own class.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ruleproof import GAMES
from ruleproof.model.engine import BadRequest, IllegalMove, InternalError, JSONObject, Move, State, Unsupported

__all__ = [
    "Adapter",
    "BadRequest",
    "IllegalMove",
    "InternalError",
    "Unsupported",
    "check_setup",
    "contract_defaults",
]


def contract_defaults(game: str, players: int, sent: Mapping[str, Any]) -> JSONObject:
    """The contract's default of every option of ``game`` (docs/rules/GAME.md, "Options of the
    contract"), some of which depend on the player count or on an option ``sent``."""
    from ruleproof.properties import properties_for  # the contract's own table, not a rules engine

    return dict(properties_for(game).default_options(players, dict(sent)))


def check_setup(declared: Mapping[str, Any], game: str, players: Any, dealer: Any, options: Any) -> JSONObject:
    """``new_game``'s setup checked against ``declared`` (the engine's ``hello`` entry for ``game``:
    ``players``, ``options``); the options returned with the contract's defaults filled in.

    Raises ``BadRequest`` naming the field, as the contract asks: a player count not declared, a
    dealer that is not a seat, options that are not an object, an option not declared, a value of the
    wrong JSON type or outside the declared values or range."""
    if not _is_int(players) or players not in declared.get("players", ()):
        raise BadRequest(f"players: {players!r} is not one of {list(declared.get('players', ()))}")
    if not _is_int(dealer) or not 0 <= dealer < players:
        raise BadRequest(f"dealer: {dealer!r} is not a seat 0..{players - 1}")
    if not isinstance(options, dict):
        raise BadRequest(f"options: {options!r} is not an object")
    allowed_options: Mapping[str, Any] = declared.get("options") or {}
    for name, value in options.items():
        if name not in allowed_options:
            raise BadRequest(f"options.{name}: not an option this engine declares for {game}")
        _check_value(f"options.{name}", allowed_options[name], value)
    return {**_defaults_played(game, players, options, allowed_options), **options}


def _defaults_played(game: str, players: int, sent: Mapping[str, Any], declared: Mapping[str, Any]) -> JSONObject:
    """The contract's defaults an engine's setup holds: a house rule's only where the engine declares it (one
    it does not declare is never sent and never echoed; it plays the documents' rule)."""
    from ruleproof.properties import properties_for

    props = properties_for(game)
    return {
        k: v for k, v in contract_defaults(game, players, sent).items() if k not in props.house_options or k in declared
    }


def _check_value(field: str, allowed: Any, value: Any) -> None:
    if isinstance(allowed, Mapping) and "min" in allowed:  # an integer range {"min": a, "max": b}
        if not _is_int(value) or not allowed["min"] <= value <= allowed.get("max", value):
            raise BadRequest(f"{field}: {value!r} is not an integer in {allowed['min']}..{allowed.get('max', '')}")
    elif isinstance(value, dict) and "custom" in allowed:
        return  # an explicit value (Fool's own deck), which the engine itself reads and checks
    elif not any(type(value) is type(a) and value == a for a in allowed):  # True is not 1, "7" is not 7
        raise BadRequest(f"{field}: {value!r} is not one of {list(allowed)}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Adapter:
    """The contract's six methods around an engine; a subclass writes ``hello`` (what the engine
    declares) and maps its engine in ``start``, ``moves``, ``play`` and ``to_json`` (``stop`` too, if
    it holds something to release).  ``new_game`` checks the setup against ``hello`` (``check_setup``)
    before ``start``; ``legal_moves``, ``apply`` and ``state`` before a game answer ``bad_request``."""

    def __init__(self) -> None:
        self.game: str | None = None  # the game started, None before new_game

    # -- what a subclass writes: the declaration and the engine's mapping ------------------------
    def hello(self) -> JSONObject:
        """``{"protocol": 1, "engine": {"name", "version"}, "games": {GAME: {"players", "options"}}}``."""
        raise NotImplementedError(f"{type(self).__name__}.hello: declare your engine's games here")

    def start(self, game: str, players: int, dealer: int, options: JSONObject) -> None:
        """Start a game in phase ``deal``; ``options`` holds every option, checked."""
        raise NotImplementedError(f"{type(self).__name__}.start: start your engine's game here")

    def moves(self) -> list[Move]:
        """Every distinct legal move of whoever acts, as the contract's JSON."""
        raise NotImplementedError(f"{type(self).__name__}.moves: list your engine's legal moves here")

    def play(self, move: Move) -> None:
        """Apply a move (a deal included); ``IllegalMove`` for one the rules forbid, the game unchanged."""
        raise NotImplementedError(f"{type(self).__name__}.play: apply a move to your engine here")

    def to_json(self) -> State:
        """The current game as the contract's STATE (docs/protocol.md §5)."""
        raise NotImplementedError(f"{type(self).__name__}.to_json: give your engine's state here")

    def stop(self) -> None:
        """Release what the engine holds (``close``)."""

    # -- the contract ------------------------------------------------------------------------
    def new_game(self, game: str, players: int, dealer: int, options: JSONObject) -> State:
        if game not in GAMES:
            raise BadRequest(f"game: {game!r} is not a game of the contract ({', '.join(GAMES)})")
        declared: Mapping[str, Any] = self.hello().get("games") or {}
        if game not in declared:
            raise Unsupported(f"game: {game!r} is not one this engine plays (it declares {sorted(declared)})")
        full = check_setup(declared[game], game, players, dealer, options)
        self.start(game, players, dealer, full)
        self.game = game
        return self.to_json()

    def legal_moves(self) -> list[Move]:
        self._started()
        return self.moves()

    def apply(self, move: Move) -> State:
        self._started()
        self.play(move)
        return self.to_json()

    def state(self) -> State:
        self._started()
        return self.to_json()

    def close(self) -> None:
        self.stop()
        self.game = None

    def _started(self) -> None:
        if self.game is None:
            raise BadRequest("no game: call new_game first")
