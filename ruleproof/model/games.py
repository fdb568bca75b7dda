"""The game registry: one frozen ``GameSpec`` per game, the one list of the games the kit knows.

Everything that lists the games derives from ``SPECS``: ``ruleproof.GAMES``, the
reference rules (``ruleproof.reference.RULES``), the properties
(``ruleproof.properties.PROPERTIES``), the mutant gallery (tests/mutants), the
game enums of the JSON Schemas (checked against it by tests/test_registry.py)
and the traceability test.  Adding a game is its own modules plus one entry
here (docs/contributing.md).
"""

from __future__ import annotations

from typing import Literal

from attrs import Factory, field, frozen

CONTRACT_PREFIX = "CONTRACT-"  # the contract's own clauses (docs/rules/contract.md), shared by every game
CONTRACT_DOC = "contract.md"


Notation = Literal["card", "fool", "tile"]  # how the game writes a piece (protocol.md §4)


@frozen
class Layout:
    """Which zones a game's table has and how each is drawn (ruleproof/output/table.py)."""

    seat_zones: tuple[str, ...]  # zones "NAME/SEAT", in display order
    shown: tuple[str, ...]  # shared zones drawn piece by piece
    counted: tuple[str, ...]  # shared piles shown as a count (their order rarely matters to a reader)
    seat_fields: tuple[str, ...] = ()  # top-level lists indexed by seat, shown on the seat's row


@frozen
class GameSpec:
    """Where each piece of one game lives.

    ``rules`` and ``properties`` are ``"module:Class"`` references, imported only
    when used; ``mutants`` is the gallery module, which only the tests import.
    ``schema`` is a file in ``ruleproof/schemas/``, ``fixtures`` a folder in
    ``fixtures/`` (package ``ruleproof.fixtures``) and ``rules_doc`` a document
    in ``docs/rules/`` (package ``ruleproof.rules``); all three default to the
    game's name, the names the loaders look up.
    """

    name: str  # the contract's game name, as in new_game
    prefix: str  # every clause ID of the game starts with it
    rules: str  # the reference rules
    properties: str  # the rules stated as properties
    mutants: str  # the mutant gallery (tests only)
    notation: Notation  # "card": a standard deck ("QS"); "fool": FOOL!'s ("G27", "1"); "tile": dominoes ("6-4")
    layout: Layout  # how reports draw its table
    title: str = field(default=Factory(lambda self: self.name, takes_self=True))  # the game's name in prose
    schema: str = field(default=Factory(lambda self: f"{self.name}.json", takes_self=True))
    fixtures: str = field(default=Factory(lambda self: self.name, takes_self=True))
    rules_doc: str = field(default=Factory(lambda self: f"{self.name}.md", takes_self=True))


# in the contract's order (protocol.md), which is the order of every report
SPECS: tuple[GameSpec, ...] = (
    GameSpec(
        name="black-maria",
        prefix="BM-",
        rules="ruleproof.reference.black_maria:BlackMaria",
        properties="ruleproof.properties.black_maria:BlackMariaProperties",
        mutants="tests.mutants.black_maria",
        notation="card",
        layout=Layout(("hand", "passing", "won"), ("trick", "removed"), ("deck",)),
        title="Black Maria",
    ),
    GameSpec(
        name="idiot",
        prefix="IDIOT-",
        rules="ruleproof.reference.idiot:Idiot",
        properties="ruleproof.properties.idiot:IdiotProperties",
        mutants="tests.mutants.idiot",
        notation="card",
        layout=Layout(("hand", "face_up", "face_down"), ("discard",), ("draw", "burned", "deck")),
        title="Idiot",
    ),
    GameSpec(
        name="fool",
        prefix="FOOL-",
        rules="ruleproof.reference.fool:Fool",
        properties="ruleproof.properties.fool:FoolProperties",
        mutants="tests.mutants.fool",
        notation="fool",
        layout=Layout(("hand",), ("trick",), ("played", "unused", "deck"), ("tens", "penalties")),
        title="Fool",
    ),
    GameSpec(
        name="moon",
        prefix="MOON-",
        rules="ruleproof.reference.moon:Moon",
        properties="ruleproof.properties.moon:MoonProperties",
        mutants="tests.mutants.moon",
        notation="tile",
        layout=Layout(("hand", "won"), ("trick", "widow", "discarded"), ("deck",)),
        title="Three-Player Moon",
    ),
)

BY_NAME: dict[str, GameSpec] = {s.name: s for s in SPECS}


def spec(game: str) -> GameSpec:
    """The spec of ``game`` (KeyError for a game the kit does not know)."""
    return BY_NAME[game]


def clause_prefixes() -> tuple[str, ...]:
    """Every clause prefix: each game's, then the contract's."""
    return (*(s.prefix for s in SPECS), CONTRACT_PREFIX)
