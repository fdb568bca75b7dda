"""The pytest plugin: a certification as test items, one per clause, collected from a real file.

Registered through the ``pytest11`` entry point in every pytest session where ruleproof is installed,
it stays silent and light (like Hypothesis's own plugin it imports nothing heavy) until asked:

- a file ``ruleproof.toml`` among the collected files (say ``tests/ruleproof.toml``) holds the
  settings, the same keys as the command's flags (``engine = "mypkg.adapter:Adapter"``,
  ``game = ["black-maria"]``, ``profile = "ci"``, ``expect = "expect.toml"``, ...), and its items are
  ``tests/ruleproof.toml::GAME::CLAUSE``;
- or ``--ruleproof`` (or ``--ruleproof-engine``/``--ruleproof-engine-cmd``, or ``ruleproof = true``
  in the ini file), and the items hang from the ini file (``pyproject.toml::GAME::CLAUSE``).

Every option is the command's (``ruleproof.cli.options.FLAGS``), prefixed (``--ruleproof-profile``),
settable in the ini file (``ruleproof_profile = "dev"`` in ``[tool.pytest.ini_options]``), a flag
overriding an ini value and both overriding ``ruleproof.toml``; they are checked by the same
``Options.build``.  Each game is one collector with a ``certify`` item, which does the work (its
duration is the certification's, and it fails when the engine could not be driven, when a failure
falls under a clause outside the table, or when nothing was judged), then an item per clause, which
passes, fails with the counterexample and the replay command, or is skipped when the clause was not
judged; a clause listed in ``--ruleproof-expect`` is a strict xfail.  Under pytest-xdist each game
first has an item per shard of its exploration (``GAME::shard[K/N]``, the profile's N): the workers
claim them in a shared folder (``ruleproof.cli.claims``), each explores its part as ``ruleproof
certify --shard K/N`` does, the one finishing last merges the parts as ``ruleproof merge`` does, and
the game's other items, on any worker, judge that: the certificate of ``--workers N``, from one seed
the controller draws for every worker.  ``--ruleproof-json``, ``-junit``,
``-html`` and ``-summary`` write the same files as ``ruleproof certify`` when the session ends.

Its manners: a failure's first line (the short summary's, JUnit's ``message``) is the violation
itself; a ``partial`` clause is a ``ruleproof.RuleproofPartialWarning``; a path in the ini file or in
``ruleproof.toml`` is relative to the file naming it; JUnit cases are named ``ruleproof.GAME`` /
``CLAUSE`` as ``ruleproof certify --junit`` names them.
"""

from __future__ import annotations

import datetime
import json
import shlex
import threading
import time
import tomllib
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import pytest
from attrs import frozen

from ruleproof import GAMES
from ruleproof.cli.options import FLAGS, Options
from ruleproof.model.engine import AdapterBroken
from ruleproof.model.errors import RuleproofPartialWarning, RuleproofWarning, UserError

if TYPE_CHECKING:
    from ruleproof.cli.claims import SharedShards

PREFIX = "--ruleproof-"
SETTINGS_FILE = "ruleproof.toml"
# the settings that name files or folders: relative to the file that gives them (a flag: to the
# working folder, as on a command line)
PATH_KEYS = frozenset({"expect", "baseline", "json", "junit", "html", "summary", "traces", "fixtures"})
HEADLINE_CHARS = 300  # a failure's first line, the short summary's and JUnit's message
SHARDS_FOLDER = "shards"  # in the controller's parts folder: the games' shards, shared (ruleproof.cli.claims)
WAIT = 0.1  # seconds between two looks at the shared folder while other workers explore a game's shards


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ruleproof", "rules conformance of game engines (ruleproof)")
    group.addoption(
        "--ruleproof", action="store_true", help="certify the reference engines, or the --ruleproof-engine(-cmd) given"
    )
    parser.addini("ruleproof", "certify in this session, as --ruleproof does", type="bool", default=False)
    for flag in FLAGS:
        if flag.cli_only:
            continue
        kind: Literal["bool", "linelist", "string"] = (
            "bool" if flag.kind == "switch" else "linelist" if flag.kind == "many" else "string"
        )
        parser.addini(f"ruleproof_{flag.key}", f"as {PREFIX}{flag.name}: {flag.help}", type=kind, default=None)
    from ruleproof.cli.options import add_to

    add_to(group, [f.name for f in FLAGS if not f.cli_only], prefix=PREFIX)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "ruleproof: an item of a ruleproof certification (one clause of one game)")
    if config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_XdistController(), "ruleproof-xdist")
    config.pluginmanager.register(_JUnitNames(config), "ruleproof-junit")


