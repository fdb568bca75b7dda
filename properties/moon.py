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

Every transition is judged from the engine's own state: the declarer, the bids, the contract, the
first bidder and the tricks taken are read from the state before the move, never from a record of
the kit's, so one wrong declarer is one MOON-BID-5 and not a wrong widow, lead and score after it.
A wrong list of plays or a wrong trick winner is filed under the one reading of §3.2 that explains
it (a led double calling the doubles, a trump keeping its other suit, the first trump winning:
``follow_readings``, ``winner_readings``); one that two rules' readings explain alike is left to the
positions that tell them apart.  A trick put on the wrong won stack is also MOON-INV-6 (tiles out of
place), a tile wrongly listed and played MOON-INV-5, an action the rules forbid applied MOON-INV-3.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeGuard

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
WON = tuple(f"won/{s}" for s in range(N))

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


def pips(t: str) -> int:
    hi, lo = tile_ends(t)
    return hi + lo


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


# -- which rule a wrong list of plays breaks ---------------------------------------------------
# A reading: the clause it misreads, its name (the finding's cause) and the tiles that follow under it.
Reading = tuple[str, str, Callable[[str], bool]]


def follow_readings(lead: str, contract: Any) -> list[Reading]:
    """The readings of §3.2 a wrong list of following tiles can come from (``follow_clause``).

    A trump lead read as a number lead (LEAD-2); a led double calling the doubles rather than its
    number (LEAD-3; under no trump doubles as trumps give the same, but only this reading is confined
    to double leads: the smaller difference); a trump keeping its
    other number's suit (TRUMP-2), doubles following their number under doubles trump (TRUMP-3),
    doubles out of their suits under no trump (TRUMP-4) or under a number trump (FOLLOW-2); only a
    tile's higher end following (FOLLOW-2, rules.md AMB-6); the lead calling its lower end (LEAD-3).
    """
    hi, lo = tile_ends(lead)
    if is_trump(lead, contract):
        return [
            (
                "MOON-LEAD-2",
                "a trump lead calls its higher end",
                lambda t: not is_trump(t, contract) and hi in tile_ends(t),
            ),
            ("MOON-LEAD-2", "a trump lead calls its higher end, trumps too", lambda t: hi in tile_ends(t)),
        ]
    readings: list[Reading] = []
    if hi == lo:
        readings.append(
            ("MOON-LEAD-3", "a led double calls the doubles", lambda t: is_double(t) and not is_trump(t, contract))
        )
    if contract == "doubles":
        readings.append(("MOON-TRUMP-3", "a trump double follows its number", lambda t: hi in tile_ends(t)))
    elif isinstance(contract, int) and not isinstance(contract, bool):
        readings.append(("MOON-TRUMP-2", "a trump follows its other number", lambda t: hi in tile_ends(t)))
        readings.append(
            (
                "MOON-FOLLOW-2",
                "a double follows no number suit",
                lambda t: follows(t, hi, contract) and not is_double(t),
            )
        )
    elif hi != lo:  # (on a double lead, doubles as trumps give what the narrower LEAD-3 reading gives)
        readings.append(
            (
                "MOON-TRUMP-4",
                "a double is out of its suit under no trump",
                lambda t: hi in tile_ends(t) and not is_double(t),
            )
        )
    readings.append(
        ("MOON-FOLLOW-2", "only the higher end follows", lambda t: not is_trump(t, contract) and tile_ends(t)[0] == hi)
    )
    if hi != lo:
        readings.append(
            ("MOON-LEAD-3", "a lead calls its lower end", lambda t: not is_trump(t, contract) and lo in tile_ends(t))
        )
    return readings


def base_follow_clause(hand: Sequence[str], lead: str, contract: Any) -> str:
    """The rule that decides this position when no narrower reading explains a difference: the duty to
    follow (FOLLOW-1 on a trump lead, FOLLOW-2 on a number lead), or FOLLOW-3 when the hand cannot follow."""
    s = led_suit(lead, contract)
    if any(follows(t, s, contract) for t in hand):
        return "MOON-FOLLOW-1" if s == "T" else "MOON-FOLLOW-2"
    return "MOON-FOLLOW-3"


def _one(found: dict[str, str], shown: frozenset[str]) -> tuple[str, str] | None:
    """The clause (and cause) of the readings that explain a deviation: the one rule they name; of several,
    the only one this engine has already shown alone in this game (``shown``); else None."""
    if len(found) == 1:
        return next(iter(found.items()))
    known = [item for item in found.items() if item[0] in shown]
    return known[0] if len(known) == 1 else None


# the causes that name no reading (the rule of the position, when nothing explains a deviation)
UNEXPLAINED = frozenset(
    {
        "tiles that do not follow listed",
        "following tiles missing",
        "another trump ranked higher",
        "a tile that is no trump beat a trump",
        "another tile of the led suit ranked higher",
        "a tile off the led suit won",
    }
)


def resolve(shown: set[str], attribute: Callable[[frozenset[str]], tuple[str, str] | None]) -> tuple[str, str] | None:
    """``attribute`` (a deviation's clause, given the readings shown) and the game's memory of readings:
    one that alone explains this deviation is remembered, so that a later one several explain alike goes
    to the reading this engine has shown (the engine's behaviour, never the game's state)."""
    found = attribute(frozenset())
    if found is None:
        return attribute(frozenset(shown))
    if found[1] not in UNEXPLAINED:
        shown.add(found[0])
    return found


