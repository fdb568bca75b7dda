"""BM-INV-1 and BM-DEAL-1's pack on one state: every card in exactly one zone, the 2C out at 3 players.

Judged after every step (``check_invariants``), on the first state (``start``) and on the state an
engine is left in after refusing a probe (``after_rejection``): a refusal that lost or duplicated a
card has taken the state off the rules in that step, so what follows is marked as its consequence.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ruleproof.model import observed as seen
from ruleproof.properties.black_maria.cards import PACK
from ruleproof.properties.snapshot import Snapshot

if TYPE_CHECKING:
    from ruleproof.properties.base import GameProperties


def conservation(props: GameProperties, snap: Snapshot, n: int) -> None:
    """BM-INV-1: the zones hold each of the 52 cards once, the 2C only in `removed` with 3 players (a 2C
    in play is a card the rules keep out); BM-DEAL-1: `removed` is exactly the 2C with 3, empty with 4."""
    cards = [c for zone in snap.raw["zones"].values() for c in zone]
    # 52 cards that make the 52-card set are each card once: no Counter on the hot path
    ok = len(cards) == len(PACK) and set(cards) == PACK.keys()
    props.expect(
        "BM-INV-1",
        ok,
        "the zones must hold each of the 52 cards exactly once",
        "52 distinct cards",
        None if ok else _diff(Counter(cards), PACK),
        observed=lambda: _misplaced(snap, Counter(cards)),
    )
    removed = snap.zone("removed")
    if n == 3:
        outside = [z for z in snap.zone_names() if z != "removed" and "2C" in snap.zone(z)]
        props.expect(
            "BM-INV-1",
            not outside,
            "with 3 players the 2C never leaves `removed`",
            {"2C in": ["removed"]},
            {"2C in": outside},
            observed=(seen.card("2C"),),
        )
        props.expect(
            "BM-DEAL-1",
            removed == ["2C"] and not outside,
            'with 3 players the 2C is removed: zone `removed` is exactly ["2C"]',
            ["2C"],
            {"removed": removed, "2C also in": outside},
            observed=(seen.zone("removed"),),
        )
    else:
        props.expect(
            "BM-DEAL-1", not removed, "with 4 players no card is removed", [], removed, observed=(seen.zone("removed"),)
        )


def _misplaced(snap: Snapshot, got: Counter[str]) -> set[str]:
    """The cards held twice or lost, and the zones that hold a card twice over (their sizes are off)."""
    wrong = {c for c in PACK if got[c] != 1} | {c for c in got if c not in PACK}
    zones = {seen.size(z) for z in snap.zone_names() if wrong.intersection(snap.zone(z))}
    return {*seen.cards(wrong), *zones}


def _diff(got: Counter[str], want: Counter[str]) -> dict[str, Any]:
    return {"extra": sorted((got - want).elements()), "missing": sorted((want - got).elements())}
