"""Black Maria mutants: the reference with one plausible bug each.

Every class overrides one method of ``BlackMaria`` (CountsGamesHosted two, for one bug) and is registered
with the clause of rules.md §4 that the bug breaks.  A mutant of a documents' rule declares no house
rule (``DocumentsRules``); a mutant of a house rule (the last ones) declares them all and plays one wrong.
Most are the mistakes a Hearts engine carries over (passing left or in rotation, hearts broken,
2D removed, shooting the moon); the rest are slips in the trick, scoring and
end-of-game logic.  tests/test_reference_black_maria.py shows for each one a
concrete situation where it differs from the reference.
"""

from __future__ import annotations

from attrs import evolve

from ruleproof.model.engine import JSONObject, Move, State
from ruleproof.model.notation import rank_index, suit
from ruleproof.reference.black_maria import BlackMaria, BlackMariaState, Cards, HouseRules, in_deck_order
from tests.mutants import ListsByTheRules, mutant


class DocumentsRules(BlackMaria):
    """The reference declaring the documents' options only (no house rule): a mutant of a documents'
    rule is an engine that plays no house rule, judged as before the house options existed."""

    def declaration(self) -> JSONObject:
        full = super().declaration()
        return {**full, "options": {k: full["options"][k] for k in ("scoring", "target")}}


@mutant("BM-DEAL-1", "with 3 players the 2D is removed instead of the 2C")
class RemovesTwoOfDiamonds(DocumentsRules):
    def removed_cards(self, players: int) -> Cards:
        return ("2D",) if players == 3 else ()


@mutant("BM-DEAL-2", "the same dealer deals every round")
class DealerNotRotating(DocumentsRules):
    def next_dealer(self, dealer: int, players: int) -> int:
        return dealer


@mutant("BM-PASS-1", "cards are passed to the left instead of the right")
class PassLeft(DocumentsRules):
    def pass_target(self, seat: int, players: int, round_: int) -> int:
        return (seat + 1) % players


@mutant("BM-PASS-2", "passed cards reach the receiver at once, so a later passer may pass on cards received")
class PassNotSimultaneous(DocumentsRules):
    def hand_over(self, state: BlackMariaState, seat: int, cards: Cards) -> BlackMariaState:
        to = self.pass_target(seat, state.players, state.round)
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c not in cards)
        hands[to] = in_deck_order(hands[to] + cards)
        return evolve(state, hands=tuple(hands))


@mutant("BM-PASS-3", "the pass direction alternates right and left from round to round")
class PassDirectionAlternates(DocumentsRules):
    def pass_target(self, seat: int, players: int, round_: int) -> int:
        return (seat - 1) % players if round_ % 2 == 1 else (seat + 1) % players


@mutant("BM-LEAD-1", "the dealer leads the first trick")
class DealerLeadsFirstTrick(DocumentsRules):
    def first_leader(self, dealer: int, players: int) -> int:
        return dealer


@mutant("BM-LEAD-2", "hearts may not be led until a heart has been won in a trick")
class HeartsMustBeBroken(DocumentsRules):
    def may_lead(self, state: BlackMariaState, hand: Cards, card: str) -> bool:
        if suit(card) != "H" or all(suit(c) == "H" for c in hand):
            return True
        return any(suit(c) == "H" for won in state.won for c in won)


@mutant("BM-FOLLOW-1", "a player may revoke: any card may be played at any time")
class RevokeAccepted(DocumentsRules):
    def playable(self, hand: Cards, trick: Cards) -> Cards:
        return hand


@mutant("BM-FOLLOW-1", "a card the player does not hold is accepted as a play")
class CardNotHeldAccepted(DocumentsRules):
    def holds(self, hand: Cards, card: str) -> bool:
        return True


@mutant("BM-WIN-1", "the highest card of any suit wins the trick (ties: the first played)")
class HighestCardOfAnySuitWins(DocumentsRules):
    def trick_winner(self, trick: Cards, seats: tuple[int, ...]) -> int:
        best = max(range(len(trick)), key=lambda i: (rank_index(trick[i]), -i))
        return seats[best]


