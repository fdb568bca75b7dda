"""--fixtures DIR, fixtures --from-trace, and fixtures run under every declared option value."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ruleproof.cli import main
from ruleproof.model.fixtures import FixtureError, bundled, load_file, variants
from ruleproof.properties import properties_for
from ruleproof.properties.base import Ledger
from ruleproof.properties.black_maria.house import HOUSE_DEFAULTS
from ruleproof.reference import ReferenceEngine
from ruleproof.run.fixtures import fixtures_for, load_dirs, run_fixture
from ruleproof.run.runner import PROFILES, certify_game
from ruleproof.transport.checked import CheckedEngine
from tests.mutants.black_maria import RevokeAccepted

FOLLOW = json.loads((Path(__file__).parent.parent / "fixtures/black-maria/follow-suit.json").read_text())


def user_dir(tmp_path: Path, **fixtures: Any) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir(exist_ok=True)
    for name, data in fixtures.items():
        (folder / f"{name}.json").write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return folder


def flat(text: str) -> str:
    return " ".join(text.split())


def certify(tmp_path: Path, *extra: str) -> int:
    return main(
        [
            "certify",
            "--game",
            "black-maria",
            "--no-properties",
            "--json",
            str(tmp_path / "cert.json"),
            "--traces",
            str(tmp_path / "traces"),
            *extra,
        ]
    )


def test_user_fixtures_run_next_to_the_bundled_ones(tmp_path: Path) -> None:
    wrong_leader = {
        **FOLLOW,
        "id": "my-wrong-leader",
        "clauses": ["BM-DEAL-2"],  # its focus: the expectation below is its verdict
        "steps": [{"expect": {"state": {"dealer": 2}}, "clause": "BM-DEAL-2"}],
    }
    folder = user_dir(tmp_path, mine={**FOLLOW, "id": "my-follow-suit"})
    assert certify(tmp_path, "--fixtures", str(folder)) == 0
    fixtures = json.loads((tmp_path / "cert.json").read_text())["games"]["black-maria"]["fixtures"]
    assert fixtures["my-follow-suit"] == "pass" and fixtures["BM-follow-suit"] == "pass"

    other = tmp_path / "more"
    other.mkdir()
    (other / "leader.json").write_text(json.dumps(wrong_leader))
    assert certify(tmp_path, "--fixtures", str(folder), "--fixtures", str(other)) == 1, (
        "repeatable, and a user fixture can fail"
    )
    cert = json.loads((tmp_path / "cert.json").read_text())["games"]["black-maria"]
    assert cert["fixtures"]["my-wrong-leader"] == "fail"
    assert [f["source"] for f in cert["failures"] if f["clause"] == "BM-DEAL-2"] == ["fixture:my-wrong-leader"]


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ({k: v for k, v in FOLLOW.items() if k != "id"}, 'at <root>: "id" is a required property'),
        ({**FOLLOW, "id": "x", "clauses": ["BM-NOPE-1"]}, "at clauses[0]: 'BM-NOPE-1' is not a clause of black-maria"),
        ({**FOLLOW, "id": "x", "steps": [{"apply": {"type": "play", "card": "ZZ"}}]}, "at steps[0].apply"),
        ({**FOLLOW, "id": "x", "steps": [{"expect": {"legal": []}, "clause": "IDIOT-BURN-10"}]}, "at steps[0].clause"),
        (
            {**FOLLOW, "id": "BM-follow-suit"},
            "at id: 'BM-follow-suit' is already the id of black-maria/follow-suit.json",
        ),
        ("{not json", "not JSON"),
        ({**FOLLOW, "id": "x", "holds_under": {"scoring": ["spades"]}}, "at holds_under.scoring: not a house option"),
        ({**FOLLOW, "id": "x", "holds_under": {"moon": ["nope"]}}, 'at holds_under.moon[0]: "nope" is not a value'),
        ({**FOLLOW, "id": "x", "holds_under": {"moon": []}}, "at holds_under.moon: [] has less than 1 item"),
    ],
)
def test_a_bad_user_fixture_exits_2_naming_the_file_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: Any, words: str
) -> None:
    folder = user_dir(tmp_path, bad=content)
    assert certify(tmp_path, "--fixtures", str(folder)) == 2
    err = flat(capsys.readouterr().err)
    assert str(folder / "bad.json") in err and words in err
    assert "Traceback" not in err
    assert not (tmp_path / "cert.json").exists(), "nothing runs before the files are valid"


def test_a_missing_or_empty_folder_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(FixtureError, match="not a folder"):
        load_dirs([tmp_path / "nowhere"])
    with pytest.raises(FixtureError, match=r"no \*.json fixture files"):
        load_dirs([user_dir(tmp_path)])


def test_from_trace_pins_the_violation_as_a_fixture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A mutant that lists revokes: its trace becomes a fixture the reference passes and the mutant fails."""
    assert certify(tmp_path, "--engine", "tests.mutants.black_maria:RevokeAccepted.engine") == 1
    trace = tmp_path / "traces" / "black-maria-BM-FOLLOW-1.json"
    out = tmp_path / "pinned.json"
    assert main(["fixtures", "--from-trace", str(trace), "-o", str(out)]) == 0
    pinned = load_file(out)
    assert pinned.clauses == ("BM-FOLLOW-1",) and pinned.id == "pinned-black-maria-BM-FOLLOW-1"
    props = properties_for("black-maria")
    fixed = run_fixture(pinned, CheckedEngine(ReferenceEngine()), props, Ledger(), lambda f, s: None)
    assert fixed.status == "pass"
    buggy = run_fixture(pinned, CheckedEngine(RevokeAccepted.engine()), props, Ledger(), lambda f, s: None)
    assert buggy.status == "fail" and buggy.finding is not None and buggy.finding.clause == "BM-FOLLOW-1"

    capsys.readouterr()
    assert main(["fixtures", "--from-trace", str(trace)]) == 0, "without -o the fixture goes to stdout"
    assert json.loads(capsys.readouterr().out)["id"] == pinned.id


