"""Clean kills on independent engines: is one planted bug reported as one deviation?

Each module of ``tests/independent`` is an engine written without the kit's reference, with a
registry of planted bugs (``BUGS``, one deviation each, filed under the clause it breaks) and of
house rules (``HOUSE``, several at once).  This certifies the correct engine and every bug at
``ci`` and reads each certificate as a user would:

- **caught**: the planted clause fails, as a deviation of its own (no ``follows``);
- **clean** (issue 21's measure): every other failing clause is of the planted clause's family
  (the same ID without its last part: BM-PASS-1 and BM-PASS-3) or was violated in the same step as
  it (its ``with``);
- **marked**: every other failing clause is of the family, in ``with``, or marked as a
  consequence (``follows``): nothing else reads as a second bug.

    python bench/clean_kills.py                      # every game, every bug
    python bench/clean_kills.py --game idiot --bug strictly_higher -v
    python bench/clean_kills.py --house              # the house-rules sets: deviations, consequences

Budgets are the ``ci`` profile's (examples and steps), so the figures are the same on any machine.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ruleproof.model.report import GameReport, Kill
from ruleproof.run.runner import PROFILES, certify_game
from ruleproof.transport.checked import CheckedEngine

GAMES = {"black-maria": "black_maria", "idiot": "idiot", "fool": "fool", "moon": "moon"}


def judge(report: GameReport, planted: str) -> dict[str, Any]:
    """How one certificate reads for a bug planted under ``planted`` (``ruleproof.model.report.Kill``)."""
    kill = Kill.of(report, planted)
    return {
        "caught": kill.caught,
        "clean": kill.clean,
        "marked": kill.marked,
        "failing": [c for c, s in report.clauses.items() if s == "fail"],
        "unclean": list(kill.unclean),
        "unmarked": list(kill.unmarked),
        "deviations": [list(d.clauses) for d in report.deviations()],
        "consequences": [list(d.clauses) for d in report.consequences()],
    }


def certify(module: Any, game: str, *bugs: str) -> GameReport:
    return certify_game(CheckedEngine(module.engine(*bugs)), game, PROFILES["ci"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=list(GAMES))
    parser.add_argument("--bug", action="append", help="only these bugs (names of BUGS)")
    parser.add_argument("--house", action="store_true", help="the house-rules sets instead of the single bugs")
    parser.add_argument("--json", metavar="PATH", help="write every result as JSON")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each failing clause's relations")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {}
    for game in args.game or list(GAMES):
        module = importlib.import_module(f"tests.independent.{GAMES[game]}")
        results[game] = _house(module, game, args) if args.house else _bugs(module, game, args)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    return 0


def _bugs(module: Any, game: str, args: argparse.Namespace) -> dict[str, Any]:
    correct = certify(module, game)
    wrong = [c for c, s in correct.clauses.items() if s == "fail"]
    print(f"{game}: correct engine {'passes' if not wrong else 'FAILS ' + ', '.join(wrong)}")
    out: dict[str, Any] = {"correct_fails": wrong, "bugs": {}}
    for name, bug in module.BUGS.items():
        if (args.bug and name not in args.bug) or not bug.clause:  # no clause: a declaration, not a deviation
            continue
        started = time.perf_counter()
        report = certify(module, game, name)
        verdict = judge(report, bug.clause)
        verdict["seconds"] = round(time.perf_counter() - started, 1)
        out["bugs"][name] = verdict
        mark = (
            "clean"
            if verdict["clean"]
            else "marked"
            if verdict["marked"]
            else "caught"
            if verdict["caught"]
            else "MISSED"
        )
        print(
            f"  {mark:7} {name:28} {bug.clause:18} unclean: {', '.join(verdict['unclean']) or '-'}"
            f"   unmarked: {', '.join(verdict['unmarked']) or '-'}"
        )
        if args.verbose:
            _relations(report)
    bugs = out["bugs"].values()
    n = len(out["bugs"])
    for what in ("caught", "clean", "marked"):
        print(f"  {what}: {sum(1 for v in bugs if v[what])}/{n}")
    return out


def _house(module: Any, game: str, args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, house in module.HOUSE.items():
        report = certify(module, game, *house.bugs)
        planted = {module.BUGS[b].clause for b in house.bugs if module.BUGS[b].clause}
        groups, after = report.deviations(), report.consequences()
        named = {c for g in groups for c in g.clauses}
        out[name] = {
            "planted": sorted(planted),
            "deviations": [list(g.clauses) for g in groups],
            "consequences": [list(g.clauses) for g in after],
        }
        print(f"{game} {name}: planted {', '.join(sorted(planted))}")
        print(f"  deviations:   {len(groups)}: {'; '.join(g.label for g in groups) or '-'}")
        marked = [f"{g.label} (after {', '.join(g.follows)})" for g in after]
        print(f"  consequences: {'; '.join(marked) or '-'}")
        print(f"  planted, not a deviation: {', '.join(sorted(planted - named)) or '-'}")
        if args.verbose:
            _relations(report)
    return out


def _relations(report: GameReport) -> None:
    for f in report.failures:
        print(
            f"      {f.finding.clause:18} {f.steps:4} steps  with {','.join(f.with_clauses) or '-'}"
            f"  after {','.join(f.follows) or '-'}  [{f.signature[:60]}]  {f.finding.message[:80]}"
        )


if __name__ == "__main__":
    sys.exit(main())
