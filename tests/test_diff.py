"""``ruleproof diff``: two engines in lockstep, the first divergence minimized and explained.

The gallery test runs every mutant against the reference under a small
derandomized profile and stops at the first divergence, which keeps it
affordable; the command itself explores the whole profile.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from ruleproof.properties import available_games
from ruleproof.reference import ReferenceEngine
from ruleproof.run.diff import DIFF_PROFILES, DiffProfile, DiffUsage, diff
from ruleproof.run.lockstep import WitnessedEngine, contract_view, is_ignored, state_differences
from tests.mutants import Mutant, all_mutants

# derandomized like ci, fewer replays to minimize: the same verdicts, a fraction of the time
TEST = DiffProfile("test", max_examples=30, steps=300, derandomize=True, minimize_replays=30)
MUTANTS = [m for m in all_mutants() if m.game in available_games()]


def reference() -> WitnessedEngine:
    return WitnessedEngine(ReferenceEngine())


def main(*argv: str) -> int:
    from ruleproof.cli import main as cli_main

    return cli_main(list(argv))


@pytest.mark.parametrize("game", available_games())
def test_the_reference_against_itself_is_the_same(game: str) -> None:
    result = diff(reference(), reference(), game, TEST)
    assert result.exit_status == 0, [d.to_json() for d in result.divergences]
    assert result.stats["steps"] > 1000 and result.stats["probes"] > 50


# Mutants whose first divergence is judged, on its game, by a neighbouring clause's property:
# certification reports that clause first for them too (docs/kill-matrix.md, "clause(s) reported").
NEIGHBOUR = {
    "RunsPerPlay": "IDIOT-BURN-6S",
    "WildOffColour": "FOOL-WORST-4",
    "OvertricksScored": "MOON-SCORE-2",
    # a double led under no trump: doubles as trumps list what a led double calling the doubles lists
    "DoublesTrumpUnderNoTrump": "MOON-LEAD-3",
}


# Mutants that differ only from themselves (CONTRACT-DET-1: a replayed game ends elsewhere): on one run
# their contract fields are the reference's, so there is nothing for diff to find.
SELF_ONLY = {m.name for m in MUTANTS if m.clause == "CONTRACT-DET-1"}


@pytest.mark.parametrize("mutant", [m for m in MUTANTS if m.name not in SELF_ONLY], ids=lambda m: f"{m.game}:{m.name}")
def test_every_gallery_mutant_diverges_at_its_rule(mutant: Mutant) -> None:
    result = diff(reference(), WitnessedEngine(mutant.engine()), mutant.game, TEST, stop_after=1)
    assert result.exit_status == 1, f"{mutant.name} ({mutant.description}) does not diverge"
    first = result.divergences[0]
    clause = NEIGHBOUR.get(mutant.name, mutant.clause)
    assert clause in first.clauses_b, f"{mutant.name}: {first.difference.field} named {first.clauses_b}"
    assert not first.clauses_a, "the reference breaks no clause"
    assert first.step == len(first.trace.events) <= first.original


def test_after_burn_next_against_burner_first_diverges_right_after_a_burn() -> None:
    from ruleproof.run.replay import replay

    result = diff(
        reference(),
        reference(),
        "idiot",
        TEST,
        options={"after_burn": "next"},
        vs_options={"after_burn": "burner"},
        stop_after=1,
    )
    assert result.exit_status == 1
    first = result.divergences[0]
    assert first.difference.field in ("to_act", "legal_moves"), first.difference
    assert not first.clauses_a and not first.clauses_b, "both settings are rules the contract allows"
    states = replay(first.trace, WitnessedEngine(ReferenceEngine()), _props("idiot")).states
    burned = [len(s["zones"].get("burned", [])) for s in states]
    assert len(burned) == first.step and burned[-1] > burned[-2], "the divergent step is a burn"
    assert first.trace.events[0].value["options"]["after_burn"] == "next"
    assert first.to_json()["trace_b"]["steps"][0]["new_game"]["options"]["after_burn"] == "burner"


@pytest.mark.parametrize("game", available_games())
def test_the_reference_over_a_pipe_is_the_same_as_in_process(game: str, tmp_path: Path) -> None:
    out = tmp_path / "diff.json"
    serve = f"{sys.executable} -m ruleproof.cli serve --game {game}"
    assert (
        main("diff", "--game", game, "--engine-cmd", serve, "--profile", "dev", "--seed", "1", "--json", str(out)) == 0
    )
    data = json.loads(out.read_text())
    assert data["verdict"] == "same" and data["divergences"] == []
    assert data["a"]["name"] == data["b"]["name"]


def test_json_shape_and_trace_files(tmp_path: Path) -> None:
    out = tmp_path / "diff.json"
    status = main(
        "diff",
        "--game",
        "black-maria",
        "--vs",
        "tests.mutants.black_maria:PassLeft.engine",
        "--profile",
        "dev",
        "--seed",
        "3",
        "--json",
        str(out),
        "--traces",
        str(tmp_path / "traces"),
    )
    assert status == 1
    data = json.loads(out.read_text())
    assert {"verdict", "a", "b", "game", "profile", "seed", "divergences"} <= set(data)
    assert (data["verdict"], data["game"], data["profile"], data["seed"]) == ("diverged", "black-maria", "dev", 3)
    first = data["divergences"][0]
    assert {"step", "field", "a", "b", "clauses", "trace"} <= set(first)
    assert first["field"].startswith("zones.hand/")
    assert "BM-PASS-1" in first["clauses"]["b"]
    assert first["trace"]["steps"][0]["new_game"]["game"] == "black-maria"
    assert len(first["trace"]["steps"]) == first["step"]
    assert (tmp_path / "traces" / "diff-black-maria-1.json").is_file()


def test_a_divergence_trace_replays_against_either_side() -> None:
    from ruleproof.run.replay import replay

    mutant = next(m for m in MUTANTS if m.name == "PassLeft")
    result = diff(reference(), WitnessedEngine(mutant.engine()), "black-maria", TEST, stop_after=1)
    trace = result.divergences[0].trace
    against_b = replay(trace, WitnessedEngine(mutant.engine()), _props("black-maria"))
    against_a = replay(trace, reference(), _props("black-maria"))
    assert against_b.status("BM-PASS-1") == "same"
    assert against_a.status("BM-PASS-1") == "fixed"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--vs-options", "after_burn=sideways"], "does not declare this value"),
        (["--options", "colour=red"], "declares no option 'colour'"),
        (["--options", "after_burn"], "expected NAME=VALUE"),
        (["--vs", "tests.mutants.moon:NoSuchMutant.engine"], "--vs tests.mutants.moon"),
        (["--vs", "tests.mutants.black_maria:PassLeft.engine"], "side B (mutant:PassLeft) does not declare it"),
        (["--vs-cmd", "/nonexistent/engine"], "side B (--vs-cmd): could not start the engine"),
        (["--vs-cmd", ""], "--vs-cmd is empty"),
    ],
)
def test_wrong_calls_exit_2_with_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main("diff", "--game", "idiot", "--profile", "dev", *argv) == 2
    err = capsys.readouterr().err
    assert message in " ".join(err.split()), err
    assert "Traceback" not in err


def test_contract_view_ignores_extensions_empty_zones_and_hand_order() -> None:
    base = ReferenceEngine().new_game("black-maria", 3, 0, {"scoring": "standard", "target": 100})
    other = {**base, "zones": {**{k: list(reversed(v)) for k, v in base["zones"].items()}, "won/0": []}, "x-debug": 1}
    ordered = frozenset({"trick"})
    assert contract_view(base, "black-maria", ordered, frozenset()) == contract_view(
        other, "black-maria", ordered, frozenset()
    )
    moved = {
        **base,
        "zones": {**base["zones"], "removed": [], "deck": base["zones"]["deck"] + base["zones"].get("removed", [])},
    }
    diffs = state_differences(
        contract_view(base, "black-maria", ordered, frozenset()),
        contract_view(moved, "black-maria", ordered, frozenset()),
    )
    assert [d.field for d in diffs] == ["zones.deck", "zones.removed"]
    assert diffs[1].key == "zones.removed"
    assert (
        is_ignored("zones.hand/2", ("zones.*",))
        and is_ignored("zones.hand/2", ("zones",))
        and not is_ignored("scores", ("zones",))
    )


def test_ignoring_the_divergent_field_moves_the_divergence_on() -> None:
    mutant = next(m for m in MUTANTS if m.name == "DealerNotRotating")
    plain = diff(reference(), WitnessedEngine(mutant.engine()), "black-maria", TEST, stop_after=1)
    assert plain.divergences[0].difference.field == "dealer"
    ignoring = diff(reference(), WitnessedEngine(mutant.engine()), "black-maria", TEST, ignore=["dealer"], stop_after=1)
    assert ignoring.exit_status == 1
    assert ignoring.divergences[0].difference.field != "dealer"


def test_profiles_count_examples_and_steps_not_seconds() -> None:
    assert {"dev", "ci", "thorough"} == set(DIFF_PROFILES)
    assert DIFF_PROFILES["ci"].derandomize
    with pytest.raises(DiffUsage):
        diff(reference(), reference(), "moon", TEST, options={"target": 0})


def _props(game: str) -> type:
    from ruleproof.properties import properties_for

    return properties_for(game)


def test_a_smaller_target_shortens_a_game_end_divergence() -> None:
    mutant = next(m for m in MUTANTS if m.name == "TargetIgnored")
    result = diff(reference(), WitnessedEngine(mutant.engine()), "black-maria", TEST, stop_after=1)
    first = result.divergences[0]
    setup = first.trace.events[0].value
    assert first.difference.field == "phase" and (first.difference.a, first.difference.b) == ("over", "deal")
    assert first.step < first.original  # the fixture's game of several rounds, cut to one round
    assert sum(1 for e in first.trace.events if e.kind == "apply" and e.value["type"] == "deal") == 1
    assert setup["options"]["target"] < 100


def test_setups_are_drawn_from_what_both_sides_declare() -> None:
    from ruleproof.run.diff import narrowed

    a = {
        "players": [3, 4],
        "options": {"target": {"min": 1, "max": 1000}, "scoring": ["standard", "spades"], "x": [1, 2]},
    }
    b = {"players": [4, 5], "options": {"target": {"min": 5, "max": 100}, "scoring": ["spades", "spot"], "x": [1, 2]}}
    both = narrowed(a, b, {}, {})
    assert both["players"] == [4]
    assert both["options"] == {"target": {"min": 5, "max": 100}, "scoring": ["spades"], "x": [1, 2]}
    pinned = narrowed(a, b, {"target": 50}, {"x": 2})
    assert pinned["options"]["target"] == {"min": 50, "max": 50}
    assert pinned["options"]["x"] == [1], "side A runs the other setting than B's --vs-options"
