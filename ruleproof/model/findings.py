"""The failure and trace model: what a check found, and the moves that show it.

A ``Finding`` names the clause a transition broke, with a sentence and
expected versus got.  A ``Trace`` is the exact sequence of calls that led to
it (``new_game``, moves applied, moves that had to be rejected), replayable
against any engine by ``ruleproof replay``.  A ``Setup`` is the ``new_game``
request.  Nothing here knows a game's rules.
"""

from __future__ import annotations

import re
from typing import Any

from attrs import frozen

from ruleproof.model.engine import JSONObject
from ruleproof.model.errors import InputFileError

TRACE_FORMAT = 1
EVENT_KINDS = ("new_game", "apply", "reject")


class TraceError(InputFileError):
    """A trace file that cannot be replayed (names the field that is wrong)."""


@frozen
class Finding:
    """What a check found: the clause, a sentence, expected versus got.

    ``signature`` tells this violation's cause from other causes of the same clause: the check that
    found it, the sub-case, and the ranks or cards involved where they matter ("Q on K" is not
    "5 on anything").  A run keeps a counterexample of each of a few signatures per clause.
    """

    clause: str
    message: str
    expected: Any = None
    got: Any = None
    signature: str = ""
    # the parts of the state or listing where the difference shows (``ruleproof.model.observed``): two
    # findings of one step are one deviation only when these overlap; a later finding follows an earlier
    # one that left the rules only when it observed something that one touched
    observed: frozenset[str] = frozenset()
    # the part of the clause broken, when the clause states several (BM-LEAD-2: "no hearts-broken rule",
    # "no first-trick restriction"): two causes of one clause under different rules are two deviations
    rule: str = ""

    def to_json(self) -> JSONObject:
        out = {"clause": self.clause, "message": self.message, "expected": self.expected, "got": self.got}
        if self.signature:
            out["signature"] = self.signature
        if self.rule:
            out["rule"] = self.rule
        if self.observed:
            out["observed"] = sorted(self.observed)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Finding:
        if not isinstance(data, dict) or not isinstance(data.get("clause"), str):
            raise TraceError("violation: must be an object with a string `clause`")
        signature = data.get("signature")
        observed = data.get("observed")
        return cls(
            data["clause"],
            str(data.get("message", "")),
            data.get("expected"),
            data.get("got"),
            signature if isinstance(signature, str) else "",
            frozenset(str(a) for a in observed) if isinstance(observed, list) else frozenset(),
            str(data.get("rule") or ""),
        )

    @property
    def key(self) -> tuple[str, str]:
        """The clause and the cause: what a kept counterexample stands for."""
        return self.clause, self.signature


# card, tile and Fool card names and numbers, dropped from a message to give its sub-case
_VALUES = re.compile(r"\b(?:[2-9TJQKA][CDHS]|\d-\d|[GRYB]\d+|\d+)\b")


def message_shape(message: str) -> str:
    """A message with its values (cards, tiles, seats, counts) taken out: the sub-case it states."""
    return " ".join(_VALUES.sub("#", message).split())[:120]


class Violation(AssertionError):
    """A fixture expectation that did not hold; carries its finding.

    Properties never raise this: they record findings and go on (see
    ``ruleproof.record``).  Fixture steps raise it to end the fixture.
    """

    def __init__(self, finding: Finding, trace: Trace | None = None) -> None:
        super().__init__(f"{finding.clause}: {finding.message}")
        self.finding = finding
        self.trace = trace
        self.step = 0  # the fixture step (1-based) whose expectation did not hold


@frozen
class Setup:
    """The ``new_game`` parameters."""

    game: str
    players: int
    dealer: int
    options: JSONObject

    def to_json(self) -> JSONObject:
        return {"game": self.game, "players": self.players, "dealer": self.dealer, "options": self.options}

    @classmethod
    def from_json(cls, data: Any) -> Setup:
        if not isinstance(data, dict):
            raise TraceError("new_game: must be an object")
        for name, kind in (("game", str), ("players", int), ("dealer", int)):
            if not isinstance(data.get(name), kind) or isinstance(data.get(name), bool):
                raise TraceError(f"new_game.{name}: must be {'a string' if kind is str else 'an integer'}")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise TraceError("new_game.options: must be an object")
        return cls(data["game"], data["players"], data["dealer"], dict(options))


@frozen
class Event:
    """One line of a trace: a game started, a move applied, or a move that must be rejected."""

    kind: str  # "new_game" | "apply" | "reject"
    value: JSONObject
    clause: str | None = None  # for "reject": the clause the move breaks

    def to_json(self) -> JSONObject:
        out: JSONObject = {self.kind: self.value}
        if self.clause:
            out["clause"] = self.clause
        return out

    @classmethod
    def from_json(cls, data: Any) -> Event:
        if isinstance(data, dict):
            for kind in EVENT_KINDS:
                if kind in data:
                    if not isinstance(data[kind], dict):
                        raise TraceError(f"step {kind}: must be an object")
                    return cls(kind, data[kind], data.get("clause"))
        raise TraceError(f"a step must be an object with one of {', '.join(EVENT_KINDS)}; got {str(data)[:80]}")


@frozen
class Trace:
    """A replayable sequence of events, and the clause it violated (if any)."""

    game: str
    events: tuple[Event, ...]
    finding: Finding | None = None

    def moves(self) -> list[JSONObject]:
        return [e.to_json() for e in self.events]

    def to_json(self) -> JSONObject:
        return {
            "ruleproof_trace": TRACE_FORMAT,
            "game": self.game,
            "violation": self.finding.to_json() if self.finding else None,
            "steps": self.moves(),
        }

    @classmethod
    def from_json(cls, data: Any) -> Trace:
        """Parse a trace file's JSON; ``TraceError`` names what is wrong."""
        if not isinstance(data, dict):
            raise TraceError("a trace must be a JSON object with `game` and `steps`")
        if not isinstance(data.get("game"), str):
            raise TraceError("game: missing, or not a string")
        steps = data.get("steps")
        if not isinstance(steps, list) or not steps:
            raise TraceError("steps: must be a non-empty list")
        events = tuple(Event.from_json(s) for s in steps)
        if events[0].kind != "new_game":
            raise TraceError("steps[0]: a trace starts with new_game")
        for event in events:
            if event.kind == "new_game":
                Setup.from_json(event.value)
        v = data.get("violation")
        return cls(data["game"], events, Finding.from_json(v) if v else None)

    def games(self) -> list[tuple[int, int]]:
        """(start, end) index ranges of the games in this trace."""
        starts = [i for i, e in enumerate(self.events) if e.kind == "new_game"]
        return list(zip(starts, [*starts[1:], len(self.events)], strict=True))