@mutant("BM-WIN-2", "the next trick is led by the seat left of the last leader, not by the winner")
class WinnerDoesNotLead(DocumentsRules):
    def next_leader(self, winner: int, leader: int, players: int) -> int:
        return (leader + 1) % players


@mutant("BM-SCORE-1", "KS 10 and AS 7 are scored under the standard scheme too")
class SpadeHonoursUnderStandard(DocumentsRules):
    def card_points(self, card: str, scoring: str) -> int:
        if scoring == "standard" and card in ("KS", "AS"):
            return {"KS": 10, "AS": 7}[card]
        return super().card_points(card, scoring)


@mutant("BM-SCORE-2", "under the spades scheme the AS is worth 10 instead of 7")
class SpadesAceTen(DocumentsRules):
    def card_points(self, card: str, scoring: str) -> int:
        if scoring == "spades" and card == "AS":
            return 10
        return super().card_points(card, scoring)


@mutant("BM-SCORE-3", "under the spot scheme the QS is worth 13 instead of 25")
class SpotQueenOfSpadesThirteen(DocumentsRules):
    def card_points(self, card: str, scoring: str) -> int:
        if scoring == "spot" and card == "QS":
            return 13
        return super().card_points(card, scoring)


@mutant("BM-SCORE-3", "under the spot scheme JH QH KH score 11 12 13 instead of 10 each")
class SpotCourtHeartsByRank(DocumentsRules):
    def spot_heart_points(self, card: str) -> int:
        return {"J": 11, "Q": 12, "K": 13}.get(card[0]) or super().spot_heart_points(card)


@mutant("BM-SCORE-4", "the round score replaces the running total instead of being added to it")
class RoundScoreNotAdded(DocumentsRules):
    def add_scores(self, totals: tuple[int, ...], round_scores: tuple[int, ...]) -> tuple[int, ...]:
        return round_scores


@mutant("BM-SCORE-4", "shooting the moon: a seat that takes every penalty card scores 0, the others the full total")
class ShootingTheMoon(DocumentsRules):
    def round_scores(self, won: tuple[Cards, ...], scoring: str) -> tuple[int, ...]:
        scores = super().round_scores(won, scoring)
        total = sum(scores)
        if total in scores and all(s in (0, total) for s in scores):
            return tuple(0 if s == total else total for s in scores)
        return scores


@mutant("BM-END-1", "the target option is ignored: the game always runs to 100")
class TargetIgnored(DocumentsRules):
    def game_over(self, totals: tuple[int, ...], target: int) -> bool:
        return any(t >= 100 for t in totals)


@mutant("BM-END-1", "the game ends only when a total is strictly above the target")
class EndsOnlyAboveTarget(DocumentsRules):
    def game_over(self, totals: tuple[int, ...], target: int) -> bool:
        return any(t > target for t in totals)


@mutant("BM-END-2", "the first player at or over the target is named the winner")
class FirstOverTargetWins(DocumentsRules):
    def winners(self, totals: tuple[int, ...], target: int) -> tuple[int, ...]:
        return tuple(s for s, t in enumerate(totals) if t >= target)[:1]


@mutant("BM-END-2", "a tie for the lowest total is not shared: only the lowest seat number wins")
class TieNotShared(DocumentsRules):
    def winners(self, totals: tuple[int, ...], target: int) -> tuple[int, ...]:
        return super().winners(totals, target)[:1]


@mutant("BM-INV-3", "legal_moves is right, but apply takes a revoke: a card off the led suit while holding it")
class RevokeAcceptedOnApply(ListsByTheRules, DocumentsRules):
    def playable(self, hand: Cards, trick: Cards) -> Cards:
        return super().playable(hand, trick) if self.listing else hand


@mutant("BM-INV-6", "the QS scores -13 for whoever takes it under standard scoring, so a total can go down")
class QueenOfSpadesBonus(DocumentsRules):
    def card_points(self, card: str, scoring: str) -> int:
        return -13 if card == "QS" and scoring == "standard" else super().card_points(card, scoring)


