"""The parts of one game's certification that run before anything is minimized.

The head (the smoke stage, then the fixtures) runs where the certification runs; each shard of the
exploration runs there too, or in a worker process (``ruleproof.run.pool``), or on another machine
(``ruleproof certify --shard K/N``).  Each part records into a ledger and a finding store of its
own and ends in a ``ruleproof.run.shards.Found``, which the runner merges in a fixed order.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import threading
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from attrs import frozen
from hypothesis import settings
from hypothesis.errors import Unsatisfiable

from ruleproof.model.engine import AdapterBroken, JSONObject
from ruleproof.model.findings import Finding, Setup
from ruleproof.model.fixtures import Fixture
from ruleproof.properties import properties_for
from ruleproof.properties.base import Ledger
from ruleproof.run.causes import FindingStore
from ruleproof.run.explore import Exploration, explore
from ruleproof.run.fixtures import fixtures_for, run_fixture
from ruleproof.run.profiles import Profile, hypothesis_settings
from ruleproof.run.shards import Found, Shard
from ruleproof.run.smoke import smoke
from ruleproof.transport.checked import CheckedEngine

Stage = Callable[[str, str], None]  # told each stage (and fixture) as it starts
Progress = Callable[[dict[str, int], set[str]], None]  # a shard's stats and failing clauses so far


@frozen
class ShardJob:
    """What every shard of one game's exploration shares (picklable: sent to worker processes)."""

    game: str
    declared: JSONObject  # the engine's hello entry for the game
    profile: Profile
    steps: int  # per example
    stop_after: str | None = None  # end the shard once this clause has failed (the gallery's tests)
    started: float = 0.0  # time.time() when the game's certification started (for findings' seconds)


def steps_for(game: str, profile: Profile) -> int:
    """Steps of one example: the profile's, scaled for the game (at least 10)."""
    return max(10, int(profile.steps * properties_for(game).step_scale))


# What an exploration costs on average, as measured at ci on the reference and on failing engines:
# about 3.2 times the profile's steps per example asked for (one example in four runs four times as
# many, and Hypothesis runs a few more examples than asked: 27,646 steps for 30 of 300 in Moon, 43,859
# for 30 of 450 in Black Maria), and a step is about 2.3 engine calls (apply and legal_moves, one probe
# in eight with its state read, the determinism replays).  Only for the estimate a user plans with.
STEPS_PER_EXAMPLE = 3.2
CALLS_PER_STEP = 2.3


def expected_calls(game: str, profile: Profile) -> int:
    """The engine calls an exploration of ``game`` at ``profile`` is expected to make (never a budget)."""
    return int(profile.max_examples * steps_for(game, profile) * STEPS_PER_EXAMPLE * CALLS_PER_STEP)


def kit_error(exc: BaseException) -> str:
    """One line naming a kit bug and where it happened (the traceback is for ``--debug``)."""
    where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f" at {where.filename.rsplit('/', 1)[-1]}:{where.lineno}" if where else ""
    return f"{type(exc).__name__}: {exc}{at}"


def run_head(  # noqa: PLR0913 - the head's inputs, by name
    engine: CheckedEngine,
    game: str,
    *,
    fixtures: bool,
    user: Sequence[Fixture],
    stage: Stage,
    stopping: threading.Event,
    started: float,
    on_new: Callable[[Finding], None],
) -> tuple[JSONObject, Found]:
    """The smoke stage, then the fixtures (when asked): the engine's hello entry and what they found.

    ``started``: the ``time.perf_counter()`` the findings' seconds count from.  The hello entry is
    ``{}`` when the smoke stage broke.
    """
    ledger, store = Ledger(), FindingStore(started, on_new=on_new)
    found = Found("head", stage="smoke")
    calls0, declared = engine.calls, {}
    props_cls = properties_for(game)
    try:
        stage("smoke", "")
        declared = smoke(engine, game, ledger, store.sink)
        if fixtures:
            found.stage = "fixtures"
            stage("fixtures", "")
            for fx in fixtures_for(game, declared, user):  # bundled and --fixtures, under the declared options
                if stopping.is_set():
                    break
                stage("fixtures", fx.id)
                store.source = f"fixture:{fx.id}"
                store.fixtures[store.source] = fx
                result = run_fixture(fx, engine, props_cls, ledger, store.sink)
                found.fixture_status[fx.id] = result.status
                found.stats["fixture_steps"] = found.stats.get("fixture_steps", 0) + result.steps
                if result.status == "skipped":
                    found.skipped.append(f"fixture {fx.id}: {result.reason}")
            store.source = "properties"
    except AdapterBroken as broken:
        _broke(found, broken)
    except Exception as exc:  # a bug of the kit itself: the run stops, and what was judged is still written
        found.kit_error, found.interrupted = kit_error(exc), True
    found.interrupted = found.interrupted or stopping.is_set()
    found.stats["calls"] = engine.calls - calls0
    capture(found, ledger, store)
    return declared, found


