"""OpenSpiel's Hearts (PyPI ``open_spiel``) certified as Black Maria, exposed as it is.

The adapter translates and decides nothing about the rules: OpenSpiel's
``legal_actions`` are the legal moves, and a move is accepted exactly when
they hold it; its ``points`` are the scores and its ``returns`` name the
winners.  What OpenSpiel plays differs from Black Maria in a few house rules;
the adapter declares them as Black Maria's house options in ``hello``
(``HOUSE_RULES``), so each is judged under its own clause, and what no option
expresses is declared in ``expect.toml`` next to this file:
``ruleproof certify --engine examples.openspiel.hearts:OpenSpielHearts --expect
examples/openspiel/expect.toml`` exits 0 while every other clause holds.

Translation, and why each piece is translation and not a rule:

- seats: OpenSpiel has no dealer.  Its player 0 (North) is placed on the
  dealer's left, ``seat = (player + dealer + 1) % 4``, so its fixed order of
  passing (0, 1, 2, 3) is the contract's "from the dealer's left, the dealer last";
- dealing: the kit's deal is fed as OpenSpiel's chance actions.  OpenSpiel
  first draws the pass direction by chance; the kit's deal does not say, so the
  adapter feeds "Left", the first hand of a game of Hearts.  OpenSpiel then gives
  the k-th card dealt to player ``k % 4``, so the hands are fed interleaved;
- a ``pass`` move of three cards is OpenSpiel's three one-card pass actions;
  its legal ``pass`` moves are the 3-card sets of OpenSpiel's legal pass actions;
- a game: OpenSpiel plays one hand.  That is a Black Maria game to target 1
  (after any hand some total is at least 1), the only target declared;
- the winner of the 13th trick: OpenSpiel names every trick's winner by
  letting it lead the next trick, but the last trick has no next one, so the
  adapter files it under the highest card of the suit led.  This is the one
  place the adapter reads a rule itself; it moves no points (the scores are
  OpenSpiel's), only cards between ``won/N`` zones.
"""

from __future__ import annotations

import itertools
import json
from importlib.metadata import version
from typing import Any

import pyspiel

from ruleproof.model.engine import BadRequest, IllegalMove, Unsupported

GAME = "black-maria"
PLAYERS = 4
LEFT = 1  # OpenSpiel's pass-direction chance outcomes: 0 no pass, 1 left, 2 across, 3 right
SEAT_LETTERS = "NESW"  # OpenSpiel's players 0..3 in its JSON
RANKS = "23456789TJQKA"
PHASE_CLAUSE = {"deal": "BM-DEAL-1", "pass": "BM-PASS-1", "play": "BM-FOLLOW-1", "over": "BM-END-1"}
# The house rules OpenSpiel's Hearts plays with its default parameters, declared as Black Maria's
# house options (docs/rules/black-maria.md "House rules") so that the kit judges each of them:
HOUSE_RULES: dict[str, Any] = {
    "pass": "left",  # one hand, its pass direction fed as "Left" (pass_cards=true)
    "first_lead": "two_clubs",  # the holder of the 2C leads the first trick
    "first_trick": "lowest_club",  # ... and leads the 2C (can_lead_any_club=false)
    "no_points_first_trick": True,  # no heart nor the QS on the first trick (no_pts_on_first_trick=true)
    "hearts_broken": "hearts_or_queen",  # must_break_hearts=true, qs_breaks_hearts=true
    "moon": "others_score",  # shooting the moon: 0 for the shooter, 26 for each other player
}


