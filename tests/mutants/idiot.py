"""The Idiot mutant gallery: the reference rules with one plausible bug each.

Each class overrides exactly one method of ``ruleproof.reference.idiot.Idiot``
and is registered with the clause of rules.md §2.2 that the bug breaks.  Every
one differs from the reference in a situation a random game reaches or a
scripted fixture sets up (tests/test_reference_idiot.py shows one each).
"""

from __future__ import annotations

from attrs import evolve

from ruleproof.model.engine import IllegalMove, Move
from ruleproof.model.notation import rank
from ruleproof.reference.idiot import TWO, Cards, Idiot, IdiotOptions, IdiotState
from tests.mutants import mutant


@mutant("IDIOT-BURN-NEXT", "the burner starts the new pile even under after_burn=next")
class BurnerPlaysAgain(Idiot):
    def burner_keeps_turn(self, options: IdiotOptions) -> bool:
        return True


@mutant("IDIOT-BURN-6S", "three 6s do not burn: 6s need four like every rank")
class SixesNeedFour(Idiot):
    def run_needed(self, card_rank: str, options: IdiotOptions) -> int:
        return 4


@mutant("IDIOT-BURN-4KIND", "three of any rank burn the pile")
class AnyThreeBurns(Idiot):
    def run_needed(self, card_rank: str, options: IdiotOptions) -> int:
        return min(3, super().run_needed(card_rank, options))


@mutant("IDIOT-BURN-4KIND", "a run counts only the cards of the current play, not across players")
class RunsPerPlay(Idiot):
    def top_run(self, pile: Cards, play: Cards) -> int:
        top = rank(play[-1])
        n = 0
        for card in reversed(play):
            if rank(card) != top:
                break
            n += 1
        return n


@mutant("IDIOT-BURN-4KIND", "2s never make a run: four 2s on top do not burn")
class TwosNotInRuns(Idiot):
    def top_run(self, pile: Cards, play: Cards) -> int:
        return 0 if rank(pile[-1]) == TWO else super().top_run(pile, play)


@mutant("IDIOT-TWO-1", "a 2 may not be played on an ace")
class TwoRefusedOnAce(Idiot):
    def may_play_on(self, card_rank: str, pile: Cards, options: IdiotOptions) -> bool:
        if card_rank == TWO and self.effective_top(pile) == "A":
            return False
        return super().may_play_on(card_rank, pile, options)


@mutant("IDIOT-TWO-2", "a 2 never earns the follow-up play, even under two_followup=optional")
class NoTwoFollowup(Idiot):
    def followup_offered(self, card_rank: str, blind: bool, options: IdiotOptions) -> bool:
        return False


@mutant("IDIOT-PLAY-2", "a 2 does not reset: the next play must beat the card under it")
class TwoDoesNotReset(Idiot):
    def effective_top(self, pile: Cards) -> str | None:
        for card in reversed(pile):
            if rank(card) != TWO:
                return rank(card)
        return None


@mutant("IDIOT-PLAY-2", "a play must be strictly higher than the pile, equal rank refused")
class StrictlyHigher(Idiot):
    def rank_beats(self, card_rank: str, top: str) -> bool:
        return super().rank_beats(card_rank, top) and card_rank != top


@mutant("IDIOT-MULTI-1", "a play of mixed ranks is accepted (the top card's rank is checked)")
class MixedRanks(Idiot):
    def single_rank(self, cards: Cards) -> bool:
        return True


@mutant("IDIOT-BURN-10", "a 10 does not burn the pile: it stays on top")
class TenNotBurning(Idiot):
    def is_burn_card(self, card_rank: str) -> bool:
        return False


@mutant("IDIOT-BURN-10", "a 10 must match or beat the pile even under ten_anytime=true")
class TenNeedsRank(Idiot):
    def is_wild(self, card_rank: str, options: IdiotOptions) -> bool:
        return card_rank == TWO


