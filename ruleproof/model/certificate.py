"""The certificate: the verdict of one certification, as JSON (JUnit: ``ruleproof.output.junit``).

Shape (README, "The certificate")::

    {"verdict": "pass"|"fail"|"broken", "engine": {...}, "profile": ..., "seed": ...,
     "games": {GAME: {"verdict": ..., "clauses": {ID: {"status": ..., "hits": n}},
                      "failures": [{"clause", "message", "expected", "got", "trace_id", ...}],
                      "traces": {ID: {"trace": [...], "states": [diffs]}}}}}

Format 2 (``ruleproof.model.traces``) stores each counterexample once per game, its states as diffs;
``plain_json`` is the same certificate in format 1, every failure with its trace and states whole, as
``unpack`` gives any certificate back to its readers.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

import hypothesis
from attrs import evolve, field, frozen

from ruleproof import GAMES, __version__
from ruleproof.model.engine import AdapterBroken
from ruleproof.model.errors import InputFileError
from ruleproof.model.report import GameReport
from ruleproof.model.traces import PACKED_FORMAT, UNPACKED_FORMAT, pack, unpack

# bumped when a field changes meaning; ruleproof/schemas/certificate.json is its schema (of every format read)
CERTIFICATE_FORMAT = PACKED_FORMAT


# a certificate's fields that differ between two runs of one seed: when, how long, and what a call cost
TIMINGS = frozenset({"seconds", "created", "seconds_per_call", "estimated_seconds"})


def without_timings(value: Any) -> Any:
    """A certificate's JSON (or any part of it) without its timings: what two runs of one seed, however
    many workers or shards ran them, give alike."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