def follow_clause(
    hand: Sequence[str], trick: Sequence[str], contract: Any, got: set[Any], shown: frozenset[str] = frozenset()
) -> tuple[str, str] | None:
    """The clause (and cause) behind a list of plays ``got`` that is not the rules' for this trick.

    A reading explains ``got`` when its following tiles are exactly ``got``, or when it finds none in
    the hand and ``got`` is the whole hand (so does "no duty to follow", FOLLOW-1/2).  One rule
    explaining it names it; none leaves the rule of this position (``base_follow_clause``); several
    (a [6-2] and a [3-2] under 3s, listed on a [2-2] lead, are what a trump keeping its 2 and a tile
    following by its higher end only both give) tell nothing: None, left to the positions that tell
    them apart, which an engine with either bug soon meets.
    """
    lead, whole = trick[0], set(hand)
    found: dict[str, str] = {}
    for clause, name, pred in follow_readings(lead, contract):
        if ({t for t in hand if pred(t)} or whole) == got:
            found.setdefault(clause, name)
    base = base_follow_clause(hand, lead, contract)
    if got == whole:
        found.setdefault(base, "no duty to follow")
    if found:
        return _one(found, shown)
    return base, "tiles that do not follow listed" if got - set(
        legal_plays(hand, trick, contract)
    ) else "following tiles missing"


# -- which rule a wrong trick winner breaks ------------------------------------------------------
def _best(indices: Sequence[int], key: Callable[[int], int]) -> int | None:
    return max(indices, key=key) if indices else None


def winner_readings(trick: Sequence[str], contract: Any) -> list[tuple[str, str, int | None]]:
    """The winners other readings of §3.2 give this trick (clause, cause, index; None: no other winner)."""
    n = range(len(trick))
    doubles = [i for i in n if is_double(trick[i])]
    trumps = [i for i in n if is_trump(trick[i], contract)]
    if trumps:
        out: list[tuple[str, str, int | None]] = []
        if contract == "doubles":
            out.append(("MOON-RANK-3", "[0-0] the highest trump", trick.index("0-0") if "0-0" in trick else None))
            plain = trick_winner(trick, "none")  # the winner if doubles were no trumps: only a non-trump tells
            out.append(("MOON-TRUMP-3", "doubles are no trumps", None if is_double(trick[plain]) else plain))
        elif isinstance(contract, int) and not isinstance(contract, bool):
            out.append(("MOON-RANK-2", "trumps ranked by pips", _best(trumps, lambda i: pips(trick[i]))))
        out.append(("MOON-WIN-1", "the first trump wins", trumps[0]))
        s = led_suit(trick[0], contract)
        if s != "T":
            followers = [i for i in n if follows(trick[i], s, contract)]
            out.append(
                ("MOON-WIN-1", "a trump does not beat the led suit", _best(followers, lambda i: suit_rank(trick[i], s)))
            )
        return out
    hi, lo = tile_ends(trick[0])
    out = []
    if hi == lo:
        out.append(("MOON-LEAD-3", "a led double calls the doubles", _best(doubles, lambda i: pips(trick[i]))))
    if contract == "none" and hi != lo:  # on a double lead, the narrower LEAD-3 reading above says the same
        out.append(("MOON-TRUMP-4", "doubles are trumps under no trump", _best(doubles, lambda i: pips(trick[i]))))
    high_only = [0, *(i for i in n if i and not is_trump(trick[i], contract) and tile_ends(trick[i])[0] == hi)]
    out.append(("MOON-FOLLOW-2", "only the higher end follows", _best(high_only, lambda i: suit_rank(trick[i], hi))))
    if hi != lo:
        lower = [i for i in n if not is_trump(trick[i], contract) and lo in tile_ends(trick[i])]
        out.append(("MOON-LEAD-3", "a lead calls its lower end", _best(lower, lambda i: suit_rank(trick[i], lo))))
    followers = [i for i in n if follows(trick[i], hi, contract)]
    out.append(("MOON-RANK-1", "a double ranked by its number", _best(followers, lambda i: other_end(trick[i], hi))))
    return out


def winner_clause(
    trick: Sequence[str], contract: Any, got: int, shown: frozenset[str] = frozenset()
) -> tuple[str, str] | None:
    """The clause (and cause) behind a wrong trick winner (index ``got`` instead of the rules').

    The one rule whose readings give ``got`` names it; none leaves the rule the winner breaks (the
    ranking when the taker is of the winning kind, else MOON-WIN-1); several (['5-1', '1-1', '3-1']
    under 1s taken by [5-1]: trumps by pips, or the first trump) tell nothing: None, left to the
    tricks that tell them apart.
    """
    found: dict[str, str] = {}
    for clause, name, i in winner_readings(trick, contract):
        if i == got:
            found.setdefault(clause, name)
    if found:
        return _one(found, shown)
    w = trick[got]
    if any(is_trump(t, contract) for t in trick):
        if is_trump(w, contract):
            return ("MOON-RANK-3" if contract == "doubles" else "MOON-RANK-2"), "another trump ranked higher"
        return "MOON-WIN-1", "a tile that is no trump beat a trump"
    if follows(w, led_suit(trick[0], contract), contract):
        return "MOON-RANK-1", "another tile of the led suit ranked higher"
    return "MOON-WIN-1", "a tile off the led suit won"


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


