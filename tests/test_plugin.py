"""The pytest plugin behaves like a pytest plugin (issue 24) and gives the CLI's verdicts (probe 14).

Items are collected from a real file (``ruleproof.toml`` next to the tests, or the ini file), with a
true count and node ids that ``-k`` and pytest's own node-id selection take; settings come from the
file, the ini file and the prefixed flags, in that order of strength; ``--strict-markers`` works with
and without pytest-xdist; failures point at the clause's line in docs/rules/GAME.md with the replay
command; the output files are those of ``ruleproof certify``, joined across xdist workers; under
xdist a game's shards are items the workers share out, with the certificate of ``--workers N``.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ruleproof.model.certificate import without_timings
from tests.cli_helpers import INPROC, PY, ROOT, run_main

pytest_plugins = ["pytester"]

# -- probe 14: the CLI and the plugin give one set of verdicts ---------------------------------------


def run_pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")  # not the kit's own configuration (-n 2, testpaths)
    return subprocess.run(
        [
            PY,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-c",
            str(tmp_path / "pytest.ini"),
            "--rootdir",
            str(tmp_path),
            "--ruleproof-traces",
            str(tmp_path / "traces"),
            *args,
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "200"},
        check=False,
    )


def test_probe14_engine_refusing_every_deal_fails_in_both(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    engine = f"{INPROC}:RefusesEveryDeal"
    status, out, _ = run_main(
        capsys,
        "certify",
        "--engine",
        engine,
        "--game",
        "black-maria",
        "--profile",
        "dev",
        "--traces",
        str(tmp_path / "t"),
    )
    assert status == 1, out[-3000:]
    proc = run_pytest(
        tmp_path, "--ruleproof-engine", engine, "--ruleproof-game", "black-maria", "--ruleproof-profile", "dev"
    )
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " failed" in proc.stdout.splitlines()[-1], proc.stdout[-1000:]


def test_probe14_a_failure_outside_the_table_gets_its_own_item(pytester: pytest.Pytester) -> None:
    # the runner is replaced by one reporting a failure under the engine's own clause ID NOPE-1
    pytester.makeconftest(
        """
import ruleproof.run.runner
from ruleproof.model.findings import Finding, Setup, Trace, Event
from ruleproof.model.report import Failure, GameReport
from ruleproof.properties import properties_for

def fake(engine, game, profile, **kw):
    clauses = {c: "pass" for c in properties_for(game).all_clauses()}
    trace = Trace(game, (Event("new_game", Setup(game, 3, 0, {}).to_json()),), Finding("NOPE-1", "refused"))
    finding = Finding("NOPE-1", "the engine refused every deal", "accepted", "refused")
    failure = Failure(finding, trace, "properties", True, 0.0)
    return GameReport(game, clauses={**clauses, "NOPE-1": "fail"}, failures=[failure], hits={c: 1 for c in clauses})

