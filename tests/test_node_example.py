"""The Node.js example engine of docs/adapters.md certifies (skipped without node)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")
def test_node_black_maria_certifies(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruleproof.cli",
            "certify",
            "--engine-cmd",
            "node examples/node/black-maria.js",
            "--game",
            "black-maria",
            "--profile",
            "dev",
            "--traces",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200"},
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "PASS" in proc.stdout


def test_adapters_doc_shows_the_example_verbatim() -> None:
    import re

    source = (ROOT / "examples" / "node" / "black-maria.js").read_text(encoding="utf-8")
    doc = (ROOT / "docs" / "adapters.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```js\n(.*?)```", doc, flags=re.S)
    assert blocks
    for block in blocks:
        assert block in source, f"docs/adapters.md shows code that is not in the example:\n{block[:300]}"
