"""A complete in-process adapter: an engine with its own API, wrapped in the contract.

"Your engine" here is the kit's Black Maria rules object (``BlackMaria``), used the
way you would use a third-party library: it keeps no state of its own (each call
takes a ``BlackMariaState`` and returns a new one) and trusts its caller's setup.
The adapter keeps the current game, checks ``new_game``'s setup against what
``hello`` declares (a value it does not declare is a ``BadRequest``), fills in the
defaults, and gives the engine's state as the contract's JSON STATE.
"""

from __future__ import annotations

from ruleproof.model.engine import BadRequest, JSONObject, Move, State, Unsupported
from ruleproof.reference.black_maria import BlackMaria, BlackMariaState  # stands for "your engine"

SCORING = ["standard", "spades", "spot"]
TARGET = {"min": 1, "max": 1000}


class Adapter:
    """The six methods of ``ruleproof.model.engine.Engine``, plain JSON in and out."""

    def __init__(self) -> None:
        self.rules = BlackMaria()
        self.game: BlackMariaState | None = None  # your engine's own game object

    def hello(self) -> JSONObject:
        return {
            "protocol": 1,
            "engine": {"name": "example-adapter", "version": "1.0"},
            "games": {"black-maria": {"players": [3, 4], "options": {"scoring": SCORING, "target": TARGET}}},
        }

    def new_game(self, game: str, players: int, dealer: int, options: JSONObject) -> State:
        if game != "black-maria":
            raise Unsupported(f"game: {game!r} is not implemented here")
        if players not in (3, 4) or not 0 <= dealer < players:
            raise BadRequest(f"players/dealer: {players}/{dealer} is not a Black Maria table")
        self.game = self.rules.start(players, dealer, self._options(options))
        return self.state()

    def legal_moves(self) -> list[Move]:
        return self.rules.legal_moves(self._game())

    def apply(self, move: Move) -> State:
        # The contract wants IllegalMove(clause, ...) for a move that breaks a rule (the state stays as
        # it was) and BadRequest for a malformed one.  This engine raises those already; map yours here.
        self.game = self.rules.apply(self._game(), move)
        return self.state()

    def state(self) -> State:
        return self.rules.to_json(self._game())

    def close(self) -> None:
        self.game = None

    def _game(self) -> BlackMariaState:
        if self.game is None:
            raise BadRequest("no game: call new_game first")
        return self.game

    def _options(self, options: JSONObject) -> JSONObject:
        """Every option checked against ``hello``; one left out takes the contract's default."""
        unknown = sorted(set(options) - {"scoring", "target"})
        if unknown:
            raise BadRequest(f"options.{unknown[0]}: not an option of black-maria")
        scoring = options.get("scoring", "standard")
        if not isinstance(scoring, str) or scoring not in SCORING:
            raise BadRequest(f"options.scoring: {scoring!r} is not one of {SCORING}")
        target = options.get("target", self.rules.default_target(scoring))  # 500 for spot, else 100
        if type(target) is not int or not TARGET["min"] <= target <= TARGET["max"]:
            raise BadRequest(f"options.target: {target!r} is not an integer in 1..1000")
        return {"scoring": scoring, "target": target}
