"""Black Maria, the reference rules (rules.md §4, protocol.md §4 "black-maria").

A Hearts-family trick-taking game for 3 or 4 players.  With 3 players the 2C
is removed and each gets 17 cards; with 4 each gets 13 (BM-SETUP-1, BM-DEAL-1).
After every deal each seat passes three cards to its right, all at once
(BM-PASS-1..3); the player left of the dealer leads any card (BM-LEAD-1/2);
suit must be followed (BM-FOLLOW-1); the highest card of the led suit wins and
its winner leads next (BM-WIN-1/2).  Penalty cards won are scored under one of
three schemes (BM-SCORE-1..5); after a round in which some total reaches the
target the lowest total wins, ties sharing (BM-END-1/2).  The dealer moves left
every round (BM-DEAL-2).  The invariants BM-INV-1..7 hold by construction.

Every rule sits in its own small method so that a mutant (tests/mutants/
black_maria.py) can override exactly one of them.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from itertools import combinations
from typing import Any

from attrs import fields, frozen

from ruleproof.model.engine import BadRequest, IllegalMove, JSONObject, Move, State
from ruleproof.model.notation import STANDARD_CARDS, STANDARD_DECK, rank, rank_index, suit
from ruleproof.reference.base import Rules, move_type, require, require_list, wrong_phase

Cards = tuple[str, ...]

PLAYERS = (3, 4)
SCHEMES = ("standard", "spades", "spot")
TARGET_RANGE = {"min": 1, "max": 1000}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
# The house rules (docs/rules/black-maria.md "House rules"), each option's values with the documents'
# rule first: the default of an option left out.
HOUSE: dict[str, list[Any]] = {
    "pass": ["right", "left", "across", "rotate", "none"],
    "first_lead": ["left_of_dealer", "two_clubs"],
    "first_trick": ["free", "lowest_club", "any_club"],
    "no_points_first_trick": [False, True],
    "hearts_broken": ["no", "hearts", "hearts_or_queen"],
    "moon": ["none", "others_score", "shooter_minus"],
}
# BM-PASS-4: pass=rotate passes these ways in turn from round 1; a hold round passes nothing
ROTATION = {4: ("left", "right", "across", "hold"), 3: ("left", "right", "hold")}
# which seat a pass reaches, by the way the round passes
PASS_STEP = {"right": -1, "left": 1, "across": 2}

# Hands are kept in deck order (clubs, diamonds, hearts, spades; 2 up to A) so
# that snapshots are deterministic whatever order the cards arrived in.
_DECK_ORDER = {card: i for i, card in enumerate(STANDARD_DECK)}

# The clause a move of the wrong phase (or an unknown move type) breaks: the
# rule that says what this phase is for.
_PHASE_CLAUSE = {"deal": "BM-DEAL-1", "pass": "BM-PASS-1", "play": "BM-FOLLOW-1", "over": "BM-END-1"}


def in_deck_order(cards: Iterable[str]) -> Cards:
    return tuple(sorted(cards, key=_DECK_ORDER.__getitem__))


@frozen
class HouseRules:
    """The house rules of one game (every option at its value, BM-PASS-4, BM-LEAD-3..6, BM-SCORE-6)."""

    passing: str = "right"
    first_lead: str = "left_of_dealer"
    first_trick: str = "free"
    no_points_first_trick: bool = False
    hearts_broken: str = "no"
    moon: str = "none"

    def to_json(self) -> JSONObject:
        return {
            "pass": self.passing,
            "first_lead": self.first_lead,
            "first_trick": self.first_trick,
            "no_points_first_trick": self.no_points_first_trick,
            "hearts_broken": self.hearts_broken,
            "moon": self.moon,
        }


@frozen
class BlackMariaState:
    """One snapshot of a game; every field is immutable."""

    players: int
    scoring: str
    target: int
    dealer: int
    phase: str  # "deal" | "pass" | "play" | "over"
    to_act: int | None
    round: int
    deck: Cards  # undealt cards: the whole pack until the first deal
    removed: Cards  # out of the game (the 2C with 3 players)
    hands: tuple[Cards, ...]
    passing: tuple[Cards, ...]  # cards each seat has passed, until all have passed
    trick: Cards
    trick_seats: tuple[int, ...]
    leader: int | None  # who leads the current trick, throughout `play`
    won: tuple[Cards, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...] | None
    house: HouseRules = HouseRules()


_FIELDS = tuple(a.name for a in fields(BlackMariaState))
_ALL_FIELDS = operator.attrgetter(*_FIELDS)
_POSITION = {name: i for i, name in enumerate(_FIELDS)}


def evolve(state: BlackMariaState, **changes: Any) -> BlackMariaState:
    """``attrs.evolve`` for a BlackMariaState: a copy with ``changes``.  Every play makes one, and the
    generic ``attrs.evolve`` looks the seventeen fields up one by one."""
    values = list(_ALL_FIELDS(state))
    for name, value in changes.items():
        values[_POSITION[name]] = value
    return BlackMariaState(*values)


class BlackMaria(Rules[BlackMariaState]):
    """The reference rules of Black Maria."""

    game = "black-maria"

    # ------------------------------------------------------------------ setup

    def declaration(self) -> JSONObject:
        options: JSONObject = {"scoring": list(SCHEMES), "target": dict(TARGET_RANGE)}
        return {"players": list(PLAYERS), "options": {**options, **{k: list(v) for k, v in HOUSE.items()}}}

    def defaults(self, players: int) -> JSONObject:
        """The default scheme.  The target's default depends on the scheme
        (BM-END-1, BM-AMB-5), so it cannot be given here: ``check_options``
        fills it in once the scheme is known.  Each house rule's default is the documents' rule."""
        return {"scoring": "standard", **{k: v[0] for k, v in HOUSE.items()}}

    def check_options(self, players: int, options: JSONObject) -> None:
        # check_setup merges defaults(players) before this hook sees the
        # options, and an omitted target must follow the chosen scheme.
        options.setdefault("target", self.default_target(options["scoring"]))
        if players == 3 and options.get("pass") == "across":
            raise BadRequest("options.pass: 'across' needs 4 players (BM-PASS-4)")

    def default_target(self, scoring: str) -> int:
        """BM-END-1, BM-AMB-5: 500 for ``spot``, 100 for the other schemes."""
        return 500 if scoring == "spot" else 100

    def removed_cards(self, players: int) -> Cards:
        """BM-DEAL-1: with 3 players only the 2C leaves the pack."""
        return ("2C",) if players == 3 else ()

    def deck(self, players: int) -> Cards:
        """BM-DEAL-1: the pack this player count plays with."""
        removed = set(self.removed_cards(players))
        return tuple(c for c in STANDARD_DECK if c not in removed)

    def hand_size(self, players: int) -> int:
        """BM-DEAL-1: every card is dealt out, 17 each with 3 players, 13 with 4."""
        return len(self.deck(players)) // players

    def next_dealer(self, dealer: int, players: int) -> int:
        """BM-DEAL-2: the deal passes to the left each round."""
        return (dealer + 1) % players

    def start(self, players: int, dealer: int, options: JSONObject) -> BlackMariaState:
        scoring = options.get("scoring", "standard")
        target = options.get("target", self.default_target(scoring))
        empty: tuple[Cards, ...] = ((),) * players
        return BlackMariaState(
            players=players,
            scoring=scoring,
            target=target,
            dealer=dealer,
            phase="deal",
            to_act=None,
            round=0,
            deck=self.deck(players),
            removed=self.removed_cards(players),
            hands=empty,
            passing=empty,
            trick=(),
            trick_seats=(),
            leader=None,
            won=empty,
            scores=(0,) * players,
            winners=None,
            house=HouseRules(
                options.get("pass", "right"),
                options.get("first_lead", "left_of_dealer"),
                options.get("first_trick", "free"),
                options.get("no_points_first_trick", False),
                options.get("hearts_broken", "no"),
                options.get("moon", "none"),
            ),
        )

    # ---------------------------------------------------------------- passing

    def pass_size(self) -> int:
        """BM-PASS-1: exactly three cards are passed."""
        return 3

    def pass_target(self, seat: int, players: int, round_: int) -> int:
        """BM-PASS-1, BM-PASS-3: always to the right-hand neighbour, every round."""
        return (seat - 1) % players

    def pass_way(self, house: HouseRules, players: int, round_: int) -> str:
        """BM-PASS-4: the way round ``round_`` passes: right (BM-PASS-1), the declared direction, the
        rotation's (left, right, across, hold; with 3 players left, right, hold) or hold (``none``)."""
        if house.passing == "rotate":
            turn = ROTATION[players]
            return turn[(round_ - 1) % len(turn)]
        return "hold" if house.passing == "none" else house.passing

    def receiver(self, state: BlackMariaState, seat: int) -> int:
        """The seat ``seat``'s pass reaches this round (BM-PASS-1 to the right, else BM-PASS-4)."""
        way = self.pass_way(state.house, state.players, state.round)
        if way == "right":
            return self.pass_target(seat, state.players, state.round)
        return (seat + PASS_STEP[way]) % state.players

    def first_passer(self, dealer: int, players: int) -> int:
        """Seats pass in turn from the dealer's left (protocol.md §4); the
        order is only the contract's, the exchange itself is simultaneous."""
        return (dealer + 1) % players

    def may_pass(self, hand: Cards, card: str) -> bool:
        """BM-PASS-1: the cards passed come from the seat's own dealt hand."""
        return card in hand

    def hand_over(self, state: BlackMariaState, seat: int, cards: Cards) -> BlackMariaState:
        """BM-PASS-2: passed cards wait face down in ``passing/seat``; nobody
        receives anything until every seat has passed."""
        hand = tuple(c for c in state.hands[seat] if c not in cards)
        return evolve(
            state,
            hands=_replace(state.hands, seat, hand),
            passing=_replace(state.passing, seat, cards),
        )

    def exchange(self, state: BlackMariaState) -> BlackMariaState:
        """BM-PASS-1, BM-PASS-2: once all have passed, every seat's cards reach
        its target at the same moment."""
        n = state.players
        hands = list(state.hands)
        for seat, cards in enumerate(state.passing):
            to = self.receiver(state, seat)
            hands[to] = in_deck_order(hands[to] + cards)
        return evolve(state, hands=tuple(hands), passing=((),) * n)

    # ------------------------------------------------------------------- play

    def first_leader(self, dealer: int, players: int) -> int:
        """BM-LEAD-1: the player left of the dealer leads the first trick."""
        return (dealer + 1) % players

    def two_clubs_leader(self, hands: tuple[Cards, ...], players: int) -> int:
        """BM-LEAD-3: with first_lead two_clubs the holder of the lowest club in play leads."""
        low = self.lowest_club(players)
        return next(s for s, hand in enumerate(hands) if low in hand)

    def lowest_club(self, players: int) -> str:
        """BM-LEAD-3/4: the 2C, or the 3C with 3 players (the 2C is out)."""
        return "3C" if players == 3 else "2C"

    def may_lead(self, state: BlackMariaState, hand: Cards, card: str) -> bool:
        """BM-LEAD-2: any card may be led, hearts and QS included, at any time, save what a house rule
        forbids: the first trick's club (BM-LEAD-4), no points on it (BM-LEAD-5), hearts not yet broken
        (BM-LEAD-6), each applied in turn and only when it leaves the hand something to lead.  Whether
        the card is held is ``holds``'s business (BM-FOLLOW-1)."""
        return card not in hand or card in self.leads(state, hand)

    def leads(self, state: BlackMariaState, hand: Cards) -> Cards:
        """The cards the hand may lead now, under the game's house rules."""
        house, first = state.house, not any(state.won)
        allowed = hand
        if first and house.first_trick != "free":
            allowed = self.first_trick_leads(allowed, state.players, house.first_trick) or allowed
        if first and house.no_points_first_trick:
            allowed = tuple(c for c in allowed if not self.is_point_card(c)) or allowed
        if house.hearts_broken != "no" and not self.hearts_broken(state):
            allowed = tuple(c for c in allowed if suit(c) != "H") or allowed
        return allowed

    def first_trick_leads(self, hand: Cards, players: int, rule: str) -> Cards:
        """BM-LEAD-4: lowest_club, the lowest club in play if held (else as any_club); any_club, a club."""
        low = self.lowest_club(players)
        if rule == "lowest_club" and low in hand:
            return (low,)
        return tuple(c for c in hand if suit(c) == "C")

    def is_point_card(self, card: str) -> bool:
        """BM-LEAD-5: no heart nor the QS on the first trick."""
        return suit(card) == "H" or card == "QS"

    def hearts_broken(self, state: BlackMariaState) -> bool:
        """BM-LEAD-6: a heart was played this round (with hearts_or_queen, a heart or the QS)."""
        queen = state.house.hearts_broken == "hearts_or_queen"
        return any(suit(c) == "H" or (queen and c == "QS") for won in state.won for c in won)

    def holds(self, hand: Cards, card: str) -> bool:
        """BM-FOLLOW-1: a player plays only cards from their own hand."""
        return card in hand

    def may_discard(self, state: BlackMariaState, hand: Cards, cards: Cards) -> Cards:
        """BM-LEAD-5: with no_points_first_trick a void hand discards no heart nor the QS on the first
        trick unless it holds nothing else."""
        led = suit(state.trick[0])
        if not state.house.no_points_first_trick or any(state.won) or any(suit(c) == led for c in hand):
            return cards
        return tuple(c for c in cards if not self.is_point_card(c)) or cards

    def playable(self, hand: Cards, trick: Cards) -> Cards:
        """BM-FOLLOW-1: the cards of the led suit if the hand has any; if it is
        void (or leads), every card."""
        if not trick:
            return hand
        led = suit(trick[0])
        follow = tuple(c for c in hand if suit(c) == led)
        return follow or hand

    def next_player(self, seat: int, players: int) -> int:
        """rules.md §0.1: play goes clockwise, to the left."""
        return (seat + 1) % players

    def trick_winner(self, trick: Cards, seats: tuple[int, ...]) -> int:
        """BM-WIN-1: no trumps; the highest card of the led suit wins."""
        led = suit(trick[0])
        best = max((i for i, c in enumerate(trick) if suit(c) == led), key=lambda i: rank_index(trick[i]))
        return seats[best]

    def next_leader(self, winner: int, leader: int, players: int) -> int:
        """BM-WIN-2: the trick's winner leads the next trick."""
        return winner

    # ---------------------------------------------------------------- scoring

    def card_points(self, card: str, scoring: str) -> int:
        """BM-SCORE-1 (standard), BM-SCORE-2 (spades), BM-SCORE-3 (spot):
        the penalty value of one card under the game's single scheme (BM-SCORE-5)."""
        if suit(card) == "H":
            return self.spot_heart_points(card) if scoring == "spot" else 1
        if card == "QS":
            return 25 if scoring == "spot" else 13
        if scoring == "spades":
            return {"KS": 10, "AS": 7}.get(card, 0)
        return 0

    def spot_heart_points(self, card: str) -> int:
        """BM-SCORE-3: 2-10 of hearts at face value, J Q K 10 each, A 15."""
        r = rank(card)
        if r == "A":
            return 15
        if r in "TJQK":
            return 10
        return int(r)

    def round_scores(self, won: tuple[Cards, ...], scoring: str) -> tuple[int, ...]:
        """BM-SCORE-4: a seat's round score is the sum of the cards it won."""
        return tuple(sum(self.card_points(c, scoring) for c in cards) for cards in won)

    def add_scores(self, totals: tuple[int, ...], round_scores: tuple[int, ...]) -> tuple[int, ...]:
        """BM-SCORE-4: round scores are added to the running totals."""
        return tuple(t + r for t, r in zip(totals, round_scores, strict=False))

    def game_over(self, totals: tuple[int, ...], target: int) -> bool:
        """BM-END-1: checked after a whole round: some total at or above the target."""
        return any(t >= target for t in totals)

    def winners(self, totals: tuple[int, ...], target: int) -> tuple[int, ...]:
        """BM-END-2, BM-AMB-6: the lowest total wins; a tie for lowest shares the win."""
        low = min(totals)
        return tuple(s for s, t in enumerate(totals) if t == low)

    # ------------------------------------------------------------ the contract

    def legal_moves(self, state: BlackMariaState) -> list[Move]:
        seat = state.to_act
        if seat is None:  # deal (the kit's move) and over
            return []
        hand = state.hands[seat]
        if state.phase == "pass":
            return [{"type": "pass", "cards": list(c)} for c in combinations(sorted(hand), self.pass_size())]
        if not state.trick:
            return [{"type": "play", "card": c} for c in hand if self.may_lead(state, hand, c)]
        return [{"type": "play", "card": c} for c in self.may_discard(state, hand, self.playable(hand, state.trick))]

    def apply(self, state: BlackMariaState, move: Move) -> BlackMariaState:
        kind = move_type(move)
        if state.phase == "over":
            raise IllegalMove("BM-END-1", f"the game is over: no {kind!r} move is allowed")
        clause = _PHASE_CLAUSE[state.phase]
        if kind == "deal":
            hands = _parse_hands(move)
            _expect_phase(kind, state.phase, clause)
            return self.deal(state, hands)
        if kind == "pass":
            cards = require_list(move, "cards", str)
            _expect_phase(kind, state.phase, clause)
            return self.pass_move(state, cards)
        if kind == "play":
            card = require(move, "card", str)
            _expect_phase(kind, state.phase, clause)
            return self.play(state, card)
        raise IllegalMove(clause, f"unknown move type {kind!r}: black-maria has 'deal', 'pass' and 'play'")

    def deal(self, state: BlackMariaState, hands: list[list[str]]) -> BlackMariaState:
        """BM-DEAL-1: check the kit's deal (right pack, right sizes) and start passing."""
        n = state.players
        if len(hands) != n:
            raise IllegalMove("BM-DEAL-1", f"deal: {len(hands)} hands for {n} players")
        size = self.hand_size(n)
        pack = set(self.deck(n))
        seen: set[str] = set()
        for seat, hand in enumerate(hands):
            if len(hand) != size:
                raise IllegalMove("BM-DEAL-1", f"deal: hands[{seat}] has {len(hand)} cards, each hand needs {size}")
            for card in hand:
                if card not in STANDARD_CARDS:
                    raise IllegalMove("BM-DEAL-1", f"deal: hands[{seat}] has {card!r}, which names no card")
                if card not in pack:
                    raise IllegalMove("BM-DEAL-1", f"deal: {card} is out of the {n}-player pack and may not be dealt")
                if card in seen:
                    raise IllegalMove("BM-DEAL-1", f"deal: {card} is dealt twice")
                seen.add(card)
        empty: tuple[Cards, ...] = ((),) * n
        state = evolve(
            state,
            phase="pass",
            to_act=self.first_passer(state.dealer, n),
            round=state.round + 1,
            deck=(),
            hands=tuple(in_deck_order(h) for h in hands),
            passing=empty,
            trick=(),
            trick_seats=(),
            leader=None,
            won=empty,  # last round's tricks stay on the table until now
        )
        if self.pass_way(state.house, n, state.round) == "hold":  # BM-PASS-4: nothing passes, play begins
            return self.begin_play(state)
        return state

    def pass_move(self, state: BlackMariaState, cards: list[str]) -> BlackMariaState:
        """BM-PASS-1, BM-PASS-2: the seat to act passes three cards of its dealt hand."""
        seat = state.to_act
        assert seat is not None
        k = self.pass_size()
        if len(cards) != k:
            raise IllegalMove("BM-PASS-1", f"seat {seat} must pass exactly {k} cards, not {len(cards)}")
        for card in cards:
            _known(card, "BM-PASS-1")
        if len(set(cards)) != len(cards):
            twice = next(c for c in cards if cards.count(c) > 1)
            raise IllegalMove("BM-PASS-1", f"seat {seat} passes {twice} twice")
        hand = state.hands[seat]
        for card in cards:
            if not self.may_pass(hand, card):
                raise IllegalMove(*self._not_held_in_pass(state, seat, card))
        state = self.hand_over(state, seat, in_deck_order(cards))
        if seat != state.dealer:  # the dealer passes last
            return evolve(state, to_act=self.next_player(seat, state.players))
        return self.begin_play(self.exchange(state))

    def begin_play(self, state: BlackMariaState) -> BlackMariaState:
        """BM-LEAD-1 (left of the dealer) or BM-LEAD-3 (the lowest club's holder) leads the first trick."""
        if state.house.first_lead == "two_clubs":
            leader = self.two_clubs_leader(state.hands, state.players)
        else:
            leader = self.first_leader(state.dealer, state.players)
        return evolve(state, phase="play", to_act=leader, leader=leader)

    def _not_held_in_pass(self, state: BlackMariaState, seat: int, card: str) -> tuple[str, str]:
        # Name BM-PASS-2 when the card is one already passed towards this seat.
        for giver, cards in enumerate(state.passing):
            if card in cards and self.receiver(state, giver) == seat:
                return "BM-PASS-2", (
                    f"{card} was passed to seat {seat} by seat {giver}; passing is simultaneous, "
                    f"so only cards of the dealt hand may be passed"
                )
        return "BM-PASS-1", f"{card} is not in hand/{seat}"

    def play(self, state: BlackMariaState, card: str) -> BlackMariaState:
        """BM-LEAD-2, BM-FOLLOW-1, BM-WIN-1, BM-WIN-2: play one card to the trick."""
        seat = state.to_act
        assert seat is not None
        _known(card, "BM-FOLLOW-1")
        hand = state.hands[seat]
        if not self.holds(hand, card):
            raise IllegalMove("BM-FOLLOW-1", f"{card} is not in hand/{seat}")
        if not state.trick:
            if not self.may_lead(state, hand, card):
                raise IllegalMove(self.lead_clause(state, hand, card), f"seat {seat} may not lead {card}")
        elif card in self.playable(hand, state.trick) and card not in self.may_discard(state, hand, hand):
            raise IllegalMove("BM-LEAD-5", f"no heart nor the QS on the first trick: seat {seat} may not play {card}")
        elif card not in self.playable(hand, state.trick):
            led = suit(state.trick[0])
            raise IllegalMove(
                "BM-FOLLOW-1",
                f"{card} revokes: {SUIT_NAMES[led]} were led and seat {seat} holds "
                f"{', '.join(c for c in hand if suit(c) == led)}",
            )
        n = state.players
        trick = (*state.trick, card)
        seats = (*state.trick_seats, seat)
        hands = _replace(state.hands, seat, tuple(c for c in hand if c != card))
        if len(trick) < n:
            return evolve(state, hands=hands, trick=trick, trick_seats=seats, to_act=self.next_player(seat, n))
        winner = self.trick_winner(trick, seats)
        assert state.leader is not None
        leader = self.next_leader(winner, state.leader, n)
        state = evolve(
            state,
            hands=hands,
            trick=(),
            trick_seats=(),
            won=_replace(state.won, winner, state.won[winner] + trick),
            to_act=leader,
            leader=leader,
        )
        if any(hands):
            return state
        return self.end_round(state)

    def lead_clause(self, state: BlackMariaState, hand: Cards, card: str) -> str:
        """The house rule that forbids leading ``card``: the first one applied that removes it."""
        first, house = not any(state.won), state.house
        clubs = self.first_trick_leads(hand, state.players, house.first_trick) if first else ()
        if house.first_trick != "free" and clubs and card not in clubs:
            return "BM-LEAD-4"
        if first and house.no_points_first_trick and self.is_point_card(card):
            return "BM-LEAD-5"
        return "BM-LEAD-6"

    def moon(self, house: HouseRules, won: tuple[Cards, ...], scores: tuple[int, ...], scoring: str) -> tuple[int, ...]:
        """BM-SCORE-6: a seat that took every penalty card shoots the moon: ``others_score`` it scores 0
        and every other seat the round's whole total; ``shooter_minus`` it scores minus that total."""
        points = {c for c in STANDARD_DECK if self.card_points(c, scoring) > 0}
        shooter = next((s for s, cards in enumerate(won) if points <= set(cards)), None)
        if house.moon == "none" or shooter is None:
            return scores
        total = sum(scores)
        if house.moon == "others_score":
            return tuple(0 if s == shooter else total for s in range(len(scores)))
        return tuple(-total if s == shooter else 0 for s in range(len(scores)))

    def end_round(self, state: BlackMariaState) -> BlackMariaState:
        """BM-SCORE-4, BM-END-1, BM-END-2, BM-DEAL-2: score the round, then end
        the game or hand the deal to the left.  Won cards stay until the next deal."""
        scores = self.moon(state.house, state.won, self.round_scores(state.won, state.scoring), state.scoring)
        totals = self.add_scores(state.scores, scores)
        if self.game_over(totals, state.target):
            return evolve(
                state,
                scores=totals,
                phase="over",
                to_act=None,
                leader=None,
                winners=tuple(sorted(self.winners(totals, state.target))),
            )
        return evolve(
            state,
            scores=totals,
            phase="deal",
            to_act=None,
            leader=None,
            dealer=self.next_dealer(state.dealer, state.players),
        )

    def to_json(self, state: BlackMariaState) -> State:
        n = state.players
        zones: dict[str, list[str]] = {}
        if state.deck:
            zones["deck"] = list(state.deck)
        if state.removed:
            zones["removed"] = list(state.removed)
        for seat in range(n):
            zones[f"hand/{seat}"] = list(state.hands[seat])
            zones[f"passing/{seat}"] = list(state.passing[seat])
            zones[f"won/{seat}"] = list(state.won[seat])
        zones["trick"] = list(state.trick)
        return {
            **self.common_state(
                state,
                players=n,
                options={"scoring": state.scoring, "target": state.target, **state.house.to_json()},
                zones=zones,
                scores=list(state.scores),
                result=None if state.winners is None else {"winners": list(state.winners)},
            ),
            "trick_seats": list(state.trick_seats),
            "leader": state.leader,
        }


# ---------------------------------------------------------------------- helpers


def _replace(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _known(card: str, clause: str) -> None:
    """A string that names no card is an illegal move (protocol.md §2)."""
    if card not in STANDARD_CARDS:
        raise IllegalMove(clause, f"{card!r} names no card (rank of 23456789TJQKA, then suit of CDHS)")


def _expect_phase(kind: str, phase: str, clause: str) -> None:
    if kind != phase:
        raise wrong_phase(clause, kind, phase)


def _parse_hands(move: Move) -> list[list[str]]:
    """``hands``: a list of lists of strings, or BadRequest naming the item."""
    hands = require_list(move, "hands", list)
    for i, hand in enumerate(hands):
        for j, card in enumerate(hand):
            if not isinstance(card, str):
                raise BadRequest(f"move.hands[{i}][{j}]: {card!r} has the wrong JSON type")
    return hands


__all__ = ["BlackMaria", "BlackMariaState"]
