"""Reference engines: one readable module per game, each a ``Rules`` object.

``ReferenceEngine()`` serves all of them through the engine contract; it is the
default engine of ``ruleproof certify``.
"""

from __future__ import annotations

from typing import Any

from ruleproof.model.engine import load_factory
from ruleproof.model.games import SPECS
from ruleproof.reference.base import ReferenceEngine, Rules

# game -> "module:class" (ruleproof.model.games); each module is the game's reference rules.
RULES = {s.name: s.rules for s in SPECS}


def rules_for(game: str) -> Rules[Any]:
    """A fresh instance of the reference rules of ``game``."""
    return load_factory(RULES[game])()  # type: ignore[return-value]


def all_rules() -> list[Rules[Any]]:
    """The reference rules of every game."""
    return [rules_for(game) for game in RULES]


__all__ = ["RULES", "ReferenceEngine", "Rules", "all_rules", "rules_for"]
