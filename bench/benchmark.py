"""How fast is the kit, in process and over the pipe?

For each game that has both reference rules and properties it prints:

(a) reference random playouts, in process: games/s and moves/s (random legal
    moves, random deals: a valid deal shape with its cards shuffled);
(b) the state machine's steps/s against the in-process reference
    (``certify_game``, properties only, profile ci; one step = one snapshot =
    one hit of CONTRACT-PHASE-1);
(c) the same over the subprocess transport (``ruleproof serve --game GAME``);
    and the ratio (c)/(b).  (b) and (c) are each the best of ``--repeat``
    interleaved rounds, and the pipe's clock starts once the engine has
    answered ``hello`` (a step's cost, not the child's start-up);
(d) the bare round trip of one ``state`` call, in process and over the pipe,
    and over the pipe without the client's spin (``SPINS = 0``: each answer
    waited for asleep in select, a wake-up per call);
(e) a bare Hypothesis ``RuleBasedStateMachine`` that draws one ``st.data()``
    integer per step, run in the same process with the same examples and
    steps, and the ratio (b)/(e): the kit's overhead per step;
(f) whole certifications at the profile: every reference game (fixtures and
    properties, as ``ruleproof certify`` runs them) and the house-rules
    engines of tests/house_rules/, with the ratio of a failing engine's time
    to the passing reference's.

    python bench/benchmark.py [--games black-maria moon] [--seconds 5] [--profile ci] [--cpu]

With ``--scale`` it prints only these instead (issue 25), for each game asked:

(g) engine calls of a whole certification (``certify_game``): steps, calls,
    det_calls (the determinism replays) and calls_per_step, from the
    certificate's stats, for the reference in process, the reference over the
    pipe (``ruleproof serve``, which declares ``moves``: one call a step) and
    the game's house-rules engine (failing), in process and over the pipe
    without ``moves`` (``ruleproof serve --engine ... --no-moves``: the calls
    of a failing engine behind a pipe, target at most 2.5 a step, all
    included), with the share of the calls spent minimizing (``min``; target
    at most a fifth), the ratio of each one's total calls to the in-process
    reference's (target for a failing engine: <= 1.5) and the sizes of its
    certificate and HTML report (targets: under 500 KB and 2 MB);
(h) ``ruleproof certify --engine ruleproof.reference:ReferenceEngine`` (and the
    house-rules engine), ``ruleproof.cli.main`` in process, against
    ``certify_game`` on the same engine: the CLI wraps it in its deadline
    (``TimedEngine``); the ratio of the best times of ``--repeat`` interleaved
    rounds (target <= 1.2);
(i) one game (``--parallel-game``, default moon) at ``--parallel-profile``
    (default thorough: 16 shards) through the CLI: ``--workers 2`` against
    ``--workers 1`` (the speed-up, target >= 1.7 on 2 free cores, and whether
    the certificates are identical without their timings), then ``--shard 1/2``
    and ``--shard 2/2`` merged by ``ruleproof merge`` against the one run.
    Profiles that draw a new seed each run are given ``--seed`` (default 1).

    python bench/benchmark.py --scale [--games ...] [--profile ci] [--parallel-game moon] [--parallel-profile thorough]

Timings are measurements to read, never assertions: every budget that decides
a result counts examples, steps or replays.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule, run_state_machine_as_test

from ruleproof import GAMES
from ruleproof.model.certificate import Certificate, without_timings
from ruleproof.model.findings import Setup
from ruleproof.model.report import GameReport
from ruleproof.output.files import certificate_text
from ruleproof.properties import available_games, properties_for
from ruleproof.reference import RULES, ReferenceEngine, all_rules
from ruleproof.run.runner import PROFILES, certify_game, hypothesis_settings
from ruleproof.run.smoke import _drawn_deal
from ruleproof.transport import subprocess as subprocess_transport
from ruleproof.transport.checked import CheckedEngine
from ruleproof.transport.subprocess import SubprocessEngine

MAX_MOVES = 20_000  # a random playout that runs longer than this is cut off
# the clock every figure is measured with: wall time, or with --cpu this process's CPU time (on a shared
# machine the kit, which allocates far more than the bare machine, loses more wall time to other jobs)
CLOCK = [time.perf_counter]


def now() -> float:
    return CLOCK[0]()


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
        started = now()
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
        spent += now() - started
    return games / spent, moves / spent, cut


def machine_rate(game: str, engine: Any, profile: str) -> tuple[float, int, float]:
    """certify_game with properties only: (steps/s, steps, seconds)."""
    checked = CheckedEngine(engine)
    started = now()
    report = certify_game(checked, game, PROFILES[profile], fixtures=False)
    seconds = now() - started
    if report.broken is not None:
        raise SystemExit(f"{game}: {report.broken}")
    steps = int(report.stats["steps"])
    return steps / seconds, steps, seconds


def bare_rate(game: str, profile: str) -> float:
    """Steps/s of a bare RuleBasedStateMachine drawing one st.data() integer per step, same budget."""
    count = [0]

    class Bare(RuleBasedStateMachine):
        @rule(data=st.data())
        def step(self, data: st.DataObject) -> None:
            count[0] += 1
            data.draw(st.integers(0, 7))

    profile_ = PROFILES[profile]
    steps = max(10, int(profile_.steps * properties_for(game).step_scale))  # as the runner's exploration
    started = now()
    run_state_machine_as_test(Bare, settings=settings(hypothesis_settings(profile_), stateful_step_count=steps))
    return count[0] / (now() - started)


def kit_and_bare(game: str, profile: str, repeat: int) -> tuple[float, float, int, int, float]:
    """(b) and (e), interleaved ``repeat`` times, each the best of its rounds: (kit steps/s in
    process, over the pipe, steps in process, over the pipe, bare steps/s).  The pipe's engine is
    started and greeted before its clock starts: a step's cost, not the child's start-up."""
    kit: list[float] = []
    piped: list[float] = []
    bare: list[float] = []
    steps = steps_pipe = 0
    for _ in range(repeat):
        rate, steps, _ = machine_rate(game, ReferenceEngine(), profile)
        kit.append(rate)
        with SubprocessEngine(serve_argv(game), timeout=30) as engine:
            engine.hello()
            rate, steps_pipe, _ = machine_rate(game, engine, profile)
        piped.append(rate)
        bare.append(bare_rate(game, profile))
    return max(kit), max(piped), steps, steps_pipe, max(bare)


def serve_argv(game: str) -> list[str]:
    return [sys.executable, "-m", "ruleproof.cli", "serve", "--game", game]


def certification_seconds(game: str, engine: Any, profile: str) -> tuple[float, str]:
    """A whole certification of one game (smoke, fixtures, properties, minimization): (seconds, verdict)."""
    started = now()
    report = certify_game(CheckedEngine(engine), game, PROFILES[profile])
    return now() - started, report.verdict


def certifications(games: list[str], profile: str) -> None:
    """(f): the reference games in full, and each house-rules engine against its game's reference."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.house_rules import black_maria, idiot

    print(f"\nwhole certifications at {profile}:")
    passing: dict[str, float] = {}
    for game in games:
        passing[game], verdict = certification_seconds(game, ReferenceEngine(), profile)
        print(f"  reference {game:<12} {passing[game]:6.1f} s  {verdict}")
    print(f"  all reference games      {sum(passing.values()):6.1f} s")
    for game, module in (("black-maria", black_maria), ("idiot", idiot)):
        if game in passing:
            seconds, verdict = certification_seconds(game, module.engine(), profile)
            print(
                f"  house rules {game:<10} {seconds:6.1f} s  {verdict}: {seconds / passing[game]:.2f} x the reference"
            )