# -- the engine's state, read (never a record of the kit's) ---------------------------------------
def _seat(value: Any) -> int | None:
    """A seat number, or None for anything else (null, a bool, out of range)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < N else None


def _declarer(snap: Snapshot) -> int | None:
    """The engine's declarer; the seat to act stands in while the widow and trumps wait for one."""
    d = _seat(snap.get("declarer"))
    return d if d is not None or snap.phase not in ("discard", "trump") else snap.to_act


def _bids(snap: Snapshot) -> list[Any]:
    bids = snap.get("bids")
    return list(bids) if isinstance(bids, list) and len(bids) == N else [None] * N


def _value(b: Any) -> TypeGuard[int]:
    """A bid value (or a number contract): an integer, not a bool."""
    return isinstance(b, int) and not isinstance(b, bool)


def _high(bids: Sequence[Any]) -> int:
    return max((b for b in bids if _value(b)), default=0)


def _hand(snap: Snapshot, seat: int) -> list[str]:
    return snap.zone(f"hand/{seat}")


def _gain(after: Snapshot, before: Snapshot, zone: str) -> Counter[str]:
    return Counter(after.zone(zone)) - Counter(before.zone(zone))


def _won_tiles(snap: Snapshot) -> int:
    return sum(len(snap.zone(z)) for z in WON)


def _taker(before: Snapshot, after: Snapshot, trick: list[str]) -> tuple[int | None, dict[int, Counter[str]]]:
    """The seat whose won stack gained exactly the completed ``trick`` (None when no single stack
    did), and every stack's gain (asked by three checks of the same step: the last answer is kept)."""
    if _TAKEN[0] is before and _TAKEN[1] is after:
        return _TAKEN[2]  # type: ignore[no-any-return]
    gains = {s: _gain(after, before, WON[s]) for s in range(N)}
    takers = [s for s in range(N) if gains[s]]
    got = takers[0] if len(takers) == 1 and gains[takers[0]] == Counter(trick) else None
    _TAKEN[:] = [before, after, (got, gains)]
    return got, gains


_TAKEN: list[Any] = [None, None, None]  # the step (its two snapshots) _taker last answered for, and the answer


def _completed(step: Step) -> tuple[list[str], list[int]] | None:
    """The trick a play completed (its tiles and seats in play order), or None."""
    before = step.before
    if step.kind != "play" or before.phase != "play" or before.to_act is None:
        return None
    trick = [*before.zone("trick"), str(step.move.get("tile"))]
    if len(trick) < N:
        return None
    return trick, [*list(before.get("trick_seats") or []), before.to_act]


