"""How the checks report: ``judge`` builds a finding's message and values only when it fails (the
per-play checks run on every step), ``describe`` shows a trick as seat:card in play order; the atoms
of Fool's own fields (``ruleproof.model.observed`` names the contract's), by the field's name as the
session's own findings name a changed field.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ruleproof.properties.base import Observed
    from ruleproof.properties.fool.props import FoolProperties

FOOLS = "fools"  # the seats holding a disc
TRICK_SEATS = "trick_seats"  # the seat of each card of the trick


def tens(seat: int) -> str:
    """One seat's plus-ten tally."""
    return f"tens:{seat}"


def penalties(seat: int) -> str:
    """One seat's summed card penalties (loss: gross)."""
    return f"penalties:{seat}"


def judge(
    props: FoolProperties,
    clause: str,
    ok: bool,
    finding: Callable[[], tuple[str, Any, Any]],
    *,
    observed: Observed = (),
    rule: str = "",
) -> None:
    """``props.expect`` for checks run on every play or trick: the message and the expected and got
    values, which cost more to build than the check itself, come from ``finding`` only when it fails."""
    if ok:
        props.expect(clause, True, "")
    else:
        props.expect(clause, False, *finding(), observed=observed, rule=rule)


def describe(trick: Sequence[str], seats: Sequence[int]) -> list[str]:
    """A trick for messages: seat:card in play order."""
    return [f"{seats[i]}:{trick[i]}" for i in range(len(trick))]
