"""The concrete-trace minimizer: synthetic predicates (no engine), then one real mutant.

The synthetic ``reproduces`` functions model what matters about an engine
replay: a candidate either diverges (None) or shows the violation at some
event, and the minimizer must keep only what the violation needs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ruleproof.model.findings import Event, Finding, Setup, Trace
from ruleproof.run.minimize import Minimized, minimize

GAME = "black-maria"
FINDING = Finding("BM-X-1", "synthetic", 1, 2)


def new_game(players: int = 4, dealer: int = 0, target: int = 100) -> Event:
    return Event("new_game", {"game": GAME, "players": players, "dealer": dealer, "options": {"target": target}})


def deal(tag: str) -> Event:
    return Event("apply", {"type": "deal", "hands": [[tag]]})


def play(tag: str) -> Event:
    return Event("apply", {"type": "play", "card": tag})


def probe(tag: str) -> Event:
    return Event("reject", {"type": "play", "card": tag}, "BM-FOLLOW-1")


def build(
    games: int, rounds: int, moves: int, probe_every: int = 5, players: int = 4, target: int = 100
) -> list[Event]:
    """A trace shaped like the state machine's: games of rounds of moves, with probes mixed in."""
    events: list[Event] = []
    for g in range(games):
        events.append(new_game(players, dealer=g % players, target=target))
        for r in range(rounds):
            events.append(deal(f"g{g}r{r}"))
            for m in range(moves):
                events.append(play(f"g{g}r{r}m{m}"))
                if m % probe_every == probe_every - 1:
                    events.append(probe(f"g{g}r{r}p{m}"))
    return events


def needs(
    *required: Event, violation: Event, extra: Callable[[list[Event]], bool] = lambda events: True
) -> Callable[[Trace], int | None]:
    """Reproduces when the required events occur in order before ``violation``; counts the calls."""

    def reproduces(trace: Trace) -> int | None:
        reproduces.calls += 1  # type: ignore[attr-defined]
        events = list(trace.events)
        if not extra(events):
            return None
        want = list(required)
        for i, e in enumerate(events):
            if want and e == want[0]:
                want.pop(0)
            elif not want and e == violation:
                return i + 1
        return None

    reproduces.calls = 0  # type: ignore[attr-defined]
    return reproduces


def seated(events: list[Event]) -> bool:
    """Each round must be dealt by its own seat: the tag's round r of game g needs dealer (g + r) % n.

    This is Black Maria's rotation: dropping earlier rounds only replays when
    the new_game dealer moves with them.
    """
    dealer = players = dealt = 0
    for e in events:
        if e.kind == "new_game":
            dealer, players, dealt = e.value["dealer"], e.value["players"], 0
        elif e.kind == "apply" and e.value["type"] == "deal":
            tag = e.value["hands"][0][0]
            g, r = int(tag[1 : tag.index("r")]), int(tag[tag.index("r") + 1 :])
            if (dealer + dealt) % players != (g + r) % players:
                return False
            dealt += 1
    return True


def run(events: list[Event], reproduces: Any, budget: int = 100, **kw: Any) -> Minimized:
    return minimize(Trace(GAME, tuple(events), FINDING), reproduces, budget=budget, **kw)


def test_keeps_only_what_the_violation_needs() -> None:
    events = build(games=3, rounds=3, moves=20)
    violation = events[-1]
    last_game = max(i for i, e in enumerate(events) if e.kind == "new_game")
    last_deal = max(i for i, e in enumerate(events) if e.kind == "apply" and e.value["type"] == "deal")
    required = [events[last_game], events[last_deal], events[last_deal + 3], events[last_deal + 10]]
    reproduces = needs(*required, violation=violation)
    result = run(events, reproduces)
    assert list(result.trace.events) == [*required, violation]
    assert result.original == len(events)
    assert result.replays == reproduces.calls <= 100
    assert result.trace.finding == FINDING
    assert result.trace.game == GAME


