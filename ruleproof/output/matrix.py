"""The matrix's static site: an overview, a page per game (engines as columns, clauses as rows), a page per
engine (its report, certificate and replay commands), ``matrix.json`` and an SVG badge per engine and game.

Pages are rendered with the HTML report's Jinja2 environment (autoescaping on: engine names, hello's
strings, broken reasons and rule titles are the engines' and untrusted), have no script, and admit only
their own inline style by hash (Content-Security-Policy), as the report does.  Links are relative, so the
folder can be served anywhere (GitHub Pages) or opened from disk.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen
from markupsafe import Markup

from ruleproof.model.clauses import document, headings
from ruleproof.model.games import BY_NAME, CONTRACT_DOC
from ruleproof.model.report import family
from ruleproof.output.files import certificate_text, write_atomic
from ruleproof.output.html import _asset, _csp_hash, environment, plain, render_html
from ruleproof.run.matrix import Outcome

CELL_ORDER = ("fail", "xpass", "declared", "partial", "untested", "pass", "covered", "skipped")
BADGE_COLOURS = {"pass": "#2e7d32", "fail": "#c62828", "broken": "#ad1457"}
BADGE_OTHER = "#8a6d00"  # interrupted, untested, not run: not a verdict either way


@frozen
class Cell:
    status: str
    href: str | None = None  # a failing cell: its counterexample in the engine's report


@frozen
class Row:
    clause: str
    text: str  # the clause's wording, without its markdown marks
    cells: tuple[Cell, ...]


@frozen
class Section:
    label: str  # "BM-SCORE", with the heading of the rules document that states it
    rows: tuple[Row, ...]


@frozen
class Column:
    """One engine of one game: its header (verdict, score, the rules it was judged under, why it broke)."""

    name: str
    slug: str
    page: str
    verdict: str
    reason: str | None
    title: str
    score: str  # "34/36", or the verdict when nothing was judged
    counts: tuple[tuple[str, int], ...]
    history: Mapping[str, Any] | None


def schema_errors(data: Any) -> list[str]:
    """What makes ``data`` not a matrix summary (``ruleproof/schemas/matrix.json``), each naming its field."""
    import jsonschema_rs

    from ruleproof.model.schema import json_path, load

    checker = jsonschema_rs.validator_for(load("matrix"))
    return [f"{json_path(list(e.instance_path)) or '<root>'}: {e.message}" for e in checker.iter_errors(data)]


def write_site(site: Path, summary: dict[str, Any], outcomes: Sequence[Outcome]) -> None:
    """Every file of the site, the engines' folders first (the pages link to them)."""
    (site / "badges").mkdir(parents=True, exist_ok=True)
    css = _asset("matrix.css")
    common = {"style": Markup(css), "csp": f"default-src 'none'; style-src {_csp_hash(css)}; img-src 'self'",
              "summary": summary, "plain": plain}  # fmt: skip
    env = environment()
    for engine, outcome in zip(summary["engines"], outcomes, strict=True):
        folder = site / "engines" / engine["slug"]
        folder.mkdir(parents=True, exist_ok=True)
        cert = outcome.certificate
        if cert is not None:
            write_atomic(folder / "certificate.json", certificate_text(cert))
            write_atomic(folder / "report.html", render_html(cert))
        page = env.get_template("matrix_engine.html.j2").render(
            **common, root="../../", engine=engine, replays=replays(cert), certify=shlex.join(engine["certify"])
        )
        write_atomic(folder / "index.html", page)
        for game, column in engine["games"].items():
            write_atomic(site / column["badge"], badge(game, engine, column))
    for game in summary["games"]:
        columns, sections = game_table(game, summary, {o.entry.name: o.certificate for o in outcomes})
        page = env.get_template("matrix_game.html.j2").render(
            **common, root="", game=game, title=BY_NAME[game].title, columns=columns, sections=sections
        )
        write_atomic(site / f"{game}.html", page)
    write_atomic(site / "index.html", env.get_template("matrix_index.html.j2").render(**common, root=""))
    write_atomic(site / "matrix.json", json.dumps(summary, indent=1) + "\n")


