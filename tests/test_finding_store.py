"""The store keeps each cause's shallowest and shallowest clean counterexample, and the time of its first one."""

from __future__ import annotations

from ruleproof.model.findings import Event, Finding, Trace
from ruleproof.run.causes import MAX_CAUSES, FindingStore


class FakeSession:
    """What the store reads of a session: the trace so far, how deep into its game it is, what came before."""

    def __init__(self, moves: int, earlier: int = 0, prior: frozenset[str] = frozenset()) -> None:
        new_game = Event("new_game", {"game": "idiot", "players": 2, "dealer": 0, "options": {}})
        move = Event("apply", {"type": "ready"})
        self.events = [new_game, *[move] * earlier, new_game, *[move] * moves]
        self.moves = moves
        self.prior = prior

    def moves_in_game(self) -> int:
        return self.moves

    def prior_for(self, finding: Finding) -> frozenset[str]:
        return self.prior - {finding.clause}

    def trace(self, finding: Finding | None = None) -> Trace:
        return Trace("idiot", tuple(self.events), finding)


def sink(store: FindingStore, clause: str, session: FakeSession, note: str, signature: str = "check:x") -> None:
    store.sink(Finding(clause, note, signature=signature), session)  # type: ignore[arg-type]


def test_the_shallowest_occurrence_is_kept_with_the_first_ones_time() -> None:
    store = FindingStore(started=0.0)
    sink(store, "IDIOT-X-1", FakeSession(moves=40), "first")
    seconds = store.causes["IDIOT-X-1", "check:x"].first_seconds
    sink(store, "IDIOT-X-1", FakeSession(moves=9, earlier=300), "shallow, in a long example")
    sink(store, "IDIOT-X-1", FakeSession(moves=20), "deeper again")
    cause = store.causes["IDIOT-X-1", "check:x"]
    assert cause.kept.finding.message == "shallow, in a long example"
    assert len(cause.kept.trace.events) == 1 + 300 + 1 + 9  # the whole example: an engine may carry state
    assert (cause.kept.source, cause.first_seconds) == ("properties", seconds)
    assert cause.count == 3 and store.counts["IDIOT-X-1"] == 3


def test_a_clean_occurrence_is_kept_beside_a_shallower_one_after_another_violation() -> None:
    store = FindingStore(started=0.0)
    sink(store, "IDIOT-X-1", FakeSession(moves=5, prior=frozenset({"IDIOT-INV-1"})), "after a broken invariant")
    cause = store.causes["IDIOT-X-1", "check:x"]
    assert cause.clean is None and cause.earlier == {"IDIOT-INV-1"}
    sink(store, "IDIOT-X-1", FakeSession(moves=30), "on its own")
    assert cause.clean is not None and cause.clean.finding.message == "on its own"
    assert cause.start is cause.clean  # what the minimizer starts from: the independent one
    assert cause.earlier == frozenset()  # not before it every time: it may stand on its own


def test_distinct_causes_of_one_clause_are_kept_apart_up_to_a_limit() -> None:
    store = FindingStore(started=0.0)
    for k in range(MAX_CAUSES + 2):
        sink(store, "IDIOT-PLAY-2", FakeSession(moves=3), f"cause {k}", signature=f"legal_moves:{k}")
    assert len(store.causes) == MAX_CAUSES
    assert store.counts["IDIOT-PLAY-2"] == MAX_CAUSES + 2  # every violation counted all the same


def test_a_fixtures_counterexample_is_replaced_only_by_a_clean_one() -> None:
    store = FindingStore(started=0.0)
    store.source = "fixture:F-1"
    sink(store, "IDIOT-X-1", FakeSession(moves=30), "the fixture's")
    store.source = "properties"
    sink(store, "IDIOT-X-1", FakeSession(moves=2, prior=frozenset({"IDIOT-INV-5"})), "shallower, after another")
    assert store.causes["IDIOT-X-1", "check:x"].kept.source == "fixture:F-1"
    # a fixture's counterexample that came after another deviation gives way to a clean one
    store.source = "fixture:F-2"
    sink(store, "IDIOT-Y-1", FakeSession(moves=30, prior=frozenset({"IDIOT-INV-5"})), "after a deviation")
    store.source = "properties"
    sink(store, "IDIOT-Y-1", FakeSession(moves=40), "clean")
    assert store.causes["IDIOT-Y-1", "check:x"].kept.finding.message == "clean"
