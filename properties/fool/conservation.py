"""Conservation on one state (FOOL-INV-1, FOOL-SETUP-2..5): judged on the first state (``start``) and
after every step (``check_deck``).

What each finding observed (``ruleproof.model.observed``): the cards out of place (held twice, lost,
not of the box, in `unused` or not when they should be) and the zones that hold them, or the discs
(`fools`).  A deck of the wrong cards breaks FOOL-INV-1 and FOOL-SETUP-3 on the same cards: one
deviation; a card an accepted play left in two zones is the card the accepted move observed.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain
from typing import TYPE_CHECKING, Any

from ruleproof.model import observed as seen
from ruleproof.properties.fool.cards import BOX, BOX_SORTED
from ruleproof.properties.fool.reporting import FOOLS
from ruleproof.properties.snapshot import Snapshot

if TYPE_CHECKING:
    from ruleproof.properties.fool.props import FoolProperties


def _diff(got: Counter[str], want: Counter[str]) -> dict[str, Any]:
    return {"extra": sorted((got - want).elements()), "missing": sorted((want - got).elements())}


def conservation(props: FoolProperties, snap: Snapshot, dealt: bool = False) -> None:
    """FOOL-INV-1: every box card in exactly one zone, P(n) in play and the rest in `unused`, at most k(n)
    discs held; FOOL-SETUP-2/3/4/5 name what is wrong: a card that is not in the box, a deck of the
    wrong size, the wrong cards of the right size, too many discs.  ``dealt``: ``snap`` is the state a deal
    just made, so the cards out of place are the deal's doing (they observe the move too)."""
    # this runs on every step: sorted lists of cards (strings, by the schema) compare as multisets
    # faster than Counters do, and the Counter differences of the messages are built only for a finding
    cards = sorted(chain.from_iterable(snap.raw["zones"].values()))
    whole = cards == BOX_SORTED
    unused = snap.zone("unused")
    placed = sorted(unused) == props.unused_sorted
    fools = snap.get("fools") or []
    discs = len(fools) <= props.k and len(set(fools)) == len(fools)
    ok = whole and placed and discs
    props.expect(
        "FOOL-INV-1",
        ok,
        "every one of the 88 box cards is in exactly one zone: P(n) in hands, trick and played, the rest in "
        "`unused`; at most k(n) discs are held",
        None if ok else {"box": "88 cards, each once", "unused": sorted(props.unused.elements(), key=str)},
        None if ok else {"box": _diff(Counter(cards), BOX), "unused": _diff(Counter(unused), props.unused)},
        observed=lambda: {
            *_misplaced(snap, Counter(cards), Counter(unused), props.unused),
            *(() if discs else (FOOLS,)),
            *((seen.MOVE,) if dealt and not (whole and placed) else ()),
        },
    )
    foreign = [] if whole else sorted({c for c in cards if c not in BOX})
    props.expect(
        "FOOL-SETUP-2",
        not foreign,
        "the box holds G2-27, R2-23, Y2-21, B2-15 and six 1s, nothing else",
        [],
        foreign,
        observed=lambda: {*seen.cards(foreign), *((seen.MOVE,) if dealt else ())},
    )
    if whole:  # the box is all there, each card once: what is wrong is which cards are in play
        in_play = len(cards) - len(unused)

        def wrong_unused() -> set[str]:
            return {*_misplaced(snap, Counter(), Counter(unused), props.unused), *((seen.MOVE,) if dealt else ())}

        props.expect(
            "FOOL-SETUP-4", in_play == props.size, props.setup4_message, props.size, in_play, observed=wrong_unused
        )
        if in_play == props.size:
            props.expect(
                "FOOL-SETUP-3",
                placed,
                "the box cards outside the round deck P(n) lie in `unused`, and only they",
                None if placed else sorted(props.unused.elements(), key=str),
                None if placed else _diff(Counter(unused), props.unused),
                observed=wrong_unused,
            )
    props.expect("FOOL-SETUP-5", discs, props.setup5_message, props.k, fools, observed=(FOOLS,))


def _misplaced(snap: Snapshot, got: Counter[str], unused: Counter[str], want_unused: Counter[str]) -> set[str]:
    """The cards held twice, lost or not of the box (``got`` against the box, when given), the cards in
    `unused` that should not be or missing from it, and the zones that hold any of them."""
    wrong = {c for c in BOX.keys() | got.keys() if got[c] != BOX[c]} if got else set()
    wrong |= set((unused - want_unused) + (want_unused - unused))
    zones = {seen.size(z) for z in snap.zone_names() if wrong.intersection(snap.zone(z))}
    return {*seen.cards(wrong), *zones}
