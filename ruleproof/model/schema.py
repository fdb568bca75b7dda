"""JSON Schemas of the contract, shipped in ``ruleproof/schemas``.

One file per game (``$defs.move`` and ``$defs.state``), ``protocol.json`` for
``hello``, ``fixture.json`` and ``trace.json`` for the kit's own files.
Validation runs on every value an engine returns, so it uses the compiled
``jsonschema_rs`` validators, built once per schema.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

import jsonschema_rs

from ruleproof.model.games import BY_NAME


class SchemaError(ValueError):
    """A value does not match its schema; ``path`` names the offending field."""

    def __init__(self, what: str, path: str, message: str) -> None:
        super().__init__(f"{what} at {path or '<root>'}: {message}")
        self.what, self.path, self.detail = what, path, message


@functools.cache
def load(name: str) -> dict[str, Any]:
    """The parsed schema ``NAME``: a game's (its ``GameSpec.schema``) or ``schemas/NAME.json``."""
    file = BY_NAME[name].schema if name in BY_NAME else f"{name}.json"
    text = resources.files("ruleproof").joinpath("schemas", file).read_text(encoding="utf-8")
    parsed: dict[str, Any] = json.loads(text)
    if "game" in parsed.get("$defs", {}):  # the games are the registry's, not a list kept in each file
        parsed["$defs"]["game"]["enum"] = list(BY_NAME)
    return parsed


@functools.cache
def validator(name: str, definition: str | None = None) -> Any:
    """A compiled validator for a whole schema file or one of its ``$defs``."""
    schema = load(name)
    if definition == "moves":  # a legal_moves list: every item a move
        schema = {"type": "array", "items": {"$ref": "#/$defs/move"}, "$defs": schema["$defs"]}
    elif definition is not None:
        schema = {"$ref": f"#/$defs/{definition}", "$defs": schema["$defs"]}
    return jsonschema_rs.validator_for(schema)


@functools.cache
def contract_fields(game: str) -> frozenset[str]:
    """The STATE fields the contract defines for ``game`` (common and the game's own); any other top-level
    field is the engine's own extension, which no contract clause compares (docs/protocol.md §8)."""
    return frozenset(load(game)["$defs"]["state"]["properties"])


def json_path(parts: Any) -> str:
    """``["zones", "hand/0", 3]`` -> ``zones["hand/0"][3]`` (fields as written)."""
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif p.isidentifier():
            out += f".{p}" if out else p
        else:
            out += f"[{json.dumps(p)}]"
    return out


def check(name: str, definition: str | None, value: Any, what: str) -> None:
    """Raise ``SchemaError`` naming the first offending field, if any."""
    v = validator(name, definition)
    if v.is_valid(value):
        return
    first = next(iter(v.iter_errors(value)))
    raise SchemaError(what, json_path(first.instance_path), first.message)
