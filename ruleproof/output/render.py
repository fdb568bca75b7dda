"""A failure as a person reads it in the terminal.

Everything is drawn from the failure's certificate JSON (``Certificate.to_json``),
the same data ``--json`` and ``--html`` write, so the three never disagree:
the clause and its text, expected versus got in one JSON notation, the last
steps before the violation (the trace's last event is the violating step), the
table after that step with suit symbols, and the replay command.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen
from rich.console import Group, RenderableType
from rich.text import Text

from ruleproof.model.clauses import clause_text
from ruleproof.model.report import NOT_REPRODUCED
from ruleproof.output.table import Piece, TableView, Zone, compact, table_of

LAST_STEPS = 8  # the end of the counterexample is where the violation is
MAX_VALUE_CHARS = 1200  # expected/got longer than this are cut in the terminal (the certificate has them whole)
FOOL_STYLES = {"G": "green", "R": "red", "Y": "yellow", "B": "blue", "": "bold magenta"}


@frozen
class Step:
    """One event of a counterexample, numbered from 1, with the tables around it."""

    number: int
    kind: str  # "new_game" | "apply" | "reject"
    value: Any
    clause: str | None  # for "reject": the clause the move breaks
    seat: int | None  # the seat to act before the step (None when unknown)
    before: Mapping[str, Any] | None  # the engine's state before the step (None: not recorded)
    after: Mapping[str, Any] | None  # ... and after it

    @property
    def is_deal(self) -> bool:
        return isinstance(self.value, dict) and self.value.get("type") == "deal"


def steps_of(failure: Mapping[str, Any]) -> list[Step]:
    """The failure's trace as numbered steps, joined with the recorded states (may be empty)."""
    trace = _list(failure.get("trace"))
    states = _list(failure.get("states"))
    out = []
    for i, event in enumerate(trace):
        kind, value = _event(event)
        before = states[i - 1] if 0 < i <= len(states) and isinstance(states[i - 1], dict) else None
        after = states[i] if i < len(states) and isinstance(states[i], dict) else None
        seat = before.get("to_act") if before and kind != "new_game" else None
        clause = event.get("clause") if isinstance(event, dict) else None
        out.append(
            Step(
                i + 1,
                kind,
                value,
                clause if isinstance(clause, str) else None,
                seat if isinstance(seat, int) else None,
                before,
                after,
            )
        )
    return out


def _list(value: Any) -> list[Any]:
    """A list from a certificate, or [] for anything else (an older or hand-written certificate)."""
    return value if isinstance(value, list) else []


def _event(event: Any) -> tuple[str, Any]:
    if isinstance(event, dict):
        for kind in ("new_game", "apply", "reject"):
            if kind in event:
                return kind, event[kind]
    return "?", event


def deal_summary(value: Mapping[str, Any]) -> str:
    """A deal move in a few words: its sizes (the cards are drawn in the table)."""
    parts = []
    for key, v in value.items():
        if key == "type":
            continue
        if isinstance(v, list) and all(isinstance(x, list) for x in v):
            parts.append(f"{key} " + "+".join(str(len(x)) for x in v))
        elif isinstance(v, list):
            parts.append(f"{key} {len(v)}")
        else:
            parts.append(f"{key} {compact(v)}")
    return "deal: " + ", ".join(parts)


def step_line(step: Step) -> str:
    """``apply {"type": "play", "card": "QS"}`` (deals summarized), with the acting seat."""
    if step.kind == "new_game":
        return f"new_game {compact(step.value)}"
    what = deal_summary(step.value) if step.is_deal else compact(step.value)
    who = f"seat {step.seat} " if step.seat is not None else ""
    if step.kind == "reject":
        return f"{who}reject {what}" + (f"  (must be refused: {step.clause})" if step.clause else "")
    return f"{who}{step.kind} {what}"


def _move_key(value: Any) -> str:
    """Moves compare as JSON values with the order inside a ``cards`` list ignored (protocol.md §2)."""
    if isinstance(value, dict) and isinstance(value.get("cards"), list):
        value = {**value, "cards": sorted(value["cards"], key=compact)}
    return json.dumps(value, sort_keys=True, default=str)


# what a bare number or word compares, by the atom a finding observed (ruleproof.model.observed)
FIELDS = {"to_act": "the seat to act", "dealer": "the dealer", "leader": "the leader", "round": "the round",
          "phase": "the phase", "result": "the result"}  # fmt: skip


