"""``ruleproof matrix``: a passing, a failing and two broken engines in one small matrix (dev profile,
Black Maria), each in the right column; the summary and badges agree with the certificates; bad
ENGINES.toml lines are one line and exit 2; --previous gives what was fixed and regressed; and the
site, hostile engine names included, reads and links in a real browser at 1300x900."""

from __future__ import annotations

import html
import json
import re
import shlex
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from ruleproof.output.matrix import schema_errors
from ruleproof.run.matrix import CELL, NOT_COUNTED, history
from tests.browser import launched
from tests.cli_helpers import BROKEN, INPROC, PY, ROOT, one_line_error, run_main

pytestmark = pytest.mark.xdist_group("matrix")  # one worker certifies the matrix once and starts one browser

HOSTILE = '<script>window.pwned=1</script> "pass" & <img src=x onerror=alert(1)>'
ENGINES = f"""
[[engine]]
name = "reference"
homepage = "https://example.org/ref?a=1&b=2"
engine = "ruleproof.reference:ReferenceEngine"
games = ["black-maria"]

[[engine]]
name = {json.dumps(HOSTILE)}
engine = "tests.independent.black_maria:bugs.pass_left"
games = ["black-maria"]

[[engine]]
name = "hangs"
engine_cmd = {json.dumps(shlex.join([PY, str(BROKEN / "hangs.py")]))}
games = ["black-maria"]
timeout = 1

[[engine]]
name = "no licence"
engine = "{INPROC}:raises"
games = ["black-maria"]
"""


def previous_summary() -> dict[str, Any]:
    """A previous run in which the reference failed BM-WIN-1 and the failing engine passed BM-PASS-1."""

    def engine(name: str, slug: str, clauses: dict[str, str]) -> dict[str, Any]:
        column = {"verdict": "fail", "title": "Black Maria", "rules": [], "clauses": clauses, "counts": {},
                  "passed": 0, "total": 0, "badge": f"badges/{slug}-black-maria.svg"}  # fmt: skip
        return {"name": name, "slug": slug, "verdict": "fail", "page": f"engines/{slug}/index.html",
                "games": {"black-maria": column}}  # fmt: skip

    return {
        "ruleproof_matrix": 1,
        "profile": "dev",
        "games": ["black-maria"],
        "engines": [
            engine("reference", "reference", {"BM-WIN-1": "fail", "BM-LEAD-1": "pass"}),
            engine(HOSTILE, "script-window-pwned-1-script-pass-img", {"BM-PASS-1": "pass", "BM-WIN-1": "pass"}),
        ],
    }


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("matrix")
    (folder / "ENGINES.toml").write_text(ENGINES, encoding="utf-8")
    (folder / "previous.json").write_text(json.dumps(previous_summary()), encoding="utf-8")
    from ruleproof.cli import main

    status = main(["matrix", str(folder / "ENGINES.toml"), "-o", str(folder / "site"), "--profile", "dev",
                   "--previous", str(folder / "previous.json"), "--quiet"])  # fmt: skip
    assert status == 0
    return folder / "site"


