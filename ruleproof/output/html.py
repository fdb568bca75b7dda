"""``--html PATH``: the certificate as one self-contained page a person can browse.

The page is rendered with Jinja2 (autoescaping on: every engine-supplied string
is untrusted) from the certificate JSON, and embeds that very JSON, so the page
and ``--json`` never disagree.  The step-through's state after each step is drawn
here, but embedded as diffs from the step before (``ruleproof.model.traces``),
which the page's script rebuilds: a counterexample of a few hundred steps is not
a few hundred whole tables.  No network: the style and the script are
inline, and a Content-Security-Policy admits only those two, by hash, so even a
string that escaped escaping could not run or fetch anything.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from attrs import frozen
from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup, escape

from ruleproof.model.clauses import clause_text
from ruleproof.model.traces import Diff, pack_states, trace_id, unpack
from ruleproof.output.drawn import Drawn, drawn, seats_named
from ruleproof.output.files import write_atomic
from ruleproof.output.render import Step, differing, length_note, step_line, steps_of, unconfirmed_note
from ruleproof.output.table import TableView, compact, table_of
from ruleproof.run.events import Event, RunFinished

# Filters offered above every clause table, in this order; a status outside
# this list (a newer runner's) still gets its own filter after these.
STATUS_ORDER = ("fail", "untested", "xfail", "pass", "skipped")
# The clause table's rows, failing first (what the reader came for), then what is not yet judged in full.
ROW_ORDER = ("fail", "xpass", "xfail", "partial", "untested", "pass", "covered", "skipped")
BASELINE_NOTES = {
    "regressions": "regression: passed in the baseline",
    "fixed": "fixed: failed in the baseline",
    "untested": "newly untested: judged in the baseline",
}
BROKE = "broke the rule"  # the mark on the seat that moved in the violating step
# Certificate fields the page draws itself; any other field (a newer certificate's) is listed as JSON.
DRAWN_TOP = {"verdict", "engine", "profile", "seed", "games", "interrupted", "interrupted_by", "not_run"}
DRAWN_GAME = {
    "verdict",
    "interrupted",
    "seconds",
    "clauses",
    "failures",
    "fixtures",
    "skipped",
    "broken",
    "baseline",
    "title",
    "rules",
    "deviations",
    "consequences",
}


@frozen
class ClauseRow:
    clause: str
    status: str
    hits: int | None
    text: str
    note: str
    listed: str | None  # the reason declared in --expect (xfail, xpass, ...)
    anchor: str | None  # the failure's id on the page
    notes: tuple[str, ...] = ()  # a partial clause's situations not reached, what it follows
    baseline: str | None = None  # --baseline's word on this clause (a regression, fixed, newly untested)
    follows: tuple[str, ...] = ()  # a consequence: the deviations it was broken after


@frozen
class DeviationView:
    """One deviation (or consequence) of the certificate's ``deviations`` list, as the summary names it."""

    clause: str  # its label: "BM-PASS-1 with BM-INV-2", the cause added when its clause heads another
    anchor: str | None  # its first failure's id on the page
    note: str  # that failure's message
    notes: tuple[str, ...] = ()  # a consequence: what it follows


@frozen
class StepView:
    step: Step
    line: str
    table: TableView | None  # the state after this step, what changed marked
    move: Drawn | None = None  # the step's move drawn as cards (None for new_game: its line says it)


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
    expected_drawn: Drawn
    got_drawn: Drawn
    missing: str | None
    extra: str | None
    missing_drawn: Drawn | None
    extra_drawn: Drawn | None
    steps: tuple[StepView, ...]
    length_note: str  # "(minimized from N)", or "" when the certificate does not say
    confirmed: bool
    unconfirmed: str  # why not, as the terminal says it ("" when confirmed)
    replay: str | None
    trace_file: str | None


@frozen
class GameView:
    game: str
    title: str  # the game and the rules judged: "Black Maria (pass rotate, moon others_score)"
    verdict: str
    seconds: Any
    rows: tuple[ClauseRow, ...]
    counts: tuple[tuple[str, int], ...]  # (status, clauses) for the filters
    failures: tuple[FailureView, ...]
    broken: str | None
    skipped: tuple[str, ...]
    fixtures: tuple[tuple[str, str], ...]
    interrupted: bool
    other: tuple[Other, ...]  # fields the page does not draw itself
    baseline: str | None = None  # --baseline, in a line: its regressions, fixes and newly untested clauses
    # the certificate's own grouping (``GameReport.deviations``), the same count and order as every output
    deviations: tuple[DeviationView, ...] = ()
    consequences: tuple[DeviationView, ...] = ()

    @property
    def first_deviation(self) -> FailureView | None:
        """The first deviation's counterexample, drawn in the summary at the top of the page."""
        anchors = [r.anchor for r in self.deviations if r.anchor]
        return next((f for f in self.failures if anchors and f.anchor == anchors[0]), None)


