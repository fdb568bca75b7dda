"""A compliance matrix: many engines certified one after another, read as one table per game.

``ENGINES.toml`` lists the engines, one ``[[engine]]`` table each; ``load_engines`` checks it whole
before any engine starts (``UsageError`` naming the file, line and key: exit 2).  Each engine is then
certified by the code ``ruleproof certify`` runs (``ruleproof.cli.matrix``); an engine that cannot
start, breaks or hangs gives its column the verdict ``broken`` with the reason, and the matrix goes
on.  ``summarize`` turns the certificates into the matrix's JSON summary (schema
``ruleproof/schemas/matrix.json``), ``history`` compares it with the previous run's.

The kit cannot restrict the options an engine plays: an engine declares its option values in
``hello`` and is judged under them (``GameReport.rules``).  To put an engine in the matrix under
some house rules, give a factory that builds it with those rules.
"""

from __future__ import annotations

import datetime
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from attrs import evolve, frozen

from ruleproof import GAMES, __version__
from ruleproof.model.errors import UsageError, read_user_toml

MATRIX_FORMAT = 1  # bumped when a field of the summary changes meaning (ruleproof/schemas/matrix.json)
KEYS = ("name", "homepage", "engine", "engine_cmd", "games", "expect", "timeout", "max_time")
# a certificate's clause status -> the matrix cell: a deviation listed in the expectations is "declared"
CELL = {"xfail": "declared"}
FAILING = frozenset({"fail", "xpass"})
NOT_COUNTED = frozenset({"skipped", "covered"})  # not the engine's rules, or not breakable on their own
NO_OPTIONS = (
    "the kit cannot restrict the options an engine plays: it declares them in hello and is judged under "
    "them; give a factory (or a command) that builds the engine with the rules you want"
)
_HEADER = re.compile(r"^\s*\[\[\s*(?P<table>[A-Za-z0-9_-]+)\s*\]\]")
_KEY = re.compile(r"^\s*(?:(?P<bare>[A-Za-z0-9_-]+)|\"(?P<quoted>[^\"]*)\")\s*=")


@frozen
class EngineEntry:
    """One ``[[engine]]`` of ENGINES.toml, checked."""

    name: str
    slug: str  # its folder and badge names in the site (a-z, 0-9, -)
    games: tuple[str, ...]
    engine: str | None = None  # MODULE:FACTORY
    engine_cmd: str | None = None  # a command speaking the contract on stdio
    homepage: str | None = None  # http(s) only: it becomes a link
    expect: str | None = None  # the expectations file, resolved against ENGINES.toml's folder
    timeout: float | None = None  # seconds per engine call (certify --timeout)
    max_time: float | None = None  # seconds for the whole certification (certify --max-time)
    line: int = 1  # where its table starts, for messages

    @property
    def spec(self) -> tuple[str, ...]:
        """The certify arguments naming the engine."""
        return ("--engine-cmd", self.engine_cmd) if self.engine_cmd is not None else ("--engine", str(self.engine))


def load_engines(path: str | Path) -> tuple[EngineEntry, ...]:
    """Read and check ENGINES.toml: every error is one ``UsageError`` naming ``FILE:LINE: engine[I].KEY``."""
    p = Path(path)
    text, data = read_user_toml(p, UsageError)
    lines = _locate(text)
    for key in data:
        if key != "engine":
            raise UsageError(f"{p}:{lines.get((key, -1), 1)}: {key}: unknown key; list engines as [[engine]] tables")
    tables = data.get("engine")
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
        raise UsageError(f"{p}:{lines.get(('engine', -1), 1)}: no engine: list each as an [[engine]] table")
    entries: list[EngineEntry] = []
    for i, table in enumerate(tables):
        entry = _entry(_Where(p, i, lines), table)
        if any(e.name == entry.name for e in entries):
            raise UsageError(
                f"{_Where(p, i, lines)('name')}: {entry.name!r} is listed twice; give each engine its name"
            )
        entries.append(entry)
    return _unique_slugs(entries)


@frozen
class _Where:
    """``FILE:LINE: engine[I].KEY``, the prefix of every message about one engine's key."""

    path: Path
    index: int
    lines: Mapping[tuple[str, int], int]

    def __call__(self, key: str | None = None) -> str:
        line = self.lines.get((key or "", self.index), self.lines.get(("engine", self.index), 1))
        return f"{self.path}:{line}: engine[{self.index + 1}]" + (f".{key}" if key else "")


