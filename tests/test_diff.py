"""``ruleproof diff``: two engines in lockstep, the first divergence minimized and explained.

The gallery test runs every mutant against the reference under a small
derandomized profile and stops at the first divergence, which keeps it
affordable; the command itself explores the whole profile.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from attrs import evolve

from ruleproof.properties import available_games
from ruleproof.reference import ReferenceEngine
from ruleproof.run.diff import DIFF_PROFILES, DiffProfile, DiffUsage, diff
from ruleproof.run.lockstep import (
    BETWEEN_ROUNDS,
    EMPTY_TRICK,
    OUTSIDE_PLAY,
    Difference,
    WitnessedEngine,
    contract_view,
    is_ignored,
    left_open,
    state_differences,
)
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
    # the first run diff's draw reaches (the reference now declares `transparent` too) is of 6s counted
    # through a 2 under six_burn: the 6s' own burn rule
    "RunCountsThroughTwos": "IDIOT-BURN-6S",
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
    first = plain.divergences[0]
    # the dealer between rounds is left open: the bug shows once the next round is dealt, where the seat to
    # act (the dealer's neighbour) differs with it
    assert "dealer" in {first.difference.field, *(d.field for d in first.also)}
    field = first.difference.field
    ignoring = diff(reference(), WitnessedEngine(mutant.engine()), "black-maria", TEST, ignore=[field], stop_after=1)
    assert ignoring.exit_status == 1
    assert ignoring.divergences[0].difference.field != field
    assert field not in {d.field for d in ignoring.divergences[0].also}


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


# -- what the contract leaves open -------------------------------------------------------------


def _view(**fields: object) -> dict[str, object]:
    base: dict[str, object] = {"phase": "play", "round": 1, "to_act": 0, "leader": 0, "zones": {}}
    return {**base, **fields}


@pytest.mark.parametrize(
    "field, a, b, reading",
    [
        ("leader", _view(), _view(leader=None), EMPTY_TRICK),  # an empty trick: null or the seat to lead
        ("leader", _view(phase="bid", leader=2), _view(phase="bid", leader=None), OUTSIDE_PLAY),
        ("leader", _view(leader=2), _view(leader=None), None),  # a seat that is not to lead: pinned
        ("leader", _view(zones={"trick": ["QS"]}), _view(leader=None, zones={"trick": ["QS"]}), None),
        ("dealer", _view(phase="deal", dealer=0), _view(phase="deal", dealer=1), BETWEEN_ROUNDS),
        ("dealer", _view(phase="deal", round=0, dealer=0), _view(phase="deal", round=0, dealer=1), None),
        ("dealer", _view(dealer=0), _view(dealer=1), None),  # once dealt, the dealer is pinned
        ("zones.won/1", _view(phase="over"), _view(phase="over"), BETWEEN_ROUNDS),
        ("zones.hand/1", _view(phase="over"), _view(phase="over"), None),  # what a seat holds: always pinned
        ("bids", _view(phase="deal"), _view(phase="deal"), BETWEEN_ROUNDS),
        ("scores", _view(phase="deal"), _view(phase="deal"), None),
        ("to_act", _view(phase="deal"), _view(phase="deal"), None),
    ],
)
def test_what_the_contract_leaves_open(field: str, a: dict[str, Any], b: dict[str, Any], reading: str | None) -> None:
    assert left_open(Difference(field, a.get(field), b.get(field)), a, b) == reading


# The independent engines (tests/independent/GAME.py, no bug planted): correct readings of the rules written
# without the reference, which differ from it only where the contract leaves a choice.
INDEPENDENT = {
    game: importlib.import_module(f"tests.independent.{game.replace('-', '_')}") for game in available_games()
}


@pytest.mark.parametrize("game", available_games())
def test_a_correct_independent_engine_differs_only_in_what_the_contract_leaves_open(game: str) -> None:
    engine = INDEPENDENT[game].engine
    result = diff(reference(), WitnessedEngine(engine()), game, DIFF_PROFILES["ci"])  # what the command runs
    assert result.exit_status == 0, [(d.difference, d.clauses_a, d.clauses_b) for d in result.divergences]
    assert result.verdict in ("same", "open")
    for d in result.open:
        assert d.reading and not d.clauses_a and not d.clauses_b, d.difference
    assert evolve(result, strict=True).exit_status == (1 if result.open else 0)  # --strict: end to end for moon


def test_the_moon_engine_is_same_on_the_command_line_and_red_under_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["diff", "--game", "moon", "--vs", "tests.independent.moon:engine", "--traces", str(tmp_path / "t")]
    assert main(*argv, "--json", str(tmp_path / "d.json")) == 0
    out = capsys.readouterr().out
    assert out.startswith("SAME moon: no behaviour difference") and "leaves open" in out
    data = json.loads((tmp_path / "d.json").read_text())
    assert data["verdict"] == "open" and data["divergences"] == [] and data["open"]
    assert all(d["reading"] and d["clauses"] == {"a": [], "b": []} for d in data["open"])
    assert (tmp_path / "t" / "diff-moon-open-1.json").is_file()
    assert main(*argv, "--strict") == 1
    assert capsys.readouterr().out.startswith("DIFFERENT moon (--strict)")


# -- the report --------------------------------------------------------------------------------


def test_the_report_is_never_cut_and_labels_seats_and_draws_the_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["diff", "--game", "black-maria", "--vs", "tests.mutants.black_maria:PassLeft.engine"]
    assert main(*argv, "--traces", str(tmp_path)) == 1
    out = capsys.readouterr().out
    assert "..." not in out
    lines = out.splitlines()
    assert any(len(line) > 100 for line in lines), "not wrapped at 80 columns off a terminal"
    setup = next(line for line in lines if "  new_game {" in line)
    json.loads(setup.split("new_game ", 1)[1])  # the whole setup, never cut mid-value
    assert re.search(r"→\s+\d+  seat \d apply \{\"type\": \"pass\"", out), "the divergent step names its seat"
    assert "seat 0's hand (zones.hand/0) differs at step" in out
    assert "the table after step" in out and "(moved" in out, "the board, with the seat that moved marked"
    assert re.search(r"A: ([2-9TJQKA][♣♦♥♠] )+", out), "a hand drawn as cards"
    assert "side B, where it differs:" in out and "clauses broken: A: none; B: BM-PASS-1" in out


def test_a_score_difference_shows_the_cards_behind_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["diff", "--game", "black-maria", "--options", "scoring=standard", "--vs-options", "scoring=spot"]
    argv += ["--traces", str(tmp_path)]
    assert main(*argv, "--profile", "dev", "--seed", "1") == 1
    out = capsys.readouterr().out
    part = out[out.index("scores differs") :]
    assert "the cards behind the scores" in part
    # an option: neither side breaks a rule (side B's game is over where A's deals on: its refusal is no finding)
    assert "clauses broken" not in part.split("replay:")[0], part
    seats = re.findall(r"seat (\d)   A (-?\d+) \([+-]\d+\)   B (-?\d+) \([+-]\d+\)", part)
    assert seats and any(a != b for _, a, b in seats)
    assert re.search(r"won +([2-9TJQKA][♣♦♥♠] ?)+", part), "each seat's won cards"


def test_diff_flags_come_from_the_one_table() -> None:
    from ruleproof.cli.options import FLAGS

    diff_flags = {f.name for f in FLAGS if "diff" in f.commands}
    assert {
        "strict",
        "vs",
        "vs-cmd",
        "options",
        "vs-options",
        "ignore",
        "game",
        "engine",
        "json",
        "traces",
    } <= diff_flags
    assert all(f.cli_only for f in FLAGS if f.commands == ("diff",)), "diff's own flags are no pytest flags"


def test_diff_takes_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main("diff", "--game", "moon", "--game", "idiot") == 2
    assert "--game: give the one game to compare" in capsys.readouterr().err
    assert main("diff") == 2
