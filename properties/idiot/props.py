"""``IdiotProperties``: the hooks of the kit (setups, deals, moves, probes, the first state) and what the
checks of one game share (the views of a step's two states, the outcome of its move, the gaps of a
state's legal moves, the engine's rank comparisons seen this game).

The checks themselves live in the ``check_*`` modules, registered on ``checks`` in the order the
package imports them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from hypothesis import strategies as st

from ruleproof.model import observed as obs
from ruleproof.model.engine import JSONObject
from ruleproof.model.findings import Setup
from ruleproof.properties.base import GameProperties, IntRange, Observed
from ruleproof.properties.checks import CheckRegistry
from ruleproof.properties.idiot.aspects import Aspect
from ruleproof.properties.idiot.cards import (
    DECK_SITUATIONS,
    GAME,
    HOUSE_OPTIONS,
    REVERSE_RANKS,
    TRANSPARENT_PAIRS,
    TRANSPARENT_RANKS,
    TRANSPARENT_SITUATIONS,
    capped,
    deck_situation,
    default_decks,
    diff,
    ordinary,
    pool,
    through,
)
from ruleproof.properties.idiot.diff import Gap, extra_aspect, gaps, held_gaps
from ruleproof.properties.idiot.legal import legal_set
from ruleproof.properties.idiot.listing import listing_clause
from ruleproof.properties.idiot.outcome import Outcome, landed_direction, predict
from ruleproof.properties.idiot.probes import bad_moves
from ruleproof.properties.idiot.ranks import RankVerdicts
from ruleproof.properties.idiot.strategies import adapt_deal, fresh_deal, pick_move, play_on, smaller_setups
from ruleproof.properties.idiot.strategies import deal as draw_deal
from ruleproof.properties.idiot.strategies import setups as declared_setups
from ruleproof.properties.idiot.view import View, key_of
from ruleproof.properties.options import judge_start
from ruleproof.properties.snapshot import Snapshot, Step

checks = CheckRegistry()
TURN_MOVES = ("play", "play_blind", "pickup", "stop")  # the moves an outcome is predicted for


class IdiotProperties(GameProperties):
    game: ClassVar[str] = GAME
    deal_clause: ClassVar[str] = "IDIOT-DEAL-1"
    checks: ClassVar[CheckRegistry] = checks
    ordered_zones = frozenset({"discard", "draw"})
    # the house rules' clauses: judged only with the value that plays them (docs/rules/idiot.md)
    option_clauses: ClassVar[dict[tuple[str, Any], tuple[str, ...]]] = {
        ("seven_lower", True): ("IDIOT-SEVEN-1",),
        ("eight_skips", True): ("IDIOT-EIGHT-1",),
        **{("reverse", r): ("IDIOT-REVERSE-1",) for r in REVERSE_RANKS},
        **{("transparent", r): ("IDIOT-TRANSPARENT-1",) for r in TRANSPARENT_RANKS},
    }
    # a transparent rank with the burns and the cap of a 7 (``TRANSPARENT_PAIRS``): pairwise coverage, by class
    paired: ClassVar[dict[str, tuple[tuple[str, str], ...]]] = {
        "IDIOT-TRANSPARENT-1": tuple(("transparent", other) for other in TRANSPARENT_PAIRS),
    }
    step_scale: ClassVar[float] = 1.5
    # never sent to an engine that does not declare them, nor need they be echoed (it plays the default)
    house_options: ClassVar[frozenset[str]] = frozenset(HOUSE_OPTIONS)
    # the readings of "four or more of one rank on top": a count of the cards of one play, of the
    # run across plays, of exactly four, or of the rank anywhere near the top (docs/rules/idiot.md)
    # ... and of the pool: one deck (every card unique) or several (identical cards, interchangeable): each a
    # table of its own, so an engine that declares one deck count leaves the other unjudged (`partial`)
    situations: ClassVar[dict[str, tuple[str, ...]]] = {
        "IDIOT-BURN-4KIND": ("one-play", "across-plays", "five-or-more", "run-broken"),
        "IDIOT-SETUP-2": DECK_SITUATIONS,
        "IDIOT-DEAL-2": DECK_SITUATIONS,
        # a transparent card played on a card it does not beat; a play judged against the card below; against
        # an empty pile (nothing but transparent cards); through several transparent cards stacked
        "IDIOT-TRANSPARENT-1": TRANSPARENT_SITUATIONS,
    }
    options_contract: ClassVar[dict[str, list[Any] | IntRange]] = {
        "decks": IntRange(1),
        "after_burn": ["next", "burner"],
        "six_burn": [3, 4],
        "two_followup": ["optional", "none"],
        "ten_anytime": [True, False],
        "seven_lower": [False, True],
        "eight_skips": [False, True],
        "reverse": [None, *REVERSE_RANKS],
        "transparent": [None, *TRANSPARENT_RANKS],
    }

    def __init__(self, setup: Setup, ledger: Any) -> None:
        super().__init__(setup, ledger)
        self.n = setup.players
        # an option left out of new_game takes the contract's default (the kit's setup probes do that)
        self.decks = setup.options.get("decks", default_decks(self.n))
        self.pool = pool(self.decks)  # IDIOT-INV-1's multiset, built once per game
        self.pool_sorted = sorted(self.pool.elements())  # the same, as a list to compare with sorted zones
        self.declines = 0  # declines in a row at the current ladder rank
        self.stubborn = False  # this game's opening policy (decline whenever allowed)
        self.style: int | None = None  # best of how many drawn moves
        self.newer: View | None = None  # the views of the last two snapshots seen, the newer one last built
        self.older: View | None = None
        self.conserved: Snapshot | None = None  # the last snapshot judged to hold the pool (IDIOT-INV-1)
        self.ranks = RankVerdicts()  # the engine's rank comparisons seen this game
        self.opener: int | None = None  # the seat whose turn began with the opening play, while it lasts
        self.direction = 1  # the direction of play (IDIOT-REVERSE-1): 1 clockwise, -1 once reversed
        # a play the rules forbid landed (which way it turned play no rule says): the next turn is taken in
        # whichever direction the engine's seat shows, so that one bug is not every later turn's deviation
        self.unsure = False
        self._step: Step | None = None  # the step the outcome and the applied move below are of
        self._outcome: Outcome | None = None
        self._applied: tuple[Aspect, str] | None = None

    # -- what the checks of a step share --------------------------------------------------
    def view(self, snap: Snapshot) -> View:
        """The view of ``snap``; the views of the last two snapshots are kept (a step's before and after)."""
        v = self.newer
        if v is not None and v.snap is snap:
            return v
        v = self.older
        if v is not None and v.snap is snap:
            return v
        v = View(snap)
        self.older, self.newer = self.newer, v
        return v

    def views(self, step: Step) -> tuple[View, View]:
        """``view(step.before), view(step.after)``, in one call when both are the views kept."""
        older, newer = self.older, self.newer
        if older is not None and newer is not None and older.snap is step.before and newer.snap is step.after:
            return older, newer
        return self.view(step.before), self.view(step.after)

    def gaps(self, snap: Snapshot) -> list[Gap]:
        """The differences of the state's listed moves from the rules' (``diff.gaps``), once per state; once
        the game is over, the differences held back (``ranks``)."""
        if snap.phase == "over":
            return held_gaps(self.view(snap), self.ranks) if self.ranks.held else []
        if snap.phase == "deal" or snap.to_act is None:
            return []
        return gaps(self.view(snap), self.ranks)

    def _judge_move(self, step: Step) -> None:
        """The applied move's aspect when the rules forbid it, and its outcome when they allow it."""
        self._step, self._outcome, self._applied = step, None, None
        before = step.before
        if before.phase in ("deal", "over") or before.to_act is None:
            return
        v0, v1 = self.views(step)
        if not v0.allows(step.move):
            aspect, cause = extra_aspect(v0, self.ranks, step.move, now=True)
            if aspect is not None:
                self._applied = (aspect, cause)
                self.direction = landed_direction(step, v0, self.direction)
                self.unsure = True
                return
        if before.phase in ("opening", "play") and step.kind in TURN_MOVES:
            o = self._outcome = predict(step, v0, v1, self.direction)
            # the first turn passed after a forbidden play landed: in the direction the engine took
            if self.unsure and not o.pending and o.to_act not in (None, before.to_act):
                self.unsure = False
                if o.to_act != step.after.to_act:
                    other = predict(step, v0, v1, -self.direction)
                    if other.to_act == step.after.to_act:
                        o = self._outcome = other
            self.direction = o.direction  # what this move made of it, for the next
            if o.engine_legal is not None and o.r is not None and (ordinary(o.r, v0.opts) or not v0.pile):
                if capped(v0.pile, v0.opts) or through(v0.pile, v0.opts):
                    return  # the 7's rule, or judged through a transparent card: not an order of the ranks
                self.ranks.record(o.r, o.top, o.engine_legal)

    def observe(self, step: Step) -> None:
        """Every check on one transition, once the move's aspect and outcome are worked out (the engine's
        verdict on a blind card is then evidence for every check of the step)."""
        self.guarded("outcome", self._judge_move, step)
        super().observe(step)

    def applied(self, step: Step) -> tuple[Aspect, str] | None:
        """The aspect and cause of the move applied, when the rules forbid it in the state before."""
        if self._step is not step:
            self._judge_move(step)
        return self._applied

    def outcome(self, step: Step) -> Outcome | None:
        """The rules' outcome of a legal play, blind play, pickup or stop (None for another move)."""
        if self._step is not step:
            self._judge_move(step)
        return self._outcome

    def listed(self, step: Step) -> bool:
        """The move applied was one the engine listed (not a probe the engine accepted)."""
        return key_of(step.move) in self.view(step.before).listed

    def require(
        self, clause: str, ok: bool, message: str, expected: Any = None, got: Any = None, *, observed: Observed = ()
    ) -> None:
        """Fail ``clause`` when ``ok`` is false, without counting it as exercised."""
        if not ok:
            self.fail(clause, message, expected, got, observed=observed)

    def listing_clause(self, snap: Snapshot, missing: Sequence[Any], extra: Sequence[Any]) -> str | None:
        """A fixture's listing difference filed as the listing checks file it (``listing``)."""
        return listing_clause(self, snap, missing, extra)

    # -- what to draw --------------------------------------------------------------------
    @classmethod
    def default_options(cls, players: int, sent: JSONObject) -> JSONObject:
        # enough decks for three players a deck and nine cards a player (IDIOT-SETUP-1)
        return {
            "decks": default_decks(players),
            "after_burn": "next",
            "six_burn": 3,
            "two_followup": "optional",
            "ten_anytime": True,
        }

    @classmethod
    def option_default(cls, name: str, players: int, sent: JSONObject | None = None) -> Any:
        # a house rule not sent plays the documents' rule (HOUSE_OPTIONS), which default_options leaves out
        return HOUSE_OPTIONS[name] if name in HOUSE_OPTIONS else super().option_default(name, players, sent)

    @classmethod
    def pair_value(cls, own: str, value: Any, other: str) -> Any:
        if own != "transparent" or other not in TRANSPARENT_PAIRS or value is None:
            return value
        named = TRANSPARENT_PAIRS[other]
        return value if value == named else "another rank" if named else "any rank"

    @classmethod
    def setups(cls, declared: dict[str, Any]) -> st.SearchStrategy[Setup]:
        return declared_setups(declared)

    def deal(self, snap: Snapshot, data: st.DataObject) -> dict[str, Any]:
        return draw_deal(self.decks, self.n, data)

    @classmethod
    def fresh_deal(cls, setup: Setup, seed: int) -> dict[str, Any] | None:
        return fresh_deal(setup, seed)

    def play_on(self, snap: Snapshot) -> dict[str, Any]:
        return play_on(self.allowed_moves(snap))

    def allowed_moves(self, snap: Snapshot) -> tuple[dict[str, Any], ...]:
        """The listed moves the rules allow here (all of them when the rules allow none): the exploration
        plays within the rules, so a listed move they forbid is judged once, as listed (``check_*``), and
        never compounded by what the engine makes of it."""
        v = self.view(snap)
        if v.legal is None:
            v.legal = legal_set(v)
        req, opt = v.legal
        allowed = tuple(m for k, m in v.listed.items() if k in req or k in opt)
        return allowed or snap.moves

    @classmethod
    def smaller_setups(cls, setup: Setup, declared: dict[str, Any]) -> list[Setup]:
        return smaller_setups(setup, declared)

    @classmethod
    def adapt_deal(cls, deal: dict[str, Any], setup: Setup) -> dict[str, Any] | None:
        return adapt_deal(deal, setup)

    def choose(self, snap: Snapshot, pick: int, data: st.DataObject) -> dict[str, Any]:
        """Index into the engine's moves the rules allow; best of k draws by a cheap progress score (plays of
        low ranks and of several cards first, voluntary pickups last), k drawn once per game; some games
        decline every opening they can, to climb the ladder (IDIOT-OPEN-1/-3)."""
        moves = self.allowed_moves(snap)
        if self.style is None:
            self.style = data.draw(st.sampled_from([3, 3, 3, 2, 1]), label="style")
            self.stubborn = data.draw(st.integers(0, 7), label="stubborn") == 0
        if self.stubborn and snap.phase == "opening":
            j = next((k for k, m in enumerate(moves) if m.get("type") == "decline"), None)
            if j is not None:
                return moves[j]
        return pick_move(moves, pick, self.style)

    @checks.hook(
        "IDIOT-SETUP-2",
        "IDIOT-DEAL-1",
        "IDIOT-DEAL-2",
        "IDIOT-SWAP-1",
        "IDIOT-OPEN-1",
        "IDIOT-OPEN-3",
        "IDIOT-RANK-1",
        "IDIOT-PLAY-2",
        "IDIOT-MULTI-1",
        "IDIOT-PICKUP-3",
        "IDIOT-DRAW-3",
        "IDIOT-TABLE-1",
        "IDIOT-BLIND-1",
        "IDIOT-TWO-2",
        "IDIOT-TRANSPARENT-1",
        "IDIOT-SEVEN-1",
    )
    def illegal_moves(self, snap: Snapshot) -> Sequence[tuple[dict[str, Any], str]]:
        """The probes of ``probes.bad_moves``: each clause is the rule a probe breaks (a list of probes, not
        a judgment: one hook for all of them)."""
        return bad_moves(self, snap)

    # -- checks on the first state -------------------------------------------------------
    @checks.hook("IDIOT-SETUP-1", "IDIOT-SETUP-2", "CONTRACT-SETUP-2", "CONTRACT-SETUP-3")
    def start(self, snap: Snapshot) -> None:
        judge_start(self, snap)  # CONTRACT-SETUP-2/-3 on the kit's setup probes
        n = snap.players
        self.expect("IDIOT-SETUP-1", n >= 2, "Idiot needs at least 2 players", ">= 2", n, observed=("players",))
        want = pool(self.decks)
        got = snap.all_cards()
        self.situation("IDIOT-SETUP-2", deck_situation(self.decks))
        self.expect(
            "IDIOT-SETUP-2",
            got == want,
            f"the pool is {self.decks} standard deck(s) shuffled together",
            52 * self.decks,
            diff(got, want),
            observed=lambda: obs.cards((got - want) + (want - got)),
        )
