"""The Moon mutant gallery: the reference ``Moon`` with one plausible bug each.

Each class overrides one method of ``ruleproof.reference.moon.Moon`` and is
registered with the clause of rules.md §3 it breaks.  Every one of them differs
from the reference in a situation a random game or a scripted fixture reaches;
``tests/test_reference_moon.py`` shows each difference on a concrete state.
"""

from __future__ import annotations

from attrs import evolve

from ruleproof.model.engine import JSONObject
from ruleproof.reference.moon import (
    DOUBLES,
    ENDS,
    NO_TRUMP,
    PASS,
    SEATS,
    TRUMP,
    BidAction,
    Contract,
    LedSuit,
    Moon,
    MoonState,
    Seat,
    Tile,
)
from tests.mutants import ListsByTheRules, mutant

# ---------------------------------------------------------------- setup and bidding


@mutant("MOON-SETUP-2", "a deal naming a tile twice (and missing another) is accepted")
class DuplicateTilesAccepted(Moon):
    def check_deal(self, hands: list[list[str]], widow: str) -> None:
        if len(hands) != SEATS or any(len(h) != 7 for h in hands):
            super().check_deal(hands, widow)


@mutant("MOON-BID-1", "the first-bidder seat never moves from hand to hand")
class FirstBidderNotRotating(Moon):
    def next_first_bidder(self, first_bidder: Seat) -> Seat:
        return first_bidder


@mutant("MOON-BID-2", "bidding runs anticlockwise from the first bidder")
class AnticlockwiseBidding(Moon):
    def next_bidder(self, seat: Seat) -> Seat:
        return (seat - 1) % SEATS


@mutant("MOON-BID-3", "a bid equal to the highest earlier bid is accepted")
class EqualBidAccepted(Moon):
    def bid_allowed(self, value: int, bids: tuple[BidAction, ...]) -> bool:
        return all(not isinstance(b, int) or value >= b for b in bids)


@mutant("MOON-BID-4", "a bid of 21 does not end the bidding; later seats still act")
class TwentyOneNotEnding(Moon):
    def bidding_over(self, bids: tuple[BidAction, ...]) -> bool:
        return all(b is not None for b in bids)


@mutant("MOON-BID-5", "the lowest-numbered seat that bid becomes declarer, not the highest bidder")
class LowestSeatBidderDeclares(Moon):
    def declarer_of(self, bids: tuple[BidAction, ...]) -> Seat | None:
        for seat, b in enumerate(bids):
            if isinstance(b, int):
                return seat
        return None


@mutant("MOON-BID-6", "under all_pass=forced_bid the third bidder may still pass after two passes")
class ForcedBidNotEnforced(Moon):
    def may_pass(self, state: MoonState) -> bool:
        return True


@mutant("MOON-BID-6", "under all_pass=redeal the third bidder may not pass after two passes")
class RedealThirdMustBid(Moon):
    def may_pass(self, state: MoonState) -> bool:
        return sum(b == PASS for b in state.bids) < SEATS - 1


@mutant("MOON-INV-3", "legal_moves is right, but apply takes a bid equal to the highest earlier bid")
class EqualBidTaken(ListsByTheRules, Moon):
    def bid_allowed(self, value: int, bids: tuple[BidAction, ...]) -> bool:
        if self.listing:
            return super().bid_allowed(value, bids)
        return all(not isinstance(b, int) or value >= b for b in bids)


@mutant("MOON-INV-3", "the bids of the last hand are not cleared when the next hand is dealt")
class BidsKeptAtDeal(Moon):
    def deal(self, state: MoonState, hands: list[list[str]], widow: str) -> MoonState:
        return evolve(super().deal(state, hands, widow), bids=state.bids)


# ---------------------------------------------------------------- widow and contract


@mutant("MOON-WIDOW-1", "the widow is not added to the declarer's hand")
class WidowNotAdded(Moon):
    def take_widow(self, hand: tuple[Tile, ...], widow: tuple[Tile, ...]) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
        return hand, widow


@mutant("MOON-WIDOW-1", "the declarer may not discard the widow tile itself")
class WidowNotDiscardable(Moon):
    def discardable(self, state: MoonState) -> tuple[Tile, ...]:
        return state.hands[state.to_act or 0][:-1]  # the widow was appended last


@mutant("MOON-TRUMP-1", "doubles are offered as trump even when doubles_trump is false")
class DoublesAlwaysOffered(Moon):
    def trump_choices(self, state: MoonState) -> tuple[Contract, ...]:
        return (*range(7), DOUBLES, "none")


