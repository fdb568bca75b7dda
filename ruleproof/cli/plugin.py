"""The pytest plugin: ``pytest --ruleproof`` certifies an engine, one test item per clause.

Registered through the ``pytest11`` entry point in every pytest session where
ruleproof is installed, so it stays light and silent unless asked: its flags
are all prefixed (``--ruleproof``, ``--ruleproof-engine``,
``--ruleproof-engine-cmd``, ``--ruleproof-timeout``, ...), and like
Hypothesis's own plugin it imports nothing heavy (no Hypothesis, no runner,
no properties) until a certification is asked for.

The flags are checked by the same ``Options.build`` as ``ruleproof certify``,
so both accept the same values and give the same verdicts.  Each game is
certified once (by the first of its items to run); a clause item fails with
the counterexample and the replay command, and is skipped when the clause was
skipped or never reached ("untested" is never reported as passed).  One more
item per game, ``GAME::verdict``, fails for what no clause item shows: a
failure filed under a clause ID outside the game's table (an engine's own
IllegalMove clause, say) and a game in which nothing was judged.
"""

from __future__ import annotations

import json
import shlex
import warnings
from typing import Any

import pytest

from ruleproof import GAMES
from ruleproof.cli.options import PROFILE_NAMES, Options, UsageError

PREFIX = "--ruleproof-"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ruleproof", "rules conformance of game engines")
    group.addoption(
        "--ruleproof", action="store_true", help="certify the reference engines, or the --ruleproof-engine(-cmd) given"
    )
    group.addoption("--ruleproof-engine", metavar="MODULE:FACTORY", help="certify this Python engine factory")
    group.addoption(
        "--ruleproof-engine-cmd", metavar="CMD", help="certify an engine in any language speaking the contract on stdio"
    )
    group.addoption(
        "--ruleproof-timeout",
        metavar="SECONDS",
        help="limit for one engine call, in process or over the pipe (default 10)",
    )
    group.addoption("--ruleproof-game", action="append", choices=GAMES, help="only this game (repeatable)")
    group.addoption("--ruleproof-profile", choices=PROFILE_NAMES, help="dev, ci (default) or thorough")
    group.addoption("--ruleproof-seed", metavar="N", help="explore from this seed instead of the profile's default")
    group.addoption("--ruleproof-traces", metavar="DIR", help="folder for failure traces (default ruleproof-traces)")
    group.addoption("--ruleproof-no-fixtures", action="store_true", help="skip the fixtures")
    group.addoption("--ruleproof-no-properties", action="store_true", help="skip the state machine")
    group.addoption(
        "--ruleproof-expect",
        metavar="FILE",
        help="TOML of declared deviations: listed clauses are strict xfail (a pass fails the item)",
    )
    group.addoption(
        "--ruleproof-baseline",
        metavar="CERT.json",
        help="an earlier certificate: a clause that passed there and fails now says so",
    )
    group.addoption(
        "--ruleproof-fixtures",
        action="append",
        metavar="DIR",
        help="also run your own fixture files from DIR (repeatable)",
    )


def _active(config: pytest.Config) -> bool:
    # "" counts as given: an empty engine is refused with a message, not silently ignored
    return bool(config.getoption("ruleproof")) or any(
        config.getoption(o) is not None for o in ("ruleproof_engine", "ruleproof_engine_cmd")
    )


def options_from(config: pytest.Config) -> Options:
    """The one options object, from the plugin's flags (``ruleproof certify`` builds the same)."""
    get = config.getoption
    return Options.build(
        engine=get("ruleproof_engine"),
        engine_cmd=get("ruleproof_engine_cmd"),
        timeout=get("ruleproof_timeout"),
        games=get("ruleproof_game"),
        profile=get("ruleproof_profile"),
        seed=get("ruleproof_seed"),
        traces=get("ruleproof_traces"),
        fixtures=not get("ruleproof_no_fixtures"),
        properties=not get("ruleproof_no_properties"),
        prefix=PREFIX,
        expect=get("ruleproof_expect"),
        baseline=get("ruleproof_baseline"),
        fixture_dirs=get("ruleproof_fixtures"),
    )


def pytest_configure(config: pytest.Config) -> None:
    if _active(config):
        try:
            config.stash[_OPTIONS] = options_from(config)
        except UsageError as err:
            raise pytest.UsageError(f"ruleproof: {err}") from None


class Certification:
    """One engine, certified lazily game by game, shared by the clause items."""

    def __init__(self, options: Options) -> None:
        from ruleproof.transport.checked import CheckedEngine

        self.options = options
        self.checked = CheckedEngine(options.open_engine())
        self.reports: dict[str, Any] = {}
        self.traces: dict[str, str] = {}

    def games(self) -> list[str]:
        from ruleproof.properties import available_games

        declared = list(self.checked.hello()["games"])
        if not declared:
            raise UsageError("the engine declares no game (hello.games is empty): nothing to certify")
        missing = [g for g in self.options.games if g not in declared]
        if missing:
            raise UsageError(
                f"{PREFIX}game: the engine does not declare {', '.join(missing)} (it declares {', '.join(declared)})"
            )
        return list(self.options.games) or [g for g in declared if g in available_games()]

    def clauses(self, game: str) -> list[str]:
        from ruleproof.properties import properties_for

        return list(properties_for(game).all_clauses())

    def report(self, game: str) -> Any:
        if game not in self.reports:
            from ruleproof.output.files import write_traces
            from ruleproof.run.runner import PROFILES, certify_game

            inputs = self.options.inputs
            report = certify_game(
                self.checked,
                game,
                PROFILES[self.options.profile],
                seed=self.options.seed,
                fixtures=self.options.fixtures,
                properties=self.options.properties,
                user_fixtures=inputs.fixtures if inputs else (),
            )
            self.reports[game] = report
            engine = self.checked.hello()["engine"]
            if inputs is not None:
                from ruleproof.run.expect import judge_game

                judge_game(report, inputs)
            for key, path in write_traces([report], self.options.traces, engine):
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
        f = failure
        return "\n".join(
            [
                f"{f.finding.clause}: {f.finding.message}",
                f"expected: {json.dumps(f.finding.expected, default=str)}",
                f"got:      {json.dumps(f.finding.got, default=str)}",
                f"shrunk trace ({len(f.trace.events)} steps): {json.dumps(f.trace.moves())[:2000]}",
                f"replay: {self.replay_command(game, f.finding.clause)}",
            ]
        )


