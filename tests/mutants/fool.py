"""Fool mutants: the reference rules (``ruleproof.reference.fool.Fool``) with one bug each.

Each class overrides one method of ``Fool`` and is registered with the clause
of rules.md §1 that the bug breaks.  Every one of them differs from the
reference in a situation a random game reaches or a scripted deal can set up;
``tests/test_reference_fool.py`` shows each difference on a concrete state.
"""

from __future__ import annotations

from attrs import evolve

from ruleproof.model.engine import JSONObject, Move, State
from ruleproof.model.notation import FOOL_WILD, fool_number
from ruleproof.reference.fool import DeckProfile, Fool, FoolState, Hand, Seat
from tests.mutants import ListsByTheRules, mutant


@mutant("FOOL-WORST-2", "the worst card is the lowest number in the trick, whatever its colour")
class WorstLowestOverall(Fool):
    def worst_key(self, card: str, position: int, lead: str | None) -> tuple[int, int, int]:
        return (0, self.rank(card), -position)


@mutant("FOOL-WORST-3", "equal worst cards: the earlier-played one is taken as worse")
class WorstTieEarlier(Fool):
    def worst_key(self, card: str, position: int, lead: str | None) -> tuple[int, int, int]:
        return (0 if self.is_off_colour(card, lead) else 1, self.rank(card), position)


@mutant("FOOL-WORST-4", "the second fool is the lowest remaining number, ignoring the off-colour rule")
class SecondFoolLowestNumber(Fool):
    def fools_of_trick(self, trick: tuple[str, ...], lead: str | None, discs: int) -> tuple[int, ...]:
        first = super().fools_of_trick(trick, lead, 1)
        rest = sorted((i for i in range(len(trick)) if i not in first), key=lambda i: (self.rank(trick[i]), -i))
        return (first + tuple(rest))[:discs]


@mutant("FOOL-FOLLOW-2", "a 1 counts as holding the lead colour, so a player with only 1s must play one")
class WildForcesFollow(Fool):
    def holds_lead_colour(self, hand: Hand, lead: str) -> bool:
        return any(card == FOOL_WILD or card[0] == lead for card in hand)


@mutant("FOOL-FOLLOW-1", "the duty to follow the lead colour is never enforced")
class RevokeAllowed(Fool):
    def holds_lead_colour(self, hand: Hand, lead: str) -> bool:
        return False


@mutant("FOOL-WILD-2", "a 1 played to a coloured trick counts as off-colour")
class WildOffColour(Fool):
    def is_off_colour(self, card: str, lead: str | None) -> bool:
        return lead is not None and (card == FOOL_WILD or card[0] != lead)


@mutant("FOOL-COLOUR-1", "a led 1 cancels the duty to follow for the whole trick")
class LedWildCancelsFollow(Fool):
    def duty_colour(self, trick: tuple[str, ...]) -> str | None:
        if trick and trick[0] == FOOL_WILD:
            return None
        return super().duty_colour(trick)


@mutant("FOOL-WIN-1", "the highest card of any colour wins the trick")
class WinnerHighestAnyColour(Fool):
    def trick_winner(self, trick: tuple[str, ...], lead: str | None) -> int:
        return max(range(len(trick)), key=lambda i: (fool_number(trick[i]), -i))


@mutant("FOOL-WIN-1", "a trick of 1s only is won by the last 1, not the first")
class AllWildTrickLastWins(Fool):
    def trick_winner(self, trick: tuple[str, ...], lead: str | None) -> int:
        if lead is None:
            return len(trick) - 1
        return super().trick_winner(trick, lead)


@mutant("FOOL-SETUP-5", "only one fool per trick with seven players")
class OneFoolAtSeven(Fool):
    def disc_count(self, players: int, two_fools_from: int) -> int:
        return 2 if players >= 8 else 1


@mutant("FOOL-SETUP-5", "two fools at seven players even when two_fools_from is 8")
class TwoFoolsFromIgnored(Fool):
    def disc_count(self, players: int, two_fools_from: int) -> int:
        return 2 if players >= 7 else 1


@mutant("FOOL-SIT-1", "a fool does not sit out the next trick")
class FoolPlaysOn(Fool):
    def sitting_out(self, fools: tuple[Seat, ...], previous_fools: tuple[Seat, ...]) -> tuple[Seat, ...]:
        return ()


@mutant("FOOL-SIT-2", "the previous fool is kept out for a second trick")
class FoolSitsOutTwice(Fool):
    def sitting_out(self, fools: tuple[Seat, ...], previous_fools: tuple[Seat, ...]) -> tuple[Seat, ...]:
        return tuple(sorted({*fools, *previous_fools}))


@mutant("FOOL-SETUP-6", "the last round's fools keep their discs and sit out the next round's first trick")
class DiscsKeptOverRounds(Fool):
    def fools_at_deal(self, fools: tuple[Seat, ...]) -> tuple[Seat, ...]:
        return fools