@frozen
class Other:
    """A field the page does not draw itself: a value as text, or an object of values as a small table."""

    key: str
    text: str
    table: tuple[tuple[str, str], ...] = ()


# the certificate's own keys as a reader says them (its format number is for programs, not the header)
TOP_LABELS = {"hypothesis": "Hypothesis", "created": "created"}


def others(data: Mapping[str, Any], drawn: set[str]) -> tuple[Other, ...]:
    return tuple(other(str(k), v) for k, v in data.items() if k not in drawn)


def run_facts(certificate: Mapping[str, Any]) -> tuple[Other, ...]:
    """The header's facts: versions and dates under readable names, the baseline as its file (relative
    to the working folder, else its name) with its warnings as sentences, never raw JSON."""
    facts = []
    for key, value in certificate.items():
        if key in DRAWN_TOP:
            continue
        if key == "baseline" and isinstance(value, dict):
            warnings = "; ".join(_str(w) for w in value.get("warnings") or [])
            facts.append(
                Other("baseline", shown_path(_str(value.get("file", "?"))) + (f" ({warnings})" if warnings else ""))
            )
        elif key == "ruleproof_certificate":
            continue  # the format number tells programs how to read the file; the page has read it
        else:
            facts.append(other(TOP_LABELS.get(str(key), str(key)), value))
    return tuple(facts)


