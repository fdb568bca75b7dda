"""``--html``: one self-contained page, checked as text and in a real browser (Debian's chromium)."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape

from ruleproof.cli import main
from ruleproof.model.traces import pack, unpack_states
from ruleproof.output.html import render_html
from tests.browser import launched
from tests.report_samples import certificate, played_failure

pytestmark = pytest.mark.xdist_group("html-report")  # one worker, so one browser is started

EMBEDDED = re.compile(r'<script type="application/json" id="certificate">(.*?)</script>', re.S)
HOSTILE = '</script><script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'


@pytest.fixture(scope="module")
def cert() -> dict[str, Any]:
    statuses = {
        "moon": {"MOON-BID-1": "pass", "MOON-BID-2": "untested", "MOON-BID-3": "xfail", "MOON-END-1": "skipped"}
    }
    games = {"black-maria": 30, "moon": 16, "fool": 12, "idiot": 12}
    failures = {game: played_failure(game, moves) for game, moves in games.items()}
    data = certificate(failures, statuses)
    return json.loads(json.dumps(data))  # exactly what --json would hold


@pytest.fixture(scope="module")
def packed(cert: dict[str, Any]) -> dict[str, Any]:
    """The sample certificate in format 2, as ``--json`` writes it: each trace once, its states as diffs."""
    return pack({"ruleproof_certificate": 1, **cert})


def embedded(page: str) -> Any:
    match = EMBEDDED.search(page)
    assert match, "the certificate is not embedded"
    return json.loads(match.group(1))


def test_the_page_embeds_the_certificate_it_shows(cert: dict[str, Any], packed: dict[str, Any]) -> None:
    assert embedded(render_html(cert)) == cert  # format 1, as given
    assert embedded(render_html(packed)) == packed and "traces" in packed["games"]["moon"]
    # a format 2 certificate's page is the format 1 one's, but for the certificate embedded
    assert EMBEDDED.sub("", render_html(packed)) == EMBEDDED.sub("", render_html(cert))


def test_the_page_is_self_contained_and_its_csp_admits_only_its_own_style_and_script(cert: dict[str, Any]) -> None:
    page = render_html(cert)
    assert not re.search(r"https?://|<link\b|\bsrc=|@import|url\(", page)
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert csp is not None
    policy = html.unescape(csp.group(1))
    assert policy.startswith("default-src 'none';")
    for tag in ("style", "script"):
        body = re.search(rf"<{tag}>(.*?)</{tag}>", page, re.S)
        assert body is not None
        digest = base64.b64encode(hashlib.sha256(body.group(1).encode()).digest()).decode()
        assert f"{tag}-src 'sha256-{digest}'" in policy


def test_engine_strings_are_escaped(cert: dict[str, Any]) -> None:
    hostile = json.loads(json.dumps(cert))
    hostile["engine"]["name"] = HOSTILE
    failure = hostile["games"]["black-maria"]["failures"][0]
    failure["message"] = HOSTILE
    failure["states"][-1]["zones"]["trick"] = [HOSTILE]
    failure["expected"] = {"type": HOSTILE, HOSTILE: [HOSTILE]}  # drawn as a move: its verb and arguments
    failure["got"] = [{"seat": HOSTILE}]
    page = render_html(hostile)
    assert HOSTILE not in page
    # the embedded certificate, each step-through's drawn states and their fragments (data, never run), and
    # the page's own script
    assert page.count("<script") == 3 + page.count('<script type="application/json" class="views"') == 7
    assert str(escape(HOSTILE)) in page
    assert embedded(page) == hostile  # tojson escapes "</script>" inside the JSON


def test_a_partial_or_odd_certificate_still_renders() -> None:
    odd = {
        "games": {
            "moon": {
                "clauses": {"MOON-BID-1": "pass"},
                "failures": [{"clause": "X", "trace": [{"weird": 1}, 5], "states": ["x", None]}],
            }
        }
    }
    page = render_html(odd)
    assert embedded(page) == odd and 'data-clause="MOON-BID-1"' in page
    assert embedded(render_html({})) == {}


def _rows(page: str, game: str) -> list[str]:
    section = page[page.index(f'id="game-{game}"') :]
    table = section.split("</table>")[0]
    return re.findall(r'<tr class="clause [^"]*" data-status="[^"]*" data-clause="([^"]+)"', table)


def _with(cert: dict[str, Any], game: str, clauses: dict[str, Any], **top: Any) -> dict[str, Any]:
    changed = json.loads(json.dumps(cert))
    changed["games"][game]["clauses"] = {**clauses, **changed["games"][game]["clauses"]}  # the failing row last
    changed.update(top)
    return changed


def test_the_summary_comes_first_deviations_then_consequences_linked_to_their_failures(cert: dict[str, Any]) -> None:
    after = {"status": "fail", "hits": 2, "follows": ["CONTRACT-MOVES-1"]}
    page = render_html(_with(cert, "moon", {"MOON-SCORE-1": after}))
    summary = page[page.index('id="summary"') : page.index("</section>")]
    assert page.index('id="summary"') < page.index('class="game"'), "the summary is above every game's table"
    assert summary.count("1 deviation<") == 4 and "1 consequence" in summary
    for game in ("black-maria", "moon", "fool", "idiot"):
        assert f'href="#failure-{game}-0"' in summary
    deviations, consequences = summary.index('class="deviations"'), summary.index("consequences:")
    assert deviations < consequences and "MOON-SCORE-1" in summary[consequences:]
    assert "after CONTRACT-MOVES-1" in summary[consequences:] and "MOON-SCORE-1" not in summary[:consequences]


def test_a_passing_certificate_has_no_summary(cert: dict[str, Any]) -> None:
    passing = {"games": {"moon": {"verdict": "pass", "clauses": {"MOON-BID-1": {"status": "pass", "hits": 4}}}}}
    assert 'id="summary"' not in render_html(passing) and 'id="summary"' in render_html(cert)


def test_failing_rows_come_first_and_a_row_says_what_it_did_not_reach_and_the_baseline(cert: dict[str, Any]) -> None:
    clauses = {
        "MOON-SCORE-1": {"status": "pass", "hits": 9, "baseline": "fixed"},
        "MOON-SCORE-2": {"status": "partial", "hits": 4, "missing": ["ends-at-target"], "baseline": "regressions"},
        "MOON-LEAD-1": {"status": "untested", "hits": 0, "baseline": "untested"},
    }
    page = render_html(_with(cert, "moon", clauses))  # the failing clause comes last in the certificate
    rows = _rows(page, "moon")
    assert rows[0] == "CONTRACT-MOVES-1"
    statuses = re.findall(r'<tr class="clause [^"]*" data-status="([^"]+)"', page[page.index('id="game-moon"') :])
    assert statuses[: len(rows)] == ["fail", "xfail", "partial", "untested", "untested", "pass", "pass", "skipped"]
    row = page[page.index('data-clause="MOON-SCORE-2"') :].split("</tr>")[0]
    assert "not reached: ends-at-target" in row and "regression: passed in the baseline" in row
    assert "fixed: failed in the baseline" in page[page.index('data-clause="MOON-SCORE-1"') :].split("</tr>")[0]
    assert "newly untested" in page[page.index('data-clause="MOON-LEAD-1"') :].split("</tr>")[0]
    changed = _with(cert, "moon", clauses)
    changed["games"]["moon"]["baseline"] = {"regressions": ["MOON-SCORE-2"], "fixed": ["MOON-SCORE-1"], "untested": []}
    page = render_html(changed)
    line = "against the baseline: 1 regression (MOON-SCORE-2), 1 fixed (MOON-SCORE-1), 0 newly untested"
    assert f'<p class="baseline-line">{line}</p>' in page and "<b>baseline</b>" not in page, "a line, not a blob"


def test_the_clause_text_is_rendered_markdown(cert: dict[str, Any]) -> None:
    page = render_html(cert)
    row = page[page.index('data-clause="CONTRACT-MOVES-1"') :].split("</tr>")[0]
    assert "<code>legal_moves</code> lists each distinct legal move once" in row
    assert "`" not in row, "no markdown backticks, in the text or its tooltip"
    assert '<blockquote class="rule"><code>legal_moves</code>' in page


def test_top_fields_and_stats_are_read_as_text_and_a_small_table(cert: dict[str, Any]) -> None:
    changed = _with(cert, "moon", {}, hypothesis="6.170.17")
    changed["games"]["moon"]["stats"] = {"examples": 129, "steps": 4000, "engine_calls": 20000}
    page = render_html(changed)
    assert "<b>Hypothesis</b> <code>6.170.17</code>" in page and "&#34;6.170.17&#34;" not in page
    assert "ruleproof_certificate" not in page.split('<script type="application/json"')[0], "a key for programs"
    stats = re.search(r'<table class="stats">(.*?)</table>', page, re.S)
    assert stats is not None and "<th>engine calls</th><td>20000</td>" in stats.group(1)


def test_certify_writes_the_same_certificate_to_json_and_html(tmp_path: Path) -> None:
    """Fixtures only (seconds): the PassLeft mutant fails BM-PASS-1 in fixture B-D1."""
    out_json, out_html = tmp_path / "cert.json", tmp_path / "report.html"
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
            "--json",
            str(out_json),
            "--html",
            str(out_html),
            "--traces",
            str(tmp_path / "traces"),
        ]
    )
    assert status == 1
    page = out_html.read_text(encoding="utf-8")
    assert embedded(page) == json.loads(out_json.read_text(encoding="utf-8"))
    assert 'data-clause="BM-PASS-1"' in page and "status-fail" in page


def test_an_unwritable_html_path_is_a_one_line_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        [
            "certify",
            "--game",
            "black-maria",
            "--profile",
            "dev",
            "--no-properties",
            "--html",
            str(tmp_path / "missing" / "report.html"),
            "--traces",
            str(tmp_path / "traces"),
        ]
    )
    assert status == 2
    err = capsys.readouterr().err
    assert "--html" in err and "missing" in err and "Traceback" not in err


# --- in a browser -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launched()


@pytest.fixture
def page(browser: Any, packed: dict[str, Any], tmp_path: Path) -> Iterator[Any]:
    path = tmp_path / "report.html"
    path.write_text(render_html(packed), encoding="utf-8")  # format 2, as certify writes it
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    pg = context.new_page()
    pg.problems = []  # console errors (a CSP refusal among them) and uncaught exceptions
    pg.requests = []
    pg.on("console", lambda m: pg.problems.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.problems.append(str(e)))
    pg.on("request", lambda r: pg.requests.append(r.url))
    pg.goto(path.as_uri())
    yield pg
    context.close()


def test_the_failing_clause_row_shows_and_the_filters_hide_the_others(page: Any) -> None:
    game = page.locator("#game-moon")
    fail_row = game.locator('tr.clause[data-clause="CONTRACT-MOVES-1"]')
    assert fail_row.is_visible() and fail_row.locator(".badge").inner_text() == "fail"
    assert game.locator('tr.clause[data-status="pass"]').is_visible()
    game.locator('.filters input[value="pass"]').uncheck()
    assert game.locator('tr.clause[data-status="pass"]').is_hidden()
    assert fail_row.is_visible() and game.locator('tr.clause[data-status="xfail"]').is_visible()
    game.locator('.filters input[value="fail"]').uncheck()
    assert fail_row.is_hidden()


def test_the_clause_text_shows_on_expand(page: Any) -> None:
    row = page.locator('#game-black-maria tr.clause[data-clause="CONTRACT-MOVES-1"]')
    text = row.locator("details p")
    assert text.is_hidden()
    row.locator("summary").click()
    assert text.is_visible() and "lists each distinct legal move once" in text.inner_text()
    assert "lists each distinct legal move once" in (row.get_attribute("title") or "")


def test_the_step_through_opens_on_the_highlighted_violation_and_navigates(page: Any, cert: dict[str, Any]) -> None:
    failure = cert["games"]["black-maria"]["failures"][0]
    n = len(failure["trace"])
    stepper = page.locator("#failure-black-maria-0 .stepper")
    banner = stepper.locator(".violation-banner")
    assert stepper.locator(".position").inner_text() == f"step {n} of {n}"
    assert banner.is_visible() and banner.inner_text() == "violates CONTRACT-MOVES-1"
    current = stepper.locator("ol.steps li.current")
    assert current.get_attribute("data-step") == str(n) and "violation" in (current.get_attribute("class") or "")
    # the table after the violating step, drawn as cards: the played card is highlighted on the trick or won pile
    after = stepper.locator(".panel.after")
    assert after.locator(".seat").count() == failure["states"][-1]["players"]
    assert after.locator(".card").count() >= 51 and after.locator(".card .suit", has_text="♠").count() > 0

    stepper.locator("button.prev").click()
    assert stepper.locator(".position").inner_text() == f"step {n - 1} of {n}"
    assert banner.is_hidden()
    assert stepper.locator("ol.steps li.current").get_attribute("data-step") == str(n - 1)
    stepper.locator("button.first").click()
    assert stepper.locator(".position").inner_text() == f"step 1 of {n}"
    assert stepper.locator(".panel.before").inner_text().endswith("no game yet")
    stepper.locator("ol.steps li").nth(4).locator("button").click()
    assert stepper.locator(".stepline").inner_text().startswith("5. ")
    stepper.locator("button.last").click()
    assert banner.is_visible() and stepper.locator("ol.steps li.current").get_attribute("data-step") == str(n)
    assert page.problems == []
    assert all(url.startswith("file://") for url in page.requests)


def test_moon_tiles_are_drawn_as_dominoes(page: Any, cert: dict[str, Any]) -> None:
    after = page.locator("#failure-moon-0 .panel.after")
    hands = sum(len(v) for k, v in cert["games"]["moon"]["failures"][0]["states"][-1]["zones"].items())
    assert after.locator(".tile").count() >= hands  # every tile of every zone, plus the changes line
    assert after.locator(".tile .half").count() == 2 * after.locator(".tile").count()


def test_fool_and_idiot_cards_are_drawn_in_their_zones(page: Any, cert: dict[str, Any]) -> None:
    fool = page.locator("#failure-fool-0 .panel.after")
    hands = [
        c
        for k, v in cert["games"]["fool"]["failures"][0]["states"][-1]["zones"].items()
        if k.startswith("hand/")
        for c in v
    ]
    assert fool.locator(".seat .pieces .card.fool").count() == len(hands)  # (the changes line aside)
    assert fool.locator(".card.fool-G").count() + fool.locator(".card.fool-R").count() > 0
    idiot = page.locator("#failure-idiot-0 .panel.after")
    state = cert["games"]["idiot"]["failures"][0]["states"][-1]
    assert idiot.locator(".seat .zone-face_down .pieces .card").count() == sum(
        len(state["zones"][f"face_down/{s}"]) for s in range(state["players"])
    )
    assert idiot.locator(".zone-draw .pile").inner_text() == str(len(state["zones"]["draw"]))


def test_hostile_engine_strings_do_not_run(browser: Any, cert: dict[str, Any], tmp_path: Path) -> None:
    hostile = json.loads(json.dumps(cert))
    hostile["games"]["black-maria"]["failures"][0]["message"] = HOSTILE
    path = tmp_path / "hostile.html"
    path.write_text(render_html(hostile), encoding="utf-8")
    pg = browser.new_page()
    pg.goto(path.as_uri())
    assert pg.evaluate("window.pwned") is None
    assert HOSTILE in pg.locator("#failure-black-maria-0 .message").inner_text()
    pg.close()


def test_a_failing_report_shows_above_the_fold_its_deviations_and_the_first_on_the_board(
    page: Any, cert: dict[str, Any], tmp_path: Path
) -> None:
    """What a player sees on opening the page (1300 x 900): the count, the deviations, and the first one's
    expected and got drawn as cards beside the board, with the seat that moved in the violating step marked."""
    page.screenshot(path=str(tmp_path / "above-the-fold.png"))  # kept by pytest's tmp_path to look at
    fold = page.viewport_size["height"]

    def seen(locator: Any) -> bool:  # on screen without scrolling, and the element there is this one
        box = locator.bounding_box()
        if box is None or box["y"] + box["height"] > fold:
            return False
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        return bool(locator.evaluate("(e, [x, y]) => e.contains(document.elementFromPoint(x, y))", [x, y]))

    summary = page.locator("#summary")
    assert seen(summary.locator("h2"))
    assert summary.locator("h2").inner_text().startswith("black-maria: 1 deviation · moon: 1 deviation")
    assert seen(summary.locator("ol.deviations li").nth(3))
    assert "CONTRACT-MOVES-1" in summary.locator("ol.deviations").inner_text()
    first = summary.locator(".first-deviation")
    expected = cert["games"]["black-maria"]["failures"][0]["expected"]  # [the last move, a pass]
    card = first.locator("dd.expected .card").first
    assert seen(card) and card.get_attribute("title") == expected[0]["card"]
    assert first.locator("dd.expected").inner_text().split()[-1] == "pass"
    assert seen(first.locator("dd.got .card").first)
    broke = first.locator(".seat.is-broke-the-rule")
    states = cert["games"]["black-maria"]["failures"][0]["states"]
    assert broke.count() == 1 and broke.locator("h5").inner_text().startswith(f"seat {states[-2]['to_act']}")
    assert seen(broke.locator("h5 .mark").first) and broke.locator("h5 .mark").first.inner_text() == "broke the rule"
    summary.locator(".first-deviation a", has_text="step through it").click()
    assert page.locator("#failure-black-maria-0 .stepper").is_visible() and page.problems == []


def test_the_steps_show_moves_as_cards_with_the_seat_that_moved(page: Any, cert: dict[str, Any]) -> None:
    failure = cert["games"]["black-maria"]["failures"][0]
    steps = page.locator("#failure-black-maria-0 ol.steps li")
    last = steps.nth(len(failure["trace"]) - 1).locator("button")
    move = failure["trace"][-1]["apply"]
    assert last.locator(".card").get_attribute("title") == move["card"]
    assert " ".join(last.inner_text().split()).startswith(f"seat {failure['states'][-2]['to_act']} play")
    line = page.locator("#failure-black-maria-0 .current-step .stepline")
    assert line.locator(".card").get_attribute("title") == move["card"], "the current step drawn as its entry"
    page.locator("#failure-black-maria-0 button.prev").click()
    assert line.inner_text().startswith(f"{len(failure['trace']) - 1}. seat ") and page.problems == []
    assert "deal: hand" in steps.nth(1).inner_text(), "a deal is summarized (the board draws its cards)"


def test_each_step_shows_the_state_the_kit_drew_for_it_rebuilt_from_the_diffs(page: Any, cert: dict[str, Any]) -> None:
    """The page holds each step's drawn state as a diff from the step before; the step-through shows, at
    every step, exactly what the kit drew for it (``state_or_note``, as a format 1 page held it whole)."""
    stepper = page.locator("#failure-black-maria-0 .stepper")
    key = stepper.get_attribute("data-views")
    diffs = json.loads(page.locator(f'script.views[data-key="{key}"]').text_content())
    fragments = json.loads(page.locator("script#fragments").text_content())
    drawn = ["\n".join("".join(fragments[n] for n in line) for line in lines) for lines in unpack_states(diffs)]
    assert len(drawn) == len(cert["games"]["black-maria"]["failures"][0]["trace"])
    assert len(drawn) == stepper.locator("ol.steps li").count()
    # the violating step's state, as the page draws it before any script runs, is the last one rebuilt
    source = render_html(cert).split('id="failure-black-maria-0"')[1]
    assert f'<section class="panel after"><h4>after</h4><div class="slot">{drawn[-1]}</div>' in source
    as_parsed = "(html) => { const t = document.createElement('template'); t.innerHTML = html; return t.innerHTML; }"
    for k in (1, 2, 3, len(drawn) // 2, len(drawn)):
        stepper.locator("ol.steps li").nth(k - 1).locator("button").click()
        shown = stepper.locator(".panel.after > div.slot").inner_html()
        assert shown == page.evaluate(as_parsed, drawn[k - 1]), k
        if k > 1:
            assert stepper.locator(".panel.before > div.slot").inner_html() == page.evaluate(as_parsed, drawn[k - 2]), k
    assert "seat" in drawn[-1] and page.problems == []


def test_the_script_rebuilds_the_certificates_states_as_python_unpacks_them(page: Any, packed: dict[str, Any]) -> None:
    rebuilt = page.evaluate(
        """() => {
          const c = JSON.parse(document.getElementById("certificate").textContent);
          const out = {};
          for (const [game, g] of Object.entries(c.games))
            out[game] = Object.values(g.traces || {}).map((t) => unpackStates(t.states));
          return out;
        }"""
    )
    want = {g: [unpack_states(t["states"]) for t in d["traces"].values()] for g, d in packed["games"].items()}
    assert rebuilt == want and all(want.values())
