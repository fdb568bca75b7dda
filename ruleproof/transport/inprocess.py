"""An in-process Python engine under a per-call deadline (``--engine`` with ``--timeout``).

A Python engine runs in the kit's own process, so a call that never returns
(an endless loop in the engine) would hang the kit.  ``TimedEngine`` runs
every call (the factory included) on the caller's own thread, as a plain call,
and a watchdog thread looks at the clock now and then: a deadline costs
nothing until it fires.  A call past its deadline is sent an asynchronous
exception (CPython's ``PyThreadState_SetAsyncExc``), which ends an endless
loop in Python code at its next instruction; the call is then reported as
``AdapterBroken("timeout")`` and every later call raises the same error at
once, as the subprocess transport does.  (Each call used to be handed to a
worker thread and waited for: some 80 µs a call, more than most engines
spend on one.)

What no asynchronous exception can end is a call stuck outside Python code
(a loop in C, a blocking wait) or one that swallows ``BaseException``: the
watchdog then says so on stderr once, naming the way out (the same engine
behind the pipe, where a stuck engine is killed: ``--engine-cmd "ruleproof
serve --engine MODULE:FACTORY"``), and the kit waits.

When the run is being stopped (``stop`` set: SIGTERM or ``--max-time``), a
call still running after ``STOP_GRACE`` seconds is ended the same way and
reported as ``AdapterBroken("interrupted")`` instead of waiting for the full
timeout.
"""

from __future__ import annotations

import ctypes
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from attrs import define

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
_POLL = 0.25  # how often the watchdog looks at the clock (and at ``stop``): a deadline fires this late at most

T = TypeVar("T")


class Abandoned(BaseException):
    """Raised inside a call that was given up, to end it (a BaseException: engines rarely catch it)."""


@define
class _Call:
    """The call running now: whose thread, since when, and whether the watchdog has given it up."""

    method: str
    params: JSONObject
    thread: int
    started: float
    abandoned: bool = False
    warned: bool = False


class TimedEngine:
    """The ``Engine`` protocol for an in-process engine, each call under a deadline kept by a watchdog."""

    def __init__(
        self, spec: str, factory: EngineFactory, *, timeout: float, stop: threading.Event | None = None
    ) -> None:
        self.spec, self.timeout, self.stop = spec, timeout, stop
        self._broken: AdapterBroken | None = None
        self._running: _Call | None = None
        self._stopping_since: float | None = None  # when the watchdog first saw ``stop`` set
        self._lock = threading.Lock()  # the watchdog gives up a call only while it holds this, and only that call
        self._closed = threading.Event()
        self._watchdog = threading.Thread(target=self._watch, name=f"watchdog {spec}", daemon=True)
        self._watchdog.start()
        try:  # the factory runs under the deadline too: a constructor that never returns is a timeout like any call
            self.inner: Engine = self._call("factory", {}, lambda: make_engine(spec, factory))
        except BaseException:
            self._closed.set()
            raise

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
        """Close the engine (under the deadline too) and end the watchdog."""
        try:
            if self._broken is None:
                self._call("close", {}, self.inner.close)
        finally:
            self._closed.set()

    # -- the deadline ----------------------------------------------------------------------
    def _call(self, method: str, params: JSONObject, fn: Callable[[], T]) -> T:
        if self._broken is not None:
            raise self._broken
        call = _Call(method, params, threading.get_ident(), time.monotonic())
        self._running = call
        result, failure = self._run(call, fn)
        if call.abandoned:
            assert self._broken is not None
            raise self._broken
        if failure is not None:
            raise failure
        answer: T = result  # ``fn`` returned it
        return answer

    def _run(self, call: _Call, fn: Callable[[], Any]) -> tuple[Any, BaseException | None]:
        """Run ``fn``, then end the watch over ``call``: what it returned, or what it raised.

        The watchdog sends at most one ``Abandoned`` a call, only while it holds the lock and ``call``
        is still running.  Wherever in this loop it arrives (in ``fn``, or as ``fn`` returns), it is
        caught here and the watch is ended again; once ``_running`` is cleared under the lock none can
        come, and one sent but not yet delivered is withdrawn, so none ever reaches the kit's own code.
        """
        result: Any = None
        failure: BaseException | None = None
        ran = False
        while True:
            try:
                if not ran:
                    ran = True
                    try:
                        result = fn()
                    except Abandoned:
                        raise
                    except BaseException as err:  # the engine's own exception: the caller decides what it means
                        failure = err
                with self._lock:
                    self._running = None
                if call.abandoned:
                    _send(call.thread, None)  # withdraw one not yet delivered
                return result, failure
            except Abandoned:
                continue

    def _watch(self) -> None:
        while not self._closed.wait(_POLL):
            call = self._running
            if call is None:
                continue
            now = time.monotonic()
            if self.stop is not None and self.stop.is_set():
                if self._stopping_since is None:
                    self._stopping_since = now
                if now - max(self._stopping_since, call.started) >= STOP_GRACE:
                    self._give_up(call, "interrupted", f"the run was stopped while {call.method} was still running")
                    continue
            if now - call.started >= self.timeout:
                self._give_up(call, "timeout", f"{call.method} did not return within {self.timeout:g}s")

    def _give_up(self, call: _Call, kind: BrokenKind, what: str) -> None:
        """Send ``Abandoned`` into the call (once); say so on stderr if it is still running long after."""
        with self._lock:
            if self._running is not call:
                return  # it returned meanwhile
            if not call.abandoned:
                call.abandoned = True
                self._broken = AdapterBroken(
                    kind, f"{what} (in process, {self.spec})", sent={"method": call.method, "params": call.params}
                )
                _send(call.thread, Abandoned)
                return
        if not call.warned and time.monotonic() - call.started >= self.timeout + STOP_GRACE:
            call.warned = True
            print(
                f"ruleproof: {call.method} of {self.spec} is still running past its deadline and cannot be "
                "interrupted in process (it is stuck outside Python code); certify it behind the pipe: "
                f"--engine-cmd 'ruleproof serve --engine {self.spec}'",
                file=sys.stderr,
                flush=True,
            )


def _send(thread: int, exc: type[BaseException] | None) -> None:
    """Raise ``exc`` in ``thread`` at its next Python instruction (None withdraws one not yet raised)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), ctypes.py_object(exc) if exc else None)
