"""Shards of one exploration (issue 25): the certificate never depends on where they ran.

A profile fixes its shards (dev: 2); ``--workers N`` explores them in N processes, ``--shard K/N``
explores one machine's part and ``ruleproof merge`` joins the parts.  Each way gives the certificate
one process gives, timings aside, failures and their minimized counterexamples included.  And the
``moves`` capability (protocol.md §9) saves calls without changing a verdict.
"""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ruleproof.model.certificate import without_timings as timeless
from tests.cli_helpers import PY, run_cli, usage

HOUSE = "tests.house_rules.idiot:engine"  # fails many Idiot clauses: minimized after the merge
RUN = ("certify", "--game", "idiot", "--profile", "dev", "--seed", "3", "--quiet")
SHARDS = pytest.mark.xdist_group("shards")  # one worker: the runs below share their certificates


def certify(tmp: Path, name: str, *args: str, engine: tuple[str, ...] = ("--engine", HOUSE)) -> dict[str, Any]:
    out = tmp / f"{name}.json"
    done = run_cli(*RUN, *engine, "--traces", str(tmp / name), "--json", str(out), *args, limit=600)
    assert done.returncode in (0, 1), done.stderr
    return read(out, tmp / name)


def read(cert: Path, traces: Path) -> dict[str, Any]:
    """A certificate, its traces folder (named in each failure's trace file and replay command) as TRACES."""
    loaded: dict[str, Any] = json.loads(cert.read_text(encoding="utf-8").replace(str(traces), "TRACES"))
    return loaded


@pytest.fixture(scope="module")
def one_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("shards")
    return tmp, certify(tmp, "one")


@SHARDS
def test_the_house_engine_fails_so_merging_has_failures_to_minimize(one_run: tuple[Path, dict[str, Any]]) -> None:
    game = one_run[1]["games"]["idiot"]
    assert game["stats"]["shards"] == 2 and game["failures"], "the test needs failures found in both shards"


@SHARDS
def test_two_workers_give_the_certificate_of_one(one_run: tuple[Path, dict[str, Any]]) -> None:
    tmp, one = one_run
    assert timeless(certify(tmp, "two", "--workers", "2")) == timeless(one)


@SHARDS
def test_the_parts_of_two_machines_merged_give_the_certificate_of_one_run(one_run: tuple[Path, dict[str, Any]]) -> None:
    tmp, one = one_run
    parts = [tmp / f"part{k}.json" for k in (1, 2)]
    for k, part in enumerate(parts, 1):
        done = run_cli(*RUN, "--engine", HOUSE, "--shard", f"{k}/2", "--json", str(part), limit=600)
        assert done.returncode == 0, done.stderr  # a part judges nothing of its own: no verdict, no failure
        assert json.loads(part.read_text(encoding="utf-8"))["ruleproof_partial"], "a partial certificate"
    merged = tmp / "merged.json"
    done = run_cli("merge", *map(str, parts), "-o", str(merged), "--traces", str(tmp / "m"), limit=600)
    assert done.returncode == 1, done.stderr  # the merged verdict: the engine fails
    assert timeless(read(merged, tmp / "m")) == timeless(one)


@SHARDS
def test_merge_refuses_parts_of_different_runs(one_run: tuple[Path, dict[str, Any]]) -> None:
    tmp = one_run[0]
    other = tmp / "other.json"
    done = run_cli(*RUN[:-3], "--seed", "4", "--quiet", "--engine", HOUSE, "--shard", "2/2", "--json", str(other))
    assert done.returncode == 0, done.stderr
    part1 = tmp / "part1.json"
    if not part1.exists():  # this test alone: make part 1
        assert run_cli(*RUN, "--engine", HOUSE, "--shard", "1/2", "--json", str(part1)).returncode == 0
    for parts, word in (((part1, other), "seed"), ((part1, part1), "shard 1/2 again")):
        done = run_cli("merge", *map(str, parts), "-o", str(tmp / "never.json"))
        assert done.returncode == 2, done.stdout
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and "Traceback" not in done.stderr and word in lines[0], done.stderr
        assert not (tmp / "never.json").exists()


def test_bad_shard_and_worker_arguments_are_one_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    for value in ("3/2", "0/2", "1/0", "x", "1/2/3"):
        usage(capsys, "certify", "--shard", value, words=("--shard", value))
    for value in ("0", "-1", "two"):
        usage(capsys, "certify", "--workers", value, words=("--workers",))
    usage(capsys, "merge", "no-such-part.json", "-o", "x.json", words=("no-such-part.json",))


def test_the_moves_capability_saves_calls_and_changes_no_verdict(tmp_path: Path) -> None:
    """The reference served on a pipe declares ``moves``: one round trip a step, the same certificate."""
    served = ("--engine-cmd", shlex.join([PY, "-m", "ruleproof.cli", "serve", "--game", "idiot"]))
    piped = certify(tmp_path, "piped", engine=served)
    inproc = certify(tmp_path, "inproc", engine=())
    p, i = piped["games"]["idiot"], inproc["games"]["idiot"]
    assert timeless(p["clauses"]) == timeless(i["clauses"]) and p["stats"]["steps"] == i["stats"]["steps"]
    assert p["stats"]["calls_per_step"] < i["stats"]["calls_per_step"] - 0.5, (p["stats"], i["stats"])
    assert p["stats"]["calls_per_step"] <= 2.5


# What a process has loaded of the kit when a shard starts exploring: Hypothesis draws now and then a
# constant of the modules loaded from outside site-packages, so a worker (spawned), a `--shard K/N` run
# and a whole run must have loaded the same modules of the kit, whatever else each did before.
LOADED = """
import sys
{before}
from ruleproof.run.parts import settle_modules
settle_modules()
print("\\n".join(sorted(m for m in sys.modules if m.startswith("ruleproof"))))
"""


def loaded_when_exploring(before: str) -> list[str]:
    done = subprocess.run([PY, "-c", LOADED.format(before=before)], capture_output=True, text=True, check=True)
    return done.stdout.split()


def test_a_shard_explores_with_the_same_modules_loaded_wherever_it_runs() -> None:
    worker = loaded_when_exploring("import ruleproof.run.pool")  # a spawned worker: the pool, the parts
    whole = loaded_when_exploring("import ruleproof.cli.commands, ruleproof.output.html, ruleproof.run.runner")
    assert worker == whole
    # every rules package among them (an editable install maps them to folders outside ruleproof/)
    assert {"ruleproof.properties.moon.check_follow", "ruleproof.reference.fool", "ruleproof.cli.plugin"} <= set(worker)