@mutant("FOOL-SETUP-3", "six players use blue 2-11 and yellow 2-18: B12 out of the deck, Y18 in")
class ShortBlueAtSix(Fool):
    def profile(self, players: int) -> DeckProfile:
        if players == 6:
            return DeckProfile(top=(23, 19, 18, 11), wilds=5)
        return super().profile(players)


@mutant("FOOL-WIN-2", "while a trick has cards, STATE.leader names the last seat that played, not the one that led")
class LeaderNamesLastPlayer(Fool):
    def to_json(self, state: FoolState) -> State:
        snap = super().to_json(state)
        return {**snap, "leader": state.trick_seats[-1]} if state.trick_seats else snap


@mutant("FOOL-INV-7", "a 1 played takes a second 1 out of the hand too (unless it is the hand's last card)")
class OneTakesTwoOnes(Fool):
    def play(self, state: FoolState, move: Move) -> FoolState:
        after = super().play(state, move)
        seat = state.to_act
        assert seat is not None
        hand = after.hands[seat]
        if move.get("card") != FOOL_WILD or FOOL_WILD not in hand or len(hand) < 2:
            return after
        at = hand.index(FOOL_WILD)
        return evolve(after, hands=(*after.hands[:seat], hand[:at] + hand[at + 1 :], *after.hands[seat + 1 :]))


@mutant("FOOL-TURN-1", "the dealer leads the first trick of a round")
class DealerLeads(Fool):
    def first_leader(self, players: int, dealer: Seat) -> Seat:
        return dealer


@mutant("FOOL-TURN-2", "the dealer never changes between rounds")
class DealerStays(Fool):
    def next_dealer(self, players: int, dealer: Seat) -> Seat:
        return dealer


@mutant("FOOL-END-1", "the round goes on while the only players out are fools sitting out the next trick")
class RoundContinuesAfterOut(Fool):
    def round_over(self, hands: tuple[Hand, ...], fools: tuple[Seat, ...]) -> bool:
        return any(not hand for seat, hand in enumerate(hands) if seat not in fools)


@mutant("FOOL-SCORE-2", "a player who went out as a fool of the final trick still scores +10")
class FoolOutScoresTen(Fool):
    def earns_ten(self, went_out: bool, is_fool: bool) -> bool:
        return went_out


@mutant("FOOL-SCORE-3", "a 1 left in hand costs 1, not 5")
class WildCostsOne(Fool):
    def card_points(self, card: str) -> int:
        return fool_number(card)


@mutant("FOOL-SCORE-4", "going out as a fool (0 points) still counts on the plus-ten tally")
class FoolOutTallies(Fool):
    def counts_ten(self, went_out: bool, is_fool: bool) -> bool:
        return went_out


@mutant("FOOL-GAME-1", "the game does not end on a sixth +10, only on a seventh")
class SixthTenNotEnough(Fool):
    def six_tens(self, tens: tuple[int, ...]) -> bool:
        return max(tens) >= 7


@mutant("FOOL-GAME-1", "a net total of exactly -80 does not end the game")
class LossBelowEighty(Fool):
    def lost(self, scores: tuple[int, ...], penalties: tuple[int, ...], loss: str) -> bool:
        if loss == "gross":
            return super().lost(scores, penalties, loss)
        return min(scores) < -80


@mutant("FOOL-GAME-1", "loss 'gross' is checked against the net totals")
class GrossCountsNet(Fool):
    def lost(self, scores: tuple[int, ...], penalties: tuple[int, ...], loss: str) -> bool:
        return min(scores) <= -80


@mutant("FOOL-GAME-2", "a tie for the highest total goes to the lowest seat instead of being shared")
class TieWinnerLowestSeat(Fool):
    def winners(self, scores: tuple[int, ...]) -> tuple[Seat, ...]:
        return super().winners(scores)[:1]


@mutant(
    "FOOL-INV-4", "legal_moves is right, but apply takes an off-colour card from a player who holds the lead colour"
)
class OffColourAccepted(ListsByTheRules, Fool):
    def may_play(self, card: str, lead: str | None, must_follow: bool) -> bool:
        return super().may_play(card, lead, must_follow) if self.listing else True


@mutant("FOOL-INV-5", "the fools are the players of the last cards played, not of the worst ones")
class LastPlayersAreFools(Fool):
    def fools_of_trick(self, trick: tuple[str, ...], lead: str | None, discs: int) -> tuple[int, ...]:
        return tuple(range(len(trick) - discs, len(trick)))


@mutant("FOOL-INV-6", "a fool of the trick leads the next one instead of its winner")
class FoolLeadsNext(Fool):
    def finish_trick(
        self, state: FoolState, hands: tuple[Hand, ...], trick: tuple[str, ...], trick_seats: tuple[Seat, ...]
    ) -> FoolState:
        after = super().finish_trick(state, hands, trick, trick_seats)
        if after.phase != "play" or not after.fools:
            return after
        fool = after.fools[0]
        return evolve(after, leader=fool, to_act=fool)


@mutant("CONTRACT-SETUP-3", "an option left out of new_game defaults to loss gross, not the contract's net")
class LossDefaultsGross(Fool):
    def defaults(self, players: int) -> JSONObject:
        return {**super().defaults(players), "loss": "gross"}
