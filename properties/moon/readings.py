"""The readings of rules.md §3.2: which rule a wrong list of plays or a wrong trick winner breaks.

A reading is one plausible misreading of §3.2 (a led double calling the doubles, a trump keeping its
other suit, the first trump winning ...): ``follow_readings`` and ``winner_readings`` give what each
would list or award on a trick; ``follow_clause`` and ``winner_clause`` name the one rule whose readings
explain the engine's answer (None when several explain it alike), and ``resolve`` remembers the readings
an engine has shown alone this game so that a later ambiguous deviation goes to the one it has shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ruleproof.model.notation import tile_ends
from ruleproof.properties.moon.tiles import (
    follows,
    is_double,
    is_trump,
    led_suit,
    legal_plays,
    other_end,
    pips,
    suit_rank,
    trick_winner,
)

# -- which rule a wrong list of plays breaks ---------------------------------------------------
# A reading: the clause it misreads, its name (the finding's cause) and the tiles that follow under it.
Reading = tuple[str, str, Callable[[str], bool]]


def follow_readings(lead: str, contract: Any) -> list[Reading]:
    """The readings of §3.2 a wrong list of following tiles can come from (``follow_clause``).

    A trump lead read as a number lead (LEAD-2); a led double calling the doubles rather than its
    number (LEAD-3; under no trump doubles as trumps give the same, but only this reading is confined
    to double leads: the smaller difference); a trump keeping its
    other number's suit (TRUMP-2), doubles following their number under doubles trump (TRUMP-3),
    doubles out of their suits under no trump (TRUMP-4) or under a number trump (FOLLOW-2); only a
    tile's higher end following (FOLLOW-2, rules.md AMB-6); the lead calling its lower end (LEAD-3).
    """
    hi, lo = tile_ends(lead)
    if is_trump(lead, contract):
        return [
            (
                "MOON-LEAD-2",
                "a trump lead calls its higher end",
                lambda t: not is_trump(t, contract) and hi in tile_ends(t),
            ),
            ("MOON-LEAD-2", "a trump lead calls its higher end, trumps too", lambda t: hi in tile_ends(t)),
        ]
    readings: list[Reading] = []
    if hi == lo:
        readings.append(
            ("MOON-LEAD-3", "a led double calls the doubles", lambda t: is_double(t) and not is_trump(t, contract))
        )
    if contract == "doubles":
        readings.append(("MOON-TRUMP-3", "a trump double follows its number", lambda t: hi in tile_ends(t)))
    elif isinstance(contract, int) and not isinstance(contract, bool):
        readings.append(("MOON-TRUMP-2", "a trump follows its other number", lambda t: hi in tile_ends(t)))
        readings.append(
            (
                "MOON-FOLLOW-2",
                "a double follows no number suit",
                lambda t: follows(t, hi, contract) and not is_double(t),
            )
        )
    elif hi != lo:  # (on a double lead, doubles as trumps give what the narrower LEAD-3 reading gives)
        readings.append(
            (
                "MOON-TRUMP-4",
                "a double is out of its suit under no trump",
                lambda t: hi in tile_ends(t) and not is_double(t),
            )
        )
    readings.append(
        ("MOON-FOLLOW-2", "only the higher end follows", lambda t: not is_trump(t, contract) and tile_ends(t)[0] == hi)
    )
    if hi != lo:
        readings.append(
            ("MOON-LEAD-3", "a lead calls its lower end", lambda t: not is_trump(t, contract) and lo in tile_ends(t))
        )
    return readings


def base_follow_clause(hand: Sequence[str], lead: str, contract: Any) -> str:
    """The rule that decides this position when no narrower reading explains a difference: the duty to
    follow (FOLLOW-1 on a trump lead, FOLLOW-2 on a number lead), or FOLLOW-3 when the hand cannot follow."""
    s = led_suit(lead, contract)
    if any(follows(t, s, contract) for t in hand):
        return "MOON-FOLLOW-1" if s == "T" else "MOON-FOLLOW-2"
    return "MOON-FOLLOW-3"


def _one(found: dict[str, str], shown: frozenset[str]) -> tuple[str, str] | None:
    """The clause (and cause) of the readings that explain a deviation: the one rule they name; of several,
    the only one this engine has already shown alone in this game (``shown``); else None."""
    if len(found) == 1:
        return next(iter(found.items()))
    known = [item for item in found.items() if item[0] in shown]
    return known[0] if len(known) == 1 else None


# the causes that name no reading (the rule of the position, when nothing explains a deviation)
UNEXPLAINED = frozenset(
    {
        "tiles that do not follow listed",
        "following tiles missing",
        "another trump ranked higher",
        "a tile that is no trump beat a trump",
        "another tile of the led suit ranked higher",
        "a tile off the led suit won",
    }
)


def resolve(shown: set[str], attribute: Callable[[frozenset[str]], tuple[str, str] | None]) -> tuple[str, str] | None:
    """``attribute`` (a deviation's clause, given the readings shown) and the game's memory of readings:
    one that alone explains this deviation is remembered, so that a later one several explain alike goes
    to the reading this engine has shown (the engine's behaviour, never the game's state)."""
    found = attribute(frozenset())
    if found is None:
        return attribute(frozenset(shown))
    if found[1] not in UNEXPLAINED:
        shown.add(found[0])
    return found


def follow_clause(
    hand: Sequence[str], trick: Sequence[str], contract: Any, got: set[Any], shown: frozenset[str] = frozenset()
) -> tuple[str, str] | None:
    """The clause (and cause) behind a list of plays ``got`` that is not the rules' for this trick.

    A reading explains ``got`` when its following tiles are exactly ``got``, or when it finds none in
    the hand and ``got`` is the whole hand (so does "no duty to follow", FOLLOW-1/2).  One rule
    explaining it names it; none leaves the rule of this position (``base_follow_clause``); several
    (a [6-2] and a [3-2] under 3s, listed on a [2-2] lead, are what a trump keeping its 2 and a tile
    following by its higher end only both give) tell nothing: None, left to the positions that tell
    them apart, which an engine with either bug soon meets.
    """
    lead, whole = trick[0], set(hand)
    found: dict[str, str] = {}
    for clause, name, pred in follow_readings(lead, contract):
        if ({t for t in hand if pred(t)} or whole) == got:
            found.setdefault(clause, name)
    base = base_follow_clause(hand, lead, contract)
    if got == whole:
        found.setdefault(base, "no duty to follow")
    if found:
        return _one(found, shown)
    return base, "tiles that do not follow listed" if got - set(
        legal_plays(hand, trick, contract)
    ) else "following tiles missing"


# -- which rule a wrong trick winner breaks ------------------------------------------------------
def _best(indices: Sequence[int], key: Callable[[int], int]) -> int | None:
    return max(indices, key=key) if indices else None


def winner_readings(trick: Sequence[str], contract: Any) -> list[tuple[str, str, int | None]]:
    """The winners other readings of §3.2 give this trick (clause, cause, index; None: no other winner)."""
    n = range(len(trick))
    doubles = [i for i in n if is_double(trick[i])]
    trumps = [i for i in n if is_trump(trick[i], contract)]
    if trumps:
        out: list[tuple[str, str, int | None]] = []
        if contract == "doubles":
            out.append(("MOON-RANK-3", "[0-0] the highest trump", trick.index("0-0") if "0-0" in trick else None))
            plain = trick_winner(trick, "none")  # the winner if doubles were no trumps: only a non-trump tells
            out.append(("MOON-TRUMP-3", "doubles are no trumps", None if is_double(trick[plain]) else plain))
        elif isinstance(contract, int) and not isinstance(contract, bool):
            out.append(("MOON-RANK-2", "trumps ranked by pips", _best(trumps, lambda i: pips(trick[i]))))
        out.append(("MOON-WIN-1", "the first trump wins", trumps[0]))
        s = led_suit(trick[0], contract)
        if s != "T":
            followers = [i for i in n if follows(trick[i], s, contract)]
            out.append(
                ("MOON-WIN-1", "a trump does not beat the led suit", _best(followers, lambda i: suit_rank(trick[i], s)))
            )
        return out
    hi, lo = tile_ends(trick[0])
    out = []
    if hi == lo:
        out.append(("MOON-LEAD-3", "a led double calls the doubles", _best(doubles, lambda i: pips(trick[i]))))
    if contract == "none" and hi != lo:  # on a double lead, the narrower LEAD-3 reading above says the same
        out.append(("MOON-TRUMP-4", "doubles are trumps under no trump", _best(doubles, lambda i: pips(trick[i]))))
    high_only = [0, *(i for i in n if i and not is_trump(trick[i], contract) and tile_ends(trick[i])[0] == hi)]
    out.append(("MOON-FOLLOW-2", "only the higher end follows", _best(high_only, lambda i: suit_rank(trick[i], hi))))
    if hi != lo:
        lower = [i for i in n if not is_trump(trick[i], contract) and lo in tile_ends(trick[i])]
        out.append(("MOON-LEAD-3", "a lead calls its lower end", _best(lower, lambda i: suit_rank(trick[i], lo))))
    followers = [i for i in n if follows(trick[i], hi, contract)]
    out.append(("MOON-RANK-1", "a double ranked by its number", _best(followers, lambda i: other_end(trick[i], hi))))
    return out


def winner_clause(
    trick: Sequence[str], contract: Any, got: int, shown: frozenset[str] = frozenset()
) -> tuple[str, str] | None:
    """The clause (and cause) behind a wrong trick winner (index ``got`` instead of the rules').

    The one rule whose readings give ``got`` names it; none leaves the rule the winner breaks (the
    ranking when the taker is of the winning kind, else MOON-WIN-1); several (['5-1', '1-1', '3-1']
    under 1s taken by [5-1]: trumps by pips, or the first trump) tell nothing: None, left to the
    tricks that tell them apart.
    """
    found: dict[str, str] = {}
    for clause, name, i in winner_readings(trick, contract):
        if i == got:
            found.setdefault(clause, name)
    if found:
        return _one(found, shown)
    w = trick[got]
    if any(is_trump(t, contract) for t in trick):
        if is_trump(w, contract):
            return ("MOON-RANK-3" if contract == "doubles" else "MOON-RANK-2"), "another trump ranked higher"
        return "MOON-WIN-1", "a tile that is no trump beat a trump"
    if follows(w, led_suit(trick[0], contract), contract):
        return "MOON-RANK-1", "another tile of the led suit ranked higher"
    return "MOON-WIN-1", "a tile off the led suit won"
