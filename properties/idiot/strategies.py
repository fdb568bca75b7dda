"""What the exploration and the minimizer draw for Idiot: setups, deals, moves, smaller tables.

The setups favour small tables (2 to 4 players, now and then 5 or 6) with every option value the
engine declares; a deal is a shuffle of the pool laid out three rows of three a seat; ``choose``
picks the best of a few drawn moves by a cheap progress score so that games end, and some games
decline every opening they can to climb the ladder (IDIOT-OPEN-1/-3).  For the minimizer:
``play_on`` (progress over the first listed move), smaller tables with each recorded deal adapted to
them, and fresh deals by fixed seeds.  No clause is judged here.
"""

from __future__ import annotations

import math
import random
from typing import Any

from hypothesis import strategies as st

from ruleproof.model.findings import Setup
from ruleproof.properties import draws
from ruleproof.properties.idiot.cards import (
    GAME,
    HOUSE_OPTIONS,
    TRANSPARENT_PAIRS,
    ZONE_ROWS,
    default_decks,
    laid_out,
    pool,
    progress_score,
)


def setups(declared: dict[str, Any]) -> st.SearchStrategy[Setup]:
    """The setups to draw from the engine's ``hello`` entry for Idiot."""
    players = sorted(declared["players"])
    small = [p for p in players if 2 <= p <= 4] or players[:1]
    some = [p for p in players if 5 <= p <= 6]
    options = declared.get("options", {})

    def choices(name: str, default: list[Any]) -> list[Any]:
        got = options.get(name)
        return list(got) if isinstance(got, list) and got else default

    after_burn = choices("after_burn", ["next"])
    six_burn = choices("six_burn", [3])
    two_followup = choices("two_followup", ["optional"])
    ten_anytime = choices("ten_anytime", [True])
    # the house-rule options (IDIOT-EIGHT-1, IDIOT-REVERSE-1): sent only to an engine that declares them
    house = {name: choices(name, []) for name in HOUSE_OPTIONS if choices(name, [])}

    @st.composite
    def setup(draw: Any) -> Setup:
        pick = st.sampled_from(small)
        n = draw(st.one_of(pick, pick, pick, st.sampled_from(some)) if some else pick, label="players")
        decks = draw(st.sampled_from(deck_choices(options.get("decks"), n)), label="decks")
        opts = {
            "decks": decks,
            "after_burn": draw(st.sampled_from(after_burn), label="after_burn"),
            "six_burn": draw(st.sampled_from(six_burn), label="six_burn"),
            "two_followup": draw(st.sampled_from(two_followup), label="two_followup"),
            "ten_anytime": draw(st.sampled_from(ten_anytime), label="ten_anytime"),
            **{name: draw(house_value(name, values), label=name) for name, values in house.items()},
        }
        dealer = draw(st.integers(0, n - 1), label="dealer")
        return Setup(GAME, n, dealer, opts)

    return setup()


def house_value(name: str, values: list[Any]) -> st.SearchStrategy[Any]:
    """A house option's value: any declared one; a transparent rank drawn a third of the time from those the
    burns and the cap of a 7 name (``TRANSPARENT_PAIRS``), whose pairs would else be reached once in a dozen
    games each (a run would leave some of IDIOT-TRANSPARENT-1's situations unjudged)."""
    every = st.sampled_from(values)
    named = [v for v in values if v in TRANSPARENT_PAIRS.values()] if name == "transparent" else []
    return st.one_of(st.sampled_from(named), every, every) if named else every


def deck_choices(declared: Any, n: int) -> list[int]:
    """The deck counts to draw for ``n`` players: the fewest allowed, the default and one more (the kit
    never asks for 9n > 52D)."""
    need = math.ceil(9 * n / 52)
    default = default_decks(n)
    if isinstance(declared, dict):
        lo, hi = max(declared["min"], need), declared["max"]
        return sorted({d for d in (lo, default, lo + 1) if lo <= d <= hi}) or [lo]
    if isinstance(declared, list) and declared:
        return [d for d in declared if d >= need] or [max(declared)]
    return [default]


def deal(decks: int, n: int, data: st.DataObject) -> dict[str, Any]:
    cards = list(data.draw(draws.shuffled(sorted(pool(decks).elements())), label="deal"))
    return laid_out(cards, n)


def fresh_deal(setup: Setup, seed: int) -> dict[str, Any]:
    n = setup.players
    cards = sorted(pool(setup.options.get("decks", default_decks(n))).elements())
    random.Random(seed).shuffle(cards)
    return laid_out(cards, n)


def smaller_setups(setup: Setup, declared: dict[str, Any]) -> list[Setup]:
    """Fewer players, two first, each with the fewest decks it needs (IDIOT-SETUP-1): every turn around
    the table, and the swap phase, get shorter."""
    decl = (declared.get("options") or {}).get("decks")
    out = []
    for n in sorted(p for p in declared.get("players", []) if 2 <= p < setup.players):
        need = math.ceil(9 * n / 52)
        if isinstance(decl, dict):
            decks = max(decl["min"], need)
        elif isinstance(decl, list) and decl:
            decks = min((d for d in decl if d >= need), default=max(decl))
        else:
            decks = default_decks(n)
        out.append(Setup(GAME, n, setup.dealer % n, {**setup.options, "decks": decks}))
    return out


def adapt_deal(deal: dict[str, Any], setup: Setup) -> dict[str, Any] | None:
    """The remaining seats keep their face-down, face-up and hand cards and the draw pile its order, as far
    as the new pool (IDIOT-SETUP-2) has the cards; the rest fills the gaps."""
    left = pool(setup.options.get("decks", default_decks(setup.players)))
    n = setup.players

    def take(cards: Any) -> list[str]:
        kept = []
        for c in cards:
            if isinstance(c, str) and left[c] > 0:
                left[c] -= 1
                kept.append(c)
        return kept

    try:
        rows = {z: [take(deal[z][s]) if s < len(deal[z]) else [] for s in range(n)] for z in ZONE_ROWS}
        dropped = take([c for z in ZONE_ROWS for seat in deal[z][n:] for c in seat])
        draw = take(deal.get("draw") or [])
    except (KeyError, TypeError):
        return None
    # the gaps are filled from the bottom of what is left, so the top of the draw pile (its end, drawn
    # first) stays as recorded
    rest = dropped + sorted(left.elements()) + draw
    for z in ZONE_ROWS:
        for row in rows[z]:
            while len(row) < 3 and rest:
                row.append(rest.pop(0))
    return {"type": "deal", **rows, "draw": rest}


def play_on(moves: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    """The move that makes the most progress (``ready`` over a swap, which can go back and forth for ever;
    low cards and several at once; a pickup last), the first such when tied."""
    return min(moves, key=progress_score)


def pick_move(moves: tuple[dict[str, Any], ...], pick: int, style: int) -> dict[str, Any]:
    """The best by progress of ``style`` moves indexed from one drawn integer (a lone pick that is a pickup
    is drawn again, so that voluntary pickups stay rare)."""
    n = len(moves)
    picks = [(pick // n**j) % n for j in range(style)]
    if style == 1 and moves[picks[0]].get("type") == "pickup" and n > 1:
        picks = [(pick // n) % n]
    return moves[min(picks, key=lambda i: progress_score(moves[i]))]