ruleproof.run.runner.certify_game = fake
"""
    )
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--ruleproof",
        "--ruleproof-game",
        "moon",
        "--ruleproof-traces",
        str(pytester.path / "traces"),
    )
    result.assert_outcomes(failed=1, passed=len(_moon_clauses()))
    result.stdout.fnmatch_lines(["*moon::certify*", "*NOPE-1*the engine refused every deal*"])


def _moon_clauses() -> list[str]:
    from ruleproof.properties import properties_for

    return list(properties_for("moon").all_clauses())


def test_plugin_options_are_prefixed_and_checked_like_the_cli(tmp_path: Path) -> None:
    proc = run_pytest(tmp_path, "--engine", "x:Y")
    assert proc.returncode == 4 and "unrecognized arguments: --engine" in proc.stderr, proc.stderr[-2000:]
    proc = run_pytest(tmp_path, "--ruleproof", "--ruleproof-timeout", "nan")
    assert proc.returncode == 4 and "--ruleproof-timeout: must be a positive, finite number" in proc.stderr, (
        proc.stderr[-2000:]
    )
    proc = run_pytest(tmp_path, "--ruleproof-engine-cmd", "")
    assert proc.returncode == 4 and "--ruleproof-engine-cmd is empty" in proc.stderr, proc.stderr[-2000:]
    proc = run_pytest(tmp_path, "--ruleproof-engine", f"{INPROC}:returns_42")
    assert proc.returncode == 4 and "--ruleproof-engine" in proc.stderr and "returned 42" in proc.stderr, proc.stderr[
        -2000:
    ]


def test_plugin_imports_nothing_heavy_at_start() -> None:
    code = (
        "import sys, ruleproof.cli.plugin; print(sorted(m for m in sys.modules"
        " if m.split('.')[0] in ('hypothesis', 'jsonschema_rs')"
        " or m.startswith(('ruleproof.run.runner', 'ruleproof.properties', 'ruleproof.reference'))))"
    )
    proc = subprocess.run([PY, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT, check=False)
    assert proc.stdout.strip() == "[]", proc.stdout + proc.stderr


def test_profile_names_match_the_runner() -> None:
    from ruleproof.cli.options import PROFILE_NAMES
    from ruleproof.run.runner import PROFILES

    assert set(PROFILE_NAMES) == set(PROFILES)


# -- pytest's manners (issue 24): a new user's project, run in a subprocess ----------------------------

SETTINGS = 'game = ["moon"]\nprofile = "dev"\nseed = 1\n'


def project(pytester: pytest.Pytester, settings: str = SETTINGS) -> None:
    """A user's project: ``tests/ruleproof.toml`` holding ``settings``; the kit's tests importable (for
    the gallery's engines), none of the kit's own pytest configuration."""
    pytester.mkdir("tests")
    (pytester.path / "tests" / "ruleproof.toml").write_text(settings, encoding="utf-8")
    pytester.makeini("[pytest]\n")
    os.environ.setdefault("PYTHONPATH", "")
    pytester._monkeypatch.setenv("PYTHONPATH", f"{ROOT}{os.pathsep}{os.environ['PYTHONPATH']}")


def moon_clauses(prefix: str = "") -> list[str]:
    return [c for c in _moon_clauses() if c.startswith(prefix)]


def test_items_come_from_ruleproof_toml_and_the_count_is_true(pytester: pytest.Pytester) -> None:
    project(pytester)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--collect-only", "-q")
    ids = [line for line in result.outlines if "::" in line]
    assert ids[0] == "tests/ruleproof.toml::moon::certify"
    assert ids[1:] == [f"tests/ruleproof.toml::moon::{c}" for c in moon_clauses()]
    result.stdout.fnmatch_lines([f"{len(ids)} tests collected*"])


def test_k_and_node_ids_select_clauses(pytester: pytest.Pytester) -> None:
    project(pytester)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-k", "MOON-BID")
    result.assert_outcomes(passed=len(moon_clauses("MOON-BID")))
    one = pytester.runpytest_subprocess("-p", "no:cacheprovider", "tests/ruleproof.toml::moon::MOON-BID-1")
    one.assert_outcomes(passed=1)


@pytest.mark.parametrize("xdist", [("-p", "no:xdist"), ("-n", "2")], ids=["without-xdist", "with-xdist"])
def test_strict_markers_work_with_and_without_xdist(pytester: pytest.Pytester, xdist: tuple[str, str]) -> None:
    project(pytester)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--strict-markers", *xdist, "-k", "MOON-BID")
    result.assert_outcomes(passed=len(moon_clauses("MOON-BID")))
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


def test_ini_settings_work_and_flags_override_them(pytester: pytest.Pytester) -> None:
    project(pytester, settings='game = ["moon"]\n')
    pytester.makeini("[pytest]\nruleproof_profile = dev\nruleproof_seed = 1\nruleproof_json = cert.json\n")
    pytester.runpytest_subprocess("-p", "no:cacheprovider", "-k", "MOON-BID-1").assert_outcomes(passed=1)
    cert = json.loads((pytester.path / "cert.json").read_text())
    assert (cert["profile"], cert["seed"]) == ("dev", 1)
    again = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-k", "MOON-BID-1", "--ruleproof-seed", "2")
    again.assert_outcomes(passed=1)
    assert json.loads((pytester.path / "cert.json").read_text())["seed"] == 2


def test_a_failing_clause_points_at_its_rule_and_the_files_are_written(pytester: pytest.Pytester) -> None:
    project(pytester, SETTINGS + 'engine = "tests.mutants.moon:OvertricksScored.engine"\n')
    files = {name: pytester.path / name for name in ("cert.json", "junit.xml", "report.html", "summary.md")}
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "-k",
        "MOON-SCORE-1",
        *("--ruleproof-json", str(files["cert.json"]), "--ruleproof-junit", str(files["junit.xml"])),
        *("--ruleproof-html", str(files["report.html"]), "--ruleproof-summary", str(files["summary.md"])),
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*docs/rules/moon.md:*: MOON-SCORE-1", "*rule: *", "*the table after step*", "*replay: ruleproof replay *"]
    )
    assert all(path.is_file() for path in files.values())
    assert json.loads(files["cert.json"].read_text())["games"]["moon"]["clauses"]["MOON-SCORE-1"]["status"] == "fail"


def test_xdist_workers_parts_are_joined_into_one_certificate(pytester: pytest.Pytester) -> None:
    project(pytester, 'game = ["moon", "fool"]\nprofile = "dev"\nseed = 1\njson = "cert.json"\n')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "--dist", "loadgroup")
    assert result.ret == 0, result.stdout.str()[-2000:]
    cert = json.loads((pytester.path / "tests" / "cert.json").read_text())  # next to the file naming it
    assert sorted(cert["games"]) == ["fool", "moon"] and cert["verdict"] == "pass"


def test_workers_explore_a_games_shards_in_local_processes_with_the_same_certificate(
    pytester: pytest.Pytester,
) -> None:
    # dev has two shards: --ruleproof-workers 2 explores them in two processes, as ruleproof certify
    # --workers 2 does; a failing engine, so the merged counterexamples are compared too
    project(pytester, SETTINGS + 'engine = "counted:engine"\n')
    pytester.makepyfile(  # the mutant, each process that opens it named in a file
        counted="import os\nfrom tests.mutants.moon import OvertricksScored\n\n\ndef engine():\n"
        "    with open(os.environ['OPENED'], 'a') as f:\n        f.write(f'{os.getpid()}\\n')\n"
        "    return OvertricksScored.engine()\n"
    )
    pytester._monkeypatch.setenv("PYTHONPATH", f"{pytester.path}{os.pathsep}{os.environ['PYTHONPATH']}")
    certificates, opened = [], []
    for workers in ("1", "2"):
        cert, log = pytester.path / f"cert-{workers}.json", pytester.path / f"opened-{workers}"
        pytester._monkeypatch.setenv("OPENED", str(log))
        result = pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "--ruleproof-workers", workers, "--ruleproof-json", str(cert)
        )
        assert result.ret == 1, result.stdout.str()[-2000:]
        certificates.append(without_timings(json.loads(cert.read_text())))
        opened.append(len(set(log.read_text().split())))
    assert certificates[0]["games"]["moon"]["clauses"]["MOON-SCORE-1"]["status"] == "fail"
    assert certificates[0] == certificates[1]
    assert opened == [1, 3]  # the session's engine, then two workers' of their own
    bad = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--ruleproof-workers", "0")
    # read with the settings file, so a collection error: one line naming the flag, no traceback
    assert bad.ret == pytest.ExitCode.INTERRUPTED, bad.stdout.str()[-2000:]
    bad.stdout.fnmatch_lines(["ruleproof: --ruleproof-workers: 0 is not between 1 and 64"])
    assert "plugin.py" not in bad.stdout.str()


# -- under pytest-xdist a game's shards are work items (issue 30) ------------------------------------

MUTANT = "tests.mutants.moon:OvertricksScored.engine"  # fails MOON-SCORE-1 (and -2 after it)


def test_xdist_spreads_a_games_shards_with_the_certificate_of_workers_n(
    pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    """``-n 2`` on one game: its two shards (dev) explored on both workers, merged once, the clause
    items failing as the certificate says, and the certificate of ``ruleproof certify --workers 2``."""
    import xml.etree.ElementTree as ET

    project(pytester, SETTINGS + f'engine = "{MUTANT}"\n')
    plugin, junit = pytester.path / "plugin.json", pytester.path / "junit.xml"
    # A worker that starts late on a loaded machine finds both shards taken by the other (which is
    # right: nobody waits on a worker not there yet); only two runs in a row of that would be a fault.
    for _ in range(2):
        result = pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "-n", "2", "-rf", "--junitxml", str(junit),
            "--ruleproof-json", str(plugin), "--ruleproof-traces", str(pytester.path / "traces"),
        )  # fmt: skip
        cases = {c.get("name"): c for c in ET.parse(junit).getroot().iter("testcase")}
        shards = {name: case for name, case in cases.items() if str(name).startswith("shard[")}
        assert sorted(shards) == ["shard[1/2]", "shard[2/2]"], sorted(cases)
        explored = {
            p.get("value") for case in shards.values() for p in case.iter("property") if p.get("name") == "explored_on"
        }
        if explored == {"gw0", "gw1"}:
            break
    assert explored == {"gw0", "gw1"}, "each worker explored one of the shards"
    cli = pytester.path / "cli.json"
    run_main(capsys, "certify", "--engine", MUTANT, "--game", "moon", "--profile", "dev", "--seed", "1",
             "--workers", "2", "--json", str(cli), "--traces", str(pytester.path / "cli-traces"))  # fmt: skip
    mine = json.loads(plugin.read_text().replace(str(pytester.path / "traces"), "TRACES"))
    theirs = json.loads(cli.read_text().replace(str(pytester.path / "cli-traces"), "TRACES"))
    assert without_timings(mine) == without_timings(theirs)
    failing = sorted(c for c, v in theirs["games"]["moon"]["clauses"].items() if v["status"] == "fail")
    assert "MOON-SCORE-1" in failing
    failed = sorted(line.split(" ")[1].rsplit("::", 1)[1] for line in result.outlines if line.startswith("FAILED "))
    assert failed == failing, result.stdout.str()[-3000:]
    result.assert_outcomes(failed=len(failing), passed=len(cases) - len(failing) - 1, skipped=1)  # MOON-INV-10: covered


CRASHING = """
import os
from tests.mutants.moon import OvertricksScored


class Crashing:
    \"\"\"The mutant, but the first worker to make its 300th move dies there (once: its successor lives).\"\"\"

    def __init__(self):
        self.inner, self.moves = OvertricksScored.engine(), 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def apply(self, move):
        self.moves += 1
        if self.moves == 300:
            try:
                os.close(os.open(os.environ["CRASHED"], os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                pass
            else:
                os._exit(3)
        return self.inner.apply(move)


def engine():
    return Crashing()
"""


def test_a_worker_going_down_with_a_shard_fails_the_waiting_items_in_a_line(pytester: pytest.Pytester) -> None:
    project(pytester, SETTINGS + 'engine = "crashing:engine"\n')
    pytester.makepyfile(crashing=CRASHING)
    pytester._monkeypatch.setenv("PYTHONPATH", f"{pytester.path}{os.pathsep}{os.environ['PYTHONPATH']}")
    pytester._monkeypatch.setenv("CRASHED", str(pytester.path / "crashed"))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "-rf", timeout=300)
    assert (pytester.path / "crashed").exists(), "a worker went down"
    text = result.stdout.str()
    assert result.ret == pytest.ExitCode.TESTS_FAILED, text[-3000:]
    result.stdout.fnmatch_lines(["*not judged: worker gw* went down while exploring moon::shard[[]*/2[]]*"])
    assert "INTERNALERROR" not in text


def test_deselected_shard_items_are_explored_by_the_clause_items_that_need_them(pytester: pytest.Pytester) -> None:
    project(pytester)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "-k", "MOON-BID-1 or MOON-LEAD-1")
    result.assert_outcomes(passed=2)


def test_the_workers_explore_from_the_one_seed_the_controller_draws(pytester: pytest.Pytester) -> None:
    """dev draws a seed when none is given: every worker's shard must explore from the same one (merge
    refuses parts of two seeds), and the certificate records it."""
    project(pytester, 'game = ["moon"]\nprofile = "dev"\njson = "cert.json"\n')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "-k", "shard or MOON-BID-1")
    result.assert_outcomes(passed=3)
    cert = json.loads((pytester.path / "tests" / "cert.json").read_text())
    assert isinstance(cert["seed"], int) and cert["games"]["moon"]["stats"]["shards"] == 2


ELSEWHERE = """
import pytest


@pytest.hookimpl(trylast=True)
def pytest_configure_node(node):  # as a worker on another machine sees it: no such folder there
    node.workerinput["ruleproof_shards"] = node.workerinput["ruleproof_shards"] + "-elsewhere"
"""


def test_a_worker_that_cannot_see_the_shared_folder_says_so_in_a_line(pytester: pytest.Pytester) -> None:
    project(pytester)
    pytester.makeconftest(ELSEWHERE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", timeout=120)
    assert result.ret != pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["ruleproof: xdist worker gw* does not see the controller's folder *: set TMPDIR*"])
    assert "plugin.py" not in result.stdout.str()


def test_a_game_merged_by_a_worker_that_went_down_later_stays_in_the_joined_certificate(tmp_path: Path) -> None:
    from ruleproof.cli.plugin import SHARDS_FOLDER, _join_parts
    from ruleproof.model.certificate import Certificate
    from ruleproof.model.report import GameReport

    def cert(game: str) -> dict[str, Any]:
        report = GameReport(game, clauses={"X": "pass"})
        return Certificate({"name": "e", "version": "1"}, "dev", 1, (report,)).to_json()

    folder, out = tmp_path / "parts", tmp_path / "cert.json"
    (folder / SHARDS_FOLDER / "fool").mkdir(parents=True)
    (folder / "gw0.json").write_text(json.dumps({"settings": {"json": str(out)}, "certificate": cert("moon")}))
    (folder / SHARDS_FOLDER / "fool" / "merged.json").write_text(json.dumps(cert("fool")))  # gw1's part: lost
    _join_parts(folder)
    assert sorted(json.loads(out.read_text())["games"]) == ["fool", "moon"]
    assert not folder.exists()


# -- pytest's manners (issue 30): the message, warnings, the ini file, paths, JUnit names --------------

FAKE_PARTIAL = """
import ruleproof.run.runner
from ruleproof.model.report import GameReport
from ruleproof.properties import properties_for

def fake(engine, game, profile, **kw):
    clauses = {c: "pass" for c in properties_for(game).all_clauses()}
    clauses["MOON-SCORE-1"] = "partial"
    situations = {"MOON-SCORE-1": {"made exactly": 3, "made with overtricks": 0, "failed": 2}}
    return GameReport(game, clauses=clauses, hits={c: 1 for c in clauses}, situations=situations)

ruleproof.run.runner.certify_game = fake
"""


def junit_cases(path: Path) -> dict[tuple[str, str], str | None]:
    """(classname, name) -> the failure's message (None: no failure)."""
    import xml.etree.ElementTree as ET

    cases = ET.parse(path).getroot().iter("testcase")
    return {(c.get("classname", ""), c.get("name", "")): _message(c) for c in cases}


def _message(case: Any) -> str | None:
    failure = case.find("failure")
    return None if failure is None else failure.get("message")


@pytest.mark.parametrize("xdist", [("-p", "no:xdist"), ("-n", "2")], ids=["without-xdist", "with-xdist"])
def test_the_failure_is_the_first_line_of_the_summary_and_of_junit_named_as_the_cli_names_it(
    pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str], xdist: tuple[str, str]
) -> None:
    mutant = "tests.mutants.moon:OvertricksScored.engine"
    project(pytester, SETTINGS + f'engine = "{mutant}"\n')
    pytester._monkeypatch.setenv("COLUMNS", "300")  # the short summary cuts its lines to the terminal
    plugin, cli = pytester.path / "plugin.xml", pytester.path / "cli.xml"
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", *xdist, "-rf", "-k", "MOON-SCORE-1 or MOON-BID-1", "--junitxml", str(plugin)
    )
    result.assert_outcomes(failed=1, passed=1)
    headline = "MOON-SCORE-1: the declarer bid 4 and took 7: made, scores the bid exactly (expected 4, got 7)"
    summary = [line for line in result.outlines if line.startswith("FAILED ")]
    assert summary == [f"FAILED tests/ruleproof.toml::moon::MOON-SCORE-1 - {headline}"]
    cases = junit_cases(plugin)
    assert cases[("ruleproof.moon", "MOON-SCORE-1")] == headline or not xdist[1].startswith("no:")
    assert str(cases[("ruleproof.moon", "MOON-SCORE-1")]).startswith(headline)  # xdist sends the text whole
    assert cases[("ruleproof.moon", "MOON-BID-1")] is None
    status, _, err = run_main(capsys, "certify", "--engine", mutant, "--game", "moon", "--profile", "dev",
                              "--seed", "1", "--junit", str(cli), "--traces", str(pytester.path / "t"))  # fmt: skip
    assert status == 1, err[-3000:]
    assert set(cases) <= set(junit_cases(cli)), "the plugin's cases are named as the command's"


