"""Reference engines: one readable module per game, each a ``Rules`` object.

``ReferenceEngine()`` serves all of them through the engine contract; it is the
default engine of ``ruleproof certify``.
"""

from __future__ import annotations

from typing import Any

from ruleproof.reference.base import ReferenceEngine, Rules

from ruleproof.engine import load_factory

# game -> "module:class"; each module is the game's reference rules.
RULES = {
    "black-maria": "ruleproof.reference.black_maria:BlackMaria",
    "idiot": "ruleproof.reference.idiot:Idiot",
    "fool": "ruleproof.reference.fool:Fool",
    "moon": "ruleproof.reference.moon:Moon",
}


def rules_for(game: str) -> Rules[Any]:
    """A fresh instance of the reference rules of ``game``."""
    return load_factory(RULES[game])()  # type: ignore[return-value]


def all_rules() -> list[Rules[Any]]:
    """The reference rules of every game."""
    return [rules_for(game) for game in RULES]


__all__ = ["RULES", "ReferenceEngine", "Rules", "all_rules", "rules_for"]