class OpenSpielHearts:
    """The contract's five methods over one ``pyspiel`` Hearts state."""

    def __init__(self) -> None:
        self.game = pyspiel.load_game("hearts")
        self.spiel: Any = None  # the pyspiel.hearts.HeartsState being played
        self.dealer = 0
        probe = self.game.new_initial_state()
        probe.apply_action(LEFT)
        self.card_action = {probe.action_to_string(a): a for a in probe.legal_actions()}  # "QS" -> OpenSpiel action

    def hello(self) -> dict[str, Any]:
        return {
            "protocol": 1,
            "engine": {"name": "open_spiel-hearts", "version": version("open_spiel")},
            "games": {
                GAME: {
                    "players": [PLAYERS],
                    "options": {
                        "scoring": ["standard"],
                        "target": {"min": 1, "max": 1},
                        **{name: [value] for name, value in HOUSE_RULES.items()},
                    },
                }
            },
        }

    def new_game(self, game: str, players: int, dealer: int, options: dict[str, Any]) -> dict[str, Any]:
        if game != GAME:
            raise Unsupported(f"game: {game!r} is not OpenSpiel's Hearts")
        if players != PLAYERS:
            raise (Unsupported if players == 3 else BadRequest)(
                f"players: OpenSpiel's Hearts has 4 players, not {players}"
            )
        if not isinstance(dealer, int) or not 0 <= dealer < PLAYERS:
            raise BadRequest(f"dealer: {dealer!r} is not a seat of 4")
        unknown = set(options) - {"scoring", "target", *HOUSE_RULES}
        if unknown:
            raise BadRequest(f"options: unknown {', '.join(sorted(unknown))}")
        for name, value in HOUSE_RULES.items():
            sent = options.get(name, value)
            if sent != value or type(sent) is not type(value):
                raise BadRequest(f"options.{name}: OpenSpiel's Hearts plays {value!r}, not {sent!r}")
        if options.get("scoring", "standard") != "standard":
            raise BadRequest(
                f"options.scoring: OpenSpiel scores hearts 1 and the QS 13 only, not {options['scoring']!r}"
            )
        target = options.get("target", 1)
        if type(target) is not int or target != 1:  # True == 1 in Python: a bool is the wrong type (CONTRACT-SETUP-2)
            raise BadRequest(f"options.target: OpenSpiel plays one hand, a game to target 1, not {options['target']!r}")
        self.spiel = self.game.new_initial_state()
        self.dealer = dealer
        return self.state_json()

    # --- seats and phases -------------------------------------------------

    def seat(self, player: int) -> int:
        return (player + self.dealer + 1) % PLAYERS

    def player(self, seat: int) -> int:
        return (seat - self.dealer - 1) % PLAYERS

    def phase(self) -> str:
        s = self._game_state()
        if s.is_terminal():
            return "over"
        if s.is_chance_node():
            return "deal"
        return "pass" if json.loads(s.to_json())["phase"] == "Pass" else "play"

    # --- moves ----------------------------------------------------------------

    def legal_moves(self) -> list[dict[str, Any]]:
        s = self._game_state()
        phase = self.phase()
        if phase == "pass":
            cards = [s.action_to_string(a) for a in s.legal_actions()]
            return [{"type": "pass", "cards": list(c)} for c in itertools.combinations(cards, 3)]
        if phase == "play":
            return [{"type": "play", "card": s.action_to_string(a)} for a in s.legal_actions()]
        return []

    def apply(self, move: dict[str, Any]) -> dict[str, Any]:
        s = self._game_state()
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise BadRequest("move: must be an object with a string `type`")
        phase = self.phase()
        clause = PHASE_CLAUSE[phase]
        if phase == "over":
            raise IllegalMove(clause, "the game is over")
        expected = {"deal": "deal", "pass": "pass", "play": "play"}[phase]
        if move["type"] != expected:
            raise IllegalMove(clause, f"a {move['type']!r} move in phase {phase}")
        actions = {"deal": self._deal_actions, "pass": self._pass_actions, "play": self._play_actions}[phase](
            move, clause
        )
        after = s.clone()  # a refused move must leave the game as it was: work on a copy
        for action in actions:
            # OpenSpiel decides what is legal: its own list (its apply_action_with_legality_check
            # checks the same list, but also logs every refusal to stderr from C++)
            if action not in after.legal_actions():
                raise IllegalMove(
                    clause, f"OpenSpiel does not list {after.action_to_string(action)} here: {json.dumps(move)} refused"
                )
            after.apply_action(action)
        self.spiel = after
        return self.state_json()

    def _deal_actions(self, move: dict[str, Any], clause: str) -> list[int]:
        hands = move.get("hands")
        if not isinstance(hands, list) or not all(
            isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands
        ):
            raise BadRequest("move.hands: must be a list of lists of card strings")
        if len(hands) != PLAYERS or any(len(h) != 13 for h in hands):
            raise IllegalMove(clause, f"a deal is 4 hands of 13 cards, got sizes {[len(h) for h in hands]}")
        by_player = [hands[self.seat(p)] for p in range(PLAYERS)]
        cards = [by_player[p][i] for i in range(13) for p in range(PLAYERS)]  # OpenSpiel deals card k to player k % 4
        return [LEFT, *(self._action(c, clause) for c in cards)]

    def _pass_actions(self, move: dict[str, Any], clause: str) -> list[int]:
        cards = move.get("cards")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise BadRequest("move.cards: must be a list of card strings")
        if len(cards) != 3:
            raise IllegalMove(clause, f"a pass is 3 cards, not {len(cards)}")
        return [self._action(c, clause) for c in cards]

    def _play_actions(self, move: dict[str, Any], clause: str) -> list[int]:
        card = move.get("card")
        if not isinstance(card, str):
            raise BadRequest("move.card: must be a card string")
        return [self._action(card, clause)]

    def _action(self, card: str, clause: str) -> int:
        if card not in self.card_action:
            raise IllegalMove(clause, f"{card!r} names no card")
        return self.card_action[card]

    # --- the STATE of the contract -------------------------------------------

    def state(self) -> dict[str, Any]:
        return self.state_json()

    def state_json(self) -> dict[str, Any]:
        s = self._game_state()
        phase = self.phase()
        zones: dict[str, list[str]] = {
            f"{kind}/{seat}": [] for kind in ("hand", "passing", "won") for seat in range(PLAYERS)
        }
        zones["trick"] = []
        scores = [0] * PLAYERS
        to_act = leader = result = None
        trick_seats: list[int] = []
        if phase == "deal":
            zones["deck"] = list(self.card_action)
        else:
            os = json.loads(s.to_json())
            for p in range(PLAYERS):
                zones[f"hand/{self.seat(p)}"] = os["hands"][p]
                if phase == "pass":
                    zones[f"passing/{self.seat(p)}"] = os["passed_cards"][p]
                scores[self.seat(p)] = s.points(p)
            tricks = [[(self.seat(SEAT_LETTERS.index(w)), c) for w, c in t] for t in os["tricks"]]
            done = [t for t in tricks if len(t) == PLAYERS]
            for k, trick in enumerate(done):
                winner = tricks[k + 1][0][0] if k + 1 < len(tricks) else self._last_winner(s, trick)
                zones[f"won/{winner}"] += [c for _, c in trick]
            current = tricks[-1] if tricks and len(tricks[-1]) < PLAYERS else []
            zones["trick"] = [c for _, c in current]
            trick_seats = [seat for seat, _ in current]
            if phase != "over":
                to_act = self.seat(s.current_player())
            if phase == "play":
                leader = current[0][0] if current else to_act
            if phase == "over":
                returns = s.returns()  # OpenSpiel's own utilities: the best return wins
                best = max(returns)
                result = {"winners": sorted(self.seat(p) for p in range(PLAYERS) if returns[p] == best)}
        return {
            "game": GAME,
            "players": PLAYERS,
            "options": {"scoring": "standard", "target": 1, **HOUSE_RULES},
            "dealer": self.dealer,
            "phase": phase,
            "to_act": to_act,
            "round": 0 if phase == "deal" else 1,
            "zones": {name: cards for name, cards in zones.items() if cards},
            "scores": scores,
            "result": result,
            "trick_seats": trick_seats,
            "leader": leader,
        }

    def _last_winner(self, s: Any, trick: list[tuple[int, str]]) -> int:
        """The 13th trick's winner, which OpenSpiel does not expose (see the module's docstring)."""
        if not s.is_terminal():  # a finished trick with no next one yet: its winner is OpenSpiel's next player
            return self.seat(s.current_player())
        led = trick[0][1][1]
        return max((RANKS.index(c[0]), seat) for seat, c in trick if c[1] == led)[1]

    def _game_state(self) -> Any:
        if self.spiel is None:
            raise BadRequest("no game: call new_game first")
        return self.spiel

    def close(self) -> None:
        self.spiel = None
