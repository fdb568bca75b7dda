"""Fixtures as data: a scripted scenario in JSON (``fixtures/GAME/*.json``, schema
``schemas/fixture.json``), how one is read, and the variants it runs under.

A fixture names a setup (only the options it depends on) and a list of steps: moves to apply,
moves that must be rejected, expectations on the state and the legal moves, and ``auto``
stretches that play the least legal move until a state is reached; its ``clauses`` are its focus.
Running one is ``ruleproof.run.fixtures``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from attrs import evolve, field, frozen

from ruleproof.model import schema
from ruleproof.model.engine import JSONObject
from ruleproof.model.errors import InputFileError
from ruleproof.model.games import BY_NAME


class FixtureError(InputFileError):
    """A fixture file that is not a valid fixture (names the file and field)."""


@frozen
class Fixture:
    id: str
    game: str
    title: str
    clauses: tuple[str, ...]
    setup: JSONObject
    steps: tuple[JSONObject, ...]
    path: str
    # other values of house options under which the script holds unchanged (``holds_under``), and the house
    # options a variant was given a value for that the fixture does not name (``variants``)
    holds_under: Mapping[str, tuple[Any, ...]] = field(factory=dict)
    house_sent: tuple[str, ...] = ()

    @classmethod
    def parse(cls, data: Any, path: str) -> Fixture:
        try:
            schema.check("fixture", None, data, f"fixture {path}")
        except schema.SchemaError as err:
            raise FixtureError(str(err)) from None
        return cls(
            data["id"],
            data["game"],
            data["title"],
            tuple(data["clauses"]),
            data["setup"],
            tuple(data["steps"]),
            path,
            {k: tuple(v) for k, v in (data.get("holds_under") or {}).items()},
        )


def load_file(path: str | Path) -> Fixture:
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise FixtureError(f"fixture {p}: not JSON ({err})") from None
    return Fixture.parse(data, str(p))


def bundled(game: str) -> list[Fixture]:
    """The fixtures shipped with the kit for ``game``, in file-name order."""
    if game not in BY_NAME:
        return []
    folder = resources.files("ruleproof.fixtures").joinpath(BY_NAME[game].fixtures)
    if not folder.is_dir():
        return []
    out = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            try:
                data = json.loads(entry.read_text(encoding="utf-8"))
            except json.JSONDecodeError as err:
                raise FixtureError(f"fixture {game}/{entry.name}: not JSON ({err})") from None
            fx = Fixture.parse(data, f"{game}/{entry.name}")
            if fx.game != game:
                raise FixtureError(f"fixture {fx.path}: game is {fx.game!r}, but it lies in folder {game!r}")
            out.append(fx)
    return out


def house_values(fx: Fixture, declared: JSONObject, house: Mapping[str, Any]) -> dict[str, Any]:
    """The value sent for each house option the fixture does not name and the engine declares: its default
    (the rule the script was written for), else the first value of ``holds_under`` the engine declares, else
    the default still (which the engine does not declare: ``unsupported_reason`` skips the fixture)."""
    declared_options = declared.get("options") or {}
    named = fx.setup.get("options") or {}
    out = {}
    for name, default in house.items():
        allowed = declared_options.get(name)
        if name in named or not isinstance(allowed, list):
            continue
        held = [v for v in fx.holds_under.get(name, ()) if _among(v, allowed)]
        out[name] = default if _among(default, allowed) or not held else held[0]
    return out


def _among(value: Any, allowed: list[Any]) -> bool:
    return any(type(value) is type(a) and value == a for a in allowed)  # True is not 1


def _shown(name: str, value: Any) -> str:
    return f"{name}={json.dumps(value) if not isinstance(value, str) else value}"


def variants(fx: Fixture, declared: JSONObject, house: Mapping[str, Any] | None = None) -> list[Fixture]:
    """``fx`` once per declared value of each option it does not name (it names those it depends on).

    The game's ``house`` options (house rules, each with its default) are never varied: a fixture that
    does not name one scripts the documents' rule, the default, and it is sent to an engine that declares
    the option.  An engine that declares only other values of it runs the fixture under the first of its
    ``holds_under`` values it declares (named in the id, e.g. ``I-D4-ten-on-ace[transparent=3]``), or cannot run it.
    An engine that does not declare the option is not sent it (it plays the default).

    A fixture that leaves ``after_burn`` out must hold under ``next`` and
    ``burner`` alike, so an engine declaring only one of them still runs it.
    Values are cycled together (run k takes each option's k-th value), so every
    declared value is used once without multiplying the runs.  Integer ranges
    are not enumerated: an option left out is not sent, and the engine's
    default applies.  The first run keeps the fixture's id (but for a ``holds_under`` value), the others
    add the values they run under, e.g. ``B-D3[scoring=spades]``.
    """
    house = house or {}
    sent = house_values(fx, declared, house)
    named = {**sent, **(fx.setup.get("options") or {})}
    free = {
        name: [v for v in values if v != "custom"]  # "custom" only declares that explicit values are accepted
        for name, values in (declared.get("options") or {}).items()
        if name not in named and name not in house and isinstance(values, list)
    }
    free = {name: values for name, values in free.items() if values}
    held = [_shown(n, v) for n, v in sent.items() if v != house[n]]
    runs = max((len(v) for v in free.values()), default=1)
    out = []
    for k in range(runs):
        chosen = {name: values[k % len(values)] for name, values in free.items()}
        suffix = ",".join([*held, *(_shown(n, v) for n, v in chosen.items() if len(free[n]) > 1 and k)])
        setup = {**fx.setup, "options": {**named, **chosen}}
        out.append(evolve(fx, id=f"{fx.id}[{suffix}]" if suffix else fx.id, setup=setup, house_sent=tuple(sent)))
    return out


def unsupported_reason(fx: Fixture, declared: JSONObject) -> str | None:
    """Why the engine's ``hello`` rules this fixture out, or None."""
    if fx.setup["players"] not in declared.get("players", []):
        return f"players={json.dumps(fx.setup['players'])} not declared"
    options = declared.get("options", {})
    for name, value in (fx.setup.get("options") or {}).items():
        allowed = options.get(name)
        if allowed is None:
            return f"option {name} not declared"
        if isinstance(allowed, dict):
            if not (isinstance(value, int) and allowed["min"] <= value <= allowed["max"]):
                return f"{name}={json.dumps(value)} outside the declared range"
        elif isinstance(value, dict):
            if "custom" not in allowed:
                return f"{name}: explicit values not declared"
        elif not _among(value, allowed):
            held = " (the script holds under no value the engine declares)" if name in fx.house_sent else ""
            return f"{name}={json.dumps(value)} not declared{held}"
    return None