class ClauseFailed(Exception):
    pass


class ClauseItem(pytest.Item):
    """One clause of one game: pass, fail (with the counterexample), or skip."""

    def __init__(self, *, game: str, clause: str, certification: Certification, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game, self.clause, self.certification = game, clause, certification

    def runtest(self) -> None:
        report = self.certification.report(self.game)
        if report.broken is not None:
            raise ClauseFailed(f"adapter broken ({report.broken.kind}): {report.broken.message}")
        status = report.clauses.get(self.clause, "untested")
        # xfail/xpass: the item carries a strict xfail marker (added at collection), so pytest itself
        # shows a listed failure as XFAIL and fails a listed clause that passed (XPASS(strict))
        if status in ("fail", "xfail"):
            failure = next(f for f in report.failures if f.finding.clause == self.clause)
            regressed = report.baseline is not None and self.clause in report.baseline.regressions
            raise ClauseFailed(
                ("regressed: it passed in the baseline\n" if regressed else "")
                + self.certification.describe(self.game, failure)
            )
        if status == "partial":  # it held wherever judged; say which of its situations no run reached
            warnings.warn(
                f"{self.game}::{self.clause} partial: never reached {', '.join(report.missing(self.clause))}",
                stacklevel=1,
            )
            return
        if status not in ("pass", "xpass"):
            listed = f" (listed: {report.expected[self.clause]})" if self.clause in report.expected else ""
            pytest.skip(f"{self.clause} {status}{listed}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ClauseFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int, str]:
        return f"ruleproof::{self.game}", 0, f"{self.game}::{self.clause}"


class GameVerdictItem(ClauseItem):
    """``GAME::verdict``: failures under clause IDs outside the table, and a game that judged nothing."""

    def runtest(self) -> None:
        from ruleproof.model.certificate import game_verdict

        report = self.certification.report(self.game)
        if report.broken is not None:
            raise ClauseFailed(f"adapter broken ({report.broken.kind}): {report.broken.message}")
        listed = set(self.certification.clauses(self.game))
        outside = [f for f in report.failures if f.finding.clause not in listed]
        if outside:
            clauses = ", ".join(dict.fromkeys(f.finding.clause for f in outside))
            details = "\n\n".join(self.certification.describe(self.game, f) for f in outside)
            raise ClauseFailed(
                f"{self.game}: violations filed under clauses outside the table ({clauses})\n\n{details}"
            )
        if game_verdict(report) == "untested":
            raise ClauseFailed(f"{self.game}: nothing was judged (every clause untested or skipped): not a pass")


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    options = config.stash.get(_OPTIONS, None)
    if options is None:
        return
    from ruleproof.model.engine import AdapterBroken

    try:
        cert = Certification(options)
        config.stash[_CERT] = cert
        games = cert.games()
        if options.inputs is not None and options.inputs.baseline is not None:
            from ruleproof.run.expect import baseline_warnings

            for warning in baseline_warnings(games, options.inputs.baseline, cert.checked.hello()["engine"]):
                warnings.warn(warning, stacklevel=1)
    except AdapterBroken as broken:  # the engine cannot start, or hello is broken: say so plainly
        raise pytest.UsageError(
            f"ruleproof: adapter broken ({broken.kind}): {broken.message}\n{broken.stderr[-2000:]}"
        ) from None
    except UsageError as err:
        raise pytest.UsageError(f"ruleproof: {err}") from None
    for game in games:
        clause_items = [
            ClauseItem.from_parent(session, name=f"{game}::{clause}", game=game, clause=clause, certification=cert)
            for clause in cert.clauses(game)
        ]
        expected = cert.expected(game)
        for item in clause_items:
            if item.clause in expected:
                item.add_marker(pytest.mark.xfail(reason=expected[item.clause], strict=True, raises=ClauseFailed))
        verdict = GameVerdictItem.from_parent(
            session, name=f"{game}::verdict", game=game, clause="verdict", certification=cert
        )
        for item in [*clause_items, verdict]:
            # under pytest-xdist --dist loadgroup, one worker certifies a game once for all its items
            item.add_marker(pytest.mark.xdist_group(f"ruleproof-{game}"))
            items.append(item)


def pytest_unconfigure(config: pytest.Config) -> None:
    cert = config.stash.get(_CERT, None)
    if cert is not None:
        cert.checked.close()


_OPTIONS = pytest.StashKey[Options]()
_CERT = pytest.StashKey[Certification]()

__all__ = ["ClauseItem", "GameVerdictItem", "options_from"]