@frozen
class Certificate:
    """A whole certification: the engine, how hard it was looked at, and a report per game.

    ``to_json`` is the ``--json`` file (schema ``ruleproof/schemas/certificate.json``, shipped with the
    package); ``from_json`` reads one back, as every output and ``--baseline`` does.
    """

    engine: dict[str, Any]
    profile: str
    seed: int | None
    reports: tuple[GameReport, ...]
    engine_args: tuple[str, ...] = ()  # the --engine/--engine-cmd arguments, for replay commands
    trace_files: tuple[tuple[str, str], ...] = ()  # (game:clause, path)
    expect_file: str | None = None  # --expect FILE: the declared deviations
    baseline_file: str | None = None  # --baseline CERT.json
    baseline_warnings: tuple[str, ...] = ()  # another engine or game set than the baseline's
    interrupted: str | None = None  # why the run stopped early ("SIGTERM", "--max-time 60s"): a partial certificate
    not_run: tuple[str, ...] = ()  # games asked for but not started because the run was interrupted
    broken: AdapterBroken | None = None  # the engine could not be started or answer hello: no game was run
    created: str = ""  # when the run ended (ISO 8601, UTC); metadata, like the timings
    versions: dict[str, str] = field(factory=lambda: {"ruleproof": __version__, "hypothesis": hypothesis.__version__})

    @property
    def verdict(self) -> str:
        """broken, fail, then interrupted or untested (neither is a pass), else pass."""
        if self.broken is not None:
            return "broken"
        verdicts = {r.verdict for r in self.reports}
        for verdict in ("broken", "fail", "interrupted"):
            if verdict in verdicts:
                return verdict
        if self.interrupted is not None or self.not_run:
            return "interrupted"
        return "untested" if not self.reports or "untested" in verdicts else "pass"

    @property
    def exit_status(self) -> int:
        # an interrupted or empty run never passes: 2 says "not certified", as for a wrong call
        return {"pass": 0, "fail": 1, "broken": 2, "interrupted": 2, "untested": 2}[self.verdict]

    def replay_command(self, path: str) -> str:
        return shlex.join(["ruleproof", "replay", path, *self.engine_args])

    def trace_file(self, game: str, clause: str, index: int = 0) -> str | None:
        """The saved trace of this clause's ``index``-th cause (a clause keeps up to three)."""
        paths = [path for key, path in self.trace_files if key == f"{game}:{clause}"]
        return paths[index] if index < len(paths) else None

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` file: format 2, each trace once per game, its states as diffs."""
        return pack(self.plain_json())

    def plain_json(self) -> dict[str, Any]:
        """The same certificate in format 1 (``unpack(to_json())``): what the reports in this process draw."""
        return {
            "ruleproof_certificate": UNPACKED_FORMAT,
            "verdict": self.verdict,
            "engine": self.engine,
            "profile": self.profile,
            "seed": self.seed,
            # the same seed gives the same certificate only under the same Hypothesis release
            "hypothesis": self.versions.get("hypothesis"),
            "ruleproof": self.versions.get("ruleproof"),
            "created": self.created,
            "games": {r.game: self._game(r) for r in self.reports},
            "interrupted": self.interrupted is not None,
            **(
                {"interrupted_by": self.interrupted, "not_run": list(self.not_run)}
                if self.interrupted is not None
                else {}
            ),
            **({"broken": self.broken.to_json()} if self.broken is not None else {}),
            **({"expect": self.expect_file} if self.expect_file else {}),
            **(
                {"baseline": {"file": self.baseline_file, "warnings": list(self.baseline_warnings)}}
                if self.baseline_file
                else {}
            ),
        }

    def _game(self, r: GameReport) -> dict[str, Any]:
        out = r.to_json()
        seen: dict[str, int] = {}
        for failure, data in zip(r.failures, out["failures"], strict=True):
            clause = failure.finding.clause
            path = self.trace_file(r.game, clause, seen.get(clause, 0))
            seen[clause] = seen.get(clause, 0) + 1
            if path:
                data["trace_file"] = path
                data["replay"] = self.replay_command(path)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Certificate:
        """A certificate as ``to_json`` wrote it (``CertificateError`` naming the field that is wrong)."""
        if not isinstance(data, dict) or not isinstance(data.get("games"), dict):
            raise CertificateError("a certificate is a JSON object with `games`")
        try:
            return cls._parse(unpack(data))
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise CertificateError(f"not a certificate this ruleproof reads ({type(err).__name__}: {err})") from None

    @classmethod
    def _parse(cls, data: dict[str, Any]) -> Certificate:
        games = data["games"]
        reports = tuple(GameReport.from_json(game, g) for game, g in games.items())
        traces = tuple(
            (f"{game}:{f['clause']}", str(f["trace_file"]))
            for game, g in games.items()
            for f in g.get("failures") or ()
            if f.get("trace_file")
        )
        baseline = data.get("baseline") or {}
        return cls(
            engine=dict(data.get("engine") or {}),
            profile=str(data.get("profile", "")),
            seed=data.get("seed"),
            reports=reports,
            trace_files=traces,
            expect_file=data.get("expect"),
            baseline_file=baseline.get("file"),
            baseline_warnings=tuple(baseline.get("warnings") or ()),
            interrupted=data.get("interrupted_by") if data.get("interrupted") else None,
            not_run=tuple(data.get("not_run") or ()),
            broken=AdapterBroken.from_json(data["broken"]) if data.get("broken") else None,
            created=str(data.get("created") or ""),
            versions={k: str(data[k]) for k in ("ruleproof", "hypothesis") if data.get(k)},
        )

    @classmethod
    def joined(cls, parts: Sequence[Certificate]) -> Certificate:
        """One certificate of the games certified in several runs of one engine (pytest-xdist workers,
        each certifying other games): their games in the contract's order, and what stopped any."""
        first = parts[0]
        order = {g: i for i, g in enumerate(GAMES)}
        reports = sorted((r for p in parts for r in p.reports), key=lambda r: order.get(r.game, len(order)))
        return evolve(
            first,
            reports=tuple(reports),
            trace_files=tuple(t for p in parts for t in p.trace_files),
            interrupted=next((p.interrupted for p in parts if p.interrupted), None),
        )


class CertificateError(InputFileError):
    """A file that is not a certificate this ruleproof can read (names what is wrong)."""
