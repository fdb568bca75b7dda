"""The text of each rule clause, read from ``docs/rules/*.md``.

The rules documents are the one place a clause is worded; reports quote them
instead of keeping a second copy.  A clause is a bullet ``- **ID** — text``
(the form tests/test_traceability.py requires) whose text may continue on
indented lines.  A wheel ships the documents as
``ruleproof/rules/*.md`` (package data, pyproject.toml); a source checkout or an
editable install reads ``docs/rules/`` next to the package.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

BULLET = re.compile(r"^\s*[-*]\s+\*\*(?P<id>[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\*\*\s*[—–:-]?\s*(?P<text>.*)$")
CONTINUATION = re.compile(r"^\s{2,}\S")


def rules_dir() -> Traversable:
    """Where the rules documents are: shipped in the wheel, else the checkout's ``docs/rules``."""
    shipped = resources.files("ruleproof") / "rules"
    if shipped.is_dir():
        return shipped
    # An editable install maps no package onto docs/rules (setuptools cannot map a
    # data-only folder in editable mode), so the checkout's copy is read directly.
    return Path(__file__).resolve().parents[2] / "docs" / "rules"  # ruleproof/model/ -> the checkout


def parse(markdown: str) -> dict[str, str]:
    """Clause ID -> its text (continuation lines joined, markdown backticks kept)."""
    found: dict[str, str] = {}
    current: str | None = None
    for line in markdown.splitlines():
        m = BULLET.match(line)
        if m:
            current = m["id"]
            found[current] = m["text"].strip()
        elif current is not None and CONTINUATION.match(line):
            found[current] += " " + line.strip()
        else:
            current = None
    return found


@cache
def document(name: str) -> dict[str, str]:
    """The clauses of one rules document (``black-maria.md``), in the document's order."""
    return parse(rules_dir().joinpath(name).read_text(encoding="utf-8"))


@cache
def all_clauses() -> dict[str, str]:
    """Every clause of every rules document (games and the contract)."""
    texts: dict[str, str] = {}
    for doc in sorted(rules_dir().iterdir(), key=lambda p: p.name):
        if doc.name.endswith(".md"):
            texts.update(document(doc.name))
    return texts


def clause_text(clause: str) -> str | None:
    """The clause's wording, or None when no rules document states it."""
    return all_clauses().get(clause)


@cache
def clause_line(clause: str) -> tuple[Path, int] | None:
    """The file and line (1-based) that states ``clause`` (``- **CLAUSE** — ...``), for a report to point at;
    None when no rules document on disk states it."""
    folder = rules_dir()
    for doc in sorted(folder.iterdir(), key=lambda p: p.name):
        if not doc.name.endswith(".md"):
            continue
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), start=1):
            if line.lstrip().startswith(f"- **{clause}**"):
                return Path(str(doc)), number
    return None


HEADING = re.compile(r"^#{2,3}\s+(?P<title>.+?)\s*$")


@cache
def headings(name: str) -> dict[str, str]:
    """Clause ID -> the heading of the part of the rules document (``black-maria.md``) that states it
    ("Bidding", "Invariants (checked after every step)"), in the document's order; a clause stated
    before any heading gets the document's title."""
    found: dict[str, str] = {}
    current = ""
    for line in rules_dir().joinpath(name).read_text(encoding="utf-8").splitlines():
        if line.startswith("# ") and not current:
            current = line[2:].strip()
        elif m := HEADING.match(line):
            current = m["title"]
        elif m := BULLET.match(line):
            found.setdefault(m["id"], current)
    return found
