"""``ruleproof fixtures --from-trace TRACE``: pin a failure found once as a fixture, for good.

The trace's game is replayed on the reference engine (the kit's second,
independent reading of the clauses).  Every move before the violating step
becomes a scripted step; at the violating step the fixture asserts what the
rules expect there:

- the step applied a move the reference refuses: the move must be absent from
  ``legal_moves`` and rejected;
- the step was a move the engine should have rejected: it must be rejected;
- otherwise: the legal moves before the step, and the whole state and the
  legal moves after it, must be the reference's (zones compare as multisets).

The game's properties also check every transition of a fixture, so the
violated clause is judged again on the way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ruleproof.model.engine import EngineError, JSONObject
from ruleproof.model.errors import InputFileError, read_user_text
from ruleproof.model.findings import Event, Trace, TraceError
from ruleproof.model.fixtures import Fixture, FixtureError
from ruleproof.run.fixtures import validate


class PinError(InputFileError):
    """A trace that cannot become a fixture; the message says why."""


def load_trace(path: str | Path) -> Trace:
    p = Path(path)
    text = read_user_text(p, PinError)
    try:
        return Trace.from_json(json.loads(text))
    except json.JSONDecodeError as err:
        raise PinError(f"{p}: not JSON ({err})") from None
    except TraceError as err:
        raise PinError(f"{p}: not a ruleproof trace ({err})") from None


def fixture_from_trace(trace: Trace, name: str) -> JSONObject:
    """The fixture JSON pinning ``trace``'s violation; ``name`` (the trace file's stem) makes its id."""
    from ruleproof.reference import ReferenceEngine

    if trace.finding is None:
        raise PinError("violation: the trace records no violated clause, so there is nothing to pin")
    clause = trace.finding.clause
    start, end = trace.games()[-1]  # the violating step is the last event; a fixture holds one game
    if len(trace.games()) > 1 and clause == "CONTRACT-DET-1":
        raise PinError("CONTRACT-DET-1 compares two games of one trace; a fixture plays one game")
    setup = trace.events[start].value
    reference = ReferenceEngine()
    try:
        reference.new_game(setup["game"], setup["players"], setup["dealer"], dict(setup.get("options") or {}))
    except EngineError as err:
        raise PinError(f"steps[{start}]: the reference refuses this setup ({err.message})") from None
    body = trace.events[start + 1 : end]
    if not body:
        raise PinError("steps: the violating game has no moves after new_game")
    steps: list[JSONObject] = []
    for offset, event in enumerate(body[:-1], start=start + 1):
        steps.append(_replayed(reference, event, offset))
    steps.extend(_pinned(reference, body[-1], clause))
    data: JSONObject = {
        "id": f"pinned-{name}",
        "game": trace.game,
        "title": f"pinned from a failure trace: {trace.finding.message[:160]}",
        "source": f"ruleproof fixtures --from-trace {name}.json (expected behaviour from the reference engine)",
        "clauses": [clause],
        "setup": {"players": setup["players"], "dealer": setup["dealer"], "options": dict(setup.get("options") or {})},
        "steps": steps,
    }
    try:
        validate(Fixture.parse(data, f"pinned-{name}.json"))
    except FixtureError as err:
        raise PinError(f"the fixture made from this trace is not valid: {err}") from None
    return data


def _replayed(reference: Any, event: Event, index: int) -> JSONObject:
    """A step before the violation: it must replay on the reference as it did on the engine."""
    if event.kind == "reject":
        try:
            reference.apply(event.value)
        except EngineError:
            return {"reject": event.value, "clause": event.clause or "CONTRACT-REJECT-1"}
        raise PinError(f"steps[{index}]: the reference accepts a move the trace has rejected; cannot pin this trace")
    try:
        reference.apply(event.value)
    except EngineError as err:
        raise PinError(
            f"steps[{index}]: the reference refuses {json.dumps(event.value)} ({err.message});"
            " an earlier step already broke a rule"
        ) from None
    return {"apply": event.value}


def _pinned(reference: Any, event: Event, clause: str) -> list[JSONObject]:
    """The violating step and the assertions that hold there by the rules."""
    move = event.value
    if event.kind == "reject":
        return [{"reject": move, "clause": event.clause or clause}]
    moves = reference.legal_moves()
    try:
        after = reference.apply(move)
    except EngineError:  # the engine took a move the rules forbid
        out: list[JSONObject] = [{"reject": move, "clause": clause}]
        if move.get("type") != "deal":
            out.insert(0, {"expect": {"legal_excludes": [move]}, "clause": clause})
        return out
    # a violation shows in the state after the step or in the moves listed before or after it: pin all three
    out = [
        {"apply": move, "clause": clause},
        {"expect": {"state": after, "legal": reference.legal_moves()}, "clause": clause},
    ]
    if moves:
        out.insert(0, {"expect": {"legal": moves}, "clause": clause})
    return out
