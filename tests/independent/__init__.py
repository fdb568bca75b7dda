"""Independent engines: a second reading of each game's rules, written without the reference.

Each module here (``black_maria``, ``idiot``, ``fool``, ``moon``) is a complete in-process
engine written from docs/rules/GAME.md and docs/protocol.md alone, never from
``ruleproof.reference`` or the properties, and it makes its own choices wherever the contract
leaves one open.  It carries a registry of planted bugs (``BUGS``), each one plausible
deviation filed under the clause it breaks, and of house rules (``HOUSE``): several deviations
at once, the way engines written elsewhere deviate.  They measure what the mutant gallery
cannot: whether a certification names one bug under its own clause on an engine that shares no
code with the kit (bench/clean_kills.py).

Certify one from the command line::

    ruleproof certify --game idiot --engine tests.independent.idiot:engine
    ruleproof certify --game idiot --engine tests.independent.idiot:bugs.strictly_higher
    ruleproof certify --game idiot --engine tests.independent.idiot:house.web_shithead
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from attrs import field, frozen


@frozen
class Bug:
    """One planted deviation: its name, the clause it breaks, and what it does."""

    name: str
    clause: str
    description: str


@frozen
class HouseRules:
    """Several deviations at once, as a real engine has them: a name and the bugs it enables, and the house
    options its ``hello`` declares for the house rules among them that the contract has an option for."""

    name: str
    bugs: tuple[str, ...]
    description: str
    declares: dict[str, list[Any]] = field(factory=dict)


class Factories:
    """``NAME.attr`` -> a factory of the engine with that bug (or house rules) enabled.

    ``--engine MODULE:bugs.NAME`` takes a factory with no arguments; this makes one per entry.
    """

    def __init__(
        self, make: Callable[..., Any], entries: Iterable[str], expand: Callable[[str], Iterable[str]]
    ) -> None:
        self._make, self._names, self._expand = make, set(entries), expand

    def __getattr__(self, name: str) -> Callable[[], Any]:
        if name.startswith("_") or name not in self._names:
            raise AttributeError(name)
        return lambda: self._make(*self._expand(name))
