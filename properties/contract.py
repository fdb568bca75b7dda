"""The contract's own clauses (docs/rules/contract.md), checked for every game.

The ``Session`` (``ruleproof.session``) judges most of them on every call it
makes; the setup probes (``ruleproof.setup_probes``) and the determinism replay
(``ruleproof.replay``) the rest.  A game's properties may state further
contract clauses in their own checks (CONTRACT-TURN-1 where play passes to the
left); those are theirs, not listed here.
"""

from __future__ import annotations

CONTRACT_PHASE = "CONTRACT-PHASE-1"  # to_act null iff deal/over; moves [] iff deal/over
CONTRACT_DISTINCT = "CONTRACT-MOVES-1"  # legal moves are distinct
CONTRACT_ACCEPT = "CONTRACT-MOVES-2"  # every listed legal move is accepted
CONTRACT_REJECT = "CONTRACT-REJECT-1"  # a rejected move leaves the state exactly as it was
CONTRACT_ERROR = "CONTRACT-ERROR-1"  # a well-formed rule-breaking move is illegal_move, not bad_request
CONTRACT_DETERMINISM = "CONTRACT-DET-1"  # the same moves from the same deal give the same states
CONTRACT_OVER = "CONTRACT-OVER-1"  # no move is accepted after over
CONTRACT_SETUP = "CONTRACT-SETUP-1"  # the state echoes the setup: game, players, dealer, options, round 0, deal
CONTRACT_OPTIONS = "CONTRACT-SETUP-2"  # a forbidden option (wrong type, unknown, outside the contract) is bad_request
CONTRACT_DEFAULTS = "CONTRACT-SETUP-3"  # an option left out of new_game takes the contract's default
# in the contract document's order: every game's verdict table ends with these
CONTRACT_CLAUSES = (
    CONTRACT_SETUP,
    CONTRACT_OPTIONS,
    CONTRACT_DEFAULTS,
    CONTRACT_PHASE,
    CONTRACT_DISTINCT,
    CONTRACT_ACCEPT,
    CONTRACT_REJECT,
    CONTRACT_ERROR,
    CONTRACT_DETERMINISM,
    CONTRACT_OVER,
)
