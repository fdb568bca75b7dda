"""How fast is the kit, in process and over the pipe?

For each game that has both reference rules and properties it prints:

(a) reference random playouts, in process: games/s and moves/s (random legal
    moves, random deals: a valid deal shape with its cards shuffled);
(b) the state machine's steps/s against the in-process reference
    (``certify_game``, properties only, profile ci; one step = one snapshot =
    one hit of CONTRACT-PHASE-1);
(c) the same over the subprocess transport (``ruleproof serve --game GAME``);
    and the ratio (c)/(b);
(d) the bare round trip of one ``state`` call, in process and over the pipe.

    python bench/benchmark.py [--games black-maria moon] [--seconds 5] [--profile ci]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from ruleproof import GAMES
from ruleproof.checked import CheckedEngine
from ruleproof.properties import available_games, properties_for
from ruleproof.properties.machinery import Setup
from ruleproof.reference import RULES, ReferenceEngine, all_rules
from ruleproof.runner import PROFILES, certify_game
from ruleproof.smoke import _drawn_deal
from ruleproof.transport.subprocess import SubprocessEngine

MAX_MOVES = 20_000  # a random playout that runs longer than this is cut off


def games_that_exist() -> list[str]:
    have = {r.game for r in all_rules()}
    props = set(available_games())
    return [g for g in GAMES if g in RULES and g in have and g in props]


def shuffled(deal: Any, rng: random.Random) -> Any:
    """The same deal shape with its cards (every string but ``type``) shuffled among the slots."""
    cards: list[str] = []

    def collect(x: Any, key: str | None = None) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                collect(v, k)
        elif isinstance(x, list):
            for v in x:
                collect(v)
        elif isinstance(x, str) and key != "type":
            cards.append(x)

    collect(deal)
    rng.shuffle(cards)
    it = iter(cards)

    def fill(x: Any, key: str | None = None) -> Any:
        if isinstance(x, dict):
            return {k: fill(v, k) for k, v in x.items()}
        if isinstance(x, list):
            return [fill(v) for v in x]
        return next(it) if isinstance(x, str) and key != "type" else x

    return fill(deal)


def playouts(game: str, seconds: float, rng: random.Random) -> tuple[float, float, int]:
    """Random games against the in-process reference: (games/s, moves/s, games cut off)."""
    engine = ReferenceEngine()
    declared = engine.hello()["games"][game]
    props_cls = properties_for(game)
    templates: dict[int, Any] = {}
    games = moves = cut = 0
    spent = 0.0
    while spent < seconds:
        players = rng.choice(declared["players"][:4])
        dealer = rng.randrange(players)
        state = engine.new_game(game, players, dealer, {})  # the document's default options
        if players not in templates:  # one valid deal per player count, found once (not timed)
            templates[players] = _drawn_deal(props_cls, Setup(game, players, dealer, state["options"]), state)
            if templates[players] is None:
                raise SystemExit(f"{game}: the properties could not draw a deal for {players} players")
        started = time.perf_counter()
        for _ in range(MAX_MOVES):
            if state["phase"] == "over":
                games += 1
                break
            if state["phase"] == "deal":
                state = engine.apply(shuffled(templates[players], rng))
            else:
                legal = engine.legal_moves()
                state = engine.apply(legal[rng.randrange(len(legal))])
            moves += 1
        else:
            cut += 1
        spent += time.perf_counter() - started
    return games / spent, moves / spent, cut


def machine_rate(game: str, engine: Any, profile: str) -> tuple[float, int, float]:
    """certify_game with properties only: (steps/s, steps, seconds)."""
    checked = CheckedEngine(engine)
    started = time.perf_counter()
    report = certify_game(checked, game, PROFILES[profile], fixtures=False)
    seconds = time.perf_counter() - started
    if report.broken is not None:
        raise SystemExit(f"{game}: {report.broken}")
    steps = report.hits.get("CONTRACT-PHASE-1", 0)
    return steps / seconds, steps, seconds


def round_trip(engine: Any, game: str, n: int = 3000) -> float:
    """Microseconds per ``state`` call."""
    hello = engine.hello()
    players = hello["games"][game]["players"][0]
    engine.new_game(game, players, 0, {})
    started = time.perf_counter()
    for _ in range(n):
        engine.state()
    return (time.perf_counter() - started) / n * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", choices=GAMES, help="default: every game that exists")
    parser.add_argument("--seconds", type=float, default=5.0, help="time spent on random playouts per game (default 5)")
    parser.add_argument("--profile", choices=sorted(PROFILES), default="ci", help="state-machine profile (default ci)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    games = args.games or games_that_exist()
    rng = random.Random(args.seed)
    print(f"python {sys.version.split()[0]}, profile {args.profile}, {args.seconds}s of playouts per game")
    header = f"{'game':<12} {'games/s':>8} {'moves/s':>9} {'steps/s in':>11} {'steps/s pipe':>13} {'ratio':>6} {'steps':>6} {'µs/call in':>11} {'µs/call pipe':>13}"
    print(header)
    for game in games:
        gps, mps, cut = playouts(game, args.seconds, rng)
        serve = [sys.executable, "-m", "ruleproof.cli", "serve", "--game", game]
        inproc, steps, _ = machine_rate(game, ReferenceEngine(), args.profile)
        with SubprocessEngine(serve, timeout=30) as engine:
            piped, steps_pipe, _ = machine_rate(game, engine, args.profile)
        us_in = round_trip(ReferenceEngine(), game)
        with SubprocessEngine(serve, timeout=30) as engine:
            us_pipe = round_trip(engine, game)
        note = f"  ({cut} playouts cut at {MAX_MOVES} moves)" if cut else ""
        if steps_pipe != steps:
            note += f"  (steps differ: {steps} in process, {steps_pipe} over the pipe)"
        print(f"{game:<12} {gps:>8.1f} {mps:>9.0f} {inproc:>11.0f} {piped:>13.0f} {piped / inproc:>6.2f} {steps:>6} {us_in:>11.1f} {us_pipe:>13.1f}{note}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