@mutant("IDIOT-TABLE-1", "face-up cards may be played while still holding hand cards (once the draw pile is empty)")
class FaceUpWithHand(Idiot):
    def face_up_open(self, state: IdiotState, seat: int) -> bool:
        return not state.draw and bool(state.face_up[seat])


@mutant("IDIOT-TABLE-3", "the last hand cards take matching face-up cards along while the draw pile still has cards")
class CombineWhileDrawing(Idiot):
    def may_combine(self, state: IdiotState, seat: int) -> bool:
        hand = state.hands[seat]
        return bool(hand) and bool(state.face_up[seat]) and len({rank(c) for c in hand}) == 1


@mutant("IDIOT-BLIND-3", "a failed blind card stays on the pile; only the old pile is picked up")
class FailedBlindDiscarded(Idiot):
    def failed_blind(self, hand: Cards, pile: Cards, card: str) -> tuple[Cards, Cards]:
        return hand + pile, (card,)


@mutant("IDIOT-DRAW-1", "players do not draw back up to three: one card only once the hand is empty")
class NoDrawBack(Idiot):
    def draw_count(self, hand_size: int, draw_size: int) -> int:
        # Drawing nothing at all would leave an empty hand with no open zone.
        return min(1, draw_size) if hand_size == 0 else 0


@mutant("IDIOT-DRAW-2", "a player holding three or more cards still draws one after playing")
class AlwaysDrawsOne(Idiot):
    def draw_count(self, hand_size: int, draw_size: int) -> int:
        return min(max(1, 3 - hand_size), draw_size)


@mutant("IDIOT-DRAW-3", "a drawn card of the rank just played cannot follow it")
class NoChain(Idiot):
    def chain_offered(self, card_rank: str, drawn: Cards, burned: bool) -> bool:
        return False


@mutant("IDIOT-DRAW-3", "the drawn-card chain continues after a burn")
class ChainAfterBurn(Idiot):
    def chain_offered(self, card_rank: str, drawn: Cards, burned: bool) -> bool:
        return any(rank(c) == card_rank for c in drawn)


@mutant("IDIOT-PICKUP-2", "a pickup leaves the top card on the pile")
class PickupLeavesTop(Idiot):
    def picked_up(self, pile: Cards) -> tuple[Cards, Cards]:
        return pile[:-1], pile[-1:]


@mutant("IDIOT-INV-1", "a pickup loses the top card: it is neither taken into the hand nor left on the pile")
class PickupLosesTop(Idiot):
    def picked_up(self, pile: Cards) -> tuple[Cards, Cards]:
        return pile[:-1], ()


@mutant("IDIOT-PICKUP-3", "a pickup is allowed on an empty pile (a pass)")
class PickupOnEmptyPile(Idiot):
    def may_pick_up(self, state: IdiotState) -> bool:
        return True


@mutant("IDIOT-OPEN-1", "the opening ladder skips the 10 (9s, then jacks)")
class LadderSkipsTen(Idiot):
    def next_opening_rank(self, ladder_rank: str) -> str:
        nxt = super().next_opening_rank(ladder_rank)
        return super().next_opening_rank(nxt) if nxt == "T" else nxt


@mutant("IDIOT-END-1", "the game ends as soon as the first player goes out")
class FirstOutEnds(Idiot):
    def game_over(self, players: int, out: tuple[int, ...]) -> bool:
        return len(out) >= 1


@mutant("IDIOT-RANK-1", "suits count: a heart from the hand may go on any pile, whatever its rank")
class HeartsGoAnywhere(Idiot):
    def legal_moves(self, state: IdiotState) -> list[dict[str, object]]:
        moves = super().legal_moves(state)
        seat = state.to_act
        if (
            state.phase != "play"
            or state.pending is not None
            or seat is None
            or not state.discard
            or not self.hand_open(state, seat)
        ):
            return moves
        listed = {tuple(m["cards"]) for m in moves if m["type"] == "play"}
        return moves + [
            {"type": "play", "cards": [c]}
            for c in sorted(set(state.hands[seat]))
            if c.endswith("H") and (c,) not in listed
        ]

    def may_play_on(self, card_rank: str, pile: Cards, options: IdiotOptions) -> bool:
        return getattr(self, "heart", False) or super().may_play_on(card_rank, pile, options)

    def play(self, state: IdiotState, seat: int, cards: Cards) -> IdiotState:
        self.heart = len(cards) == 1 and cards[0].endswith("H") and cards[0] in state.hands[seat]
        try:
            return super().play(state, seat, cards)
        finally:
            self.heart = False


