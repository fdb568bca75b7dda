"""The end (BM-END-1/2, BM-INV-7): after a round is scored the game ends iff some total reaches the
target; the lowest total wins, ties sharing; a game ends within its bound of rounds.

Judged in the step that ends a round, on the engine's totals (a wrong score is scoring's: the end
follows the totals the engine shows).  A game that ends with cards still held ended in the middle of
a round (BM-END-1, judged with the trick that ended it, ``check_play.next_lead``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ruleproof.model import observed as seen
from ruleproof.properties.black_maria.cards import ROUND_TOTAL
from ruleproof.properties.black_maria.props import checks
from ruleproof.properties.snapshot import Step

if TYPE_CHECKING:
    from ruleproof.properties.black_maria.props import BlackMariaProperties


@checks("BM-END-1", "BM-END-2", "BM-INV-7")
def game_end(props: BlackMariaProperties, step: Step) -> None:
    """The target holds; the game is over iff a total is at or above it; the winners; the round bound."""
    before, after = step.before, step.after
    if before.phase != "play" or after.phase == "play" or not after.scores:
        return
    target, n = props.target, props.n
    props.expect(
        "BM-END-1",
        after.options.get("target") == target,
        "the target is the one set, or 500 under spot and 100 otherwise",
        target,
        after.options.get("target"),
        observed=(seen.OPTIONS,),
    )
    top = max(after.scores)
    ended = top >= target
    props.situation("BM-END-1", "ends-at-target" if top == target else "ends-above-target" if ended else "continues")
    props.expect(
        "BM-END-1",
        (after.phase == "over") == ended,
        f"the game ends after a round iff some total reaches the target {target}",
        "over" if ended else "deal",
        after.phase,
        observed=(seen.PHASE,),
    )
    if after.phase == "over":
        low = min(after.scores)
        winners = [s for s in range(n) if after.scores[s] == low]
        got = sorted((after.get("result") or {}).get("winners") or [])
        props.expect(
            "BM-END-2",
            got == winners,
            "the lowest total wins; ties share the win",
            winners,
            got,
            observed=(seen.RESULT,),
        )
        props.situation("BM-END-2", "tie-for-lowest" if len(winners) > 1 else "unique-lowest")
    if props.house.moon == "shooter_minus":  # a shot lowers a total: no bound of rounds holds
        props.cover("BM-INV-7")
        return
    bound = math.ceil(target * n / ROUND_TOTAL[props.scheme])
    props.expect(
        "BM-INV-7",
        after.get("round", 0) <= bound,
        f"a game ends within ceil(target*n/T) = {bound} rounds",
        bound,
        after.get("round"),
        observed=(seen.ROUND, seen.SCORES),  # how long a game lasts rests on the totals it adds up
    )