def shown_path(path: str) -> str:
    """A path as a reader of the report finds it: relative to the working folder when inside it, else
    the file's name (an absolute path of the machine that ran it says nothing on another)."""
    given = Path(path)
    if not given.is_absolute():
        return path
    try:
        return str(given.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return given.name


def other(key: str, value: Any) -> Other:
    """A string as itself (no JSON quotes), an object of plain values (the stats) as rows, else its JSON."""
    if isinstance(value, str):
        return Other(key, value)
    if isinstance(value, dict) and value and all(not isinstance(v, dict | list) for v in value.values()):
        return Other(key, "", tuple((str(k), v if isinstance(v, str) else compact(v)) for k, v in value.items()))
    return Other(key, compact(value))


INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*")


def markdown(text: str) -> Markup:
    """A clause's text (markdown from the rules documents) with its inline marks: `code`, **bold**, *em*.
    Everything else is escaped: the rules documents are the kit's, but a clause text never runs."""
    out, end = [], 0
    for m in INLINE.finditer(text):
        out.append(escape(text[end : m.start()]))
        code, bold, em = m.groups()
        tag, inner = ("code", code) if code is not None else ("b", bold) if bold is not None else ("i", em)
        out.append(Markup(f"<{tag}>{escape(inner)}</{tag}>"))
        end = m.end()
    out.append(escape(text[end:]))
    return Markup("").join(out)


def plain(text: str) -> str:
    """A clause's text without its marks (a tooltip shows no markup)."""
    return INLINE.sub(lambda m: next(g for g in m.groups() if g is not None), text)


def _dict(value: Any) -> dict[str, Any]:
    """An object from a certificate, or {} for anything else (an older or hand-written certificate)."""
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str:
    return value if isinstance(value, str) else compact(value)


def step_views(game: str, data: Mapping[str, Any]) -> tuple[StepView, ...]:
    """Each step with its table; the violating (last) one marks the seat that moved in it, and the seats
    the finding names (``{"winner": 1}``, ``won/1``)."""
    steps = steps_of(data)
    named = seats_named(data.get("expected")) | seats_named(data.get("got"))
    views = []
    for s in steps:
        marked: dict[int, str] = {}
        if s is steps[-1]:
            marked = {seat: "named by the finding" for seat in sorted(named)}
            if s.seat is not None:
                marked[s.seat] = BROKE
        table = table_of(s.after, s.before, marked) if s.after is not None else None
        move = drawn(game, s.value) if s.kind != "new_game" and isinstance(s.value, dict) else None
        views.append(StepView(s, step_line(s), table, move))
    return tuple(views)


def failure_view(game: str, index: int, data: Mapping[str, Any], entry: Mapping[str, Any]) -> FailureView:
    clause = _str(data.get("clause", "?"))
    views = step_views(game, data)
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
        expected_drawn=drawn(game, data.get("expected")),
        got_drawn=drawn(game, data.get("got")),
        missing=compact(diff["missing"]) if "missing" in diff else None,
        extra=compact(diff["extra"]) if "extra" in diff else None,
        missing_drawn=drawn(game, diff["missing"]) if "missing" in diff else None,
        extra_drawn=drawn(game, diff["extra"]) if "extra" in diff else None,
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


def clause_row(clause: str, entry: Mapping[str, Any], shown: FailureView | None) -> ClauseRow:
    """A clause's row: its verdict, checks and first failure, and its notes (what a partial clause did not
    reach, the deviations a consequence follows, the baseline's word on it)."""
    hits = entry.get("hits")
    follows = tuple(_str(c) for c in _list(entry.get("follows"))) if entry.get("follows") else ()
    notes = []
    if entry.get("missing"):
        notes.append("not reached: " + ", ".join(_str(m) for m in _list(entry.get("missing"))))
    if follows:
        notes.append("after " + ", ".join(follows))
    change = entry.get("baseline")
    return ClauseRow(
        clause,
        _str(entry.get("status", "?")),
        hits if isinstance(hits, int) else None,
        clause_text(clause) or "",
        shown.message if shown else "",
        _str(entry["expected"]) if entry.get("expected") is not None else None,
        shown.anchor if shown else None,
        tuple(notes),
        BASELINE_NOTES.get(change, _str(change)) if change is not None else None,
        follows,
    )


def baseline_line(data: Mapping[str, Any]) -> str:
    """``2 regressions (BM-PASS-1, BM-LEAD-2), 1 fixed, 0 newly untested``: each clause is also on its row."""
    parts = []
    for key, name in (("regressions", "regression"), ("fixed", "fixed"), ("untested", "newly untested")):
        clauses = [_str(c) for c in _list(data.get(key) or [])]
        plural = "s" if key == "regressions" and len(clauses) != 1 else ""
        parts.append(f"{len(clauses)} {name}{plural}" + (f" ({', '.join(clauses)})" if clauses else ""))
    return "against the baseline: " + ", ".join(parts)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _row_rank(row: ClauseRow) -> int:
    return ROW_ORDER.index(row.status) if row.status in ROW_ORDER else len(ROW_ORDER)


def game_view(game: str, data: Mapping[str, Any]) -> GameView:
    entries = _entries(data)
    found = [f for f in data.get("failures") or [] if isinstance(f, dict)]
    failures = tuple(failure_view(game, i, f, entries.get(_str(f.get("clause")), {})) for i, f in enumerate(found))
    first: dict[str, FailureView] = {}
    for f in failures:
        first.setdefault(f.clause, f)
    rows = sorted((clause_row(c, e, first.get(c)) for c, e in entries.items()), key=_row_rank)  # stable
    seen = [r.status for r in rows]
    statuses = [*STATUS_ORDER, *sorted(set(seen) - set(STATUS_ORDER))]
    broken = data.get("broken")
    fixtures = _dict(data.get("fixtures"))
    deviations, consequences = (grouped(data, failures, key) for key in ("deviations", "consequences"))
    return GameView(
        game=game,
        title=_str(data.get("title") or game),
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
        baseline=baseline_line(_dict(data.get("baseline"))) if data.get("baseline") is not None else None,
        deviations=deviations,
        consequences=consequences,
    )


def grouped(data: Mapping[str, Any], failures: tuple[FailureView, ...], key: str) -> tuple[DeviationView, ...]:
    """The certificate's deviations (or consequences), each named and linked to its first failure; a
    failing clause neither list names (an older or hand-made certificate) counts once, by its ``follows``."""
    given = data.get(key)
    listed = [d for d in given if isinstance(d, dict)] if isinstance(given, list) else []
    named = {
        _str(c)
        for k in ("deviations", "consequences")
        for d in _list(data.get(k) or [])
        if isinstance(d, dict)
        for c in _list(d.get("clauses") or [])
    }
    for clause, entry in _entries(data).items():
        if (
            entry.get("status") == "fail"
            and clause not in named
            and bool(entry.get("follows")) == (key != "deviations")
        ):
            first = [i for i, f in enumerate(failures) if f.clause == clause][:1]
            listed.append({"label": clause, "clause": clause, "failures": first, "follows": entry.get("follows")})
    out = []
    for d in listed:
        heads = [failures[i] for i in _list(d.get("failures")) if isinstance(i, int) and 0 <= i < len(failures)]
        head = next((f for f in heads if f.clause == d.get("clause")), heads[0] if heads else None)
        follows = tuple(_str(c) for c in _list(d.get("follows"))) if d.get("follows") else ()
        notes = ("after " + ", ".join(follows),) if follows else ()
        label = _str(d.get("label") or d.get("clause") or "?")
        out.append(DeviationView(label, head.anchor if head else None, head.message if head else "", notes))
    return tuple(out)


def _asset(name: str) -> str:
    return (resources.files("ruleproof.output") / "templates" / name).read_text(encoding="utf-8")


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def environment() -> Environment:
    # autoescape for every template: these pages are HTML whatever the file is called
    env = Environment(
        loader=PackageLoader("ruleproof.output", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["script_json"] = script_json
    return env


def script_json(value: Any) -> Markup:
    """``value`` as JSON to embed in a ``<script type="application/json">``: every "<" escaped (as "\\u003c", JSON),
    so that no tag, end of the script or comment can open in it, and nothing else.  Jinja's ``tojson`` also
    escapes each > and & as six characters: a sixth of a failing engine's report, the drawn tables' tags."""
    return Markup(json.dumps(value, separators=(",", ":"), default=str).replace("<", "\\u003c"))


# a drawn line is cut before each piece (and the slot holding it): a hand is its pieces, each drawn once a page
PIECE_START = re.compile(r'(?=<span class="(?:slot|card|tile)[ "])')


@frozen
class Views:
    """A step-through's drawn states, embedded once per page: ``diffs`` for the first stepper that draws
    them, None for a later one (another clause's failure with the same counterexample), which reads
    the first one's by ``key``."""

    key: str
    diffs: list[Diff] | None


class PageViews:
    """``views`` for the template: each distinct step-through's diffs, the first time it is drawn.

    A step's drawn state is its HTML as lines, each line cut before every piece into fragments, and each
    fragment is named by its number in ``fragments``, the page's one table of them (a card, a seat's
    heading, a zone's name: each distinct one written once).  A state is then a list of lists of numbers,
    diffed from the step before: a step costs the few numbers it changed, and a hand of cards that
    stays the same costs nothing."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.fragments: list[str] = []
        self.numbers: dict[str, int] = {}

    def number(self, fragment: str) -> int:
        found = self.numbers.get(fragment)
        if found is None:
            found = self.numbers[fragment] = len(self.fragments)
            self.fragments.append(fragment)
        return found

    def drawn(self, steps: tuple[StepView, ...], draw: Any) -> list[list[list[int]]]:
        """The state after each step as the page draws it (``draw``: the template's ``state_or_note``),
        its lines as fragment numbers (report.js joins each line's fragments, then the lines)."""
        return [
            [[self.number(f) for f in PIECE_START.split(line) if f] for line in str(draw(sv, "")).split("\n")]
            for sv in steps
        ]

    def __call__(self, steps: tuple[StepView, ...], draw: Any) -> Views:
        drawn = self.drawn(steps, draw)
        key = trace_id({"views": drawn})
        first = key not in self.seen
        self.seen.add(key)
        return Views(key, pack_states(drawn) if first else None)  # diffed once: the costly part


def _unpacked(certificate: Mapping[str, Any]) -> Mapping[str, Any]:
    """The certificate with its failures' traces and states whole (format 1); a hand-made one whose
    traces do not unpack is drawn as it is, without them."""
    try:
        return unpack(certificate)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return certificate


def render_html(certificate: Mapping[str, Any]) -> str:
    """The whole page for a certificate (``Certificate.to_json()``, or a format 1 one), embedded as given."""
    style, script = _asset("report.css"), _asset("report.js")
    plain_certificate = _unpacked(certificate)
    games = [game_view(g, d) for g, d in _dict(plain_certificate.get("games")).items() if isinstance(d, dict)]
    failing = [g for g in games if g.deviations or g.consequences]  # the summary at the top: these games
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
            games=games,
            failing=failing,
            first=next((g.first_deviation for g in failing if g.first_deviation is not None), None),
            interrupted=_str(certificate.get("interrupted_by", "")) if certificate.get("interrupted") is True else None,
            not_run=", ".join(_str(g) for g in certificate.get("not_run") or []),
            other=run_facts(certificate),
            markdown=markdown,
            plain=plain,
            page_views=PageViews(),
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
