"""An in-process Python engine under a per-call deadline (``--engine`` with ``--timeout``).

A Python engine runs in the kit's own process, so a call that never returns
(an endless loop in the engine) would hang the kit.  ``TimedEngine`` runs every
call (the factory included) on one worker thread and waits for it at most
``timeout`` seconds.  A call past its deadline is reported as
``AdapterBroken("timeout")`` and every later call raises the same error at
once, as the subprocess transport does.  A thread cannot be killed: the
worker is a daemon (it never keeps the kit alive) and is sent an asynchronous
exception, which ends an endless loop in Python code so that it stops taking
the CPU from the rest of the run (best effort: C code, or an engine catching
``BaseException``, keeps it going).

When the run is being stopped (``stop`` set: SIGTERM or ``--max-time``), a
call still running after ``STOP_GRACE`` seconds is abandoned as
``AdapterBroken("interrupted")`` instead of waiting for the full timeout.
"""

from __future__ import annotations

import ctypes
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from ruleproof.model.engine import (
    AdapterBroken,
    BrokenKind,
    Engine,
    EngineFactory,
    JSONObject,
    Move,
    State,
    make_engine,
)

STOP_GRACE = 2.0  # seconds a call may still take once the run is being stopped
_POLL = 0.25  # how often a wait looks at ``stop``

_Job = Callable[[], Any]
T = TypeVar("T")


class TimedEngine:
    """The ``Engine`` protocol for an in-process engine, each call on a worker thread under a deadline."""

    def __init__(
        self, spec: str, factory: EngineFactory, *, timeout: float, stop: threading.Event | None = None
    ) -> None:
        self.spec, self.timeout, self.stop = spec, timeout, stop
        self._broken: AdapterBroken | None = None
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        # one answer queue for every call: after a call is abandoned no other call is made, so no answer is stale
        self._answers: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        self._worker = threading.Thread(
            target=_work, args=(self._jobs, self._answers), name=f"engine {spec}", daemon=True
        )
        self._worker.start()
        # the factory runs on the worker too: a constructor that never returns is a timeout like any call
        self.inner: Engine = self._call("factory", {}, lambda: make_engine(spec, factory))

    def hello(self) -> JSONObject:
        return self._call("hello", {}, self.inner.hello)

    def new_game(self, game: str, players: int, dealer: int, options: JSONObject) -> State:
        params = {"game": game, "players": players, "dealer": dealer, "options": options}
        return self._call("new_game", params, lambda: self.inner.new_game(game, players, dealer, options))

    def legal_moves(self) -> list[Move]:
        return self._call("legal_moves", {}, self.inner.legal_moves)

    def apply(self, move: Move) -> State:
        return self._call("apply", {"move": move}, lambda: self.inner.apply(move))

    def state(self) -> State:
        return self._call("state", {}, self.inner.state)

    def close(self) -> None:
        """Close the engine (under the deadline too) and end the worker; a hung worker is left behind."""
        if self._broken is None:
            try:
                self._call("close", {}, self.inner.close)
            finally:
                self._jobs.put(None)

    def _call(self, method: str, params: JSONObject, fn: Callable[[], T]) -> T:
        if self._broken is not None:
            raise self._broken
        self._jobs.put(fn)
        ok, value = self._wait(self._answers, method, params)
        if ok:
            result: T = value  # the worker ran ``fn``: its answer is what ``fn`` returns
            return result
        raise value  # the engine's own exception, with its traceback, in the caller's thread

    def _wait(self, answer: queue.SimpleQueue[tuple[bool, Any]], method: str, params: JSONObject) -> tuple[bool, Any]:
        deadline = time.monotonic() + self.timeout
        stop_deadline: float | None = None
        while True:
            now = time.monotonic()
            if self.stop is not None and self.stop.is_set() and stop_deadline is None:
                stop_deadline = now + STOP_GRACE
            ends = min(deadline, stop_deadline) if stop_deadline is not None else deadline
            wait = ends - now
            if self.stop is not None and stop_deadline is None:
                wait = min(wait, _POLL)  # look at ``stop`` now and then
            try:
                return answer.get(timeout=max(wait, 0.0))
            except queue.Empty:
                pass
            now = time.monotonic()
            if now >= deadline:
                raise self._abandon(
                    "timeout",
                    f"{method} did not return within {self.timeout:g}s (in process, {self.spec})",
                    method,
                    params,
                )
            if stop_deadline is not None and now >= stop_deadline:
                raise self._abandon(
                    "interrupted", f"the run was stopped while {method} was still running ({self.spec})", method, params
                )

    def _abandon(self, kind: BrokenKind, message: str, method: str, params: JSONObject) -> AdapterBroken:
        self._broken = AdapterBroken(kind, message, sent={"method": method, "params": params})
        _interrupt(self._worker)
        return self._broken


class Abandoned(BaseException):
    """Raised inside the worker of a call that was given up, to end it (a BaseException: engines rarely catch it)."""


def _interrupt(worker: threading.Thread) -> None:
    """Ask the worker to raise ``Abandoned`` at its next Python instruction (CPython's PyThreadState_SetAsyncExc)."""
    if worker.ident is not None and worker.is_alive():
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(worker.ident), ctypes.py_object(Abandoned))


def _work(jobs: queue.SimpleQueue[_Job | None], answers: queue.SimpleQueue[tuple[bool, Any]]) -> None:
    try:
        while (fn := jobs.get()) is not None:
            try:
                answers.put((True, fn()))
            except Abandoned:
                return  # the call was given up: nobody waits for this answer, and no call comes after it
            except BaseException as err:  # handed to the caller, who decides what it means
                answers.put((False, err))
    except Abandoned:  # arrived between calls: the worker ends all the same
        return
