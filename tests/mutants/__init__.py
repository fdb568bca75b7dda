"""The mutant gallery: the reference with one plausible bug each.

Every mutant is a subclass of a reference ``Rules`` class that overrides one
method, registered with the clause it breaks.  The kit's tests certify each
mutant and require a failure of that clause; the kill matrix in
``docs/kill-matrix.md`` is generated from this registry.

Certify one from the command line with its ``engine`` factory::

    ruleproof certify --game black-maria --engine tests.mutants.black_maria:PassLeft.engine
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, TypeVar

from attrs import frozen

from ruleproof.model.games import SPECS
from ruleproof.reference.base import ReferenceEngine, Rules

R = TypeVar("R", bound=type)

MODULES = {s.name: s.mutants for s in SPECS}  # game -> its gallery module (ruleproof.model.games)


@frozen
class Mutant:
    """One mutant engine: which game, which clause it breaks, and how."""

    name: str
    game: str
    clause: str
    description: str
    rules: type

    def engine(self) -> ReferenceEngine:
        return ReferenceEngine([self.rules()], name=f"mutant:{self.name}")


class ListsByTheRules:
    """Mixin for a mutant whose ``legal_moves`` keeps the rules while ``apply`` does not.

    The rule methods both share see ``self.listing`` set while ``legal_moves`` runs, so a
    mutant can answer by the rules there and break them on ``apply`` only: a bug that only
    an accepted probe, judged on the transition it makes, can show.
    """

    listing = False

    def legal_moves(self, state: Any) -> list[dict[str, object]]:
        self.listing = True
        try:
            return super().legal_moves(state)  # type: ignore[misc,no-any-return]
        finally:
            self.listing = False


REGISTRY: dict[str, Mutant] = {}


def mutant(clause: str, description: str) -> Callable[[R], R]:
    """Register a ``Rules`` subclass as the mutant breaking ``clause``."""

    def register(cls: R) -> R:
        rules: Any = cls
        m = Mutant(name=cls.__name__, game=rules.game, clause=clause, description=description, rules=cls)
        if m.name in REGISTRY:
            raise ValueError(f"two mutants named {m.name}")
        REGISTRY[m.name] = m
        cls.engine = staticmethod(m.engine)  # type: ignore[attr-defined]
        return cls

    return register


def all_mutants(game: str | None = None) -> list[Mutant]:
    """Every registered mutant (of one game), importing the gallery modules."""
    for g, module in MODULES.items():
        if game in (None, g):
            importlib.import_module(module)
    return [m for m in REGISTRY.values() if game in (None, m.game)]


__all__ = ["REGISTRY", "Mutant", "Rules", "all_mutants", "mutant"]
