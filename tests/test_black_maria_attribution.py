"""Black Maria: each deviation filed under the rule it breaks, judged step by step on real states.

The reference (or one of its mutants) plays a few moves from a prepared state; every transition is
shown to the properties as the session would show it, and the clauses (and causes) they report in that
step are compared with the one rule the deviation breaks: nothing less, nothing more.  The last test
certifies an engine that takes a choice the contract leaves open (the won piles cleared as the round
is scored) and requires every clause to pass.
"""

from __future__ import annotations

from typing import Any

from attrs import evolve

from ruleproof.model.findings import Setup
from ruleproof.model.notation import STANDARD_DECK
from ruleproof.properties.base import Ledger
from ruleproof.properties.black_maria import BlackMariaProperties, check_play
from ruleproof.properties.snapshot import Snapshot, Step
from ruleproof.reference.base import ReferenceEngine
from ruleproof.reference.black_maria import BlackMaria, BlackMariaState
from ruleproof.run.runner import PROFILES, certify_game
from ruleproof.transport.checked import CheckedEngine
from tests.mutants import black_maria as mutants
from tests.test_reference_black_maria import REF, last_trick, new, ordered_deal, play_state

Found = dict[str, set[str]]  # clause -> the causes (signatures after the check's name) reported


def snap(rules: BlackMaria, state: BlackMariaState) -> Snapshot:
    return Snapshot(rules.to_json(state), tuple(rules.legal_moves(state)))


def props_for(state: BlackMariaState) -> BlackMariaProperties:
    """The properties of a game seen from ``state`` on (its round dealt with the totals it shows)."""
    options = {"scoring": state.scoring, "target": state.target}
    props = BlackMariaProperties(Setup("black-maria", state.players, state.dealer, options), Ledger())
    props.round_scores = list(state.scores)
    return props


def step(props: BlackMariaProperties, rules: BlackMaria, state: BlackMariaState, move: Any) -> Found:
    """Apply ``move`` with ``rules`` and show the transition to ``props``: what it reports."""
    after = rules.apply(state, move)
    props.observe(Step(snap(rules, state), move, snap(rules, after)))
    found: Found = {}
    for f in props.ledger.pending:
        found.setdefault(f.clause, set()).add(f.signature.split(":", 1)[1])
    props.ledger.pending.clear()
    return found


def last_play(rules: BlackMaria, state: BlackMariaState) -> Found:
    """Play the trick out with the first listed card each time; what the last play reports."""
    props = props_for(state)
    while True:
        move = rules.legal_moves(state)[0]
        found = step(props, rules, state, move)
        state = rules.apply(state, move)
        if not state.trick:
            return found


# -- play ---------------------------------------------------------------------------------------
def test_a_queen_above_the_king_is_filed_under_the_winner_with_its_ranks() -> None:
    state = play_state(REF, (("KC",), ("QC",), ("2C",), ("3C",)))
    assert last_play(REF, state) == {}
    assert last_play(mutants.QueenWinsOverKing(), state) == {"BM-WIN-1": {"Q above K"}}
    assert last_play(mutants.HighestCardOfAnySuitWins(), play_state(REF, (("2C",), ("KD",), ("4C",), ("5C",)))) == {
        "BM-WIN-1": {"a card off the led suit"}
    }


def test_a_listed_revoke_played_fails_its_list_and_the_invariant_in_one_step() -> None:
    rules = mutants.RevokeAccepted()
    state = play_state(rules, (("AH",), ("3C", "KD"), ("4C", "5D"), ("5C", "6D")), trick=("2C",))
    props = props_for(state)
    state = rules.apply(state, {"type": "play", "card": "3C"})  # seat 1 follows; seat 2 lists 5D too
    assert step(props, rules, state, {"type": "play", "card": "5D"}) == {
        # the revoke played, and the list of the next seat judged in the same step (6D beside 5C)
        "BM-FOLLOW-1": {"a listed card played", "cards off the led suit listed while the hand holds it"},
        "BM-INV-3": {"a revoke"},
    }


def test_a_card_listed_twice_is_the_contracts_not_the_lead_rule() -> None:
    state = play_state(REF, (("2C", "AH"), ("3C", "KD"), ("4C", "5D"), ("5C", "6D")))
    for now in (state, REF.apply(state, {"type": "play", "card": "2C"})):  # a lead, then a follow
        after = snap(REF, now)
        doubled = Snapshot(after.raw, (*after.moves, after.moves[0]))
        props = props_for(state)
        check_play.lead_moves(props, Step(after, {"type": "play", "card": "AH"}, doubled))
        check_play.follow_moves(props, Step(after, {"type": "play", "card": "AH"}, doubled))
        assert props.ledger.pending == []  # CONTRACT-MOVES-1 is the session's


def test_a_void_hand_held_back_from_hearts_on_trick_one_is_a_first_trick_rule() -> None:
    rules = mutants.NoPointsOnFirstTrick()
    hands = (("2C", "9D"), ("AH", "QS", "KD"), ("4C", "3D"), ("5C", "4D"))
    state = play_state(rules, hands, won=((), (), (), ()))  # trick one: the rest of the pack in the deck
    state = evolve(state, deck=tuple(c for c in STANDARD_DECK if not any(c in h for h in hands)))
    assert step(props_for(state), rules, state, {"type": "play", "card": "2C"}) == {
        "BM-LEAD-2": {"first trick points:cards the hand may play missing"}  # the rule, then its cause
    }


