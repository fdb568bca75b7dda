"""FOOL! (Friedemann Friese, 2018): the reference rules (rules.md §1).

A trick-taking shedding game for 4 to 8 players.  Every card of the round's
deck is dealt (FOOL-SETUP-1..4, FOOL-DEAL-1); the player left of the dealer
leads (FOOL-TURN-1).  Players follow the lead colour if they hold a coloured
card of it, and a wild 1 may always be played (FOOL-LEAD-1, FOOL-COLOUR-1,
FOOL-WILD-1/2, FOOL-FOLLOW-1/2, FOOL-OFF-1).  The highest lead-colour card
wins and leads next (FOOL-WIN-1/2); the player(s) of the worst card(s) take
the Fool disc(s) and sit out the next trick (FOOL-WORST-1..4, FOOL-SETUP-5,
FOOL-SIT-1..3).  The round ends after the first trick that leaves a hand
empty (FOOL-END-1) and is scored (FOOL-SCORE-1..4); the game ends on a total
of -80 or a sixth +10 (FOOL-GAME-1/2).  Discs return to the centre and the
deal moves left each round (FOOL-SETUP-6, FOOL-TURN-2).

The deck per player count is the flagged assumption A-FOOL-DECK (§1.2) unless
the ``deck`` option gives an explicit profile.  Every rule is one small
method so that a mutant can override exactly one of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, Literal

from attrs import evolve, field, frozen

from ruleproof.model.engine import BadRequest, IllegalMove, JSONObject, Move, State
from ruleproof.model.notation import (
    FOOL_BOX_MAX,
    FOOL_BOX_WILDS,
    FOOL_COLOURS,
    FOOL_WILD,
    fool_box,
    fool_card,
    fool_number,
)
from ruleproof.reference.base import Rules, move_type, require, wrong_phase

Phase = Literal["deal", "play", "over"]
Seat = int
Hand = tuple[str, ...]

BOX_CARDS = frozenset(fool_box())
DECK_KEYS = (*FOOL_COLOURS, FOOL_WILD)  # the fields of an explicit deck object, in order
HAND_ZONES = tuple(f"hand/{seat}" for seat in range(8))  # the zone names of the hands (to_json runs on every move)

# A-FOOL-DECK (rules.md §1.2): players -> (highest green, red, yellow, blue; number of 1s).
ASSUMED_2018: dict[int, tuple[tuple[int, int, int, int], int]] = {
    4: ((17, 13, 11, 8), 3),
    5: ((20, 16, 14, 10), 4),
    6: ((23, 19, 17, 12), 5),
    7: ((26, 22, 20, 14), 6),
    8: ((27, 23, 21, 15), 6),
}


@frozen
class DeckProfile:
    """The round deck P(n): each colour runs 2..top, plus ``wilds`` 1s (FOOL-SETUP-3)."""

    top: tuple[int, int, int, int]  # highest number of green, red, yellow, blue
    wilds: int

    def cards(self) -> tuple[str, ...]:
        """The deck in the canonical order used to sort hands: by colour, then number, 1s last."""
        coloured = [fool_card(c, n) for c, top in zip(FOOL_COLOURS, self.top, strict=False) for n in range(2, top + 1)]
        return (*coloured, *([FOOL_WILD] * self.wilds))

    def as_json(self) -> JSONObject:
        return {**dict(zip(FOOL_COLOURS, self.top, strict=False)), FOOL_WILD: self.wilds}


@frozen
class FoolOptions:
    """The game's options, complete; ``deck_echo`` is what ``options.deck`` said."""

    deck: DeckProfile
    deck_echo: str | None  # "assumed-2018", or None when an explicit deck object was given
    two_fools_from: int
    loss: str

    def as_json(self) -> JSONObject:
        deck: Any = self.deck_echo if self.deck_echo is not None else self.deck.as_json()
        return {"deck": deck, "two_fools_from": self.two_fools_from, "loss": self.loss}


