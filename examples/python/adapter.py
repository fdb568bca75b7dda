"""A complete in-process adapter: an engine with its own API, wrapped in the contract.

"Your engine" here is the kit's Black Maria rules object (``BlackMaria``), used
the way you would use a third-party library: it has its own state type and its
own calls.  The adapter keeps the current state, translates it to the
contract's JSON STATE, and maps the engine's errors to ``IllegalMove`` /
``BadRequest``.  Certify it with::

    ruleproof certify --engine examples.python.adapter:Adapter --game black-maria
"""

from __future__ import annotations

from typing import Any

from ruleproof.reference.black_maria import BlackMaria  # stands for "your engine"

from ruleproof.engine import BadRequest, IllegalMove, Unsupported


class Adapter:
    """The five methods of ``ruleproof.engine.Engine``, plain JSON in and out."""

    def __init__(self) -> None:
        self.rules = BlackMaria()
        self.game: Any = None  # your engine's own game object

    def hello(self) -> dict[str, Any]:
        return {
            "protocol": 1,
            "engine": {"name": "example-adapter", "version": "1.0"},
            "games": {
                "black-maria": {
                    "players": [3, 4],
                    "options": {"scoring": ["standard", "spades", "spot"], "target": {"min": 1, "max": 1000}},
                }
            },
        }

    def new_game(self, game: str, players: int, dealer: int, options: dict[str, Any]) -> dict[str, Any]:
        if game != "black-maria":
            raise Unsupported(f"game: {game!r} is not implemented here")
        if players not in (3, 4) or not 0 <= dealer < players:
            raise BadRequest(f"players/dealer: {players}/{dealer} is not a Black Maria table")
        full = {"scoring": "standard", **options}
        self.rules.check_options(players, full)  # fills the target for the scheme
        self.game = self.rules.start(players, dealer, full)
        return self.state()

    def legal_moves(self) -> list[dict[str, Any]]:
        return self.rules.legal_moves(self._game())

    def apply(self, move: dict[str, Any]) -> dict[str, Any]:
        # Your engine raises its own exceptions; the contract wants IllegalMove (state unchanged)
        # for a rule-breaking move and BadRequest for a malformed one.  Ours already does.
        try:
            self.game = self.rules.apply(self._game(), move)
        except (IllegalMove, BadRequest):
            raise
        return self.state()

    def state(self) -> dict[str, Any]:
        return self.rules.to_json(self._game())

    def close(self) -> None:
        self.game = None

    def _game(self) -> Any:
        if self.game is None:
            raise BadRequest("no game: call new_game first")
        return self.game
