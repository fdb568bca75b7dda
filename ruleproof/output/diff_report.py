"""``ruleproof diff`` as a person reads it in the terminal, and its trace files.

The verdict first (a behaviour difference is red; differences only in what the contract leaves open
are listed apart and are red only under ``--strict``), then each difference: the field with its
seat named, both sides' values drawn whole (never cut mid-value: the lines are not wrapped by the
kit, the terminal wraps them), which side breaks a clause, the last steps with the seat that moved,
and the board at the divergent step drawn as certify draws a failure's (``ruleproof.output.render``),
with the seat that moved marked and side B's differing fields beside it.  A score difference also
shows the cards behind the scores: each seat's won cards, penalty counts and cards left, per side.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen
from rich.console import Console
from rich.text import Text

from ruleproof.model.engine import JSONObject
from ruleproof.model.games import BY_NAME
from ruleproof.output.files import write_atomic
from ruleproof.output.render import (
    LAST_STEPS,
    list_difference,
    more_steps,
    pieces_text,
    step_line,
    steps_of,
    table_lines,
    zone_text,
)
from ruleproof.output.table import TableView, compact, piece, table_of
from ruleproof.run.diff import DiffResult, Divergence

SEAT_FIELDS = ("to_act", "leader", "dealer", "first_bidder", "declarer")  # a field naming one seat
SHOWN_PIECES = 20  # a zone holding more is shown as a count and what only one side holds


@frozen
class Saved:
    """Where one difference's trace was saved (and side B's copy, under --vs-options)."""

    divergence: Divergence
    path: Path
    path_b: Path | None


def save_traces(result: DiffResult, folder: Path) -> list[Saved]:
    """One trace file per difference: ``diff-GAME-N.json`` for a divergence, ``diff-GAME-open-N.json`` for
    a difference in what the contract leaves open, and ``...-b.json`` for side B when its setup differs."""
    saved = []
    for kind, found in (("", result.divergences), ("open-", result.open)):
        for n, d in enumerate(found, 1):
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"diff-{result.game}-{kind}{n}.json"
            write_atomic(path, json.dumps(d.trace.to_json(), indent=1) + "\n")
            path_b = None
            if d.trace_b != d.trace:
                path_b = folder / f"diff-{result.game}-{kind}{n}-b.json"
                write_atomic(path_b, json.dumps(d.trace_b.to_json(), indent=1) + "\n")
            saved.append(Saved(d, path, path_b))
    return saved


@frozen
class Replays:
    """The arguments naming each side again for ``ruleproof replay`` (() for the reference)."""

    a: tuple[str, ...] = ()
    b: tuple[str, ...] = ()

    def line(self, saved: Saved) -> Text:
        a = shlex.join(["ruleproof", "replay", str(saved.path), *self.a])
        b = shlex.join(["ruleproof", "replay", str(saved.path_b or saved.path), *self.b])
        return Text(f"  replay: side A: {a}; side B: {b}")


def print_result(out: Console, result: DiffResult, saved: Sequence[Saved], replays: Replays | None = None) -> None:
    """The whole report; lines are never wrapped by the kit (``soft_wrap``): JSON stays whole and copyable."""
    paths = {id(s.divergence): s for s in saved}
    for line in report_lines(result, paths, replays or Replays()):
        out.print(line, soft_wrap=True)


def report_lines(result: DiffResult, saved: Mapping[int, Saved], replays: Replays) -> list[Text]:
    lines = [headline(result)]
    if result.broken or (not result.divergences and not result.open):
        return lines
    lines.append(Text(f"  A: {side_name(result.a)}   B: {side_name(result.b)}", style="dim"))
    for d in result.divergences:
        lines += [Text(""), *divergence_lines(result.game, d, saved.get(id(d)), replays)]
    if result.open:
        strict = "; --strict makes them fail the run" if not result.strict else ""
        lines += [
            Text(""),
            Text(
                f"Within what the contract leaves open ({len(result.open)}: both behaviours are within the rules, "
                f"docs/protocol.md §8{strict}):",
                style="bold",
            ),
        ]
        for d in result.open:
            lines += [Text(""), *divergence_lines(result.game, d, saved.get(id(d)), replays)]
    return lines


def headline(result: DiffResult) -> Text:
    stats = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in result.stats.items())
    game, profile = result.game, result.profile
    if result.broken:
        return Text.assemble(("BROKEN", "bold magenta"), f" {game}: {result.broken}")
    n, m = len(result.divergences), len(result.open)
    open_note = f"; {m} difference{'s' if m != 1 else ''} in what the contract leaves open" if m else ""
    if n:
        what = f"{n} behaviour difference{'s' if n != 1 else ''}"
        return Text.assemble(("DIVERGED", "bold red"), f" {game}: {what}{open_note} ({profile}; {stats})")
    if m and result.strict:
        return Text.assemble(("DIFFERENT", "bold red"), f" {game} (--strict): no behaviour difference{open_note}")
    return Text.assemble(
        ("SAME", "green"), f" {game}: no behaviour difference under the {profile} profile{open_note} ({stats})"
    )


def side_name(side: JSONObject) -> str:
    name = f"{side.get('name', '?')} {side.get('version', '')}".strip()
    options = side.get("options") or {}
    return name + (f" ({', '.join(f'{k}={compact(v)}' for k, v in options.items())})" if options else "")


def divergence_lines(game: str, d: Divergence, saved: Saved | None, replays: Replays) -> list[Text]:
    """One difference: what differs where, both values, the clauses, the steps, the board, the replay."""
    moved = f", seat {d.seat} moved" if d.seat is not None else ""
    lines = [
        Text.assemble(
            (field_label(d.difference.field), "bold"),
            f" differs at step {d.step} of {d.step}{moved} (minimized from {d.original} in {d.replays} replays)",
        )
    ]
    if d.reading:
        lines.append(Text(f"  left open: {d.reading}", style="cyan"))
    lines += value_lines(game, d.difference.field, d.difference.a, d.difference.b)
    if d.also:
        lines.append(Text(f"  also differing at that step: {', '.join(field_label(x.field) for x in d.also)}"))
    if d.clauses_a or d.clauses_b:
        a, b = ", ".join(d.clauses_a) or "none", ", ".join(d.clauses_b) or "none"
        lines.append(Text(f"  clauses broken: A: {a}; B: {b}", style="yellow"))
    elif not d.reading:
        lines.append(Text("  neither side breaks a clause on this trace: a behaviour the rules allow both ways"))
    lines += trace_lines(d)
    if not d.reading:  # the board for a behaviour difference; an open one needs only its steps
        lines += board_lines(game, d)
    if d.difference.field == "scores":
        lines += score_lines(game, d)
    if saved is not None:
        lines.append(replays.line(saved))
    return lines


def field_label(name: str) -> str:
    """``zones.hand/2`` -> ``seat 2's hand (zones.hand/2)``; a shared zone or a field as it is."""
    if name.startswith("zones."):
        zone, _, seat = name[6:].partition("/")
        return f"seat {seat}'s {zone} ({name})" if seat.isdigit() else name
    return name


