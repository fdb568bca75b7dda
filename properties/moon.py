"""Three-Player Moon (domino trick-taking, 3 players) stated as properties.

Read from rules.md §3 and protocol.md §4 "moon" without the reference engine:
the 22-tile set (no blank suit but the [0-0]), the deal of 7/7/7 and a widow,
one round of bidding from the first-bidder seat (which moves one seat
clockwise every hand, void all-pass hands included) with strictly increasing
bids from {4, 5, 6, 7, 21} and 21 closing the auction, the all-pass rule
(redeal or forced bid), the widow exchange, the trump choice (0-6, doubles if
allowed, none), leading and following (a trump lead calls for trumps, else the
led tile's higher end names the suit and any non-trump tile carrying it
follows), the trick winner (highest trump, else highest of the led suit; a
double heads its suit unless doubles are trump, doubles as trump by pips), the
seven tricks, the scoring of the declarer and the opponents, the shoot-the-moon
bid and the end rule with ties.  Clauses: MOON-SETUP-1/2, MOON-DEAL-1,
MOON-BID-1..6, MOON-WIDOW-1, MOON-TRUMP-1..4, MOON-RANK-1..3, MOON-LEAD-1..3,
MOON-FOLLOW-1..3, MOON-WIN-1/2, MOON-SCORE-1..3, MOON-END-1/2 and the
invariants MOON-INV-1..10.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from hypothesis import strategies as st

from ruleproof.model.engine import JSONObject
from ruleproof.model.findings import Setup
from ruleproof.model.notation import MOON_TILES, tile_ends
from ruleproof.properties import draws
from ruleproof.properties.base import GameProperties, IntRange
from ruleproof.properties.checks import CheckRegistry
from ruleproof.properties.options import judge_start
from ruleproof.properties.snapshot import Snapshot, Step, move_diff

GAME = "moon"
N = 3

BIDS = (4, 5, 6, 7, 21)  # MOON-BID-3
SHOOT = 21  # MOON-SCORE-2
TILESET = Counter(MOON_TILES)  # MOON-SETUP-2
HAND = 7  # MOON-DEAL-1
TRICKS = 7  # MOON-WIN-2
DEFAULTS = {"all_pass": "redeal", "doubles_trump": True, "shoot": "wins_game", "target": 21}

checks = CheckRegistry()


# -- the rules of the tiles (rules.md §3.2) -------------------------------------------------
def is_double(t: str) -> bool:
    hi, lo = tile_ends(t)
    return hi == lo


def is_trump(t: str, contract: Any) -> bool:
    """MOON-TRUMP-2/3/4: a number trump takes every tile carrying it; doubles take the doubles."""
    if contract == "doubles":
        return is_double(t)
    if isinstance(contract, int) and not isinstance(contract, bool):
        return contract in tile_ends(t)
    return False


def led_suit(t: str, contract: Any) -> Any:
    """MOON-LEAD-2/3: "T" for a trump lead, else the higher end (a double's number)."""
    return "T" if is_trump(t, contract) else tile_ends(t)[0]


def follows(t: str, suit: Any, contract: Any) -> bool:
    """MOON-FOLLOW-1/2: trumps follow a trump lead; a non-trump tile carrying s follows s."""
    if suit == "T":
        return is_trump(t, contract)
    return not is_trump(t, contract) and suit in tile_ends(t)


def other_end(t: str, s: int) -> int:
    hi, lo = tile_ends(t)
    return lo if hi == s else hi


def trump_rank(t: str, contract: Any) -> int:
    """MOON-RANK-2 (number trump: the double, then by the other end) / MOON-RANK-3 (doubles by pips)."""
    if contract == "doubles":
        return tile_ends(t)[0]
    return 7 if is_double(t) else other_end(t, contract)


def suit_rank(t: str, s: int) -> int:
    """MOON-RANK-1: the (non-trump) double heads its suit, then the other end descending."""
    return 7 if is_double(t) else other_end(t, s)


def trick_winner(trick: Sequence[str], contract: Any) -> int:
    """MOON-WIN-1: the index of the winning tile."""
    trumps = [i for i, t in enumerate(trick) if is_trump(t, contract)]
    if trumps:
        return max(trumps, key=lambda i: trump_rank(trick[i], contract))
    s = led_suit(trick[0], contract)
    return max((i for i, t in enumerate(trick) if follows(t, s, contract)), key=lambda i: suit_rank(trick[i], s))


def legal_plays(hand: Sequence[str], trick: Sequence[str], contract: Any) -> list[str]:
    """MOON-LEAD-1 / MOON-FOLLOW-1/2/3: the tiles the player to act may play."""
    if not trick:
        return list(hand)
    s = led_suit(trick[0], contract)
    same = [t for t in hand if follows(t, s, contract)]
    return same or list(hand)


def _followers(hand: Sequence[str], pred: Any) -> list[str]:
    same = [t for t in hand if pred(t)]
    return same or list(hand)


def follow_clause(hand: list[str], trick: list[str], contract: Any, got: set[Any]) -> str:
    """The clause that decides the difference between the document's plays and ``got``.

    Each alternative reading is a rule of §3.2 read wrongly: the led tile's trump
    status (LEAD-2), the suit a led tile names (LEAD-3), trumps keeping their
    number suit (TRUMP-2/3), following by the higher end only (FOLLOW-2).
    """
    if not trick:
        return "MOON-LEAD-1"
    lead = trick[0]
    hi, lo = tile_ends(lead)
    s = led_suit(lead, contract)
    alts: list[tuple[str, list[str]]] = []
    if s == "T":
        alts.append(("MOON-LEAD-2", _followers(hand, lambda t: not is_trump(t, contract) and hi in tile_ends(t))))
        alts.append(("MOON-LEAD-2", _followers(hand, lambda t: hi in tile_ends(t))))
    else:
        if hi != lo:
            alts.append(("MOON-LEAD-3", _followers(hand, lambda t: not is_trump(t, contract) and lo in tile_ends(t))))
        trump_clause = "MOON-TRUMP-3" if contract == "doubles" else "MOON-TRUMP-2"
        alts.append((trump_clause, _followers(hand, lambda t: s in tile_ends(t))))
        alts.append(("MOON-FOLLOW-2", _followers(hand, lambda t: not is_trump(t, contract) and tile_ends(t)[0] == s)))
    for clause, alt in alts:
        if set(alt) == got:
            return clause
    if s == "T":
        return "MOON-FOLLOW-1" if any(is_trump(t, contract) for t in hand) else "MOON-FOLLOW-3"
    return "MOON-FOLLOW-2" if any(follows(t, s, contract) for t in hand) else "MOON-FOLLOW-3"


def winner_clause(trick: list[str], contract: Any, got: int) -> str:
    """The clause behind a wrong trick winner (index ``got`` instead of the document's)."""
    w = trick[got]
    trumps = [t for t in trick if is_trump(t, contract)]
    if trumps:
        if is_trump(w, contract):
            return "MOON-RANK-3" if contract == "doubles" else "MOON-RANK-2"
        return "MOON-TRUMP-3" if contract == "doubles" else "MOON-WIN-1"
    s = led_suit(trick[0], contract)
    if follows(w, s, contract):
        return "MOON-RANK-1"
    if contract == "none":
        return "MOON-TRUMP-4"
    hi, lo = tile_ends(trick[0])
    if lo in tile_ends(w) and hi != lo:
        return "MOON-LEAD-3"
    return "MOON-WIN-1"


# -- moves ---------------------------------------------------------------------------------
def bid(v: int) -> dict[str, Any]:
    return {"type": "bid", "value": v}


PASS = {"type": "pass"}


def play(t: str) -> dict[str, Any]:
    return {"type": "play", "tile": t}


def discard(t: str) -> dict[str, Any]:
    return {"type": "discard", "tile": t}


def trump(s: Any) -> dict[str, Any]:
    return {"type": "trump", "suit": s}


# How a hand is played (drawn once per hand): tiles at random; the declarer taking every trick it
# can (overtricks); the declarer taking tricks until its bid is made, then none (made exactly);
# the opponents taking every trick they can (failed).
STEER_FREE, STEER_OVER, STEER_EXACT, STEER_FAIL = STEERS = (0, 1, 2, 3)


def power(t: str, trick: Sequence[str], contract: Any) -> int:
    """How hard a tile fights for the trick (higher wins): trumps, then the led suit, then the rest."""
    if is_trump(t, contract):
        return 100 + trump_rank(t, contract)
    s = led_suit(trick[0], contract) if trick else tile_ends(t)[0]
    return 10 + suit_rank(t, s) if s != "T" and follows(t, s, contract) else 0


def steer_play(props: MoonProperties, snap: Snapshot, pick: int) -> dict[str, Any] | None:
    """A play that leaves the trick, so far, with the side this hand's policy wants to win it."""
    d, policy = props.declarer, props.steer
    if policy in (None, STEER_FREE) or d is None:
        return None
    want_d = policy == STEER_OVER or (policy == STEER_EXACT and props.tricks[d] < props.bid)
    seat, contract = snap.to_act, props.contract
    trick = snap.zone("trick")
    seats = list(snap.get("trick_seats") or [])
    tiles = [m["tile"] for m in snap.moves if m.get("type") == "play"]
    if not tiles or seat is None or len(seats) != len(trick):
        return None
    good = [t for t in tiles if (([*seats, seat])[trick_winner([*trick, t], contract)] == d) == want_d]
    mine = (seat == d) == want_d  # this seat is on the side that should take the trick
    pool = good or tiles
    ranked = sorted(pool, key=lambda t: power(t, trick, contract), reverse=mine and bool(good))
    return play(ranked[0] if pick % 4 else ranked[pick // 4 % len(ranked)])


def _high(bids: Sequence[Any]) -> int:
    return max((b for b in bids if isinstance(b, int) and not isinstance(b, bool)), default=0)


def _hand(snap: Snapshot, seat: int) -> list[str]:
    return snap.zone(f"hand/{seat}")


def _gain(after: Snapshot, before: Snapshot, zone: str) -> Counter[str]:
    return Counter(after.zone(zone)) - Counter(before.zone(zone))


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
        self.dealt: list[Counter[str]] = [Counter() for _ in range(N)]
        self.widow: str | None = None
        self.bids: list[Any] = [None] * N
        self.declarer: int | None = None
        self.bid: int = 0
        self.contract: Any = None
        self.tricks = [0] * N  # tricks won this hand, as the engine assigned them
        self.plays = 0  # tiles played this hand
        self.reached = False  # the top total has reached the target (MOON-INV-9)
        self.steer: int | None = None  # this hand's play policy (choose): one of STEER_*

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
        options = declared.get("options", {})

        def values(name: str) -> list[Any]:
            got = options.get(name)
            if isinstance(got, list) and got:
                return list(got)
            return [DEFAULTS[name]]

        all_pass, doubles, shoot = values("all_pass"), values("doubles_trump"), values("shoot")
        target = options.get("target")
        if isinstance(target, dict):
            lo, hi = target["min"], target["max"]
            targets = sorted({max(lo, min(hi, v)) for v in (1, 3, 6, 21)})
        elif isinstance(target, list) and target:
            targets = sorted(target)
        else:
            targets = [21]

        @st.composite
        def setup(draw: Any) -> Setup:
            opts = {
                "all_pass": draw(st.sampled_from(all_pass), label="all_pass"),
                "doubles_trump": draw(st.sampled_from(doubles), label="doubles_trump"),
                "shoot": draw(st.sampled_from(shoot), label="shoot"),
                "target": draw(st.sampled_from(targets), label="target"),
            }
            dealer = draw(st.integers(0, N - 1), label="dealer")
            return Setup(GAME, N, dealer, opts)

        return setup()

    def deal(self, snap: Snapshot, data: st.DataObject) -> dict[str, Any]:
        tiles = data.draw(draws.shuffled(MOON_TILES), label="deal")
        return {"type": "deal", "hands": [list(tiles[i * HAND : (i + 1) * HAND]) for i in range(N)], "widow": tiles[-1]}

    def choose(self, snap: Snapshot, pick: int, data: st.DataObject) -> dict[str, Any]:
        """Bids weighted towards low contracts, and each hand played under a drawn policy, so that
        MOON-SCORE-1 meets its three readings: a uniform draw makes the winning bid mostly 7 or 21
        (no overtricks possible) and the declarer mostly fail."""
        moves = snap.moves
        n = len(moves)
        m = moves[pick % n]
        rest = pick // n
        if snap.phase == "bid":
            if rest % 4:  # mostly: open at the lowest bid, then pass, so that 4 often stands (or all pass)
                bid_so_far = any(isinstance(b, int) and not isinstance(b, bool) for b in snap.get("bids") or ())
                want = "pass" if bid_so_far or rest % 4 == 1 else "bid"
                m = min((x for x in moves if x.get("type") == want), key=lambda x: x.get("value", 0), default=m)
            # a 21 bid almost always fails and ends the auction: pick again once to make it rarer
            if m.get("type") == "bid" and m.get("value") == SHOOT:
                m = moves[(rest // 4) % n]
            return m
        if snap.phase != "play" or self.declarer is None:
            return m
        if not snap.zone("trick") and self.steer is None:
            self.steer = rest % len(STEERS)
        return steer_play(self, snap, rest // len(STEERS)) or m

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
        "MOON-WIN-2",
        "MOON-INV-1",
    )
    def illegal_moves(self, snap: Snapshot) -> Sequence[tuple[dict[str, Any], str]]:
        phase = snap.phase
        if phase == "over":
            return ()
        if phase == "deal":
            return _bad_deals()
        seat = snap.to_act
        assert seat is not None
        hand = _hand(snap, seat)
        if phase == "bid":
            return self._bad_bids(snap, hand)
        elsewhere = [t for s in range(N) if s != seat for t in _hand(snap, s)] + snap.zone("discarded")
        if phase == "discard":
            return _bad_discards(hand, elsewhere)
        if phase == "trump":
            return self._bad_trumps(hand)
        return _bad_plays(snap, hand, elsewhere) if phase == "play" else []

    def _bad_bids(self, snap: Snapshot, hand: list[str]) -> list[tuple[dict[str, Any], str]]:
        """MOON-BID-3: bids not above the high bid or off the ladder; MOON-BID-6: the forced bidder's
        pass; MOON-BID-2: anything but a bid or pass."""
        bids = snap.get("bids") or [None] * N
        high = _high(bids)
        bad = [(bid(v), "MOON-BID-3") for v in BIDS if 0 < v <= high][-2:]
        bad += [(bid(3), "MOON-BID-3"), (bid(8), "MOON-BID-3")]
        if self.all_pass == "forced_bid" and sum(1 for b in bids if b == "pass") == N - 1:
            bad.append((PASS, "MOON-BID-6"))
        if hand:
            bad += [(play(hand[0]), "MOON-BID-2"), (discard(hand[0]), "MOON-BID-2")]
        bad.append((trump("none"), "MOON-BID-2"))
        return bad

    def _bad_trumps(self, hand: list[str]) -> list[tuple[dict[str, Any], str]]:
        """MOON-TRUMP-1: doubles when the options forbid them, and any move but naming trumps."""
        bad: list[tuple[dict[str, Any], str]] = []
        if not self.doubles_ok:
            bad.append((trump("doubles"), "MOON-TRUMP-1"))
        if hand:
            bad += [(discard(hand[0]), "MOON-TRUMP-1"), (play(hand[0]), "MOON-TRUMP-1")]
        bad += [(bid(21), "MOON-TRUMP-1"), (PASS, "MOON-TRUMP-1")]
        return bad

    # -- state checks ------------------------------------------------------------------
    @checks.hook("MOON-SETUP-1", "MOON-SETUP-2", "MOON-INV-1", "CONTRACT-SETUP-2", "CONTRACT-SETUP-3")
    def start(self, snap: Snapshot) -> None:
        judge_start(self, snap)  # CONTRACT-SETUP-2/-3 on the kit's setup probes
        self.expect("MOON-SETUP-1", snap.players == N, "Moon is for exactly 3 players", N, snap.players)
        conservation(self, snap)


# -- illegal moves, by phase ------------------------------------------------------------------
def _bad_deals() -> list[tuple[dict[str, Any], str]]:
    """Sizes other than 7/7/7 + 1 break the deal (MOON-DEAL-1); a tile twice (one missing) breaks the
    tile set (MOON-SETUP-2)."""
    tiles = list(MOON_TILES)
    hands = [tiles[i * HAND : (i + 1) * HAND] for i in range(N)]
    return [
        (
            {"type": "deal", "hands": [hands[0][:-1], hands[1], hands[2] + [hands[0][-1]]], "widow": tiles[-1]},
            "MOON-DEAL-1",
        ),
        (
            {"type": "deal", "hands": [[*hands[0][:-1], hands[1][0]], hands[1], hands[2]], "widow": tiles[-1]},
            "MOON-SETUP-2",
        ),
        ({"type": "deal", "hands": hands, "widow": hands[2][0]}, "MOON-SETUP-2"),
    ]


def _bad_discards(hand: list[str], elsewhere: list[str]) -> list[tuple[dict[str, Any], str]]:
    """MOON-WIDOW-1: a tile the declarer does not hold, and any move but a discard."""
    bad: list[tuple[dict[str, Any], str]] = []
    if elsewhere:
        bad.append((discard(elsewhere[0]), "MOON-WIDOW-1"))
    if hand:
        bad.append((play(hand[0]), "MOON-WIDOW-1"))
    bad += [(trump(0), "MOON-WIDOW-1"), (bid(7), "MOON-WIDOW-1"), (PASS, "MOON-WIDOW-1")]
    return bad


def _bad_plays(snap: Snapshot, hand: list[str], elsewhere: list[str]) -> list[tuple[dict[str, Any], str]]:
    """MOON-INV-1: a tile not held; MOON-FOLLOW-1/2: a revoke; MOON-WIN-2: a move of another phase."""
    bad: list[tuple[dict[str, Any], str]] = []
    if elsewhere:
        # a tile not in the mover's hand: playing it would break conservation
        bad.append((play(elsewhere[0]), "MOON-INV-1"))
    trick = snap.zone("trick")
    contract = snap.get("contract")
    if trick:
        legal = set(legal_plays(hand, trick, contract))
        revokes = [t for t in hand if t not in legal][:2]
        s = led_suit(trick[0], contract)
        clause = "MOON-FOLLOW-1" if s == "T" else "MOON-FOLLOW-2"
        bad += [(play(t), clause) for t in revokes]
    # wrong-phase moves: illegal under the clause of the phase (docs/rules/moon.md "Errors")
    if hand:
        bad.append((discard(hand[0]), "MOON-WIN-2"))
    bad += [(trump(0), "MOON-WIN-2"), (bid(4), "MOON-WIN-2"), (PASS, "MOON-WIN-2")]
    return bad


def conservation(props: MoonProperties, snap: Snapshot) -> None:
    """MOON-INV-1 / MOON-SETUP-2: the 22 tiles, each exactly once, over the zones."""
    everything = snap.all_cards()
    ok = everything == TILESET
    if not ok:
        extra = sorted((everything - TILESET).elements())
        missing = sorted((TILESET - everything).elements())
        clause = "MOON-SETUP-2" if any(t not in TILESET for t in extra) else "MOON-INV-1"
        props.expect(
            clause,
            False,
            "the zones must hold each of the 22 Moon tiles ([0-0] and [a-b], 1<=b<=a<=6) exactly once",
            "22 distinct tiles",
            {"extra": extra, "missing": missing},
        )
    props.cover("MOON-INV-1", "MOON-SETUP-2")


@checks("MOON-INV-1", "MOON-SETUP-2", "MOON-INV-8")
def every_tile_once(props: MoonProperties, step: Step) -> None:
    conservation(props, step.after)
    before, after = step.before, step.after
    hand_over = before.phase == "play" and after.phase != "play"
    if not hand_over:
        props.expect(
            "MOON-INV-8",
            after.scores == before.scores,
            "scores change only when a hand is scored at the end of its seventh trick",
            before.scores,
            after.scores,
        )


@checks("MOON-DEAL-1", "MOON-INV-2", "MOON-BID-1", "MOON-BID-2", "MOON-INV-3", "MOON-INV-10")
def the_deal(props: MoonProperties, step: Step) -> None:
    """After a deal: hands and widow as sent, bidding opens at the rotating first-bidder seat."""
    if step.kind != "deal":
        return
    hands = _dealt_as_sent(props, step)
    _first_bidder(props, step.after)
    _fresh_hand(props, step.after)
    props.dealt = hands
    props.widow = step.move["widow"]
    props.bids = [None] * N
    props.declarer, props.bid, props.contract = None, 0, None
    props.tricks = [0] * N
    props.plays = 0
    props.steer = None


def _dealt_as_sent(props: MoonProperties, step: Step) -> list[Counter[str]]:
    """MOON-DEAL-1 / MOON-INV-2: the hands and widow as dealt, nothing elsewhere, one more round."""
    before, after, move = step.before, step.after, step.move
    hands = [Counter(_hand(after, s)) for s in range(N)]
    props.expect(
        "MOON-DEAL-1",
        hands == [Counter(h) for h in move["hands"]] and after.zone("widow") == [move["widow"]],
        "each seat holds the 7 tiles dealt to it and the 22nd tile is the widow",
        {"hands": move["hands"], "widow": [move["widow"]]},
        {"hands": [_hand(after, s) for s in range(N)], "widow": after.zone("widow")},
    )
    rest = {z: after.zone(z) for z in ("discarded", "trick", "won/0", "won/1", "won/2") if after.zone(z)}
    props.expect(
        "MOON-INV-2",
        all(sum(h.values()) == HAND for h in hands) and len(after.zone("widow")) == 1 and not rest,
        "after the deal the hands hold 7/7/7, the widow 1, and nothing lies elsewhere",
        {"hands": [7, 7, 7], "widow": 1, "elsewhere": {}},
        {"hands": [sum(h.values()) for h in hands], "widow": len(after.zone("widow")), "elsewhere": rest},
    )
    rnd = before.get("round", 0) + 1
    props.expect(
        "MOON-DEAL-1",
        after.get("round") == rnd,
        "each deal (a void hand's too) counts one more round",
        rnd,
        after.get("round"),
    )
    return hands


def _first_bidder(props: MoonProperties, after: Snapshot) -> None:
    """MOON-BID-1: the first hand opens left of the dealer; every later hand (void ones too) one seat on."""
    opener = (props.setup.dealer + 1 + props.hands_dealt) % N
    props.hands_dealt += 1
    props.opener = opener
    props.expect(
        "MOON-BID-1",
        after.phase == "bid" and after.to_act == opener and after.get("first_bidder") == opener,
        f"hand {props.hands_dealt} is bid first by seat {opener}: "
        "left of the first dealer, one seat clockwise per hand dealt before",
        {"phase": "bid", "to_act": opener, "first_bidder": opener},
        {"phase": after.phase, "to_act": after.to_act, "first_bidder": after.get("first_bidder")},
    )
    props.expect(
        "MOON-BID-1",
        after.get("dealer") == (opener - 1) % N,
        "the dealer moves left with the first bidder: the first bidder sits left of the dealer",
        (opener - 1) % N,
        after.get("dealer"),
    )


def _fresh_hand(props: MoonProperties, after: Snapshot) -> None:
    """MOON-BID-2 / MOON-INV-3: a new hand starts with no bids, no declarer and no contract."""
    props.expect(
        "MOON-BID-2",
        list(after.get("bids") or []) == [None] * N,
        "a fresh hand starts with no bidding action taken",
        [None] * N,
        after.get("bids"),
    )
    props.expect(
        "MOON-INV-3",
        after.get("declarer") is None and after.get("contract") is None,
        "a fresh hand has no declarer and no contract before bidding",
        {"declarer": None, "contract": None},
        {"declarer": after.get("declarer"), "contract": after.get("contract")},
    )
    if props.hands_dealt > 1:
        props.cover("MOON-INV-10")  # the game went on to another hand: no hand cap


@checks("MOON-BID-2", "MOON-BID-4", "MOON-BID-5", "MOON-BID-6", "MOON-INV-3", "MOON-WIDOW-1", "MOON-INV-4")
def bidding_outcome(props: MoonProperties, step: Step) -> None:
    """After a bid or pass: the auction goes on, closes on a declarer, or (all pass) voids the hand."""
    before, after = step.before, step.after
    if before.phase != "bid" or step.kind not in ("bid", "pass"):
        return
    seat = before.to_act
    assert seat is not None
    value = step.move.get("value") if step.kind == "bid" else "pass"
    props.bids[seat] = value
    acted = sum(1 for b in props.bids if b is not None)
    high = _high(props.bids)
    closed = value == SHOOT or acted == N
    if not closed:
        _next_bidder(props, after, seat)
    elif high == 0:
        _void_hand(props, step)
    else:
        _declarer_named(props, after, value == SHOOT and acted < N, N - acted, high)


def _next_bidder(props: MoonProperties, after: Snapshot, seat: int) -> None:
    """MOON-BID-2: an open auction passes clockwise, each seat acting once."""
    props.expect(
        "MOON-BID-2",
        after.phase == "bid" and after.to_act == (seat + 1) % N,
        "after a bid or pass below 21 the next seat clockwise bids (each seat once)",
        {"phase": "bid", "to_act": (seat + 1) % N},
        {"phase": after.phase, "to_act": after.to_act},
    )
    props.expect(
        "MOON-INV-3",
        list(after.get("bids") or []) == props.bids,
        "`bids` records each action of the hand",
        props.bids,
        after.get("bids"),
    )


def _void_hand(props: MoonProperties, step: Step) -> None:
    """MOON-BID-6: all three passed; only possible under redeal (forced_bid forbids the third pass)."""
    before, after = step.before, step.after
    props.expect(
        "MOON-BID-6",
        after.phase == "deal" and after.get("declarer") is None and after.scores == before.scores,
        "when all three pass the hand is void: no declarer, no score, a fresh deal",
        {"phase": "deal", "declarer": None, "scores": before.scores},
        {"phase": after.phase, "declarer": after.get("declarer"), "scores": after.scores},
    )
    props.cover("MOON-INV-3")


def _declarer_named(props: MoonProperties, after: Snapshot, shot_early: bool, silent: int, high: int) -> None:
    """MOON-BID-4/5: the auction closed (a 21 closes it at once, leaving ``silent`` seats out) on the
    highest bidder, who takes the widow."""
    declarer = props.bids.index(high)
    if shot_early:
        props.expect(
            "MOON-BID-4",
            after.phase == "discard",
            f"a bid of 21 ends the bidding at once: {silent} seat(s) never act",
            "discard",
            after.phase,
        )
    props.expect(
        "MOON-BID-5",
        after.phase == "discard" and after.to_act == declarer and after.get("declarer") == declarer,
        f"bidding is over ({props.bids}): the highest bidder, seat {declarer}, is declarer and takes the widow",
        {"phase": "discard", "to_act": declarer, "declarer": declarer},
        {"phase": after.phase, "to_act": after.to_act, "declarer": after.get("declarer")},
    )
    props.expect(
        "MOON-INV-3",
        list(after.get("bids") or []) == props.bids,
        "`bids` records each action of the hand (seats after a 21 never act)",
        props.bids,
        after.get("bids"),
    )
    props.declarer, props.bid = declarer, high
    _widow_taken(props, after, declarer)


def _widow_taken(props: MoonProperties, after: Snapshot, declarer: int) -> None:
    """MOON-WIDOW-1: the declarer now holds the widow, 8 tiles; the others are unchanged."""
    want = [props.dealt[s] + (Counter([props.widow]) if s == declarer and props.widow else Counter()) for s in range(N)]
    got = [Counter(_hand(after, s)) for s in range(N)]
    props.expect(
        "MOON-WIDOW-1",
        got == want and not after.zone("widow"),
        "the declarer adds the widow to the 7 dealt tiles (8 tiles); the other hands are unchanged",
        [sorted(w.elements()) for w in want],
        {"hands": [sorted(g.elements()) for g in got], "widow": after.zone("widow")},
    )
    props.cover("MOON-INV-4")


@checks("MOON-BID-2", "MOON-BID-3", "MOON-BID-6", "MOON-INV-3")
def bidding_moves(props: MoonProperties, step: Step) -> None:
    """Whose turn it is to bid, and exactly which bids (and pass) are open to them."""
    after = step.after
    if after.phase != "bid":
        return
    acted = sum(1 for b in props.bids if b is not None)
    seat = (props.opener + acted) % N
    props.expect(
        "MOON-BID-2",
        after.to_act == seat,
        "bidding runs clockwise from the first bidder, one action each",
        seat,
        after.to_act,
    )
    props.expect(
        "MOON-INV-3",
        after.get("declarer") is None,
        "nobody is declarer while bidding goes on",
        None,
        after.get("declarer"),
    )
    high = _high(props.bids)
    want_bids = {v for v in BIDS if v > high}
    got_bids = {m.get("value") for m in after.moves if m.get("type") == "bid"}
    props.expect(
        "MOON-BID-3",
        got_bids == want_bids,
        f"the open bids are the values of {{4,5,6,7,21}} above the high bid {high or 'none'}",
        sorted(want_bids),
        sorted(got_bids, key=str),
    )
    forced = props.all_pass == "forced_bid" and acted == N - 1 and all(b in (None, "pass") for b in props.bids)
    has_pass = any(m.get("type") == "pass" for m in after.moves)
    others = [m for m in after.moves if m.get("type") not in ("bid", "pass")]
    if forced:
        props.expect(
            "MOON-BID-6",
            not has_pass,
            "under all_pass=forced_bid the third bidder may not pass after two passes",
            "no pass",
            "pass listed",
        )
    else:
        props.expect("MOON-BID-2", has_pass, "every bidder may pass (unless forced)", "pass listed", "no pass")
    props.expect("MOON-BID-2", not others, "during bidding the only moves are bid and pass", [], others[:3])


@checks("MOON-WIDOW-1", "MOON-INV-4", "MOON-TRUMP-1", "MOON-LEAD-1", "MOON-INV-6")
def widow_and_trump(props: MoonProperties, step: Step) -> None:
    """The discard (one of the 8 tiles, any of them) and the trump choice."""
    before, after = step.before, step.after
    if after.phase == "discard":
        _discard_offered(props, after)
    if step.kind == "discard" and before.phase == "discard":
        _widow_exchange(props, step)
    if after.phase == "trump":
        _trumps_offered(props, after)
    if step.kind == "trump" and before.phase == "trump":
        _contract_named(props, step)


def _discard_offered(props: MoonProperties, after: Snapshot) -> None:
    """MOON-WIDOW-1: the declarer may discard any one of its 8 tiles."""
    d = props.declarer
    hand = set(_hand(after, d)) if d is not None else set()
    got = {m.get("tile") for m in after.moves if m.get("type") == "discard"}
    props.expect(
        "MOON-WIDOW-1",
        got == hand and len(after.moves) == len(hand),
        "the declarer discards exactly one of their 8 tiles, any of them (the widow included)",
        *move_diff([{"type": "discard", "tile": t} for t in hand], after.moves),
    )


def _widow_exchange(props: MoonProperties, step: Step) -> None:
    """MOON-INV-4 / MOON-WIDOW-1: the discarded tile leaves the declarer's hand, who then names trumps."""
    before, after = step.before, step.after
    d = before.to_act
    assert d is not None  # the discard phase has a declarer to act
    t = step.move["tile"]
    want = [Counter(_hand(before, s)) - (Counter([t]) if s == d else Counter()) for s in range(N)]
    got = [Counter(_hand(after, s)) for s in range(N)]
    props.expect(
        "MOON-INV-4",
        got == want and after.zone("discarded") == [t] and sum(want[d].values()) == HAND,
        "after the exchange the declarer holds 7, the discard holds the one tile discarded, the others are unchanged",
        {"hand": sorted(want[d].elements()), "discarded": [t]},
        {"hand": sorted(got[d].elements()), "discarded": after.zone("discarded")},
    )
    props.expect(
        "MOON-WIDOW-1",
        after.phase == "trump" and after.to_act == d,
        "after the discard the declarer names trumps",
        {"phase": "trump", "to_act": d},
        {"phase": after.phase, "to_act": after.to_act},
    )
    if t == props.widow:
        props.cover("MOON-WIDOW-1")


def _trumps_offered(props: MoonProperties, after: Snapshot) -> None:
    """MOON-TRUMP-1: a number 0-6, no trump, or doubles where the options allow them."""
    want_s = set(range(7)) | {"none"} | ({"doubles"} if props.doubles_ok else set())
    got_s = [m.get("suit") for m in after.moves if m.get("type") == "trump"]
    props.expect(
        "MOON-TRUMP-1",
        set(got_s) == want_s and len(after.moves) == len(want_s),
        "the declarer names a number 0-6, no trump, or doubles (only if doubles_trump is on)",
        sorted(want_s, key=str),
        sorted(got_s, key=str),
    )


def _contract_named(props: MoonProperties, step: Step) -> None:
    """MOON-TRUMP-1 / MOON-LEAD-1: the named contract holds, and the declarer leads."""
    after = step.after
    props.contract = step.move["suit"]
    props.expect(
        "MOON-TRUMP-1",
        after.get("contract") == props.contract and after.phase == "play",
        "the named contract holds for the hand's play",
        {"contract": props.contract, "phase": "play"},
        {"contract": after.get("contract"), "phase": after.phase},
    )
    props.expect(
        "MOON-LEAD-1",
        after.to_act == props.declarer and not after.zone("trick"),
        "the declarer leads the first trick",
        props.declarer,
        after.to_act,
    )
    props.cover("MOON-INV-6")


@checks("MOON-INV-5")
def each_play_follows(props: MoonProperties, step: Step) -> None:
    """MOON-INV-5: the tile played is one MOON-FOLLOW-1..3 allow against the hand before it
    (judged on the tile played, whatever legal_moves listed)."""
    before = step.before
    if step.kind != "play" or before.phase != "play" or before.to_act is None:
        return
    allowed = legal_plays(_hand(before, before.to_act), before.zone("trick"), before.get("contract"))
    tile = step.move.get("tile")
    props.expect(
        "MOON-INV-5",
        tile in allowed,
        "a play follows the led suit when the hand can, against the hand before it",
        {"one of": sorted(allowed)},
        {"played": tile},
    )


@checks(
    "MOON-LEAD-1",
    "MOON-LEAD-2",
    "MOON-LEAD-3",
    "MOON-FOLLOW-1",
    "MOON-FOLLOW-2",
    "MOON-FOLLOW-3",
    "MOON-TRUMP-2",
    "MOON-TRUMP-3",
    "MOON-TRUMP-4",
    "MOON-INV-6",
    "MOON-TRUMP-1",
)
def who_plays_what(props: MoonProperties, step: Step) -> None:
    """During play: the seat to act, and exactly the tiles it may play."""
    after = step.after
    if after.phase != "play":
        return
    seat = after.to_act
    assert seat is not None
    contract = after.get("contract")
    props.expect(
        "MOON-TRUMP-1",
        contract == props.contract,
        "the contract stays as named for the whole hand",
        props.contract,
        contract,
    )
    trick = after.zone("trick")
    seats = list(after.get("trick_seats") or [])
    if trick:
        props.expect(
            "MOON-INV-6",
            len(seats) == len(trick) and after.get("leader") == seats[0] and seat == (seats[-1] + 1) % N,
            "a trick is played clockwise from its leader, one tile per seat",
            {"to_act": (seats[-1] + 1) % N if seats else None, "leader": seats[0] if seats else None},
            {"to_act": seat, "leader": after.get("leader"), "trick_seats": seats},
        )
    hand = _hand(after, seat)
    want = legal_plays(hand, trick, contract)
    got = {m.get("tile") for m in after.moves if m.get("type") == "play"}
    ok = got == set(want) and len(after.moves) == len(want)
    if trick:
        s = led_suit(trick[0], contract)
        if s == "T":
            base = "MOON-FOLLOW-1" if any(is_trump(t, contract) for t in hand) else "MOON-FOLLOW-3"
            props.cover("MOON-LEAD-2")
        else:
            base = "MOON-FOLLOW-2" if any(follows(t, s, contract) for t in hand) else "MOON-FOLLOW-3"
            props.cover("MOON-LEAD-3")
        props.cover(base)
        if contract == "doubles":
            props.cover("MOON-TRUMP-3")
        elif contract == "none":
            props.cover("MOON-TRUMP-4")
        else:
            props.cover("MOON-TRUMP-2")
        clause = base if ok else follow_clause(hand, trick, contract, got)
        what = (
            f"the led tile {trick[0]} calls for "
            + ("trumps" if s == "T" else f"{s}s")
            + f" under contract {contract!r}: play a following tile if held, else any tile"
        )
    else:
        clause, what = "MOON-LEAD-1", "any tile in hand may be led"
    props.expect(clause, ok, what, *move_diff([{"type": "play", "tile": t} for t in want], after.moves))


@checks(
    "MOON-INV-1",
    "MOON-WIN-1",
    "MOON-WIN-2",
    "MOON-RANK-1",
    "MOON-RANK-2",
    "MOON-RANK-3",
    "MOON-INV-6",
    "MOON-INV-7",
    "CONTRACT-TURN-1",
    "MOON-TRUMP-3",
    "MOON-TRUMP-4",
    "MOON-LEAD-3",
)
def trick_play(props: MoonProperties, step: Step) -> None:
    """A play: the tile leaves the hand; the trick grows clockwise or goes to its winner."""
    before, after = step.before, step.after
    if step.kind != "play" or before.phase != "play":
        return
    seat, t = before.to_act, step.move["tile"]
    assert seat is not None
    props.expect(
        "MOON-INV-1", t in _hand(before, seat), "a play is a tile from the player's own hand", "a held tile", t
    )
    props.plays += 1
    trick = [*before.zone("trick"), t]
    seats = [*list(before.get("trick_seats") or []), seat]
    if len(trick) < N:
        _trick_grows(props, after, trick, seats)
        return
    w = trick_winner(trick, props.contract)
    winner = seats[w]
    last = props.plays == N * TRICKS
    observable = not last or sum(len(after.zone(f"won/{s}")) for s in range(N)) == N * TRICKS
    got = _trick_taken(props, step, trick, seats, w) if observable else None
    props.tricks[got if got is not None else winner] += 1
    if not last:
        props.expect(
            "MOON-WIN-2",
            after.phase == "play" and after.to_act == (winner if got is None else got) and not after.zone("trick"),
            "the trick winner leads the next trick",
            {"phase": "play", "to_act": got},
            {"phase": after.phase, "to_act": after.to_act, "trick": after.zone("trick")},
        )
        return
    _hand_played_out(props, after)


def _trick_grows(props: MoonProperties, after: Snapshot, trick: list[str], seats: list[int]) -> None:
    """MOON-INV-6 / CONTRACT-TURN-1: an unfinished trick keeps its tiles in order; the next seat plays."""
    props.expect(
        "MOON-INV-6",
        after.zone("trick") == trick and list(after.get("trick_seats") or []) == seats,
        "the tile joins the trick in play order",
        {"trick": trick, "trick_seats": seats},
        {"trick": after.zone("trick"), "trick_seats": after.get("trick_seats")},
    )
    props.expect(
        "CONTRACT-TURN-1",
        after.phase == "play" and after.to_act == (seats[-1] + 1) % N,
        "play passes to the left",
        (seats[-1] + 1) % N,
        after.to_act,
    )


def _trick_taken(props: MoonProperties, step: Step, trick: list[str], seats: list[int], w: int) -> int | None:
    """MOON-INV-6 / MOON-WIN-1 / MOON-RANK-1..3: the whole trick goes to the seat of its winning tile
    (``trick[w]``). Answers the seat that took it, or None when no single won stack gained exactly the trick."""
    before, after, contract = step.before, step.after, props.contract
    winner = seats[w]
    gains = {s: _gain(after, before, f"won/{s}") for s in range(N)}
    takers = [s for s in range(N) if gains[s]]
    got = takers[0] if len(takers) == 1 and gains[takers[0]] == Counter(trick) else None
    if got is None:
        props.expect(
            "MOON-INV-6",
            False,
            "the completed trick goes whole onto one won stack",
            {f"won/{winner}": sorted(trick)},
            {f"won/{s}": sorted(g.elements()) for s, g in gains.items() if g},
        )
    trumps = [x for x in trick if is_trump(x, contract)]
    if trumps:
        if len(trumps) > 1:
            props.cover("MOON-RANK-3" if contract == "doubles" else "MOON-RANK-2")
    elif sum(1 for x in trick if follows(x, led_suit(trick[0], contract), contract)) > 1:
        props.cover("MOON-RANK-1")
    clause = "MOON-WIN-1" if got in (winner, None) else winner_clause(trick, contract, seats.index(got))
    props.expect(
        clause,
        got in (winner, None),
        f"under contract {contract!r} the trick {trick} is won by {trick[w]}: "
        "the highest trump, else the highest tile of the led suit",
        {"winner": winner, "tile": trick[w]},
        {"winner": got, "tile": trick[seats.index(got)] if got is not None else None},
    )
    return got


def _hand_played_out(props: MoonProperties, after: Snapshot) -> None:
    """MOON-WIN-2 / MOON-INV-7: after 7 tricks of 3 tiles the hand is over and every hand is empty."""
    props.expect(
        "MOON-WIN-2",
        after.phase in ("deal", "over"),
        "a hand is exactly 7 tricks of 3 tiles: after the 21st tile the hand is over",
        "deal or over",
        after.phase,
    )
    hands = {s: _hand(after, s) for s in range(N) if _hand(after, s)}
    props.expect(
        "MOON-INV-7",
        not hands and sum(props.tricks) == TRICKS,
        "after 7 tricks every hand is empty and the trick counts add up to 7",
        {"hands": {}, "tricks": TRICKS},
        {"hands": hands, "tricks": sum(props.tricks)},
    )


@checks(
    "MOON-SCORE-1",
    "MOON-SCORE-2",
    "MOON-SCORE-3",
    "MOON-INV-8",
    "MOON-END-1",
    "MOON-END-2",
    "MOON-INV-9",
    "MOON-INV-10",
)
def hand_end(props: MoonProperties, step: Step) -> None:
    """Scoring after the seventh trick, then the next deal or the end of the game."""
    before, after = step.before, step.after
    if after.phase == "over" and not (before.phase == "play" and step.kind == "play"):
        props.expect("MOON-END-1", False, "the game can only end when a hand is scored", before.phase, "over")
    if before.phase != "play" or after.phase == "play" or step.kind != "play":
        return
    d, b = props.declarer, props.bid
    if d is None:
        return
    k = props.tricks[d]
    made = k >= b if b != SHOOT else k == TRICKS
    if b == SHOOT and made and props.shoot == "wins_game":
        _moon_shot(props, step, d)
        return
    _hand_scored(props, step, d, made)
    _end_rule(props, after)


def _moon_shot(props: MoonProperties, step: Step, d: int) -> None:
    """MOON-SCORE-2 (shoot=wins_game): a made 21 ends the game for the declarer, scores untouched."""
    after, old, new = step.after, step.before.scores, step.after.scores
    props.situation("MOON-SCORE-2", "made")
    props.expect(
        "MOON-SCORE-2",
        after.phase == "over" and (after.get("result") or {}).get("winners") == [d] and new == old,
        "a made 21 (all 7 tricks) wins the game at once for the declarer; the scores stay as they were",
        {"phase": "over", "winners": [d], "scores": old},
        {"phase": after.phase, "result": after.get("result"), "scores": new},
    )


def _score_situation(b: int, k: int, made: bool) -> str:
    """The reading of MOON-SCORE-1/2 a hand tells apart: a 21 made or failed; a lower bid failed,
    made exactly or made with overtricks."""
    if b == SHOOT:
        return "made" if made else "failed"
    if not made:
        return "failed"
    return "made-exactly" if k == b else "overtricks"


def _hand_scored(props: MoonProperties, step: Step, d: int, made: bool) -> None:
    """MOON-SCORE-1..3 / MOON-INV-8: the declarer scores or loses the bid, each opponent its tricks."""
    old, new = step.before.scores, step.after.scores
    b, k = props.bid, props.tricks[d]
    want = list(old)
    want[d] += (SHOOT if made else -SHOOT) if b == SHOOT else (b if made else -b)
    for s in range(N):
        if s != d:
            want[s] += props.tricks[s]
    dclause = "MOON-SCORE-2" if b == SHOOT else "MOON-SCORE-1"
    props.situation(dclause, _score_situation(b, k, made))
    props.expect(
        dclause,
        new[d] == want[d],
        f"the declarer bid {b} and took {k}: "
        + ("made, scores the bid exactly" if made else "failed, loses the bid")
        + (" (scores_21: a made 21 scores 21)" if b == SHOOT and made else ""),
        want[d] - old[d],
        new[d] - old[d],
    )
    props.expect(
        "MOON-SCORE-3",
        all(new[s] == want[s] for s in range(N) if s != d),
        "each opponent scores one point per trick won",
        [want[s] - old[s] if s != d else None for s in range(N)],
        [new[s] - old[s] if s != d else None for s in range(N)],
    )
    props.expect(
        "MOON-INV-8", all(new[s] >= old[s] for s in range(N) if s != d), "non-declarers' totals never go down", old, new
    )


def _end_rule(props: MoonProperties, after: Snapshot) -> None:
    """MOON-END-1/2 / MOON-INV-9/10, stated on the engine's own new totals."""
    new = after.scores
    top = max(new)
    leaders = [s for s in range(N) if new[s] == top]
    ends = top >= props.target and len(leaders) == 1
    result = after.get("result") or {}
    if top < props.target or ends:  # a tie at the top is MOON-END-2's
        props.situation(
            "MOON-END-1",
            "below-target" if top < props.target else "wins-at-target" if top == props.target else "wins-above-target",
        )
    if ends:
        props.expect(
            "MOON-END-1",
            after.phase == "over" and result.get("winners") == leaders,
            f"a unique highest total at or above {props.target} wins and ends the game",
            {"phase": "over", "winners": leaders},
            {"phase": after.phase, "result": after.get("result")},
        )
    elif top >= props.target:
        props.expect(
            "MOON-END-2",
            after.phase == "deal",
            f"the highest total ({top}) is shared by seats {leaders}: another hand is played",
            "deal",
            after.phase,
        )
    else:
        props.expect(
            "MOON-END-1",
            after.phase == "deal",
            f"nobody has reached {props.target}: another hand is played",
            "deal",
            after.phase,
        )
    if after.phase == "deal":
        props.cover("MOON-INV-10")
    props.expect(
        "MOON-INV-9",
        not props.reached or top >= props.target,
        f"once the top total has reached {props.target} it never falls below it again "
        "(only the declarer loses, and a tie at the top leaves a non-declarer there)",
        f">= {props.target}",
        new,
    )
    props.reached = props.reached or top >= props.target
