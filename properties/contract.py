"""The contract's own clauses (docs/rules/contract.md), checked for every game, and its options.

The ``Session`` (``ruleproof.run.session``) judges most of them on every call it makes; the setup
probes (``ruleproof.run.setup_probes``), whose first states ``judge_start`` reads, and the
determinism replay the rest.  A game's properties may state further contract clauses in their own
checks (CONTRACT-TURN-1 where play passes to the left); those are theirs, not listed here.
``IntRange`` and ``forbidden`` say which option values the contract allows (each game's
``options_contract``); ``ruleproof.properties.options`` judges a game's first state by them.
"""

from __future__ import annotations

from typing import Any

from attrs import frozen

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


@frozen
class IntRange:
    """An integer option's contract values: ``lo`` up to ``hi`` (no upper bound when None)."""

    lo: int
    hi: int | None = None


OptionsContract = dict[str, "list[Any] | IntRange"]


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def forbidden(allowed: OptionsContract, game: str, name: str, value: Any) -> str | None:
    """Why the contract (``allowed``: a game's ``options_contract``) forbids ``name: value``; None when it
    allows it."""
    if name not in allowed:
        return f"{name} is not an option of {game}"
    spec = allowed[name]
    if isinstance(spec, IntRange):
        return _outside(name, value, spec.lo, spec.hi)
    if isinstance(value, dict) and name == "deck":  # an explicit Fool deck object (checked by the Fool rules)
        return None
    if not any(value == v and type(value) is type(v) for v in spec):
        return f"{name}: {value!r} is not one of {spec}"
    return None


def _outside(name: str, value: Any, lo: int, hi: int | None) -> str | None:
    """Why ``value`` is not an integer option's value (None when it is one)."""
    if not is_int(value):
        return f"{name}: {value!r} is not an integer"
    if value < lo or (hi is not None and value > hi):
        return f"{name}: {value} is outside {lo}..{hi if hi is not None else ''}"
    return None
