"""The terminal rendering of a failure, the table layout and the clause texts it quotes."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from ruleproof.model.clauses import all_clauses, clause_text, parse
from ruleproof.model.games import clause_prefixes
from ruleproof.output.render import differing, list_difference, render_failure, step_line, steps_of
from ruleproof.output.table import piece, table_of
from tests.report_samples import played_failure

ROOT = Path(__file__).resolve().parent.parent
PREFIXES = "|".join(re.escape(p) for p in clause_prefixes())
DEFINED = re.compile(rf"^\s*[-*]\s+\*\*((?:{PREFIXES})[A-Z0-9-]+)\*\*", re.M)


def text_of(game: str, failure: dict[str, Any], entry: dict[str, Any] | None = None) -> str:
    console = Console(record=True, width=240, color_system=None)
    console.print(render_failure(game, failure, entry))
    return console.export_text()


# --- clause texts -------------------------------------------------------------------------------


def test_every_clause_the_docs_define_has_its_text() -> None:
    defined = {
        c for doc in (ROOT / "docs" / "rules").glob("*.md") for c in DEFINED.findall(doc.read_text(encoding="utf-8"))
    }
    assert defined and defined <= set(all_clauses())
    assert all(all_clauses()[c] for c in defined)


def test_a_clause_text_joins_its_continuation_lines_and_stops_at_the_next_item() -> None:
    md = "intro\n\n- **BM-X-1** — first line\n  second line.\n- **BM-X-2** — other\n\nafter\n  indented prose\n"
    assert parse(md) == {"BM-X-1": "first line second line.", "BM-X-2": "other"}
    assert clause_text("BM-PASS-3").startswith(  # type: ignore[union-attr]
        "The pass goes right in every round: no left/right/across/hold rotation. A later round"
    )
    assert clause_text("NOPE-1") is None


def test_the_rules_documents_and_templates_ship_in_the_wheel() -> None:
    """A wheel install has no docs/ folder: pyproject must ship the rules and the templates as package data."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert config["package-dir"]["ruleproof.rules"] == "docs/rules"
    assert "ruleproof.rules" in config["packages"]
    assert "*.md" in config["package-data"]["ruleproof.rules"]
    assert "ruleproof.output.templates" in config["packages"]
    assert config["package-data"]["ruleproof.output.templates"] == ["*"]


# --- the failure in the terminal ----------------------------------------------------------------


@pytest.fixture(scope="module")
def bm() -> dict[str, Any]:
    failure = played_failure("black-maria", 30).to_json()
    failure["replay"] = "ruleproof replay ruleproof-traces/black-maria-CONTRACT-MOVES-1.json --engine my.engine:Factory"
    return failure


def test_the_failure_names_the_clause_with_its_text_and_the_replay_command(bm: dict[str, Any]) -> None:
    out = text_of("black-maria", bm)
    assert out.startswith("FAIL CONTRACT-MOVES-1 (black-maria, properties): the engine lists a move twice")
    assert "rule: `legal_moves` lists each distinct legal move once" in out
    assert (
        "replay: ruleproof replay ruleproof-traces/black-maria-CONTRACT-MOVES-1.json --engine my.engine:Factory" in out
    )
    assert f"counterexample: {len(bm['trace'])} steps (minimized from {bm['original_steps']})" in out


def test_expected_and_got_are_json_on_both_sides_and_the_differing_moves_are_named(bm: dict[str, Any]) -> None:
    out = text_of("black-maria", bm)
    move = bm["trace"][-1]["apply"]
    assert f'expected: [{{"type": "play", "card": "{move["card"]}"}}, {{"type": "pass"}}]' in out
    assert (
        f'got:      [{{"type": "play", "card": "{move["card"]}"}}, {{"type": "play", "card": "{move["card"]}"}}]' in out
    )
    assert 'missing:  [{"type": "pass"}]' in out
    assert f'extra:    [{{"type": "play", "card": "{move["card"]}"}}]' in out
    assert "{'type'" not in out  # never a Python repr


