"""Shards of one exploration, and what each part of a game's certification found.

A profile splits its exploration into a fixed number of shards (``Profile.shards``), each a
Hypothesis run of its share of the examples from a seed of its own, derived from the run's seed:
the split depends on the profile and the seed only, never on how many workers run it.  Shard 0
explores from the run's seed itself, so a profile of one shard explores exactly as an unsharded
run did.

Every part of a game's certification, the head (smoke and fixtures) as much as each shard, ends in
a ``Found``: the hits, situations and causes it saw, its counts and its engine calls.  The parts
are merged in a fixed order (the head, then shard 0, 1, ...) whatever order they finished in:
hits and counts are summed, and per cause the shallowest counterexample is kept, the earlier part
winning a tie.  Only then is anything minimized, so the certificate is the same for 1, 2 or N
workers, and for ``--shard K/N`` parts merged by ``ruleproof merge``.  A ``Found`` is written as
JSON (``to_json``/``from_json``): worker processes hand it back that way, and a partial
certificate holds one per part.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping
from typing import Any

from attrs import define, field, frozen

from ruleproof.model.engine import AdapterBroken, JSONObject
from ruleproof.model.findings import Event, Finding, Trace
from ruleproof.model.fixtures import Fixture
from ruleproof.run.causes import MAX_CAUSES, Cause, Occurrence

# the counters of an exploration, summed over its shards (ruleproof.run.explore.Exploration.stats)
EXPLORED = ("examples", "steps", "probes", "games", "det_replays", "det_calls", "fixture_steps")


@frozen
class Shard:
    """One shard of a game's exploration: its place, its examples and its Hypothesis seed."""

    index: int
    examples: int
    seed: int | None  # None: the profile's derandomized examples (shard 0 of a run without --seed)


def shard_seed(seed: int | None, index: int) -> int | None:
    """Shard ``index``'s seed: the run's own for shard 0, else one derived from it (and from nothing else)."""
    if index == 0:
        return seed
    digest = hashlib.sha256(f"ruleproof shard {seed} {index}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def plan(shards: int, examples: int, seed: int | None) -> tuple[Shard, ...]:
    """The shards of an exploration of ``examples`` examples: as even as can be, the first ones larger."""
    count = max(1, min(shards, examples))
    base, extra = divmod(examples, count)
    return tuple(Shard(k, base + (1 if k < extra else 0), shard_seed(seed, k)) for k in range(count))


def owned(shards: int, part: int, parts: int) -> tuple[int, ...]:
    """The shard indexes part ``part`` (1-based) of ``parts`` explores: every ``parts``-th one."""
    return tuple(k for k in range(shards) if k % parts == part - 1)


@define
class Found:
    """What one part of a game's certification found (the head: smoke and fixtures; or one shard)."""

    part: str  # "head" or "shard K"
    hits: Counter[str] = field(factory=Counter)
    situations: dict[str, Counter[str]] = field(factory=dict)
    check_errors: Counter[str] = field(factory=Counter)
    causes: list[Cause] = field(factory=list)  # in the order first seen
    counts: Counter[str] = field(factory=Counter)  # clause -> violations seen
    fixtures: dict[str, Fixture] = field(factory=dict)  # source -> the fixture, for the causes it found
    fixture_status: dict[str, str] = field(factory=dict)  # fixture id -> status
    skipped: list[str] = field(factory=list)
    stats: dict[str, int] = field(factory=dict)  # calls, and an exploration's EXPLORED counters
    broken: AdapterBroken | None = None
    interrupted: bool = False  # a stop was requested (or a kit bug stopped it): what was found so far
    kit_error: str = ""
    stage: str = ""  # the stage running when it broke or was stopped

    def to_json(self) -> JSONObject:
        return {
            "part": self.part,
            "hits": dict(self.hits),
            "situations": {c: dict(s) for c, s in self.situations.items()},
            "check_errors": dict(self.check_errors),
            "causes": [_cause_json(c) for c in self.causes],
            "counts": dict(self.counts),
            "fixtures": {source: _fixture_json(fx) for source, fx in self.fixtures.items()},
            "fixture_status": self.fixture_status,
            "skipped": self.skipped,
            "stats": self.stats,
            "broken": self.broken.to_json() if self.broken is not None else None,
            "interrupted": self.interrupted,
            "kit_error": self.kit_error,
            "stage": self.stage,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], game: str) -> Found:
        """A part as ``to_json`` wrote it (KeyError, TypeError or ValueError when it is not one)."""
        return cls(
            str(data["part"]),
            Counter({str(k): int(v) for k, v in data["hits"].items()}),
            {str(c): Counter({str(k): int(v) for k, v in s.items()}) for c, s in data["situations"].items()},
            Counter({str(k): int(v) for k, v in data["check_errors"].items()}),
            [_cause(c, game) for c in data["causes"]],
            Counter({str(k): int(v) for k, v in data["counts"].items()}),
            {str(s): _fixture(fx) for s, fx in data["fixtures"].items()},
            {str(k): str(v) for k, v in data["fixture_status"].items()},
            [str(s) for s in data["skipped"]],
            {str(k): int(v) for k, v in data["stats"].items()},
            AdapterBroken.from_json(data["broken"]) if data["broken"] else None,
            bool(data["interrupted"]),
            str(data["kit_error"]),
            str(data["stage"]),
        )


