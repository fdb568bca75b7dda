"""How the checks report the model's differences: each check passes the map from the aspects of its rule
section to its clauses, so the model's gaps and the applied move's aspect land on exactly one check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleproof.model import observed as obs
from ruleproof.properties.idiot.aspects import Aspect
from ruleproof.properties.snapshot import Snapshot, Step

if TYPE_CHECKING:
    from ruleproof.properties.idiot.props import IdiotProperties

# the pile's effective top, as the ranks offered on it are judged: what every rank-legality difference of one
# state observes besides its moves, so that one rule of the top (on a 9 only odd ranks: the 2, the 10 and the
# higher ranks refused) reads as one deviation.  Not a part of the pile's cards (``zone:discard``): a pile
# left off the rules never makes a listing judged on the engine's own top its consequence
TOP = "top"
# the rank legality of a play on the top card (a rank that goes on anything included: a 2, a 10, the transparent
# rank), so that one rule of the top that refuses them all is one deviation
RANK_ASPECTS = frozenset(
    {
        Aspect.EMPTY_PILE,
        Aspect.EQUAL,
        Aspect.ON_TWO,
        Aspect.RANK,
        Aspect.ORDER,
        Aspect.SUITS,
        Aspect.TWO,
        Aspect.TEN,
        Aspect.TRANSPARENT,
    }
)


def rank_rule(aspect: Aspect, cause: str) -> str:
    """The rule of IDIOT-PLAY-2 a comparison no order explains breaks: the rank it is blamed on ("3 unlike any
    order": a transparent 3; "7 unlike any order": a 7 capping the next play), two house rules two deviations."""
    return cause if aspect is Aspect.RANK else ""


def gap_atoms(aspect: Aspect, moves: list[dict[str, object]]) -> frozenset[str]:
    """What a listing difference observed: its moves, and the top when it is the ranks' legality."""
    return obs.moves(moves) | ({TOP} if aspect in RANK_ASPECTS else set())


def report_gaps(props: IdiotProperties, snap: Snapshot, clauses: dict[Aspect, str]) -> None:
    """One finding per gap of ``snap``'s legal moves whose aspect ``clauses`` maps (the others belong to
    other checks); its cause is the gap's (the ranks involved, say), so causes stay apart."""
    for gap in props.gaps(snap):
        clause = clauses.get(gap.aspect)
        if clause is None:
            continue
        moves = gap.moves[:4]
        atoms = gap_atoms(gap.aspect, gap.moves)
        # a difference held back (``ranks``) is filed once the comparison the other way round is seen
        when = "in an earlier state of this game, now that the other way round is seen" if gap.earlier else "here"
        if gap.missing:
            message = f"legal_moves left out moves the rules allow {when} ({gap.aspect.value})"
            expected, got = {"listed": moves}, {"missing": moves}
        else:
            message = f"legal_moves offered moves the rules forbid {when} ({gap.aspect.value})"
            expected, got = {"absent": moves}, {"listed": moves}
        props.fail(
            clause, message, expected, got, cause=gap.cause, observed=atoms, rule=rank_rule(gap.aspect, gap.cause)
        )


def report_applied(props: IdiotProperties, step: Step, clauses: dict[Aspect, str]) -> None:
    """A listed move the rules forbid that was played (the exploration plays one only when the engine lists
    nothing else) under the clause its aspect maps to; a probe the engine accepted is the session's
    finding already, under the probe's clause."""
    got = props.applied(step)
    if got is not None and got[0] in clauses and props.listed(step):
        props.fail(
            clauses[got[0]],
            f"the engine applied a move the rules forbid here ({got[0].value})",
            {"refused": step.move},
            {"accepted": step.move},
            cause=f"applied: {got[1]}",
            rule=rank_rule(got[0], got[1]),
            # the move applied (IDIOT-INV-4 in the same step) and the same move as listed
            observed=gap_atoms(got[0], [step.move]) | {obs.MOVE},
        )