@mutant("IDIOT-BURN-4KIND", "a run counts the top card's rank through 2s: 9 9 2 9 9 burns")
class RunCountsThroughTwos(Idiot):
    def top_run(self, pile: Cards, play: Cards) -> int:
        top = rank(pile[-1])
        if top == TWO:
            return super().top_run(pile, play)
        n = 0
        for card in reversed(pile):
            if rank(card) == top:
                n += 1
            elif rank(card) != TWO:
                break
        return n


@mutant("IDIOT-DEAL-1", "`round` stays 0 after the deal (the field no Idiot property used to check)")
class RoundNotCounted(Idiot):
    def deal(self, state: IdiotState, move: Move) -> IdiotState:
        return evolve(super().deal(state, move), round=state.round)


# -- one mutant for each check of the split properties (properties/idiot/check_*.py) ----------------------
@mutant("IDIOT-SWAP-1", "a swap of two identical cards is neither offered nor taken (it changes nothing)")
class IdenticalSwapNotListed(Idiot):
    def _swap_moves(self, state: IdiotState, seat: int) -> list[Move]:
        return [m for m in super()._swap_moves(state, seat) if m["type"] != "swap" or m["hand"] != m["face_up"]]

    def swap(self, state: IdiotState, seat: int, hand_card: str, face_up_card: str) -> IdiotState:
        if hand_card == face_up_card:
            raise IllegalMove("IDIOT-SWAP-1", f"swapping {hand_card} for itself changes nothing")
        return super().swap(state, seat, hand_card, face_up_card)


@mutant("IDIOT-SWAP-1", "ready passes the swap to the seat on the right")
class ReadyPassesRight(Idiot):
    def ready(self, state: IdiotState, seat: int) -> IdiotState:
        after = super().ready(state, seat)
        return evolve(after, to_act=(seat - 1) % state.players) if after.phase == "swap" else after


@mutant("IDIOT-OPEN-1", "a player holding cards of the ladder rank may not decline")
class HolderMustOpen(Idiot):
    def may_decline(self, state: IdiotState) -> bool:
        seat = state.to_act
        held = seat is not None and any(rank(c) == state.opening_rank for c in state.hands[seat])
        return super().may_decline(state) and not held


@mutant("IDIOT-OPEN-2", "`opening_rank` keeps the ladder's rank after the opening card is down")
class LadderRankKept(Idiot):
    def play(self, state: IdiotState, seat: int, cards: Cards) -> IdiotState:
        after = super().play(state, seat, cards)
        if state.phase == "opening" and after.phase == "play":
            return evolve(after, opening_rank=state.opening_rank)
        return after


@mutant("IDIOT-MULTI-1", "several cards land on the pile in reverse: the first listed ends on top")
class PlayLandsReversed(Idiot):
    def land(self, state: IdiotState, seat: int, cards: Cards, source: str, blind: bool = False) -> IdiotState:
        return super().land(state, seat, cards[::-1], source, blind)


@mutant("IDIOT-MULTI-1", "a card named twice is looked up once: a play of [5C, 5C] holding one 5C is taken")
class CardNamedTwice(Idiot):
    def play_source(self, state: IdiotState, seat: int, cards: Cards) -> str:
        return super().play_source(state, seat, tuple(dict.fromkeys(cards)))


@mutant("IDIOT-RANK-1", "a queen ranks above a king")
class QueenAboveKing(Idiot):
    def rank_beats(self, card_rank: str, top: str) -> bool:
        swap = {"Q": "K", "K": "Q"}
        return super().rank_beats(swap.get(card_rank, card_rank), swap.get(top, top))


