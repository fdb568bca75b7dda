"""What to draw: the setups (``setups``, ``explicit_deck``) and the steering of a game towards a sixth +10
and a shared win (``favourites``, ``arranged``, ``steer``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from ruleproof.model.findings import Setup
from ruleproof.model.notation import FOOL_BOX_MAX, FOOL_BOX_WILDS, FOOL_COLOURS, FOOL_WILD, fool_colour, fool_number
from ruleproof.properties.fool.cards import (
    BOX,
    GAME,
    clockwise_after,
    deck_size,
    lead_colour,
    legal_cards,
    value,
    worst_order,
)
from ruleproof.properties.snapshot import Snapshot

if TYPE_CHECKING:
    from ruleproof.properties.fool.props import FoolProperties


def setups(declared: dict[str, Any]) -> st.SearchStrategy[Setup]:
    """The setups to draw from what the engine declares: 4-8 players, the named deck or explicit ones
    (``explicit_deck``) when it takes them, the offered two_fools_from and loss."""
    players = sorted(p for p in declared["players"] if 4 <= p <= 8) or list(declared["players"])
    options = declared.get("options", {})
    decks = options.get("deck", ["assumed-2018"])
    named = [d for d in decks if d == "assumed-2018"]
    custom = "custom" in decks
    fools_from = [v for v in options.get("two_fools_from", [7]) if v in (7, 8)] or [7]
    losses = [v for v in options.get("loss", ["net"]) if v in ("net", "gross")] or ["net"]

    @st.composite
    def setup(draw: Any) -> Setup:
        n = draw(st.sampled_from(players), label="players")
        kinds = named + (["custom"] if custom else [])
        kind = draw(st.sampled_from(kinds or ["assumed-2018"]), label="deck kind")
        deck: Any = draw(explicit_deck(n), label="deck") if kind == "custom" else "assumed-2018"
        opts = {
            "deck": deck,
            "two_fools_from": draw(st.sampled_from(fools_from), label="two_fools_from"),
            "loss": draw(st.sampled_from(losses), label="loss"),
        }
        dealer = draw(st.integers(0, n - 1), label="dealer")
        return Setup(GAME, n, dealer, opts)

    return setup()


# -- steering: games that reach a sixth +10 and a shared win -------------------------------------------
# Random play almost never gives one seat six +10s before someone reaches -80, nor two seats the same
# top total.  A steered game picks one or two favourite seats: the deal gives them high cards of
# every colour, they play the lowest card that keeps every favourite out of the fools, and the others
# shed their costliest card that does the same.  The favourites then go out together round after
# round: a sixth +10 (at 4-6 players) and, with two, a shared win.  Only listed moves are played and
# every deal is one the rules allow, so the steering holds on any engine; on a state it cannot read it
# leaves the choice to the index pick.


def favourites(n: int, v: int) -> tuple[int, ...]:
    """The favourite seats of a game from a draw ``v`` in 0..99: none (1 in 4); else at 4-6 players one
    (2 in 4, a sixth +10) or two (1 in 4, a sixth +10 shared), at 7-8 two (with two fools a trick, one
    favourite's opponents keep too many cards for a sixth +10 before -80, but two go out together)."""
    mode, spin = v % 4, v // 4
    first = spin % n
    second = (first + 1 + (spin // n) % (n - 1)) % n
    if mode == 0:
        return ()
    if mode < 3 and n <= 6:
        return (first,)
    return (first, second)


def arranged(cards: list[str], favs: Sequence[int], n: int, h: int) -> list[list[str]]:
    """Deal ``cards`` (shuffled) in hands of ``h``; each favourite first gets its share of every colour
    (h/4 each) from the colour's highest cards, in the shuffled order, the rest as they come."""
    rest = list(cards)
    hands: list[list[str]] = [[] for _ in range(n)]
    for i, colour in enumerate(FOOL_COLOURS):
        quota = h // 4 + (1 if i < h % 4 else 0)
        ranked = sorted((c for c in rest if c != FOOL_WILD and fool_colour(c) == colour), key=fool_number)
        top = set(ranked[-((3 * quota * len(favs) + 1) // 2) :]) if favs else set()
        pool = [c for c in rest if c in top]
        for j, seat in enumerate(favs):
            for c in pool[j * quota : (j + 1) * quota]:
                hands[seat].append(c)
                rest.remove(c)
    for seat in range(n):
        need = h - len(hands[seat])
        hands[seat] += rest[:need]
        rest = rest[need:]
    return hands


def steer(props: FoolProperties, snap: Snapshot) -> str | None:
    """The card the seat to act plays in a steered game: of the listed cards that keep every favourite
    out of this trick's fools (played out by ``favourites_fooled``), a favourite plays the lowest (its
    high cards keep it safe later), another seat the costliest (it goes out holding little).  Safe
    means safe by the rules and by numbers alone where it can (an engine that misreads the off-colour
    rule still leaves the favourites out), by the rules alone where it cannot."""
    seat = snap.to_act
    cards: list[str] = [m["card"] for m in snap.moves if m.get("type") == "play" and m.get("card") in BOX]
    if seat is None or not cards or len(cards) != len(snap.moves):
        return None
    try:
        fooled = {c: favourites_fooled(props, snap, seat, c) for c in cards}
    except (ValueError, TypeError, IndexError):  # a state the steering cannot read: the index pick decides
        return None
    safe = [c for c in cards if fooled[c] == (False, False)] or [c for c in cards if not fooled[c][0]] or cards
    if seat in (props.favourites or ()):
        return min(safe, key=fool_number)
    return max(safe, key=lambda c: (value(c), fool_number(c)))


def favourites_fooled(props: FoolProperties, snap: Snapshot, seat: int, card: str) -> tuple[bool, bool]:
    """Whether a favourite is among the fools, by the rules and by numbers alone, once ``seat`` plays
    ``card`` and the seats still to play follow the steering's plain choices (a favourite its highest
    legal card, another its costliest)."""
    favs, n = set(props.favourites or ()), props.n
    trick = [*snap.zone("trick"), card]
    seats = [*list(snap.get("trick_seats") or []), seat]
    sitting = set(snap.get("fools") or [])
    hands = {s: list(snap.zone(f"hand/{s}")) for s in range(n)}
    hands[seat].remove(card)
    nxt = clockwise_after(seat, n, sitting)
    while nxt not in seats and len(seats) < n:
        allowed, _ = legal_cards(hands[nxt], trick)
        # In hand order, not the set's: on a tie ``max`` keeps the first, and a set's order of strings
        # changes with PYTHONHASHSEED, so processes (workers, shards) would steer apart.
        legal = [c for c in hands[nxt] if c in allowed]
        if not legal:
            break
        pick = max(legal, key=fool_number) if nxt in favs else max(legal, key=lambda c: (value(c), fool_number(c)))
        trick.append(pick)
        seats.append(nxt)
        hands[nxt].remove(pick)
        nxt = clockwise_after(nxt, n, sitting)
    by_rules = worst_order(trick, lead_colour(trick))[: props.k]
    by_number = sorted(range(len(trick)), key=lambda i: (fool_number(trick[i]), -i))[: props.k]
    return bool(favs & {seats[i] for i in by_rules}), bool(favs & {seats[i] for i in by_number})


def explicit_deck(n: int) -> st.SearchStrategy[dict[str, int]]:
    """A valid explicit deck for n players (rules.md §1.2): 2..max per colour, 0..6 1s, 12n or 88 cards."""
    total = deck_size(n)

    @st.composite
    def draw_deck(draw: Any) -> dict[str, int]:
        cap = sum(FOOL_BOX_MAX[c] - 1 for c in FOOL_COLOURS)
        wilds = draw(st.integers(max(0, total - cap), FOOL_BOX_WILDS))
        left = total - wilds
        out: dict[str, int] = {}
        colours = list(FOOL_COLOURS)
        for i, c in enumerate(colours[:-1]):
            rest = colours[i + 1 :]
            lo = max(1, left - sum(FOOL_BOX_MAX[r] - 1 for r in rest))
            hi = min(FOOL_BOX_MAX[c] - 1, left - len(rest))
            count = draw(st.integers(lo, hi))
            out[c] = count + 1
            left -= count
        out[colours[-1]] = left + 1
        out["1"] = wilds
        return out

    return draw_deck()