# ---------------------------------------------------------------- trumps, leading and following


@mutant("MOON-TRUMP-2", "a tile of the number trump still follows the suit of its other end")
class NumberTrumpStillFollows(Moon):
    def suits_of(self, t: Tile, contract: Contract | None) -> tuple[int, ...]:
        hi, lo = ENDS[t]
        if isinstance(contract, int) and contract in (hi, lo):
            return tuple(e for e in (hi, lo) if e != contract)
        return super().suits_of(t, contract)


@mutant("MOON-TRUMP-3", "with doubles trump, a double still follows its number suit")
class DoublesFollowNumber(Moon):
    def suits_of(self, t: Tile, contract: Contract | None) -> tuple[int, ...]:
        hi, lo = ENDS[t]
        if contract == DOUBLES and hi == lo:
            return (hi,)
        return super().suits_of(t, contract)


@mutant("MOON-LEAD-1", "the first bidder leads the first trick instead of the declarer")
class FirstBidderLeads(Moon):
    def first_leader(self, state: MoonState) -> Seat:
        return state.first_bidder


@mutant("MOON-LEAD-2", "a trump led calls the suit of its higher end, not trumps")
class TrumpLeadCallsNumber(Moon):
    def led_suit(self, t: Tile, contract: Contract | None) -> LedSuit:
        return ENDS[t][0]


@mutant("MOON-LEAD-3", "a non-trump lead calls the suit of its lower end")
class LedSuitLowerEnd(Moon):
    def led_suit(self, t: Tile, contract: Contract | None) -> LedSuit:
        if self.is_trump(t, contract):
            return TRUMP
        return ENDS[t][1]


@mutant("MOON-FOLLOW-1", "no duty to play a trump when a trump is led")
class NoDutyToFollowTrump(Moon):
    def follows(self, t: Tile, led: LedSuit, contract: Contract | None) -> bool:
        if led == TRUMP:
            return True
        return super().follows(t, led, contract)


@mutant("MOON-FOLLOW-2", "only tiles whose higher end is the led suit must follow")
class LowerEndNotFollowing(Moon):
    def follows(self, t: Tile, led: LedSuit, contract: Contract | None) -> bool:
        if led == TRUMP:
            return self.is_trump(t, contract)
        return led in self.suits_of(t, contract) and ENDS[t][0] == led


@mutant("MOON-LEAD-3", "a led double that is not a trump calls the doubles, not its number")
class DoubleLeadCallsDoubles(Moon):
    def playable(self, hand: tuple[Tile, ...], trick: tuple[Tile, ...], contract: Contract | None) -> tuple[Tile, ...]:
        if trick and ENDS[trick[0]][0] == ENDS[trick[0]][1] and not self.is_trump(trick[0], contract):
            doubles = tuple(t for t in hand if ENDS[t][0] == ENDS[t][1] and not self.is_trump(t, contract))
            return doubles or hand
        return super().playable(hand, trick, contract)


@mutant("MOON-TRUMP-4", "with no trump the doubles still act as trumps")
class DoublesTrumpUnderNoTrump(Moon):
    def is_trump(self, t: Tile, contract: Contract | None) -> bool:
        if contract == NO_TRUMP:
            return ENDS[t][0] == ENDS[t][1]
        return super().is_trump(t, contract)

    def trump_rank(self, t: Tile, contract: Contract) -> int:
        return super().trump_rank(t, DOUBLES if contract == NO_TRUMP else contract)


# ---------------------------------------------------------------- ranking and tricks


@mutant("MOON-RANK-1", "in a number suit the double ranks by its other end, so [6-3] beats [3-3]")
class DoubleRankedByOtherEnd(Moon):
    def suit_rank(self, t: Tile, suit: int) -> int:
        hi, lo = ENDS[t]
        return lo if hi == suit else hi


@mutant("MOON-RANK-2", "number trumps rank by pip total, so [6-4] beats [4-4]")
class TrumpRankByPipTotal(Moon):
    def trump_rank(self, t: Tile, contract: Contract) -> int:
        hi, lo = ENDS[t]
        return hi if contract == DOUBLES else hi + lo


@mutant("MOON-RANK-3", "with doubles trump, [0-0] is the highest trump instead of the lowest")
class BlankDoubleHighestTrump(Moon):
    def trump_rank(self, t: Tile, contract: Contract) -> int:
        if contract == DOUBLES and t == "0-0":
            return 7
        return super().trump_rank(t, contract)