def test_quick_runs_only_the_cheap_passes_and_the_whole_minimizer_goes_on_from_there() -> None:
    """``quick`` (a game's first look at every failure): earlier games, probes and the hoist, once; the
    earlier rounds and the moves the violation does not need are left to the whole minimizer."""
    events = build(games=3, rounds=3, moves=20)
    last_game = max(i for i, e in enumerate(events) if e.kind == "new_game")
    last_deal = max(i for i, e in enumerate(events) if e.kind == "apply" and e.value["type"] == "deal")
    required = [events[last_game], events[last_deal], events[last_deal + 3], events[last_deal + 10]]
    quick = run(events, needs(*required, violation=events[-1]), quick=True)
    assert quick.trace.events[0] == events[last_game], "the earlier games are dropped"
    assert not any(e.kind == "reject" for e in quick.trace.events[:-1]), "and the probes before the violation"
    assert sum(e.value.get("type") == "deal" for e in quick.trace.events) == 3, "not the earlier rounds"
    rest = minimize(quick.trace, needs(*required, violation=events[-1]), budget=100)
    assert list(rest.trace.events) == [*required, events[-1]]


def test_a_trace_at_the_floor_is_not_searched_further() -> None:
    """new_game, the deal and the violation at a table with none smaller: nothing can be shorter, so
    no fresh deal nor any other candidate is replayed after the confirming one."""
    from ruleproof.run.minimize import Played

    events = [new_game(players=2), deal("recorded"), play("violation")]
    replays: list[Trace] = []

    def lenient(candidate: Trace, limit: int) -> Played | None:
        replays.append(candidate)
        played = candidate.events[:3] if candidate.events[1] == events[1] and limit >= 3 else ()
        return Played(tuple(played), tuple(range(len(played)))) if played else None

    fresh = lambda setup, seed: {"type": "deal", "hands": [[f"seed{seed}"]]}  # noqa: E731 - a stand-in
    none_smaller = lambda setup: []  # noqa: E731 - two players: the smallest table
    result = run(events, needs(violation=play("never")), lenient=lenient, fresh=fresh, setups=none_smaller)
    assert list(result.trace.events) == events and len(replays) == 1, replays
    lower = lambda setup: [Setup(setup.game, 2, 0, {"target": 50})]  # noqa: E731 - a lower target
    run(events, needs(violation=play("never")), lenient=lenient, fresh=fresh, setups=lower)
    assert len(replays) > 2, "with a smaller setup to try, the search goes on"


def test_typical_trace_reaches_a_few_dozen_events_within_100_replays() -> None:
    # 3 games, ~280 events; the violation depends on 13 moves of its own round and the dealer rotation
    events = build(games=3, rounds=3, moves=25)
    last_deal = max(i for i, e in enumerate(events) if e.kind == "apply" and e.value["type"] == "deal")
    round_moves = [i for i in range(last_deal + 1, len(events) - 1) if events[i].kind == "apply"]
    required = [events[last_deal]] + [events[i] for i in round_moves[::2]]
    reproduces = needs(*required, violation=events[-1], extra=seated)
    result = run(events, reproduces, budget=100)
    assert len(events) > 250
    assert result.replays <= 100
    assert len(result.trace.events) <= 20, [e.to_json() for e in result.trace.events]
    assert result.trace.events[0].value["dealer"] == (2 + 2) % 4  # game 2's round 2 is dealt by seat 0
    assert seated(list(result.trace.events))


def test_dropping_earlier_rounds_moves_the_first_dealer() -> None:
    events = build(games=1, rounds=4, moves=6, probe_every=100)
    last_deal = max(i for i, e in enumerate(events) if e.kind == "apply" and e.value["type"] == "deal")
    reproduces = needs(events[last_deal], violation=events[-1], extra=seated)
    result = run(events, reproduces)
    kept = list(result.trace.events)
    assert kept[0].value["dealer"] == 3  # round 3 was dealt by seat (0 + 3) % 4
    assert kept[1] == events[last_deal]
    assert len(kept) == 3  # new_game, the deal, the violation (the moves in between are not needed)


