"""The rules of each game stated as properties, independently of the reference.

One module per game holds a ``GameProperties`` subclass: the checks (each
citing its clause IDs), the setups and deals to draw and the forbidden moves
to try.  What they share: ``snapshot`` (the states and transitions a check
sees), ``checks`` (the check registry), ``base`` (``GameProperties``) and
``contract`` (the contract's own clauses); ``machine`` is the Hypothesis state
machine that drives an engine under them.
"""

from __future__ import annotations

from collections.abc import Iterable

from ruleproof.model.engine import load_factory
from ruleproof.model.games import SPECS
from ruleproof.properties.base import GameProperties
from ruleproof.properties.contract import CONTRACT_CLAUSES

# game -> "module:class" (ruleproof.model.games)
PROPERTIES = {s.name: s.properties for s in SPECS}


def properties_for(game: str) -> type[GameProperties]:
    """The properties class of ``game``."""
    return load_factory(PROPERTIES[game])  # type: ignore[return-value]


def available_games() -> list[str]:
    """The games the kit has properties for, in contract order."""
    return list(PROPERTIES)


def known_clauses(games: Iterable[str]) -> dict[str, list[str]]:
    """Every clause ID a game's verdicts can carry (its table and the contract's clauses)."""
    return {g: list(dict.fromkeys([*properties_for(g).all_clauses(), *CONTRACT_CLAUSES])) for g in games}
