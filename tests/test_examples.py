"""The README's Python adapter is examples/python/adapter.py, and it certifies; the state machine examples pass."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = ROOT / "examples" / "python" / "adapter.py"


def readme_section(title: str) -> str:
    """The README's section under ``## title``, up to the next ``## `` heading."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def test_the_readme_shows_the_example_adapter_whole() -> None:
    blocks = re.findall(r"```python\n(.*?)```", readme_section("Certify your own engine"), flags=re.S)
    assert len(blocks) == 1, "the section should quote exactly one Python block: the example adapter"
    assert blocks[0].strip() == ADAPTER.read_text(encoding="utf-8").strip(), (
        "README.md's adapter differs from examples/python/adapter.py: quote the file whole"
    )


def test_the_example_adapter_certifies(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruleproof.cli",
            "certify",
            "--engine",
            "examples.python.adapter:Adapter",
            "--game",
            "black-maria",
            "--profile",
            "ci",
            "--traces",
            str(tmp_path),
        ],
        cwd=ROOT,  # the command in the README runs from the folder that holds examples/
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "200"},
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "PASS" in proc.stdout


STATEFUL = ROOT / "examples" / "stateful"


def test_the_state_machine_examples_pass_under_pytest(tmp_path: Path) -> None:
    # run as a user runs them: pytest on the folder, Hypothesis's database in the working directory
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "-q", str(STATEFUL)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "2 passed" in proc.stdout


def test_the_house_rule_example_fails_where_its_engine_or_its_declaration_is_missing() -> None:
    from hypothesis import Phase, settings
    from hypothesis.stateful import run_state_machine_as_test

    import ruleproof.stateful
    from examples.python.adapter import Adapter
    from examples.stateful.house_rules import HouseAdapter
    from examples.stateful.test_house_rules import HouseRules

    config = settings(
        HouseRules.TestCase.settings, derandomize=True, database=None, max_examples=40, phases=[Phase.generate]
    )
    # the house rule's invariant, against the adapter that keeps the rules: the player left of the dealer leads
    plain = type("PlainRules", (HouseRules,), {"engine_factory": staticmethod(Adapter), "engine_name": "Adapter"})
    with pytest.raises(AssertionError, match="leads the first trick, not the dealer"):
        run_state_machine_as_test(plain, settings=config)
    # the house engine without expect.toml: the kit's rules fail it on the clause the house rule changes
    undeclared = ruleproof.stateful.machine("black-maria", HouseAdapter)
    with pytest.raises(ruleproof.stateful.ClauseViolated.of("BM-LEAD-1")):
        run_state_machine_as_test(undeclared, settings=config)
