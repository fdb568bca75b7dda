"""The end of the game (FOOL-GAME-1/2, FOOL-INV-10, FOOL-INV-11): at -80 (or 80 gross penalties) or a
sixth +10, the highest total winning.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleproof.model import observed as seen
from ruleproof.properties.fool.cards import GAME_END_LOSS, SIXTH_TEN
from ruleproof.properties.fool.props import checks
from ruleproof.properties.fool.trick import round_ended
from ruleproof.properties.snapshot import Snapshot, Step

if TYPE_CHECKING:
    from ruleproof.properties.fool.props import FoolProperties


@checks("FOOL-GAME-1", "FOOL-GAME-2", "FOOL-INV-10", "FOOL-INV-11")
def game_end(props: FoolProperties, step: Step) -> None:
    """FOOL-GAME-1: after a round the game ends iff a loss reaches 80 or a tally its sixth +10, judged on
    the engine's own totals, tallies and penalties; FOOL-INV-10: its twin on the state, and no result
    before the end; FOOL-INV-11: at most 65n rounds."""
    if not round_ended(props, step):
        return
    before, after, n = step.before, step.after, props.n
    scores, tens = after.scores, list(after.get("tens") or [0] * n)
    penalties = after.get("penalties") or [0] * n
    if props.loss == "gross":
        lost = any(p >= GAME_END_LOSS for p in penalties)
        rule = "a player's summed penalties reach 80"
    else:
        lost = any(t <= -GAME_END_LOSS for t in scores)
        rule = "a total is -80 or less"
    six = any(t >= SIXTH_TEN for t in tens)
    want = "over" if lost or six else "deal"
    for clause in ("FOOL-GAME-1", "FOOL-INV-10"):
        props.expect(
            clause,
            after.phase == want,
            f"after a round the game ends iff {rule} or some plus-ten tally reaches 6; otherwise the next round "
            "is dealt",
            {"phase": want},
            {"phase": after.phase, "scores": scores, "tens": tens, "penalties": penalties},
            observed=(seen.PHASE,),
        )
    props.situation("FOOL-GAME-1", "ends-by-sixth-ten" if six else "ends-by-loss" if lost else "continues")
    rounds = after.get("round") or 0
    props.expect(
        "FOOL-INV-11",
        rounds <= 65 * n,
        f"a game has at most 65n = {65 * n} rounds",
        65 * n,
        rounds,
        observed=(seen.ROUND, seen.PHASE),  # a game that outlasts its rounds has missed its end
        rule="rounds per game",
    )
    if after.phase == "over":
        _game_won(props, before, after, rounds)
    else:
        props.expect(
            "FOOL-INV-10",
            after.get("result") is None,
            "no result while the game goes on",
            None,
            after.get("result"),
            observed=(seen.RESULT,),
            rule="no result before the end",
        )


def _game_won(props: FoolProperties, before: Snapshot, after: Snapshot, rounds: int) -> None:
    """FOOL-GAME-2: the highest total wins, ties share; FOOL-INV-10: no round is dealt after the end."""
    scores = after.scores
    top = max(scores)
    winners = [s for s in range(props.n) if scores[s] == top]
    got = sorted(((after.get("result") or {}).get("winners")) or [])
    props.expect(
        "FOOL-GAME-2",
        got == winners,
        "the highest total wins; players tied for it share the win",
        winners,
        got,
        observed=(seen.RESULT,),
    )
    props.situation("FOOL-GAME-2", "tie-for-highest" if len(winners) > 1 else "unique-highest")
    props.expect(
        "FOOL-INV-10",
        rounds == before.get("round"),
        "when the game ends no further round is dealt",
        before.get("round"),
        rounds,
        observed=(seen.ROUND,),
        rule="no round after the end",
    )
