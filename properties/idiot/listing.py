"""A fixture's scripted listing difference read by the rule logic of the listing checks
(``GameProperties.listing_clause``), so one bug reads as one clause whether a fixture or the
exploration found it.

The model's ``gaps`` of the engine's state group what it lists against the rules by the aspect that
explains each difference by the smallest difference (``diff``); each check maps the aspects of its rule
section to its clauses.  A move a fixture scripts as legal that the engine leaves out, or as forbidden
that the engine lists, is filed under the clause of the gap that holds it: a 3 left out on a 5 because
the engine refuses equal rank elsewhere reads IDIOT-PLAY-2 whether the fixture's step cites IDIOT-DRAW-3
or not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ruleproof.properties.idiot.aspects import ASPECT_CLAUSES
from ruleproof.properties.idiot.view import key_of

if TYPE_CHECKING:
    from ruleproof.properties.idiot.props import IdiotProperties
    from ruleproof.properties.snapshot import Snapshot


def listing_clause(props: IdiotProperties, snap: Snapshot, missing: Sequence[Any], extra: Sequence[Any]) -> str | None:
    """The clause of the first scripted move (missing ones first) that a gap of ``snap``'s listing holds;
    None when none does (a difference the model holds back, or reads otherwise: the fixture's clause stands)."""
    wanted = [key_of(m) for m in (*missing, *extra) if isinstance(m, dict)]
    by_key: dict[Any, str] = {}
    for gap in props.gaps(snap):
        clause = ASPECT_CLAUSES.get(gap.aspect)
        if clause is not None:
            for m in gap.moves:
                by_key.setdefault(key_of(m), clause)
    # a comparison held back until the other way round is seen: the fixture's verdict cannot wait, so it reads
    # as an applied move does (``ranks.classify(now=True)``): seen one way only, a rule of its own is the smaller
    # difference (one verdict, where an order changes two)
    skip = "T" if props.view(snap).opts["ten_anytime"] else ""
    for held in props.ranks.held.values():
        aspect, _ = props.ranks.classify(held.r, held.top, held.allowed, skip, now=True)
        for m in held.moves:
            by_key.setdefault(key_of(m), ASPECT_CLAUSES[aspect])
    return next((by_key[k] for k in wanted if k in by_key), None)
