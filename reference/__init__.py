"""Reference engines: one readable module per game, each a ``Rules`` object.

``ReferenceEngine()`` serves all of them through the engine contract; it is the
default engine of ``ruleproof certify``.
"""

from __future__ import annotations

import importlib
from typing import Any

from ruleproof.reference.base import ReferenceEngine, Rules

# game -> "module:class"; each module is the game's reference rules.
RULES = {
    "black-maria": "ruleproof.reference.black_maria:BlackMaria",
    "idiot": "ruleproof.reference.idiot:Idiot",
    "fool": "ruleproof.reference.fool:Fool",
    "moon": "ruleproof.reference.moon:Moon",
}


def rules_for(game: str) -> Rules[Any]:
    """A fresh instance of the reference rules of ``game``."""
    module, _, cls = RULES[game].partition(":")
    return getattr(importlib.import_module(module), cls)()


def all_rules() -> list[Rules[Any]]:
    """The reference rules of every game whose module is present."""
    found = []
    for game in RULES:
        try:
            found.append(rules_for(game))
        except ModuleNotFoundError as exc:  # a game still being written
            if not (exc.name or "").startswith("ruleproof.reference."):
                raise
    return found


__all__ = ["ReferenceEngine", "Rules", "RULES", "rules_for", "all_rules"]
