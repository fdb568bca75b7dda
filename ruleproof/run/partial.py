"""A partial certificate: what ``ruleproof certify --shard K/N`` found on one machine.

Part K of N explores every N-th shard of each game (``ruleproof.run.shards.owned``), part 1 also
the head (smoke and fixtures); nothing is minimized.  ``ruleproof merge`` reads the N parts, checks
that they are the parts of one run (the same engine, profile, seed, games and versions, each part
once) and merges them as a single run merges its own parts: the certificate is the one a single
run gives.  A file that is not such a part, or a set of parts that is not one run, is a
``PartialError``: one line naming the file and what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import hypothesis
from attrs import field, frozen

from ruleproof import __version__
from ruleproof.model.engine import AdapterBroken, JSONObject
from ruleproof.model.errors import InputFileError
from ruleproof.run.shards import Found

PARTIAL_FORMAT = 1  # bumped when a field changes meaning
KEY = "ruleproof_partial"  # the field that says what the file is


class PartialError(InputFileError):
    """A file that is not a partial certificate, or parts that are not one run's."""


@frozen
class GamePart:
    """One game in a part: the engine's hello entry and the parts explored here (the head only in part 1)."""

    game: str
    declared: JSONObject
    found: tuple[Found, ...]

    @property
    def head(self) -> Found | None:
        return next((f for f in self.found if f.part == "head"), None)

    def shards(self) -> dict[int, Found]:
        return {int(f.part.split()[1]): f for f in self.found if f.part.startswith("shard ")}


@frozen
class Partial:
    """Part ``shard[0]`` of ``shard[1]`` of one certification."""

    engine: dict[str, Any]
    profile: str
    seed: int | None
    shard: tuple[int, int]
    shards: int  # the profile's shards per game
    games: tuple[str, ...]  # the games the run certifies, in order
    fixtures: bool
    properties: bool
    engine_args: tuple[str, ...]
    reports: tuple[GamePart, ...]  # the games this part got through (all, unless it was interrupted)
    broken: AdapterBroken | None = None  # the engine could not be started or answer hello
    interrupted: str | None = None  # why this part stopped early
    created: str = ""
    versions: dict[str, str] = field(factory=lambda: {"ruleproof": __version__, "hypothesis": hypothesis.__version__})

    def run_key(self) -> dict[str, Any]:
        """What every part of one run has in common."""
        return {
            "engine": self.engine if self.broken is None else None,
            "profile": self.profile,
            "seed": self.seed,
            "parts": self.shard[1],
            "shards": self.shards,
            "games": list(self.games),
            "fixtures": self.fixtures,
            "properties": self.properties,
            "ruleproof": self.versions.get("ruleproof"),
            "hypothesis": self.versions.get("hypothesis"),
        }

    def to_json(self) -> JSONObject:
        return {
            KEY: PARTIAL_FORMAT,
            "shard": f"{self.shard[0]}/{self.shard[1]}",
            "engine": self.engine,
            "profile": self.profile,
            "seed": self.seed,
            "shards": self.shards,
            "games": list(self.games),
            "fixtures": self.fixtures,
            "properties": self.properties,
            "engine_args": list(self.engine_args),
            "ruleproof": self.versions.get("ruleproof"),
            "hypothesis": self.versions.get("hypothesis"),
            "created": self.created,
            "broken": self.broken.to_json() if self.broken is not None else None,
            "interrupted": self.interrupted,
            "reports": {
                r.game: {"declared": r.declared, "found": [f.to_json() for f in r.found]} for r in self.reports
            },
        }

    @classmethod
    def from_json(cls, data: Any, name: str) -> Partial:
        """A part as ``to_json`` wrote it; ``PartialError`` naming ``name`` otherwise."""
        if not isinstance(data, dict) or KEY not in data:
            raise PartialError(f"{name}: not a partial certificate (one written by ruleproof certify --shard K/N)")
        if data[KEY] != PARTIAL_FORMAT:
            fmt = data[KEY]
            raise PartialError(f"{name}: partial certificate format {fmt!r}; this ruleproof reads {PARTIAL_FORMAT}")
        try:
            return cls._parse(data)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
            why = f"{type(err).__name__}: {err}"
            raise PartialError(f"{name}: not a partial certificate this ruleproof reads ({why})") from None

    @classmethod
    def _parse(cls, data: Mapping[str, Any]) -> Partial:
        k, n = (int(x) for x in str(data["shard"]).split("/"))
        reports = tuple(
            GamePart(str(game), dict(r["declared"]), tuple(Found.from_json(f, str(game)) for f in r["found"]))
            for game, r in data["reports"].items()
        )
        return cls(
            engine=dict(data["engine"]),
            profile=str(data["profile"]),
            seed=None if data["seed"] is None else int(data["seed"]),
            shard=(k, n),
            shards=int(data["shards"]),
            games=tuple(str(g) for g in data["games"]),
            fixtures=bool(data["fixtures"]),
            properties=bool(data["properties"]),
            engine_args=tuple(str(a) for a in data["engine_args"]),
            reports=reports,
            broken=AdapterBroken.from_json(data["broken"]) if data["broken"] else None,
            interrupted=None if data["interrupted"] is None else str(data["interrupted"]),
            created=str(data["created"]),
            versions={k: str(data[k]) for k in ("ruleproof", "hypothesis") if data.get(k)},
        )


def one_run(parts: Sequence[tuple[str, Partial]]) -> list[Partial]:
    """The parts, checked to be the N parts of one run, in the order 1..N (``PartialError`` otherwise)."""
    if not parts:
        raise PartialError("no partial certificate given")
    first_name, first = parts[0]
    want = first.run_key()
    for name, part in parts[1:]:
        got = part.run_key()
        for key, value in want.items():
            if got[key] != value and not (key == "engine" and None in (got[key], value)):
                raise PartialError(
                    f"{name}: {key} {got[key]!r}, but {first_name} has {value!r}: these are not parts of one run"
                )
    seen: dict[int, str] = {}
    for name, part in parts:
        if part.shard[0] in seen:
            raise PartialError(f"{name}: shard {part.shard[0]}/{part.shard[1]} again (also {seen[part.shard[0]]})")
        seen[part.shard[0]] = name
    total = first.shard[1]
    missing = [f"{k}/{total}" for k in range(1, total + 1) if k not in seen]
    if missing:
        raise PartialError(f"missing shard {', '.join(missing)}: merge needs every part of the run")
    return sorted((p for _, p in parts), key=lambda p: p.shard[0])