def round_trip(engine: Any, game: str, n: int = 3000) -> float:
    """Microseconds per ``state`` call."""
    hello = engine.hello()
    players = hello["games"][game]["players"][0]
    engine.new_game(game, players, 0, {})
    started = now()
    for _ in range(n):
        engine.state()
    return (now() - started) / n * 1e6


def round_trip_sleeping(game: str) -> float:
    """(d) over the pipe without the client's spin (``SPINS = 0``): every answer waited for in select."""
    spins = subprocess_transport.SPINS
    subprocess_transport.SPINS = 0
    try:
        with SubprocessEngine(serve_argv(game), timeout=30) as engine:
            return round_trip(engine, game)
    finally:
        subprocess_transport.SPINS = spins


# --scale (issue 25): engine calls per step, the CLI against certify_game, workers and shards

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = "ruleproof.reference:ReferenceEngine"  # through --engine: wrapped as any user's engine (TimedEngine)
HOUSE_RULES = {"black-maria": "tests.house_rules.black_maria:engine", "idiot": "tests.house_rules.idiot:engine"}
REPEAT = [1]  # --repeat: rounds of the CLI against certify_game
SEED = [1]  # --seed, for the profiles that are not derandomized


def house_engine(spec: str) -> Any:
    """The engine a ``MODULE:FACTORY`` of tests/house_rules/ names (the repository root importable)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    module, _, factory = spec.partition(":")
    return getattr(importlib.import_module(module), factory)()


def run_seed(profile: str) -> int | None:
    """The seed every run of a profile that draws a new one each run is given, so runs compare (ci: None)."""
    return None if PROFILES[profile].derandomize else SEED[0]


def seed_flag(profile: str) -> list[str]:
    seed = run_seed(profile)
    return [] if seed is None else ["--seed", str(seed)]


def timed_certify(game: str, engine: Any, profile: str) -> tuple[GameReport, float]:
    """One whole certification by ``certify_game`` (smoke, fixtures, properties, minimization)."""
    started = now()
    report = certify_game(CheckedEngine(engine), game, PROFILES[profile], seed=run_seed(profile))
    return report, now() - started


def file_sizes(report: GameReport) -> tuple[int, int]:
    """The bytes of the certificate (``--json``, as the CLI writes it) and of the HTML report of one game's
    report (targets: under 500 KB and 2 MB, issue 31)."""
    from ruleproof.output.html import render_html

    cert = Certificate(engine={"name": "bench", "version": "0"}, profile="bench", seed=None, reports=(report,))
    data = cert.to_json()
    return len(certificate_text(data).encode()), len(render_html(data).encode())


def calls_line(label: str, report: GameReport, seconds: float, passing: GameReport | None = None) -> str:
    """The certificate's call counts; against ``passing`` also the ratio of the total calls (target <= 1.5);
    the certificate's and the HTML report's sizes in KB."""
    stats = report.stats
    ratio = f"{stats['calls'] / passing.stats['calls']:>6.2f}" if passing is not None else f"{'':>6}"
    cert, html = file_sizes(report)
    return (
        f"  {label:<24} {report.verdict:<5} {stats['steps']:>7} {stats['calls']:>8} {stats['det_calls']:>7}"
        f" {stats['calls_per_step']:>6} {stats.get('minimize_calls', 0) / max(stats['calls'], 1):>6.0%} {ratio}"
        f" {seconds:>8.1f} {cert / 1000:>7.0f} {html / 1000:>7.0f}"
    )


def run_cli(argv: list[str]) -> tuple[int, float]:
    """``ruleproof.cli.main`` in this process, its report and progress swallowed: (exit status, seconds)."""
    from ruleproof.cli import main as cli

    sink = io.StringIO()
    started = now()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        status = cli(argv)
    seconds = now() - started
    if status not in (0, 1):  # 0 pass, 1 a failed clause; anything else is no certificate to compare
        raise SystemExit(f"ruleproof {' '.join(argv)}: exit {status}\n{sink.getvalue()[-2000:]}")
    return status, seconds


def cli_line(game: str, spec: str, label: str, profile: str, work: Path, direct: tuple[GameReport, float]) -> str:
    """``ruleproof certify --engine SPEC`` in process against ``certify_game`` on the same engine (target <= 1.2),
    interleaved ``REPEAT`` times (the first ``certify_game`` is ``direct``), each one's best time kept."""
    cert = work / f"cli-{game}-{label}.json"
    argv = ["certify", "--engine", spec, "--game", game, "--profile", profile, "--quiet", "--json", str(cert)]
    report, direct_seconds = direct
    cli_seconds = float("inf")
    for round_ in range(REPEAT[0]):
        if round_:
            direct_seconds = min(direct_seconds, timed_certify(game, house_engine(spec), profile)[1])
        cli_seconds = min(cli_seconds, run_cli([*argv, "--traces", str(work / "traces"), *seed_flag(profile)])[1])
    stats = orjson.loads(cert.read_bytes())["games"][game]["stats"]
    calls = f"calls {stats['calls']} against {report.stats['calls']}"
    return f"  {label:<24} {cli_seconds:>8.1f} {direct_seconds:>8.1f} {cli_seconds / direct_seconds:>6.2f}  {calls}"


