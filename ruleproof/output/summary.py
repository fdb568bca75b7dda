"""A markdown summary of a certification, for a CI job summary (``--summary "$GITHUB_STEP_SUMMARY"``).

The verdict first, then per game the deviations (each with what broke in the same step), the
consequences (each with what it follows), and the counts of every verdict; each failure with its
message, counterexample length and replay command.  Written when the run finishes, like every file.
"""

from __future__ import annotations

from pathlib import Path

from ruleproof.model.certificate import Certificate
from ruleproof.model.report import Deviation, Failure, GameReport
from ruleproof.run.events import Event, RunFinished

MARK = {"pass": "✅", "fail": "❌", "broken": "💥", "interrupted": "⏸️", "untested": "⚠️"}


def summary_markdown(cert: Certificate) -> str:
    engine = cert.engine.get("name", "?")
    lines = [
        f"## {MARK.get(cert.verdict, '')} ruleproof: {cert.verdict} — {_cell(str(engine))}",
        "",
        f"Profile `{cert.profile}`, seed `{cert.seed}`, ruleproof {cert.versions.get('ruleproof', '?')}, "
        f"Hypothesis {cert.versions.get('hypothesis', '?')}.",
        "",
    ]
    if cert.broken is not None:
        lines += [f"**The engine could not be driven** ({cert.broken.kind}): {_cell(cert.broken.message)}", ""]
    if cert.interrupted is not None:
        not_run = f"; not run: {', '.join(cert.not_run)}" if cert.not_run else ""
        lines += [f"**Interrupted** ({cert.interrupted}): the verdicts so far are kept{not_run}.", ""]
    for r in cert.reports:
        lines += _game(cert, r)
    return "\n".join(lines).rstrip() + "\n"


def _game(cert: Certificate, r: GameReport) -> list[str]:
    counts: dict[str, int] = {}
    for status in r.clauses.values():
        counts[status] = counts.get(status, 0) + 1
    lines = [
        f"### {MARK.get(r.verdict, '')} {r.title}: {r.verdict}",
        "",
        ", ".join(f"{n} {s}" for s, n in counts.items()) + f" · {r.stats.get('calls', 0):,} engine calls",
        "",
    ]
    if r.broken is not None:
        stage = f" during {r.stopped.stage}" if r.stopped else ""
        lines += [f"Driving stopped{stage}: {r.broken.kind}: {_cell(r.broken.message)}", ""]
    groups, consequences = r.deviations(), r.consequences()
    if groups or consequences:
        lines += ["| | clause | what | steps | replay |", "|---|---|---|---|---|"]
        for group in groups:
            rest = group.clauses[1:]
            lines.append(_row(cert, r, group.head, "deviation" + (f", with {', '.join(rest)}" if rest else "")))
            lines += [_row(cert, r, _first(group, c), f"with {group.clause}") for c in rest]
        lines += [_row(cert, r, d.head, f"after {', '.join(d.follows)}") for d in consequences]
        lines.append("")
    untested = [c for c, s in r.clauses.items() if s == "untested"]
    if untested:
        lines += [f"Untested (no run reached them; not passed): {', '.join(untested)}", ""]
    return lines


def _first(group: Deviation, clause: str) -> Failure:
    return next(f for f in group.failures if f.finding.clause == clause)


def _row(cert: Certificate, r: GameReport, f: Failure, kind: str) -> str:
    clause = f.finding.clause
    path = cert.trace_file(r.game, clause, r.failures_of(clause).index(f))
    replay = f"`{cert.replay_command(path)}`" if path else ""
    status = r.clauses.get(clause, "fail")
    shown = f"{kind} ({status})" if status != "fail" else kind
    return f"| {shown} | **{clause}** | {_cell(f.finding.message)} | {f.steps} | {replay} |"


def _cell(text: str) -> str:
    """Text safe in one markdown table cell: no pipes, no newlines, not too long."""
    text = " ".join(text.replace("|", "\\|").split())
    return text if len(text) <= 200 else text[:199] + "…"


class SummaryFile:
    """``--summary PATH``: the markdown summary, added to the end of PATH when the run finishes (a CI job
    summary collects what every step writes there)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def handle(self, event: Event) -> None:
        if isinstance(event, RunFinished):
            with self.path.open("a", encoding="utf-8") as f:
                f.write(summary_markdown(event.certificate) + "\n")