def _last_trick(step: Step) -> bool:
    """The play completes the hand's seventh trick (six are already on the won stacks)."""
    return _won_tiles(step.before) == N * (TRICKS - 1)


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
    """A play that leaves the trick, so far, with the side this hand's policy wants to win it.

    Declarer, bid, contract and tricks taken are the engine's own (its state), so a house rule that
    names another declarer or takes an equal bid still gets its hands steered for that declarer."""
    d, policy = _declarer(snap), props.steer
    bid_value = _bids(snap)[d] if d is not None else None
    if policy in (None, STEER_FREE) or d is None or not _value(bid_value):
        return None
    want_d = policy == STEER_OVER or (policy == STEER_EXACT and len(snap.zone(WON[d])) // N < bid_value)
    seat, contract = snap.to_act, snap.get("contract")
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


def _choose_bid(snap: Snapshot, m: dict[str, Any], rest: int) -> dict[str, Any]:
    """Mostly open at the lowest bid, then pass, so that 4 often stands (or all pass); a hand holding four
    trumps of one contract shoots the moon one time in sixteen, five trumps one time in eight."""
    moves = snap.moves
    shoot = next((x for x in moves if x.get("type") == "bid" and x.get("value") == SHOOT), None)
    hand = _hand(snap, snap.to_act) if snap.to_act is not None else []
    if shoot is not None and rest % 16 in (0, 8) and _strength(hand, True) >= (4 if rest % 16 == 0 else 5):
        return shoot
    if rest % 4:
        want = "pass" if any(_value(b) for b in _bids(snap)) or rest % 4 == 1 else "bid"
        m = min((x for x in moves if x.get("type") == want), key=lambda x: x.get("value", 0), default=m)
    # a 21 bid almost always fails and ends the auction: pick again once to make it rarer
    if m.get("type") == "bid" and m.get("value") == SHOOT:
        m = moves[(rest // 4) % len(moves)]
    return m


CONTRACTS: tuple[Any, ...] = (*range(7), "doubles")


def _trumps_held(hand: Sequence[str], contract: Any) -> int:
    return sum(1 for t in hand if is_trump(t, contract))


def _strength(hand: Sequence[str], doubles_ok: bool) -> int:
    """The most trumps the hand would hold under one contract."""
    return max(_trumps_held(hand, c) for c in CONTRACTS if c != "doubles" or doubles_ok)


def _shooting(snap: Snapshot) -> bool:
    """The engine's declarer bid 21."""
    d = _declarer(snap)
    return d is not None and _bids(snap)[d] == SHOOT


def _shot_setup(snap: Snapshot, doubles_ok: bool) -> dict[str, Any] | None:
    """For a shot at the moon: name the contract the hand holds most trumps of, and discard its weakest
    tile under it (a listed move; None when the engine lists none of that kind)."""
    hand = _hand(snap, snap.to_act) if snap.to_act is not None else []
    if snap.phase == "trump":
        suits = [m.get("suit") for m in snap.moves if m.get("type") == "trump"]
        listed = [c for c in CONTRACTS if c in suits]
        return trump(max(listed, key=lambda c: _trumps_held(hand, c))) if listed else None
    best = max((c for c in CONTRACTS if c != "doubles" or doubles_ok), key=lambda c: _trumps_held(hand, c))
    tiles = [str(m.get("tile")) for m in snap.moves if m.get("type") == "discard" and m.get("tile") in hand]
    return discard(min(tiles, key=lambda t: power(t, [], best))) if tiles else None


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
        (no overtricks possible) and the declarer mostly fail.  A strong hand now and then shoots the
        moon and plays for all seven tricks (MOON-SCORE-2 made), so that the exploration reaches it
        without the fixtures (which an engine's other deviation may block)."""
        moves = snap.moves
        n = len(moves)
        m = moves[pick % n]
        rest = pick // n
        if snap.phase == "bid":
            return _choose_bid(snap, m, rest)
        shot = _shooting(snap)
        if shot and snap.phase in ("discard", "trump"):
            return _shot_setup(snap, self.doubles_ok) or m
        if snap.phase != "play" or _declarer(snap) is None:
            return m
        if not snap.zone("trick") and self.steer is None:
            self.steer = STEER_OVER if shot else rest % len(STEERS)
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
        "MOON-FOLLOW-3",
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
        bids = _bids(snap)
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
    """MOON-INV-1: a tile not held; a revoke the engine does not list (MOON-FOLLOW-1/2, the duty to
    follow); MOON-WIN-2: a move of another phase."""
    bad: list[tuple[dict[str, Any], str]] = []
    if elsewhere:
        # a tile not in the mover's hand: playing it would break conservation
        bad.append((play(elsewhere[0]), "MOON-INV-1"))
    trick = snap.zone("trick")
    contract = snap.get("contract")
    if trick:
        # a revoke the engine lists is judged by follow_moves (the list, and the tile when played)
        legal = set(legal_plays(hand, trick, contract)) | {m.get("tile") for m in snap.moves if m.get("type") == "play"}
        revokes = [t for t in hand if t not in legal][:2]
        # no reading of the engine's makes a tile it does not list legal: the probe breaks the duty itself
        bad += [(play(t), base_follow_clause(hand, trick[0], contract)) for t in revokes]
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


@checks("MOON-DEAL-1", "MOON-INV-2", "MOON-BID-1", "MOON-INV-3", "MOON-INV-10")
def the_deal(props: MoonProperties, step: Step) -> None:
    """After a deal: hands and widow as sent, bidding opens at the rotating first-bidder seat."""
    if step.kind != "deal":
        return
    _dealt_as_sent(props, step)
    _first_bidder(props, step.after)
    _fresh_hand(props, step.after)
    props.widow = step.move["widow"]
    props.steer = None


def _dealt_as_sent(props: MoonProperties, step: Step) -> None:
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
    rest = {z: after.zone(z) for z in ("discarded", "trick", *WON) if after.zone(z)}
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
    """MOON-INV-3: a new hand starts with no bids, no declarer and no contract (a bid or declarer left
    over from the last hand is a record the rules cannot make: what follows is its consequence)."""
    props.expect(
        "MOON-INV-3",
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


# -- bidding: judged on the engine's own first bidder and bids ------------------------------------
def _auction_open(bids: Sequence[Any]) -> bool:
    """The rules still let someone act: nobody has bid 21 and a seat has not acted."""
    return SHOOT not in bids and any(b is None for b in bids)


@checks("MOON-BID-2", "MOON-INV-3")
def bidding_turn(props: MoonProperties, step: Step) -> None:
    """MOON-BID-2: in an open auction the seat to act is the first one clockwise from the engine's first
    bidder that has not acted, and only bids and passes are listed; MOON-INV-3: nobody is declarer yet."""
    after = step.after
    bids = _bids(after)
    if after.phase != "bid" or not _auction_open(bids):  # an auction the rules close: judged as it closed
        return
    first = _seat(after.get("first_bidder"))
    first = props.opener if first is None else first  # a first bidder that is no seat fails MOON-BID-1
    seat = next((first + k) % N for k in range(N) if bids[(first + k) % N] is None)
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
    others = [m for m in after.moves if m.get("type") not in ("bid", "pass")]
    props.expect("MOON-BID-2", not others, "during bidding the only moves are bid and pass", [], others[:3])


@checks("MOON-BID-3", "MOON-BID-6", "MOON-BID-2")
def bids_offered(props: MoonProperties, step: Step) -> None:
    """MOON-BID-3: the bids open are those above the high bid of the engine's `bids`; the pass is open
    to every bidder (MOON-BID-2) but the third after two passes, whom MOON-BID-6 decides: open under
    `redeal` (the hand is then void), closed under `forced_bid`."""
    after = step.after
    bids = _bids(after)
    if after.phase != "bid" or not _auction_open(bids):
        return
    high = _high(bids)
    want_bids = {v for v in BIDS if v > high}
    got_bids = {m.get("value") for m in after.moves if m.get("type") == "bid"}
    props.expect(
        "MOON-BID-3",
        got_bids == want_bids,
        f"the open bids are the values of {{4,5,6,7,21}} above the high bid {high or 'none'}",
        sorted(want_bids),
        sorted(got_bids, key=str),
        cause="bids not above the high bid listed" if got_bids - want_bids else "higher bids missing",
    )
    has_pass = any(m.get("type") == "pass" for m in after.moves)
    if sum(1 for b in bids if b == "pass") == N - 1:  # two passed: the third bidder acts now
        may = props.all_pass == "redeal"
        props.expect(
            "MOON-BID-6",
            has_pass == may,
            f"under all_pass={props.all_pass} the third bidder "
            + ("may pass after two passes (the hand is then void)" if may else "may not pass after two passes"),
            "pass listed" if may else "no pass",
            "pass listed" if has_pass else "no pass",
        )
    else:
        props.expect("MOON-BID-2", has_pass, "every bidder may pass", "pass listed", "no pass")


def _action(step: Step) -> tuple[int, Any, list[Any]] | None:
    """A bid or pass in phase ``bid``: the seat, the action and the engine's `bids` with it recorded."""
    before = step.before
    seat = before.to_act
    if before.phase != "bid" or step.kind not in ("bid", "pass") or seat is None:
        return None
    value = step.move.get("value") if step.kind == "bid" else "pass"
    bids = _bids(before)
    bids[seat] = value
    return seat, value, bids


@checks("MOON-INV-3", "MOON-BID-3", "MOON-BID-6")
def bid_applied(props: MoonProperties, step: Step) -> None:
    """MOON-INV-3: the action applied is one the rules allow in the engine's auction (a bid of the ladder
    above the high bid; no third pass under forced_bid): an equal bid taken leaves the bidding record
    outside the rules, and what follows from it is its consequence.  An action the engine listed (not
    a probe) also breaks the rule that forbids it (MOON-BID-3 / MOON-BID-6), in this same step."""
    acted = _action(step)
    if acted is None:
        return
    _, value, _ = acted
    earlier = _bids(step.before)
    if value == "pass":
        ok = not (props.all_pass == "forced_bid" and sum(1 for b in earlier if b == "pass") == N - 1)
        rule, what = "MOON-BID-6", "under all_pass=forced_bid no hand is void: a third pass after two was applied"
        want: Any = "a bid"
    else:
        high = _high(earlier)
        ok = value in BIDS and value > high
        rule = "MOON-BID-3"
        what = f"bids strictly increase through {{4,5,6,7,21}}: a bid of {value} over {high or 'none'} was applied"
        want = f"one of {[v for v in BIDS if v > high]}"
    props.expect("MOON-INV-3", ok, what, want, value)
    if not ok and step.move in step.before.moves:
        props.fail(rule, what, want, value, cause="a listed action the rules forbid applied")
    elif value != "pass" or sum(1 for b in earlier if b == "pass") == N - 1:
        props.cover(rule)  # the bid was judged by the ladder, the third pass by the all-pass rule


@checks("MOON-BID-2", "MOON-BID-4", "MOON-BID-5", "MOON-BID-6", "MOON-INV-3")
def auction_closes(props: MoonProperties, step: Step) -> None:
    """After a bid or pass: the auction goes on to the next seat, or closes (a 21 at once, else once all
    three acted) on the highest bidder or, when all passed, on a void hand."""
    acted = _action(step)
    if acted is None:
        return
    seat, value, bids = acted
    after = step.after
    if _auction_open(bids):
        _next_bidder(props, after, seat, bids)
        return
    if _auction_open(_bids(step.before)):  # else the rules had closed it already: reported then
        early = value == SHOOT and None in bids
        props.expect(
            "MOON-BID-4" if early else "MOON-BID-2",
            after.phase != "bid",
            f"a bid of 21 ends the bidding at once: {bids.count(None)} seat(s) never act"
            if early
            else "after every seat has acted once the bidding is over",
            "the bidding closed",
            {"phase": after.phase, "to_act": after.to_act},
        )
    if after.phase == "bid":
        return
    if _high(bids) == 0:
        _void_hand(props, step)
    else:
        _declarer_named(props, after, bids)


def _next_bidder(props: MoonProperties, after: Snapshot, seat: int, bids: list[Any]) -> None:
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
        list(after.get("bids") or []) == bids,
        "`bids` records each action of the hand",
        bids,
        after.get("bids"),
    )


def _void_hand(props: MoonProperties, step: Step) -> None:
    """MOON-BID-6: all three passed; the hand is void (forced_bid forbids the third pass: MOON-INV-3)."""
    before, after = step.before, step.after
    props.expect(
        "MOON-BID-6",
        after.phase == "deal" and after.get("declarer") is None and after.scores == before.scores,
        "when all three pass the hand is void: no declarer, no score, a fresh deal",
        {"phase": "deal", "declarer": None, "scores": before.scores},
        {"phase": after.phase, "declarer": after.get("declarer"), "scores": after.scores},
    )
    props.cover("MOON-INV-3")


def _declarer_named(props: MoonProperties, after: Snapshot, bids: list[Any]) -> None:
    """MOON-BID-5: the auction closed on the highest bidder, who is declarer and acts (the widow is
    MOON-WIDOW-1's).  Two seats hold the high bid only after an equal bid was taken (MOON-INV-3): then
    either of them is the highest bidder."""
    high = _high(bids)
    top = [s for s in range(N) if bids[s] == high]
    declarer = _seat(after.get("declarer"))
    props.expect(
        "MOON-BID-5",
        after.phase in ("discard", "trump", "play") and declarer in top,
        f"bidding is over ({bids}): the highest bidder, seat {' or '.join(map(str, top))}, is declarer",
        {"phase": "discard", "declarer": top[0] if len(top) == 1 else top},
        {"phase": after.phase, "declarer": after.get("declarer")},
    )
    props.expect(
        "MOON-INV-3",
        list(after.get("bids") or []) == bids,
        "`bids` records each action of the hand (seats after a 21 never act)",
        bids,
        after.get("bids"),
    )


@checks("MOON-WIDOW-1", "MOON-INV-4")
def widow_taken(props: MoonProperties, step: Step) -> None:
    """MOON-WIDOW-1: as bidding closes on a declarer, the engine's declarer takes the widow (8 tiles; the
    other hands unchanged) and is to discard; MOON-INV-4 when the tiles are then out of place."""
    acted = _action(step)
    before, after = step.before, step.after
    if (
        acted is None
        or _auction_open(acted[2])
        or not _high(acted[2])
        or after.phase not in ("discard", "trump", "play")
    ):
        return  # the auction goes on, was void, or did not close on a declarer (MOON-BID-2/4/5/6)
    d = _declarer(after)
    widow = Counter(before.zone("widow"))
    want = [Counter(_hand(before, s)) + (widow if s == d else Counter()) for s in range(N)]
    got = [Counter(_hand(after, s)) for s in range(N)]
    props.expect(
        "MOON-WIDOW-1",
        after.phase == "discard" and after.to_act == d and got == want and not after.zone("widow"),
        f"the declarer (seat {d}) adds the widow to the 7 dealt tiles (8 tiles) and discards; "
        "the other hands are unchanged",
        {"phase": "discard", "to_act": d, "hands": [sorted(w.elements()) for w in want]},
        {"phase": after.phase, "to_act": after.to_act, "hands": [sorted(g.elements()) for g in got]},
    )
    props.expect(  # tiles out of place (the widow left in the middle, a hand changed): what follows is its doing
        "MOON-INV-4",
        got == want and not after.zone("widow"),
        "after the widow is taken the declarer holds 8 tiles, the widow zone is empty, the other hands unchanged",
        [sorted(w.elements()) for w in want],
        {"hands": [sorted(g.elements()) for g in got], "widow": after.zone("widow")},
    )


@checks("MOON-WIDOW-1", "MOON-INV-4", "MOON-TRUMP-1", "MOON-LEAD-1", "MOON-INV-6")
def widow_and_trump(props: MoonProperties, step: Step) -> None:
    """The discard (one of the 8 tiles, any of them), the trump choice, and the contract held for the hand."""
    before, after = step.before, step.after
    if after.phase == "discard":
        _discard_offered(props, after)
    if step.kind == "discard" and before.phase == "discard":
        _widow_exchange(props, step)
    if after.phase == "trump":
        _trumps_offered(props, after)
    if step.kind == "trump" and before.phase == "trump":
        _contract_named(props, step)
    if before.phase == "play" and after.phase == "play":
        props.expect(
            "MOON-TRUMP-1",
            after.get("contract") == before.get("contract"),
            "the contract stays as named for the whole hand",
            before.get("contract"),
            after.get("contract"),
        )


def _discard_offered(props: MoonProperties, after: Snapshot) -> None:
    """MOON-WIDOW-1: the declarer (the seat to discard) may discard any one of its 8 tiles."""
    d = after.to_act
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
    """MOON-TRUMP-1 / MOON-LEAD-1: the named contract holds, and the (engine's) declarer leads."""
    before, after = step.before, step.after
    named = step.move["suit"]
    props.expect(
        "MOON-TRUMP-1",
        after.get("contract") == named and after.phase == "play",
        "the named contract holds for the hand's play",
        {"contract": named, "phase": "play"},
        {"contract": after.get("contract"), "phase": after.phase},
    )
    declarer = _declarer(before)
    props.expect(
        "MOON-LEAD-1",
        after.to_act == declarer and not after.zone("trick"),
        "the declarer leads the first trick",
        declarer,
        after.to_act,
    )
    props.cover("MOON-INV-6")


# -- play: judged on the engine's contract, hands and won stacks ----------------------------------
@checks("MOON-LEAD-1")
def lead_moves(props: MoonProperties, step: Step) -> None:
    """MOON-LEAD-1: the seat to lead may lead any tile of its hand."""
    after = step.after
    if after.phase != "play" or after.zone("trick") or after.to_act is None:
        return
    hand = _hand(after, after.to_act)
    got = {m.get("tile") for m in after.moves if m.get("type") == "play"}
    props.expect(
        "MOON-LEAD-1",
        got == set(hand) and len(after.moves) == len(hand),
        "any tile in hand may be led",
        *move_diff([play(t) for t in hand], after.moves),
    )


@checks(
    "MOON-LEAD-2",
    "MOON-LEAD-3",
    "MOON-FOLLOW-1",
    "MOON-FOLLOW-2",
    "MOON-FOLLOW-3",
    "MOON-TRUMP-2",
    "MOON-TRUMP-3",
    "MOON-TRUMP-4",
)
def follow_moves(props: MoonProperties, step: Step) -> None:
    """While a trick has tiles: exactly the tiles that follow the led suit are listed, else the whole
    hand; a wrong list, and a tile it wrongly offered when played, are filed under the reading the list
    shows (``follow_clause``)."""
    before, after = step.before, step.after
    if step.kind == "play" and before.phase == "play" and before.zone("trick") and before.to_act is not None:
        _listed_revoke_played(props, before, step.move.get("tile"))
    trick = after.zone("trick")
    if after.phase != "play" or not trick or after.to_act is None:
        return
    hand, contract = _hand(after, after.to_act), after.get("contract")
    want = legal_plays(hand, trick, contract)
    got = _listed(after)
    s = led_suit(trick[0], contract)
    props.cover("MOON-LEAD-2" if s == "T" else "MOON-LEAD-3", base_follow_clause(hand, trick[0], contract))
    props.cover("MOON-TRUMP-3" if contract == "doubles" else "MOON-TRUMP-2" if _value(contract) else "MOON-TRUMP-4")
    if got == set(want) and len(after.moves) == len(want):
        return
    if got == set(want):  # the right tiles, but listed twice or beside moves of another kind
        found: tuple[str, str] | None = (base_follow_clause(hand, trick[0], contract), "other moves listed")
    else:
        found = resolve(props.shown, lambda known: follow_clause(hand, trick, contract, got, known))
    if found is None:  # several readings give this list: the positions that tell them apart will show which
        return
    props.fail(
        found[0],
        f"the led tile {trick[0]} calls for "
        + ("trumps" if s == "T" else f"{s}s")
        + f" under contract {contract!r}: play a following tile if held, else any tile",
        *move_diff([play(t) for t in want], after.moves),
        cause=found[1],
    )


def _listed(snap: Snapshot) -> set[Any]:
    return {m.get("tile") for m in snap.moves if m.get("type") == "play"}


def _listed_revoke_played(props: MoonProperties, before: Snapshot, tile: Any) -> None:
    """A tile the engine listed though it does not follow, now played: the same reading as its list, in
    the step where MOON-INV-5 finds the play outside the rules (so the two read as one deviation)."""
    hand, trick, contract = _hand(before, before.to_act or 0), before.zone("trick"), before.get("contract")
    listed = _listed(before)
    if tile not in listed or tile in legal_plays(hand, trick, contract):
        return  # a following tile; or a probe of a tile not listed (the probe's own clause judges it)
    found = resolve(props.shown, lambda known: follow_clause(hand, trick, contract, listed, known))
    if found is not None:
        props.fail(
            found[0],
            f"{tile} was played on {trick[0]} under contract {contract!r} although it does not follow",
            {"one of": sorted(legal_plays(hand, trick, contract))},
            {"played": tile},
            cause=f"{found[1]}: played",
        )


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


@checks("MOON-INV-1", "MOON-INV-6", "CONTRACT-TURN-1", "MOON-LEAD-1", "MOON-WIN-2")
def tile_played(props: MoonProperties, step: Step) -> None:
    """A play: the tile comes from the mover's hand (MOON-INV-1); the trick grows in play order with the
    next seat to play and `leader` naming the seat that led it, or goes whole onto the won stack of its
    winner (MOON-INV-6: the tiles of a trick won by another seat are out of place)."""
    before, after = step.before, step.after
    if step.kind != "play" or before.phase != "play" or before.to_act is None:
        return
    seat, t = before.to_act, step.move["tile"]
    props.expect(
        "MOON-INV-1", t in _hand(before, seat), "a play is a tile from the player's own hand", "a held tile", t
    )
    trick = [*before.zone("trick"), t]
    seats = [*list(before.get("trick_seats") or []), seat]
    if len(trick) < N:
        _trick_grows(props, before, after, trick, seats)
        return
    got, gains = _taker(before, after, trick)
    winner = seats[trick_winner(trick, before.get("contract"))]
    if got is None and (not _last_trick(step) or _won_tiles(after) == N * TRICKS):
        props.fail(
            "MOON-INV-6",
            "the completed trick goes whole onto one won stack",
            {WON[winner]: sorted(trick)},
            {WON[s]: sorted(g.elements()) for s, g in gains.items() if g},
        )
    # tiles on another seat's won stack are out of place: later scores follow from it (which rule put them
    # there is trick_won's, when one reading alone explains the taker)
    props.expect(
        "MOON-INV-6",
        got in (None, winner),
        f"the trick {trick} goes onto the won stack of seat {winner}, whose tile wins it",
        {WON[winner]: sorted(trick)},
        {WON[s]: sorted(g.elements()) for s, g in gains.items() if g},
    )


def _trick_grows(props: MoonProperties, before: Snapshot, after: Snapshot, trick: list[str], seats: list[int]) -> None:
    """MOON-INV-6 / CONTRACT-TURN-1: an unfinished trick keeps its tiles in order and the next seat plays;
    the contract's `leader` is the seat that led it (MOON-LEAD-1 in a hand's first trick, MOON-WIN-2 after)."""
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
    props.expect(
        "MOON-WIN-2" if _won_tiles(before) else "MOON-LEAD-1",
        after.get("leader") == seats[0],
        "while a trick has tiles, `leader` is the seat that led it",
        seats[0],
        after.get("leader"),
    )


@checks(
    "MOON-WIN-1",
    "MOON-RANK-1",
    "MOON-RANK-2",
    "MOON-RANK-3",
    "MOON-LEAD-3",
    "MOON-FOLLOW-2",
    "MOON-TRUMP-3",
    "MOON-TRUMP-4",
)
def trick_won(props: MoonProperties, step: Step) -> None:
    """MOON-WIN-1: the completed trick goes to the seat of its highest trump, else of the highest tile of
    the led suit; a wrong taker is filed under the reading it shows (``winner_clause``)."""
    done = _completed(step)
    if done is None:
        return
    trick, seats = done
    contract = step.before.get("contract")
    got = _taker(step.before, step.after, trick)[0]
    _cover_ranking(props, trick, contract)
    w = trick_winner(trick, contract)
    if got is None or len(seats) != N or got == seats[w]:
        props.cover("MOON-WIN-1")
        return
    found = (
        resolve(props.shown, lambda known: winner_clause(trick, contract, seats.index(got), known))
        if got in seats
        else ("MOON-WIN-1", "")
    )
    if found is None:  # several readings give this winner: the tricks that tell them apart will show which
        return
    clause, cause = found
    props.fail(
        clause,
        f"under contract {contract!r} the trick {trick} is won by {trick[w]}: "
        "the highest trump, else the highest tile of the led suit",
        {"winner": seats[w], "tile": trick[w]},
        {"winner": got, "tile": trick[seats.index(got)] if got in seats else None},
        cause=cause,
    )


def _cover_ranking(props: MoonProperties, trick: list[str], contract: Any) -> None:
    """The rules a correct winner of this trick depends on: the ranking of its trumps (MOON-RANK-2/3)
    or of the led suit (MOON-RANK-1), which tiles are trumps (MOON-TRUMP-3/4), the led suit (MOON-LEAD-3)
    and a tile following by its lower end (MOON-FOLLOW-2)."""
    props.cover("MOON-TRUMP-3" if contract == "doubles" else "MOON-TRUMP-4" if contract == "none" else "MOON-WIN-1")
    trumps = [x for x in trick if is_trump(x, contract)]
    if trumps:
        if len(trumps) > 1:
            props.cover("MOON-RANK-3" if contract == "doubles" else "MOON-RANK-2")
        return
    s = led_suit(trick[0], contract)
    props.cover("MOON-LEAD-3")
    followers = [x for x in trick[1:] if follows(x, s, contract)]
    if followers:
        props.cover("MOON-RANK-1")
    if any(tile_ends(x)[1] == s and not is_double(x) for x in followers):
        props.cover("MOON-FOLLOW-2")


@checks("MOON-WIN-2", "MOON-INV-7")
def next_lead(props: MoonProperties, step: Step) -> None:
    """MOON-WIN-2: the taker of a trick leads the next one; a hand is exactly 7 tricks of 3 tiles, and
    after the seventh every hand is empty and the trick counts add up to 7 (MOON-INV-7)."""
    done = _completed(step)
    if done is None:
        return
    trick, seats = done
    before, after = step.before, step.after
    got = _taker(before, after, trick)[0]
    leads = got if got is not None else seats[trick_winner(trick, before.get("contract"))]
    if not _last_trick(step):
        props.expect(
            "MOON-WIN-2",
            after.phase == "play" and after.to_act == leads and not after.zone("trick"),
            "the trick winner leads the next trick",
            {"phase": "play", "to_act": leads},
            {"phase": after.phase, "to_act": after.to_act, "trick": after.zone("trick")},
        )
        return
    props.expect(
        "MOON-WIN-2",
        after.phase in ("deal", "over"),
        "a hand is exactly 7 tricks of 3 tiles: after the 21st tile the hand is over",
        "deal or over",
        after.phase,
    )
    hands = {s: _hand(after, s) for s in range(N) if _hand(after, s)}
    props.expect(  # six tricks were on the won stacks before this one: the counts add up to 7
        "MOON-INV-7",
        not hands,
        "after 7 tricks every hand is empty (each seat played 7 of its tiles)",
        {},
        hands,
    )


# -- scoring and the end: the engine's declarer, bid and tricks ----------------------------------
def _tricks_taken(step: Step, trick: list[str], seats: list[int]) -> list[int]:
    """Each seat's tricks this hand: its won stack after the last trick, or (when the engine clears the
    stacks as the hand ends, which the contract leaves open) the six before it and the last to its winner."""
    before, after = step.before, step.after
    if _won_tiles(after) == N * TRICKS:
        return [len(after.zone(z)) // N for z in WON]
    tricks = [len(before.zone(z)) // N for z in WON]
    tricks[seats[trick_winner(trick, before.get("contract"))]] += 1
    return tricks


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
    done = _completed(step)
    if done is None or not _last_trick(step):
        return
    d = _declarer(before)
    b = _bids(before)[d] if d is not None else None
    if d is None or not _value(b):
        return  # no declarer or bid to score (MOON-BID-5 failed when the auction closed)
    tricks = _tricks_taken(step, *done)
    made = tricks[d] >= b if b != SHOOT else tricks[d] == TRICKS
    if b == SHOOT and made and props.shoot == "wins_game":
        _moon_shot(props, step, d)
        return
    _hand_scored(props, step, d, b, tricks, made)
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


def _hand_scored(props: MoonProperties, step: Step, d: int, b: int, tricks: list[int], made: bool) -> None:
    """MOON-SCORE-1..3 / MOON-INV-8: the declarer scores or loses the bid, each opponent its tricks."""
    old, new = step.before.scores, step.after.scores
    k = tricks[d]
    want = list(old)
    want[d] += (SHOOT if made else -SHOOT) if b == SHOOT else (b if made else -b)
    for s in range(N):
        if s != d:
            want[s] += tricks[s]
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
    # a top at the target plays on by the rules only when tied: an engine that plays on past a unique top
    # (MOON-END-1) is judged afresh from its own totals
    props.reached = (props.reached or top >= props.target) and not (ends and after.phase != "over")
