"""The engine's state, read: what the checks of a step judge, never a record of the kit's own.

Who took a completed trick is read from the ``won/N`` piles; where a finished trick's cards lie once
the round is scored is left open (protocol.md §8: kept in ``won/N`` until the next deal, or cleared),
so at the end of a round a trick that no one pile shows whole is *unseen*, never a deviation, and
the round is scored from the piles before its last trick plus that trick (``round_won``), never from
the piles after scoring.
"""

from __future__ import annotations

from collections import Counter

from attrs import frozen

from ruleproof.model.notation import suit
from ruleproof.properties.black_maria.cards import best_of, value
from ruleproof.properties.snapshot import Snapshot, Step


def hand(snap: Snapshot, seat: int) -> list[str]:
    return snap.zone(f"hand/{seat}")


def first_trick(snap: Snapshot, n: int) -> bool:
    """No trick of this round has been won yet (the deal emptied every ``won/N``)."""
    return not any(snap.zone(f"won/{s}") for s in range(n))


def held(snap: Snapshot, n: int) -> int:
    """The cards still in the hands."""
    return sum(len(snap.zone(f"hand/{s}")) for s in range(n))


def holds_led(hand_cards: list[str], trick: list[str]) -> bool:
    return bool(trick) and any(suit(c) == suit(trick[0]) for c in hand_cards)


@frozen
class Take:
    """Where a completed trick went: ``taker`` the one seat whose pile grew by exactly the trick (None
    otherwise), ``gains`` what each pile gained, ``unseen`` when the round ended and no pile holds it."""

    taker: int | None
    gains: dict[int, list[str]]
    unseen: bool


def completed(step: Step, n: int) -> tuple[list[str], list[int]] | None:
    """The trick a play completed, with the seats that played it in order; None for any other step."""
    before = step.before
    if step.kind != "play" or before.phase != "play" or before.to_act is None:
        return None
    trick = [*before.zone("trick"), step.move.get("card")]
    if len(trick) < n:
        return None
    seats = [*list(before.get("trick_seats") or []), before.to_act]
    return [str(c) for c in trick], seats


def take(step: Step, trick: list[str], n: int) -> Take:
    """Which seat took ``trick`` (the piles before and after the step)."""
    before, after = step.before, step.after
    gains = {
        s: sorted((Counter(after.zone(f"won/{s}")) - Counter(before.zone(f"won/{s}"))).elements()) for s in range(n)
    }
    gains = {s: g for s, g in gains.items() if g}
    whole = [s for s, g in gains.items() if Counter(g) == Counter(trick)]
    taker = whole[0] if len(whole) == 1 and len(gains) == 1 else None
    # once the round is scored the piles are the engine's business (cleared, moved, kept): a last
    # trick that no one pile shows whole is unseen, never a deviation
    unseen = taker is None and after.phase != "play"
    return Take(taker, gains, unseen)


def round_won(step: Step, trick: list[str], taker: int, n: int) -> list[list[str]]:
    """Each seat's cards won this round, at its end: the piles before the last trick, the last trick
    with ``taker`` (the piles after scoring are the engine's business)."""
    return [[*step.before.zone(f"won/{s}"), *(trick if s == taker else [])] for s in range(n)]


def round_cards(step: Step, n: int, scheme: str, totals: list[int]) -> tuple[list[list[str]], Take | None]:
    """Each seat's cards won this round, in the step that ends it, and how its last trick was taken.

    Always the piles before the last trick plus that trick, never the piles after the step: where the
    won cards lie once the round is scored is left open (protocol.md §8: kept, cleared, moved).  The
    trick goes to the seat whose pile shows it whole; when none does, to the seat the scores show took
    it (``scored_taker``).  A round that ends on no play (no last trick) keeps the piles before it."""
    done = completed(step, n)
    if done is None:
        return [step.before.zone(f"won/{s}") for s in range(n)], None
    trick, seats = done
    took = take(step, trick, n)
    if took.taker is not None:
        return round_won(step, trick, took.taker, n), took
    taker = scored_taker(step, trick, seats, scheme, totals)
    return round_won(step, trick, taker, n), Take(taker, {taker: sorted(trick)}, True)


def scored_taker(step: Step, trick: list[str], seats: list[int], scheme: str, totals: list[int]) -> int:
    """The seat the round's scores show took the last trick when no pile shows it: the rules' winner
    if it explains them (or nobody does), else the one other seat that does."""
    n = len(seats)
    gained = [step.after.scores[s] - totals[s] for s in range(min(n, len(step.after.scores), len(totals)))]
    winner = seats[trick.index(best_of(trick))]

    def explains(t: int) -> bool:
        return gained == [value(w, scheme) for w in round_won(step, trick, t, n)]

    others = [t for t in range(n) if t != winner and explains(t)]
    return others[0] if len(others) == 1 and not explains(winner) else winner
