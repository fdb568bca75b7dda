"""The real browser the HTML pages are tested in (Debian's chromium, driven by Playwright): one per
test module, skipped with how to install it where it is missing."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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


def launched() -> Iterator[Any]:
    """A started chromium for a module-scoped ``browser`` fixture (closed when the module is done)."""
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium; .ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