@mutant("MOON-WIN-1", "a trump played to a non-trump lead does not win the trick")
class TrumpDoesNotBeatLedSuit(Moon):
    def trick_winner(self, trick: tuple[Tile, ...], seats: tuple[Seat, ...], contract: Contract | None) -> Seat:
        if self.led_suit(trick[0], contract) == TRUMP:
            return super().trick_winner(trick, seats, contract)
        led = self.led_suit(trick[0], contract)
        assert isinstance(led, int)
        in_suit = [i for i, t in enumerate(trick) if led in self.suits_of(t, contract)]
        return seats[max(in_suit, key=lambda i: self.suit_rank(trick[i], led))]


@mutant("MOON-WIN-1", "the first trump played wins the trick, not the highest")
class FirstTrumpWins(Moon):
    def trick_winner(self, trick: tuple[Tile, ...], seats: tuple[Seat, ...], contract: Contract | None) -> Seat:
        trumps = [i for i, t in enumerate(trick) if self.is_trump(t, contract)]
        return seats[trumps[0]] if trumps else super().trick_winner(trick, seats, contract)


@mutant("MOON-WIN-2", "the leader of a trick leads the next one whoever won it")
class LeaderKeepsLead(Moon):
    def next_leader(self, winner: Seat, leader: Seat) -> Seat:
        return leader


@mutant("MOON-WIN-2", "`leader` still names the last trick's leader while the next trick has tiles")
class LeaderFieldStale(Moon):
    def play(self, state: MoonState, t: Tile) -> MoonState:
        after = super().play(state, t)
        if after.phase == "play" and not after.trick and len(state.trick) == SEATS - 1:
            return evolve(after, leader=state.leader)  # a trick was collected: the field lags behind
        return after


@mutant("MOON-LEAD-1", "`leader` names the first bidder during a hand's first trick (the declarer leads it)")
class FirstTrickLeaderField(Moon):
    def name_trump(self, state: MoonState, suit: Contract) -> MoonState:
        return evolve(super().name_trump(state, suit), leader=state.first_bidder)


# ---------------------------------------------------------------- scoring and end


@mutant("MOON-SCORE-1", "a made bid scores the tricks taken (overtricks count)")
class OvertricksScored(Moon):
    def declarer_delta(self, bid: int, made: bool, tricks: int) -> int:
        return tricks if made else -bid


@mutant("MOON-SCORE-1", "a failed bid costs the declarer nothing")
class FailedBidNotDeducted(Moon):
    def declarer_delta(self, bid: int, made: bool, tricks: int) -> int:
        return bid if made else 0


@mutant("MOON-SCORE-2", "a made 21 scores 21 instead of winning the game under shoot=wins_game")
class ShotDoesNotWin(Moon):
    def shot_wins_game(self, state: MoonState, bid: int, made: bool) -> bool:
        return False


@mutant("MOON-SCORE-3", "the opponents score nothing for their tricks")
class OpponentsNotScoring(Moon):
    def opponent_delta(self, tricks: int) -> int:
        return 0


@mutant("MOON-END-1", "reaching exactly the target does not end the game (> instead of >=)")
class ExactTargetNotEnough(Moon):
    def game_winners(self, scores: tuple[int, ...], target: int) -> tuple[Seat, ...]:
        return super().game_winners(scores, target + 1)


@mutant("MOON-END-2", "a tie for the highest total at or over the target ends the game")
class TieAtTargetEnds(Moon):
    def game_winners(self, scores: tuple[int, ...], target: int) -> tuple[Seat, ...]:
        top = max(scores)
        return tuple(seat for seat, s in enumerate(scores) if s == top) if top >= target else ()


@mutant("MOON-INV-5", "legal_moves is right, but apply takes a tile that does not follow the led suit")
class TileOffSuitAccepted(ListsByTheRules, Moon):
    def playable(self, hand: tuple[Tile, ...], trick: tuple[Tile, ...], contract: Contract | None) -> tuple[Tile, ...]:
        return super().playable(hand, trick, contract) if self.listing else hand


@mutant("MOON-SCORE-1", "a bid is made only with more tricks than bid: exactly the bid counts as failed")
class ExactBidNotMade(Moon):
    def bid_made(self, bid: int, tricks: int) -> bool:
        return tricks > bid if bid != 21 else super().bid_made(bid, tricks)


@mutant("CONTRACT-SETUP-2", "targets above the contract's 21 are accepted (declared up to 30)")
class TargetBeyondContract(Moon):
    def declaration(self) -> JSONObject:
        base = super().declaration()
        return {**base, "options": {**base["options"], "target": {"min": 1, "max": 30}}}
