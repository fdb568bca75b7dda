"""What to draw: the setups the engine declares, the bids (mostly the lowest, now and then a shot at
the moon) and the play of a hand under a policy drawn once per hand (``STEERS``), so that
MOON-SCORE-1/2 meet their readings (made exactly, overtricks, failed; 21 made) in the exploration.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from ruleproof.model.findings import Setup
from ruleproof.model.notation import tile_ends
from ruleproof.properties.moon.moves import discard, play, trump
from ruleproof.properties.moon.state import bids_of, declarer_of, hand_of, is_value
from ruleproof.properties.moon.tiles import (
    DEFAULTS,
    GAME,
    SHOOT,
    WON,
    N,
    follows,
    is_trump,
    led_suit,
    suit_rank,
    trick_winner,
    trump_rank,
)
from ruleproof.properties.snapshot import Snapshot

if TYPE_CHECKING:
    from ruleproof.properties.moon.props import MoonProperties


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
    d, policy = declarer_of(snap), props.steer
    bid_value = bids_of(snap)[d] if d is not None else None
    if policy in (None, STEER_FREE) or d is None or not is_value(bid_value):
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


def choose_bid(snap: Snapshot, m: dict[str, Any], rest: int) -> dict[str, Any]:
    """Mostly open at the lowest bid, then pass, so that 4 often stands (or all pass); a hand holding four
    trumps of one contract shoots the moon one time in sixteen, five trumps one time in eight."""
    moves = snap.moves
    shoot = next((x for x in moves if x.get("type") == "bid" and x.get("value") == SHOOT), None)
    hand = hand_of(snap, snap.to_act) if snap.to_act is not None else []
    if shoot is not None and rest % 16 in (0, 8) and _strength(hand, True) >= (4 if rest % 16 == 0 else 5):
        return shoot
    if rest % 4:
        want = "pass" if any(is_value(b) for b in bids_of(snap)) or rest % 4 == 1 else "bid"
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


def shooting(snap: Snapshot) -> bool:
    """The engine's declarer bid 21."""
    d = declarer_of(snap)
    return d is not None and bids_of(snap)[d] == SHOOT


def shot_setup(snap: Snapshot, doubles_ok: bool) -> dict[str, Any] | None:
    """For a shot at the moon: name the contract the hand holds most trumps of, and discard its weakest
    tile under it (a listed move; None when the engine lists none of that kind)."""
    hand = hand_of(snap, snap.to_act) if snap.to_act is not None else []
    if snap.phase == "trump":
        suits = [m.get("suit") for m in snap.moves if m.get("type") == "trump"]
        listed = [c for c in CONTRACTS if c in suits]
        return trump(max(listed, key=lambda c: _trumps_held(hand, c))) if listed else None
    best = max((c for c in CONTRACTS if c != "doubles" or doubles_ok), key=lambda c: _trumps_held(hand, c))
    tiles = [str(m.get("tile")) for m in snap.moves if m.get("type") == "discard" and m.get("tile") in hand]
    return discard(min(tiles, key=lambda t: power(t, [], best))) if tiles else None


def setups(declared: dict[str, Any]) -> st.SearchStrategy[Setup]:
    """The setups to draw: the option values the engine declares (a target range by a few values in it),
    else the defaults; any dealer."""
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
