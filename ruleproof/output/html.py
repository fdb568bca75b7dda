"""``--html PATH``: the certificate as one self-contained page a person can browse.

The page is rendered with Jinja2 (autoescaping on: every engine-supplied string
is untrusted) from the certificate JSON, and embeds that very JSON, so the page
and ``--json`` never disagree.  No network: the style and the script are
inline, and a Content-Security-Policy admits only those two, by hash, so even a
string that escaped escaping could not run or fetch anything.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from attrs import frozen
from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from ruleproof.model.clauses import clause_text
from ruleproof.output.files import write_atomic
from ruleproof.output.render import Step, differing, length_note, step_line, steps_of, unconfirmed_note
from ruleproof.output.table import TableView, compact, table_of
from ruleproof.run.events import Event, RunFinished

# Filters offered above every clause table, in this order; a status outside
# this list (a newer runner's) still gets its own filter after these.
STATUS_ORDER = ("fail", "untested", "xfail", "pass", "skipped")
# Certificate fields the page draws itself; any other field (a newer certificate's) is listed as JSON.
DRAWN_TOP = {"verdict", "engine", "profile", "seed", "games", "interrupted", "interrupted_by", "not_run"}
DRAWN_GAME = {"verdict", "interrupted", "seconds", "clauses", "failures", "fixtures", "skipped", "broken"}


@frozen
class ClauseRow:
    clause: str
    status: str
    hits: int | None
    text: str
    note: str
    listed: str | None  # the reason declared in --expect (xfail, xpass, ...)
    anchor: str | None  # the failure's id on the page


@frozen
class StepView:
    step: Step
    line: str
    table: TableView | None  # the state after this step, what changed marked


@frozen
class FailureView:
    anchor: str
    game: str
    clause: str
    status: str  # the clause's status: "fail", or "xfail" when declared in --expect
    listed: str | None
    text: str
    message: str
    source: str
    expected: str
    got: str
    missing: str | None
    extra: str | None
    steps: tuple[StepView, ...]
    length_note: str  # "(minimized from N)", or "" when the certificate does not say
    confirmed: bool
    unconfirmed: str  # why not, as the terminal says it ("" when confirmed)
    replay: str | None
    trace_file: str | None


@frozen
class GameView:
    game: str
    verdict: str
    seconds: Any
    rows: tuple[ClauseRow, ...]
    counts: tuple[tuple[str, int], ...]  # (status, clauses) for the filters
    failures: tuple[FailureView, ...]
    broken: str | None
    skipped: tuple[str, ...]
    fixtures: tuple[tuple[str, str], ...]
    interrupted: bool
    other: tuple[tuple[str, str], ...]  # fields the page does not draw, as JSON


def others(data: Mapping[str, Any], drawn: set[str]) -> tuple[tuple[str, str], ...]:
    return tuple((str(k), compact(v)) for k, v in data.items() if k not in drawn)


def _dict(value: Any) -> dict[str, Any]:
    """An object from a certificate, or {} for anything else (an older or hand-written certificate)."""
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str:
    return value if isinstance(value, str) else compact(value)


def failure_view(game: str, index: int, data: Mapping[str, Any], entry: Mapping[str, Any]) -> FailureView:
    clause = _str(data.get("clause", "?"))
    steps = steps_of(data)
    views = tuple(
        StepView(s, step_line(s), table_of(s.after, s.before) if s.after is not None else None) for s in steps
    )
    diff = differing(data.get("expected"), data.get("got"))
    return FailureView(
        anchor=f"failure-{game}-{index}",
        game=game,
        clause=clause,
        status=_str(entry.get("status", "fail")),
        listed=_str(entry["expected"]) if entry.get("expected") is not None else None,
        text=clause_text(clause) or "",
        message=_str(data.get("message", "")),
        source=_str(data.get("source", "")),
        expected=compact(data.get("expected")),
        got=compact(data.get("got")),
        missing=compact(diff["missing"]) if "missing" in diff else None,
        extra=compact(diff["extra"]) if "extra" in diff else None,
        steps=views,
        length_note=length_note(data),
        confirmed=data.get("confirmed") is not False,
        unconfirmed="" if data.get("confirmed") is not False else unconfirmed_note(data),
        replay=_str(data["replay"]) if data.get("replay") else None,
        trace_file=_str(data["trace_file"]) if data.get("trace_file") else None,
    )


def _entries(data: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    clauses = _dict(data.get("clauses"))
    return {str(c): e if isinstance(e, dict) else {"status": e} for c, e in clauses.items()}


def game_view(game: str, data: Mapping[str, Any]) -> GameView:
    entries = _entries(data)
    found = [f for f in data.get("failures") or [] if isinstance(f, dict)]
    failures = tuple(failure_view(game, i, f, entries.get(_str(f.get("clause")), {})) for i, f in enumerate(found))
    first: dict[str, FailureView] = {}
    for f in failures:
        first.setdefault(f.clause, f)
    rows = []
    for clause, entry in entries.items():
        shown = first.get(clause)
        hits = entry.get("hits")
        listed = _str(entry["expected"]) if entry.get("expected") is not None else None
        rows.append(
            ClauseRow(
                clause,
                _str(entry.get("status", "?")),
                hits if isinstance(hits, int) else None,
                clause_text(clause) or "",
                shown.message if shown else "",
                listed,
                shown.anchor if shown else None,
            )
        )
    seen = [r.status for r in rows]
    statuses = [*STATUS_ORDER, *sorted(set(seen) - set(STATUS_ORDER))]
    broken = data.get("broken")
    fixtures = _dict(data.get("fixtures"))
    return GameView(
        game=game,
        verdict=_str(data.get("verdict", "?")),
        seconds=data.get("seconds"),
        rows=tuple(rows),
        counts=tuple((s, seen.count(s)) for s in statuses),
        failures=failures,
        broken=compact(broken) if broken is not None else None,
        skipped=tuple(_str(s) for s in data.get("skipped") or []),
        fixtures=tuple((_str(k), _str(v)) for k, v in fixtures.items()),
        interrupted=data.get("interrupted") is True,
        other=others(data, DRAWN_GAME),
    )


def _asset(name: str) -> str:
    return (resources.files("ruleproof.output") / "templates" / name).read_text(encoding="utf-8")


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def environment() -> Environment:
    # autoescape for every template: these pages are HTML whatever the file is called
    return Environment(
        loader=PackageLoader("ruleproof.output", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render_html(certificate: Mapping[str, Any]) -> str:
    """The whole page for a certificate (``Certificate.to_json()``)."""
    style, script = _asset("report.css"), _asset("report.js")
    games = _dict(certificate.get("games"))
    engine = _dict(certificate.get("engine"))
    return (
        environment()
        .get_template("report.html.j2")
        .render(
            certificate=certificate,
            verdict=_str(certificate.get("verdict", "?")),
            profile=_str(certificate.get("profile", "?")),
            seed="derandomized" if certificate.get("seed") is None else _str(certificate.get("seed")),
            engine_name=_str(engine.get("name", "?")),
            engine_version=_str(engine.get("version", "?")),
            games=[game_view(g, d) for g, d in games.items() if isinstance(d, dict)],
            interrupted=_str(certificate.get("interrupted_by", "")) if certificate.get("interrupted") is True else None,
            not_run=", ".join(_str(g) for g in certificate.get("not_run") or []),
            other=others(certificate, DRAWN_TOP),
            style=Markup(style),  # the kit's own files, not engine data
            script=Markup(script),
            csp=f"default-src 'none'; style-src {_csp_hash(style)}; script-src {_csp_hash(script)}; img-src data:",
        )
    )


class HtmlFile:
    """``--html``: the report as one page, embedding the certificate it draws, written when the run finishes."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def handle(self, event: Event) -> None:
        if isinstance(event, RunFinished):
            write_atomic(self.path, render_html(event.certificate.to_json()))
