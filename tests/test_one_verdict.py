"""One verdict, every output (issue 30): the terminal, the job summary, the HTML page, JUnit, the
certificate and the pytest plugin take the deviation count, order and first deviation from the one
report model (``GameReport.deviations``), on an engine with several deviations at once."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ruleproof.cli import main

ENGINE = "tests.independent.black_maria:house.py_hearts6"


def test_every_output_counts_the_same_deviations_first_one_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = {k: tmp_path / f"run.{k}" for k in ("json", "html", "junit", "md")}
    args = ["certify", "--engine", ENGINE, "--game", "black-maria", "--profile", "ci", "--traces", str(tmp_path / "t")]
    args += ["--json", str(out["json"]), "--html", str(out["html"]), "--junit", str(out["junit"])]
    assert main([*args, "--summary", str(out["md"])]) == 1
    terminal = " ".join(capsys.readouterr().out.split())

    game = json.loads(out["json"].read_text())["games"]["black-maria"]
    labels = [d["label"] for d in game["deviations"]]
    n, first = len(labels), labels[0]
    assert n >= 5 and len(set(labels)) == n  # each named apart, even two under one clause

    assert f"FAIL: {n} deviations ({first};" in terminal

    summary = out["md"].read_text()
    assert summary.count("| deviation") == n
    assert summary.index(f"**{game['deviations'][0]['clause']}**") < summary.index(
        "| deviation", summary.index("| deviation") + 1
    )

    page = html.unescape(out["html"].read_text())
    top = page[page.index('id="summary"') :]
    assert f"{n} deviations<" in top
    items = re.findall(r'<li><span class="game-name">black-maria</span> <a href="[^"]*"><b>([^<]+)</b>', top)
    assert items == labels

    suite = ET.parse(out["junit"]).getroot().find("testsuite")
    assert suite is not None
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["deviations"] == str(n) and props["first_deviation"] == first

    empty = tmp_path / "empty"
    empty.mkdir()
    plugin = [sys.executable, "-m", "pytest", str(empty), "-n", "0", "-q", "-p", "no:cacheprovider"]
    plugin += [
        "--ruleproof-engine",
        ENGINE,
        "--ruleproof-game",
        "black-maria",
        "--ruleproof-traces",
        str(tmp_path / "p"),
    ]
    done = subprocess.run(plugin, check=False, capture_output=True, text=True)
    assert done.returncode == 1
    assert f"ruleproof: FAIL: {n} deviations ({first};" in " ".join(done.stdout.split())