def scale_game(game: str, profile: str, work: Path) -> None:
    """The calls table and the CLI ratios of one game: the reference in process and over the pipe, and
    the game's house-rules engine (failing) against the passing reference."""
    print(f"\n{game} at {profile}: engine calls (certify_game, whole certification)")
    print(
        f"  {'engine':<24} {'verd':<5} {'steps':>7} {'calls':>8} {'det':>7} {'c/step':>6} {'min':>6} {'x ref':>6}"
        f" {'seconds':>8} {'cert KB':>7} {'html KB':>7}"
    )
    reference = timed_certify(game, house_engine(REFERENCE), profile)
    print(calls_line("reference in process", *reference), flush=True)
    serve = [sys.executable, "-m", "ruleproof.cli", "serve", "--game", game]
    with SubprocessEngine(serve, timeout=30) as engine:
        piped = timed_certify(game, engine, profile)
    print(calls_line("reference over the pipe", *piped, reference[0]), flush=True)
    direct = {"reference": reference}
    if game in HOUSE_RULES:
        direct["house rules"] = timed_certify(game, house_engine(HOUSE_RULES[game]), profile)
        print(calls_line("house rules (failing)", *direct["house rules"], reference[0]), flush=True)
        # the same engine behind a pipe that does not declare ``moves``, as most engines behind one
        served = [*serve, "--engine", HOUSE_RULES[game], "--no-moves"]
        with SubprocessEngine(served, timeout=30, cwd=str(ROOT)) as engine:
            print(calls_line("house, pipe, no moves", *timed_certify(game, engine, profile), reference[0]), flush=True)
    print(f"  {'CLI against certify_game':<24} {'CLI s':>8} {'direct s':>8} {'ratio':>6}")
    specs = {"reference": REFERENCE, "house rules": HOUSE_RULES.get(game, "")}
    for label, report in direct.items():
        print(cli_line(game, specs[label], label, profile, work, report), flush=True)