def replays(cert: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """(game clause, replay command) of every saved counterexample of the certificate."""
    return [
        (f"{game} {f.get('clause', '?')}", str(f["replay"]))
        for game, data in ((cert or {}).get("games") or {}).items()
        for f in data.get("failures") or ()
        if f.get("replay")
    ]


def game_table(
    game: str, summary: Mapping[str, Any], certs: Mapping[str, Mapping[str, Any] | None]
) -> tuple[list[Column], list[Section]]:
    """The columns (engines that list ``game``) and the rows, grouped by rule section in the documents' order."""
    engines = [e for e in summary["engines"] if game in e["games"]]
    columns = [column(e, game) for e in engines]
    clauses = ordered({c for e in engines for c in e["games"][game]["clauses"]}, game)
    texts = {**document(CONTRACT_DOC), **document(BY_NAME[game].rules_doc)}
    anchors = {e["name"]: failure_anchors(game, certs.get(e["name"])) for e in engines}
    sections: dict[str, list[Row]] = {}
    for clause in clauses:
        cells = tuple(
            cell_of(e, e["games"][game]["clauses"].get(clause), anchors[e["name"]].get(clause)) for e in engines
        )
        sections.setdefault(section_label(game, clause), []).append(Row(clause, plain(texts.get(clause, "")), cells))
    return columns, [Section(label, tuple(rows)) for label, rows in sections.items()]


def column(engine: Mapping[str, Any], game: str) -> Column:
    data = engine["games"][game]
    counts = tuple((s, data["counts"][s]) for s in (*CELL_ORDER, *sorted(set(data["counts"]) - set(CELL_ORDER)))
                   if data["counts"].get(s))  # fmt: skip
    judged = bool(data["clauses"])
    return Column(
        name=engine["name"],
        slug=engine["slug"],
        page=engine["page"],
        verdict="broken" if engine["verdict"] == "broken" else data["verdict"],
        reason=engine.get("reason"),
        title=data["title"] if judged else "",
        score=f"{data['passed']}/{data['total']}" if judged else "—",
        counts=counts,
        history=(engine.get("history") or {}).get(game),
    )


def cell_of(engine: Mapping[str, Any], status: str | None, anchor: str | None) -> Cell:
    if status is None:  # the engine's certificate has no such row: it broke before, or the clause is not its game's
        return Cell("broken" if engine["verdict"] == "broken" else "none")
    linked = anchor is not None and engine.get("report") and status in ("fail", "xpass", "declared")
    return Cell(status, f"{engine['report']}#{anchor}" if linked else None)


def failure_anchors(game: str, cert: Mapping[str, Any] | None) -> dict[str, str]:
    """Clause -> the id of its first failure on the report page (``ruleproof.output.html.failure_view``)."""
    failures = (((cert or {}).get("games") or {}).get(game) or {}).get("failures") or []
    found: dict[str, str] = {}
    for i, f in enumerate(failures):
        found.setdefault(str(f.get("clause")), f"failure-{game}-{i}")
    return found


def ordered(clauses: set[str], game: str) -> list[str]:
    """The rules document's order, the contract's clauses after the game's, any other last."""
    known = [*document(BY_NAME[game].rules_doc), *document(CONTRACT_DOC)]
    return [c for c in known if c in clauses] + sorted(clauses - set(known))


def section_label(game: str, clause: str) -> str:
    """A clause's section: its family ("BM-SCORE") and the heading that states it ("Clauses")."""
    heading = headings(BY_NAME[game].rules_doc).get(clause) or headings(CONTRACT_DOC).get(clause)
    return f"{family(clause)} · {heading}" if heading else family(clause)


def badge(game: str, engine: Mapping[str, Any], column: Mapping[str, Any]) -> str:
    """A flat badge "black-maria 34/36" (shields.io's look), its title naming the engine."""
    judged = bool(column["clauses"]) and engine["verdict"] != "broken"
    message = f"{column['passed']}/{column['total']}" if judged else engine["verdict"]
    verdict = column["verdict"] if judged else engine["verdict"]
    return (
        environment()
        .get_template("matrix_badge.svg.j2")
        .render(
            label=game,
            message=message,
            title=f"{engine['name']}: {game} {message} ({verdict})",
            colour=BADGE_COLOURS.get(verdict, BADGE_OTHER),
            left=_width(game),
            right=_width(message),
        )
    )


def _width(text: str) -> int:
    """About what Verdana 11px needs (shields.io's font), with the badge's padding."""
    return round(sum(4.5 if ch in "il1/.:|" else 7.0 for ch in text)) + 12
