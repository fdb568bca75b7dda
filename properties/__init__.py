"""The rules of each game stated as properties, independently of the reference.

One module per game holds a ``GameProperties`` subclass: the checks (each
citing its clause IDs), the setups and deals to draw and the forbidden moves
to try.  ``machinery`` holds what they share, ``machine`` the Hypothesis state
machine that drives an engine under them.
"""

from __future__ import annotations

from ruleproof.properties.machinery import GameProperties

from ruleproof.engine import load_factory

PROPERTIES = {
    "black-maria": "ruleproof.properties.black_maria:BlackMariaProperties",
    "idiot": "ruleproof.properties.idiot:IdiotProperties",
    "fool": "ruleproof.properties.fool:FoolProperties",
    "moon": "ruleproof.properties.moon:MoonProperties",
}


def properties_for(game: str) -> type[GameProperties]:
    """The properties class of ``game``."""
    return load_factory(PROPERTIES[game])  # type: ignore[return-value]


def available_games() -> list[str]:
    """The games the kit has properties for, in contract order."""
    return list(PROPERTIES)
