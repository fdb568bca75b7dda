"""docs/ci.md and action.yml show the real command line and work as written.

Every YAML block of the page parses; every `ruleproof` command in its snippets and in the action
parses with the real command-line parser, and each subcommand answers --help; nothing installs
ruleproof from a package index that does not have it; the action's inputs and outputs are the ones
its steps use; and the action's certify step, run as GitHub runs it (bash, its env, a
``$GITHUB_OUTPUT`` and ``$GITHUB_STEP_SUMMARY`` file), certifies a passing engine green and a
failing one red, with every output written.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from ruleproof.cli.commands import COMMANDS, build_parser

ROOT = Path(__file__).parent.parent
DOC = ROOT / "docs" / "ci.md"
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
FENCE = re.compile(r"^```([a-z]*)\n(.*?)^```", re.S | re.M)
SEPARATORS = {"||", "&&", ";", "|", "then", "fi"}
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def blocks(lang: str | None = None) -> list[str]:
    return [body for kind, body in FENCE.findall(DOC.read_text(encoding="utf-8")) if lang in (None, kind)]


def commands_in(text: str) -> list[list[str]]:
    """Each `ruleproof SUBCOMMAND ...` in ``text``, as argv (shell separators cut off)."""
    found = []
    for line in text.replace("\\\n", " ").splitlines():
        for m in re.finditer(r"(?:^|[\s:])ruleproof\s+(\S+)", line):
            if m.group(1) not in COMMANDS:
                continue  # `name: ruleproof (dev profile)`, `uses: OWNER/ruleproof@REF`, ...
            argv = shlex.split(line[m.start() :].lstrip(" :"))
            cut = next((i for i, t in enumerate(argv) if t in SEPARATORS), len(argv))
            found.append(argv[1:cut])
    return found


COMMAND_LINES = [argv for block in blocks() for argv in commands_in(block)]


def test_the_page_has_the_commands_it_promises() -> None:
    subcommands = [argv[0] for argv in COMMAND_LINES]
    assert subcommands.count("certify") >= 6, "GitHub steps (2), GitLab (2), pre-commit, git hook, pinning"
    assert "fixtures" in subcommands
    assert any(
        {"--expect", "--baseline", "--html", "--junit", "--max-time", "--summary"} <= set(argv)
        for argv in COMMAND_LINES
    )
    assert any("--from-trace" in argv for argv in COMMAND_LINES)
    assert any("--shard" in argv for argv in COMMAND_LINES) and "merge" in subcommands


def test_the_shard_matrix_covers_every_part_once_and_merges_them_all() -> None:
    """The matrix's parts K/N are 1..N, each uploaded, and the merge job needs them and names every one."""
    (flow,) = [w for w in workflows() if "merge" in w.get("jobs", {})]
    part, merge = flow["jobs"]["part"], flow["jobs"]["merge"]
    parts = part["strategy"]["matrix"]["part"]
    (run,) = [s["run"] for s in part["steps"] if "--shard" in s.get("run", "")]
    n = int(re.search(r"--shard \"\$\{\{ matrix.part \}\}/(\d+)\"", run).group(1))  # type: ignore[union-attr]
    assert parts == list(range(1, n + 1)) and part["strategy"]["fail-fast"] is False
    assert "--seed" in run, "every part explores from the same seed"
    assert merge["needs"] == "part"
    (merged,) = [s["run"] for s in merge["steps"] if "ruleproof merge" in s.get("run", "")]
    assert [f"parts/part-{k}.json" for k in parts] == re.findall(r"parts/part-\d+\.json", merged)


@pytest.mark.parametrize("argv", COMMAND_LINES, ids=[" ".join(a)[:60] for a in COMMAND_LINES])
def test_each_snippet_command_is_accepted_by_the_real_parser(argv: list[str]) -> None:
    args = build_parser().parse_args(argv)  # an unknown option or a bad value exits 2 here
    assert args.command == argv[0]