@pytest.fixture(scope="module")
def summary(site: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((site / "matrix.json").read_text(encoding="utf-8"))
    return data


def by_name(summary: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {e["name"]: e for e in summary["engines"]}


def test_each_engine_gets_its_column(summary: dict[str, Any]) -> None:
    engines = by_name(summary)
    assert list(engines) == ["reference", HOSTILE, "hangs", "no licence"]  # ENGINES.toml's order
    assert engines["reference"]["verdict"] == "pass" and engines["reference"]["reason"] is None
    failing = engines[HOSTILE]
    assert failing["verdict"] == "fail" and failing["games"]["black-maria"]["clauses"]["BM-PASS-1"] == "fail"
    hung = engines["hangs"]
    assert hung["verdict"] == "broken" and "timeout" in hung["reason"], hung["reason"]
    assert hung["certificate"] is not None  # the engine started: its certificate says where it broke
    dead = engines["no licence"]
    assert dead["verdict"] == "broken" and "licence file is missing" in dead["reason"]
    assert dead["certificate"] is None and dead["games"]["black-maria"]["verdict"] == "broken"


def test_the_summary_matches_its_schema_and_a_wrong_one_does_not(summary: dict[str, Any]) -> None:
    assert schema_errors(summary) == []
    wrong = json.loads(json.dumps(summary))
    wrong["engines"][0]["games"]["black-maria"]["clauses"]["BM-WIN-1"] = "great"
    wrong["engines"][1]["verdict"] = "meh"
    problems = schema_errors(wrong)
    assert len(problems) == 2 and any("BM-WIN-1" in p for p in problems) and any("verdict" in p for p in problems)


def test_the_summary_and_the_badges_agree_with_the_certificates(site: Path, summary: dict[str, Any]) -> None:
    for engine in summary["engines"]:
        column = engine["games"]["black-maria"]
        svg = ET.fromstring((site / column["badge"]).read_text(encoding="utf-8"))  # well-formed, names escaped
        texts = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
        title = svg.find("{http://www.w3.org/2000/svg}title")
        assert title is not None and title.text is not None and title.text.startswith(engine["name"])
        if engine["certificate"] is None:
            assert texts == ["black-maria", "broken"]
            continue
        cert = json.loads((site / engine["certificate"]).read_text(encoding="utf-8"))
        statuses = {c: e["status"] for c, e in cert["games"]["black-maria"]["clauses"].items()}
        assert column["clauses"] == {c: CELL.get(s, s) for c, s in statuses.items()}
        passed = sum(s == "pass" for s in statuses.values())
        total = sum(s not in NOT_COUNTED for s in statuses.values())
        assert (column["passed"], column["total"]) == (passed, total)
        assert column["title"] == cert["games"]["black-maria"]["title"]
        assert texts == ["black-maria", f"{passed}/{total}" if engine["verdict"] != "broken" else "broken"]
        assert engine["engine"] == cert["engine"]
    reference = by_name(summary)["reference"]["games"]["black-maria"]
    # at dev the reference reaches only some pairs of the house rules it declares: those are partial
    partial = sum(cell == "partial" for cell in reference["clauses"].values())
    assert reference["passed"] + partial == reference["total"] > 30


def test_history_names_what_was_fixed_and_what_regressed(summary: dict[str, Any]) -> None:
    engines = by_name(summary)
    assert summary["previous"].endswith("previous.json")
    assert engines["reference"]["history"] == {"black-maria": {"was": "fail", "fixed": ["BM-WIN-1"], "regressed": []}}
    assert engines[HOSTILE]["history"]["black-maria"]["regressed"] == ["BM-PASS-1"]
    assert "history" not in engines["hangs"]  # not in the previous run: new to the matrix
    # the function alone: a declared deviation is neither fixed nor a regression
    now = {"engines": [{"name": "e", "games": {"fool": {"clauses": {"A": "declared", "B": "pass", "C": "xpass"}}}}]}
    before = {"engines": [{"name": "e", "games": {"fool": {"verdict": "fail", "clauses": {"A": "pass", "B": "xpass",
                                                                                         "C": "pass"}}}}]}  # fmt: skip
    assert history(now, before) == {"e": {"fool": {"was": "fail", "fixed": ["B"], "regressed": ["C"]}}}


def test_engine_strings_are_escaped_everywhere(site: Path) -> None:
    pages = [*site.glob("*.html"), *site.glob("engines/*/index.html"), *site.glob("badges/*.svg")]
    assert len(pages) == 2 + 4 + 4  # the overview and the game; each engine page; each badge
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "<script" not in text and "<img src=x" not in text, page
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in index and "&lt;img src=x onerror=alert(1)&gt;" in index
    ref = (site / "engines" / "reference" / "index.html").read_text(encoding="utf-8")
    assert 'href="https://example.org/ref?a=1&amp;b=2"' in ref


def test_the_failing_engines_page_has_its_report_certificate_and_replay(site: Path, summary: dict[str, Any]) -> None:
    failing = by_name(summary)[HOSTILE]
    folder = site / "engines" / failing["slug"]
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert 'href="report.html"' in page and 'href="certificate.json"' in page
    (replay,) = re.findall(r"<code>(ruleproof replay [^<]*)</code>", page)
    argv = shlex.split(html.unescape(replay))
    assert Path(argv[2]).is_file() and argv[3:] == ["--engine", "tests.independent.black_maria:bugs.pass_left"]
    assert "BM-PASS-1" in (folder / "report.html").read_text(encoding="utf-8")


BAD = [
    ('[[engine]]\nname = "a"\nengine = "m:f"\ngames = ["black-maria"]\ncolour = "red"\n', ":5:", "engine[1].colour"),
    ('[[engine]]\nname = "a"\nengine = "m:f"\ngames = ["black-maria"]\noptions = {pass = "left"}\n', ":5:",
     "cannot restrict the options"),
    ('[[engine]]\nengine = "m:f"\ngames = ["black-maria"]\n', ":1:", "engine[1].name: missing"),
    ('[[engine]]\nname = "a"\nengine = "m:f"\nengine_cmd = "x"\ngames = ["moon"]\n', ":1:", "give one of engine"),
    ('[[engine]]\nname = "a"\nengine = "m:f"\ngames = ["moon"]\n\n[[engine]]\nname = "b"\nengine = "m:f"\n'
     'games = ["chess"]\n', ":9:", "engine[2].games: unknown game 'chess'"),
    ('[[engine]]\nname = "a"\nengine = "m:f"\ngames = ["moon"]\n[[engine]]\nname = "a"\nengine = "m:g"\n'
     'games = ["moon"]\n', ":6:", "listed twice"),
    ('[[engine]]\nname = "a"\nengine = "m:f"\ngames = ["moon"]\ntimeout = -3\n', ":5:", "engine[1].timeout"),
    ('[[engine]]\nname = "a"\nengine = "m:f"\ngames = ["moon"]\nhomepage = "javascript:alert(1)"\n', ":5:",
     "not an http"),
    ('[[engine]]\nname = "a"\nengine = "m:f"\ngames = ["moon"]\nexpect = "nope.toml"\n', ":5:", "no such file"),
    ('[[engine]]\nname = "a"\ngames = "moon"\n', ":1:", "give one of engine"),
    ('[[engine]]\nname = "a"\nengine = "m:f"\ngames = "moon"\n', ":4:", "engine[1].games"),
    ('[[engine]]\nname = "bell\\u0007"\nengine = "m:f"\ngames = ["moon"]\n', ":2:", "control character"),
    ('[engine]\nname = "a"\n', ":1:", "no engine"),
    ('title = "x"\n', ":1:", "title: unknown key"),
    ('[[engine]\nname = "a"\n', "not TOML", "line 1"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "where", "what"), BAD, ids=[b[2][:30] for b in BAD])
def test_a_bad_engines_file_is_one_line_naming_the_line_and_key(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, where: str, what: str
) -> None:
    path = tmp_path / "ENGINES.toml"
    path.write_text(text, encoding="utf-8")
    status, _, err = run_main(capsys, "matrix", str(path), "-o", str(tmp_path / "site"))
    assert status == 2, err
    one_line_error(err, f"{path}", where, what)
    assert not (tmp_path / "site").exists()  # nothing started, nothing written


def test_a_bad_expectations_file_or_previous_summary_stops_it_before_any_engine(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "expect.toml").write_text('[black-maria]\nBM-NOPE-9 = "x"\n', encoding="utf-8")
    path = tmp_path / "ENGINES.toml"
    path.write_text('[[engine]]\nname = "a"\nengine = "m:f"\ngames = ["moon"]\nexpect = "expect.toml"\n', "utf-8")
    status, _, err = run_main(capsys, "matrix", str(path), "-o", str(tmp_path / "site"))
    assert status == 2
    one_line_error(err, "engine 'a' (line 1)", "BM-NOPE-9")
    path.write_text('[[engine]]\nname = "a"\nengine = "m:f"\ngames = ["moon"]\n', "utf-8")
    (tmp_path / "prev.json").write_text('{"engines": 3}', encoding="utf-8")
    status, _, err = run_main(capsys, "matrix", str(path), "-o", str(tmp_path / "site"), "--previous",
                              str(tmp_path / "prev.json"))  # fmt: skip
    assert status == 2
    one_line_error(err, "--previous", "not a matrix summary")


def test_the_example_matrix_lists_engines_that_exist() -> None:
    """examples/matrix/ENGINES.toml loads, and every factory it names can be imported."""
    from ruleproof.model.engine import load_factory
    from ruleproof.run.matrix import load_engines

    entries = load_engines(ROOT / "examples" / "matrix" / "ENGINES.toml")
    assert {g for e in entries for g in e.games} == {"black-maria", "idiot", "fool", "moon"}
    for e in entries:
        if e.engine is not None:
            assert callable(load_factory(e.engine, from_cwd=True))
        else:
            assert e.engine_cmd is not None and Path(ROOT, shlex.split(e.engine_cmd)[-1]).is_file()


# --- in a browser -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launched()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    pg = context.new_page()
    pg.problems = []  # console errors (a CSP refusal among them) and uncaught exceptions
    pg.on("console", lambda m: pg.problems.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.problems.append(str(e)))
    yield pg
    context.close()


def test_the_game_page_shows_at_a_glance_who_fails_what(page: Any, site: Path, summary: dict[str, Any]) -> None:
    page.goto((site / "black-maria.html").as_uri())
    heads = page.locator("thead th.engine")
    assert heads.count() == 4
    for i in range(4):  # every column's head is on screen at 1300x900, side by side
        box = heads.nth(i).bounding_box()
        assert box is not None and box["x"] + box["width"] <= 1300 and box["y"] < 900
    ref = page.locator('thead th.engine[data-engine="reference"] .score')
    assert ref.inner_text() == "{passed}/{total}".format(**by_name(summary)["reference"]["games"]["black-maria"])
    hung = heads.nth(2)
    assert "broken" in hung.inner_text().lower() and "timeout" in hung.locator(".reason").inner_text()
    assert "licence file is missing" in heads.nth(3).locator(".reason").inner_text()
    assert "Black Maria" in heads.nth(0).locator(".rules").inner_text()  # the rules it was judged under
    row = page.locator('tr.clause[data-clause="BM-PASS-1"]')
    cells = [row.locator("td").nth(i).inner_text() for i in range(4)]
    assert cells == ["pass", "fail", cells[2], "broken"] and cells[2] in ("pass", "untested", "partial")
    assert row.locator("td").nth(1).is_visible()
    assert page.locator("tr.section").first.inner_text().startswith("BM-SETUP")
    assert page.evaluate("window.pwned") is None and page.problems == []


def test_the_overview_says_why_an_engine_is_broken(page: Any, site: Path, summary: dict[str, Any]) -> None:
    page.goto((site / "index.html").as_uri())
    rows = page.locator("tr.engine")
    assert rows.count() == 4
    hung = page.locator('tr.engine[data-engine="hangs"]')
    assert (
        hung.locator(".verdict").inner_text().lower() == "broken" and "timeout" in hung.locator(".reason").inner_text()
    )
    assert hung.locator(".reason").is_visible()
    score = "{passed}/{total}".format(**by_name(summary)["reference"]["games"]["black-maria"])
    assert page.locator('tr.engine[data-engine="reference"] td.score').inner_text().startswith(score)
    assert page.problems == []


def test_a_failing_cell_opens_its_counterexample(page: Any, site: Path) -> None:
    page.goto((site / "black-maria.html").as_uri())
    page.locator('tr.clause[data-clause="BM-PASS-1"] td.s-fail a').click()
    page.wait_for_load_state()
    assert page.url.split("#")[0].endswith("report.html")
    anchor = urlsplit(page.url).fragment
    target = page.locator(f"#{anchor}")
    assert target.get_attribute("data-clause") == "BM-PASS-1" and target.is_visible()


def test_every_link_of_the_site_works(page: Any, site: Path) -> None:
    seen: set[str] = set()
    todo = [(site / "index.html").as_uri()]
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        page.goto(url)
        assert page.problems == [], (url, page.problems)
        fragment = urlsplit(url).fragment
        if fragment:
            assert page.locator(f"#{fragment}").count() == 1, url
        if not url.split("#")[0].endswith(".html") or "/report.html" in url:
            continue  # a certificate, a badge, matrix.json, a report (tests/test_html_report.py checks it)
        for href in page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)"):
            if href.startswith("file:"):
                path = Path(urlsplit(href).path)
                assert path.is_file(), (url, href)
                assert site in path.parents, href  # nothing links out of the site
                todo.append(href)
            else:
                assert href.startswith("https://"), href  # homepages only
    assert len(seen) > 15


def test_sigterm_stops_the_matrix_and_still_writes_the_site(tmp_path: Path) -> None:
    """The engine being certified keeps its partial certificate (interrupted), the engines after it are
    `not run`, and the site is written; the exit status is the signal's, 143."""
    import os
    import signal
    import subprocess

    from tests.processes import wait_for_file

    hung = tmp_path / "hung"
    engines = tmp_path / "ENGINES.toml"
    engines.write_text(
        f'[[engine]]\nname = "hangs"\nengine_cmd = {json.dumps(shlex.join([PY, str(BROKEN / "hangs.py")]))}\n'
        'games = ["black-maria"]\ntimeout = 100\n\n'
        '[[engine]]\nname = "reference"\nengine = "ruleproof.reference:ReferenceEngine"\ngames = ["moon"]\n',
        encoding="utf-8",
    )
    command = [PY, "-m", "ruleproof.cli", "matrix", str(engines), "-o", str(tmp_path / "site"), "--quiet"]
    env = {**os.environ, "BROKEN_ENGINE_READY": str(hung)}
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    wait_for_file(hung)  # the engine hangs in its 8th apply, the matrix waiting in the call
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, out + err
    summary = json.loads((tmp_path / "site" / "matrix.json").read_text(encoding="utf-8"))
    assert schema_errors(summary) == []
    hangs, reference = summary["engines"]
    assert hangs["verdict"] == "interrupted" and "SIGTERM" in (hangs["reason"] or ""), hangs
    assert reference["verdict"] == "not run" and "SIGTERM" in reference["reason"]
    assert (tmp_path / "site" / "moon.html").is_file() and (
        tmp_path / "site" / "engines" / "hangs" / "report.html"
    ).is_file()


def test_slugs_are_unique_and_the_certify_command_names_the_engine_whole(tmp_path: Path) -> None:
    from ruleproof.cli.commands import build_parser
    from ruleproof.run.matrix import Outcome, engine_summary, load_engines

    (tmp_path / "expect.toml").write_text('[moon]\nMOON-BID-1 = "house rule"\n', encoding="utf-8")
    path = tmp_path / "ENGINES.toml"
    path.write_text(
        '[[engine]]\nname = "A b"\nengine = "m:f"\ngames = ["moon", "black-maria"]\nexpect = "expect.toml"\n'
        'timeout = 2.5\n\n[[engine]]\nname = "a-b"\nengine_cmd = "node x.js"\ngames = ["moon"]\n',
        encoding="utf-8",
    )
    first, second = load_engines(path)
    assert (first.slug, second.slug) == ("a-b", "a-b-2")
    assert first.games == ("black-maria", "moon")  # the contract's order
    command = engine_summary(Outcome(first, None, "never ran"))["certify"]
    assert command[:2] == ["ruleproof", "certify"]
    args = build_parser().parse_args(command[1:])
    assert (args.engine, args.game, args.timeout) == ("m:f", ["black-maria", "moon"], "2.5")
    assert Path(args.expect) == tmp_path / "expect.toml"
    assert engine_summary(Outcome(second, None, "x"))["certify"][2:4] == ["--engine-cmd", "node x.js"]