def field_of(failure: Mapping[str, Any]) -> str:
    """The field a scalar expected/got compares ("seat 2's score", "the size of discard"), named by
    the one part of the state the finding observed; "" when the values name themselves (an object, a
    list) or the finding observed several parts, or none of the state's (a check's own ``check:``)."""
    values = (failure.get("expected"), failure.get("got"))
    if any(isinstance(v, dict | list) for v in values) or all(v is None for v in values):
        return ""
    atoms = [str(a) for a in failure.get("observed") or [] if str(a) != "move" and not str(a).startswith("check:")]
    if len(atoms) != 1:
        return ""
    kind, _, rest = atoms[0].partition(":")
    if kind == "scores" and rest:
        return f"seat {rest}'s score"
    if kind == "zone" and rest.endswith(":size"):
        return f"the size of {rest.removesuffix(':size')}"
    if kind == "zone" and rest:
        return rest
    return FIELDS.get(atoms[0], "")


def more_steps(n: int) -> str:
    """``1 more step``, ``19 more steps``: the steps a counterexample's listing leaves out."""
    return f"{n} more step{'s' if n != 1 else ''}"


def list_difference(expected: Any, got: Any) -> tuple[list[Any], list[Any]] | None:
    """(missing from got, extra in got) when both sides are lists: the moves or cards that differ."""
    if not isinstance(expected, list) or not isinstance(got, list):
        return None
    want, have = Counter(map(_move_key, expected)), Counter(map(_move_key, got))
    first = {_move_key(v): v for v in [*got, *expected]}
    return [first[k] for k in (want - have).elements()], [first[k] for k in (have - want).elements()]


def differing(expected: Any, got: Any) -> dict[str, list[Any]]:
    """The moves or cards that differ, by name: ``missing`` and ``extra`` when non-empty.

    Two lists are compared as multisets; a property that already split them
    (``{"missing": [...]}`` or ``{"extra": [...]}`` on either side) is taken at its word.
    """
    difference = list_difference(expected, got)
    if difference is not None:
        return {k: v for k, v in zip(("missing", "extra"), difference, strict=True) if v}
    found: dict[str, list[Any]] = {}
    for side in (expected, got):
        if isinstance(side, dict):
            for key in ("missing", "extra"):
                if isinstance(side.get(key), list) and side[key]:
                    found.setdefault(key, side[key])
    return found


def length_note(failure: Mapping[str, Any]) -> str:
    """How the counterexample's length compares with the one first recorded (``original_steps``)."""
    original, steps = failure.get("original_steps"), failure.get("trace")
    if not isinstance(original, int) or isinstance(original, bool) or original <= 0 or not isinstance(steps, list):
        return ""
    return f"(minimized from {original})" if original > len(steps) else "(as first recorded: nothing shorter found)"


def _cut(text: str) -> str:
    if len(text) <= MAX_VALUE_CHARS:
        return text
    return text[:MAX_VALUE_CHARS] + f" … ({len(text) - MAX_VALUE_CHARS} more characters in the certificate)"


def piece_text(p: Piece) -> Text:
    if p.kind == "card":
        return Text(p.label, style="red" if p.red else "")
    if p.kind == "fool":
        return Text(p.text, style=FOOL_STYLES.get(p.suit, ""))
    return Text(p.label)


def pieces_text(pieces: Sequence[Piece], labels: Sequence[str] = ()) -> Text:
    out = Text()
    for i, p in enumerate(pieces):
        if i:
            out.append(" ")
        if i < len(labels):
            out.append(f"{labels[i]}: ", style="dim")
        out.append_text(piece_text(p))
    return out


def zone_text(zone: Zone) -> Text:
    if zone.counted:
        unit = "tiles" if zone.pieces and zone.pieces[0].kind == "tile" else "cards"
        out = Text(f"{len(zone.pieces)} {unit}" if zone.pieces else "empty", style="dim")
    else:
        out = pieces_text(zone.pieces, zone.labels) if zone.pieces else Text("empty", style="dim")
    if zone.changed:
        out.append("   (", style="cyan")
        if zone.added:
            out.append("+ ", style="cyan")
            out.append_text(pieces_text(zone.added))
        if zone.added and zone.removed:
            out.append("; ", style="cyan")
        if zone.removed:
            out.append("− ", style="cyan")
            out.append_text(pieces_text(zone.removed))
        out.append(" this step)", style="cyan")
    return out


def table_lines(view: TableView, indent: str = "    ") -> list[Text]:
    """The table as lines: a headline, one block per seat, the shared zones, the other fields."""
    lines = [Text(indent + "  ·  ".join(f"{k} {v}" for k, v in view.headline), style="dim")]
    for seat in view.seats:
        head = Text(f"{indent}seat {seat.seat}", style="bold")
        if seat.marks:
            head.append(f" ({', '.join(seat.marks)})", style="bold yellow")
        if seat.fields:
            head.append("   " + "  ".join(f"{k} {v}" for k, v in seat.fields))
        lines.append(head)
        for zone in seat.zones:
            lines.append(Text(f"{indent}  {zone.name:<10} ").append_text(zone_text(zone)))
    for zone in view.shared:
        lines.append(Text(f"{indent}{zone.name:<12} ").append_text(zone_text(zone)))
    lines += [Text(f"{indent}{k:<12} {v}", style="dim") for k, v in view.info]
    if view.result is not None:
        lines.append(Text(f"{indent}result       {view.result}", style="bold"))
    return lines


