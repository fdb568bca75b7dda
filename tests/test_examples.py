"""The README's Python adapter is examples/python/adapter.py, and it certifies."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

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