# the kit's packages (pyproject's package-dir): what ``settle_modules`` loads
KIT_ROOTS = ("ruleproof", "ruleproof.properties", "ruleproof.reference", "ruleproof.fixtures")


@functools.cache
def settle_modules() -> None:
    """Import every module of the kit before a shard explores, once per process.

    Hypothesis draws now and then a constant it found in the modules loaded from outside
    site-packages (an editable install of the kit, the user's engine), and it reads them again
    whenever more modules are loaded.  A worker process (``spawn``) or a ``--shard K/N`` run loads
    fewer of the kit's modules than a whole run, so the same seed drew other values there: with
    every module loaded first, what a shard draws does not depend on where it runs.
    """
    for root in KIT_ROOTS:  # each walked on its own: pyproject maps them to folders outside ruleproof/
        package = importlib.import_module(root)
        for module in pkgutil.walk_packages(package.__path__, f"{root}."):
            if module.name.endswith(".__main__"):  # a command, run when imported
                continue
            try:
                importlib.import_module(module.name)
            except ImportError:  # an optional dependency absent (pytest for the plugin): loaded nowhere
                continue


def explore_shard(  # noqa: PLR0913 - the shard's inputs, by name
    engine: CheckedEngine,
    job: ShardJob,
    shard: Shard,
    *,
    stopping: Any,  # a threading.Event, or a multiprocessing one in a worker process
    started: float,
    on_new: Callable[[Finding], None] = lambda finding: None,
    on_progress: Progress = lambda stats, failing: None,
) -> Found:
    """One shard of the exploration on ``engine``: what it found, whatever stopped it."""
    settle_modules()
    props_cls = properties_for(job.game)
    ledger, store = Ledger(), FindingStore(started, on_new=on_new)
    found = Found(f"shard {shard.index}", stage="exploring")

    def skip(setup: Setup, why: str) -> None:
        note = f"setup {setup.to_json()}: {why}"
        if note not in found.skipped:
            found.skipped.append(note)

    def should_stop() -> bool:
        return bool(stopping.is_set()) or (job.stop_after is not None and job.stop_after in store.clauses())

    exploration = Exploration(engine, props_cls, job.declared, ledger, store.sink, skip, should_stop)
    exploration.on_progress = lambda stats: on_progress(stats, store.clauses())
    calls0 = engine.calls
    try:
        config = settings(hypothesis_settings(job.profile), max_examples=shard.examples)
        explore(exploration, job.steps, config, shard.seed)
    except Unsatisfiable:
        found.skipped.append("every setup drawn was refused as unsupported")
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        if not exploration.halted:  # a bug of the kit itself, not a verdict
            found.kit_error, found.interrupted = kit_error(exc), True
    if exploration.broken is not None:
        _broke(found, exploration.broken)
    found.interrupted = found.interrupted or bool(stopping.is_set())
    found.stats.update(exploration.stats, calls=engine.calls - calls0)
    capture(found, ledger, store)
    return found


def _broke(found: Found, broken: AdapterBroken) -> None:
    if broken.kind == "interrupted":  # a call cut short because the run is stopping: not the engine's fault
        found.interrupted = True
    else:
        found.broken = broken


def capture(found: Found, ledger: Ledger, store: FindingStore) -> None:
    """What a part's ledger and finding store hold, into its ``Found``."""
    found.hits, found.situations, found.check_errors = ledger.hits, ledger.situations, ledger.check_errors
    found.causes, found.counts = list(store.causes.values()), store.counts
    sources = {c.kept.source for c in found.causes} | {c.start.source for c in found.causes}
    found.fixtures = {s: fx for s, fx in store.fixtures.items() if s in sources}