def value_lines(game: str, name: str, a: Any, b: Any) -> list[Text]:
    if name == "legal_moves":  # the moves only one side lists
        return [
            Text(f"  only A lists: {', '.join(compact(m) for m in a) or 'nothing'}"),
            Text(f"  only B lists: {', '.join(compact(m) for m in b) or 'nothing'}"),
        ]
    lines = [Text("  A: ").append_text(value_text(game, name, a)), Text("  B: ").append_text(value_text(game, name, b))]
    difference = list_difference(a, b) if name.startswith("zones.") else None
    if difference is not None and (len(a) > SHOWN_PIECES or len(b) > SHOWN_PIECES):
        for side, only in zip("AB", difference, strict=True):
            drawn = pieces_text([piece(game, c) for c in only]) if only else Text("nothing", style="dim")
            lines.append(Text(f"  only in {side}: ").append_text(drawn))
    return lines


def value_text(game: str, name: str, value: Any) -> Text:
    """A value drawn whole: a zone as its pieces (a big pile as a count: ``value_lines`` adds what only
    one side holds), a seat as ``seat N``, a per-seat list (scores) seat by seat, anything else as its JSON."""
    if name.startswith("zones.") and isinstance(value, list):
        if len(value) > SHOWN_PIECES:
            return Text(f"{len(value)} {'tiles' if game in BY_NAME and BY_NAME[game].notation == 'tile' else 'cards'}")
        return pieces_text([piece(game, c) for c in value]) if value else Text("empty", style="dim")
    if name in SEAT_FIELDS and type(value) is int:
        return Text(f"seat {value}")
    if name == "scores" and isinstance(value, list):
        return Text("  ".join(f"seat {s}: {compact(v)}" for s, v in enumerate(value)))
    return Text(compact(value))


def _failure_view(d: Divergence, states: Sequence[Any]) -> JSONObject:
    """A divergence in the shape ``steps_of`` reads (a failure's trace and states)."""
    return {"trace": d.trace.moves(), "states": list(states)}


