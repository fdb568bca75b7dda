"""An ``Engine`` behind a pipe: JSON-RPC 2.0 over a child's stdin/stdout (protocol.md §1).

``SubprocessEngine(argv)`` starts the engine without a shell and speaks one
request per line, one response per line, strictly one request in flight.  It
never hangs: stdout is read non-blocking under a per-call deadline (a short
spin of reads before each wait in select: ``SPINS``), each line
is capped in length, and stderr is drained continuously by a thread into a
bounded tail (a child flooding its log never blocks).  Contract errors come
back as the kit's ``EngineError`` kinds; anything outside the contract raises
``AdapterBroken`` (``timeout``, ``exited``, ``not_json``, ``wrong_id``,
``extra_output``, ``too_long``, ``bad_response``) with what was sent, what came
back and the tail of the engine's stderr.  After such a break the child is
killed and every later call raises the same error at once.

The child runs in a session of its own, and ending it ends everything it
started (``reaper.end``): by ``close()`` (``bye``, then SIGTERM, then SIGKILL
to the whole family), by the context manager, and (by a ``weakref.finalize``)
on garbage collection and at interpreter exit.  An engine that exits while a
process it started still holds its stdout is reported as ``exited`` (Linux
watches the pid itself), not as a timeout.  When the run is being stopped
(``stop`` set), a call still waiting after ``STOP_GRACE`` seconds ends as
``AdapterBroken("interrupted")``.  POSIX only (it relies on ``select`` on pipes).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import subprocess
import threading
import time
import weakref
from collections.abc import Sequence
from typing import Any

import orjson

from ruleproof import PROTOCOL_VERSION
from ruleproof.model.engine import AdapterBroken, BrokenKind, EngineError, JSONObject, Move, State, error_from_wire
from ruleproof.transport.reaper import end, started

MAX_LINE = 4 * 1024 * 1024  # bytes in one response line
STDERR_TAIL = 64 * 1024  # bytes of the engine's log kept for reports
SHOWN = 2000  # characters of an offending line kept in a report
START_GRACE = 5.0  # the first call includes the engine's start-up: at least this long
STOP_GRACE = 2.0  # seconds a call may still take once the run is being stopped
_POLL = 0.25  # how often a wait looks at ``stop``
# reads tried before a wait sleeps in select (about 150 µs): an answer that comes within them costs no
# wake-up of this process, which on an idle machine is most of a round trip (bench/benchmark.py: a
# bare call 90-127 µs asleep, 33-49 µs spinning); an engine that takes longer is waited for in select
# as before.  No sched_yield between reads: on a busy machine a yield hands the core to whatever else
# runs there for its whole time slice, and the short bound caps what a spin can take from it (farm-bench,
# the reference Moon over the pipe under two busy loops: 1.22x the time with yields and 400 reads,
# 0.93x with 150 plain reads, against none).  Timing only: what is read is the same
SPINS = 150


class SubprocessEngine:
    """The ``Engine`` protocol over a child process speaking JSON-RPC on stdio."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        timeout: float = 10.0,
        max_line: int = MAX_LINE,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        stop: threading.Event | None = None,
    ) -> None:
        self.argv = list(argv)
        self.timeout = timeout
        self.stop = stop
        self.max_line = max_line
        self._limit = timeout  # the current call's timeout, for messages
        self._request: JSONObject = {}  # the last request sent
        self._id = 0
        self._buf = bytearray()
        self._broken: AdapterBroken | None = None
        self._closed = False
        self._tail = bytearray()
        self._tail_lock = threading.Lock()
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                cwd=cwd,
                env=env,
                close_fds=True,
                start_new_session=True,
            )
        except OSError as err:
            raise AdapterBroken("exited", f"could not start the engine {self.argv!r}: {err}") from None
        self.pid = self.proc.pid
        started(self.pid)
        assert self.proc.stdin is not None and self.proc.stdout is not None and self.proc.stderr is not None  # PIPEs
        self._stdin, self._stdout, self._stderr = self.proc.stdin, self.proc.stdout, self.proc.stderr
        self._stop_deadline: float | None = None
        self._out = self._stdout.fileno()
        self._in = self._stdin.fileno()
        os.set_blocking(self._out, False)
        os.set_blocking(self._in, False)
        self._sel = selectors.DefaultSelector()
        self._sel.register(self._out, selectors.EVENT_READ)
        self._pidfd = _pidfd(self.pid)  # readable once the engine exits, even if a child holds its stdout
        if self._pidfd is not None:
            self._sel.register(self._pidfd, selectors.EVENT_READ)
        self._stderr_thread = threading.Thread(target=self._drain_stderr, name=f"engine-stderr-{self.pid}", daemon=True)
        self._stderr_thread.start()
        # reaped even if close() is never called: on garbage collection and at interpreter exit
        self._finalizer = weakref.finalize(self, _reap, self.proc, 0.0, self._pidfd)

    # -- the Engine protocol ---------------------------------------------------------
    # The results are JSON as the engine sent it; ``CheckedEngine`` checks their shape against the schemas.
    def hello(self) -> JSONObject:
        hello: JSONObject = self._call("hello", {"protocol": PROTOCOL_VERSION})
        return hello

    def new_game(self, game: str, players: int, dealer: int, options: JSONObject) -> State:
        params = {"game": game, "players": players, "dealer": dealer, "options": options}
        return self._state(self._call("new_game", params))

    def legal_moves(self) -> list[Move]:
        moves: list[Move] = self._field(self._call("legal_moves", {}), "moves")
        return moves

    def apply(self, move: Move) -> State:
        return self._state(self._call("apply", {"move": move}))

    # -- the ``moves`` capability (protocol.md §9): asked for only when hello declares it ------------
    def new_game_listing(self, game: str, players: int, dealer: int, options: JSONObject) -> tuple[State, Any]:
        """``new_game``, answered with the new state's legal moves too (None: the answer left them out)."""
        params = {"game": game, "players": players, "dealer": dealer, "options": options, "moves": True}
        result = self._call("new_game", params)
        return self._state(result), result.get("moves")

    def apply_listing(self, move: Move) -> tuple[State, Any]:
        """``apply``, answered with the new state's legal moves too (None: the answer left them out)."""
        result = self._call("apply", {"move": move, "moves": True})
        return self._state(result), result.get("moves")

    def state(self) -> State:
        return self._state(self._call("state", {}))

    def close(self) -> None:
        """Say ``bye``, give the child a moment to exit, then terminate/kill it; always reap."""
        if self._closed:
            return
        self._closed = True
        proc = self.proc
        if self._broken is None and proc.poll() is None:
            with contextlib.suppress(AdapterBroken):  # it cannot say goodbye: it is ended all the same
                self._exchange("bye", {}, min(self.timeout, 2.0))
        with contextlib.suppress(OSError):
            self._stdin.close()
        _reap(proc, 1.0, None)
        self._stderr_thread.join(timeout=1.0)
        self._sel.close()
        _close_fd(self._pidfd)
        with contextlib.suppress(OSError):
            self._stdout.close()
        self._finalizer.detach()

    def __enter__(self) -> SubprocessEngine:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- diagnostics -----------------------------------------------------------------
    @property
    def returncode(self) -> int | None:
        return self.proc.poll()

    def stderr_tail(self) -> str:
        with self._tail_lock:
            return self._tail.decode("utf-8", "replace")

    # -- the wire ----------------------------------------------------------------------
    def _call(self, method: str, params: JSONObject) -> Any:
        if self._broken is not None:
            raise self._broken
        if self._closed:
            raise AdapterBroken("exited", f"{method} called after close()", sent={"method": method, "params": params})
        try:
            return self._exchange(method, params, self.timeout if self._id else max(self.timeout, START_GRACE))
        except EngineError:  # a contract error: the wire is fine
            raise
        except AdapterBroken as broken:
            self._break(broken)
            raise
        except BaseException:  # KeyboardInterrupt mid-call: the wire is out of step, end the child
            self._break(None)
            raise

    def _exchange(self, method: str, params: JSONObject, timeout: float) -> Any:
        self._id += 1
        ident = self._id
        request = {"jsonrpc": "2.0", "id": ident, "method": method, "params": params}
        self._request = request
        self._limit = timeout
        self._stop_deadline = None
        deadline = time.monotonic() + timeout
        self._check_quiet(request)
        self._write(orjson.dumps(request) + b"\n", request, deadline)
        line = self._readline(request, deadline)
        try:
            reply = orjson.loads(line)
        except orjson.JSONDecodeError as err:
            raise self._fail("not_json", f"the answer to {method} is not JSON ({err})", request, _shown(line)) from None
        if not isinstance(reply, dict) or reply.get("jsonrpc") != "2.0":
            raise self._fail(
                "bad_response", f"the answer to {method} is not a JSON-RPC 2.0 response object", request, reply
            )
        got = reply.get("id")
        if type(got) is not int or got != ident:  # 1.0 and true are not the id 1
            if type(got) is int and 0 < got < ident:
                raise self._fail(
                    "extra_output",
                    f"a second response to request {got} arrived while waiting for {method} (id {ident})",
                    request,
                    reply,
                )
            raise self._fail("wrong_id", f"the answer to {method} has id {got!r}, expected {ident}", request, reply)
        if self._buf:  # more than one line came back at once
            raise self._fail(
                "extra_output",
                f"the engine wrote more than one line in answer to {method}",
                request,
                _shown(bytes(self._buf)),
            )
        if ("result" in reply) == ("error" in reply):
            raise self._fail(
                "bad_response", f"the answer to {method} must have exactly one of result and error", request, reply
            )
        if "error" in reply:
            error = reply["error"]
            if (
                not isinstance(error, dict)
                or not isinstance(error.get("code"), int)
                or not isinstance(error.get("message"), str)
            ):
                raise self._fail(
                    "bad_response",
                    f"the error answering {method} needs an integer code and a string message",
                    request,
                    reply,
                )
            raise error_from_wire(error)
        return reply["result"]

    def _state(self, result: Any) -> State:
        state: State = self._field(result, "state")
        return state

    def _field(self, result: Any, name: str) -> Any:
        if not isinstance(result, dict) or name not in result:
            broken = self._fail("bad_response", f"the result must be an object with {name!r}", self._request, result)
            self._break(broken)
            raise broken
        return result[name]

    def _check_quiet(self, request: JSONObject) -> None:
        """Between calls the engine must be silent: anything waiting is unsolicited output."""
        if not self._buf:
            try:
                chunk = os.read(self._out, 65536)
            except BlockingIOError:
                return
            if not chunk:
                raise self._exited(request, "between calls")
            self._buf += chunk
        raise self._fail(
            "extra_output",
            "the engine wrote a line nobody asked for (a second response?) before this call",
            request,
            _shown(bytes(self._buf)),
        )

    def _write(self, data: bytes, request: JSONObject, deadline: float) -> None:
        view = memoryview(data)
        while view:
            try:
                n = os.write(self._in, view)
            except BlockingIOError:
                n = 0
            except (BrokenPipeError, ConnectionResetError):
                raise self._exited(request, "before reading the request") from None
            view = view[n:]
            if view:
                wait = deadline - time.monotonic()
                if wait <= 0:
                    raise self._fail(
                        "timeout",
                        f"the engine did not read the {request['method']} request within {self._limit}s",
                        request,
                        None,
                    )
                with selectors.DefaultSelector() as sel:
                    sel.register(self._in, selectors.EVENT_WRITE)
                    sel.select(wait)

    def _readline(self, request: JSONObject, deadline: float) -> bytes:
        buf = self._buf
        start = 0
        spins = 0
        while True:
            nl = buf.find(b"\n", start)
            if nl >= 0:
                line = bytes(buf[:nl])
                del buf[: nl + 1]
                return line
            if len(buf) > self.max_line:
                raise self._fail(
                    "too_long",
                    f"the answer to {request['method']} exceeds {self.max_line} bytes without a newline",
                    request,
                    _shown(bytes(buf[:SHOWN])),
                )
            start = len(buf)
            try:
                chunk = os.read(self._out, 1 << 20)
            except BlockingIOError:
                if spins < SPINS:
                    spins += 1
                    continue
                self._await_output(request, deadline, buf)
                continue
            if not chunk:
                raise self._exited(request, f"while answering {request['method']}", partial=bytes(buf))
            buf += chunk

    def _await_output(self, request: JSONObject, deadline: float, buf: bytearray) -> None:
        """Wait for more of the answer; raise on the deadline, on the engine's exit, or on a stop."""
        now = time.monotonic()
        if self.stop is not None and self.stop.is_set():
            if self._stop_deadline is None:
                self._stop_deadline = now + STOP_GRACE
            elif now >= self._stop_deadline:
                raise self._fail(
                    "interrupted",
                    f"the run was stopped while the engine was answering {request['method']}",
                    request,
                    _shown(bytes(buf)) or None,
                )
        ends = deadline if self._stop_deadline is None else min(deadline, self._stop_deadline)
        wait = ends - now
        if self.stop is not None and self._stop_deadline is None:
            wait = min(wait, _POLL)
        ready = {key.fd for key, _ in self._sel.select(max(wait, 0.0))} if wait > 0 else set()
        if self._out in ready:
            return
        if self._pidfd is not None and self._pidfd in ready:
            # the engine has exited but its stdout is still open: a process it started holds it
            raise self._exited(
                request,
                f"while answering {request['method']} (a process it started still holds its stdout)",
                partial=bytes(buf),
            )
        if time.monotonic() >= deadline:
            raise self._fail(
                "timeout",
                f"no answer to {request['method']} within {self._limit}s",
                request,
                _shown(bytes(buf)) or None,
            )

    # -- failures ----------------------------------------------------------------------
    def _fail(self, kind: BrokenKind, message: str, request: JSONObject, received: Any) -> AdapterBroken:
        return AdapterBroken(kind, message, sent=request, received=received, stderr=self.stderr_tail())

    def _exited(self, request: JSONObject, when: str, partial: bytes = b"") -> AdapterBroken:
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None  # closed its stdout but lives on
        status = f"status {code}" if code is None or code >= 0 else f"signal {-code}"
        what = "closed its stdout" if code is None else f"exited with {status}"
        self._stderr_thread.join(timeout=0.5)  # let the last of the log arrive
        return self._fail("exited", f"the engine {what} {when}", request, _shown(partial) or None)

    def _break(self, broken: AdapterBroken | None) -> None:
        """The wire is out of step: remember why, and end the child now."""
        if broken is not None and self._broken is None:
            self._broken = broken
        elif self._broken is None:
            self._broken = AdapterBroken("interrupted", "a call was interrupted; the engine was stopped")
        _reap(self.proc, 0.0, None)

    def _drain_stderr(self) -> None:
        fd = self._stderr.fileno()
        try:
            while True:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                with self._tail_lock:
                    self._tail += chunk
                    if len(self._tail) > 2 * STDERR_TAIL:
                        del self._tail[: len(self._tail) - STDERR_TAIL]
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                self._stderr.close()


def _shown(data: bytes) -> str:
    text = data.decode("utf-8", "replace")
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}... ({len(data)} bytes)"


def _reap(proc: subprocess.Popen[bytes], grace: float, pidfd: int | None) -> None:
    """End the engine and every process it started (``reaper.end``); never leave a zombie."""
    end(proc, grace)
    _close_fd(pidfd)


def _pidfd(pid: int) -> int | None:
    """A descriptor that becomes readable when ``pid`` exits (Linux 5.3+), or None."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _close_fd(fd: int | None) -> None:
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)