def _entry(where: _Where, table: Mapping[str, Any]) -> EngineEntry:
    for key in table:
        if key == "options":
            raise UsageError(f"{where(key)}: not supported: {NO_OPTIONS}")
        if key not in KEYS:
            raise UsageError(f"{where(key)}: unknown key (the keys are {', '.join(KEYS)})")
    name = _text(where, table, "name", required=True)
    assert name is not None
    if not name.isprintable():  # a control character has no place in a heading, and none at all in SVG
        raise UsageError(f"{where('name')}: {name!r} holds a control character")
    engine, cmd = _text(where, table, "engine"), _text(where, table, "engine_cmd")
    if (engine is None) == (cmd is None):
        raise UsageError(f"{where()}: give one of engine (MODULE:FACTORY) or engine_cmd (a command)")
    homepage = _text(where, table, "homepage")
    if homepage is not None and not re.match(r"https?://[^\s]+$", homepage):
        raise UsageError(f"{where('homepage')}: {homepage!r} is not an http:// or https:// address")
    expect = _text(where, table, "expect")
    if expect is not None:
        expect = str(where.path.parent / expect)
        if not Path(expect).is_file():
            raise UsageError(f"{where('expect')}: {expect}: no such file")
    return EngineEntry(name, _slug(name), _games(where, table), engine, cmd, homepage, expect,
                       _seconds(where, table, "timeout"), _seconds(where, table, "max_time"),
                       where.lines.get(("engine", where.index), 1))  # fmt: skip


def _text(where: _Where, table: Mapping[str, Any], key: str, *, required: bool = False) -> str | None:
    value = table.get(key)
    if value is None:
        if required:
            raise UsageError(f"{where(key)}: missing (every engine needs one)")
        return None
    if not isinstance(value, str) or not value.strip():
        raise UsageError(f"{where(key)}: must be a non-empty string, not {value!r}")
    return value


def _games(where: _Where, table: Mapping[str, Any]) -> tuple[str, ...]:
    games = table.get("games")
    if not isinstance(games, list) or not games:
        raise UsageError(f'{where("games")}: give the games to certify, a list such as ["black-maria"]')
    for game in games:
        if game not in GAMES:
            raise UsageError(f"{where('games')}: unknown game {game!r} (one of {', '.join(GAMES)})")
    if len(set(games)) != len(games):
        raise UsageError(f"{where('games')}: a game is listed twice")
    return tuple(g for g in GAMES if g in games)  # the contract's order, as every report


def _seconds(where: _Where, table: Mapping[str, Any], key: str) -> float | None:
    value = table.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < float("inf"):
        raise UsageError(f"{where(key)}: must be a positive number of seconds, not {value!r}")
    return float(value)


def _locate(text: str) -> dict[tuple[str, int], int]:
    """(key, engine index) -> line; ("engine", i) is the line of the i-th [[engine]], index -1 the top level."""
    found: dict[tuple[str, int], int] = {}
    index = -1
    for number, line in enumerate(text.splitlines(), start=1):
        if m := _HEADER.match(line):
            index += 1 if m["table"] == "engine" else 0
            found.setdefault((m["table"], index if m["table"] == "engine" else -1), number)
        elif m := _KEY.match(line):
            found.setdefault((m["bare"] or m["quoted"] or "", index), number)
    return found


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40].strip("-") or "engine"


def _unique_slugs(entries: Sequence[EngineEntry]) -> tuple[EngineEntry, ...]:
    """Two names may make one slug ("A b", "a-b"): the later ones get -2, -3."""
    taken: set[str] = set()
    out = []
    for e in entries:
        slug, n = e.slug, 1
        while slug in taken:
            n += 1
            slug = f"{e.slug}-{n}"
        taken.add(slug)
        out.append(evolve(e, slug=slug))
    return tuple(out)


# -- the summary -------------------------------------------------------------------------------------


@frozen
class Outcome:
    """One engine's run: its certificate's JSON, or why there is none (it could not even be driven)."""

    entry: EngineEntry
    certificate: dict[str, Any] | None
    reason: str = ""  # why the column is broken (also set when the certificate itself says broken)
    seconds: float = 0.0
    stopped: bool = False  # never started: the matrix was stopped (a signal) before its turn


def summarize(outcomes: Sequence[Outcome], profile: str, engines_file: str) -> dict[str, Any]:
    """The matrix's JSON summary (schema ``ruleproof/schemas/matrix.json``)."""
    listed = {g for o in outcomes for g in o.entry.games}
    return {
        "ruleproof_matrix": MATRIX_FORMAT,
        "ruleproof": __version__,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "profile": profile,
        "engines_file": engines_file,
        "games": [g for g in GAMES if g in listed],
        "engines": [engine_summary(o) for o in outcomes],
    }