def normalized(path: Path) -> Any:
    """A certificate without its timings (``seconds``, ``created``), for comparing two runs."""
    return without_timings(orjson.loads(path.read_bytes()))


def parallel(game: str, profile: str, work: Path) -> None:
    """``--workers 2`` against ``--workers 1`` (speed-up, same certificate), then ``--shard 1/2`` and
    ``2/2`` merged against the one run; every run writes its traces to the same folder."""
    traces = ["--traces", str(work / "traces")]
    base = ["certify", "--game", game, "--profile", profile, "--quiet", *traces, *seed_flag(profile)]
    print(f"\n{game} at {profile} ({PROFILES[profile].shards} shards), ruleproof certify in process:", flush=True)
    one, two = work / "workers1.json", work / "workers2.json"
    _, seconds1 = run_cli([*base, "--workers", "1", "--json", str(one)])
    print(f"  --workers 1              {seconds1:8.1f} s", flush=True)
    _, seconds2 = run_cli([*base, "--workers", "2", "--json", str(two)])
    same = "identical" if normalized(one) == normalized(two) else "DIFFERENT"
    print(f"  --workers 2              {seconds2:8.1f} s  speed-up {seconds1 / seconds2:.2f}, certificates {same}")
    parts = [work / "shard1.json", work / "shard2.json"]
    for k, part in enumerate(parts, 1):
        _, seconds = run_cli([*base, "--shard", f"{k}/2", "--json", str(part)])
        print(f"  --shard {k}/2              {seconds:8.1f} s", flush=True)
    merged = work / "merged.json"
    _, seconds = run_cli(["merge", *map(str, parts), "-o", str(merged), "--quiet", *traces])
    same = "identical" if normalized(merged) == normalized(one) else "DIFFERENT"
    print(f"  ruleproof merge          {seconds:8.1f} s  merged against --workers 1: {same}")


