"""What a certification is asked to do: one options object for the CLI and the pytest plugin.

``ruleproof certify`` and ``pytest --ruleproof`` parse their own flags, then
both call ``Options.build`` with the raw values, so both accept and refuse the
same things with the same messages and open the engine the same way.  Bad
input raises ``UsageError``: one line naming the flag, exit status 2.

This module is imported by the pytest plugin at start-up, so it imports nothing
heavy (no Hypothesis, no properties): engines are opened lazily.
"""

from __future__ import annotations

import math
import os
import shlex
import tempfile
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from attrs import frozen

from ruleproof import GAMES
from ruleproof.model.engine import Engine, EngineLoadError
from ruleproof.model.errors import UsageError
from ruleproof.run.profile_table import PROFILES, described

if TYPE_CHECKING:
    from ruleproof.run.expect import RunInputs

PROFILE_NAMES = tuple(PROFILES)
DEFAULT_PROFILE = "ci"
DEFAULT_TIMEOUT = 10.0
DEFAULT_TRACES = "ruleproof-traces"


@frozen
class Flag:
    """One option of a certification, declared once: the ``ruleproof certify`` flag ``--NAME``, the pytest
    flag ``--ruleproof-NAME`` and the ini setting ``ruleproof_NAME`` are made from it (``add_to``,
    ``ruleproof.cli.plugin``), and ``Options.build`` checks its value the same way for all three."""

    name: str
    help: str
    metavar: str | None = None
    # a value; on when given; repeatable; one or more values after the flag (repeatable too)
    kind: Literal["text", "switch", "many", "pairs"] = "text"
    choices: tuple[str, ...] = ()
    exclusive: str = ""  # flags with the same group name are mutually exclusive
    cli_only: bool = False  # no pytest flag (the plugin has pytest's own)
    commands: tuple[str, ...] = ("certify",)  # the ruleproof commands that take it (a diff-only flag is cli_only)
    helps: tuple[tuple[str, str], ...] = ()  # (command, help) where a command says it its own way

    @property
    def key(self) -> str:
        return self.name.replace("-", "_")


BOTH = ("certify", "diff")
FLAGS: tuple[Flag, ...] = (
    Flag("game", "a game to certify (repeatable; default: all the engine declares)", "GAME", "many", GAMES,
         commands=BOTH, helps=(("diff", "the game to compare (one)"),)),
    Flag("engine", "a Python engine factory (default: the reference engines)", "MODULE:FACTORY", exclusive="engine",
         commands=BOTH, helps=(("diff", "side A, a Python engine factory (default: the reference)"),)),
    Flag("engine-cmd", "an engine in any language: a command speaking the JSON-RPC contract on stdio", "CMD",
         exclusive="engine", commands=BOTH, helps=(("diff", "side A, a command speaking the JSON-RPC contract"),)),
    Flag("timeout", f"limit for one engine call, in process or over the pipe (default {DEFAULT_TIMEOUT:g})", "SECONDS",
         commands=BOTH),
    Flag("profile", f"how hard to look (default: {DEFAULT_PROFILE}): "
         + "; ".join(described(p) for p in PROFILES.values()), "PROFILE", choices=PROFILE_NAMES, commands=BOTH),
    Flag("seed", "explore from this seed instead of the profile's default", "N", commands=BOTH),
    Flag("json", "write the certificate as JSON", "PATH", commands=BOTH,
         helps=(("diff", "write the comparison as JSON"),)),
    Flag("junit", "write one JUnit test case per clause", "PATH"),
    Flag("html", "write the report as one self-contained HTML page (the certificate embedded)", "PATH"),
    Flag("summary", "write a markdown summary (for $GITHUB_STEP_SUMMARY)", "PATH"),
    Flag("traces", f"where failure traces are saved (default: {DEFAULT_TRACES})", "DIR", commands=BOTH,
         helps=(("diff", f"where divergence traces are saved (default: {DEFAULT_TRACES})"),)),
    Flag("no-fixtures", "skip the fixtures", kind="switch"),
    Flag("no-properties", "skip the state machine", kind="switch"),
    Flag("max-time", "stop after this long and write a partial certificate (marked interrupted)", "SECONDS"),
    Flag("expect", 'TOML of declared deviations, [GAME] CLAUSE = "reason": a listed failure is xfail, a listed '
         "pass xpass", "FILE"),
    Flag("baseline", "an earlier certificate (--json) of this engine: show regressions, fixed and untested clauses",
         "CERT.json"),
    Flag("fixtures", "also run your own fixture files from DIR (repeatable)", "DIR", "many"),
    Flag("quiet", "no progress lines on stderr (the report and the files are the same)", kind="switch",
         cli_only=True),
    Flag("workers", "explore each game's shards in N local processes (default 1: this one); the certificate is "
         "the same", "N"),
    Flag("shard", "explore only part K of N of each game's shards and write a partial certificate (--json) for "
         "ruleproof merge", "K/N", cli_only=True),
    Flag("github-output", "append status=EXIT and verdict=VERDICT to FILE ($GITHUB_OUTPUT), whatever the run "
         "gives (a broken engine or a wrong call too)", "FILE", cli_only=True),
    # ruleproof diff's own
    Flag("vs", "side B, a Python engine factory (default: the reference)", "MODULE:FACTORY", exclusive="vs",
         cli_only=True, commands=("diff",)),
    Flag("vs-cmd", "side B, a command speaking the JSON-RPC contract", "CMD", exclusive="vs", cli_only=True,
         commands=("diff",)),
    Flag("options", "option values for both sides", "K=V", "pairs", cli_only=True, commands=("diff",)),
    Flag("vs-options", "option values for side B only (overrides --options)", "K=V", "pairs", cli_only=True,
         commands=("diff",)),
    Flag("ignore", "a field not to compare (repeatable; e.g. dealer, zones.won/*, legal_moves)", "FIELD", "many",
         cli_only=True, commands=("diff",)),
    Flag("strict", "a difference in what the contract leaves open (the dealer between rounds, leader on an empty "
         "trick, ...) fails the run too (exit 1)", kind="switch", cli_only=True, commands=("diff",)),
)  # fmt: skip
BY_FLAG = {f.name: f for f in FLAGS}