@mutant("IDIOT-INV-4", "a play's rank is not checked when applied (legal_moves is right)")
class RankUncheckedOnApply(Idiot):
    def may_play_on(self, card_rank: str, pile: Cards, options: IdiotOptions) -> bool:
        return getattr(self, "applying", False) or super().may_play_on(card_rank, pile, options)

    def play(self, state: IdiotState, seat: int, cards: Cards) -> IdiotState:
        self.applying = state.phase == "play" and state.pending is None
        try:
            return super().play(state, seat, cards)
        finally:
            self.applying = False


@mutant("IDIOT-INV-1", "a pickup gives the pile to the next player instead of the one picking up")
class PileToTheNext(Idiot):
    def pickup(self, state: IdiotState, seat: int) -> IdiotState:
        after = super().pickup(state, seat)
        nxt = self.next_active(state.out, seat, state.players)
        hands = list(after.hands)
        hands[seat], hands[nxt] = state.hands[seat], state.hands[nxt] + state.discard
        return evolve(after, hands=tuple(hands))


@mutant("IDIOT-INV-7", "an 8 skips the next player")
class EightSkips(Idiot):
    def after_play(
        self, state: IdiotState, seat: int, card_rank: str, drawn: Cards, burned: bool, blind: bool, *, eights: int = 0
    ) -> IdiotState:
        after = super().after_play(state, seat, card_rank, drawn, burned, blind, eights=eights)
        if card_rank == "8" and after.phase == "play" and after.pending is None and after.to_act not in (None, seat):
            assert after.to_act is not None
            return evolve(after, to_act=self.next_active(after.out, after.to_act, after.players))
        return after


@mutant("IDIOT-EIGHT-1", "eight_skips declared, but an 8 skips one player whatever the number of 8s played")
class OneSkipPerPlay(Idiot):
    def after_play(
        self, state: IdiotState, seat: int, card_rank: str, drawn: Cards, burned: bool, blind: bool, *, eights: int = 0
    ) -> IdiotState:
        return super().after_play(state, seat, card_rank, drawn, burned, blind, eights=min(eights, 1))


@mutant("IDIOT-SEVEN-1", "seven_lower declared, but a 10 still goes on a 7 (ten_anytime read first)")
class TenOnSeven(Idiot):
    def may_play_on(self, card_rank: str, pile: Cards, options: IdiotOptions) -> bool:
        if card_rank == "T" and options.ten_anytime:
            return True
        return super().may_play_on(card_rank, pile, options)


@mutant("IDIOT-TRANSPARENT-1", "transparent declared, but the next play is judged against the transparent card itself")
class TransparentJudgedItself(Idiot):
    def seen_through(self, pile: Cards, options: IdiotOptions) -> Cards:
        return pile


@mutant("IDIOT-TRANSPARENT-1", "transparent declared, but the transparent card is refused on a card it does not beat")
class TransparentByOrder(Idiot):
    def may_play_on(self, card_rank: str, pile: Cards, options: IdiotOptions) -> bool:
        if card_rank == options.transparent:
            return super().may_play_on(card_rank, pile, evolve(options, transparent=None))
        return super().may_play_on(card_rank, pile, options)


@mutant("IDIOT-REVERSE-1", "reverse declared, but a reversal lasts one turn: the next pass goes clockwise again")
class ReversalForgotten(Idiot):
    def next_player(self, state: IdiotState, seat: int, out: tuple[int, ...] | None = None, skips: int = 0) -> int:
        after = super().next_player(state, seat, out, skips)
        if state.direction == -1 and not skips and state.pending is None and state.discard:  # passed on a pile
            return super().next_player(evolve(state, direction=1), seat, out, skips)
        return after


@mutant("IDIOT-OUT-1", "a player with no cards left is not out: the turn comes back to them")
class NeverOut(Idiot):
    def is_out(self, state: IdiotState, seat: int) -> bool:
        return False
