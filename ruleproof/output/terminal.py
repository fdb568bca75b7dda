"""The report in the terminal: a verdict table per game, each failure drawn, then one summary line.

``TerminalReport`` is a handler of the run's events (``ruleproof.run.events``): it prints when the run
finishes, from the certificate, on the console it is given (stdout for the report, stderr for what
went wrong around it).  Engine strings are printed as text, never as markup.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ruleproof.model.certificate import Certificate
from ruleproof.model.engine import AdapterBroken
from ruleproof.model.report import GameReport
from ruleproof.output.render import render_failure
from ruleproof.run.events import Event, RunFinished
from ruleproof.run.expect import differences, expectation_notes, listed_untested

STATUS_STYLE = {
    "pass": "green",
    "fail": "bold red",
    "untested": "yellow",
    "skipped": "dim",
    "broken": "bold magenta",
    "interrupted": "bold yellow",
    "xfail": "cyan",
    "xpass": "bold red",
    "covered": "blue",
    "partial": "yellow",
}


class TerminalReport:
    """Prints the report when the run finishes: tables and failures on ``out``, problems on ``err``."""

    def __init__(self, out: Console, err: Console) -> None:
        self.out, self.err = out, err

    def handle(self, event: Event) -> None:
        if not isinstance(event, RunFinished):
            return
        cert = event.certificate
        for warning in cert.baseline_warnings:
            self.err.print(f"[yellow]warning[/]: {escape(warning)}")
        if cert.broken is not None:
            print_broken(
                self.err,
                "start" if not cert.engine.get("version") or cert.engine.get("version") == "?" else "hello",
                cert.broken,
            )
        print_report(self.out, cert)
        print_differences(self.out, cert)
        if cert.verdict == "untested":
            self.err.print("[yellow]nothing was judged[/]: every clause is untested or skipped, so this is not a pass")


def print_report(out: Console, cert: Certificate) -> None:
    for r in cert.reports:
        out.print(clause_table(r))
        if r.broken is not None and r.broken.kind == "interrupted":  # the run was stopping: not the engine's fault
            out.print(f"[yellow]stopped[/] ({r.game}): {escape(r.broken.message)}")
        elif r.broken is not None:
            print_broken(out, r.game, r.broken)
        if r.kit_error:
            out.print(f"[bold red]kit error[/] ({r.game}): {escape(r.kit_error)} (a bug of ruleproof, not the engine)")
        data = cert.plain_json()["games"][r.game]  # drawn from the certificate JSON (unpacked), as --html has it
        for failure in data["failures"]:  # an xfail (declared in --expect) is shown, but not as a failure
            out.print(
                render_failure(r.game, failure, data["clauses"].get(failure["clause"])), soft_wrap=True
            )  # JSON stays copyable
        untested = [c for c, s in r.clauses.items() if s == "untested"]
        if untested:
            out.print(f"[yellow]untested (no run reached them; not passed):[/] {escape(', '.join(untested))}")
        for note in r.skipped:
            out.print(f"[dim]skipped: {escape(note)}[/]")
    # one line however long: a CI log is no terminal, and rich would wrap it at 80 columns there
    verdict_line = (
        f"[{STATUS_STYLE.get(cert.verdict, '')}]{cert.verdict.upper()}[/]: {escape(summary_line(cert.reports))}"
    )
    out.print(verdict_line, soft_wrap=True)


def verdict_text(r: GameReport, clause: str, status: str) -> str:
    """A clause's verdict as shown: "fail, after BM-PASS-1" for a failure that follows others."""
    follows = r.follows(clause) if status in ("fail", "xfail") else ()
    return f"{status}, after {', '.join(follows)}" if follows else status


def summary_line(reports: Sequence[GameReport]) -> str:
    """Deviations first (``GameReport.deviations``: each group of failures that observed one difference
    counts once), then their consequences, then the other verdicts."""
    deviations = [d for r in reports for d in r.deviations()]
    consequences = [d for r in reports for d in r.consequences()]
    counts: dict[str, int] = {}
    for r in reports:
        for status in r.clauses.values():
            counts[status] = counts.get(status, 0) + 1
    parts = []
    if deviations:
        named = "; ".join(d.label for d in deviations[:6])
        more = f"; +{len(deviations) - 6} more" if len(deviations) > 6 else ""
        parts.append(f"{len(deviations)} deviation{'s' if len(deviations) != 1 else ''} ({named}{more})")
    if consequences:
        parts.append(f"{len(consequences)} consequence{'s' if len(consequences) != 1 else ''} of them")
    verdicts = ", ".join(f"{n} {s}" for s, n in counts.items())
    return " · ".join([*parts, verdicts or "no clause"])


def clause_table(r: GameReport) -> Table:
    """One game's verdicts, a row per clause, with the first failure's message or why it stands as it does."""
    verdict = r.verdict
    table = Table(title=f"{r.title}: {verdict}", title_style=STATUS_STYLE.get(verdict, ""), show_lines=False)
    table.add_column("clause")
    table.add_column("verdict")
    table.add_column("checks", justify="right")
    table.add_column("note", overflow="fold")
    notes: dict[str, str] = {}
    for f in r.failures:
        notes.setdefault(f.finding.clause, f.finding.message)
    notes.update(expectation_notes(r))
    for clause in r.clauses:  # a partial clause says which of its situations no run reached
        if r.missing(clause) and clause not in notes:
            notes[clause] = f"not reached: {', '.join(r.missing(clause))}"
    for clause, status in r.clauses.items():
        style = STATUS_STYLE.get(status, "")
        shown = verdict_text(r, clause, status)
        table.add_row(
            escape(clause),
            f"[{style}]{escape(shown)}[/]" if style else escape(shown),
            str(r.hits.get(clause, 0)),
            escape(notes.get(clause, "")),
        )
    return table


def print_broken(out: Console, where: str, broken: AdapterBroken) -> None:
    method = broken.sent.get("method") if isinstance(broken.sent, dict) else None
    on = f" on {method}" if method else ""  # the one line names the request that got no usable answer
    out.print(f"[bold magenta]ADAPTER BROKEN[/] ({where}, {broken.kind}){on}: {escape(broken.message)}")
    if broken.sent is not None:
        out.print(f"  sent:     {escape(json.dumps(broken.sent, default=str)[:500])}")
    if broken.received is not None:
        out.print(f"  received: {escape(json.dumps(broken.received, default=str)[:500])}")
    if broken.stderr:
        out.print("  engine stderr (tail):")
        for line in broken.stderr.splitlines()[-10:]:
            out.print(f"    {escape(line)}")


def print_differences(out: Console, cert: Certificate) -> None:
    """After the tables: what differs from the declared expectations and from the baseline."""
    for line in differences(cert.reports, cert.expect_file) if (cert.expect_file or cert.baseline_file) else []:
        out.print(f"[bold red]{escape(line)}[/]")
    for r in cert.reports:
        untested = listed_untested(r)
        if untested:
            out.print(f"[yellow]{r.game}: listed and not judged in this run:[/] {escape(', '.join(untested))}")
        if r.baseline is not None:
            b = r.baseline
            parts = [
                f"{len(b.regressions)} regression{'s' if len(b.regressions) != 1 else ''}",
                f"{len(b.fixed)} fixed",
                f"{len(b.untested)} no longer judged",
            ]
            out.print(f"{r.game} against the baseline: {', '.join(parts)}")
            for name, clauses in (("regressions", b.regressions), ("fixed", b.fixed), ("untested", b.untested)):
                if clauses:
                    out.print(f"  {name}: {escape(', '.join(clauses))}")
