"""``--html``: one self-contained page, checked as text and in a real browser (Debian's chromium)."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape

from ruleproof.cli import main
from ruleproof.output.html import render_html
from tests.report_samples import certificate, played_failure

pytestmark = pytest.mark.xdist_group("html-report")  # one worker, so one browser is started

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
# The flags the kit's CI uses: no sandbox in containers, and nothing that phones home.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
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


def embedded(page: str) -> Any:
    match = EMBEDDED.search(page)
    assert match, "the certificate is not embedded"
    return json.loads(match.group(1))


def test_the_page_embeds_the_certificate_it_shows(cert: dict[str, Any]) -> None:
    assert embedded(render_html(cert)) == cert


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
    page = render_html(hostile)
    assert HOSTILE not in page
    assert page.count("<script") == 2  # the embedded certificate and the page's own script
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
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium; .ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, cert: dict[str, Any], tmp_path: Path) -> Iterator[Any]:
    path = tmp_path / "report.html"
    path.write_text(render_html(cert), encoding="utf-8")
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
