"""The house rules an engine may declare (docs/rules/black-maria.md "House rules"): pass, first lead,
first trick, hearts broken, moon.  Each option's default is the documents' rule (BM-AMB-2/3/4).

Pure functions of cards and options, like ``cards``: the direction a round passes in (BM-PASS-4), who
leads the first trick (BM-LEAD-3), the leads and discards each declared restriction forbids, with the
clause that forbids them (BM-LEAD-4/5/6), and what a moon shot pays (BM-SCORE-6).  The checks decide
which clause a difference breaks with these.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen

from ruleproof.model.notation import suit
from ruleproof.properties.black_maria.cards import HEARTS, PENALTY, POINTS, playable

# every house option with its values, the documents' rule first (the default)
HOUSE_OPTIONS: dict[str, list[Any]] = {
    "pass": ["right", "left", "across", "rotate", "none"],
    "first_lead": ["left_of_dealer", "two_clubs"],
    "first_trick": ["free", "lowest_club", "any_club"],
    "no_points_first_trick": [False, True],
    "hearts_broken": ["no", "hearts", "hearts_or_queen"],
    "moon": ["none", "others_score", "shooter_minus"],
}
HOUSE_DEFAULTS: dict[str, Any] = {name: values[0] for name, values in HOUSE_OPTIONS.items()}
# pass=rotate: the way each round passes, round 1 first, repeating (a hold round passes nothing)
ROTATION = {4: ("left", "right", "across", "hold"), 3: ("left", "right", "hold")}
# the seat whose passed cards each seat receives, by the way a round passes (seat s gets s + step's)
DIRECTIONS = {"right": 1, "left": -1, "across": 2, "hold": 0}
# the house options whose values interact: the setups play every pair of their declared values
HOUSE_PAIRS = (("pass", "first_lead"), ("first_trick", "first_lead"))
HEARTS_SET = frozenset(HEARTS)
# BM-SCORE-6's situations with the target: whether the round of a shot takes a total to the target
# (``others_score`` can; ``shooter_minus`` raises no total, so its shot never ends a game)
MOON_TARGET = {"others_score": ("not reached", "reached"), "shooter_minus": ("not reached",)}
LEAD_CLAUSE = {"first_trick": "BM-LEAD-4", "no_points_first_trick": "BM-LEAD-5", "hearts_broken": "BM-LEAD-6"}


@frozen
class House:
    """The house rules one game plays: the options of its setup, each left out at its default."""

    passing: str = "right"
    first_lead: str = "left_of_dealer"
    first_trick: str = "free"
    no_points: bool = False
    hearts_broken: str = "no"
    moon: str = "none"

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> House:
        o = {**HOUSE_DEFAULTS, **options}
        return cls(
            o["pass"], o["first_lead"], o["first_trick"], o["no_points_first_trick"], o["hearts_broken"], o["moon"]
        )


def pass_way(option: str, n: int, rnd: int) -> str:
    """The way round ``rnd`` (1 first) passes: the declared direction, the rotation's, or hold."""
    if option == "rotate":
        turn = ROTATION[n]
        return turn[(rnd - 1) % len(turn)]
    return "hold" if option == "none" else option


def lowest_club(n: int) -> str:
    """The lowest club in play: the 2C with 4 players, the 3C with 3 (the 2C is out)."""
    return "3C" if n == 3 else "2C"


def broken(won: Sequence[str], house: House) -> bool:
    """Hearts are broken once a heart (with ``hearts_or_queen`` a heart or the QS) was played this round."""
    breaks = HEARTS_SET | ({"QS"} if house.hearts_broken == "hearts_or_queen" else set())
    return any(c in breaks for c in won)


def lead_forbidden(house: House, hand: Sequence[str], n: int, first: bool, is_broken: bool) -> dict[str, str]:
    """Each card of ``hand`` a declared restriction forbids to lead, with its clause.  Applied in turn:
    the first trick's club (BM-LEAD-4), no points on it (BM-LEAD-5), hearts not yet broken (BM-LEAD-6);
    each only when it leaves the hand something to lead."""
    allowed = set(hand)
    out: dict[str, str] = {}

    def keep(cards: set[str], option: str) -> None:
        nonlocal allowed
        if cards and cards != allowed:
            out.update(dict.fromkeys(allowed - cards, LEAD_CLAUSE[option]))
            allowed = cards

    if first and house.first_trick != "free":
        clubs = {c for c in allowed if suit(c) == "C"}
        low = lowest_club(n)
        keep({low} if house.first_trick == "lowest_club" and low in allowed else clubs, "first_trick")
    if first and house.no_points:
        keep(allowed - PENALTY, "no_points_first_trick")
    if house.hearts_broken != "no" and not is_broken:
        keep(allowed - HEARTS_SET, "hearts_broken")
    return out


def follow_allowed(house: House, hand: Sequence[str], trick: Sequence[str], first: bool) -> set[str]:
    """The cards a hand may play to a trick with cards: following (BM-FOLLOW-1), and with
    ``no_points_first_trick`` no heart nor the QS discarded on the first trick unless the hand holds
    nothing else (BM-LEAD-5)."""
    want = set(playable(hand, trick))
    led = suit(trick[0]) if trick else ""
    if first and house.no_points and not any(suit(c) == led for c in hand):
        return (want - PENALTY) or want
    return want


def missing_rule(house: House, missing: set[str], first: bool, is_broken: bool) -> tuple[str, str]:
    """The clause and sub-rule of a lead list that lacks ``missing`` (cards the rules let it lead): a
    declared option's clause when the engine plays that option's rule wrong, else BM-LEAD-2 with the
    rule of other Hearts games it plays (each a rule of its own)."""
    if first and missing - PENALTY:  # the first trick led by a club (the 2C, the lowest club, any club)
        return ("BM-LEAD-4", "") if house.first_trick != "free" else ("BM-LEAD-2", "first lead")
    if missing <= HEARTS_SET and (house.hearts_broken != "no" or not is_broken):
        return ("BM-LEAD-6", "") if house.hearts_broken != "no" else ("BM-LEAD-2", "hearts broken")
    if first and missing <= PENALTY:  # no heart nor the QS on the first trick
        return ("BM-LEAD-5", "") if house.no_points else ("BM-LEAD-2", "first trick points")
    return "BM-LEAD-2", ""


def penalty_cards(scheme: str) -> frozenset[str]:
    """The cards that score under ``scheme``: what a shooter of the moon takes, every one of them."""
    return frozenset(c for c, v in POINTS[scheme].items() if v > 0)


def shooter(won: Sequence[Sequence[str]], scheme: str) -> int | None:
    """The seat that took every penalty card of the round, if one did."""
    need = penalty_cards(scheme)
    return next((s for s, cards in enumerate(won) if need <= set(cards)), None)


def moon_paid(want: Sequence[int], seat: int, moon: str) -> list[int]:
    """The round's scores after a moon shot by ``seat``: ``others_score`` the shooter 0 and every other
    seat the round's whole penalty total; ``shooter_minus`` the shooter minus that total, the others 0."""
    total = sum(want)
    if moon == "others_score":
        return [0 if s == seat else total for s in range(len(want))]
    return [-total if s == seat else 0 for s in range(len(want))]


def first_holder(hands: Sequence[Sequence[str]], n: int) -> int | None:
    """The seat holding the lowest club in play (``first_lead=two_clubs`` leads the first trick)."""
    low = lowest_club(n)
    return next((s for s, h in enumerate(hands) if low in h), None)
