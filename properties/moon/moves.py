"""The moves of the contract (protocol.md §4 "moon") the kit builds: bids, the pass, plays, discards
and the trump choice.
"""

from __future__ import annotations

from typing import Any


def bid(v: int) -> dict[str, Any]:
    return {"type": "bid", "value": v}


PASS = {"type": "pass"}


def play(t: str) -> dict[str, Any]:
    return {"type": "play", "tile": t}


def discard(t: str) -> dict[str, Any]:
    return {"type": "discard", "tile": t}


def trump(s: Any) -> dict[str, Any]:
    return {"type": "trump", "suit": s}