def add_to(parser: Any, names: Iterable[str] | None = None, prefix: str = "--", command: str = "certify") -> None:
    """Add the flags (those ``names``, or all that ``command`` takes) to an argparse parser or a pytest
    option group."""
    groups: dict[str, Any] = {}
    for flag in [f for f in FLAGS if command in f.commands] if names is None else [BY_FLAG[n] for n in names]:
        target = parser
        if flag.exclusive and hasattr(parser, "add_mutually_exclusive_group"):
            if flag.exclusive not in groups:
                groups[flag.exclusive] = parser.add_mutually_exclusive_group()
            target = groups[flag.exclusive]
        add = target.add_argument if hasattr(target, "add_argument") else target.addoption
        help_text = dict(flag.helps).get(command, flag.help)
        kw: dict[str, Any] = {"help": help_text, "dest": flag.key if prefix == "--" else f"ruleproof_{flag.key}"}
        if flag.kind == "switch":
            kw["action"] = "store_true"
        else:
            kw["metavar"] = flag.metavar
            if flag.kind == "many":
                kw["action"] = "append"
            if flag.kind == "pairs":
                kw["action"], kw["nargs"] = "extend", "+"
            if flag.choices:
                kw["choices"] = flag.choices
        add(f"{prefix}{flag.name}", **kw)


