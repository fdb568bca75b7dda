"""The pytest plugin: ``pytest --engine MODULE:FACTORY`` certifies an engine.

Registered through the ``pytest11`` entry point, it stays silent unless asked:
with ``--ruleproof`` (the reference engines), ``--engine`` or ``--engine-cmd``
it adds one test item per game and clause.  Each game is certified once (the
first of its items runs it); a clause item fails with the shrunk
counterexample and the replay command, and is skipped when the clause was
skipped or never reached ("untested" is never reported as passed).
"""

from __future__ import annotations

import json
import shlex
from argparse import Namespace
from pathlib import Path
from typing import Any

import pytest

from ruleproof import GAMES
from ruleproof.certificate import Certificate, write_traces
from ruleproof.checked import CheckedEngine
from ruleproof.runner import PROFILES, GameReport, certify_game


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ruleproof", "rules conformance of game engines")
    group.addoption("--ruleproof", action="store_true", help="certify the reference engines (or the --engine given)")
    group.addoption("--engine", metavar="MODULE:FACTORY", help="certify this Python engine factory")
    group.addoption("--engine-cmd", metavar="CMD", help="certify an engine in any language speaking the contract on stdio")
    group.addoption("--engine-timeout", type=float, default=10.0, help="per-call timeout for --engine-cmd")
    group.addoption("--ruleproof-game", action="append", choices=GAMES, help="only this game (repeatable)")
    group.addoption("--ruleproof-profile", choices=sorted(PROFILES), default="ci", help="dev, ci (default) or thorough")
    group.addoption("--ruleproof-seed", type=int, help="seed instead of the derandomized default")
    group.addoption("--ruleproof-traces", default="ruleproof-traces", help="folder for failure traces")


def _active(config: pytest.Config) -> bool:
    return bool(config.getoption("ruleproof") or config.getoption("engine") or config.getoption("engine_cmd"))


class Certification:
    """One engine, certified lazily game by game, shared by the clause items."""

    def __init__(self, config: pytest.Config) -> None:
        from ruleproof.cli import make_engine

        args = Namespace(engine=config.getoption("engine"), engine_cmd=config.getoption("engine_cmd"), timeout=config.getoption("engine_timeout"))
        engine, self.engine_args = make_engine(args)
        self.checked = CheckedEngine(engine)
        self.config = config
        self.reports: dict[str, GameReport] = {}
        self.traces: dict[str, str] = {}

    def games(self) -> list[str]:
        from ruleproof.properties import available_games

        wanted = self.config.getoption("ruleproof_game") or GAMES
        declared = self.checked.hello()["games"]
        return [g for g in wanted if g in declared and g in available_games()]

    def clauses(self, game: str) -> list[str]:
        from ruleproof.properties import properties_for

        return properties_for(game).all_clauses()

    def report(self, game: str) -> GameReport:
        if game not in self.reports:
            profile = PROFILES[self.config.getoption("ruleproof_profile")]
            report = certify_game(self.checked, game, profile, seed=self.config.getoption("ruleproof_seed"))
            self.reports[game] = report
            engine = self.checked.hello()["engine"]
            for key, path in write_traces([report], Path(self.config.getoption("ruleproof_traces")), engine):
                self.traces.setdefault(key, path)
        return self.reports[game]

    def replay_command(self, game: str, clause: str) -> str:
        path = self.traces.get(f"{game}:{clause}", "TRACE")
        return shlex.join(["ruleproof", "replay", path, *self.engine_args])


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
        if status == "fail":
            f = next(f for f in report.failures if f.finding.clause == self.clause)
            raise ClauseFailed(
                "\n".join(
                    [
                        f"{self.clause}: {f.finding.message}",
                        f"expected: {json.dumps(f.finding.expected, default=str)}",
                        f"got:      {json.dumps(f.finding.got, default=str)}",
                        f"shrunk trace ({len(f.trace.events)} steps): {json.dumps(f.trace.moves())[:2000]}",
                        f"replay: {self.certification.replay_command(self.game, self.clause)}",
                    ]
                )
            )
        if status != "pass":
            pytest.skip(f"{self.clause} {status}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ClauseFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int, str]:
        return f"ruleproof::{self.game}", 0, f"{self.game}::{self.clause}"


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if not _active(config):
        return
    from ruleproof.engine import AdapterBroken

    try:
        cert = Certification(config)
        config.stash[_CERT] = cert
        games = cert.games()
    except AdapterBroken as broken:  # the engine cannot start, or hello is broken: say so plainly
        raise pytest.UsageError(f"ruleproof: adapter broken ({broken.kind}): {broken.message}\n{broken.stderr[-2000:]}") from None
    for game in games:
        for clause in cert.clauses(game):
            item = ClauseItem.from_parent(session, name=f"{game}::{clause}", game=game, clause=clause, certification=cert)
            # under pytest-xdist --dist loadgroup, one worker certifies a game once for all its clauses
            item.add_marker(pytest.mark.xdist_group(f"ruleproof-{game}"))
            items.append(item)


def pytest_unconfigure(config: pytest.Config) -> None:
    cert = config.stash.get(_CERT, None)
    if cert is not None:
        cert.checked.close()


_CERT = pytest.StashKey[Certification]()

__all__ = ["Certificate", "ClauseItem"]