@mutant("CONTRACT-DET-1", "the dealer shown once the game is over counts the games hosted, so a replay ends elsewhere")
class CountsGamesHosted(DocumentsRules):
    # an engine-wide counter leaking into a contract field: two overrides, one bug (counted at the start,
    # shown in the final state's `dealer`, whose value after the last round the rules leave open), so
    # only a replay of a game can tell; a counter in a field of the engine's own would be its business
    hosted = 0

    def start(self, players: int, dealer: int, options: JSONObject) -> BlackMariaState:
        self.hosted += 1
        return super().start(players, dealer, options)

    def to_json(self, state: BlackMariaState) -> State:
        out = super().to_json(state)
        if state.phase == "over":
            out["dealer"] = (state.dealer + self.hosted) % state.players
        return out


# -- the checks of the one-deviation-one-clause audit (wave 3): each can fail --------------------------


@mutant("BM-DEAL-2", "the first dealer is always seat 0, whatever dealer the game was started with")
class FirstDealerIgnored(DocumentsRules):
    def start(self, players: int, dealer: int, options: JSONObject) -> BlackMariaState:
        return super().start(players, 0, options)


@mutant("BM-INV-1", "with 3 players the 2C stays in the pack: nothing is removed")
class ThreePlayersKeepTheTwoOfClubs(DocumentsRules):
    def removed_cards(self, players: int) -> Cards:
        return ()


@mutant("BM-PASS-1", "four cards are passed instead of three")
class PassesFour(DocumentsRules):
    def pass_size(self) -> int:
        return 4


@mutant("BM-INV-2", "legal_moves is right, but apply takes a pass naming a card of another hand")
class PassesAnyCard(DocumentsRules):  # may_pass is asked by apply alone
    def may_pass(self, hand: Cards, card: str) -> bool:
        return True


@mutant("BM-FOLLOW-1", "on a lead legal_moves offers the next seat's hand (an off-by-one in the seat)")
class LeadListsNextHand(DocumentsRules):
    def legal_moves(self, state: BlackMariaState) -> list[Move]:
        if state.phase != "play" or state.trick or state.to_act is None:
            return super().legal_moves(state)
        return [{"type": "play", "card": c} for c in state.hands[(state.to_act + 1) % state.players]]


@mutant("BM-LEAD-2", "no heart or QS may be discarded on the first trick (a Hearts rule)")
class NoPointsOnFirstTrick(DocumentsRules):
    def legal_moves(self, state: BlackMariaState) -> list[Move]:
        moves = super().legal_moves(state)
        if state.phase != "play" or not state.trick or any(state.won) or state.to_act is None:
            return moves
        hand = state.hands[state.to_act]
        if any(suit(c) == suit(state.trick[0]) for c in hand):
            return moves
        clean = [m for m in moves if suit(m["card"]) != "H" and m["card"] != "QS"]
        return clean or moves


@mutant("BM-WIN-2", "`leader` names the seat to act instead of the seat that led the trick")
class LeaderIsSeatToAct(DocumentsRules):
    def to_json(self, state: BlackMariaState) -> State:
        out = super().to_json(state)
        if state.phase == "play":
            out["leader"] = state.to_act
        return out


@mutant("BM-WIN-1", "the queen ranks above the king when the trick's winner is found")
class QueenWinsOverKing(DocumentsRules):
    def trick_winner(self, trick: Cards, seats: tuple[int, ...]) -> int:
        order = "23456789TJKQA"
        led = suit(trick[0])
        best = max((i for i, c in enumerate(trick) if suit(c) == led), key=lambda i: order.index(trick[i][0]))
        return seats[best]


@mutant("BM-WIN-2", "the round ends one trick early, with a card still in every hand")
class RoundOneTrickShort(DocumentsRules):
    def play(self, state: BlackMariaState, card: str) -> BlackMariaState:
        after = super().play(state, card)
        if after.phase == "play" and not after.trick and all(len(h) == 1 for h in after.hands):
            return self.end_round(after)
        return after