def test_a_round_one_trick_short_is_the_round_length_not_the_end() -> None:
    rules = mutants.RoundOneTrickShort()
    state = play_state(rules, (("2C", "AC"), ("3C", "KC"), ("4C", "QC"), ("5C", "JC")))
    assert last_play(rules, state) == {"BM-WIN-2": {"a round has # tricks: it ends when the hands are empty"}}
    assert last_play(rules, evolve(state, target=1)) == {  # ... and the game over with cards held: the end
        "BM-END-1": {
            "a round has # tricks: it ends when the hands are empty, and the game ends only once a round is over"
        }
    }


# -- scoring --------------------------------------------------------------------------------------
def by_suit(card: str) -> int:
    return "CDHS".index(card[1])


def test_each_wrong_score_is_filed_under_the_reading_that_explains_it() -> None:
    value = {"BM-INV-5", "BM-INV-6"}
    cases: list[tuple[BlackMaria, BlackMariaState, str, str, set[str]]] = [
        (mutants.JackOfDiamondsBonus(), last_trick(taker=by_suit), "BM-SCORE-1", "a card's value", value),
        (mutants.SpadeHonoursUnderStandard(), last_trick(taker=by_suit), "BM-SCORE-1", "a card's value", value),
        (
            mutants.ScoresCreditedLeft(),
            last_trick(taker=by_suit),
            "BM-SCORE-4",
            "credited to other seats",
            {"BM-INV-6"},
        ),
        (mutants.ShootingTheMoon(), last_trick(taker=lambda c: 1), "BM-SCORE-4", "a moon shot", value),
        (mutants.RoundScoreNotAdded(), last_trick(scores=(10, 20, 30, 40)), "BM-SCORE-4", "replaced", value),
    ]
    for rules, state, clause, cause, others in cases:
        found = last_play(rules, state)
        assert set(found) == {clause, *others}, (type(rules).__name__, found)
        assert any(cause in c for c in found[clause]), (type(rules).__name__, found[clause])


def test_a_last_trick_left_out_of_the_score_is_the_adding_up() -> None:
    rules = mutants.LastTrickNotScored()
    found = last_play(rules, play_state(rules, (("2H",), ("3H",), ("4H",), ("5H",))))
    assert found == {
        "BM-SCORE-4": {"the last trick was not scored"},
        "BM-INV-5": {"a `standard` round hands out exactly what its cards are worth (# with every card)"},
        "BM-INV-6": {"each round score is the sum of the penalty values in that player's won tricks"},
    }


class ClearsWonWhenScored(BlackMaria):
    """Correct, with a choice the contract leaves open: the won piles go back to the deck as the round
    is scored (protocol.md §8), so no pile shows who took the last trick."""

    def end_round(self, state: BlackMariaState) -> BlackMariaState:
        scored = super().end_round(state)
        return evolve(scored, won=((),) * state.players, deck=tuple(c for w in state.won for c in w))


class KeepsOnlyTheLastTrick(BlackMaria):
    """Correct, with another choice left open: as the round is scored the earlier tricks go back to the
    deck and only the last one stays on its winner's pile (the piles after scoring say nothing of the
    round's score)."""

    def end_round(self, state: BlackMariaState) -> BlackMariaState:
        scored = super().end_round(state)
        n = state.players
        last = tuple(w[-n:] if w and s == state.to_act else () for s, w in enumerate(state.won))
        earlier = tuple(c for s, w in enumerate(state.won) for c in (w[:-n] if s == state.to_act else w))
        return evolve(scored, won=last, deck=earlier)


def test_won_piles_cleared_when_the_round_is_scored_are_a_choice_left_open() -> None:
    for rules in (ClearsWonWhenScored(), KeepsOnlyTheLastTrick()):
        assert last_play(rules, last_trick(rules, taker=by_suit)) == {}, type(rules).__name__
        assert last_play(rules, play_state(rules, (("2H",), ("3H",), ("4H",), ("5H",)))) == {}
    rules = ClearsWonWhenScored()
    report = certify_game(CheckedEngine(ReferenceEngine([rules])), "black-maria", PROFILES["dev"], seed=3)
    assert not report.failures, [f.finding.clause for f in report.failures]


# -- the state a refusal leaves -------------------------------------------------------------------
def test_a_refusal_that_lost_a_card_breaks_conservation_in_its_step() -> None:
    state = REF.apply(new(REF, 4, 0), ordered_deal(4))
    props = props_for(state)
    lost = evolve(state, hands=(state.hands[0], state.hands[1][1:], *state.hands[2:]))
    props.after_rejection(snap(REF, lost), {"type": "pass", "cards": ["2C"]}, "BM-PASS-1")
    assert [f.clause for f in props.ledger.pending] == ["BM-INV-1"]
    props.ledger.pending.clear()
    props.after_rejection(snap(REF, state), {"type": "pass", "cards": ["2C"]}, "BM-PASS-1")
    assert props.ledger.pending == []
