"""Certificate format 2 (``ruleproof.model.traces``): traces once per game, states as diffs, exactly undone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ruleproof.cli import main
from ruleproof.model.certificate import CERTIFICATE_FORMAT, Certificate
from ruleproof.model.schema import validator
from ruleproof.model.traces import diff, pack, pack_states, patch, same, unpack, unpack_states
from tests.report_samples import certificate, played_failure

MUTANT = "tests.mutants.black_maria:PassLeft.engine"

# JSON values: what a state, a move or a certificate is made of (no NaN: JSON has none)
scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=4), inner, max_size=6)
)


def text(value: Any) -> str:
    return json.dumps(value)  # key order and 1 / 1.0 / true told apart


@given(values, values)
def test_a_diff_patched_onto_its_first_value_gives_the_second_exactly(a: Any, b: Any) -> None:
    d = diff(a, b)
    assert text(patch(a, d)) == text(b)
    assert json.loads(json.dumps(d)) == d  # a diff is JSON
    assert (d == {}) == same(a, b)


@given(st.lists(values, max_size=8))
def test_states_packed_unpack_to_themselves(states: list[Any]) -> None:
    packed = pack_states(states)
    assert len(packed) == len(states)
    assert text(unpack_states(json.loads(json.dumps(packed)))) == text(states)


@given(values, st.lists(st.integers(0, 9), max_size=12), st.lists(st.integers(0, 9), max_size=12))
def test_lists_that_share_a_run_round_trip(common: Any, a: list[int], b: list[int]) -> None:
    """Lists with long equal runs: the splice-and-patch form, not only the whole value."""
    before, after = [*a, common, *a, 7], [*b, common, *a, 8]
    assert text(patch(before, diff(before, after))) == text(after)


def test_a_diff_names_only_what_changed() -> None:
    hand = ["2C", "3C", "QS", "AH", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD"]
    a = {"zones": {"hand/0": hand, "hand/1": hand[4:], "trick": []}, "to_act": 0}
    b = {"zones": {"hand/0": [c for c in hand if c != "QS"], "hand/1": hand[4:], "trick": ["QS"]}, "to_act": 1}
    assert diff(a, b) == {"set": {"zones": {"set": {"hand/0": {"splice": [[2, 1, []]]}, "trick": {"is": ["QS"]}}},
                                  "to_act": {"is": 1}}}  # fmt: skip
    assert diff({"to_act": 0}, {"to_act": 1}) == {"is": {"to_act": 1}}  # shorter whole: given whole
    assert diff(a, a) == {}
    assert diff(1, True) == {"is": True} and diff(1, 1.0) == {"is": 1.0}
    moved = {"to_act": 0, "zones": a["zones"]}  # the same keys in another order: given whole
    assert diff(a, moved) == {"is": moved}


def sample(failures: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps({"ruleproof_certificate": 1, **certificate(failures)}))


@pytest.fixture(scope="module")
def plain() -> dict[str, Any]:
    """A format 1 certificate with real engine states, one failure per game."""
    return sample({game: played_failure(game, 30) for game in ("black-maria", "moon", "fool", "idiot")})


def test_a_certificate_packed_unpacks_to_itself_and_is_smaller(plain: dict[str, Any]) -> None:
    packed = pack(plain)
    assert packed["ruleproof_certificate"] == CERTIFICATE_FORMAT == 2
    assert text(unpack(packed)) == text(plain)
    assert text(unpack(json.loads(json.dumps(packed)))) == text(plain)
    for game, data in packed["games"].items():
        (failure,) = data["failures"]
        assert "trace" not in failure and "states" not in failure
        entry = data["traces"][failure["trace_id"]]
        assert entry["trace"] == plain["games"][game]["failures"][0]["trace"]
        assert entry["states"][0] == {"is": plain["games"][game]["failures"][0]["states"][0]}  # the first whole
    assert len(json.dumps(packed)) < len(json.dumps(plain)) / 3
    assert unpack(plain) == plain and pack(packed) == packed  # each only ever undoes the other


def test_a_trace_several_failures_share_is_stored_once(plain: dict[str, Any]) -> None:
    twice = json.loads(json.dumps(plain))
    first = twice["games"]["moon"]["failures"][0]
    twice["games"]["moon"]["failures"].append({**first, "clause": "MOON-PLAY-1", "message": "another clause"})
    packed = pack(twice)
    moon = packed["games"]["moon"]
    assert len(moon["traces"]) == 1
    assert moon["failures"][0]["trace_id"] == moon["failures"][1]["trace_id"]
    assert text(unpack(packed)) == text(twice)
    other = sample({"moon": played_failure("moon", 30, seed=2)})  # another game played: another key
    assert set(pack(other)["games"]["moon"]["traces"]).isdisjoint(moon["traces"])


def test_the_schema_validates_both_formats_and_refuses_a_wrong_diff(plain: dict[str, Any]) -> None:
    v = validator("certificate")
    packed = pack(plain)
    assert v.is_valid(plain) and v.is_valid(packed)
    wrong = json.loads(json.dumps(packed))
    entry = next(iter(wrong["games"]["fool"]["traces"].values()))
    entry["states"][1] = {"replace": 1}
    assert not v.is_valid(wrong)
    neither = json.loads(json.dumps(packed))
    del neither["games"]["fool"]["failures"][0]["trace_id"]  # no trace, no trace_id
    assert not v.is_valid(neither)


def test_format_1_is_still_read_as_format_2_is(plain: dict[str, Any]) -> None:
    """Baselines, merges and the pytest plugin read certificates through ``Certificate.from_json``."""
    old, new = Certificate.from_json(plain), Certificate.from_json(pack(plain))
    assert old == new
    assert old.plain_json()["games"]["idiot"]["failures"] == plain["games"]["idiot"]["failures"]
    assert new.reports[0].failures[0].states == tuple(plain["games"]["black-maria"]["failures"][0]["states"])


@pytest.fixture(scope="module")
def certified(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A format 2 certificate of a mutant (fixtures only: seconds), written by certify."""
    folder = tmp_path_factory.mktemp("certified")
    status = main(
        ["certify", "--game", "black-maria", "--engine", MUTANT, "--profile", "dev", "--no-properties", "--quiet",
         "--json", str(folder / "cert.json"), "--traces", str(folder / "traces")]
    )  # fmt: skip
    assert status == 1
    return folder / "cert.json"


