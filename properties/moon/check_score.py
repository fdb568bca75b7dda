"""Scoring and the end (MOON-SCORE-1..3, MOON-END-1/2, MOON-INV-8..10), judged on the engine's
declarer, bid and tricks: the declarer scores or loses the bid, each opponent its tricks, a made 21
wins at once (shoot=wins_game), and a unique top total at the target ends the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleproof.model import observed as seen
from ruleproof.properties.moon.props import checks
from ruleproof.properties.moon.state import (
    bids_of,
    changed_scores,
    completed_trick,
    declarer_of,
    is_value,
    last_trick,
    won_tiles,
    wrong,
)
from ruleproof.properties.moon.tiles import SHOOT, TRICKS, WON, N, trick_winner
from ruleproof.properties.snapshot import Snapshot, Step

if TYPE_CHECKING:
    from ruleproof.properties.moon.props import MoonProperties


def _tricks_taken(step: Step, trick: list[str], seats: list[int]) -> list[int]:
    """Each seat's tricks this hand: its won stack after the last trick, or (when the engine clears the
    stacks as the hand ends, which the contract leaves open) the six before it and the last to its winner."""
    before, after = step.before, step.after
    if won_tiles(after) == N * TRICKS:
        return [len(after.zone(z)) // N for z in WON]
    tricks = [len(before.zone(z)) // N for z in WON]
    tricks[seats[trick_winner(trick, before.get("contract"))]] += 1
    return tricks


@checks(
    "MOON-SCORE-1",
    "MOON-SCORE-2",
    "MOON-SCORE-3",
    "MOON-INV-8",
    "MOON-END-1",
    "MOON-END-2",
    "MOON-INV-9",
    "MOON-INV-10",
)
def hand_end(props: MoonProperties, step: Step) -> None:
    """Scoring after the seventh trick, then the next deal or the end of the game."""
    before, after = step.before, step.after
    if after.phase == "over" and not (before.phase == "play" and step.kind == "play"):
        props.expect(
            "MOON-END-1",
            False,
            "the game can only end when a hand is scored",
            before.phase,
            "over",
            observed=(seen.PHASE,),
            rule="the end only after a hand",
        )
    done = completed_trick(step)
    if done is None or not last_trick(step):
        return
    d = declarer_of(before)
    b = bids_of(before)[d] if d is not None else None
    if d is None or not is_value(b):
        return  # no declarer or bid to score (MOON-BID-5 failed when the auction closed)
    tricks = _tricks_taken(step, *done)
    made = tricks[d] >= b if b != SHOOT else tricks[d] == TRICKS
    if b == SHOOT and made and props.shoot == "wins_game":
        _moon_shot(props, step, d)
        return
    _hand_scored(props, step, d, b, tricks, made)
    _end_rule(props, after)


def _moon_shot(props: MoonProperties, step: Step, d: int) -> None:
    """MOON-SCORE-2 (shoot=wins_game): a made 21 ends the game for the declarer, scores untouched."""
    after, old, new = step.after, step.before.scores, step.after.scores
    props.situation("MOON-SCORE-2", "made")
    props.expect(
        "MOON-SCORE-2",
        after.phase == "over" and (after.get("result") or {}).get("winners") == [d] and new == old,
        "a made 21 (all 7 tricks) wins the game at once for the declarer; the scores stay as they were",
        {"phase": "over", "winners": [d], "scores": old},
        {"phase": after.phase, "result": after.get("result"), "scores": new},
        observed=lambda: (
            wrong((seen.PHASE, after.phase == "over"), (seen.RESULT, (after.get("result") or {}).get("winners") == [d]))
            | changed_scores(old, new)
        ),
    )


def _score_situation(b: int, k: int, made: bool) -> str:
    """The reading of MOON-SCORE-1/2 a hand tells apart: a 21 made or failed; a lower bid failed,
    made exactly or made with overtricks."""
    if b == SHOOT:
        return "made" if made else "failed"
    if not made:
        return "failed"
    return "made-exactly" if k == b else "overtricks"


def _hand_scored(props: MoonProperties, step: Step, d: int, b: int, tricks: list[int], made: bool) -> None:
    """MOON-SCORE-1..3 / MOON-INV-8: the declarer scores or loses the bid, each opponent its tricks."""
    old, new = step.before.scores, step.after.scores
    k = tricks[d]
    want = list(old)
    want[d] += (SHOOT if made else -SHOOT) if b == SHOOT else (b if made else -b)
    for s in range(N):
        if s != d:
            want[s] += tricks[s]
    dclause = "MOON-SCORE-2" if b == SHOOT else "MOON-SCORE-1"
    props.situation(dclause, _score_situation(b, k, made))
    props.expect(
        dclause,
        new[d] == want[d],
        f"the declarer bid {b} and took {k}: "
        + ("made, scores the bid exactly" if made else "failed, loses the bid")
        + (" (scores_21: a made 21 scores 21)" if b == SHOOT and made else ""),
        want[d] - old[d],
        new[d] - old[d],
        observed=(seen.score(d),),
    )
    props.expect(
        "MOON-SCORE-3",
        all(new[s] == want[s] for s in range(N) if s != d),
        "each opponent scores one point per trick won",
        [want[s] - old[s] if s != d else None for s in range(N)],
        [new[s] - old[s] if s != d else None for s in range(N)],
        observed=lambda: {seen.score(s) for s in range(N) if s != d and new[s] != want[s]},
    )
    props.expect(
        "MOON-INV-8",
        all(new[s] >= old[s] for s in range(N) if s != d),
        "non-declarers' totals never go down",
        old,
        new,
        observed=lambda: {seen.score(s) for s in range(N) if s != d and new[s] < old[s]},
    )


def _end_rule(props: MoonProperties, after: Snapshot) -> None:
    """MOON-END-1/2 / MOON-INV-9/10, stated on the engine's own new totals."""
    new = after.scores
    top = max(new)
    leaders = [s for s in range(N) if new[s] == top]
    ends = top >= props.target and len(leaders) == 1
    result = after.get("result") or {}
    if top < props.target or ends:  # a tie at the top is MOON-END-2's
        props.situation(
            "MOON-END-1",
            "below-target" if top < props.target else "wins-at-target" if top == props.target else "wins-above-target",
        )
    if ends:
        props.expect(
            "MOON-END-1",
            after.phase == "over" and result.get("winners") == leaders,
            f"a unique highest total at or above {props.target} wins and ends the game",
            {"phase": "over", "winners": leaders},
            {"phase": after.phase, "result": after.get("result")},
            observed=lambda: wrong(
                (seen.PHASE, after.phase == "over"), (seen.RESULT, result.get("winners") == leaders)
            ),
        )
    elif top >= props.target:
        props.expect(
            "MOON-END-2",
            after.phase == "deal",
            f"the highest total ({top}) is shared by seats {leaders}: another hand is played",
            "deal",
            after.phase,
            observed=(seen.PHASE,),
        )
    else:
        props.expect(
            "MOON-END-1",
            after.phase == "deal",
            f"nobody has reached {props.target}: another hand is played",
            "deal",
            after.phase,
            observed=(seen.PHASE,),
        )
    if after.phase == "deal":
        props.cover("MOON-INV-10")
    props.expect(
        "MOON-INV-9",
        not props.reached or top >= props.target,
        f"once the top total has reached {props.target} it never falls below it again "
        "(only the declarer loses, and a tie at the top leaves a non-declarer there)",
        f">= {props.target}",
        new,
        observed=(seen.SCORES,),
    )
    # a top at the target plays on by the rules only when tied: an engine that plays on past a unique top
    # (MOON-END-1) is judged afresh from its own totals
    props.reached = (props.reached or top >= props.target) and not (ends and after.phase != "over")
