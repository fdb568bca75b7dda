"""The exploration keeps each clause's shallowest counterexample, and the time of its first one."""

from __future__ import annotations

from ruleproof.findings import Event, Finding, Trace
from ruleproof.runner import FindingStore


class FakeSession:
    """What the store reads of a session: the trace so far and how deep into its game it is."""

    def __init__(self, moves: int, earlier: int = 0) -> None:
        new_game = Event("new_game", {"game": "idiot", "players": 2, "dealer": 0, "options": {}})
        move = Event("apply", {"type": "ready"})
        self.events = [new_game, *[move] * earlier, new_game, *[move] * moves]
        self.moves = moves

    def moves_in_game(self) -> int:
        return self.moves

    def trace(self, finding: Finding | None = None) -> Trace:
        return Trace("idiot", tuple(self.events), finding)


def sink(store: FindingStore, clause: str, session: FakeSession, note: str) -> None:
    store.sink(Finding(clause, note), session)  # type: ignore[arg-type]


def test_the_shallowest_occurrence_is_kept_with_the_first_ones_time() -> None:
    store = FindingStore(started=0.0)
    sink(store, "IDIOT-X-1", FakeSession(moves=40), "first")
    seconds = store.first["IDIOT-X-1"][3]
    sink(store, "IDIOT-X-1", FakeSession(moves=9, earlier=300), "shallow, in a long example")
    sink(store, "IDIOT-X-1", FakeSession(moves=20), "deeper again")
    finding, trace, source, kept_seconds = store.first["IDIOT-X-1"]
    assert finding.message == "shallow, in a long example"
    assert len(trace.events) == 1 + 300 + 1 + 9  # the whole example: an engine may carry state across games
    assert (source, kept_seconds) == ("properties", seconds)
    assert store.counts["IDIOT-X-1"] == 3


def test_a_fixtures_counterexample_is_never_replaced() -> None:
    store = FindingStore(started=0.0)
    store.source = "fixture:F-1"
    sink(store, "IDIOT-X-1", FakeSession(moves=30), "the fixture's")
    store.source = "properties"
    sink(store, "IDIOT-X-1", FakeSession(moves=2), "shallower, from the properties")
    assert store.first["IDIOT-X-1"][0].message == "the fixture's"
    assert store.first["IDIOT-X-1"][2] == "fixture:F-1"