def engine_summary(o: Outcome) -> dict[str, Any]:
    cert = o.certificate or {}
    verdict = "broken" if o.reason or cert.get("verdict") == "broken" else str(cert.get("verdict", "broken"))
    verdict = "not run" if o.stopped else verdict
    return {
        "name": o.entry.name,
        "slug": o.entry.slug,
        "homepage": o.entry.homepage,
        "certify": ["ruleproof", "certify", *o.entry.spec, *_game_args(o.entry)],
        "engine": cert.get("engine"),
        "verdict": verdict,
        "reason": o.reason or broken_reason(cert) or None,
        "seconds": round(o.seconds, 3),
        "page": f"engines/{o.entry.slug}/index.html",
        "certificate": f"engines/{o.entry.slug}/certificate.json" if o.certificate is not None else None,
        "report": f"engines/{o.entry.slug}/report.html" if o.certificate is not None else None,
        "games": {g: game_summary(o.entry.slug, g, cert, verdict) for g in o.entry.games},
    }


def _game_args(entry: EngineEntry) -> list[str]:
    """The rest of the certify command that certifies ``entry`` alone: its games, files and time limits."""
    out = [a for g in entry.games for a in ("--game", g)]
    for flag, value in (("--expect", entry.expect), ("--timeout", entry.timeout), ("--max-time", entry.max_time)):
        if value is not None:
            out += [flag, f"{value:g}" if isinstance(value, float) else value]
    return out


def broken_reason(cert: Mapping[str, Any]) -> str:
    """Why a certificate says broken: the engine that could not start, else the first game that broke."""
    broken = cert.get("broken")
    if isinstance(broken, dict):
        return f"{broken.get('kind', 'broken')}: {broken.get('message', '')}"
    for game, data in (cert.get("games") or {}).items():
        if isinstance(data.get("broken"), dict):
            return f"{game}: {data['broken'].get('kind', 'broken')}: {data['broken'].get('message', '')}"
    if cert.get("interrupted"):
        return f"interrupted ({cert.get('interrupted_by', 'stopped')})"
    return ""


def game_summary(slug: str, game: str, cert: Mapping[str, Any], verdict: str) -> dict[str, Any]:
    """One engine's column of one game: each clause's cell, the counts, the rules judged, its badge."""
    data = (cert.get("games") or {}).get(game)
    if not isinstance(data, dict):  # broken before this game (or never started): no verdict of its own
        why = "broken" if verdict == "broken" else "not run"
        return {"verdict": why, "title": game, "rules": [], "clauses": {}, "counts": {}, "passed": 0, "total": 0,
                "badge": f"badges/{slug}-{game}.svg"}  # fmt: skip
    clauses = {c: cell(e.get("status", "untested")) for c, e in (data.get("clauses") or {}).items()}
    counts = Counter(clauses.values())
    return {
        "verdict": str(data.get("verdict", "?")),
        "title": str(data.get("title", game)),
        "rules": [str(r) for r in data.get("rules") or ()],
        "clauses": clauses,
        "counts": dict(sorted(counts.items())),
        "passed": counts["pass"],
        "total": sum(n for s, n in counts.items() if s not in NOT_COUNTED),
        "badge": f"badges/{slug}-{game}.svg",
    }


def cell(status: Any) -> str:
    return CELL.get(str(status), str(status))


def history(summary: Mapping[str, Any], previous: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Engine name -> game -> what changed since ``previous``: fixed (failed, now passes), regressed
    (passed, now fails) and the verdict it had; an engine or game new to the matrix has no entry."""
    before = {e["name"]: e for e in previous.get("engines") or ()}
    out: dict[str, dict[str, Any]] = {}
    for engine in summary["engines"]:
        was = before.get(engine["name"])
        if was is None:
            continue
        games = {}
        for game, now in engine["games"].items():
            old = (was.get("games") or {}).get(game)
            if old is None:
                continue
            then = old.get("clauses") or {}
            fixed = [c for c, s in now["clauses"].items() if s == "pass" and then.get(c) in FAILING]
            regressed = [c for c, s in now["clauses"].items() if s in FAILING and then.get(c) == "pass"]
            games[game] = {"was": old.get("verdict", "?"), "fixed": fixed, "regressed": regressed}
        out[engine["name"]] = games
    return out
