"""Scoring (BM-SCORE-1..5, BM-INV-5/6): each seat adds the penalty values of the cards it won this round.

Judged in the step that ends a round, from the cards won during it (``view.round_cards``: where they
lie once the round is scored is left open) and the engine's totals when the round was dealt.  A wrong
score is filed under the one reading that explains it, by the smallest difference (``score_clause``):
another scheme after a round scored by the one chosen (BM-SCORE-5); the totals not added, the last
trick left out, a moon shot, subtracted, the scores of one seat credited to another, or a seat that
won nothing scoring (BM-SCORE-4: the adding up); otherwise some card's value (BM-SCORE-1/2/3).  BM-INV-5:
the round hands out exactly what its cards are worth (26, 43 or 124 with every card there: a lost or
duplicated card is BM-INV-1's); BM-INV-6: each seat's round score is what its own cards are worth.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ruleproof.model import observed as seen
from ruleproof.properties.base import pair_name
from ruleproof.properties.black_maria.cards import MOON, POINTS, ROUND_TOTAL, value
from ruleproof.properties.black_maria.house import moon_paid, shooter
from ruleproof.properties.black_maria.props import checks
from ruleproof.properties.black_maria.view import round_cards
from ruleproof.properties.snapshot import Step

if TYPE_CHECKING:
    from ruleproof.properties.black_maria.props import BlackMariaProperties

SCORE_CLAUSE = {"standard": "BM-SCORE-1", "spades": "BM-SCORE-2", "spot": "BM-SCORE-3"}
MOON_SHOT = "a moon shot was scored (no such rule)"


@checks("BM-SCORE-1", "BM-SCORE-2", "BM-SCORE-3", "BM-SCORE-4", "BM-SCORE-5", "BM-SCORE-6", "BM-INV-5", "BM-INV-6")
def round_scored(props: BlackMariaProperties, step: Step) -> None:
    """When a round ends: every seat's round score is the value of the cards it won, added to its total,
    under the one scheme chosen."""
    before, after, scheme, n = step.before, step.after, props.scheme, props.n
    if before.phase != "play" or after.phase == "play" or len(after.scores) != n:
        return
    won, _ = round_cards(step, n, scheme, props.round_scores)
    gained = [after.scores[s] - props.round_scores[s] for s in range(n)]
    want = _moon(props, step, won, gained, [value(w, scheme) for w in won])
    props.expect(
        "BM-INV-5",
        sum(gained) == sum(want),
        f"a `{scheme}` round hands out exactly what its cards are worth ({ROUND_TOTAL[scheme]} with every card)",
        sum(want),
        sum(gained),
        observed=(seen.SCORES,),
    )
    props.expect(
        "BM-INV-6",
        gained == want,
        "each round score is the sum of the penalty values in that player's won tricks",
        {"round": want},
        {"round": gained},
        observed=lambda: {seen.score(s) for s in range(n) if gained[s] != want[s]},
    )
    props.expect(
        "BM-SCORE-5",
        after.options.get("scoring") == scheme,
        "the scheme is fixed for the whole game",
        scheme,
        after.options.get("scoring"),
        observed=(seen.OPTIONS,),
    )
    if gained != want and props.moon_shot is None:
        clause, message, cause = score_clause(props, step, won, gained, want)
        props.fail(
            clause,
            message,
            {"totals": [props.round_scores[s] + want[s] for s in range(n)], "round": want},
            {"totals": after.scores, "round": gained},
            cause=cause,
            observed={seen.score(s) for s in range(n) if gained[s] != want[s]},
            rule="moon" if cause == MOON_SHOT else "",  # "no shoot-the-moon adjustment" is a rule of its own
        )
        return
    if gained == want:
        props.cover(SCORE_CLAUSE[scheme], "BM-SCORE-4")
        props.scored = True


def _moon(
    props: BlackMariaProperties, step: Step, won: list[list[str]], gained: list[int], want: list[int]
) -> list[int]:
    """BM-SCORE-6 with a declared moon rule: a seat that took every penalty card of the round is paid as
    the rule says (the round's scores returned are those the rules want, for BM-INV-5/6 too); a round
    without a shot scored as one is this clause's as well."""
    house, n = props.house, props.n
    props.moon_shot = None
    if house.moon == "none":
        return want
    props.cover("BM-SCORE-6")
    seat = shooter(won, props.scheme)
    if seat is None:
        shot = gained != want and _adding_up(props, step, won, gained, want) == MOON_SHOT
        props.expect(
            "BM-SCORE-6",
            not shot,
            f"moon={house.moon}: only a seat that takes every penalty card of the round shoots the moon",
            {"round": want},
            {"round": gained},
            cause="a shot without every penalty card",
            observed=lambda: {seen.score(s) for s in range(n) if gained[s] != want[s]},
        )
        props.moon_shot = -1 if shot else None
        return want
    paid = moon_paid(want, seat, house.moon)
    reached = any(props.round_scores[s] + paid[s] >= props.target for s in range(n))
    props.situation("BM-SCORE-6", pair_name("moon", house.moon, "target", "reached" if reached else "not reached"))
    props.moon_shot = seat
    props.expect(
        "BM-SCORE-6",
        gained == paid,
        f"moon={house.moon}: seat {seat} took every penalty card and shot the moon",
        {"round": paid},
        {"round": gained},
        cause="moon shot paid otherwise",
        observed=lambda: {seen.score(s) for s in range(n) if gained[s] != paid[s]},
    )
    return paid


def score_clause(
    props: BlackMariaProperties, step: Step, won: list[list[str]], gained: list[int], want: list[int]
) -> tuple[str, str, str]:
    """The rule a wrong round score breaks, its message and cause: the first reading that explains it."""
    scheme = props.scheme
    for other in POINTS:
        if props.scored and other != scheme and gained == [value(w, other) for w in won]:
            return (
                "BM-SCORE-5",
                f"the `{scheme}` scheme chosen applies to every round: this one scored as `{other}`",
                f"scored as {other}",
            )
    adding = _adding_up(props, step, won, gained, want)
    if adding is not None:
        return "BM-SCORE-4", f"each player's round score is added to their running total: {adding}", adding
    return (
        SCORE_CLAUSE[scheme],
        f"under `{scheme}` each player adds the penalty values of the cards they won",
        "a card's value",
    )


def _adding_up(
    props: BlackMariaProperties, step: Step, won: list[list[str]], gained: list[int], want: list[int]
) -> str | None:
    """The reading of BM-SCORE-4 (the round score, the sum of a seat's own cards, added) that explains
    the scores, if one does."""
    n, scheme = props.n, props.scheme
    readings: tuple[tuple[str, Callable[[], bool]], ...] = (
        (
            "the totals were replaced by the round's scores",
            lambda: any(props.round_scores) and step.after.scores == want,
        ),
        (
            "the last trick was not scored",
            lambda: gained == [value(step.before.zone(f"won/{s}"), scheme) for s in range(n)],
        ),
        # before "subtracted": a seat that took every penalty card and scored minus their worth
        (MOON_SHOT, lambda: any(_shot(s, won, gained, want) for s in range(n))),
        ("the round's scores were subtracted", lambda: any(want) and gained == [-w for w in want]),
        ("round scores were credited to other seats", lambda: sorted(gained) == sorted(want)),
        ("a seat that won no trick scored", lambda: any(gained[s] for s in range(n) if not won[s])),
    )
    return next((name for name, holds in readings if holds()), None)


def _shot(seat: int, won: list[list[str]], gained: list[int], want: list[int]) -> bool:
    """``seat`` took every heart and the QS, and scored less than they are worth while nobody else scored
    less than their own cards: a moon-shot adjustment (BM-AMB-4), however it is paid."""
    return (
        set(won[seat]) >= MOON
        and gained[seat] < want[seat]
        and all(gained[s] >= want[s] for s in range(len(won)) if s != seat)
    )