class _JUnitNames:
    """A clause's JUnit case is named as ``ruleproof certify --junit`` names it, ``ruleproof.GAME`` /
    ``CLAUSE``, not after the settings file (``tests.ruleproof.toml.GAME``): one scheme, so a CI's test
    history follows a clause from the command to the plugin.  Set on the controller, where pytest's
    junitxml writes (under xdist too), before it records the report."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        parts = report.nodeid.split("::")
        if len(parts) != 3 or parts[1] not in GAMES or Path(parts[0]).suffix not in (".toml", ".ini", ".cfg"):
            return
        try:  # the stash key of pytest's junitxml, as its record_xml_attribute fixture reads it
            from _pytest.junitxml import xml_key
        except ImportError:  # another pytest: its own names stay
            return
        xml = self.config.stash.get(xml_key, None)
        if xml is not None:
            xml.node_reporter(report).add_attribute("classname", f"ruleproof.{parts[1]}")


class _XdistController:
    """The controller of a pytest-xdist session: tells each worker where to leave its part of the
    certificate (the settings may come from a ruleproof.toml only the workers collect), where the
    games' shards are shared (``ruleproof.cli.claims``), and the one seed they all explore from; and
    names a worker that went down, so that whoever waits for its shards fails instead of waiting."""

    def __init__(self) -> None:
        import secrets

        self.parts: Path | None = None
        # used by the workers only where a run draws its seed (a randomized profile without --seed)
        self.seed = secrets.randbelow(2**32)

    def pytest_configure_node(self, node: Any) -> None:
        if self.parts is None:
            import tempfile

            self.parts = Path(tempfile.mkdtemp(prefix="ruleproof-parts-"))
            (self.parts / SHARDS_FOLDER).mkdir()
            # a worker that cannot read this (on another machine, without the folder shared) says so
            (self.parts / SHARDS_FOLDER / "session").write_text(str(self.seed), encoding="utf-8")
        node.workerinput["ruleproof_parts"] = str(self.parts)
        node.workerinput["ruleproof_shards"] = str(self.parts / SHARDS_FOLDER)
        node.workerinput["ruleproof_seed"] = self.seed

    def pytest_testnodedown(self, node: Any, error: object) -> None:
        if error and self.parts is not None:
            from ruleproof.cli.claims import mark_down

            mark_down(self.parts / SHARDS_FOLDER, node.gateway.id, error)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.parts is not None:
            _join_parts(self.parts)


def settings(config: pytest.Config, file: dict[str, Any] | None = None, where: Path | None = None) -> dict[str, Any]:
    """Each option's raw value: the flag, else the ini setting, else ``ruleproof.toml``'s key (read from
    ``where``). A path from either file is relative to that file's folder: the same settings work from
    any working folder."""
    values: dict[str, Any] = {}
    for flag in FLAGS:
        if flag.cli_only:
            continue
        given, base = config.getoption(f"ruleproof_{flag.key}"), None
        if given in (None, False, []):
            ini = config.getini(f"ruleproof_{flag.key}")
            if ini not in (None, [], ""):
                given, base = ini, config.inipath.parent if config.inipath else None
            else:
                given = (file or {}).get(flag.key, (file or {}).get(flag.name))
                base = where.parent if where is not None and given is not None else None
        values[flag.key] = _relative(_text(given), base) if flag.key in PATH_KEYS else _text(given)
    return values


def _relative(value: Any, base: Path | None) -> Any:
    """A path setting read from a file, resolved against that file's folder (absolute ones stay)."""
    if base is None or value is None or value == "":
        return value
    if isinstance(value, list):
        return [_relative(v, base) for v in value]
    return str(base / str(value))


