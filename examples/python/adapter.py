"""A complete in-process adapter: an engine with its own API, wrapped in the contract.

"Your engine" here is the kit's Black Maria rules object (``BlackMaria``), used the
way you would use a third-party library: it keeps no state of its own (each call
takes a ``BlackMariaState`` and returns a new one) and trusts its caller's setup.
``ruleproof.adapter.Adapter`` does the contract's part: it checks ``new_game``'s setup
against what ``hello`` declares (a value it does not declare is a ``BadRequest``), fills
in the contract's defaults and refuses calls before a game. What is left is the
declaration and the engine's mapping: start, list, play, show.
"""

from __future__ import annotations

from ruleproof.adapter import Adapter as ContractAdapter
from ruleproof.model.engine import JSONObject, Move, State
from ruleproof.reference.black_maria import BlackMaria, BlackMariaState  # stands for "your engine"

SCORING = ["standard", "spades", "spot"]
TARGET = {"min": 1, "max": 1000}


class Adapter(ContractAdapter):
    def __init__(self) -> None:
        super().__init__()
        self.rules = BlackMaria()
        self.table: BlackMariaState | None = None  # your engine's own game object

    def hello(self) -> JSONObject:
        return {
            "protocol": 1,
            "engine": {"name": "example-adapter", "version": "1.0"},
            "games": {"black-maria": {"players": [3, 4], "options": {"scoring": SCORING, "target": TARGET}}},
        }

    def start(self, game: str, players: int, dealer: int, options: JSONObject) -> None:
        self.table = self.rules.start(players, dealer, options)  # options: checked, defaults filled in

    def moves(self) -> list[Move]:
        return self.rules.legal_moves(self._table())

    def play(self, move: Move) -> None:
        # The contract wants IllegalMove(clause, ...) for a move that breaks a rule (the state stays as
        # it was) and BadRequest for a malformed one.  This engine raises those already; map yours here.
        self.table = self.rules.apply(self._table(), move)

    def to_json(self) -> State:
        return self.rules.to_json(self._table())

    def _table(self) -> BlackMariaState:
        assert self.table is not None  # the base class calls these only once a game is started
        return self.table