def heading(game: str, failure: Mapping[str, Any], entry: Mapping[str, Any] | None) -> Text:
    """``FAIL CLAUSE (game, source): message``; ``XFAIL`` with the reason when the clause is declared (``--expect``)."""
    clause = str(failure.get("clause", "?"))
    if entry and entry.get("status") == "xfail":
        out = Text.assemble((f"XFAIL {clause}", "cyan"), f" (listed: {entry.get('expected', '')})")
    else:
        out = Text(f"FAIL {clause}", style="bold red")
    follows = [str(c) for c in failure.get("follows") or []]
    if follows:  # a consequence: shown as such, never as a deviation of its own
        out.append(f", after {', '.join(follows)}", style="red")
    return out.append(f" ({game}, {failure.get('source', '?')}): {failure.get('message', '')}")


def relation_lines(failure: Mapping[str, Any]) -> list[RenderableType]:
    """What broke in the same step, and what this failure follows from."""
    lines: list[RenderableType] = []
    together = [str(c) for c in failure.get("with") or []]
    follows = [str(c) for c in failure.get("follows") or []]
    if together:
        lines.append(Text(f"  with:     {', '.join(together)} (violated in the same step)"))
    if follows:
        lines.append(
            Text(
                f"  after:    {', '.join(follows)} (no counterexample without them was found: a consequence of them)",
                style="yellow",
            )
        )
    return lines


def render_failure(
    game: str, failure: Mapping[str, Any], entry: Mapping[str, Any] | None = None, last: int = LAST_STEPS
) -> RenderableType:
    """Everything a person needs to understand and replay one failure.

    ``entry`` is the clause's line of the certificate (``{"status", "hits", "expected"?}``).
    Engine strings are rich ``Text``, never markup: a ``[`` in a message is printed as is.
    """
    clause = str(failure.get("clause", "?"))
    lines: list[RenderableType] = [heading(game, failure, entry)]
    text = clause_text(clause)
    if text:
        lines.append(Text(f"  rule: {text}", style="italic"))
    expected, got = failure.get("expected"), failure.get("got")
    field = field_of(failure)
    lines.append(Text(f"  expected: {_cut(compact(expected))}" + (f"   ({field})" if field else "")))
    lines.append(Text(f"  got:      {_cut(compact(got))}"))
    for name, values in differing(expected, got).items():
        lines.append(Text(f"  {name + ':':<9} {_cut(compact(values))}", style="yellow"))
    lines += relation_lines(failure)
    lines += _trace_lines(failure, last)
    if failure.get("replay"):
        lines.append(Text(f"  replay: {failure['replay']}"))
    return Group(*lines)


def unconfirmed_note(failure: Mapping[str, Any]) -> str:
    """Why a failure is not confirmed: "NOT reproduced" only when a replay ran and differed."""
    why = str(failure.get("unconfirmed") or NOT_REPRODUCED)
    return why.replace("not reproduced", "NOT reproduced", 1) if why == NOT_REPRODUCED else f"not confirmed: {why}"


def _trace_lines(failure: Mapping[str, Any], last: int) -> list[RenderableType]:
    steps = steps_of(failure)
    if not steps:
        return [Text("  no counterexample recorded", style="dim")]
    length = f"  counterexample: {len(steps)} steps"
    if length_note(failure):
        length += " " + length_note(failure)
    if failure.get("confirmed") is False:
        length += f" ({unconfirmed_note(failure)})"
    lines: list[RenderableType] = [Text(length)]
    shown = steps[-last:]
    if shown[0].number > 1:
        setup = next((s for s in reversed(steps[: shown[0].number - 1]) if s.kind == "new_game"), None)
        if setup is not None:
            lines.append(Text(f"    {setup.number:>4}  {step_line(setup)}", style="dim"))
        lines.append(Text(f"          … {more_steps(shown[0].number - 1 - (setup is not None))}", style="dim"))
    for step in shown:
        line = Text(f"    {step.number:>4}  {step_line(step)}")
        if step is steps[-1]:
            line = Text(f"  → {step.number:>4}  {step_line(step)}", style="bold")
            line.append(f"   ← violates {failure.get('clause', '?')}", style="bold red")
        lines.append(line)
    violating = steps[-1]
    if violating.after is None:
        lines.append(Text("  the table: not recorded in this certificate", style="dim"))
    else:
        lines.append(Text(f"  the table after step {violating.number}:"))
        lines += table_lines(table_of(violating.after, violating.before))
    return lines