def absorb_causes(causes: dict[tuple[str, str], Cause], found: Found) -> None:
    """Merge a later part's causes into ``causes`` (the earlier parts'), as its violations would have
    been seen after theirs: counts add up, a shallower counterexample replaces the kept one (a tie
    keeps the earlier part's), and a clause keeps at most ``MAX_CAUSES`` causes."""
    for cause in found.causes:
        key = cause.kept.finding.key
        mine = causes.get(key)
        if mine is None:
            if not cause.kept.finding.signature.startswith("fixture:") and _kept(causes, cause.clause) >= MAX_CAUSES:
                continue  # counted (``counts``); this clause already shows enough distinct causes
            causes[key] = Cause(cause.kept, cause.clean, cause.count, cause.earlier, cause.first_seconds)
            continue
        mine.count += cause.count
        mine.earlier &= cause.earlier
        later = cause.kept
        if later.source == "properties" and mine.kept.source == "properties" and later.depth < mine.kept.depth:
            mine.kept = later
        if cause.clean is not None and (mine.clean is None or cause.clean.depth < mine.clean.depth):
            mine.clean = cause.clean
            if mine.kept.prior:  # a fixture's counterexample that followed another deviation gives way
                mine.kept = mine.clean


def _kept(causes: dict[tuple[str, str], Cause], clause: str) -> int:
    return sum(1 for c, sig in causes if c == clause and not sig.startswith("fixture:"))


def _occurrence_json(o: Occurrence) -> JSONObject:
    return {
        "finding": o.finding.to_json(),
        "trace": o.trace.moves(),
        "source": o.source,
        "seconds": round(o.seconds, 3),
        "depth": o.depth,
        "prior": sorted(o.prior),
    }


def _occurrence(data: Mapping[str, Any], game: str) -> Occurrence:
    finding = Finding.from_json(data["finding"])
    events = tuple(Event.from_json(e) for e in data["trace"])
    return Occurrence(
        finding,
        Trace(game, events, finding),
        str(data["source"]),
        float(data["seconds"]),
        int(data["depth"]),
        frozenset(str(c) for c in data["prior"]),
    )


def _cause_json(c: Cause) -> JSONObject:
    clean = None if c.clean is None else "kept" if c.clean is c.kept else _occurrence_json(c.clean)
    return {
        "kept": _occurrence_json(c.kept),
        "clean": clean,
        "count": c.count,
        "earlier": sorted(c.earlier),
        "first_seconds": round(c.first_seconds, 3),
    }


def _cause(data: Mapping[str, Any], game: str) -> Cause:
    kept = _occurrence(data["kept"], game)
    clean = data["clean"]
    return Cause(
        kept,
        kept if clean == "kept" else None if clean is None else _occurrence(clean, game),
        int(data["count"]),
        frozenset(str(c) for c in data["earlier"]),
        float(data["first_seconds"]),
    )


def _fixture_json(fx: Fixture) -> JSONObject:
    return {
        "id": fx.id,
        "game": fx.game,
        "title": fx.title,
        "clauses": list(fx.clauses),
        "setup": fx.setup,
        "steps": list(fx.steps),
        "path": fx.path,
        "holds_under": {k: list(v) for k, v in fx.holds_under.items()},
        "house_sent": list(fx.house_sent),
    }


def _fixture(data: Mapping[str, Any]) -> Fixture:
    return Fixture(
        str(data["id"]),
        str(data["game"]),
        str(data["title"]),
        tuple(str(c) for c in data["clauses"]),
        dict(data["setup"]),
        tuple(data["steps"]),
        str(data["path"]),
        {str(k): tuple(v) for k, v in (data.get("holds_under") or {}).items()},
        tuple(str(n) for n in data.get("house_sent") or ()),
    )