def test_certify_writes_format_2_that_round_trips(certified: Path) -> None:
    data = json.loads(certified.read_text(encoding="utf-8"))
    assert data["ruleproof_certificate"] == 2 and validator("certificate").is_valid(data)
    game = data["games"]["black-maria"]
    assert game["traces"] and all(f["trace_id"] in game["traces"] for f in game["failures"])
    assert text(pack(unpack(data))) == text(data)
    read = Certificate.from_json(data).plain_json()["games"]["black-maria"]["failures"]
    whole = unpack(data)["games"]["black-maria"]["failures"]
    assert [(f["trace"], f["states"]) for f in read] == [(f["trace"], f["states"]) for f in whole]


def test_replay_from_a_format_2_certificate(certified: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["replay", str(certified), "--clause", "BM-PASS-1", "--engine", MUTANT]) == 1
    assert "still FAILED BM-PASS-1" in capsys.readouterr().out
    assert main(["replay", str(certified), "--clause", "BM-PASS-1"]) == 0  # the reference: fixed
    assert "FIXED" in capsys.readouterr().out
    clauses = {f["clause"] for f in json.loads(certified.read_text())["games"]["black-maria"]["failures"]}
    if len(clauses) == 1:  # its only failing clause needs no naming
        assert main(["replay", str(certified), "--engine", MUTANT]) == 1
    capsys.readouterr()
    assert main(["replay", str(certified), "--clause", "BM-LEAD-9", "--engine", MUTANT]) == 2
    err = capsys.readouterr().err
    assert "no counterexample of BM-LEAD-9" in err and "BM-PASS-1" in err and "Traceback" not in err


def test_the_file_is_indented_but_each_trace_is_one_line(plain: dict[str, Any]) -> None:
    """``--json``: a person reads the file indented; the counterexamples, most of it, one line each."""
    from ruleproof.output.files import certificate_text

    packed = pack(plain)
    written = certificate_text(packed)
    assert json.loads(written) == packed and written.endswith("}\n")
    lines = written.splitlines()
    for data in packed["games"].values():
        for key, entry in data["traces"].items():
            line = next(x for x in lines if x.lstrip().startswith(f'"{key}": '))
            assert json.loads(line.split(": ", 1)[1].rstrip(",")) == entry
    assert any(line.startswith('  "') for line in lines)  # the rest indented
    assert len(written) < len(json.dumps(packed, indent=1)) * 0.8
