"""CONTRACT-SETUP-2 and -3 on a game's first state: an option the contract forbids was accepted, or
one left out did not take its default; and ``covering``, the option values of the setups drawn, so
that every pair of values of two options that interact is played (pairwise coverage).

Each game's ``start`` check calls ``judge_start``; the kit's own setups send every option with a
declared value, so it is silent on them, and the ``new_game`` probes of the smoke stage
(``ruleproof.run.setup_probes``) are what it judges.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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
    # a house option the state does not echo is one the engine does not declare: it plays the default
    left_out = {k: v for k, v in left_out.items() if k not in props.house_options or k in snap.options}
    if left_out:
        got = {k: snap.options.get(k) for k in left_out}
        props.expect(
            CONTRACT_DEFAULTS,
            got == left_out,
            "an option left out of new_game takes the contract's default",
            left_out,
            got,
        )


def covering(values: Mapping[str, Sequence[Any]], pairs: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
    """Setups' option values that cover every pair of values of each interacting pair of options, and
    every value of every option (pairwise coverage, not the full product: a few rows, not thousands).
    Deterministic (greedy, in the order given), so the same declared values give the same rows."""
    names = list(values)
    wanted = {(a, va, b, vb) for a, b in pairs if a in values and b in values for va in values[a] for vb in values[b]}
    wanted |= {(a, va, a, va) for a in names for va in values[a]}
    rows: list[dict[str, Any]] = []
    while wanted:
        a, va, b, vb = min(wanted, key=lambda p: (names.index(p[0]), str(p[1]), names.index(p[2]), str(p[3])))
        row: dict[str, Any] = {a: va, b: vb}
        for name in names:
            if name not in row:
                gains = [_gain(wanted, row, name, v) for v in values[name]]
                row[name] = values[name][gains.index(max(gains))]
        rows.append(row)
        wanted -= {p for p in wanted if row.get(p[0]) == p[1] and row.get(p[2]) == p[3]}
    return rows


def _gain(wanted: set[tuple[str, Any, str, Any]], row: Mapping[str, Any], name: str, value: Any) -> int:
    """How many wanted pairs choosing ``value`` for ``name`` would cover, with the row so far."""
    return sum(
        1
        for a, va, b, vb in wanted
        if (a == name and va == value and row.get(b, value if b == name else object()) == vb)
        or (b == name and vb == value and row.get(a) == va)
    )
