"""Moves the rules forbid, each with the clause it breaks, for the exploration to send as probes.

In ``deal``: a hand short and one long, a card dealt twice, the 2C with 3 players (BM-DEAL-1).  In
``pass``: two cards, four, a card named twice, a play, a card of another hand (BM-PASS-1).  In
``play``: a pass (the phase's clause), another hand's card, a card already on the trick (named twice),
and cards off the led suit while the hand holds it (BM-FOLLOW-1); with declared house rules a lead each
one forbids (BM-LEAD-4/5/6) and a heart or the QS discarded on the first trick (BM-LEAD-5).
"""

from __future__ import annotations

from typing import Any

from ruleproof.model.notation import suit
from ruleproof.properties.black_maria.cards import deck_for, play, playable
from ruleproof.properties.black_maria.house import House, broken, follow_allowed, lead_forbidden
from ruleproof.properties.black_maria.view import first_trick
from ruleproof.properties.snapshot import Snapshot

Probe = tuple[dict[str, Any], str]


def bad_moves(n: int, snap: Snapshot, house: House) -> list[Probe]:
    """The probes of this state."""
    if snap.phase == "deal":
        return _bad_deals(n)
    seat = snap.to_act
    if seat is None:
        return []
    hand = snap.zone(f"hand/{seat}")
    elsewhere = [c for s in range(n) if s != seat for c in snap.zone(f"hand/{s}")]
    if snap.phase == "pass":
        return _bad_passes(hand, elsewhere)
    return _bad_plays(snap, hand, elsewhere) + _house_plays(snap, n, hand, house)


def _bad_deals(n: int) -> list[Probe]:
    size = len(deck_for(n)) // n
    pack = deck_for(n)
    good = [pack[i * size : (i + 1) * size] for i in range(n)]
    short = [good[0][1:], good[1] + good[0][:1], *good[2:]]
    twice = [[*good[0][:-1], good[1][0]], *good[1:]]
    bad: list[Probe] = [
        ({"type": "deal", "hands": short}, "BM-DEAL-1"),
        ({"type": "deal", "hands": twice}, "BM-DEAL-1"),
    ]
    if n == 3:
        with_2c = [[*good[0][:-1], "2C"], *good[1:]]
        bad.append(({"type": "deal", "hands": with_2c}, "BM-DEAL-1"))
    return bad


def _bad_passes(hand: list[str], elsewhere: list[str]) -> list[Probe]:
    if len(hand) < 4:
        return []
    bad: list[Probe] = [
        ({"type": "pass", "cards": sorted(hand[:2])}, "BM-PASS-1"),
        ({"type": "pass", "cards": sorted(hand[:4])}, "BM-PASS-1"),
        ({"type": "pass", "cards": [hand[0], hand[0], hand[1]]}, "BM-PASS-1"),  # a card named twice
        (play(hand[0]), "BM-PASS-1"),
    ]
    if elsewhere:
        bad.append(({"type": "pass", "cards": sorted(hand[:2] + elsewhere[:1])}, "BM-PASS-1"))
    return bad


def _bad_plays(snap: Snapshot, hand: list[str], elsewhere: list[str]) -> list[Probe]:
    bad: list[Probe] = [({"type": "pass", "cards": sorted(hand[:3])}, "BM-PASS-1")] if len(hand) >= 3 else []
    if elsewhere:
        bad.append((play(elsewhere[0]), "BM-FOLLOW-1"))
    trick = snap.zone("trick")
    if trick:
        bad.append((play(trick[-1]), "BM-FOLLOW-1"))  # a card named twice: already on the table
        led = suit(trick[0])
        if any(suit(c) == led for c in hand):
            bad += [(play(c), "BM-FOLLOW-1") for c in hand if suit(c) != led][:2]
    return bad


def _house_plays(snap: Snapshot, n: int, hand: list[str], house: House) -> list[Probe]:
    """A card each declared lead rule forbids to lead, and on the first trick a heart or the QS a void
    hand may not discard (no_points_first_trick)."""
    trick, first = snap.zone("trick"), first_trick(snap, n)
    if not trick:
        is_broken = broken([c for s in range(n) for c in snap.zone(f"won/{s}")], house)
        by_clause = {clause: card for card, clause in sorted(lead_forbidden(house, hand, n, first, is_broken).items())}
        return [(play(card), clause) for clause, card in sorted(by_clause.items())]
    held_back = sorted(set(playable(hand, trick)) - follow_allowed(house, hand, trick, first))
    return [(play(held_back[0]), "BM-LEAD-5")] if held_back else []
