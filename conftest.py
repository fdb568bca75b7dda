"""pytest setup shared by the kit's own tests (``tests/``).

The conformance plugin itself is ``ruleproof.cli.plugin`` (entry point ``pytest11``);
it adds items only when asked (``--ruleproof``, ``--ruleproof-engine``, ``--ruleproof-engine-cmd``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import settings

from ruleproof.transport.checked import CheckedEngine

# The kit's own Hypothesis tests: no example database in the tree, no deadline on a loaded CI machine.
settings.register_profile("kit", deadline=None, database=None)
settings.load_profile("kit")


@pytest.fixture
def reference() -> Callable[[str], CheckedEngine]:
    """``reference(game)``: the reference engine of one game, schema-checked."""
    from ruleproof.reference import ReferenceEngine, rules_for

    return lambda game: CheckedEngine(ReferenceEngine([rules_for(game)]))
