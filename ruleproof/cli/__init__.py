"""The front ends: the ``ruleproof`` command (``commands``), its options (``options``) and the pytest
plugin (``plugin``).  Nothing heavy is imported here: the pytest plugin is loaded at every pytest
start-up, and ``main`` imports the commands only when it runs."""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """The ``ruleproof`` command (the console script's entry point)."""
    from ruleproof.cli.commands import main as run

    return run(argv)