@frozen
class Options:
    """A certification request, already checked; ``flag`` names are the CLI's (the plugin prefixes them)."""

    engine: str | None = None  # --engine MODULE:FACTORY
    engine_cmd: tuple[str, ...] = ()  # --engine-cmd, split as a shell would
    engine_cmd_text: str | None = None  # --engine-cmd as given (for replay commands)
    timeout: float = DEFAULT_TIMEOUT  # seconds per engine call, in process or over the pipe
    games: tuple[str, ...] = ()  # empty: every game the engine declares
    profile: str = DEFAULT_PROFILE
    seed: int | None = None
    json_path: Path | None = None
    junit_path: Path | None = None
    html_path: Path | None = None  # --html: the report as one self-contained page
    summary_path: Path | None = None  # --summary: markdown, for a CI job summary
    traces: Path = Path(DEFAULT_TRACES)
    fixtures: bool = True
    properties: bool = True
    max_time: float | None = None  # seconds before the run is stopped and a partial certificate written
    prefix: str = "--"  # how the front end spells its flags, for messages
    expect: str | None = None  # --expect FILE
    baseline: str | None = None  # --baseline CERT.json
    inputs: RunInputs | None = None  # the expectations, baseline and user fixtures, loaded and checked
    quiet: bool = False
    workers: int = 1  # --workers: local processes exploring shards (1: the run's own)
    shard: tuple[int, int] | None = None  # --shard K/N: this machine's part of the shards

    @classmethod
    def build(cls, values: Mapping[str, Any], prefix: str = "--") -> Options:
        """Check raw values (``Flag.key`` -> a string from a command line or an ini file, a bool, a list)
        and build the options; ``prefix`` is how the front end spells its flags (``--`` or
        ``--ruleproof-``), so messages name the flag the user typed.
        """
        flag = _Flags(prefix)
        get = values.get
        engine, engine_cmd = get("engine"), get("engine_cmd")
        if engine is not None and engine_cmd is not None:
            raise UsageError(f"{flag('engine')} and {flag('engine-cmd')} name two engines: give one")
        if engine is not None and not engine.strip():
            raise UsageError(f"{flag('engine')}: empty; expected MODULE:FACTORY")
        if get("no_fixtures") and get("no_properties"):
            raise UsageError(f"{flag('no-fixtures')} with {flag('no-properties')} leaves nothing to judge")
        return cls(
            engine=engine,
            engine_cmd=parse_command(engine_cmd, flag("engine-cmd")) if engine_cmd is not None else (),
            engine_cmd_text=engine_cmd,
            timeout=DEFAULT_TIMEOUT if get("timeout") is None else parse_seconds(get("timeout"), flag("timeout")),
            games=_games(get("game"), flag("game")),
            profile=_profile(get("profile"), flag("profile")),
            seed=None if get("seed") is None else parse_seed(get("seed"), flag("seed")),
            **{f"{k}_path": _output_file(get(k), flag(k)) for k in ("json", "junit", "html", "summary")},
            traces=check_output_dir(get("traces") or DEFAULT_TRACES, flag("traces")),
            fixtures=not get("no_fixtures"),
            properties=not get("no_properties"),
            max_time=None if get("max_time") is None else parse_seconds(get("max_time"), flag("max-time")),
            prefix=prefix,
            expect=get("expect"),
            baseline=get("baseline"),
            inputs=_load_inputs(get("expect"), get("baseline"), get("fixtures"), flag),
            quiet=bool(get("quiet")),
            workers=1 if get("workers") is None else parse_workers(get("workers"), flag("workers")),
            shard=None if get("shard") is None else parse_shard(get("shard"), flag("shard")),
        )

    @property
    def engine_args(self) -> tuple[str, ...]:
        """The CLI arguments that name this engine again (for replay commands)."""
        if self.engine_cmd_text is not None:
            return ("--engine-cmd", self.engine_cmd_text, *self._timeout_args())
        if self.engine is not None:
            return ("--engine", self.engine, *self._timeout_args())
        return ()

    def _timeout_args(self) -> tuple[str, ...]:
        return () if self.timeout == DEFAULT_TIMEOUT else ("--timeout", f"{self.timeout:g}")

    def open_engine(self, stop: threading.Event | None = None) -> Engine:
        """Start the engine these options name: a command, a Python factory, or the reference engines.

        Raises ``UsageError`` for a module or factory that cannot give an engine,
        ``AdapterBroken`` for an engine that cannot start (or hangs while starting).
        """
        return open_engine(self.engine, self.engine_cmd, self.timeout, stop, flag=f"{self.prefix}engine")


def _games(games: Any, flag: str) -> tuple[str, ...]:
    games = tuple(games or ())
    for game in games:
        if game not in GAMES:
            raise UsageError(f"{flag}: unknown game {game!r} (one of {', '.join(GAMES)})")
    return tuple(dict.fromkeys(games))


def _profile(profile: str | None, flag: str) -> str:
    profile = profile or DEFAULT_PROFILE
    if profile not in PROFILE_NAMES:
        raise UsageError(f"{flag}: unknown profile {profile!r} (one of {', '.join(PROFILE_NAMES)})")
    return profile


def _output_file(value: str | None, flag: str) -> Path | None:
    return None if value is None else check_output_file(value, flag)


def _load_inputs(expect: str | None, baseline: str | None, fixture_dirs: Any, flag: Any) -> RunInputs | None:
    """--expect, --baseline, --fixtures: read and checked now, so a bad file stops the run before the engine starts."""
    if expect is None and baseline is None and not fixture_dirs:
        return None
    from ruleproof.run.expect import load_inputs

    try:
        return load_inputs(expect, baseline, tuple(fixture_dirs or ()))
    except ValueError as err:  # ExpectError or FixtureError: the message names the file and the line or field
        raise UsageError(f"{flag(getattr(err, 'flag', 'fixtures'))}: {err}") from None


