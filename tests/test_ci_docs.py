"""docs/ci.md and action.yml show the real command line and work as written.

Every YAML block of the page parses; every `ruleproof` command in its snippets and in the action
parses with the real command-line parser, and each subcommand answers --help; nothing installs
ruleproof from a package index that does not have it; the action's inputs and outputs are the ones
its steps use; every ``uses:`` is pinned to a commit, every workflow states its permissions, one
artifact name; and the action's steps, run as GitHub's runner runs them (``bash --noprofile --norc
-eo pipefail`` on a script file, their env, a ``$GITHUB_OUTPUT`` and ``$GITHUB_STEP_SUMMARY`` file),
certify a passing engine green, a failing one red and a broken one red, with the outputs set each
time, and look the baseline up among pushes only.
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


def run_step(step: dict[str, Any], tmp_path: Path, values: dict[str, str], env: dict[str, str]) -> int:
    """Run one ``run:`` step of the action as GitHub's runner does: the script in a file, given to
    ``bash --noprofile --norc -eo pipefail`` (its ``shell: bash``), its env filled from ``values``."""
    env = dict(env)
    for name, expression in step.get("env", {}).items():
        key = EXPRESSION.fullmatch(expression).group(1)  # type: ignore[union-attr]
        env[name] = values.get(key.removeprefix("inputs."), "")
    script = tmp_path / f"step-{step.get('id', 'x')}.sh"
    script.write_text(step["run"], encoding="utf-8")
    assert step["shell"] == "bash"
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    return done.returncode


def step_named(word: str) -> dict[str, Any]:
    (step,) = [s for s in ACTION["runs"]["steps"] if word in s.get("name", "")]
    return step


def runner_env(tmp_path: Path, bin_dir: Path | None = None) -> dict[str, str]:
    env = dict(os.environ)
    path = str(Path(sys.executable).parent) + (f"{os.pathsep}{bin_dir}" if bin_dir else "")
    env |= {"PATH": f"{path}{os.pathsep}{env['PATH']}", "PYTHONPATH": str(ROOT)}
    return env | {"GITHUB_OUTPUT": str(tmp_path / "output"), "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}


def certify_step(tmp_path: Path, **inputs: str) -> tuple[int, dict[str, str], str]:
    """The action's certify step, then its last step (the verdict) with the outputs the first one set."""
    values = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()} | inputs
    env = runner_env(tmp_path)
    assert run_step(step_named("Certify"), tmp_path, values, env) == 0, "the step goes on to the verdict"
    outputs = dict(line.split("=", 1) for line in (tmp_path / "output").read_text().splitlines())
    steps = {f"steps.certify.outputs.{k}": v for k, v in outputs.items()}
    status = run_step(step_named("The verdict"), tmp_path, steps, env)
    assert str(status) == outputs["status"], "the job fails with ruleproof's exit status"
    summary = tmp_path / "summary.md"
    return status, outputs, summary.read_text(encoding="utf-8") if summary.exists() else ""


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


def test_the_action_keeps_its_outputs_when_the_engine_cannot_even_load(tmp_path: Path) -> None:
    got, outputs, _ = certify_step(tmp_path, engine="no_such_module:engine", games="moon", profile="dev", baseline="")
    assert (got, outputs) == (2, {"status": "2", "verdict": "broken"})


def test_the_baseline_is_a_push_to_the_default_branch_and_its_absence_is_no_error(tmp_path: Path) -> None:
    """A fake ``gh`` that finds no run: the step still succeeds under ``-e``, having asked for pushes."""
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "gh").write_text('#!/bin/sh\necho "$@" >>"$GH_CALLS"\nexit 1\n', encoding="utf-8")
    (fake / "gh").chmod(0o755)
    env = runner_env(tmp_path) | {"PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"}
    env["GH_CALLS"] = str(tmp_path / "calls")
    values = {"github.workflow": "rules", "github.event.repository.default_branch": "main", "artifact": "ruleproof"}
    assert run_step(step_named("baseline"), tmp_path, values, env) == 0
    (call,) = (tmp_path / "calls").read_text().splitlines()
    assert "--branch main" in call and "--event push" in call and "--status success" in call


def every_uses() -> list[str]:
    steps = [s for doc in workflows() for job in (doc.get("jobs") or {}).values() for s in job.get("steps", [])]
    return [str(s["uses"]) for s in [*steps, *ACTION["runs"]["steps"]] if "uses" in s]


def test_every_action_used_is_pinned_to_a_commit() -> None:
    """A tag can be moved to other code; a commit cannot (zizmor's unpinned-uses). Ruleproof's own is
    the placeholder the reader fills in, with a commit too."""
    uses = every_uses()
    assert len(uses) >= 10
    pinned = re.compile(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}")
    unpinned = [u for u in uses if not pinned.fullmatch(u) and u != "OWNER/ruleproof@COMMIT"]
    assert not unpinned, unpinned
    text = DOC.read_text(encoding="utf-8") + (ROOT / "action.yml").read_text(encoding="utf-8")
    for line in text.splitlines():
        if re.search(r"uses: \S+@[0-9a-f]{40}", line):
            assert re.search(r"# v\d+\.\d+\.\d+$", line), f"the version, for the reader: {line}"


def test_every_workflow_states_its_permissions() -> None:
    for doc in workflows():
        jobs = doc.get("jobs") if isinstance(doc, dict) else None
        if jobs:  # GitHub's (GitLab's and pre-commit's have no jobs map)
            assert "permissions" in doc or all("permissions" in j for j in jobs.values()), doc.get("name")


def test_one_artifact_name_and_the_jobs_own_python() -> None:
    name = ACTION["inputs"]["artifact"]["default"]
    uploads = [
        s["with"]["name"] for doc in workflows() for job in (doc.get("jobs") or {}).values()
        for s in job.get("steps", []) if "upload-artifact" in str(s.get("uses", ""))
    ]  # fmt: skip
    assert {u for u in uploads if not u.startswith("part-")} == {name}, "the shards' parts are another thing"
    assert re.findall(r"gh run download \S+ --name (\S+)", DOC.read_text(encoding="utf-8")) == [name]
    assert ACTION["inputs"]["python-version"]["default"] == "", "the action sets no Python over the job's own"
