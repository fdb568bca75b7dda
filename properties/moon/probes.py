"""Illegal moves to probe, by phase (``MoonProperties.illegal_moves``), each with the clause the
engine breaks when it accepts it.
"""

from __future__ import annotations

from typing import Any

from ruleproof.model.notation import MOON_TILES
from ruleproof.properties.moon.moves import PASS, bid, discard, play, trump
from ruleproof.properties.moon.readings import base_follow_clause
from ruleproof.properties.moon.state import bids_of, high_bid
from ruleproof.properties.moon.tiles import BIDS, HAND, N, legal_plays
from ruleproof.properties.snapshot import Snapshot


def bad_deals() -> list[tuple[dict[str, Any], str]]:
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


def bad_discards(hand: list[str], elsewhere: list[str]) -> list[tuple[dict[str, Any], str]]:
    """MOON-WIDOW-1: a tile the declarer does not hold, and any move but a discard."""
    bad: list[tuple[dict[str, Any], str]] = []
    if elsewhere:
        bad.append((discard(elsewhere[0]), "MOON-WIDOW-1"))
    if hand:
        bad.append((play(hand[0]), "MOON-WIDOW-1"))
    bad += [(trump(0), "MOON-WIDOW-1"), (bid(7), "MOON-WIDOW-1"), (PASS, "MOON-WIDOW-1")]
    return bad


def bad_plays(snap: Snapshot, hand: list[str], elsewhere: list[str]) -> list[tuple[dict[str, Any], str]]:
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


def bad_bids(snap: Snapshot, hand: list[str], all_pass: str) -> list[tuple[dict[str, Any], str]]:
    """MOON-BID-3: bids not above the high bid or off the ladder; MOON-BID-6: the forced bidder's
    pass; MOON-BID-2: anything but a bid or pass."""
    bids = bids_of(snap)
    high = high_bid(bids)
    bad = [(bid(v), "MOON-BID-3") for v in BIDS if 0 < v <= high][-2:]
    bad += [(bid(3), "MOON-BID-3"), (bid(8), "MOON-BID-3")]
    if all_pass == "forced_bid" and sum(1 for b in bids if b == "pass") == N - 1:
        bad.append((PASS, "MOON-BID-6"))
    if hand:
        bad += [(play(hand[0]), "MOON-BID-2"), (discard(hand[0]), "MOON-BID-2")]
    bad.append((trump("none"), "MOON-BID-2"))
    return bad


def bad_trumps(hand: list[str], doubles_ok: bool) -> list[tuple[dict[str, Any], str]]:
    """MOON-TRUMP-1: doubles when the options forbid them, and any move but naming trumps."""
    bad: list[tuple[dict[str, Any], str]] = []
    if not doubles_ok:
        bad.append((trump("doubles"), "MOON-TRUMP-1"))
    if hand:
        bad += [(discard(hand[0]), "MOON-TRUMP-1"), (play(hand[0]), "MOON-TRUMP-1")]
    bad += [(bid(21), "MOON-TRUMP-1"), (PASS, "MOON-TRUMP-1")]
    return bad
