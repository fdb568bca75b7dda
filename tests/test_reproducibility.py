"""Same seed, same certificate (issue 12, probes 11-13): a run twice, two seeds, draws that no
"local constant" of Hypothesis can replace."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ruleproof.model.certificate import without_timings
from tests.cli_helpers import run_main

# -- reproducibility (issue 12, probes 11-12): the lead's runner seeds through Hypothesis's public API --


MUTANT = "tests.mutants.moon:FailedBidNotDeducted.engine"  # Moon: the cheapest game to certify at ci


def _certify(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, *extra: str) -> dict[str, Any]:
    path = tmp_path / f"{name}.json"
    run_main(capsys, "certify", "--game", "moon", "--json", str(path), "--traces", str(tmp_path / name), *extra)
    return json.loads(path.read_text())


def test_same_run_twice_gives_the_same_certificate(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    first = _certify(capsys, tmp_path, "a", "--profile", "ci", "--engine", MUTANT)
    second = _certify(capsys, tmp_path, "b", "--profile", "ci", "--engine", MUTANT)
    assert first["verdict"] == "fail"
    first_text = json.dumps(without_timings(first), sort_keys=True).replace(str(tmp_path / "a"), "TRACES")
    second_text = json.dumps(without_timings(second), sort_keys=True).replace(str(tmp_path / "b"), "TRACES")
    assert first_text == second_text


def test_two_seeds_explore_differently(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the reference engine: nothing fails, so nothing is minimized and the three runs stay cheap
    one = _certify(capsys, tmp_path, "s1", "--profile", "ci", "--seed", "1", "--no-fixtures")
    two = _certify(capsys, tmp_path, "s2", "--profile", "ci", "--seed", "2", "--no-fixtures")
    assert one["seed"] == 1 and two["seed"] == 2
    hits = [{c: v["hits"] for c, v in cert["games"]["moon"]["clauses"].items()} for cert in (one, two)]
    assert hits[0] != hits[1]
    # the same seed again, in the same process, after more modules were imported: the same exploration
    import ruleproof.output.html  # noqa: F401  (a module with integer literals the first run had not seen)

    again = _certify(capsys, tmp_path, "s1b", "--profile", "ci", "--seed", "1", "--no-fixtures")
    assert without_timings(again["games"])["moon"]["clauses"] == without_timings(one["games"])["moon"]["clauses"]


# -- install independence (probe 13): draws that no "local constant" can replace -----------------------


def test_explore_runs_each_example_and_honours_the_seed() -> None:
    from hypothesis import Phase, settings

    from ruleproof.properties.draws import drawn_seed, explore

    def collect(seed: int | None, derandomize: bool) -> list[int]:
        seen: list[int] = []
        config = settings(
            max_examples=10, derandomize=derandomize, database=None, phases=(Phase.generate,), deadline=None
        )
        explore(lambda data: seen.append(data.draw(drawn_seed())), config, seed)
        return seen

    assert len(collect(None, True)) == 10
    assert collect(None, True) == collect(None, True)  # derandomized: the same examples every time
    assert collect(1, True) == collect(1, True) != collect(2, True)  # a seed wins over derandomize