def _text(value: Any) -> Any:
    """A TOML number is the string a command line would give (one parser checks both)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list):
        return [_text(v) for v in value]
    return value


def _active(config: pytest.Config) -> bool:
    # "" counts as given: an empty engine is refused with a message, not silently ignored. An engine
    # named in the ini file asks for a certification as the flag does
    engines = ("ruleproof_engine", "ruleproof_engine_cmd")
    return (
        bool(config.getoption("ruleproof"))
        or bool(config.getini("ruleproof"))
        or any(config.getoption(o) is not None for o in engines)
        or any(config.getini(o) is not None for o in engines)
    )


def _options(raw: dict[str, Any]) -> Options:
    try:
        return Options.build(raw, PREFIX)
    except UserError as err:
        raise pytest.UsageError(f"ruleproof: {err}") from None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    config = parent.config
    if file_path.name == SETTINGS_FILE:
        return RuleproofFile.from_parent(parent, path=file_path)
    if _active(config) and config.inipath is not None and file_path == config.inipath:
        return RuleproofFile.from_parent(parent, path=file_path)  # asked for by its node id
    return None


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """With --ruleproof (and no ruleproof.toml collected), the items hang from the ini file.  Under
    pytest-xdist the shard items go first, every game's: the workers explore the shards side by side
    before any of them waits for a game to be merged."""
    if _active(config) and not any(isinstance(i, ClauseItem) for i in items):
        anchor = config.inipath or Path(config.rootpath) / "pyproject.toml"
        node = RuleproofFile.from_parent(session, path=anchor)
        for collector in node.collect():
            assert isinstance(collector, GameNode)
            items.extend(collector.collect())
    if any(isinstance(i, ShardItem) for i in items):
        items.sort(key=lambda i: not isinstance(i, ShardItem))  # stable: the rest keep their order


class RuleproofFile(pytest.File):
    """The file a certification's settings come from: one collector per game."""

    def collect(self) -> Iterator[pytest.Collector]:
        file: dict[str, Any] = {}
        if self.path.name == SETTINGS_FILE:
            try:
                file = tomllib.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, tomllib.TOMLDecodeError) as err:
                raise pytest.UsageError(f"ruleproof: {self.path}: not a TOML file ({err})") from None
        raw = settings(self.config, file, self.path if self.path.name == SETTINGS_FILE else None)
        run = Certification.for_config(self.config, _options(raw), raw)
        for game in run.games():
            yield GameNode.from_parent(self, name=game, game=game, run=run)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        """A bad setting is one line naming it, not a traceback through the plugin (a collector's
        own ``repr_failure`` takes no style)."""
        if isinstance(excinfo.value, pytest.UsageError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class GameNode(pytest.Collector):
    """One game: its ``certify`` item, then an item per clause of its table; under pytest-xdist, first
    an item per shard of its exploration (``shard[K/N]``), which the workers share out."""

    def __init__(self, *, game: str, run: Certification, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game, self.run = game, run

    def collect(self) -> Iterator[pytest.Item]:
        if self.run.shared is not None:
            count = self.run.shard_count(self.game)
            for k in range(1, count + 1):
                yield ShardItem.from_parent(self, name=f"shard[{k}/{count}]", game=self.game, shard=k, run=self.run)
        expected = self.run.expected(self.game)
        yield CertifyItem.from_parent(self, name="certify", game=self.game, clause="certify", run=self.run)
        for clause in self.run.clauses(self.game):
            item = ClauseItem.from_parent(self, name=clause, game=self.game, clause=clause, run=self.run)
            if clause in expected:
                item.add_marker(pytest.mark.xfail(reason=expected[clause], strict=True, raises=ClauseFailed))
            yield item


class ClauseFailed(Exception):
    """A clause item's failure: ``headline`` its first line, the whole text after it."""

    def __init__(self, text: str, headline: str = "") -> None:
        super().__init__(text)
        self.headline = headline or text.split("\n", 1)[0]
        self.text = text

    def __str__(self) -> str:
        return f"{self.headline}\n{self.text}" if self.headline != self.text.split("\n", 1)[0] else self.text


@frozen
class _Crash:
    """pytest's ``reprcrash``, duck-typed: where, and the one line JUnit's ``message`` and the short
    summary show."""

    path: str
    lineno: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.lineno}: {self.message}"


class ClauseReport:
    """A failure as pytest shows it: ``reprcrash.message`` is the headline, ``toterminal`` the report.
    Under xdist a report travels as ``str(self)``, whose first line is the headline too."""

    def __init__(self, failed: ClauseFailed, path: Path, lineno: int | None) -> None:
        self.reprcrash = _Crash(str(path), lineno or 0, failed.headline)
        self.text = str(failed)

    def toterminal(self, tw: Any) -> None:
        for line in self.text.splitlines():
            tw.line(line)

    def __str__(self) -> str:
        return self.text


def headline(failure: Any, causes: int) -> str:
    """The violation in one line: the clause, what was found, expected against got (cut, with "…")."""
    from ruleproof.output.table import compact

    finding = failure.finding
    line = f"{finding.clause}: {finding.message}"
    if finding.expected is not None or finding.got is not None:
        line += f" (expected {compact(finding.expected)}, got {compact(finding.got)})"
    if len(line) > HEADLINE_CHARS:
        line = line[: HEADLINE_CHARS - 1] + "…"
    return line + (f" [+{causes - 1} more cause{'s' if causes > 2 else ''}]" if causes > 1 else "")


class ClauseItem(pytest.Item):
    """One clause of one game: pass, fail (with the counterexample), or skip."""

    def __init__(self, *, game: str, clause: str, run: Certification, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game, self.clause, self.run = game, clause, run
        self.add_marker(pytest.mark.ruleproof)
        if self.config.pluginmanager.hasplugin("xdist"):
            # under --dist loadgroup, a game's certify and clause items wait on one worker (not its shards)
            self.add_marker(pytest.mark.xdist_group(f"ruleproof-{game}"))

    def runtest(self) -> None:
        report = self.run.report(self.game)
        if report.broken is not None:
            pytest.skip(f"not judged: the engine could not be driven ({report.broken.kind}): see {self.game}::certify")
        status = report.clauses.get(self.clause, "untested")
        # xfail/xpass: the item carries a strict xfail marker (added at collection), so pytest itself
        # shows a listed failure as XFAIL and fails a listed clause that passed (XPASS(strict))
        if status == "xfail" and self.clause not in self.run.expected(self.game):
            # expected with a declared clause (broken with it, or only after it): known once the game is
            # judged, so xfail here rather than by a marker at collection
            pytest.xfail(report.expected.get(self.clause, "expected with a declared deviation"))
        if status in ("fail", "xfail"):
            regressed = report.baseline is not None and self.clause in report.baseline.regressions
            after = report.follows(self.clause)
            causes = report.failures_of(self.clause)
            raise ClauseFailed(
                ("regressed: it passed in the baseline\n" if regressed else "")
                + (f"fail, after {', '.join(after)} (a consequence of them)\n" if after else "")
                + "\n\n".join(self.run.describe(self.game, f) for f in causes),
                headline(causes[0], len(causes)) if causes else "",
            )
        if status == "partial":  # it held wherever judged; say which of its situations no run reached
            message = f"{self.game}::{self.clause} partial: never reached {', '.join(report.missing(self.clause))}"
            try:
                warnings.warn(RuleproofPartialWarning(message), stacklevel=1)
            except RuleproofPartialWarning:  # an error filter (-W error): fail in a line, not a traceback
                raise ClauseFailed(
                    f"{message} (a warning made an error by a filter; "
                    "ignore::ruleproof.RuleproofPartialWarning lets it pass)"
                ) from None
            return
        if status not in ("pass", "xpass"):
            listed = f" (listed: {report.expected[self.clause]})" if self.clause in report.expected else ""
            pytest.skip(f"{self.clause} {status}{listed}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ClauseFailed):
            path, lineno, _ = self.reportinfo()
            return ClauseReport(excinfo.value, Path(path), lineno)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        """The clause's line in its rules document (docs/rules/GAME.md), where a reader looks it up."""
        from ruleproof.model.clauses import clause_line

        where = clause_line(self.clause)
        if where is None:
            return self.path, None, f"{self.game}::{self.clause}"
        return where[0], where[1], f"{self.game}::{self.clause}"


class CertifyItem(ClauseItem):
    """``GAME::certify``: runs the game's certification, and fails for what no clause item can show."""

    def runtest(self) -> None:
        report = self.run.report(self.game)
        if report.broken is not None:
            stopped = f" during {report.stopped.stage}" if report.stopped else ""
            broken = report.broken
            raise ClauseFailed(f"adapter broken ({broken.kind}){stopped}: {broken.message}\n{broken.stderr[-2000:]}")
        if report.interrupted:
            raise ClauseFailed(f"{self.game}: interrupted ({report.stopped.reason if report.stopped else ''})")
        listed = set(self.run.clauses(self.game))
        outside = [f for f in report.failures if f.finding.clause not in listed]
        if outside:
            clauses = ", ".join(dict.fromkeys(f.finding.clause for f in outside))
            details = "\n\n".join(self.run.describe(self.game, f) for f in outside)
            raise ClauseFailed(
                f"{self.game}: violations filed under clauses outside the table ({clauses})\n\n{details}"
            )
        if report.verdict == "untested":
            raise ClauseFailed(f"{self.game}: nothing was judged (every clause untested or skipped): not a pass")

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"{self.game}::certify"


class ShardItem(pytest.Item):
    """``GAME::shard[K/N]`` under pytest-xdist: explores shard K of the game's N (part K of N, as
    ``ruleproof certify --shard K/N`` does), unless a worker already has; the worker that explores
    the last one merges them (``ruleproof merge``), and every worker's clause items read that."""

    def __init__(self, *, game: str, shard: int, run: Certification, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game, self.shard, self.run = game, shard, run
        self.add_marker(pytest.mark.ruleproof)

    def runtest(self) -> None:
        # which worker explored it (JUnit's <property>): the shards are spread by the workers' claims
        self.user_properties.append(("explored_on", self.run.explore_shared(self.game, self.shard)))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ClauseFailed):
            return ClauseReport(excinfo.value, self.path, None)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"{self.game}::{self.name}"


class Certification:
    """One engine, certified lazily game by game, shared by the items (one per pytest session)."""

    def __init__(self, config: pytest.Config, options: Options, raw: dict[str, Any]) -> None:
        from ruleproof.run.certification import StopRequest
        from ruleproof.run.profile_table import run_seed
        from ruleproof.transport.checked import CheckedEngine

        self.config, self.options, self.raw = config, options, raw
        worker = getattr(config, "workerinput", None)
        self.shared = _shared(worker)
        self.seed = run_seed(options.profile, options.seed)  # drawn once for the session when randomized
        if worker is not None and self.shared is not None and self.seed is not None and options.seed is None:
            self.seed = int(worker["ruleproof_seed"])  # drawn once by the xdist controller, for every worker
        self.stop = StopRequest()
        limit = options.max_time or 0.0
        self.timer = threading.Timer(limit, self.stop.stop, args=(f"{PREFIX}max-time {limit:g}s",))
        self.timer.daemon = True
        if options.max_time:
            self.timer.start()
        try:
            self.checked = CheckedEngine(options.open_engine(self.stop))
            self.hello = self.checked.hello()
        except UserError as err:
            raise pytest.UsageError(f"ruleproof: {err}") from None
        except AdapterBroken as broken:  # the engine cannot start, or hello is broken: say so plainly
            raise pytest.UsageError(
                f"ruleproof: adapter broken ({broken.kind}): {broken.message}\n{broken.stderr[-2000:]}"
            ) from None
        self.reports: dict[str, Any] = {}  # the games certified (or merged) here
        self.read: dict[str, Any] = {}  # under xdist: the games another worker merged
        self.traces: dict[str, str] = {}
        self.saved: list[tuple[str, str]] = []

    @classmethod
    def for_config(cls, config: pytest.Config, options: Options, raw: dict[str, Any]) -> Certification:
        run = config.stash.get(_RUN, None)
        if run is None:
            run = config.stash[_RUN] = cls(config, options, raw)
            if options.inputs is not None and options.inputs.baseline is not None:
                from ruleproof.run.expect import baseline_warnings

                for warning in baseline_warnings(run.games(), options.inputs.baseline, run.hello["engine"]):
                    try:
                        warnings.warn(RuleproofWarning(warning), stacklevel=1)
                    except RuleproofWarning:  # an error filter: one line, as a bad setting is
                        raise pytest.UsageError(f"ruleproof: {warning}") from None
        return run

    def games(self) -> list[str]:
        from ruleproof.run.certification import games_to_certify

        try:
            return games_to_certify(self.options.games, self.hello)
        except UserError as err:
            raise pytest.UsageError(f"ruleproof: {str(err).replace('--game', f'{PREFIX}game')}") from None

    def clauses(self, game: str) -> list[str]:
        from ruleproof.properties import properties_for

        return list(properties_for(game).all_clauses())

    def shard_count(self, game: str) -> int:
        """The shards of ``game``'s exploration: the profile's, planned as every run plans them."""
        from ruleproof.run.profile_table import PROFILES
        from ruleproof.run.shards import plan

        profile = PROFILES[self.options.profile]
        return len(plan(profile.shards, profile.max_examples, self.seed))

    def request(self, game: str) -> Any:
        """The certification of ``game`` as ``ruleproof certify`` would ask for it, from this seed."""
        from attrs import evolve

        from ruleproof.cli.commands import request

        return evolve(request(self.options), games=(game,), seed=self.seed)

    def explore_shared(self, game: str, shard: int) -> str:
        """``GAME::shard[K/N]``: explore shard K unless another worker has claimed it (then wait for it),
        and merge the game's shards when they are all done and no worker has claimed that yet; the
        worker that explored it."""
        assert self.shared is not None
        if self.shared.claim(game, shard):
            self._explore_part(game, shard)
            self._merge_when_done(game)
        else:
            self._wait(game, lambda: self.shared is not None and self.shared.done(game, shard))
        return self.shared.owner(game, shard)

    def _wait(self, game: str, ready: Callable[[], bool]) -> None:
        """Until ``ready``: explore the shards nobody has claimed yet (of this game first, then of the
        others), merge what is done, and fail when a worker went down with what ``game`` needs."""
        assert self.shared is not None
        count = self.shard_count(game)
        while not ready():
            if self._help(game):
                continue
            self._merge_when_done(game)
            why = self.shared.problem(game, count)
            if why is not None:
                raise ClauseFailed(f"not judged: {why}")
            time.sleep(WAIT)

    def _help(self, game: str) -> bool:
        """Explore a shard nobody has claimed (its item still queued, or deselected), of ``game`` first."""
        assert self.shared is not None
        for other in dict.fromkeys([game, *self.games()]):
            shard = self.shared.claim_next(other, self.shard_count(other))
            if shard is not None:
                self._explore_part(other, shard)
                self._merge_when_done(other)
                return True
        return False

    def _explore_part(self, game: str, shard: int) -> None:
        """Part ``shard`` of ``shard_count`` (head and shard K-1), as ``ruleproof certify --shard K/N``."""
        from ruleproof.run.certification import certify_part

        assert self.shared is not None
        count = self.shard_count(game)
        try:
            part = certify_part(self.checked, self.request(game), (shard, count), stop=self.stop)
            self.shared.put(game, shard, part.to_json())
        except BaseException as exc:  # whoever waits for this shard fails with why, not forever
            why = f"{game}::shard[{shard}/{count}] failed on worker {self.shared.worker}: {type(exc).__name__}: {exc}"
            self.shared.failed(game, shard, why)
            raise

    def _merge_when_done(self, game: str) -> None:
        """Merge the game's parts (``ruleproof merge``) here, once all are done, if no worker does."""
        from ruleproof.output.files import write_traces
        from ruleproof.run.certification import merge
        from ruleproof.run.partial import Partial, one_run

        assert self.shared is not None
        count = self.shard_count(game)
        parts = self.shared.parts(game, count)
        if parts is None or not self.shared.claim_merge(game):
            return
        try:
            named = [(f"{game}::shard[{k}/{count}]", p) for k, p in enumerate(parts, 1)]
            loaded = one_run([(name, Partial.from_json(p, name)) for name, p in named])
            traces = self.options.traces
            cert = merge(loaded, self.checked, self.request(game), stop=self.stop,
                         save_traces=lambda report, engine: write_traces([report], traces, engine))  # fmt: skip
            self._keep(game, cert, own=True)
            self.shared.put_merged(game, cert.to_json())
        except BaseException as exc:
            self.shared.failed(game, "merge", f"merging {game}'s shards failed on worker {self.shared.worker}: {exc}")
            raise

    def _keep(self, game: str, cert: Any, *, own: bool) -> None:
        """A game's merged certificate: its report (in this worker's part of the certificate if merged
        here) and its trace files (named in the replay commands)."""
        from ruleproof.model.report import GameReport

        report = cert.reports[0] if cert.reports else GameReport(game, broken=cert.broken)
        (self.reports if own else self.read)[game] = report
        for key, path in cert.trace_files:
            if own:
                self.saved.append((key, path))
            self.traces.setdefault(key, path)

    def _shared_report(self, game: str) -> Any:
        """The game's report under pytest-xdist: its shards, explored by whichever workers claimed them
        (here those nobody has), merged once; waited for, failing when a worker went down with one."""
        from ruleproof.model.certificate import Certificate

        def ready() -> bool:
            if game in self.reports or game in self.read:
                return True
            merged = self.shared.merged(game) if self.shared is not None else None
            if merged is not None:
                self._keep(game, Certificate.from_json(merged), own=False)
            return merged is not None

        self._wait(game, ready)
        return self.reports.get(game) or self.read[game]

    def report(self, game: str) -> Any:
        if self.shared is not None:
            return self._shared_report(game)
        if game not in self.reports:
            from ruleproof.cli.commands import shard_pool
            from ruleproof.output.files import write_traces
            from ruleproof.run.expect import judge_game
            from ruleproof.run.runner import PROFILES, certify_game

            inputs = self.options.inputs
            with shard_pool(self.options, self.stop) as explorer:  # --ruleproof-workers N: N local processes
                report = certify_game(
                    self.checked,
                    game,
                    PROFILES[self.options.profile],
                    seed=self.seed,
                    fixtures=self.options.fixtures,
                    properties=self.options.properties,
                    stop=self.stop,
                    user_fixtures=inputs.fixtures if inputs else (),
                    explorer=explorer,
                )
            if inputs is not None:
                report = judge_game(report, inputs)
            self.reports[game] = report
            for key, path in write_traces([report], self.options.traces, self.hello["engine"]):
                self.saved.append((key, path))
                self.traces.setdefault(key, path)
        return self.reports[game]

    def expected(self, game: str) -> dict[str, str]:
        """Clause -> reason, from --ruleproof-expect."""
        inputs = self.options.inputs
        return inputs.expectations.reasons(game) if inputs and inputs.expectations else {}

    def replay_command(self, game: str, clause: str) -> str:
        path = self.traces.get(f"{game}:{clause}", "TRACE")
        return shlex.join(["ruleproof", "replay", path, *self.options.engine_args])

    def describe(self, game: str, failure: Any) -> str:
        """A failure as the terminal report draws it (the rule and where it is written, expected against
        got, the last steps, the table at the violating step, the replay command), in plain text."""
        import io

        from rich.console import Console

        from ruleproof.model.clauses import clause_line
        from ruleproof.output.render import render_failure

        clause = failure.finding.clause
        report = self.report(game)
        entry = {"status": report.clauses.get(clause, "fail"), "expected": report.expected.get(clause, "")}
        data = {**failure.to_json(), "replay": self.replay_command(game, clause)}
        out = io.StringIO()
        Console(file=out, width=200, no_color=True, soft_wrap=True).print(render_failure(game, data, entry))
        where = clause_line(clause)
        return (f"{_shown(where[0])}:{where[1]}: {clause}\n" if where else "") + out.getvalue().rstrip()

    def finish(self, part: str | None = None) -> None:
        """The files asked for (--ruleproof-json, -junit, -html, -summary), from the games certified here;
        under pytest-xdist a worker writes its ``part`` of the certificate for the controller to join."""
        from ruleproof.model.certificate import Certificate

        self.timer.cancel()
        self.checked.close()
        if not self.reports or not file_handlers(self.options):
            return
        opts = self.options
        cert = Certificate(
            self.hello["engine"],
            opts.profile,
            self.seed,
            tuple(self.reports.values()),
            opts.engine_args,
            tuple(self.saved),
            expect_file=opts.expect,
            baseline_file=opts.baseline,
            interrupted=self.stop.reason or None,
            created=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        )
        if part is not None:  # the controller writes the files, from every worker's part
            from ruleproof.output.files import write_atomic

            write_atomic(Path(part), json.dumps({"settings": self.raw, "certificate": cert.to_json()}))
        else:
            write_files(opts, cert)


def _shared(worker: dict[str, Any] | None) -> SharedShards | None:
    """Under pytest-xdist, the games' shards as this worker shares them (None without xdist)."""
    if worker is None or "ruleproof_shards" not in worker:
        return None
    from ruleproof.cli.claims import SharedShards

    folder = Path(worker["ruleproof_shards"])
    try:
        seen = (folder / "session").read_text(encoding="utf-8")
    except OSError:
        seen = ""
    if seen != str(worker["ruleproof_seed"]):  # the workers of one session share the games' shards there
        raise pytest.UsageError(
            f"ruleproof: xdist worker {worker['workerid']} does not see the controller's folder {folder} "
            "(a worker on another machine): set TMPDIR, where pytest starts, to a folder every machine shares"
        )
    return SharedShards(folder, str(worker["workerid"]))


def _shown(path: Path) -> str:
    """A path as a reader finds it: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def file_handlers(options: Options) -> list[Any]:
    from ruleproof.cli.commands import file_handlers as handlers

    return handlers(options)


def write_files(options: Options, cert: Any) -> None:
    from ruleproof.run.events import RunFinished

    for handler in file_handlers(options):
        handler.handle(RunFinished(cert))


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    worker = getattr(config, "workerinput", None)
    run = config.stash.get(_RUN, None)
    if run is not None:
        part = Path(worker["ruleproof_parts"]) / f"{worker['workerid']}.json" if worker else None
        run.finish(part=str(part) if part else None)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """The run's verdict in the line the CLI ends with: the same deviations, counted and ordered from the
    one report model (``ruleproof.output.terminal.summary_line``)."""
    run = config.stash.get(_RUN, None)
    if run is None or not run.reports:
        return
    from ruleproof.model.certificate import Certificate
    from ruleproof.output.terminal import summary_line

    reports = tuple(run.reports[g] for g in run.games() if g in run.reports)
    verdict = Certificate(run.hello["engine"], run.options.profile, run.seed, reports).verdict
    terminalreporter.write_line(f"ruleproof: {verdict.upper()}: {summary_line(reports)}")


def _join_parts(folder: Path) -> None:
    """The workers' parts joined into one certificate, written where their settings say."""
    import shutil

    from ruleproof.model.certificate import Certificate

    try:
        parts = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]
        if parts:
            from attrs import evolve

            certs = [Certificate.from_json(p["certificate"]) for p in parts]
            # a game merged by a worker that went down later is in no part: its merged certificate stays
            joined = {r.game for c in certs for r in c.reports}
            for merged in sorted((folder / SHARDS_FOLDER).glob("*/merged.json")):
                if merged.parent.name not in joined:
                    certs.append(Certificate.from_json(json.loads(merged.read_text(encoding="utf-8"))))
            options = Options.build(parts[0]["settings"], PREFIX)
            # the engine's arguments are no field of the JSON (each replay command holds them): the
            # settings give them back, so the joined replay commands name the engine as a worker's do
            write_files(options, evolve(Certificate.joined(certs), engine_args=options.engine_args))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


_RUN = pytest.StashKey[Certification]()

__all__ = ["CertifyItem", "ClauseItem", "RuleproofFile"]
