"""Draws whose examples do not depend on how, or from where, ruleproof was imported.

Hypothesis sometimes (5% of integer draws) returns a "local constant" instead
of a random value: an integer literal found in the source of any module it
considers local, that is, not under site-packages.  Which modules those are
depends on the install (an editable install makes ruleproof's own modules
local, a wheel does not) and on what has been imported so far, so the same
seed drew different examples in an editable and a wheel install, and in the
second of two runs in one process.  Hypothesis never collects a literal in
(-100, 100), so a draw whose every possible value lies in that range can
never be replaced: it depends only on the seed.  CI checks it by comparing
the certificates of an editable and a wheel install.

The exploration keeps every integer draw in that range, with Hypothesis's
public API only:

- ``drawn_seed()`` is a number of base-100 digits drawn one by one, for a
  ``random.Random`` (a step's larger picks, in ruleproof/run/explore.py);
- ``shuffled(items)`` replaces ``st.permutations`` (whose draws reach the
  deck size: 156 cards in three-deck Idiot) by a shuffle from a drawn seed;
- ``explore(example, ...)`` replaces ``run_state_machine_as_test``: a
  ``RuleBasedStateMachine`` draws an integer in 0..254 per example to pick
  which rules to enable (swarm testing), which local constants can replace;
  ``@given(st.data())`` with a plain step loop makes no such draw.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from hypothesis import given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

T = TypeVar("T")
BASE = 100  # Hypothesis collects no integer literal in (-BASE, BASE)


def explore(example: Callable[[st.DataObject], None], config: settings, seed: int | None = None) -> None:
    """Run ``example(data)`` once per Hypothesis example under ``config`` (``seed``: ``hypothesis.seed``).

    The caller's step loop goes in ``example``; with ``derandomize=True`` the
    examples are a function of this module's source only, as the same test
    function is used for every game and every install.
    """

    @given(st.data())
    def test(data: st.DataObject) -> None:
        example(data)

    if seed is not None:  # derandomize would win over the seed (issue 12, probe 11)
        config = settings(config, derandomize=False)
    run = config(test)
    if seed is not None:
        run = hypothesis_seed(seed)(run)
    run()


SEED_DIGITS = 4  # base-100 digits of a shuffle seed: 10**8 orders to draw from


@st.composite
def drawn_seed(draw: st.DrawFn) -> int:
    """A seed of ``SEED_DIGITS`` base-100 digits, each drawn in ``range(100)``."""
    value = 0
    for _ in range(SEED_DIGITS):
        value = value * BASE + draw(st.integers(0, BASE - 1))
    return value


class Shuffled(list[T]):
    """A drawn order, a list that prints short: Hypothesis prints every draw of a failing example, and a
    deal of 52 cards printed one a line buried the message (the step list says the deal already)."""

    SHOWN = 6

    def __repr__(self) -> str:
        head = " ".join(str(x) for x in self[: self.SHOWN])
        return f"<{len(self)} in a drawn order: {head}{' …' if len(self) > self.SHOWN else ''}>"


@st.composite
def shuffled(draw: st.DrawFn, items: Sequence[T]) -> list[T]:
    """The items in an order decided by a drawn seed of ``SEED_DIGITS`` digits, each in ``range(100)``.

    A deal needs an order, not a structure to shrink (counterexamples are
    minimized on the concrete trace): four draws instead of one per card keep
    a step's cost close to a bare state machine's.
    """
    out = Shuffled(items)
    random.Random(draw(drawn_seed())).shuffle(out)
    return out