def test_the_last_steps_are_shown_numbered_ending_with_the_violation(bm: dict[str, Any]) -> None:
    out = text_of("black-maria", bm)
    n = len(bm["trace"])
    numbered = [int(m) for m in re.findall(r"^\s+(?:→\s+)?(\d+)  ", out, re.M)]
    assert numbered == [1, *range(n - 7, n + 1)]  # the setup, then the last 8
    assert f"… {n - 9} more steps" in out
    violating = next(line for line in out.splitlines() if "←" in line)
    assert re.match(rf"^\s+→\s+{n}  ", violating) and violating.endswith("← violates CONTRACT-MOVES-1")
    seat = bm["states"][-2]["to_act"]
    assert f'seat {seat} apply {{"type": "play", "card": "{bm["trace"][-1]["apply"]["card"]}"}}' in violating


def test_the_table_after_the_violating_step_has_hands_trick_and_scores_with_suit_symbols(bm: dict[str, Any]) -> None:
    out = text_of("black-maria", bm)
    table = out.split(f"the table after step {len(bm['trace'])}:")[1]
    after, before = bm["states"][-1], bm["states"][-2]
    for seat in range(after["players"]):
        assert re.search(rf"^\s+seat {seat}\b.*score {after['scores'][seat]}", table, re.M)
        hand = " ".join(c[0] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[c[1]] for c in after["zones"][f"hand/{seat}"])
        assert hand in table
    played = bm["trace"][-1]["apply"]["card"]
    assert f"− {played[0]}" in table  # the card that left the player's hand in this step
    assert re.search(r"^\s+trick\s", table, re.M) and re.search(r"^\s+removed\s+2♣", table, re.M)
    assert before["zones"] != after["zones"]


@pytest.mark.parametrize(
    ("game", "pattern"), [("moon", r"\[\d\|\d\]"), ("fool", r"\b[GRYB]\d{1,2}\b"), ("idiot", r"\b[2-9TJQKA][♠♥♦♣]")]
)
def test_each_game_draws_its_pieces(game: str, pattern: str) -> None:
    out = text_of(game, played_failure(game, 12).to_json())
    table = out.split("the table after step")[1]
    assert re.search(pattern, table)
    assert "seat 0" in table and "seat 1" in table


def test_without_states_the_failure_still_renders_and_says_so(bm: dict[str, Any]) -> None:
    out = text_of("black-maria", {**bm, "states": []})
    assert "the table: not recorded in this certificate" in out
    assert "seat " not in out.split("counterexample:")[1].split("→")[1]  # no acting seat is guessed


def test_engine_strings_are_printed_as_they_are_never_as_markup(bm: dict[str, Any]) -> None:
    out = text_of("black-maria", {**bm, "message": "[bold]QS[/bold] is [red]not[/] a card"})
    assert "[bold]QS[/bold] is [red]not[/] a card" in out


def test_a_declared_deviation_is_shown_as_xfail_with_its_reason(bm: dict[str, Any]) -> None:
    out = text_of("black-maria", bm, {"status": "xfail", "hits": 3, "expected": "we list passes twice"})
    assert out.startswith("XFAIL CONTRACT-MOVES-1 (listed: we list passes twice) (black-maria, properties)")


def test_an_unconfirmed_failure_is_flagged(bm: dict[str, Any]) -> None:
    assert "NOT reproduced on replay" in text_of("black-maria", {**bm, "confirmed": False})


def test_both_lengths_are_given_when_the_certificate_has_them(bm: dict[str, Any]) -> None:
    n = len(bm["trace"])
    assert f"counterexample: {n} steps (as first recorded: nothing shorter found)\n" in text_of(
        "black-maria", {**bm, "original_steps": n}
    )
    assert f"counterexample: {n} steps\n" in text_of("black-maria", {**bm, "original_steps": 0})  # an older certificate


# --- the pieces the renderers share -------------------------------------------------------------