def test_from_trace_refuses_what_is_not_a_trace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"game": "black-maria", "steps": []}))
    assert main(["fixtures", "--from-trace", str(path)]) == 2
    assert "steps: must be a non-empty list" in flat(capsys.readouterr().err)


# -- option values ---------------------------------------------------------------------------------


class Declares:
    """The reference engine, declaring fewer option values (as a real engine might)."""

    def __init__(self, game: str, **options: Any) -> None:
        self.inner, self.game, self.options = ReferenceEngine(), game, options

    def hello(self) -> dict[str, Any]:
        hello = self.inner.hello()
        games = {self.game: hello["games"][self.game]}
        games[self.game] = {**games[self.game], "options": {**games[self.game]["options"], **self.options}}
        return {**hello, "games": games}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def fixture_statuses(engine: Any, game: str) -> dict[str, str]:
    report = certify_game(CheckedEngine(engine), game, PROFILES["dev"], properties=False)
    return report.fixtures


def test_a_fixture_runs_once_per_declared_value_of_an_option_it_does_not_name() -> None:
    follow = next(fx for fx in bundled("black-maria") if fx.id == "BM-follow-suit")
    declared = ReferenceEngine().hello()["games"]["black-maria"]
    runs = variants(follow, declared, HOUSE_DEFAULTS)
    # the house rules are never varied: a fixture that does not name one scripts its default
    assert [r.setup["options"] for r in runs] == [
        {**HOUSE_DEFAULTS, "scoring": s} for s in ("standard", "spades", "spot")
    ]
    assert [r.id for r in runs] == ["BM-follow-suit", "BM-follow-suit[scoring=spades]", "BM-follow-suit[scoring=spot]"]
    tie = next(fx for fx in bundled("black-maria") if fx.id == "BM-tie")
    assert len(variants(tie, declared, HOUSE_DEFAULTS)) == 1, "a fixture naming every option runs once"