@mutant("BM-SCORE-4", "the round is scored before its last trick reaches the winner's pile")
class LastTrickNotScored(DocumentsRules):
    def end_round(self, state: BlackMariaState) -> BlackMariaState:
        taker, n = state.to_act, state.players
        assert taker is not None
        early = tuple(w[:-n] if s == taker else w for s, w in enumerate(state.won))
        scored = super().end_round(evolve(state, won=early))
        return evolve(scored, won=state.won)


@mutant("BM-SCORE-4", "each seat is credited with the round score of the seat on its right")
class ScoresCreditedLeft(DocumentsRules):
    def round_scores(self, won: tuple[Cards, ...], scoring: str) -> tuple[int, ...]:
        scores = super().round_scores(won, scoring)
        return (*scores[-1:], *scores[:-1])


@mutant("BM-SCORE-1", "under standard scoring the JD is worth -10 (an Omnibus Hearts bonus)")
class JackOfDiamondsBonus(DocumentsRules):
    def card_points(self, card: str, scoring: str) -> int:
        return -10 if card == "JD" and scoring == "standard" else super().card_points(card, scoring)


# -- the house rules (docs/rules/black-maria.md "House rules"): each plays a declared rule wrong


@mutant("BM-PASS-4", "pass=rotate starts to the right: right, left, across, hold")
class RotationStartsRight(BlackMaria):
    def pass_way(self, house: HouseRules, players: int, round_: int) -> str:
        if house.passing != "rotate":
            return super().pass_way(house, players, round_)
        turn = ("right", "left", "across", "hold") if players == 4 else ("right", "left", "hold")
        return turn[(round_ - 1) % len(turn)]


@mutant("BM-LEAD-3", "first_lead=two_clubs looks for the 2C with 3 players too (it is out): left of the dealer leads")
class TwoClubsWithThreePlayers(BlackMaria):
    def begin_play(self, state: BlackMariaState) -> BlackMariaState:
        if state.house.first_lead == "two_clubs" and not any("2C" in hand for hand in state.hands):
            leader = self.first_leader(state.dealer, state.players)
            return evolve(state, phase="play", to_act=leader, leader=leader)
        return super().begin_play(state)


@mutant("BM-LEAD-4", "first_trick=lowest_club lets any club lead the first trick")
class LowestClubAnyClub(BlackMaria):
    def first_trick_leads(self, hand: Cards, players: int, rule: str) -> Cards:
        return super().first_trick_leads(hand, players, "any_club")


@mutant("BM-LEAD-5", "no_points_first_trick holds back the hearts but not the QS")
class NoPointsForgetsTheQueen(BlackMaria):
    def is_point_card(self, card: str) -> bool:
        return suit(card) == "H"


@mutant("BM-LEAD-6", "hearts_broken=hearts_or_queen: the QS does not break hearts")
class QueenDoesNotBreakHearts(BlackMaria):
    def hearts_broken(self, state: BlackMariaState) -> bool:
        return any(suit(c) == "H" for won in state.won for c in won)


@mutant("BM-SCORE-6", "moon=others_score pays each other seat 25, not the round's 26")
class MoonPaysTwentyFive(BlackMaria):
    def moon(self, house: HouseRules, won: tuple[Cards, ...], scores: tuple[int, ...], scoring: str) -> tuple[int, ...]:
        paid = super().moon(house, won, scores, scoring)
        if house.moon == "others_score" and paid != scores:
            return tuple(25 if p else 0 for p in paid)
        return paid


@mutant("BM-LEAD-6", "hearts_broken: a heart led before hearts are broken is accepted, though the list holds it back")
class UnbrokenHeartAccepted(ListsByTheRules, BlackMaria):
    def may_lead(self, state: BlackMariaState, hand: Cards, card: str) -> bool:
        return super().may_lead(state, hand, card) if self.listing else True