@pytest.mark.parametrize("subcommand", sorted({argv[0] for argv in COMMAND_LINES}))
def test_each_subcommand_of_the_page_answers_help(subcommand: str) -> None:
    script = Path(sys.executable).with_name("ruleproof")  # the installed console script
    done = subprocess.run([str(script), subcommand, "--help"], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    options = {t for argv in COMMAND_LINES if argv[0] == subcommand for t in argv if t.startswith("-")}
    missing = [o for o in options if o not in done.stdout]
    assert not missing, f"ruleproof {subcommand} --help does not mention {missing}"


def workflows() -> list[dict[str, Any]]:
    return [yaml.safe_load(body) for body in blocks("yaml")]


def test_every_yaml_block_parses_and_every_job_has_a_timeout() -> None:
    parsed = workflows()
    assert len(parsed) >= 4, "the action's workflow, the steps written out, GitLab, pre-commit"
    for doc in parsed:
        jobs = doc.get("jobs", {}) if isinstance(doc, dict) else {}
        for name, job in jobs.items():
            assert "timeout-minutes" in job, f"job {name} has no timeout-minutes"
    gitlab = next(d for d in parsed if "ruleproof" in d and "script" in d["ruleproof"])
    assert "timeout" in gitlab["ruleproof"] and "cache" in gitlab["ruleproof"]


def test_nothing_installs_ruleproof_from_an_index_that_does_not_have_it() -> None:
    installs = [line for block in blocks() for line in block.splitlines() if "pip install" in line]
    assert installs
    for line in installs:
        words = shlex.split(line.split(" #")[0])
        assert "ruleproof" not in words[words.index("install") + 1 :], line  # a bare name: from an index


def test_the_workflows_use_the_action_with_inputs_it_declares() -> None:
    declared = set(ACTION["inputs"])
    uses = [
        step
        for doc in workflows()
        for job in (doc.get("jobs") or {}).values()
        for step in job["steps"]
        if "ruleproof@" in str(step.get("uses", ""))
    ]
    assert uses, "docs/ci.md shows the action"
    for step in uses:
        assert set(step.get("with", {})) <= declared, step
        command = commands_in(f"ruleproof certify --engine {step['with']['engine']}")
        build_parser().parse_args(command[0])


def test_the_action_uses_only_inputs_and_outputs_it_declares() -> None:
    text = (ROOT / "action.yml").read_text(encoding="utf-8")
    used = {m.split(".")[1] for m in EXPRESSION.findall(text) if m.startswith("inputs.")}
    assert used == set(ACTION["inputs"]), "an input used but not declared, or declared but never used"
    steps = {s.get("id") for s in ACTION["runs"]["steps"]}
    for output in ACTION["outputs"].values():
        step = EXPRESSION.findall(output["value"])[0].split(".")[1]
        assert step in steps
    for step in ACTION["runs"]["steps"]:
        if "run" in step:  # inputs reach the scripts through env only: no expression is pasted into bash
            assert not EXPRESSION.search(step["run"]), step["name"]
            subprocess.run(["bash", "-n"], input=step["run"], text=True, check=True)


def certify_step(tmp_path: Path, **inputs: str) -> tuple[int, dict[str, str], str]:
    """Run the action's certify step as GitHub would: bash, its env filled from ``inputs``."""
    step = next(s for s in ACTION["runs"]["steps"] if s.get("id") == "certify")
    env = dict(os.environ)
    values = {name: spec.get("default", "") for name, spec in ACTION["inputs"].items()} | inputs
    for name, expression in step["env"].items():
        env[name] = values[EXPRESSION.fullmatch(expression).group(1).removeprefix("inputs.")]  # type: ignore[union-attr]
    bin_dir = str(Path(sys.executable).parent)
    env |= {"PATH": f"{bin_dir}{os.pathsep}{env['PATH']}", "PYTHONPATH": str(ROOT)}
    env |= {"GITHUB_OUTPUT": str(tmp_path / "output"), "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}
    done = subprocess.run(
        ["bash", "-c", step["run"]], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr  # the step itself never fails: the last step exits with the status
    outputs = dict(line.split("=", 1) for line in (tmp_path / "output").read_text().splitlines())
    return int(outputs["status"]), outputs, (tmp_path / "summary.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("engine", "status", "verdict"),
    [("", 0, "pass"), ("tests.mutants.moon:OvertricksScored.engine", 1, "fail")],
    ids=["reference", "mutant"],
)
def test_the_actions_certify_step_runs_and_reports(tmp_path: Path, engine: str, status: int, verdict: str) -> None:
    got, outputs, summary = certify_step(tmp_path, engine=engine, games="moon", profile="dev", baseline="")
    assert (got, outputs["verdict"]) == (status, verdict)
    for name in ("certificate.json", "junit.xml", "report.html"):
        assert (tmp_path / "ruleproof" / name).is_file(), name
    assert f"ruleproof: {verdict}" in summary
