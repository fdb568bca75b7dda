"""``FoolProperties``: the hooks of the kit (setups, deals, moves, probes, the first state) and what the
checks of one game share (the trick completed in a step, the cards the seat to act may play).

The checks themselves live in the ``check_*`` modules, registered on ``checks`` in the order the
package imports them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from hypothesis import strategies as st

from ruleproof.model.engine import JSONObject
from ruleproof.model.findings import Setup
from ruleproof.model.notation import FOOL_WILD
from ruleproof.properties import draws
from ruleproof.properties.base import GameProperties, IntRange
from ruleproof.properties.checks import CheckRegistry
from ruleproof.properties.fool.cards import (
    BOX,
    DEFAULTS,
    GAME,
    deck_cards,
    deck_size,
    fool_count,
    hand_size,
    play,
    profile,
)
from ruleproof.properties.fool.conservation import conservation
from ruleproof.properties.fool.probes import bad_moves
from ruleproof.properties.fool.strategies import arranged, favourites, steer
from ruleproof.properties.fool.strategies import setups as declared_setups
from ruleproof.properties.fool.trick import Trick
from ruleproof.properties.options import judge_start
from ruleproof.properties.snapshot import Snapshot, Step

checks = CheckRegistry()
PLAYER_COUNTS = tuple(f"{n} players" for n in range(4, 9))  # FOOL-SETUP-1


class FoolProperties(GameProperties):
    game: ClassVar[str] = GAME
    deal_clause: ClassVar[str] = "FOOL-DEAL-1"
    checks: ClassVar[CheckRegistry] = checks
    ordered_zones = frozenset({"trick"})
    option_clauses: ClassVar[dict[tuple[str, Any], tuple[str, ...]]] = {}
    # FOOL-OFF-1 defines "off-colour"; an engine that misreads it fails FOOL-WORST-2 or FOOL-WILD-2
    covered_only = frozenset({"FOOL-OFF-1"})
    # a steered game (choose) plays 6 rounds of h tricks of n-k cards to a sixth +10: 220 to 370 plays
    step_scale: ClassVar[float] = 1.5

    # the readings of the game end: which of the two end conditions fired (or neither), and a shared win
    situations: ClassVar[dict[str, tuple[str, ...]]] = {
        "FOOL-GAME-1": ("continues", "ends-by-loss", "ends-by-sixth-ten"),
        "FOOL-GAME-2": ("unique-highest", "tie-for-highest"),
        # each player count is a table of its own (its deck P(n), its size, its hands, its discs): an engine
        # that declares only some counts leaves the others unjudged
        "FOOL-SETUP-1": PLAYER_COUNTS,
        "FOOL-SETUP-3": PLAYER_COUNTS,
        "FOOL-SETUP-4": ("12n cards", "88 cards at 8 players"),
        "FOOL-SETUP-5": ("1 disc", "2 discs"),
        "FOOL-DEAL-1": ("12 cards each", "11 cards each"),
    }

    def __init__(self, setup: Setup, ledger: Any) -> None:
        super().__init__(setup, ledger)
        n = setup.players
        opts = {**DEFAULTS, **setup.options}
        self.n = n
        self.profile = profile(n, opts["deck"])
        self.deck = deck_cards(self.profile)
        self.deck_count: Counter[str] = Counter(self.deck)
        self.unused: Counter[str] = BOX - self.deck_count
        self.unused_sorted = sorted(self.unused.elements())
        self.k = fool_count(n, int(opts["two_fools_from"]))
        self.h = hand_size(n)
        self.size = deck_size(n)
        self.hand_zones = [f"hand/{s}" for s in range(n)]  # zone names, built once: the checks read them every step
        self.loss = opts["loss"]
        # the messages of the per-step checks FOOL-SETUP-4/-5, formatted once per game rather than on every snapshot
        self.setup4_message = f"the round deck has 12n cards (88 at 8 players): {self.size}"
        self.setup5_message = f"k(n) = {self.k} disc(s) in use: at most that many are held, each by a different seat"
        self.tricks = 0  # tricks the engine completed this round (completed)
        self.first = True  # the current step's trick is the round's first (completed)
        self.done = False  # the engine completed a trick in the current step (completed)
        self.trick_step: Step | None = None  # the step `trick_view` was worked out for (completed)
        self.trick_view: Trick | None = None
        self.allowed_in: Snapshot | None = None  # the snapshot `allowed` was worked out for (allowed_cards)
        self.allowed: tuple[set[str], str] = (set(), "")
        self.favourites: tuple[int, ...] | None = None  # the seats this game steers to go out (choose); None: undrawn

    # -- what to draw ------------------------------------------------------------------
    options_contract: ClassVar[dict[str, list[Any] | IntRange]] = {
        "deck": ["assumed-2018"],
        "two_fools_from": [7, 8],
        "loss": ["net", "gross"],
    }

    @classmethod
    def default_options(cls, players: int, sent: JSONObject) -> JSONObject:
        return {"deck": "assumed-2018", "two_fools_from": 7, "loss": "net"}

    @classmethod
    def setups(cls, declared: dict[str, Any]) -> st.SearchStrategy[Setup]:
        return declared_setups(declared)

    def deal(self, snap: Snapshot, data: st.DataObject) -> dict[str, Any]:
        """A shuffled deal; in a steered game (drawn once, at its first deal) the favourite seats hold
        high cards of every colour, so that they win tricks, are never fools and go out each round."""
        if self.favourites is None:
            self.favourites = favourites(self.n, data.draw(st.integers(0, 99), label="steering"))
        cards = data.draw(draws.shuffled(self.deck), label="deal")
        return {"type": "deal", "hands": arranged(cards, self.favourites, self.n, self.h)}

    def choose(self, snap: Snapshot, pick: int, data: st.DataObject) -> dict[str, Any]:
        """A steered game plays for its favourites (``steer``); the others pick by index into the
        engine's list, now and then (1 in 4) the 1 when listed, to reach ties of 1s."""
        n = len(snap.moves)
        if self.favourites:
            card = steer(self, snap)
            if card is not None:
                return play(card)
        if (pick // n) % 4 == 0:
            for m in snap.moves:
                if m.get("card") == FOOL_WILD:
                    return m
        return snap.moves[pick % n]

    @checks.hook(
        "FOOL-SETUP-2", "FOOL-SETUP-3", "FOOL-DEAL-1", "FOOL-COLOUR-1", "FOOL-FOLLOW-1", "FOOL-END-1", "FOOL-INV-1"
    )
    def illegal_moves(self, snap: Snapshot) -> Sequence[tuple[dict[str, Any], str]]:
        """The probes of ``probes.bad_moves``, each with the clause it breaks."""
        return bad_moves(self, snap)

    # -- checks on the state right after new_game --------------------------------------------
    @checks.hook(
        "FOOL-SETUP-1",
        "FOOL-SETUP-2",
        "FOOL-SETUP-3",
        "FOOL-SETUP-4",
        "FOOL-SETUP-5",
        "FOOL-INV-1",
        "FOOL-INV-2",
        "CONTRACT-SETUP-2",
        "CONTRACT-SETUP-3",
    )
    def start(self, snap: Snapshot) -> None:
        judge_start(self, snap)  # CONTRACT-SETUP-2/-3 on the kit's setup probes
        four_to_eight = 4 <= snap.players <= 8
        self.expect(
            "FOOL-SETUP-1",
            four_to_eight,
            "Fool is for 4 to 8 players",
            "4..8",
            snap.players,
            observed=("players",),
        )
        if four_to_eight:
            for clause in ("FOOL-SETUP-1", "FOOL-SETUP-3"):
                self.situation(clause, f"{snap.players} players")
            self.situation("FOOL-SETUP-4", "88 cards at 8 players" if snap.players == 8 else "12n cards")
        conservation(self, snap)
        n = self.n
        zeros = [0] * n
        got = {"scores": snap.scores, "tens": snap.get("tens"), "fools": snap.get("fools")}
        self.expect(
            "FOOL-INV-2",
            got == {"scores": zeros, "tens": zeros, "fools": []},
            "a new game starts with zero totals, zero tallies and no disc held",
            {"scores": zeros, "tens": zeros, "fools": []},
            got,
            observed=lambda: {k for k, v in got.items() if v != ([] if k == "fools" else zeros)},
            rule="a new game at zero",
        )
