"""Black Maria (Hearts family, 3-4 players) stated as properties.

Read from rules.md §4 (docs/rules/black-maria.md) and the contract (protocol.md §4 "black-maria"),
without the reference engine.  The package:

- the model of a state: ``cards`` (the pack, hand sizes, penalty values, the trick's best card, what
  may be played: pure functions), ``view`` (the engine's state read: hands, piles, who took a trick,
  the cards won in a round), ``conservation`` (BM-INV-1 on one state);
- what to draw and send: ``strategies`` (setups, targets, deals, the steering of penalty cards to the
  takers), ``probes`` (moves the rules forbid), ``props`` (``BlackMariaProperties``: the kit's hooks
  and what a game's checks keep);
- the checks, by rule section: ``check_deal`` (setup and deal), ``check_pass`` (passing),
  ``check_play`` (leads, following, tricks), ``check_score`` (scoring), ``check_end`` (the end) and
  ``check_invariants`` (those judged on every step).

Left open (never failed): whether `leader` is set while the trick is empty, exactly when `dealer` moves
between rounds, where a finished trick's cards lie once the round is scored, the order of cards within
a hand, whether empty zones are present.
"""

from __future__ import annotations

# the checks register on ``props.checks`` as imported, in this order (each judges a step on its own)
from ruleproof.properties.black_maria import (  # noqa: F401 - imported to register their checks
    check_deal,
    check_end,
    check_invariants,
    check_pass,
    check_play,
    check_score,
)
from ruleproof.properties.black_maria.props import BlackMariaProperties

__all__ = ["BlackMariaProperties"]
