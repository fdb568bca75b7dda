"""The same seed gives the same certificate however the work is split (issue 31 item 5).

    python bench/determinism.py [--game GAME]... [--profile ci] [--seed 7] [--mutants] [--show 5] [--keep DIR]

For each game (default: all four) and engine (the reference; with ``--mutants`` also one gallery
mutant per game, so a failing run's minimization and causes are compared too), certify the same
seed three ways: ``--workers 1``, ``--workers 2``, and ``--shard 1/2`` + ``--shard 2/2`` joined by
``ruleproof merge``.  Every process runs under a PYTHONHASHSEED of its own, so a choice that rests on
the order of a set of strings shows up as a difference.  The certificates are compared without their
timings (``ruleproof.model.certificate.without_timings``) and without the paths of the trace files
each run wrote.  Exit 0 when every game's three certificates are the same, 1 when one differs (the
first differences are printed).  Run from the repository root (the gallery lives in tests/).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ruleproof.model.certificate import without_timings

GAMES = ("black-maria", "idiot", "fool", "moon")
# one gallery mutant per game: a failing run minimizes, so its traces are compared as well
MUTANTS = {
    "black-maria": "tests.mutants.black_maria:PassLeft.engine",
    "idiot": "tests.mutants.idiot:SixesNeedFour.engine",
    "fool": "tests.mutants.fool:WorstLowestOverall.engine",
    "moon": "tests.mutants.moon:OvertricksScored.engine",
}
# what a run names after its own folder: the trace files and the replay commands that read them
PATHS = ("trace_file", "replay")


def bare(value: Any) -> Any:
    """A certificate without its timings and the paths of the trace files its run wrote."""
    value = without_timings(value)
    if isinstance(value, dict):
        return {k: bare(v) for k, v in value.items() if k not in PATHS}
    if isinstance(value, list):
        return [bare(v) for v in value]
    return value


def differences(a: Any, b: Any, where: str = "") -> Iterator[str]:
    """Where two JSON values differ, as ``path: a != b``, depth first."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                yield f"{where}/{key}: only in {'the second' if key in b else 'the first'}"
            else:
                yield from differences(a[key], b[key], f"{where}/{key}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from differences(x, y, f"{where}[{i}]")
    elif a != b:
        yield f"{where}: {json.dumps(a)[:80]} != {json.dumps(b)[:80]}"


class Runner:
    """Runs the kit's commands, each under a PYTHONHASHSEED of its own."""

    def __init__(self, folder: Path, profile: str, seed: int) -> None:
        self.folder, self.profile, self.seed, self.hash_seed = folder, profile, seed, 0

    def kit(self, *args: str) -> None:
        self.hash_seed += 1
        env = {**os.environ, "PYTHONHASHSEED": str(self.hash_seed)}
        cmd = [sys.executable, "-m", "ruleproof.cli", *args, "--quiet"]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        if done.returncode not in (0, 1):  # 1: the engine failed a clause, a verdict like any other
            raise SystemExit(f"{' '.join(args)}: exit {done.returncode}\n{done.stderr[-2000:]}")

    def certify(self, name: str, game: str, engine: str | None, *extra: str) -> Path:
        out = self.folder / f"{name}.json"
        engine_args = ["--engine", engine] if engine else []
        self.kit(
            "certify",
            "--game",
            game,
            *engine_args,
            "--profile",
            self.profile,
            "--seed",
            str(self.seed),
            "--json",
            str(out),
            "--traces",
            str(self.folder / f"traces-{name}"),
            *extra,
        )
        return out

    def three_ways(self, game: str, engine: str | None) -> dict[str, Any]:
        """The certificates of one seed: one worker, two workers, two shards merged."""
        one = self.certify("workers-1", game, engine)
        two = self.certify("workers-2", game, engine, "--workers", "2")
        parts = [self.certify(f"shard-{k}", game, engine, "--shard", f"{k}/2") for k in (1, 2)]
        merged = self.folder / "merged.json"
        engine_args = ["--engine", engine] if engine else []
        self.kit("merge", *map(str, parts), *engine_args, "-o", str(merged), "--traces", str(self.folder / "traces-m"))
        return {p.stem: bare(json.loads(p.read_text())) for p in (one, two, merged)}


def compare(game: str, engine: str | None, args: argparse.Namespace, root: Path) -> bool:
    folder = root / f"{game}-{'mutant' if engine else 'reference'}"
    folder.mkdir(parents=True, exist_ok=True)
    certs = Runner(folder, args.profile, args.seed).three_ways(game, engine)
    first, same = certs["workers-1"], True
    for name in ("workers-2", "merged"):
        found = list(differences(first, certs[name]))
        if found:
            same = False
            print(f"  {game} ({engine or 'reference'}): workers-1 vs {name}: {len(found)} differences")
            for line in found[: args.show]:
                print(f"    {line}")
    if same:
        print(f"  {game} ({engine or 'reference'}): the same certificate three ways")
    return same


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=GAMES, help="a game (repeatable; default all four)")
    parser.add_argument("--profile", default="ci")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--mutants", action="store_true", help="also a failing engine per game (a gallery mutant)")
    parser.add_argument("--show", type=int, default=5, help="differences printed per comparison")
    parser.add_argument("--keep", type=Path, help="keep the certificates in this folder")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        print(f"determinism at {args.profile} --seed {args.seed}: --workers 1 vs --workers 2 vs 2 shards merged")
        results = [
            compare(game, engine, args, root)
            for game in args.game or GAMES
            for engine in ([None, MUTANTS[game]] if args.mutants else [None])
        ]
    return 0 if all(results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
