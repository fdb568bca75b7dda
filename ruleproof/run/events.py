"""What a certification tells its outputs while it runs: typed events, handed to every handler.

The run emits them (``ruleproof.run.runner`` per game, the command for the whole run); the outputs
(``ruleproof.output``: progress lines, the terminal report, the certificate, JUnit, HTML, the markdown
summary) and the pytest plugin are handlers, each reading the events it cares about.  Adding an output
is one handler module; nothing in the run changes.  Modelled on Schemathesis's engine events.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from attrs import frozen

if TYPE_CHECKING:
    from ruleproof.model.certificate import Certificate
    from ruleproof.model.report import GameReport


@frozen
class RunStarted:
    """The engine answered ``hello``; these games will be certified, in this order."""

    engine: dict[str, Any]
    games: tuple[str, ...]
    profile: str


@frozen
class GameStarted:
    game: str
    examples: int  # the exploration's budget, in Hypothesis examples
    steps: int  # steps per example (one in four examples runs four times as many)


@frozen
class StageStarted:
    """A stage of one game's certification: smoke, fixtures, exploring, minimizing, confirming."""

    game: str
    stage: str
    detail: str = ""  # e.g. the fixture's id


@frozen
class Explored:
    """One more example of the exploration done (examples, steps and calls so far in this game)."""

    game: str
    examples: int
    of: int
    steps: int
    calls: int
    failing: int  # clauses that have failed so far in this game


@frozen
class Estimated:
    """After the smoke stage and the fixtures: what one engine call cost there (the kit's checks of its
    step included) and, at that cost, how long the exploration will take on one worker, and at most
    with minimizing (a failing engine).  A measure of time, never a budget: it decides nothing."""

    game: str
    seconds_per_call: float
    calls: int  # the exploration's expected engine calls at the profile
    seconds: float  # the exploration's expected length
    at_most: float  # ... with minimizing at its full budget (an engine that fails clauses)


@frozen
class ClauseFailed:
    """A clause failed for the first time in this game."""

    game: str
    clause: str
    message: str


@frozen
class GameFinished:
    report: GameReport


@frozen
class RunFinished:
    """The run is over (passed, failed, broken or interrupted): the certificate every file is made from."""

    certificate: Certificate


Event: TypeAlias = (
    RunStarted | GameStarted | StageStarted | Estimated | Explored | ClauseFailed | GameFinished | RunFinished
)
Emit = Callable[[Event], None]


class Handler(Protocol):
    """An output: told every event, in order."""

    def handle(self, event: Event) -> None: ...


def nothing(event: Event) -> None:
    """The default ``emit``: a run nobody watches."""


def to_all(handlers: Sequence[Handler]) -> Emit:
    """One ``emit`` that tells each handler, in order."""

    def emit(event: Event) -> None:
        for handler in handlers:
            handler.handle(event)

    return emit
