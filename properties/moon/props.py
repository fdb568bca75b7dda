"""``MoonProperties``: the hooks of the kit (setups, deals, moves, probes, the first state) and what the
checks of one game share (the options, the first bidder, the widow, the hand's play policy, the
readings this engine has shown).

The checks themselves live in the ``check_*`` modules, registered on ``checks`` in the order the
package imports them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from hypothesis import strategies as st

from ruleproof.model.engine import JSONObject, Move
from ruleproof.model.findings import Setup
from ruleproof.model.notation import MOON_TILES
from ruleproof.properties import draws
from ruleproof.properties.base import GameProperties, IntRange
from ruleproof.properties.checks import CheckRegistry
from ruleproof.properties.moon.listing import listing_clause
from ruleproof.properties.moon.probes import bad_bids, bad_deals, bad_discards, bad_plays, bad_trumps
from ruleproof.properties.moon.state import conservation, declarer_of, hand_of
from ruleproof.properties.moon.strategies import STEER_OVER, STEERS, choose_bid, shooting, shot_setup, steer_play
from ruleproof.properties.moon.strategies import setups as declared_setups
from ruleproof.properties.moon.tiles import DEFAULTS, GAME, HAND, N
from ruleproof.properties.options import judge_start
from ruleproof.properties.snapshot import Snapshot

checks = CheckRegistry()


class MoonProperties(GameProperties):
    game: ClassVar[str] = GAME
    deal_clause: ClassVar[str] = "MOON-DEAL-1"
    checks: ClassVar[CheckRegistry] = checks
    ordered_zones = frozenset({"trick"})
    option_clauses: ClassVar[dict[tuple[str, Any], tuple[str, ...]]] = {
        ("doubles_trump", True): ("MOON-TRUMP-3", "MOON-RANK-3")
    }
    # MOON-INV-10 says a game need not end (redeals, failed bids): reached, never violated
    covered_only = frozenset({"MOON-INV-10"})
    # the readings each clause tells apart: scoring the bid, not the tricks, shows only with overtricks;
    # `>=` against `>` only when a total lands exactly on the target (docs/rules/moon.md)
    situations: ClassVar[dict[str, tuple[str, ...]]] = {
        "MOON-SCORE-1": ("made-exactly", "overtricks", "failed"),
        "MOON-SCORE-2": ("made", "failed"),
        "MOON-END-1": ("below-target", "wins-above-target", "wins-at-target"),
    }

    def __init__(self, setup: Setup, ledger: Any) -> None:
        super().__init__(setup, ledger)
        opts = {**DEFAULTS, **setup.options}
        self.all_pass = opts["all_pass"]
        self.doubles_ok = bool(opts["doubles_trump"])
        self.shoot = opts["shoot"]
        self.target = opts["target"]
        self.hands_dealt = 0  # deals seen, void hands included (MOON-BID-1)
        self.opener = (setup.dealer + 1) % N  # protocol: the first hand's first bidder sits left of the dealer
        self.widow: str | None = None  # the tile dealt as the widow this hand (only to cover its discard)
        self.reached = False  # the top total has reached the target (MOON-INV-9)
        self.steer: int | None = None  # this hand's play policy (choose): one of STEER_*
        self.shown: set[str] = set()  # clauses whose reading alone explained a deviation of this engine (resolve)

    # -- what to draw ------------------------------------------------------------------
    options_contract: ClassVar[dict[str, list[Any] | IntRange]] = {
        "all_pass": ["redeal", "forced_bid"],
        "doubles_trump": [True, False],
        "shoot": ["wins_game", "scores_21"],
        "target": IntRange(1, 21),
    }

    @classmethod
    def default_options(cls, players: int, sent: JSONObject) -> JSONObject:
        return {"all_pass": "redeal", "doubles_trump": True, "shoot": "wins_game", "target": 21}

    @classmethod
    def setups(cls, declared: dict[str, Any]) -> st.SearchStrategy[Setup]:
        return declared_setups(declared)

    def deal(self, snap: Snapshot, data: st.DataObject) -> dict[str, Any]:
        tiles = data.draw(draws.shuffled(MOON_TILES), label="deal")
        return {"type": "deal", "hands": [list(tiles[i * HAND : (i + 1) * HAND]) for i in range(N)], "widow": tiles[-1]}

    def choose(self, snap: Snapshot, pick: int, data: st.DataObject) -> dict[str, Any]:
        """Bids weighted towards low contracts, and each hand played under a drawn policy, so that
        MOON-SCORE-1 meets its three readings: a uniform draw makes the winning bid mostly 7 or 21
        (no overtricks possible) and the declarer mostly fail.  A strong hand now and then shoots the
        moon and plays for all seven tricks (MOON-SCORE-2 made), so that the exploration reaches it
        without the fixtures (which an engine's other deviation may block)."""
        moves = snap.moves
        n = len(moves)
        m = moves[pick % n]
        rest = pick // n
        if snap.phase == "bid":
            return choose_bid(snap, m, rest)
        shot = shooting(snap)
        if shot and snap.phase in ("discard", "trump"):
            return shot_setup(snap, self.doubles_ok) or m
        if snap.phase != "play" or declarer_of(snap) is None:
            return m
        if not snap.zone("trick") and self.steer is None:
            self.steer = STEER_OVER if shot else rest % len(STEERS)
        return steer_play(self, snap, rest // len(STEERS)) or m

    def listing_clause(self, snap: Snapshot, missing: Sequence[Move], extra: Sequence[Move]) -> str | None:
        return listing_clause(self.shown, snap, missing, extra)

    @checks.hook(
        "MOON-SETUP-2",
        "MOON-DEAL-1",
        "MOON-BID-2",
        "MOON-BID-3",
        "MOON-BID-6",
        "MOON-WIDOW-1",
        "MOON-TRUMP-1",
        "MOON-FOLLOW-1",
        "MOON-FOLLOW-2",
        "MOON-FOLLOW-3",
        "MOON-WIN-2",
        "MOON-INV-1",
    )
    def illegal_moves(self, snap: Snapshot) -> Sequence[tuple[dict[str, Any], str]]:
        phase = snap.phase
        if phase == "over":
            return ()
        if phase == "deal":
            return bad_deals()
        seat = snap.to_act
        assert seat is not None
        hand = hand_of(snap, seat)
        if phase == "bid":
            return bad_bids(snap, hand, self.all_pass)
        elsewhere = [t for s in range(N) if s != seat for t in hand_of(snap, s)] + snap.zone("discarded")
        if phase == "discard":
            return bad_discards(hand, elsewhere)
        if phase == "trump":
            return bad_trumps(hand, self.doubles_ok)
        return bad_plays(snap, hand, elsewhere) if phase == "play" else []

    # -- state checks ------------------------------------------------------------------
    @checks.hook("MOON-SETUP-1", "MOON-SETUP-2", "MOON-INV-1", "CONTRACT-SETUP-2", "CONTRACT-SETUP-3")
    def start(self, snap: Snapshot) -> None:
        judge_start(self, snap)  # CONTRACT-SETUP-2/-3 on the kit's setup probes
        self.expect(
            "MOON-SETUP-1", snap.players == N, "Moon is for exactly 3 players", N, snap.players, observed=("players",)
        )
        conservation(self, snap)