def test_list_difference_compares_moves_as_json_with_card_order_ignored() -> None:
    a = [{"type": "play", "cards": ["3H", "3S"]}, {"type": "pickup"}]
    b = [{"type": "play", "cards": ["3S", "3H"]}, {"type": "play", "cards": ["4D"]}]
    assert list_difference(a, b) == ([{"type": "pickup"}], [{"type": "play", "cards": ["4D"]}])
    assert list_difference(["QS", "QS"], ["QS"]) == (["QS"], [])  # several decks: a multiset
    assert list_difference("1 moves listed", 2) is None
    split = differing({"listed": [{"type": "pickup"}]}, {"missing": [{"type": "pickup"}]})
    assert split == {"missing": [{"type": "pickup"}]}  # a property that names the missing moves itself
    assert differing(["QS"], ["QS"]) == {}


def test_a_deal_step_is_summarised_by_its_sizes() -> None:
    failure = {
        "trace": [
            {"new_game": {"game": "moon"}},
            {"apply": {"type": "deal", "hands": [["6-6"] * 7] * 3, "widow": "0-0"}},
        ]
    }
    assert step_line(steps_of(failure)[1]) == 'apply deal: hands 7+7+7, widow "0-0"'
    reject = {"trace": [{"new_game": {}}, {"reject": {"type": "play", "card": "QS"}, "clause": "BM-FOLLOW-1"}]}
    assert step_line(steps_of(reject)[1]) == 'reject {"type": "play", "card": "QS"}  (must be refused: BM-FOLLOW-1)'


def test_pieces_follow_each_games_notation() -> None:
    assert piece("black-maria", "TH").label == "T♥" and piece("black-maria", "TH").red
    assert piece("idiot", "QS").label == "Q♠" and not piece("idiot", "QS").red
    assert (piece("fool", "G27").kind, piece("fool", "G27").rank, piece("fool", "G27").suit) == ("fool", "27", "G")
    assert (piece("fool", "1").kind, piece("fool", "1").suit) == ("fool", "")
    assert piece("moon", "6-4").label == "[6|4]"
    assert piece("moon", "QS").kind == "text" and piece("black-maria", 7).text == "7"


def test_a_malformed_state_is_drawn_as_text_not_a_crash() -> None:
    view = table_of(
        {
            "game": "moon",
            "players": "three",
            "zones": {"hand/0": "6-6", "trick": [["x"]], "weird": [None]},
            "scores": "no",
        }
    )
    assert [s.seat for s in view.seats] == [0]
    assert [p.text for p in view.seats[0].zones[0].pieces] == ["6-6"]
    assert {z.name for z in view.shared} == {"trick", "weird"}
    assert table_of("not a state").seats == ()  # type: ignore[arg-type]


def test_certify_prints_each_failure_this_way(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Fixtures only (seconds): the PassLeft mutant fails BM-PASS-1 in fixture B-D1, on its last pass."""
    from ruleproof.cli import main

    status = main(
        [
            "certify",
            "--game",
            "black-maria",
            "--engine",
            "tests.mutants.black_maria:PassLeft.engine",
            "--profile",
            "dev",
            "--no-properties",
            "--traces",
            str(tmp_path),
        ]
    )
    out = capsys.readouterr().out
    assert status == 1
    failure = out[out.index("FAIL BM-PASS-1 (black-maria, fixture:B-D1)") :]
    assert "  rule: After the deal each player passes exactly 3 cards" in failure
    assert re.search(
        r'^  →\s+\d+  seat \d apply \{"type": "pass", "cards": \[.*\]\}   ← violates BM-PASS-1$', failure, re.M
    )
    assert re.search(
        r"^      hand {7}(?:[2-9TJQKA][♠♥♦♣] ){16}[2-9TJQKA][♠♥♦♣](?: |$)", failure, re.M
    )  # 17 cards, suit symbols
    engine = "tests.mutants.black_maria:PassLeft.engine"
    assert f"replay: ruleproof replay {tmp_path}/black-maria-BM-PASS-1.json --engine {engine}" in failure