def scale(games: list[str], profile: str, parallel_game: str, parallel_profile: str) -> None:
    """Everything --scale measures, in a scratch folder removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="ruleproof-bench-") as folder:
        work = Path(folder)
        for game in games:
            scale_game(game, profile, work)
        parallel(parallel_game, parallel_profile, work)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", choices=GAMES, help="default: every game that exists")
    parser.add_argument("--seconds", type=float, default=5.0, help="time spent on random playouts per game (default 5)")
    parser.add_argument("--profile", choices=sorted(PROFILES), default="ci", help="state-machine profile (default ci)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-certify", action="store_true", help="skip (f), the whole certifications")
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="run (b) and (e) this many times, interleaved, and keep each one's best rate (default 3): "
        "a busy machine only ever slows a run down, so the best is the least disturbed; "
        "with --scale: the rounds of the CLI against certify_game",
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="CPU time of this process, not wall time (the pipe figures then leave out the engine's process)",
    )
    parser.add_argument(
        "--scale",
        action="store_true",
        help="only the scale figures: engine calls per step, the CLI against certify_game, "
        "--workers 2 against 1 and --shard parts merged against one run",
    )
    parser.add_argument(
        "--parallel-game", choices=GAMES, default="moon", help="--scale: the game run with workers and shards (moon)"
    )
    parser.add_argument(
        "--parallel-profile",
        choices=sorted(PROFILES),
        default="thorough",
        help="--scale: the profile of the workers and shards runs (default thorough: 16 shards)",
    )
    args = parser.parse_args(argv)
    if args.cpu:
        CLOCK[0] = time.process_time
    games = args.games or games_that_exist()
    if args.scale:
        print(f"python {sys.version.split()[0]}, --scale: profile {args.profile}, {'CPU' if args.cpu else 'wall'} time")
        SEED[0], REPEAT[0] = args.seed, max(1, args.repeat)
        scale(games, args.profile, args.parallel_game, args.parallel_profile)
        return 0
    rng = random.Random(args.seed)
    clock = "CPU" if args.cpu else "wall"
    print(f"python {sys.version.split()[0]}, profile {args.profile}, {args.seconds}s of playouts a game, {clock} time")
    header = (
        f"{'game':<12} {'games/s':>8} {'moves/s':>9} {'steps/s in':>11} {'steps/s pipe':>13} {'ratio':>6} {'steps':>6}"
        f" {'µs/call in':>11} {'µs/call pipe':>13} {'µs/call sleep':>14} {'bare steps/s':>13} {'kit/bare':>9}"
    )
    print(header)
    for game in games:
        gps, mps, cut = playouts(game, args.seconds, rng)
        inproc, piped, steps, steps_pipe, bare = kit_and_bare(game, args.profile, max(1, args.repeat))
        us_in = round_trip(ReferenceEngine(), game)
        with SubprocessEngine(serve_argv(game), timeout=30) as engine:
            us_pipe = round_trip(engine, game)
        us_sleep = round_trip_sleeping(game)
        note = f"  ({cut} playouts cut at {MAX_MOVES} moves)" if cut else ""
        if steps_pipe != steps:
            note += f"  (steps differ: {steps} in process, {steps_pipe} over the pipe)"
        print(
            f"{game:<12} {gps:>8.1f} {mps:>9.0f} {inproc:>11.0f} {piped:>13.0f} {piped / inproc:>6.2f} {steps:>6}"
            f" {us_in:>11.1f} {us_pipe:>13.1f} {us_sleep:>14.1f} {bare:>13.0f} {inproc / bare:>9.2f}{note}",
            flush=True,
        )
    if not args.no_certify:
        certifications(games, args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
