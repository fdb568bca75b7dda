"""What to draw and play: setups, targets, deals, and the steering of a game's moves.

Most games steer the penalty cards to one or two *takers* drawn per game, so that a game reaches a
target of 100 in a few rounds and the *dodgers* tie for the lowest total at 0 (BM-END-1/2 reached
without fixtures); the rest play at random.  The steering reads every hand from the engine's state.
"""

from __future__ import annotations

from typing import Any

from attrs import define, field
from hypothesis import strategies as st

from ruleproof.model.engine import Move
from ruleproof.model.findings import Setup
from ruleproof.model.notation import rank_index, suit
from ruleproof.properties import draws
from ruleproof.properties.black_maria.cards import DEFAULT_TARGET, GAME, POINTS, deck_for, hand_size, play
from ruleproof.properties.snapshot import Snapshot


def draw_setups(declared: dict[str, Any]) -> st.SearchStrategy[Setup]:
    """3 or 4 players, a declared scheme, a small target or the default, any first dealer."""
    players = sorted(p for p in declared["players"] if p in (3, 4)) or declared["players"]
    options = declared.get("options", {})
    schemes = [s for s in options.get("scoring", ["standard"]) if s in POINTS] or ["standard"]

    @st.composite
    def setup(draw: Any) -> Setup:
        n = draw(st.sampled_from(players), label="players")
        scoring = draw(st.sampled_from(schemes), label="scoring")
        target = draw(target_strategy(options.get("target"), scoring), label="target")
        dealer = draw(st.integers(0, n - 1), label="dealer")
        return Setup(GAME, n, dealer, {"scoring": scoring, "target": target})

    return setup()


def target_strategy(declared: Any, scoring: str) -> st.SearchStrategy[int]:
    """Small targets reach the game end in a round or two (protocol.md §2)."""
    default = DEFAULT_TARGET[scoring]
    if isinstance(declared, dict):
        lo, hi = declared["min"], declared["max"]
        picks = sorted({max(lo, min(hi, v)) for v in (lo, default // 8, default // 3, default)})
        return st.sampled_from(picks)
    if isinstance(declared, list) and declared:
        return st.sampled_from(declared)
    return st.just(default)


def deal_from(players: int, data: st.DataObject) -> dict[str, Any]:
    cards = data.draw(draws.shuffled(deck_for(players)), label="deal")
    size = hand_size(players)
    return {"type": "deal", "hands": [list(cards[i * size : (i + 1) * size]) for i in range(players)]}


@define
class Steering:
    """One game's steering: the seats the penalty cards are sent to, drawn at the game's first move."""

    n: int
    scheme: str
    takers: frozenset[int] = field(factory=frozenset)
    drawn: bool = False

    def choose(self, snap: Snapshot, pick: int) -> Move:
        """Most games (3 in 4 at 3 players, 2 in 3 at 4) have takers; half of those two, so that no round
        gives every penalty card to one seat (an engine that shoots the moon, a house rule, still reaches
        its game ends and ties) and the other half still shows it shooting.  1 in 32 moves of a steered
        game is at random."""
        moves = snap.moves
        k = len(moves)
        if not self.drawn:
            self.drawn = True
            seat = (pick // k) % (self.n + self.n // 2)
            two = (pick // k // 8) % 2 == 1
            self.takers = frozenset({seat, (seat + 1) % self.n} if two else {seat}) if seat < self.n else frozenset()
        if snap.phase == "play" and self.takers and (pick // k) % 32:
            card = steer_card(self, snap)
            if card is not None:
                return play(card)
        if snap.phase == "pass" and self.takers and (pick // k) % 32:
            return max(moves, key=lambda m: pass_score(self, snap, m))
        return moves[pick % k]


def steer_card(steering: Steering, snap: Snapshot) -> str | None:
    """The card that sends the penalty cards to the takers (every hand is in the state): a taker plays
    to win the trick, and dumps its penalty cards only on another taker's winning trick; a dodger
    plays to lose it, and dumps its penalty cards where a taker wins or will win."""
    seat, takers = snap.to_act, steering.takers
    cards: list[str] = [m["card"] for m in snap.moves if m.get("type") == "play" and isinstance(m.get("card"), str)]
    if seat is None or not cards:
        return None
    values, trick = POINTS[steering.scheme], snap.zone("trick")
    if not trick and seat in takers:  # a taker leads a card nobody can beat, hearts first
        others = [c for s in range(steering.n) if s not in takers for c in snap.zone(f"hand/{s}")]
        safe = [c for c in cards if not any(suit(o) == suit(c) and rank_index(o) > rank_index(c) for o in others)]
        return max(safe or cards, key=lambda c: (values.get(c, 0) > 0, rank_index(c)))
    if not trick:  # a dodger leads low, no penalty card, in a suit a taker can win
        above = {(suit(c), rank_index(c)) for t in takers for c in snap.zone(f"hand/{t}")}
        return min(
            cards,
            key=lambda c: (
                values.get(c, 0),
                not any(s == suit(c) and r > rank_index(c) for s, r in above),
                rank_index(c),
            ),
        )
    led = suit(trick[0])
    best = max((c for c in trick if suit(c) == led), key=rank_index)
    if suit(cards[0]) != led:  # void: penalty cards to a taker's trick, never to a dodger's
        dump = _taker_wins(steering, snap, best)
        return max(cards, key=lambda c: (values.get(c, 0) if dump else -values.get(c, 0), rank_index(c)))
    if seat in takers:
        return max(cards, key=rank_index)
    under = [c for c in cards if rank_index(c) < rank_index(best)]
    return max(under, key=lambda c: (values.get(c, 0), rank_index(c))) if under else min(cards, key=rank_index)


def _taker_wins(steering: Steering, snap: Snapshot, best: str) -> bool:
    """A taker holds the trick now and no dodger still to play must beat it, or a taker still to play
    can beat it."""
    trick, seats = snap.zone("trick"), list(snap.get("trick_seats") or [])
    if len(seats) != len(trick):
        return False
    led = suit(trick[0])
    to_come = [s for s in range(steering.n) if s not in seats and s != snap.to_act]

    def beats(seat: int) -> bool:
        return any(suit(c) == led and rank_index(c) > rank_index(best) for c in snap.zone(f"hand/{seat}"))

    def forced_over(seat: int) -> bool:  # holds the led suit, only above the best card
        same = [c for c in snap.zone(f"hand/{seat}") if suit(c) == led]
        return bool(same) and all(rank_index(c) > rank_index(best) for c in same)

    if seats[trick.index(best)] in steering.takers:
        return not any(forced_over(s) for s in to_come if s not in steering.takers)
    return any(beats(t) for t in steering.takers if t in to_come)


def pass_score(steering: Steering, snap: Snapshot, move: Move) -> tuple[int, int]:
    """How well a pass sends the penalty cards towards the takers: the seat that passes to a taker gives
    it its penalty cards; every other seat passes its highest cards (a taker keeps the high cards that
    win tricks and passes the low ones: it wants to lose no trick; a dodger wants to win none)."""
    seat = snap.to_act
    cards = move.get("cards") or []
    values = POINTS[steering.scheme]
    if seat is not None and (seat - 1) % steering.n in steering.takers:
        return sum(values.get(c, 0) for c in cards), sum(rank_index(c) for c in cards)
    if seat in steering.takers:
        return -sum(values.get(c, 0) for c in cards), -sum(rank_index(c) for c in cards)
    return -sum(values.get(c, 0) for c in cards), sum(rank_index(c) for c in cards)
