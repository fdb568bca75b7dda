"""``BlackMariaProperties``: the kit's hooks (setups, deals, moves, probes, the first state) and what the
checks of one game share.

What the checks keep between steps is the engine's own state at the step that set it: the hands as
dealt and the totals at the deal, the cards each seat passed (its moves), the way the first round
passed, whether a round was scored by the scheme chosen.  The checks live in the ``check_*`` modules,
registered on ``checks`` in the order the package imports them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from hypothesis import strategies as st

from ruleproof.model import observed as seen
from ruleproof.model.engine import JSONObject, Move
from ruleproof.model.findings import Setup
from ruleproof.properties.base import GameProperties, IntRange, declared_values, pair_name
from ruleproof.properties.black_maria.cards import DEFAULT_TARGET, GAME
from ruleproof.properties.black_maria.conservation import conservation
from ruleproof.properties.black_maria.house import HOUSE_DEFAULTS, HOUSE_OPTIONS, MOON_TARGET, House
from ruleproof.properties.black_maria.listing import listing_clause
from ruleproof.properties.black_maria.probes import bad_moves
from ruleproof.properties.black_maria.strategies import Steering, deal_from, draw_setups
from ruleproof.properties.checks import CheckRegistry
from ruleproof.properties.options import judge_start
from ruleproof.properties.snapshot import Snapshot

checks = CheckRegistry()


class BlackMariaProperties(GameProperties):
    game: ClassVar[str] = GAME
    deal_clause: ClassVar[str] = "BM-DEAL-1"
    checks: ClassVar[CheckRegistry] = checks
    ordered_zones = frozenset({"trick"})
    option_clauses: ClassVar[dict[tuple[str, Any], tuple[str, ...]]] = {
        ("scoring", "spades"): ("BM-SCORE-2",),
        ("scoring", "spot"): ("BM-SCORE-3",),
        # the house rules (docs/rules/black-maria.md "House rules"): a clause is judged when some value
        # that plays it is declared; a round that passes needs a direction that passes
        ("pass", "right"): ("BM-PASS-1", "BM-PASS-2", "BM-PASS-3"),
        **{("pass", way): ("BM-PASS-1", "BM-PASS-2", "BM-PASS-4") for way in ("left", "across", "rotate")},
        ("pass", "none"): ("BM-PASS-4",),
        ("first_lead", "two_clubs"): ("BM-LEAD-3",),
        ("first_trick", "lowest_club"): ("BM-LEAD-4",),
        ("first_trick", "any_club"): ("BM-LEAD-4",),
        ("no_points_first_trick", True): ("BM-LEAD-5",),
        ("hearts_broken", "hearts"): ("BM-LEAD-6",),
        ("hearts_broken", "hearts_or_queen"): ("BM-LEAD-6",),
        ("moon", "others_score"): ("BM-SCORE-6",),
        ("moon", "shooter_minus"): ("BM-SCORE-6",),
    }
    # the house options whose values interact with another's: the first leader depends on the cards
    # the pass moved (and a hold round's on the deal), the first trick's club on who leads it
    paired: ClassVar[dict[str, tuple[tuple[str, str], ...]]] = {
        "BM-PASS-4": (("pass", "first_lead"),),
        "BM-LEAD-3": (("first_lead", "pass"),),
        "BM-LEAD-4": (("first_trick", "first_lead"),),
    }
    house_options: ClassVar[frozenset[str]] = frozenset(HOUSE_OPTIONS)
    # the readings each clause tells apart: `>=` against `>` shows only on a total exactly at the
    # target; "ties share the win" only on a tie for the lowest total (docs/rules/black-maria.md)
    situations: ClassVar[dict[str, tuple[str, ...]]] = {
        "BM-END-1": ("continues", "ends-above-target", "ends-at-target"),
        "BM-END-2": ("unique-lowest", "tie-for-lowest"),
        # each player count has its own pack and hand size: an engine of one count leaves the other unjudged
        "BM-SETUP-1": ("3 players", "4 players"),
        "BM-DEAL-1": ("3 players", "4 players"),
    }
    # whole games to a target of 100 take some 5 rounds of ~60 steps even when one seat takes most
    # penalty cards (the steering): an engine that only plays to 100 still gets its game end judged
    step_scale: ClassVar[float] = 1.5
    options_contract: ClassVar[dict[str, list[Any] | IntRange]] = {
        "scoring": ["standard", "spades", "spot"],
        "target": IntRange(1),
        **HOUSE_OPTIONS,
    }

    def __init__(self, setup: Setup, ledger: Any) -> None:
        super().__init__(setup, ledger)
        n = setup.players
        self.n = n
        # an option left out of new_game takes the document's default (protocol.md §2)
        self.scheme: str = setup.options.get("scoring", "standard")
        self.target: int = setup.options.get("target", DEFAULT_TARGET[self.scheme])
        self.dealt: list[Counter[str]] = []  # each seat's hand in the engine's state after this round's deal
        self.passed: dict[int, list[str]] = {}  # seat -> the cards its pass move named
        self.round_scores: list[int] = [0] * n  # the engine's totals when this round was dealt
        self.direction: str | None = None  # the way the engine passed in the first round (BM-PASS-1 vs -3)
        self.moon_shot: int | None = None  # this round's shooter under a moon rule (-1: scored as one wrongly)
        self.scored = False  # a round of this game was scored by the scheme chosen (BM-SCORE-5 vs -1/2/3)
        self.house = House.of(setup.options)
        self.steering = Steering(n, self.scheme, self.house.passing)

    # -- what to draw ------------------------------------------------------------------
    @classmethod
    def default_options(cls, players: int, sent: JSONObject) -> JSONObject:
        # spot scoring plays to 500 by default (BM-AMB-5)
        return {"scoring": "standard", "target": 500 if sent.get("scoring") == "spot" else 100, **HOUSE_DEFAULTS}

    @classmethod
    def situations_for(cls, declared: JSONObject) -> dict[str, tuple[str, ...]]:
        """With the pairs of ``paired``, a moon rule's shot with the target: under ``others_score`` a shot
        can take the others to the target and end the game (a shot under ``shooter_minus`` raises no
        total, so it never ends one)."""
        out = super().situations_for(declared)
        moons = [m for m in declared_values(cls, declared).get("moon", []) if m != "none"]
        names = [pair_name("moon", m, "target", r) for m in moons for r in MOON_TARGET[m]]
        if names:
            out["BM-SCORE-6"] = (*out.get("BM-SCORE-6", ()), *names)
        return out

    @classmethod
    def long_odds(cls, declared: JSONObject) -> int:
        """An engine that declares no target below 50 (a Hearts program that plays to 100) gets every other
        example long: a game to 100 takes some five rounds of sixty steps, more than a short example."""
        target = (declared.get("options") or {}).get("target")
        lowest = target["min"] if isinstance(target, dict) else min(target) if isinstance(target, list) else 100
        return 2 if isinstance(lowest, int) and lowest >= 50 else 4

    @classmethod
    def setups(cls, declared: dict[str, Any]) -> st.SearchStrategy[Setup]:
        return draw_setups(declared)

    def deal(self, snap: Snapshot, data: st.DataObject) -> dict[str, Any]:
        return deal_from(self.n, data)

    def choose(self, snap: Snapshot, pick: int, data: st.DataObject) -> Move:
        return self.steering.choose(snap, pick)

    @checks.hook("BM-DEAL-1", "BM-PASS-1", "BM-FOLLOW-1", "BM-LEAD-4", "BM-LEAD-5", "BM-LEAD-6")
    def illegal_moves(self, snap: Snapshot) -> Sequence[tuple[dict[str, Any], str]]:
        return bad_moves(self.n, snap, self.house)

    # -- state checks ------------------------------------------------------------------
    @checks.hook("BM-SETUP-1", "BM-DEAL-1", "BM-DEAL-2", "BM-INV-1", "CONTRACT-SETUP-2", "CONTRACT-SETUP-3")
    def start(self, snap: Snapshot) -> None:
        """The first state: the options (CONTRACT-SETUP-2/-3 on the kit's setup probes), the pack, the
        player count, and the first dealer: the one drawn (BM-DEAL-2: "the first dealer is random")."""
        judge_start(self, snap)
        conservation(self, snap, self.n)
        if snap.players in (3, 4):
            self.situation("BM-SETUP-1", f"{snap.players} players")
            self.situation("BM-DEAL-1", f"{snap.players} players")
        self.expect(
            "BM-SETUP-1",
            snap.players in (3, 4),
            "Black Maria is for 3 or 4 players",
            "3 or 4",
            snap.players,
            observed=("players",),
        )
        self.expect(
            "BM-DEAL-2",
            snap.get("dealer") == self.setup.dealer,
            "the first dealer is the one drawn for the game (the `dealer` of new_game)",
            self.setup.dealer,
            snap.get("dealer"),
            observed=(seen.DEALER,),
        )

    def listing_clause(self, snap: Snapshot, missing: Sequence[Move], extra: Sequence[Move]) -> str | None:
        return listing_clause(snap, self.n, self.house, list(missing), list(extra))

    @checks.hook("BM-INV-1", "BM-DEAL-1")
    def after_rejection(self, snap: Snapshot, move: Move, clause: str) -> None:
        """The state a refusal left (the session hands over the state the engine shows now): a refusal
        that lost or duplicated a card broke conservation in that step."""
        conservation(self, snap, self.n)
