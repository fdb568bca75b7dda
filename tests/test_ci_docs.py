"""docs/ci.md shows the real command line: every `ruleproof` command in its snippets parses, and each
subcommand answers --help."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from ruleproof.cli.commands import COMMANDS, build_parser

DOC = Path(__file__).parent.parent / "docs" / "ci.md"
FENCE = re.compile(r"^```[a-z]*\n(.*?)^```", re.S | re.M)
SEPARATORS = {"||", "&&", ";", "|", "then", "fi"}


def snippet_commands() -> list[list[str]]:
    """Each `ruleproof SUBCOMMAND ...` in a fenced block, as argv (shell separators cut off)."""
    found = []
    for block in FENCE.findall(DOC.read_text(encoding="utf-8")):
        for line in block.replace("\\\n", " ").splitlines():
            for m in re.finditer(r"(?:^|[\s:])ruleproof\s+(\S+)", line):
                if m.group(1) not in COMMANDS:
                    continue  # `pip install ruleproof`, `name: ruleproof (dev profile)`, ...
                argv = shlex.split(line[m.start() :].lstrip(" :"))
                cut = next((i for i, t in enumerate(argv) if t in SEPARATORS), len(argv))
                found.append(argv[1:cut])
    return found


COMMAND_LINES = snippet_commands()


def test_the_page_has_the_commands_it_promises() -> None:
    subcommands = [argv[0] for argv in COMMAND_LINES]
    assert subcommands.count("certify") >= 6, "GitHub (2), GitLab (2), pre-commit, git hook, pinning"
    assert "fixtures" in subcommands
    assert any(
        "--expect" in argv and "--baseline" in argv and "--html" in argv and "--junit" in argv for argv in COMMAND_LINES
    )
    assert any("--from-trace" in argv for argv in COMMAND_LINES)


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
