"""What to draw and play: setups, targets, deals, and the steering of a game's moves.

Most games steer the penalty cards to one or two *takers* drawn per game, so that a game reaches a
target of 100 in a few rounds and the *dodgers* tie for the lowest total at 0 (BM-END-1/2 reached
without fixtures); the rest play at random.  A third of the steered games have *twins* instead of
plain dodgers: the twin behind on points plays for the penalty cards until it has caught up (and, when
they are level, one of them takes one in every round), so the twins' totals stay level and low while
the takers (one at 3 players, two at 4) reach the target.  No seat then takes every penalty card, so
an engine that shoots the moon (a house rule) cannot turn the totals round, and the twins tie for the
lowest total.  The steering reads every hand and pile from the engine's state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from attrs import define, field
from hypothesis import strategies as st

from ruleproof.model.engine import Move
from ruleproof.model.findings import Setup
from ruleproof.model.notation import rank_index, suit
from ruleproof.properties import draws
from ruleproof.properties.black_maria.cards import DEFAULT_TARGET, GAME, POINTS, deck_for, hand_size, play
from ruleproof.properties.black_maria.house import DIRECTIONS, HOUSE_OPTIONS, HOUSE_PAIRS, pass_way
from ruleproof.properties.options import covering
from ruleproof.properties.snapshot import Snapshot


def draw_setups(declared: dict[str, Any]) -> st.SearchStrategy[Setup]:
    """3 or 4 players, a declared scheme, a small target or the default, any first dealer, and the house
    rules declared: one of the rows that play every pair of values of two options that interact
    (``covering``), each other house option's value drawn on its own (an option the engine does not
    declare is never sent)."""
    players = sorted(p for p in declared["players"] if p in (3, 4)) or declared["players"]
    options = declared.get("options", {})
    schemes = [s for s in options.get("scoring", ["standard"]) if s in POINTS] or ["standard"]
    house = {
        k: [v for v in options[k] if v in vs] for k, vs in HOUSE_OPTIONS.items() if isinstance(options.get(k), list)
    }
    paired = {name for pair in HOUSE_PAIRS for name in pair}
    rows = covering({k: v for k, v in house.items() if v and k in paired}, HOUSE_PAIRS) or [{}]
    alone = {k: v for k, v in house.items() if v and k not in paired}  # each drawn on its own

    @st.composite
    def setup(draw: Any) -> Setup:
        n = draw(st.sampled_from(players), label="players")
        scoring = draw(st.sampled_from(schemes), label="scoring")
        target = draw(target_strategy(options.get("target"), scoring), label="target")
        dealer = draw(st.integers(0, n - 1), label="dealer")
        # no draw at all for an engine that declares no house rule: its exploration is as it was
        row = dict(draw(st.sampled_from(rows), label="house rules")) if rows != [{}] else {}
        row.update({k: draw(st.sampled_from(v), label=k) for k, v in alone.items()})
        if n == 3 and row.get("pass") == "across":  # across is a 4-player direction: another one declared
            row["pass"] = next((w for w in house["pass"] if w != "across"), "right")
        return Setup(GAME, n, dealer, {"scoring": scoring, "target": target, **row})

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
    passing: str = "right"  # the pass option: which seat each pass reaches
    base: frozenset[int] = field(factory=frozenset)  # the takers drawn for the game
    takers: frozenset[int] = field(factory=frozenset)  # ... and the twin that plays for points now
    twins: tuple[int, ...] = ()
    drawn: bool = False

    def choose(self, snap: Snapshot, pick: int) -> Move:
        """Most games (3 in 4 at 3 players, 2 in 3 at 4) have takers: a third of those one, a third two,
        so that no round gives every penalty card to one seat, and a third one and a minor taker (an
        engine that shoots the moon, a house rule, still reaches its game ends and a tie for the lowest
        total), while the games of one taker still show it shooting.  1 in 32 moves of a steered game is
        at random."""
        moves = snap.moves
        k = len(moves)
        if not self.drawn:
            self.drawn = True
            self._draw(pick // k)
        if snap.phase == "play" and self.twins:
            self.takers = self.base | self._chaser(snap)
        if snap.phase == "play" and self.takers and (pick // k) % 32:
            card = steer_card(self, snap)
            if card is not None:
                return play(card)
        if snap.phase == "pass" and self.takers and (pick // k) % 32:
            return max(moves, key=lambda m: pass_score(self, snap, m))
        return moves[pick % k]

    def _draw(self, pick: int) -> None:
        """The game's takers: none (a game at random), one, two side by side, or the takers and twins."""
        seat = pick % (self.n + self.n // 2)
        if seat >= self.n:
            return
        mode = (pick // 8) % 3
        if mode == 2:  # twins: the two seats after the taker; at 4 players the fourth takes too
            self.twins = ((seat + 1) % self.n, (seat + 2) % self.n)
            self.base = frozenset({seat, (seat + 3) % self.n})
        else:
            self.base = frozenset({seat, (seat + 1) % self.n} if mode == 1 else {seat})
        self.takers = self.base

    def _chaser(self, snap: Snapshot) -> frozenset[int]:
        """The twin that plays for points now: the one behind (its total and its won cards this round),
        else the first while neither has taken a penalty card this round (so nobody takes them all)."""
        values, scores = POINTS[self.scheme], snap.scores
        if len(scores) != self.n:
            return frozenset()
        now = {t: sum(values.get(c, 0) for c in snap.zone(f"won/{t}")) for t in self.twins}
        first, second = self.twins
        a, b = scores[first] + now[first], scores[second] + now[second]
        if a != b:
            return frozenset({first if a < b else second})
        return frozenset({first}) if not now[first] and not now[second] else frozenset()


def steer_card(steering: Steering, snap: Snapshot) -> str | None:
    """The card that sends the penalty cards to the takers (every hand is in the state): a taker plays
    to win the trick, and dumps its penalty cards only on another taker's winning trick; a dodger
    plays to lose it, and dumps its penalty cards where a taker wins or will win."""
    seat = snap.to_act
    cards: list[str] = [m["card"] for m in snap.moves if m.get("type") == "play" and isinstance(m.get("card"), str)]
    if seat is None or not cards:
        return None
    if not snap.zone("trick"):
        return _lead(steering, snap, seat, cards)
    return _follow(steering, snap, seat, cards)


def _smallest_penalty(values: dict[str, int]) -> Callable[[str], tuple[bool, int, int]]:
    """The order that puts the smallest penalty card first: what keeps a twin catching up level."""
    return lambda c: (values.get(c, 0) <= 0, values.get(c, 0), -rank_index(c))


def _lead(steering: Steering, snap: Snapshot, seat: int, cards: list[str]) -> str:
    values, takers = POINTS[steering.scheme], steering.takers
    if seat in takers:  # a taker leads a card nobody can beat, hearts first (a twin: its smallest)
        others = [c for s in range(steering.n) if s not in takers for c in snap.zone(f"hand/{s}")]
        safe = [c for c in cards if not any(suit(o) == suit(c) and rank_index(o) > rank_index(c) for o in others)]
        if seat in steering.twins:
            return min(safe or cards, key=_smallest_penalty(values))
        return max(safe or cards, key=lambda c: (values.get(c, 0) > 0, rank_index(c)))
    # a dodger leads low, no penalty card, in a suit a taker can win
    above = {(suit(c), rank_index(c)) for t in takers for c in snap.zone(f"hand/{t}")}
    return min(
        cards,
        key=lambda c: (values.get(c, 0), not any(s == suit(c) and r > rank_index(c) for s, r in above), rank_index(c)),
    )


def _follow(steering: Steering, snap: Snapshot, seat: int, cards: list[str]) -> str:
    values, takers, trick = POINTS[steering.scheme], steering.takers, snap.zone("trick")
    led = suit(trick[0])
    best = max((c for c in trick if suit(c) == led), key=rank_index)
    seats = list(snap.get("trick_seats") or [])
    twin_wins = len(seats) == len(trick) and seats[trick.index(best)] in steering.twins
    if suit(cards[0]) != led:  # void: penalty cards to a taker's trick (a twin's: the smallest), never a dodger's
        dump = _taker_wins(steering, snap, best)
        if dump and twin_wins:
            return min(cards, key=_smallest_penalty(values))
        return max(cards, key=lambda c: (values.get(c, 0) if dump else -values.get(c, 0), rank_index(c)))
    if seat in takers and not (twin_wins and seats[trick.index(best)] in takers):
        return max(cards, key=rank_index)
    under = [c for c in cards if rank_index(c) < rank_index(best)]  # a dodger, or a taker leaving a twin its trick
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
    way = pass_way(steering.passing, steering.n, snap.get("round") or 1)
    if seat is not None and (seat - DIRECTIONS[way]) % steering.n in steering.takers:
        return sum(values.get(c, 0) for c in cards), sum(rank_index(c) for c in cards)
    if seat in steering.takers:
        return -sum(values.get(c, 0) for c in cards), -sum(rank_index(c) for c in cards)
    return -sum(values.get(c, 0) for c in cards), sum(rank_index(c) for c in cards)
