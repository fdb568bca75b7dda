"""The rules of each game stated as properties, independently of the reference.

One module per game holds a ``GameProperties`` subclass: the checks (each
citing its clause IDs), the setups and deals to draw and the forbidden moves
to try.  ``machinery`` holds what they share, ``machine`` the Hypothesis state
machine that drives an engine under them.
"""

from __future__ import annotations

import importlib

from ruleproof.properties.machinery import GameProperties

PROPERTIES = {
    "black-maria": "ruleproof.properties.black_maria:BlackMariaProperties",
    "idiot": "ruleproof.properties.idiot:IdiotProperties",
    "fool": "ruleproof.properties.fool:FoolProperties",
    "moon": "ruleproof.properties.moon:MoonProperties",
}


def properties_for(game: str) -> type[GameProperties]:
    """The properties class of ``game``."""
    module, _, cls = PROPERTIES[game].partition(":")
    return getattr(importlib.import_module(module), cls)


def available_games() -> list[str]:
    """Games whose properties module is present."""
    found = []
    for game in PROPERTIES:
        try:
            properties_for(game)
        except ModuleNotFoundError as exc:
            if not (exc.name or "").startswith("ruleproof.properties."):
                raise
        else:
            found.append(game)
    return found