def trace_lines(d: Divergence) -> list[Text]:
    """The last steps, each with the seat that acted, the divergent one marked (as certify shows a failure)."""
    steps = steps_of(_failure_view(d, d.states_a))
    if not steps:
        return []
    shown = steps[-LAST_STEPS:]
    lines = []
    if shown[0].number > 1:
        lines.append(Text(f"    {steps[0].number:>4}  {step_line(steps[0])}", style="dim"))
        if shown[0].number > 2:
            lines.append(Text(f"          … {more_steps(shown[0].number - 2)}", style="dim"))
    for step in shown:
        if step is steps[-1]:
            line = Text(f"  → {step.number:>4}  {step_line(step)}", style="bold")
            lines.append(line.append(f"   ← differs: {d.difference.field}", style="bold red"))
        else:
            lines.append(Text(f"    {step.number:>4}  {step_line(step)}"))
    return lines


def board_lines(game: str, d: Divergence) -> list[Text]:
    """Side A's table after the divergent step (the seat that moved marked), then side B's differing fields."""
    after = d.states_a[-1] if d.states_a else None
    if not isinstance(after, dict):
        return []
    before = d.states_a[-2] if len(d.states_a) > 1 else None
    marked = {d.seat: "moved"} if d.seat is not None else None
    lines = [Text(f"  the table after step {d.step}, side A:")]
    lines += table_lines(table_of(after, before if isinstance(before, dict) else None, marked))
    lines.append(Text("  side B, where it differs:"))
    for x in (d.difference, *d.also):
        lines.append(Text(f"    {field_label(x.field):<22} ").append_text(value_text(game, x.field, x.b)))
    return lines


def score_lines(game: str, d: Divergence) -> list[Text]:
    """The cards behind a score difference: per seat, both sides' scores with their change in this step,
    then the cards the seat won, its penalty counts and the cards it was left with (side A's; side B's
    too where they differ), from the table after the step, or before it when the step cleared them."""
    sides = [_scored(d.states_a), _scored(d.states_b)]
    if sides[0] is None or sides[1] is None:
        return [Text("  the cards behind the scores: the states were not recorded", style="dim")]
    (table_a, scores_a), (table_b, scores_b) = sides[0], sides[1]
    lines = [Text(f"  the cards behind the scores ({table_a[0]}):")]
    for seat_a, seat_b in zip(table_a[1].seats, table_b[1].seats, strict=False):
        s = seat_a.seat
        line = Text(f"    seat {s}   A {_score(scores_a, s)}   B {_score(scores_b, s)}", style="bold")
        if seat_a.fields[1:]:  # Fool's tens and penalty counts (the score is above)
            line.append("   " + "  ".join(f"{k} {v}" for k, v in seat_a.fields[1:]), style="")
        lines.append(line)
        lines += [Text(f"      {z.name:<10} ").append_text(zone_text(z)) for z in seat_a.zones if z.pieces]
        if [z.pieces for z in seat_a.zones] != [z.pieces for z in seat_b.zones]:
            lines += [Text(f"      B {z.name:<8} ").append_text(zone_text(z)) for z in seat_b.zones if z.pieces]
    return lines


def _scored(states: Sequence[Any]) -> tuple[tuple[str, TableView], tuple[list[Any], list[Any]]] | None:
    """A side's table to read the scores from (with what it says it is) and its scores before and after."""
    after, before = (states[-1], states[-2]) if len(states) > 1 else (None, None)
    if not isinstance(after, dict) or not isinstance(before, dict):
        return None
    held = sum(len(v) for k, v in _zones(after).items() if "/" in k)
    if held >= sum(len(v) for k, v in _zones(before).items() if "/" in k):
        table = ("the table after the step, what it added marked", table_of(after, before))
    else:  # the step cleared the seats' piles: the hand as it stood before its last step
        table = ("the table before the step, which cleared the seats' piles", table_of(before))
    return table, (_list(before.get("scores")), _list(after.get("scores")))


def _score(scores: tuple[list[Any], list[Any]], seat: int) -> str:
    was, now = scores
    score = now[seat] if seat < len(now) else None
    if seat < len(was) and type(score) is int and type(was[seat]) is int:
        return f"{score} ({score - was[seat]:+d})"
    return compact(score)


def _zones(state: Mapping[str, Any]) -> dict[str, list[Any]]:
    zones = state.get("zones")
    return {str(k): v for k, v in zones.items() if isinstance(v, list)} if isinstance(zones, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
