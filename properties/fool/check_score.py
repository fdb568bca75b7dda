"""The scores of a round (FOOL-SCORE-1..4, FOOL-INV-9): +10 for going out, 0 as a fool of the final
trick, minus the cards left; the plus-ten tally and, under loss: gross, the penalties.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ruleproof.model import observed as seen
from ruleproof.properties.fool.cards import value
from ruleproof.properties.fool.props import checks
from ruleproof.properties.fool.reporting import penalties, tens
from ruleproof.properties.fool.trick import round_ended
from ruleproof.properties.snapshot import Snapshot, Step

if TYPE_CHECKING:
    from ruleproof.properties.fool.props import FoolProperties


@checks("FOOL-SCORE-1", "FOOL-SCORE-2", "FOOL-SCORE-3", "FOOL-SCORE-4", "FOOL-INV-9")
def round_scored(props: FoolProperties, step: Step) -> None:
    """FOOL-SCORE-1..4 when the final trick of a round is resolved, against the fools of that trick as
    the engine names them (a wrong fool is the worst-card rules' finding, not a scoring one);
    FOOL-INV-9: every score, tally and penalty change follows them."""
    if not round_ended(props, step):
        return
    before, after, n = step.before, step.after, props.n
    fools = set(after.get("fools") or [])
    gained, left, wrong_scores = _round_scores(props, before, after, fools)
    tens_b, tens_a = before.get("tens") or [0] * n, after.get("tens") or [0] * n
    # the tally counts the rounds the player scored +10 (the score itself is judged above)
    want_tens = [tens_b[s] + (1 if gained[s] == 10 else 0) for s in range(n)]
    props.expect(
        "FOOL-SCORE-4",
        list(tens_a) == want_tens,
        "the plus-ten tally goes up by one exactly for each +10 (a 0 for going out as a fool does not count)",
        want_tens,
        tens_a,
        observed=lambda: _wrong(tens_a, want_tens, "tens", tens),
    )
    # the state's side of each scoring finding: one for each part, a wrong tally and a wrong score being
    # two deviations however often they meet in one round
    _state_side(props, "scores", wrong_scores, {"round scores": gained})
    _state_side(props, "tallies", _wrong(tens_a, want_tens, "tens", tens), {"tens": tens_a, "want": want_tens})
    if props.loss == "gross":
        pen_b, pen_a = before.get("penalties") or [0] * n, after.get("penalties") or [0] * n
        want_pen = [pen_b[s] + left[s] for s in range(n)]
        props.expect(
            "FOOL-SCORE-3",
            list(pen_a) == want_pen,
            "under loss: gross each player's card penalties (without the +10s) are summed over the game",
            want_pen,
            pen_a,
            observed=lambda: _wrong(pen_a, want_pen, "penalties", penalties),
        )
        wrong_pen = _wrong(pen_a, want_pen, "penalties", penalties)
        _state_side(props, "penalty sums", wrong_pen, {"penalties": pen_a, "want": want_pen})


def _state_side(props: FoolProperties, part: str, wrong: set[str], got: dict[str, Any]) -> None:
    """FOOL-INV-9 on one part of the totals (scores, tallies, penalty sums): it observes the same seats'
    values as the rule's finding, and names the part as its rule."""
    props.expect(
        "FOOL-INV-9",
        not wrong,
        f"the {part} change as FOOL-SCORE-1..4 say",
        f"{part} by FOOL-SCORE-1..4",
        got,
        observed=wrong,
        rule=part,
    )


def _round_scores(
    props: FoolProperties, before: Snapshot, after: Snapshot, fools: set[int]
) -> tuple[list[int], list[int], set[str]]:
    """FOOL-SCORE-1..3: +10 for going out, 0 for going out as a fool of the final trick, else minus the
    cards left. Answers each seat's score change, the value of the cards it still holds, and the totals
    that changed wrongly (their atoms)."""
    n = props.n
    gained = [a - b for a, b in zip(after.scores, before.scores, strict=False)]
    kinds: list[str] = []
    left: list[int] = []
    wrong: set[str] = set()
    for s in range(n):
        hand = after.zone(f"hand/{s}")
        cost = sum(value(c) for c in hand)
        left.append(cost)
        kind, want = ("FOOL-SCORE-3", -cost) if hand else ("FOOL-SCORE-2", 0) if s in fools else ("FOOL-SCORE-1", 10)
        kinds.append(kind)
        if s >= len(gained) or gained[s] != want:
            wrong.add(seen.score(s))
            why = {
                "FOOL-SCORE-1": f"seat {s} emptied its hand and is no fool of the final trick: +10",
                "FOOL-SCORE-2": f"seat {s} emptied its hand but is a fool of the final trick: 0",
                "FOOL-SCORE-3": f"seat {s} still holds {hand}: minus their values, a 1 costing 5",
            }[kind]
            props.fail(kind, why, want, gained[s] if s < len(gained) else None, observed=(seen.score(s),))
    props.cover(*set(kinds))
    return gained + [0] * (n - len(gained)), left, wrong


def _wrong(got: Sequence[int], want: Sequence[int], field: str, atom: Callable[[int], str]) -> set[str]:
    """The seats whose tally (or penalty sum) is not the rules' (the whole field when its length is off)."""
    if len(got) != len(want):
        return {field}
    return {atom(s) for s in range(len(want)) if got[s] != want[s]}