def test_partial_is_a_warning_of_its_own_that_filters_take_and_error_fails_in_a_line(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(FAKE_PARTIAL)
    pytester._monkeypatch.setenv("COLUMNS", "300")
    base = ("-p", "no:cacheprovider", "--ruleproof", "--ruleproof-game", "moon", "-k", "MOON-SCORE-1")
    shown = pytester.runpytest_subprocess(*base)
    shown.assert_outcomes(passed=1, warnings=1)
    shown.stdout.fnmatch_lines(["*RuleproofPartialWarning: moon::MOON-SCORE-1 partial: never reached made with*"])
    quiet = pytester.runpytest_subprocess(*base, "-W", "error", "-W", "ignore::ruleproof.RuleproofPartialWarning")
    quiet.assert_outcomes(passed=1)
    for strict in (("-W", "error"), ("-W", "error::ruleproof.RuleproofPartialWarning")):
        failed = pytester.runpytest_subprocess(*base, *strict, "-rf")
        failed.assert_outcomes(failed=1)
        failed.stdout.fnmatch_lines(["FAILED *MOON-SCORE-1 - moon::MOON-SCORE-1 partial: never reached made with*"])
        text = failed.stdout.str() + failed.stderr.str()
        assert "Traceback" not in text and "plugin.py" not in text and "INTERNALERROR" not in text


def test_an_engine_in_the_ini_file_is_enough(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nruleproof_engine = tests.mutants.moon:OvertricksScored.engine\nruleproof_game = moon\n")
    pytester._monkeypatch.setenv("PYTHONPATH", f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--collect-only", "-q")
    ids = [line for line in result.outlines if "::" in line]
    assert ids[0] == "tox.ini::moon::certify" and len(ids) == 1 + len(moon_clauses()), result.outlines[-5:]


def test_paths_are_relative_to_the_file_naming_them(pytester: pytest.Pytester) -> None:
    """``expect`` in tests/ruleproof.toml is tests/expect.toml from the root and from tests/; ``json``
    in the ini file lands next to it, wherever pytest starts."""
    pytester.makeconftest(FAKE_PARTIAL)
    project(pytester, 'game = ["moon"]\nexpect = "expect.toml"\n')
    (pytester.path / "tests" / "expect.toml").write_text('[moon]\nMOON-BID-1 = "a house rule"\n', encoding="utf-8")
    pytester.makeini("[pytest]\nruleproof_json = cert.json\n")
    for where in (pytester.path, pytester.path / "tests"):
        pytester._monkeypatch.chdir(where)
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-k", "MOON-BID-1", str(pytester.path))
        result.assert_outcomes(failed=1)  # the listed clause passed: a strict xfail's XPASS, so it was read
        result.stdout.fnmatch_lines(["*XPASS(strict)*a house rule*"])
        cert = pytester.path / "cert.json"
        assert json.loads(cert.read_text())["expect"].endswith("tests/expect.toml")
        cert.unlink()


def test_a_state_machines_failure_shows_neither_the_kits_frames_nor_the_whole_deal(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_machine="import ruleproof.stateful\nfrom hypothesis import settings\n"
        "from tests.mutants.black_maria import PassLeft\n"
        "quick = settings(ruleproof.stateful.default_settings('black-maria'), max_examples=20, database=None,"
        " derandomize=True)\n"
        "TestBM = ruleproof.stateful.machine('black-maria', PassLeft.engine, settings=quick).TestCase\n"
    )
    pytester._monkeypatch.setenv("PYTHONPATH", f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:xdist")
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "ruleproof/stateful.py" not in text and "_raise_first" not in text
    result.stdout.fnmatch_lines(["*ClauseViolated[[]BM-PASS-1[]]*", "*Draw 2 (deal): <51 in a drawn order: * …>"])
    # The failure itself, not pytest's summary: under CI pytest repeats the whole message there and
    # Hypothesis's "ci" profile adds the @reproduce_failure blob.
    failure = text.split("short test summary info")[0]
    assert len(failure.splitlines()) < 70, text