def test_an_idiot_engine_with_only_burner_still_runs_the_idiot_fixtures() -> None:
    statuses = fixture_statuses(Declares("idiot", after_burn=["burner"]), "idiot")
    ran = {fx: s for fx, s in statuses.items() if s != "skipped"}
    assert all(s == "pass" for s in ran.values()), statuses
    assert {
        "I-D1b-burner-starts",
        "I-D2c-four-nines-burn-burner",
        "I-D3b-five-fives-two-decks-burner",
        "I-D4b-ten-on-ace-burner",
    } <= set(ran)
    assert len(ran) >= 10, f"only {sorted(ran)} ran"
    assert statuses["I-D2-four-nines-burn"] == "skipped", "the fixture that depends on after_burn=next does not run"


def load_bench(name: str) -> Any:
    path = Path(__file__).parent.parent / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bundled_idiot_fixtures_hold_under_what_the_reference_gives() -> None:
    """bench/holds_under.py --write wrote each file's holds_under: it is what the reference gives today."""
    computed = load_bench("holds_under").computed
    stale = {
        fx.id: (dict(fx.holds_under), want)
        for fx in bundled("idiot")
        if {k: list(v) for k, v in fx.holds_under.items()} != (want := computed(fx))
    }
    assert not stale, f"run: python bench/holds_under.py --write ({stale})"
    assert any(fx.holds_under for fx in bundled("idiot"))


def test_an_idiot_engine_declaring_only_a_transparent_3_runs_the_fixtures_that_hold_under_it() -> None:
    report = certify_game(
        CheckedEngine(Declares("idiot", transparent=["3"])), "idiot", PROFILES["dev"], properties=False
    )
    for fx in bundled("idiot"):
        named = (fx.setup.get("options") or {}).get("transparent")
        ran = {k: s for k, s in report.fixtures.items() if k == fx.id or k.startswith(f"{fx.id}[")}
        if named == "3" or "3" in fx.holds_under.get("transparent", ()):
            assert ran and all(s == "pass" for s in ran.values()), (fx.id, ran)
            assert named or all("transparent=3" in k for k in ran), ran
        else:
            assert set(ran.values()) == {"skipped"}, (fx.id, ran)
            # a value the fixture names, or the default it scripts, which it holds under alone
            held = "" if named else " (the script holds under no value the engine declares)"
            assert f"fixture {fx.id}: transparent={json.dumps(named)} not declared{held}" in report.skipped, (
                report.skipped
            )
    assert "skipped" in report.fixtures.values() and "pass" in report.fixtures.values()


def test_a_black_maria_engine_with_only_target_100_runs_a_game_end() -> None:
    statuses = fixture_statuses(Declares("black-maria", target={"min": 100, "max": 100}), "black-maria")
    assert statuses["BM-end-at-100"] == "pass"
    assert statuses["BM-end"] == statuses["BM-tie"] == "skipped", "their small targets are not declared"
    assert statuses["BM-no-moon-shot"] == statuses["B-D2-standard"] == "pass", "they no longer name a target"


def test_every_bundled_fixture_holds_on_the_reference_under_every_variant() -> None:
    engine = CheckedEngine(ReferenceEngine())
    for game, declared in engine.hello()["games"].items():
        for fx in fixtures_for(game, declared):
            result = run_fixture(fx, engine, properties_for(game), Ledger(), lambda f, s: None)
            assert result.status == "pass", (fx.id, result.finding)


def test_the_plugin_runs_user_fixtures_too(tmp_path: Path) -> None:
    wrong_leader = {
        **FOLLOW,
        "id": "my-wrong-leader",
        "clauses": ["BM-DEAL-2"],  # its focus: the expectation below is its verdict
        "steps": [{"expect": {"state": {"dealer": 2}}, "clause": "BM-DEAL-2"}],
    }
    folder = user_dir(tmp_path, leader=wrong_leader)
    empty = tmp_path / "empty"
    empty.mkdir()
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(empty),
            "-n",
            "0",
            "-q",
            "--ruleproof",
            "--ruleproof-game",
            "black-maria",
            "--ruleproof-no-properties",
            "--ruleproof-fixtures",
            str(folder),
            "--ruleproof-traces",
            str(tmp_path / "traces"),
        ],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parent.parent,
        timeout=300,
        check=False,
    )
    assert run.returncode == 1
    assert "black-maria::BM-DEAL-2" in run.stdout and "[my-wrong-leader" in run.stdout
