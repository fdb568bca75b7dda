"""CONTRACT-SETUP-2 and -3 on a game's first state: an option the contract forbids was accepted, or
one left out did not take its default.

Each game's ``start`` check calls ``judge_start``; the kit's own setups send every option with a
declared value, so it is silent on them, and the ``new_game`` probes of the smoke stage
(``ruleproof.run.setup_probes``) are what it judges.
"""

from __future__ import annotations

from ruleproof.properties.base import GameProperties
from ruleproof.properties.contract import CONTRACT_DEFAULTS, CONTRACT_OPTIONS, forbidden
from ruleproof.properties.snapshot import Snapshot


def judge_start(props: GameProperties, snap: Snapshot) -> None:
    """On the first state: an accepted forbidden option is CONTRACT-SETUP-2; an option left out
    must come back as its default (CONTRACT-SETUP-3).  Silent on the kit's own complete setups."""
    setup = props.setup
    for name, value in setup.options.items():
        why = forbidden(props.options_contract, setup.game, name, value)
        if why is not None:
            props.expect(
                CONTRACT_OPTIONS,
                False,
                f"new_game accepted a setup the contract forbids ({why}): bad_request expected",
                "bad_request",
                {"accepted": {name: value}},
            )
    # only the probe's setup with every option left out: the kit sends it only when the engine declares
    # every default (a setup leaving out an option the engine cannot take at its default proves nothing)
    left_out = props.default_options(setup.players, {}) if not setup.options else {}
    if left_out:
        got = {k: snap.options.get(k) for k in left_out}
        props.expect(
            CONTRACT_DEFAULTS,
            got == left_out,
            "an option left out of new_game takes the contract's default",
            left_out,
            got,
        )
