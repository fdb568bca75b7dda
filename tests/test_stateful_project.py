"""A fresh project puts the state machine in its suite with three lines, and pytest does the rest.

A folder holding only an engine with a planted bug (the cards go left) and a three-line test module:
``pytest`` fails on BM-PASS-1 with a shrunk counterexample, and the next ``pytest`` replays that
failure from Hypothesis's example database (``.hypothesis/`` in the folder) before generating anything.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ENGINE = """\
from ruleproof.reference.base import ReferenceEngine
from ruleproof.reference.black_maria import BlackMaria


class PassesLeft(BlackMaria):
    def pass_target(self, seat, players, round_):
        return (seat + 1) % players  # the planted bug: BM-PASS-1 passes to the right


def engine():
    return ReferenceEngine([PassesLeft()], name="my-engine")
"""

TEST_MODULE = """\
import ruleproof.stateful
from my_engine import engine
TestMyEngine = ruleproof.stateful.machine("black-maria", engine).TestCase
"""

# a step as pytest prints it ("E   state.play(...)"), also inside an exception group ("    |   state...")
STEP = re.compile(r"^(?:E\s+|E?\s+\|\s+)state\.(deal|play|probe|next_game)\((.*)\)$", re.M)
# the start of one failure of an exception group ("E   +---------------- 2 ----------------")
GROUP_PART = re.compile(r"^E?\s*(?:\+-)?\+-+ \d+ -+$", re.M)


def planted_steps(out: str) -> list[tuple[str, str]]:
    """The steps printed for the planted bug's failure on BM-PASS-1.  The engine declares every ``pass``
    value the reference does, so Hypothesis now and then also finds the same bug under ``pass: rotate``
    (round 2 passes left, not right): BM-PASS-4, the declared rule, a distinct failure beside it (an
    exception group; its steps print with a ``|``).  Any other clause there would be a false alarm."""
    parts = GROUP_PART.split(out)
    if len(parts) == 1:
        return STEP.findall(out)
    ours = [p for p in parts[1:] if "ClauseViolated[BM-PASS-1]" in p]
    others = {c for p in parts[1:] for c in re.findall(r"ClauseViolated\[([A-Z0-9-]+)\]", p)} - {"BM-PASS-1"}
    assert others <= {"BM-PASS-4"}, (others, out[-3000:])
    return STEP.findall(ours[0]) if ours else []


# Hypothesis's statistics: the reuse phase replayed the database's examples and one of them failed
REPLAYED = re.compile(r"during reuse phase[^\n]*\n[^\n]*\n\s*- 0 passing[^,]*, [1-9][0-9]* failing")


# Hypothesis loads its ``ci`` profile (no database, derandomized) where one of these is set: the
# project stands for a developer's machine, so they are left out (docs/stateful.md says what CI does)
CI_VARIABLES = {
    "CI",
    "__TOX_ENVIRONMENT_VARIABLE_ORIGINAL_CI",
    "TF_BUILD",
    "bamboo.buildKey",
    "BUILDKITE",
    "CIRCLECI",
    "CIRRUS_CI",
    "CODEBUILD_BUILD_ID",
    "GITHUB_ACTIONS",
    "GITLAB_CI",
    "HEROKU_TEST_RUN_ID",
    "TEAMCITY_VERSION",
}


def pytest_in(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--hypothesis-show-statistics"],
        cwd=folder,
        env={k: v for k, v in os.environ.items() if k not in CI_VARIABLES},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_three_lines_fail_a_planted_bug_shrunk_and_the_next_run_replays_it_first(tmp_path: Path) -> None:
    (tmp_path / "my_engine.py").write_text(ENGINE, encoding="utf-8")
    (tmp_path / "test_my_engine.py").write_text(TEST_MODULE, encoding="utf-8")
    assert len(TEST_MODULE.splitlines()) == 3

    first = pytest_in(tmp_path)
    out = first.stdout
    assert first.returncode == 1, out[-3000:] + first.stderr[-2000:]
    assert "ClauseViolated[BM-PASS-1]: BM-PASS-1: " in out and "right-hand neighbour" in out, out[-3000:]
    steps = planted_steps(out)
    if not steps:
        # Seen only late in the whole suite (twice), never alone nor under load: the failure reported with
        # no steps printed (cause not found yet). Once more in a fresh folder, which must print them.
        shutil.rmtree(tmp_path / ".hypothesis", ignore_errors=True)
        first = pytest_in(tmp_path)
        out = first.stdout
        assert first.returncode == 1 and "ClauseViolated[BM-PASS-1]" in out, out[-3000:]
        steps = planted_steps(out)
    # shrunk: the deal and the three passes, each the first listed move.  Hypothesis's shrinker now and
    # then leaves a few refused probes between them (seed 3 at 6.170: three), which change nothing
    kinds = [kind for kind, _ in steps]
    assert kinds[:1] == ["deal"] and kinds.count("play") == 3 and len(kinds) <= 10, (steps, out[-2500:])
    assert all(args.endswith("pick=0") for kind, args in steps if kind == "play"), steps
    assert set(kinds) <= {"deal", "play", "probe"}, steps
    assert (tmp_path / ".hypothesis").is_dir()

    second = pytest_in(tmp_path)
    assert second.returncode == 1 and "ClauseViolated[BM-PASS-1]" in second.stdout, second.stdout[-3000:]
    assert REPLAYED.search(second.stdout), second.stdout[-3000:]
    assert "during generate phase" not in second.stdout  # found again before generating anything