def open_engine(
    engine: str | None,
    engine_cmd: tuple[str, ...],
    timeout: float,
    stop: threading.Event | None = None,
    *,
    flag: str = "--engine",
) -> Engine:
    """The engine named by ``--engine`` / ``--engine-cmd`` (or the reference), each call under ``timeout``."""
    from ruleproof.transport.inprocess import TimedEngine

    if engine_cmd:
        from ruleproof.transport.subprocess import SubprocessEngine

        return SubprocessEngine(engine_cmd, timeout=timeout, stop=stop)
    if engine is not None:
        from ruleproof.model.engine import load_factory

        try:
            return TimedEngine(engine, load_factory(engine, from_cwd=True), timeout=timeout, stop=stop)
        except EngineLoadError as err:
            raise UsageError(f"{flag} {err}") from None
    from ruleproof.reference import ReferenceEngine

    return ReferenceEngine()  # the kit's own engines run unwrapped: no thread hand-off on the main job's every call


class _Flags:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def __call__(self, name: str) -> str:
        return f"{self.prefix}{name}"


def parse_command(text: str, flag: str = "--engine-cmd") -> tuple[str, ...]:
    """Split a command as a POSIX shell would (no shell runs it); empty or unbalanced is a usage error."""
    try:
        argv = shlex.split(text)
    except ValueError as err:  # "No closing quotation", "No escaped character"
        raise UsageError(f"{flag} {text!r}: cannot split it as a command ({str(err).lower()})") from None
    if not argv:
        raise UsageError(f"{flag} is empty: give the command that starts the engine")
    return tuple(argv)


def parse_seconds(value: Any, flag: str) -> float:
    """A positive, finite number of seconds (nan, inf, 0 and negatives are usage errors)."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise UsageError(f"{flag}: {value!r} is not a number of seconds") from None
    if isinstance(value, bool) or not math.isfinite(seconds) or seconds <= 0:
        raise UsageError(f"{flag}: must be a positive, finite number of seconds, got {value!r}")
    return seconds


def parse_seed(value: Any, flag: str = "--seed") -> int:
    """An integer seed (Hypothesis accepts any int; we refuse what is not one)."""
    if isinstance(value, bool):
        raise UsageError(f"{flag}: {value!r} is not an integer")
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip(), 10)
    except ValueError:
        raise UsageError(f"{flag}: {value!r} is not an integer") from None


MAX_WORKERS = 64


def parse_workers(value: Any, flag: str = "--workers") -> int:
    """A number of worker processes: an integer from 1 to ``MAX_WORKERS``."""
    try:
        workers = int(str(value).strip(), 10)
    except ValueError:
        raise UsageError(f"{flag}: {value!r} is not a whole number of processes") from None
    if not 1 <= workers <= MAX_WORKERS:
        raise UsageError(f"{flag}: {workers} is not between 1 and {MAX_WORKERS}")
    return workers


def parse_shard(value: Any, flag: str = "--shard") -> tuple[int, int]:
    """``K/N``: part K (1-based) of N, with 1 <= K <= N."""
    k, sep, n = str(value).strip().partition("/")
    if not sep or not k.strip().isdigit() or not n.strip().isdigit():
        raise UsageError(f"{flag}: {value!r} is not K/N (this machine's part K of N, e.g. 1/4)")
    part, parts = int(k), int(n)
    if not 1 <= part <= parts:
        raise UsageError(f"{flag}: {value!r}: K must be between 1 and N")
    return part, parts


def check_output_file(value: str | Path, flag: str) -> Path:
    """A file the run can write at the end: checked now, so a long run never ends in a write error."""
    path = Path(value)
    if str(value) == "" or path.is_dir():
        raise UsageError(f"{flag} {str(value)!r}: is a directory; give a file path")
    if path.exists() and not path.is_file():
        raise UsageError(f"{flag} {str(value)!r}: exists and is not a regular file")
    parent = path.parent
    if not parent.is_dir():
        why = "is not a folder" if parent.exists() else "does not exist"
        raise UsageError(f"{flag} {str(value)!r}: {str(parent)!r} {why}")
    _probe_writable(parent, flag, str(value))
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"{flag} {str(value)!r}: the file is not writable")
    return path


def check_output_dir(value: str | Path, flag: str) -> Path:
    """A folder the run can create and write in (it is created only when there is something to save)."""
    path = Path(value)
    if str(value) == "":
        raise UsageError(f"{flag}: empty; give a folder")
    probe = path
    while not probe.exists():  # the nearest existing ancestor must be a writable folder
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir():
        what = "is not a folder" if probe == path else f"lies under {str(probe)!r}, which is not a folder"
        raise UsageError(f"{flag} {str(value)!r}: {what}")
    _probe_writable(probe, flag, str(value))
    return path


def _probe_writable(folder: Path, flag: str, shown: str) -> None:
    # os.access is wrong for root and on some mounts: create (and remove) a real file instead
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".ruleproof-probe-"):
            pass
    except OSError as err:
        raise UsageError(f"{flag} {shown!r}: cannot write in {str(folder)!r} ({err.strerror or err})") from None
