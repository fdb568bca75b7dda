"""The moves the rules forbid, sent to the engine to be refused (``FoolProperties.illegal_moves``), each
with the clause it breaks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ruleproof.model.notation import FOOL_WILD
from ruleproof.properties.fool.cards import play
from ruleproof.properties.fool.trick import allowed_cards
from ruleproof.properties.snapshot import Snapshot

if TYPE_CHECKING:
    from ruleproof.properties.fool.props import FoolProperties


def bad_moves(props: FoolProperties, snap: Snapshot) -> Sequence[tuple[dict[str, Any], str]]:
    """The probes of ``snap``: before a deal, ``bad_deals``; in play, a deal, a card another hand holds or
    already played, a box card outside this game's deck, and up to two revokes."""
    if snap.phase == "deal":
        return bad_deals(props)
    seat = snap.to_act
    if seat is None:
        return ()
    n = props.n
    hand = snap.zone(f"hand/{seat}")
    bad: list[tuple[dict[str, Any], str]] = [
        ({"type": "deal", "hands": [list(snap.zone(f"hand/{s}")) for s in range(n)]}, "FOOL-END-1")
    ]
    held = set(hand)
    elsewhere = next(
        (c for s in range(n) if s != seat for c in snap.zone(f"hand/{s}") if c not in held and c != FOOL_WILD), None
    )
    if elsewhere is not None:
        bad.append((play(elsewhere), "FOOL-INV-1"))
    gone = [c for c in snap.zone("played") if c not in held and c != FOOL_WILD]
    if gone:
        bad.append((play(gone[-1]), "FOOL-INV-1"))
    outside = [c for c in props.unused if c != FOOL_WILD]
    if outside:
        bad.append((play(outside[0]), "FOOL-SETUP-3"))
    legal, duty = allowed_cards(props, snap)
    if duty == "follow":
        # after a led 1 the duty to follow comes from the first coloured card (FOOL-COLOUR-1)
        why = "FOOL-COLOUR-1" if snap.zone("trick")[0] == FOOL_WILD else "FOOL-FOLLOW-1"
        bad += [(play(c), why) for c in sorted(held - legal)][:2]
    return bad


def bad_deals(props: FoolProperties) -> list[tuple[dict[str, Any], str]]:
    """Deals the rules forbid: a card moved between hands, a card twice, a hand missing, a card
    outside the box, a box card outside this game's deck; and a play before the deal."""
    n, h = props.n, props.h
    good = [sorted(props.deck, key=str)[i * h : (i + 1) * h] for i in range(n)]
    short = [good[0][1:], good[1] + good[0][:1], *good[2:]]
    other = next(c for c in good[1] if c != good[0][-1])
    twice = [[*good[0][:-1], other], *good[1:]]
    bad: list[tuple[dict[str, Any], str]] = [
        ({"type": "deal", "hands": short}, "FOOL-DEAL-1"),
        ({"type": "deal", "hands": twice}, "FOOL-DEAL-1"),
        ({"type": "deal", "hands": good[:-1]}, "FOOL-DEAL-1"),
        ({"type": "deal", "hands": [[*good[0][:-1], "G28"], *good[1:]]}, "FOOL-SETUP-2"),
        (play(good[0][0]), "FOOL-DEAL-1"),
    ]
    outside = sorted(c for c in props.unused if c != FOOL_WILD)
    if outside:
        bad.append(({"type": "deal", "hands": [[*good[0][:-1], outside[0]], *good[1:]]}, "FOOL-SETUP-3"))
    return bad
