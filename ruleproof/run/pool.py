"""Shards of the exploration in local worker processes (``ruleproof certify --workers N``).

Each worker is a process of its own (started by ``spawn``: nothing of the kit's threads or open
engines is inherited), opens its own engine once, the way the command opens it, and explores the
shards it is handed one after the other.  What a shard found comes back as JSON
(``Found.to_json``), the form a partial certificate holds, and the runner merges the shards in
their order whatever order they finish in, so the certificate is the one a single process gives.

A stop (SIGTERM, Ctrl-C, ``--max-time``) reaches the workers through a shared event: each ends its
shard as an interrupted one, which the runner keeps.  Workers ignore SIGINT themselves (a Ctrl-C
goes to the whole process group; the coordinator decides).  A worker that dies (an engine that
kills its process) is reported as the shard's broken engine.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import multiprocessing.util
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ruleproof.model.engine import AdapterBroken, Engine, JSONObject
from ruleproof.run.parts import ShardJob, explore_shard, kit_error
from ruleproof.run.shards import Found, Shard
from ruleproof.transport.checked import CheckedEngine

Opener = Callable[[Any], Engine]  # opens the engine in a worker, given the stop event (picklable)
_WAIT = 0.2  # how often the coordinator, waiting for a shard, looks at its own stop event

_worker: dict[str, Any] = {}  # in a worker process: its opener, stop event and engine (opened at the first shard)


class ShardPool:
    """``workers`` processes exploring shards; an ``Explorer`` for ``ruleproof.run.runner.certify_game``."""

    def __init__(self, workers: int, opener: Opener, stop: threading.Event) -> None:
        context = multiprocessing.get_context("spawn")
        self.stop = stop
        self.shared_stop = context.Event()
        self.executor = ProcessPoolExecutor(
            workers, mp_context=context, initializer=_start_worker, initargs=(opener, self.shared_stop)
        )

    def __call__(self, job: ShardJob, shards: Sequence[Shard]) -> Iterator[Found]:
        """What each shard found, in the order given; closing the iterator gives up the shards left."""
        futures = [self.executor.submit(_explore, job, shard) for shard in shards]
        try:
            for shard, future in zip(shards, futures, strict=True):
                yield self._result(job, shard, future)
        finally:
            self._give_up(futures)

    def _give_up(self, futures: Sequence[Future[JSONObject]]) -> None:
        """Cancel the shards not started; end those still running (their results are not needed)."""
        running = [f for f in futures if not f.cancel() and not f.done()]
        if running:
            self.shared_stop.set()
            concurrent.futures.wait(running)
            if not self.stop.is_set():  # the next game's shards run in full
                self.shared_stop.clear()

    def _result(self, job: ShardJob, shard: Shard, future: Future[JSONObject]) -> Found:
        while True:
            if self.stop.is_set():
                self.shared_stop.set()  # the workers end their shards as interrupted ones
            try:
                return Found.from_json(future.result(timeout=_WAIT), job.game)
            except TimeoutError:
                continue
            except BrokenProcessPool as err:
                broken = AdapterBroken("exited", f"the worker process exploring shard {shard.index} died ({err})")
                return Found(f"shard {shard.index}", broken=broken, stage="exploring")
            except Exception as exc:  # a bug of the kit in the worker: the run stops, what was judged is kept
                return Found(f"shard {shard.index}", kit_error=kit_error(exc), interrupted=True, stage="exploring")

    def close(self) -> None:
        self.shared_stop.set()
        self.executor.shutdown(wait=True, cancel_futures=True)
        self.shared_stop.clear()

    def __enter__(self) -> ShardPool:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _start_worker(opener: Opener, stop: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the coordinator's to handle (it sets ``stop``)
    _worker.update(opener=opener, stop=stop, engine=None)


def _engine() -> CheckedEngine | AdapterBroken:
    """The worker's engine, opened at its first shard (an engine that cannot start: why)."""
    if _worker["engine"] is None:
        try:
            engine = CheckedEngine(_worker["opener"](_worker["stop"]))
            # a worker ends by os._exit, past atexit: multiprocessing's own finalizers still run
            multiprocessing.util.Finalize(engine, engine.close, exitpriority=10)
            engine.hello()
        except AdapterBroken as broken:
            _worker["engine"] = broken
        else:
            _worker["engine"] = engine
    opened: CheckedEngine | AdapterBroken = _worker["engine"]
    return opened


def _explore(job: ShardJob, shard: Shard) -> JSONObject:
    """One shard, in a worker: what it found, as JSON."""
    engine = _engine()
    if isinstance(engine, AdapterBroken):
        return Found(f"shard {shard.index}", broken=engine, stage="exploring").to_json()
    # the findings' seconds count from the start of the game's certification, on this process's clock
    started = time.perf_counter() - (time.time() - job.started)
    return explore_shard(engine, job, shard, stopping=_worker["stop"], started=started).to_json()
