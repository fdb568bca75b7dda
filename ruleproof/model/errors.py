"""Bad input from the user, of every kind, with one base: one line naming what is wrong, exit status 2.

Each kind says what it is about and, in ``hint``, what usually fixes it; the command prints
``ruleproof COMMAND: error: MESSAGE`` (and the hint on a second line with ``--debug``), never a
traceback.  Modelled on Bowtie's exceptions.  Engine answers are not user errors: an error the
engine answers is a finding (``ruleproof.model.engine.EngineError``), an engine that cannot be
driven is ``AdapterBroken``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar


class UserError(Exception):
    """A wrong argument, file, fixture or trace: the message names it."""

    hint: ClassVar[str] = ""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if hint is not None:
            self.hint = hint  # type: ignore[misc]  # an instance may say more than its kind

    def __str__(self) -> str:
        return self.message


class UsageError(UserError):
    """A wrong call: an option's value, a path that cannot be written, a game the engine does not declare."""

    hint = "see `ruleproof COMMAND --help`"


class InputFileError(UserError, ValueError):
    """A file the user gave that cannot be used (an expectations file, a baseline, a trace, a fixture)."""

    hint = "the message names the file and the line or field that is wrong"


class RuleproofWarning(UserWarning):
    """What the pytest plugin warns about (a baseline of another engine, ...): a warning, never a
    failure by itself; ``-W error`` makes the plugin say it in one line, not with a traceback."""


class RuleproofPartialWarning(RuleproofWarning):
    """A clause that held wherever it was judged, but not in every situation it names (``partial``).
    Filterable by name: ``filterwarnings = ignore::ruleproof.RuleproofPartialWarning``; an ``error``
    filter fails the clause's item with that line."""


def read_user_text(path: str | Path, error: Callable[[str], UserError], what: str = "") -> str:
    """The UTF-8 text of a file the user named; anything else is ``error`` naming the file and why.

    The one reader of the kit's input files (expectations, baselines, traces, fixtures, ENGINES.toml),
    so that a missing, unreadable or non-UTF-8 file reads the same whichever command was given it.
    """
    name = f"{what} {path}" if what else str(path)
    p = Path(path)
    if p.is_dir():
        raise error(f"{name}: is a directory; give a file")
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise error(f"{name}: no such file") from None
    except OSError as err:
        raise error(f"{name}: cannot read it ({err.strerror or err})") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise error(f"{name}: not UTF-8 (byte {raw[err.start]:#04x} at offset {err.start})") from None


def read_user_toml(path: str | Path, error: Callable[[str], UserError]) -> tuple[str, dict[str, Any]]:
    """The text of a TOML file the user named and what it holds (``read_user_text``, then ``not TOML``
    with the parser's line and column): the text is kept to name the lines of later errors."""
    text = read_user_text(path, error)
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise error(f"{path}: not TOML ({err})") from None