def test_a_violation_seen_earlier_cuts_the_trace_there() -> None:
    events = build(games=2, rounds=1, moves=30)
    violation = play("boom")
    events = [*events[:40], violation, *events[40:], violation]
    reproduces = needs(violation=violation)
    result = run(events, reproduces)
    assert result.trace.events[-1] == violation
    assert len(result.trace.events) <= 3
    assert result.replays <= 20


def test_a_probe_violation_is_hoisted_to_just_after_the_deal() -> None:
    events = [*build(games=1, rounds=1, moves=60, probe_every=100), probe("accepted")]
    reproduces = needs(events[1], violation=events[-1])
    result = run(events, reproduces)
    assert list(result.trace.events) == [events[0], events[1], events[-1]]
    assert result.replays <= 5


def test_smaller_setups_are_substituted_when_they_reproduce() -> None:
    events = build(games=1, rounds=3, moves=5, probe_every=100, target=100)
    last_deal = max(i for i, e in enumerate(events) if e.kind == "apply" and e.value["type"] == "deal")

    def game_end(evs: list[Event]) -> bool:  # the game ends after ceil(target / 40) rounds; 3-player setups diverge
        setup = evs[0].value
        rounds = sum(1 for e in evs if e.kind == "apply" and e.value["type"] == "deal")
        return setup["players"] == 4 and rounds * 40 >= setup["options"]["target"]

    asked: list[Setup] = []

    def smaller(setup: Setup) -> list[Setup]:
        asked.append(setup)
        target = setup.options["target"]
        out = [Setup(setup.game, 3, 0, setup.options)] if setup.players == 4 else []
        return out + ([Setup(setup.game, setup.players, setup.dealer, {"target": target // 2})] if target > 1 else [])

    reproduces = needs(events[last_deal], violation=events[-1], extra=lambda evs: seated(evs) and game_end(evs))
    result = run(events, reproduces, setups=smaller)
    first = result.trace.events[0].value
    assert first["players"] == 4
    assert first["options"]["target"] <= 40
    assert sum(1 for e in result.trace.events if e.kind == "apply" and e.value["type"] == "deal") == 1
    assert asked, "the setups callback was consulted"


def test_budget_counts_replays_and_the_result_is_deterministic() -> None:
    events = build(games=3, rounds=3, moves=20)
    required = [events[0], events[5], events[30]]
    first = run(events, needs(*required, violation=events[-1]), budget=7)
    again = run(events, needs(*required, violation=events[-1]), budget=7)
    assert first.replays == 7
    assert first == again
    assert len(first.trace.events) < len(events)


def test_a_budget_of_engine_calls_stops_starting_replays() -> None:
    events = build(games=1, rounds=3, moves=20)
    calls = [0]
    inner = needs(events[5], violation=events[-1])

    def reproduces(trace: Trace) -> int | None:
        calls[0] += len(trace.events)  # an engine call per event replayed
        return inner(trace)

    result = run(events, reproduces, budget=1000, calls=(lambda: calls[0], 150))
    # no replay starts that may overrun the 150 calls (at worst two a replayed event; here one): within them
    assert calls[0] <= 150
    assert result.replays < 1000
    spent, calls[0] = calls[0], 0
    again = run(events, reproduces, budget=1000, calls=(lambda: calls[0], 150))
    assert again == result and calls[0] == spent  # counts, never seconds: the same replays, the same trace


def test_the_violating_game_alone_is_replayed_first() -> None:
    events = build(games=4, rounds=1, moves=30, probe_every=100)
    start = max(i for i, e in enumerate(events) if e.kind == "new_game")
    sizes: list[int] = []
    inner = needs(events[start], violation=events[-1])

    def reproduces(trace: Trace) -> int | None:
        sizes.append(len(trace.events))
        return inner(trace)

    run(events, reproduces)
    assert sizes[0] == len(events) - start  # not the whole example: its earlier games are not needed


def test_smaller_setups_are_tried_with_their_deals_adapted() -> None:
    events = build(games=1, rounds=1, moves=12, probe_every=100, players=4)

    def smaller(setup: Setup) -> list[Setup]:
        return [Setup(setup.game, n, 0, setup.options) for n in range(2, setup.players)]

    def adapt(deal: Any, setup: Setup) -> Any:
        return {**deal, "hands": [[f"{deal['hands'][0][0]}/{setup.players}"]]}

    def reproduces(trace: Trace) -> int | None:  # a two-player table must get its own deal, then play 3
        first, dealt = trace.events[0].value, trace.events[1].value
        if dealt["hands"][0][0] != f"g0r0/{first['players']}" and first["players"] != 4:
            return None
        plays = [i for i, e in enumerate(trace.events) if e.kind == "apply" and e.value["type"] == "play"]
        return plays[2] + 1 if len(plays) >= 3 else None

    result = run(events, reproduces, setups=smaller, adapt=adapt)
    assert result.trace.events[0].value["players"] == 2
    assert result.trace.events[1].value["hands"] == [["g0r0/2"]]


def test_an_input_that_does_not_reproduce_comes_back_unchanged() -> None:
    events = build(games=1, rounds=1, moves=10)
    reproduces = needs(violation=play("never"))
    result = run(events, reproduces)
    assert list(result.trace.events) == events
    assert result.replays == 1


def test_a_one_event_trace_is_already_minimal() -> None:
    events = [new_game()]
    result = run(events, needs(violation=events[0]))
    assert list(result.trace.events) == events
    assert result.replays == 1


# mutant -> the most events its minimized counterexample may keep: a trick rule needs a trick or
# two after the passes; a scoring rule needs its whole round (4 passes, 52 plays); a probe needs a deal
REAL = {"WinnerDoesNotLead": 20, "SpadeHonoursUnderStandard": 60, "CardNotHeldAccepted": 8}


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_mutant_trace_is_minimized_by_replay(name: str) -> None:
    """A long trace (half a clean game, then the mutant's game) against a gallery mutant, replayed for real."""
    *_, trace, reproduces = _mutant_case(name)
    assert trace.games()[-1][0] > 0, "the violation is in the second game"

    result = minimize(trace, reproduces, budget=80)
    assert result.replays <= 80
    assert result.original == len(trace.events)
    assert len(result.trace.events) < len(trace.events)
    assert len(result.trace.events) <= REAL[name], [e.to_json() for e in result.trace.events]
    assert reproduces(result.trace) == len(result.trace.events)


def _mutant_case(name: str) -> tuple[Any, Any, str, Trace, Callable[[Trace], int | None]]:
    """A Black Maria gallery mutant's engine and properties, the driven trace cut at its violation, and
    the strict replay that tells whether a candidate still shows it."""
    from ruleproof.properties import properties_for
    from ruleproof.run.replay import replay
    from ruleproof.transport.checked import CheckedEngine
    from tests.mutants import REGISTRY, all_mutants

    all_mutants("black-maria")
    mutant = REGISTRY[name]
    props = properties_for(mutant.game)
    engine = CheckedEngine(mutant.engine())
    trace = _played_trace(engine, mutant.game)
    violated_at = replay(trace, engine, props, stop_at=mutant.clause).first(mutant.clause)
    assert violated_at is not None, "the driven trace shows the mutant's bug"
    trace = Trace(trace.game, trace.events[: violated_at + 1], Finding(mutant.clause, "as recorded"))

    def reproduces(candidate: Trace) -> int | None:
        at = replay(candidate, engine, props, stop_at=mutant.clause).first(mutant.clause)
        return None if at is None else at + 1

    return engine, props, mutant.clause, trace, reproduces


def _played_trace(engine: Any, game: str) -> Trace:
    """Two Black Maria games driven deterministically: a fixed shuffle per deal, the last legal move.

    The first game stops after two passes (before any rule a mutant breaks is
    judged); the second runs on.  Probes that break no mutant's rule (a play
    during the passes, a pass during the play) come every seventh event, and
    after 40 events of the second game one play of a card the player does not hold.
    """
    import random

    events: list[Event] = []
    rng = random.Random(7)
    for g, stop in enumerate((4, 200)):
        start = len(events)
        options = {"scoring": "standard", "target": 100}
        events.append(Event("new_game", {"game": game, "players": 4, "dealer": g, "options": options}))
        state = engine.new_game(game, 4, g, options)
        deck = list(state["zones"]["deck"])
        rng.shuffle(deck)
        hands = [deck[i * 13 : (i + 1) * 13] for i in range(4)]
        events.append(Event("apply", {"type": "deal", "hands": hands}))
        state = engine.apply(events[-1].value)
        while state["phase"] in ("pass", "play") and len(events) - start < stop:
            hand = state["zones"][f"hand/{state['to_act']}"]
            if len(events) % 7 == 0:
                wrong = (
                    {"type": "play", "card": hand[0]}
                    if state["phase"] == "pass"
                    else {"type": "pass", "cards": hand[:3]}
                )
                events.append(Event("reject", wrong, "BM-PASS-1" if state["phase"] == "pass" else "BM-FOLLOW-1"))
            if g == 1 and len(events) - start == 40 and state["phase"] == "play":
                other = next(c for s in range(4) if s != state["to_act"] for c in state["zones"].get(f"hand/{s}", []))
                events.append(Event("reject", {"type": "play", "card": other}, "BM-FOLLOW-1"))
            events.append(Event("apply", engine.legal_moves()[-1]))
            state = engine.apply(events[-1].value)
    return Trace(game, tuple(events))


@pytest.mark.parametrize("name", sorted(REAL))
def test_lenient_replay_keeps_what_strands_strict_deletion(name: str) -> None:
    """With ``lenient_replay`` a dropped move no longer strands the moves after it: the result is no
    longer than the strict minimizer's, replays strictly to the same violation, and is deterministic."""
    from ruleproof.run.minimize import lenient_replay

    engine, props, clause, trace, reproduces = _mutant_case(name)
    strict = minimize(trace, reproduces, budget=24)
    lenient = lenient_replay(engine, props, clause)
    result = minimize(trace, reproduces, budget=24, lenient=lenient)
    again = minimize(trace, reproduces, budget=24, lenient=lenient_replay(engine, props, clause))
    assert result == again
    assert result.replays <= 24
    assert len(result.trace.events) <= len(strict.trace.events)
    assert reproduces(result.trace) == len(result.trace.events), "every move kept is one the engine lists"


def test_lenient_replay_drops_a_probe_the_rules_now_allow() -> None:
    """A probe the engine lists is sent only where the properties still call it illegal, so a move that
    became legal is not blamed on the probe's clause."""
    from ruleproof.properties import properties_for
    from ruleproof.reference import ReferenceEngine
    from ruleproof.run.minimize import lenient_replay
    from ruleproof.transport.checked import CheckedEngine

    engine = CheckedEngine(ReferenceEngine())
    props = properties_for(GAME)
    state = engine.new_game(GAME, 4, 0, {"scoring": "standard", "target": 100})
    deck = list(state["zones"]["deck"])
    hands = [deck[i * 13 : (i + 1) * 13] for i in range(4)]
    deal_event = Event("apply", {"type": "deal", "hands": hands})
    first_pass = {"type": "pass", "cards": sorted(hands[1][:3])}  # seat 1, left of dealer 0, passes first
    # "pass these three cards" is listed, so as a probe it is dropped; the play of a card during the passes is sent
    events = [
        Event("new_game", {"game": GAME, "players": 4, "dealer": 0, "options": {"scoring": "standard", "target": 100}}),
        deal_event,
        Event("reject", first_pass, "BM-PASS-1"),
        Event("reject", {"type": "play", "card": hands[1][0]}, "BM-PASS-1"),
    ]
    played = lenient_replay(engine, props, "BM-PASS-1")(Trace(GAME, tuple(events)), 10)
    assert played is None, "the reference refuses the illegal play and never breaks BM-PASS-1"


def test_lenient_replay_minimizes_a_determinism_failure() -> None:
    """CONTRACT-DET-1 is judged by replaying the game at its end: the lenient replay does that too."""
    from ruleproof.properties import properties_for
    from ruleproof.properties.contract import CONTRACT_DETERMINISM
    from ruleproof.reference import ReferenceEngine
    from ruleproof.run.minimize import lenient_replay
    from ruleproof.run.replay import replay
    from ruleproof.transport.checked import CheckedEngine

    class EveryOtherGameScoresOne(ReferenceEngine):
        """Once trick play starts, every second game it plays reports seat 0 one point up."""

        games = 0

        def new_game(self, game: str, players: int, dealer: int, options: Any) -> Any:
            self.games += 1
            return super().new_game(game, players, dealer, options)

        def apply(self, move: Any) -> Any:
            state = super().apply(move)
            if self.games % 2 == 0 and state["phase"] == "play":
                state = {**state, "scores": [state["scores"][0] + 1, *state["scores"][1:]]}
            return state

    engine = CheckedEngine(EveryOtherGameScoresOne())
    props = properties_for(GAME)
    trace = _played_trace(CheckedEngine(ReferenceEngine()), GAME)
    first = [i for i, e in enumerate(trace.events) if e.kind == "new_game"][1]
    trace = Trace(GAME, trace.events[first : first + 30], Finding(CONTRACT_DETERMINISM, "as recorded"))

    def reproduces(candidate: Trace) -> int | None:
        at = replay(candidate, engine, props, stop_at=CONTRACT_DETERMINISM).first(CONTRACT_DETERMINISM)
        return None if at is None else at + 1

    assert reproduces(trace) is not None
    result = minimize(trace, reproduces, budget=24, lenient=lenient_replay(engine, props, CONTRACT_DETERMINISM))
    assert len(result.trace.events) < len(trace.events)
    assert reproduces(result.trace) is not None


def test_an_idiot_deal_is_adapted_to_a_smaller_table() -> None:
    from collections import Counter

    from ruleproof.properties import properties_for
    from ruleproof.properties.idiot.cards import laid_out
    from ruleproof.reference import ReferenceEngine
    from ruleproof.transport.checked import CheckedEngine

    props = properties_for("idiot")
    big = Setup("idiot", 3, 1, {"decks": 2, "after_burn": "next", "six_burn": 3, "two_followup": "optional"})
    cards = sorted(Counter({f"{r}{s}": 2 for r in "23456789TJQKA" for s in "SHDC"}).elements())
    deal = laid_out(cards, big.players)
    declared = {"players": [2, 3, 4], "options": {"decks": {"min": 1, "max": 4}}}
    smaller = props.smaller_setups(big, declared)
    assert [(s.players, s.options["decks"], s.dealer) for s in smaller] == [(2, 1, 1)]
    adapted = props.adapt_deal(deal, smaller[0])
    assert adapted is not None
    rows = [adapted[z] for z in ("face_down", "face_up", "hand")]
    assert all(len(row) == 2 and all(len(cards) == 3 for cards in row) for row in rows)
    everything = [c for row in rows for seat in row for c in seat] + adapted["draw"]
    assert Counter(everything) == Counter(f"{r}{s}" for r in "23456789TJQKA" for s in "SHDC")
    assert set(deal["face_down"][0]) <= set(adapted["face_down"][0])  # a seat kept keeps its cards where it can
    engine = CheckedEngine(ReferenceEngine())
    engine.new_game("idiot", 2, 1, smaller[0].options)
    assert engine.apply(adapted)["phase"] == "swap"  # a deal the engine takes


def test_fresh_deals_played_on_find_a_shorter_game() -> None:
    from ruleproof.run.minimize import FRESH_DEALS, Played

    events = [new_game(players=4), deal("recorded"), *[play(f"m{i}") for i in range(40)]]
    lucky = FRESH_DEALS - 2  # only this seed's deal, at two players, breaks the rule within a few moves

    tables: list[int] = []

    def fresh(setup: Setup, seed: int) -> Any:
        tables.append(setup.players)
        return {"type": "deal", "hands": [[f"seed{seed}/{setup.players}"]]}

    def lenient(candidate: Trace, limit: int) -> Played | None:
        """Plays the candidate, then moves of its own; the rule breaks 40 moves after the recorded
        deal, 3 moves after the lucky one at two players, never after another."""
        tag = candidate.events[1].value["hands"][0][0]
        after = {"recorded": 40, f"seed{lucky}/2": 3}.get(tag)
        if after is None or 2 + after > limit:
            return None
        played = list(candidate.events[: 2 + after])
        played += [play(f"on{i}") for i in range(2 + after - len(played))]
        origin = [i if i < len(candidate.events) else -1 for i in range(len(played))]
        return Played(tuple(played), tuple(origin))

    def smaller(setup: Setup) -> list[Setup]:
        return [Setup(setup.game, n, 0, setup.options) for n in range(2, setup.players)]

    keep = lambda deal, setup: deal  # noqa: E731 - the recorded deal fits any table here
    result = run(events, needs(violation=play("never")), lenient=lenient, fresh=fresh, setups=smaller, adapt=keep)
    assert result.trace.events[0].value["players"] == 2
    assert result.trace.events[1].value["hands"] == [[f"seed{lucky}/2"]]
    assert len(result.trace.events) == 5
    # once a deal at a smaller table is kept, no deal at the trace's first table (4 players) is tried
    assert 4 not in tables and tables.count(3) == FRESH_DEALS, tables


def test_idiot_fresh_deals_are_valid_and_play_on_makes_progress() -> None:
    from ruleproof.properties import properties_for
    from ruleproof.properties.base import Ledger
    from ruleproof.properties.snapshot import Snapshot
    from ruleproof.reference import ReferenceEngine
    from ruleproof.transport.checked import CheckedEngine

    props = properties_for("idiot")
    setup = Setup("idiot", 2, 0, {"decks": 1})
    deals = [props.fresh_deal(setup, seed) for seed in range(3)]
    assert deals[0] == props.fresh_deal(setup, 0) and deals[0] != deals[1]  # seeded: the same seed, the same deal
    engine = CheckedEngine(ReferenceEngine())
    engine.new_game("idiot", 2, 0, {"decks": 1})
    state = engine.apply(deals[0])
    snap = Snapshot(state, tuple(engine.legal_moves()))
    assert snap.phase == "swap" and snap.moves[0]["type"] == "swap"  # the first listed would swap back and forth
    assert props(setup, Ledger()).play_on(snap) == {"type": "ready"}


def test_recall_answers_what_the_engine_answered_at_the_same_position_without_a_call() -> None:
    """The minimizer's replays through ``Recall``: a candidate replayed again costs no call; one that
    shares its beginning with an earlier one costs only the moves that bring the engine there and what
    is new; and every replay plays what a replay on the engine itself plays, even after the engine was
    driven elsewhere in between."""
    from ruleproof.run.minimize import lenient_replay
    from ruleproof.run.recall import Recall
    from ruleproof.run.replay import replay

    engine, props, clause, trace, _ = _mutant_case("SpadeHonoursUnderStandard")
    recall = Recall(engine)
    direct, recalled = lenient_replay(engine, props, clause), lenient_replay(recall, props, clause)
    cut = Trace(trace.game, trace.events[: len(trace.events) - 5])
    limit = len(trace.events) + 60
    before = engine.calls
    fresh = direct(cut, limit)
    fresh_calls = engine.calls - before
    assert fresh is not None

    before = engine.calls
    assert recalled(cut, limit) == fresh
    assert engine.calls - before == fresh_calls, "nothing known yet: every call made"
    before = engine.calls
    assert recalled(cut, limit) == fresh
    assert engine.calls == before, "the same replay again: answered from what the engine said"

    replay(trace, engine, props)  # the engine driven elsewhere: the recall's idea of where it is is stale
    shorter = Trace(trace.game, trace.events[: len(trace.events) - 9])
    before = engine.calls
    again = recalled(shorter, limit)
    recalled_calls = engine.calls - before
    before = engine.calls
    assert again == direct(shorter, limit)
    assert 0 < recalled_calls < engine.calls - before, "the known beginning costs its moves alone"
