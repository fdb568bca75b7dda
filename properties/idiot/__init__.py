"""Idiot (Shithead / Palace family, 2+ players, one deal is the whole game) stated as properties.

Read from rules.md §2 (clauses, the ambiguity defaults IDIOT-AMB-1 to IDIOT-AMB-16, the §2.3b further
decisions) and the contract (protocol.md §4 "idiot"), without the reference engine.  The package:

- the model of a state: ``cards`` (ranks, the pool, legality and burns as pure functions), ``view``
  (one state's rows and piles, moves by key);
- the rules' model: ``legal`` (the legal set of a state, why a move is illegal), ``outcome`` (where
  every card goes after a move, who acts next), ``diff`` and ``ranks`` (the engine's listed moves
  against the rules', each difference with the aspect of the rules that explains it by the smallest
  difference, ``aspects``);
- what to draw and send: ``strategies`` (setups, deals, moves, smaller tables), ``probes`` (moves the
  rules forbid), ``props`` (``IdiotProperties``: the kit's hooks and what a step's checks share);
- the checks, by rule section: ``check_setup``, ``check_opening``, ``check_play``, ``check_pickup``,
  ``check_draw``, ``check_table``, ``check_blind``, ``check_special``, ``check_turn``, ``check_end`` and
  ``check_invariants`` (rules.md §2.6), each mapping the aspects of its section to its clauses.

Left open (never failed): when `dealer` changes, the order of cards inside hands and table rows,
whether empty zones are present, the phase name while a follow-up of the opening play is pending, and
two assumptions of docs/rules/idiot.md (a pickup during a pending follow-up or chain, and the
IDIOT-TABLE-3 combination as a follow-up or chain play): offered or not, both pass.
"""

from __future__ import annotations

# the checks register on ``props.checks`` as imported (each judges a step on its own: the outcome they share
# is worked out before any of them runs, ``IdiotProperties.observe``)
from ruleproof.properties.idiot import (  # noqa: F401 - imported to register their checks
    check_blind,
    check_draw,
    check_end,
    check_invariants,
    check_opening,
    check_pickup,
    check_play,
    check_setup,
    check_special,
    check_table,
    check_turn,
)
from ruleproof.properties.idiot.props import IdiotProperties

__all__ = ["IdiotProperties"]