@frozen
class FoolState:
    """One snapshot of a game of Fool; never mutated, every move makes a new one."""

    players: int
    options: FoolOptions
    # card -> position in the deck's canonical order (for sorting hands); derived from the deck
    order: Mapping[str, int] = field(eq=False, hash=False, repr=False)
    dealer: Seat
    phase: Phase
    round: int
    hands: tuple[Hand, ...]
    deck: Hand  # the deck before the first deal
    unused: Hand  # box cards outside P(n), for the whole game
    trick: Hand
    trick_seats: tuple[Seat, ...]
    leader: Seat | None
    to_act: Seat | None
    played: Hand  # earlier tricks of this round, in play order
    fools: tuple[Seat, ...]  # disc holders: the fools of the last completed trick
    previous_fools: tuple[Seat, ...]  # the fools of the trick before that
    scores: tuple[int, ...]
    tens: tuple[int, ...]
    penalties: tuple[int, ...]
    winners: tuple[Seat, ...] | None


class Fool(Rules[FoolState]):
    """The reference rules of Fool (rules.md §1)."""

    game = "fool"

    # ---------------------------------------------------------------- the contract

    def declaration(self) -> JSONObject:
        return {
            "players": [4, 5, 6, 7, 8],
            # "custom" is the compatible extension: explicit deck objects are accepted too.
            "options": {"deck": ["assumed-2018", "custom"], "two_fools_from": [7, 8], "loss": ["net", "gross"]},
        }

    def defaults(self, players: int) -> JSONObject:
        return {"deck": "assumed-2018", "two_fools_from": 7, "loss": "net"}

    def check_options(self, players: int, options: JSONObject) -> None:
        """An explicit deck must be a self-consistent profile (rules.md §1.2, FOOL-SETUP-2..4)."""
        deck = options["deck"]
        if isinstance(deck, dict):
            self.custom_profile(players, deck)
        elif deck != "assumed-2018":
            raise BadRequest(f"options.deck: {deck!r} is not 'assumed-2018' or a deck object {{G, R, Y, B, 1}}")
        two = options["two_fools_from"]
        if not isinstance(two, int) or isinstance(two, bool):
            raise BadRequest(f"options.two_fools_from: {two!r} is not an integer 7 or 8")

    def custom_profile(self, players: int, deck: Mapping[str, Any]) -> DeckProfile:
        """Validate an explicit deck object as rules.md §1.2 asks; BadRequest names the field."""
        for key in deck:
            if key not in DECK_KEYS:
                raise BadRequest(f"options.deck.{key}: unknown field (expected G, R, Y, B and 1)")
        for key in DECK_KEYS:
            if key not in deck:
                raise BadRequest(f"options.deck.{key}: missing")
            value = deck[key]
            if not isinstance(value, int) or isinstance(value, bool):
                raise BadRequest(f"options.deck.{key}: {value!r} is not an integer")
        for colour in FOOL_COLOURS:
            top = deck[colour]
            if not 2 <= top <= FOOL_BOX_MAX[colour]:
                raise BadRequest(
                    f"options.deck.{colour}: {top} is outside 2..{FOOL_BOX_MAX[colour]} (the box's {colour} run)"
                )
        if not 0 <= deck[FOOL_WILD] <= FOOL_BOX_WILDS:
            raise BadRequest(f"options.deck.1: {deck[FOOL_WILD]} is outside 0..{FOOL_BOX_WILDS}")
        profile = DeckProfile(top=tuple(deck[c] for c in FOOL_COLOURS), wilds=deck[FOOL_WILD])
        size, wanted = len(profile.cards()), self.hand_size(players) * players
        if size != wanted:
            raise BadRequest(f"options.deck: {size} cards, but {players} players need {wanted}")
        return profile

    def start(self, players: int, dealer: int, options: JSONObject) -> FoolState:
        deck_option = options["deck"]
        if isinstance(deck_option, dict):
            opts = FoolOptions(
                self.custom_profile(players, deck_option), None, options["two_fools_from"], options["loss"]
            )
        else:
            opts = FoolOptions(self.profile(players), deck_option, options["two_fools_from"], options["loss"])
        deck = opts.deck.cards()
        remaining = list(fool_box())
        for card in deck:
            remaining.remove(card)
        zeros = (0,) * players
        return FoolState(
            players=players,
            options=opts,
            order=MappingProxyType({card: i for i, card in enumerate(deck)}),
            dealer=dealer,
            phase="deal",
            round=0,
            hands=((),) * players,
            deck=deck,
            unused=tuple(remaining),
            trick=(),
            trick_seats=(),
            leader=None,
            to_act=None,
            played=(),
            fools=(),
            previous_fools=(),
            scores=zeros,
            tens=zeros,
            penalties=zeros,
            winners=None,
        )

    def legal_moves(self, state: FoolState) -> list[Move]:
        if state.phase != "play" or state.to_act is None:
            return []
        hand = state.hands[state.to_act]
        duty = self.duty_colour(state.trick)
        must_follow = duty is not None and self.holds_lead_colour(hand, duty)
        # Hands are sorted, so identical 1s are adjacent: one move per distinct card.
        return [
            {"type": "play", "card": card}
            for i, card in enumerate(hand)
            if (i == 0 or hand[i - 1] != card) and self.may_play(card, duty, must_follow)
        ]

    def apply(self, state: FoolState, move: Move) -> FoolState:
        kind = move_type(move)
        if state.phase == "over":
            raise IllegalMove("FOOL-INV-10", f"the game is over; no {kind!r} move is accepted")
        if kind == "deal":
            if state.phase != "deal":
                raise wrong_phase("FOOL-END-1", kind, state.phase)
            return self.deal(state, move)
        if kind == "play":
            if state.phase != "play":
                raise wrong_phase("FOOL-DEAL-1", kind, state.phase)
            return self.play(state, move)
        clause = "FOOL-DEAL-1" if state.phase == "deal" else "FOOL-INV-4"
        raise IllegalMove(clause, f"unknown move type {kind!r} (fool has 'deal' and 'play')")

    def to_json(self, state: FoolState) -> State:
        zones: dict[str, list[str]] = {name: list(hand) for name, hand in zip(HAND_ZONES, state.hands, strict=False)}
        zones.update(trick=list(state.trick), played=list(state.played), unused=list(state.unused))
        if state.deck:
            zones["deck"] = list(state.deck)
        return {
            **self.common_state(
                state,
                players=state.players,
                options=state.options.as_json(),
                zones=zones,
                scores=list(state.scores),
                result=None if state.winners is None else {"winners": list(state.winners)},
            ),
            "trick_seats": list(state.trick_seats),
            "leader": state.leader,
            "fools": list(state.fools),
            "tens": list(state.tens),
            "penalties": list(state.penalties),
        }

    # ---------------------------------------------------------------- setup and deal

    def profile(self, players: int) -> DeckProfile:
        """FOOL-SETUP-3 under assumption A-FOOL-DECK: the round deck for ``players``."""
        top, wilds = ASSUMED_2018[players]
        return DeckProfile(top=top, wilds=wilds)

    def hand_size(self, players: int) -> int:
        """FOOL-DEAL-1 / FOOL-SETUP-4: 12 cards each, 11 with eight players."""
        return 11 if players == 8 else 12

    def disc_count(self, players: int, two_fools_from: int) -> int:
        """FOOL-SETUP-5 (option two_fools_from, FOOL-AMB-5): k(n) discs, so k(n) fools per trick."""
        return 2 if players >= two_fools_from else 1

    def fools_at_deal(self, fools: tuple[Seat, ...]) -> tuple[Seat, ...]:
        """FOOL-SETUP-6 (FOOL-AMB-10): every disc is back in the centre when a round starts."""
        return ()

    def first_leader(self, players: int, dealer: Seat) -> Seat:
        """FOOL-TURN-1: the player left of the dealer leads the round's first trick."""
        return (dealer + 1) % players

    def next_dealer(self, players: int, dealer: Seat) -> Seat:
        """FOOL-TURN-2 (FOOL-AMB-10): the deal passes to the left."""
        return (dealer + 1) % players

    def check_deal(self, state: FoolState, hands: list[list[str]]) -> None:
        """FOOL-DEAL-1 (with FOOL-SETUP-2/3): all of P(n) is dealt, |P(n)|/n cards to each seat."""
        if len(hands) != state.players:
            raise IllegalMove("FOOL-DEAL-1", f"the deal has {len(hands)} hands for {state.players} players")
        size = self.hand_size(state.players)
        deck = state.options.deck.cards()
        wanted: dict[str, int] = {}
        for card in deck:
            wanted[card] = wanted.get(card, 0) + 1
        for seat, hand in enumerate(hands):
            if len(hand) != size:
                raise IllegalMove("FOOL-DEAL-1", f"hand {seat} has {len(hand)} cards; each player is dealt {size}")
            for card in hand:
                if card not in BOX_CARDS:
                    raise IllegalMove("FOOL-SETUP-2", f"hand {seat}: {card!r} names no card of FOOL!")
                if card not in wanted:
                    raise IllegalMove("FOOL-SETUP-3", f"hand {seat}: {card} is not in this game's deck")
                wanted[card] -= 1
                if wanted[card] < 0:
                    raise IllegalMove("FOOL-DEAL-1", f"hand {seat}: {card} is dealt more often than the deck holds it")
        # Right sizes and no card over-dealt means every card of the deck was dealt exactly once.

    def deal(self, state: FoolState, move: Move) -> FoolState:
        hands = require(move, "hands", list)
        for seat, hand in enumerate(hands):
            if not isinstance(hand, list):
                raise BadRequest(f"move.hands[{seat}]: {hand!r} is not a list of cards")
            for i, card in enumerate(hand):
                if not isinstance(card, str):
                    raise BadRequest(f"move.hands[{seat}][{i}]: {card!r} is not a card string")
        self.check_deal(state, hands)
        leader = self.first_leader(state.players, state.dealer)
        fools = self.fools_at_deal(state.fools)
        return evolve(
            state,
            phase="play",
            round=state.round + 1,
            hands=tuple(tuple(sorted(hand, key=state.order.__getitem__)) for hand in hands),
            deck=(),
            trick=(),
            trick_seats=(),
            played=(),
            fools=fools,
            previous_fools=(),
            leader=leader,
            to_act=self.participants(state.players, leader, self.sitting_out(fools, ()))[0],
        )

    # ---------------------------------------------------------------- leading and following

    def lead_colour(self, trick: Iterable[str]) -> str | None:
        """FOOL-COLOUR-1: the colour of the first card that is not a 1; None while there is none."""
        for card in trick:
            if card != FOOL_WILD:
                return card[0]
        return None

    def duty_colour(self, trick: tuple[str, ...]) -> str | None:
        """FOOL-COLOUR-1 / FOOL-AMB-14: the colour a follower must follow (a led 1 defers it)."""
        return self.lead_colour(trick)

    def holds_lead_colour(self, hand: Hand, lead: str) -> bool:
        """FOOL-FOLLOW-1/-2 (FOOL-AMB-8): only a coloured card of the lead colour creates the duty."""
        return any(card[0] == lead for card in hand if card != FOOL_WILD)

    def may_play(self, card: str, lead: str | None, must_follow: bool) -> bool:
        """FOOL-WILD-1, FOOL-FOLLOW-1/-2: a 1 always; otherwise the lead colour when one is held."""
        if card == FOOL_WILD or lead is None or not must_follow:
            return True
        return card[0] == lead

    def participants(self, players: int, leader: Seat, out: Iterable[Seat]) -> tuple[Seat, ...]:
        """FOOL-SIT-2: every seat but those sitting out, once each, clockwise from the leader."""
        skip = frozenset(out)
        clockwise = (*range(leader, players), *range(leader))  # the leader, the seats to their left, round the table
        return tuple(s for s in clockwise if s not in skip)

    def sitting_out(self, fools: tuple[Seat, ...], previous_fools: tuple[Seat, ...]) -> tuple[Seat, ...]:
        """FOOL-SIT-1: exactly the fools of the previous trick sit this one out."""
        return fools

    def play(self, state: FoolState, move: Move) -> FoolState:
        card = require(move, "card", str)
        seat = state.to_act
        assert seat is not None
        hand = state.hands[seat]
        if card not in BOX_CARDS:
            raise IllegalMove("FOOL-SETUP-2", f"{card!r} names no card of FOOL!")
        if card not in state.order:
            raise IllegalMove("FOOL-SETUP-3", f"{card} is not in this game's deck")
        if card not in hand:
            raise IllegalMove("FOOL-INV-1", f"{card} is not in seat {seat}'s hand")
        duty = self.duty_colour(state.trick)
        must_follow = duty is not None and self.holds_lead_colour(hand, duty)
        if not self.may_play(card, duty, must_follow):
            raise IllegalMove(
                "FOOL-FOLLOW-1", f"seat {seat} holds a {duty} card and must follow {duty}, not play {card}"
            )
        at = hand.index(card)
        hands = (*state.hands[:seat], hand[:at] + hand[at + 1 :], *state.hands[seat + 1 :])
        trick, trick_seats = (*state.trick, card), (*state.trick_seats, seat)
        assert state.leader is not None
        order = self.participants(state.players, state.leader, self.sitting_out(state.fools, state.previous_fools))
        if len(trick) < len(order):
            return evolve(state, hands=hands, trick=trick, trick_seats=trick_seats, to_act=order[len(trick)])
        return self.finish_trick(state, hands, trick, trick_seats)

    # ---------------------------------------------------------------- the trick's outcome

    def is_off_colour(self, card: str, lead: str | None) -> bool:
        """FOOL-OFF-1 / FOOL-WILD-2: neither a 1 nor of the lead colour (nothing is, while L is undefined)."""
        return lead is not None and card != FOOL_WILD and card[0] != lead

    def rank(self, card: str) -> int:
        """FOOL-WILD-2: a card's rank is its number; a 1 ranks 1, below every numbered card."""
        return fool_number(card)

    def trick_winner(self, trick: tuple[str, ...], lead: str | None) -> int:
        """FOOL-WIN-1: the position of the highest lead-colour card; equal ranks go to the earliest."""
        return max(
            (i for i, card in enumerate(trick) if not self.is_off_colour(card, lead)),
            key=lambda i: (self.rank(trick[i]), -i),
        )

    def worst_key(self, card: str, position: int, lead: str | None) -> tuple[int, int, int]:
        """FOOL-WORST-1..3: smaller is worse: off-colour first, then the lower rank, then the later play."""
        return (0 if self.is_off_colour(card, lead) else 1, self.rank(card), -position)

    def fools_of_trick(self, trick: tuple[str, ...], lead: str | None, discs: int) -> tuple[int, ...]:
        """FOOL-WORST-4: the positions of the ``discs`` worst cards under one total order."""
        ranked = sorted(range(len(trick)), key=lambda i: self.worst_key(trick[i], i, lead))
        return tuple(ranked[:discs])

    def new_discs(self, fools: tuple[Seat, ...]) -> tuple[Seat, ...]:
        """FOOL-SIT-3: the discs go to exactly the trick's fools (from whoever held them)."""
        return tuple(sorted(fools))

    def finish_trick(
        self, state: FoolState, hands: tuple[Hand, ...], trick: tuple[str, ...], trick_seats: tuple[Seat, ...]
    ) -> FoolState:
        lead = self.lead_colour(trick)
        winner = trick_seats[self.trick_winner(trick, lead)]
        discs = self.disc_count(state.players, state.options.two_fools_from)
        fools = self.new_discs(tuple(trick_seats[i] for i in self.fools_of_trick(trick, lead, discs)))
        after = evolve(
            state,
            hands=hands,
            trick=(),
            trick_seats=(),
            played=state.played + trick,
            fools=fools,
            previous_fools=state.fools,
        )
        if self.round_over(hands, fools):
            return self.end_round(after)
        order = self.participants(state.players, winner, self.sitting_out(fools, state.fools))
        return evolve(after, leader=winner, to_act=order[0])  # FOOL-WIN-2

    # ---------------------------------------------------------------- end of round and scoring

    def round_over(self, hands: tuple[Hand, ...], fools: tuple[Seat, ...]) -> bool:
        """FOOL-END-1: the round ends after the first trick that leaves some hand empty."""
        return any(not hand for hand in hands)

    def card_points(self, card: str) -> int:
        """FOOL-SCORE-3: a numbered card costs its number, a 1 costs 5."""
        return 5 if card == FOOL_WILD else fool_number(card)

    def hand_penalty(self, hand: Hand) -> int:
        """FOOL-SCORE-3: the cards left in hand, summed."""
        return sum(self.card_points(card) for card in hand)

    def earns_ten(self, went_out: bool, is_fool: bool) -> bool:
        """FOOL-SCORE-1/-2: +10 for an empty hand, unless its player is a fool of the final trick."""
        return went_out and not is_fool

    def counts_ten(self, went_out: bool, is_fool: bool) -> bool:
        """FOOL-SCORE-4: the plus-ten tally counts exactly the rounds scored +10."""
        return self.earns_ten(went_out, is_fool)

    def round_score(self, hand: Hand, is_fool: bool) -> int:
        """FOOL-SCORE-1..3: +10, 0 (went out as a fool) or minus the cards left."""
        return 10 if self.earns_ten(not hand, is_fool) else -self.hand_penalty(hand)

    def lost(self, scores: tuple[int, ...], penalties: tuple[int, ...], loss: str) -> bool:
        """FOOL-GAME-1 (FOOL-AMB-9): a net total of -80 or less, or (gross) 80 penalty points summed."""
        if loss == "gross":
            return max(penalties) >= 80
        return min(scores) <= -80

    def six_tens(self, tens: tuple[int, ...]) -> bool:
        """FOOL-GAME-1: some player has scored +10 six times."""
        return max(tens) >= 6

    def winners(self, scores: tuple[int, ...]) -> tuple[Seat, ...]:
        """FOOL-GAME-2 (FOOL-AMB-12): the highest total wins; ties share the win."""
        best = max(scores)
        return tuple(seat for seat, score in enumerate(scores) if score == best)

    def end_round(self, state: FoolState) -> FoolState:
        n = state.players
        scores, tens, penalties = list(state.scores), list(state.tens), list(state.penalties)
        for seat, hand in enumerate(state.hands):
            is_fool = seat in state.fools
            scores[seat] += self.round_score(hand, is_fool)
            tens[seat] += self.counts_ten(not hand, is_fool)
            penalties[seat] += self.hand_penalty(hand)
        done = self.lost(tuple(scores), tuple(penalties), state.options.loss) or self.six_tens(tuple(tens))
        return evolve(
            state,
            phase="over" if done else "deal",
            dealer=state.dealer if done else self.next_dealer(n, state.dealer),
            leader=None,
            to_act=None,
            scores=tuple(scores),
            tens=tuple(tens),
            penalties=tuple(penalties),
            winners=self.winners(tuple(scores)) if done else None,
        )
