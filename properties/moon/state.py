"""The engine's state, read (never a record of the kit's): its seats, declarer, bids, hands, won
stacks and the trick a play completes; the auction as the engine's `bids` leave it; and the
conservation of the 22 tiles (MOON-INV-1 / MOON-SETUP-2), which the first state and every step share.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, TypeGuard

from ruleproof.model import observed as seen
from ruleproof.properties.base import GameProperties
from ruleproof.properties.moon.tiles import SHOOT, TILESET, TRICKS, WON, N
from ruleproof.properties.snapshot import Snapshot, Step

# the atoms of Moon's own fields (``ruleproof.model.observed`` names the contract's), by the field's name
# as the session's own findings name a changed field
BID_RECORD = "bids"  # each seat's action of the hand
DECLARER = "declarer"
CONTRACT = "contract"
FIRST_BIDDER = "first_bidder"
TRICK_SEATS = "trick_seats"


def wrong(*parts: tuple[str, bool]) -> set[str]:
    """The atoms of the parts judged wrong: ``(atom, ok)`` pairs, the atoms whose part is not ok."""
    return {atom for atom, ok in parts if not ok}


def seat_of(value: Any) -> int | None:
    """A seat number, or None for anything else (null, a bool, out of range)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < N else None


def declarer_of(snap: Snapshot) -> int | None:
    """The engine's declarer; the seat to act stands in while the widow and trumps wait for one."""
    d = seat_of(snap.get("declarer"))
    return d if d is not None or snap.phase not in ("discard", "trump") else snap.to_act


def bids_of(snap: Snapshot) -> list[Any]:
    bids = snap.get("bids")
    return list(bids) if isinstance(bids, list) and len(bids) == N else [None] * N


def is_value(b: Any) -> TypeGuard[int]:
    """A bid value (or a number contract): an integer, not a bool."""
    return isinstance(b, int) and not isinstance(b, bool)


def high_bid(bids: Sequence[Any]) -> int:
    return max((b for b in bids if is_value(b)), default=0)


def hand_of(snap: Snapshot, seat: int) -> list[str]:
    return snap.zone(f"hand/{seat}")


def _gain(after: Snapshot, before: Snapshot, zone: str) -> Counter[str]:
    return Counter(after.zone(zone)) - Counter(before.zone(zone))


def won_tiles(snap: Snapshot) -> int:
    return sum(len(snap.zone(z)) for z in WON)


def taker(before: Snapshot, after: Snapshot, trick: list[str]) -> tuple[int | None, dict[int, Counter[str]]]:
    """The seat whose won stack gained exactly the completed ``trick`` (None when no single stack
    did), and every stack's gain (asked by three checks of the same step: the last answer is kept)."""
    if _TAKEN[0] is before and _TAKEN[1] is after:
        return _TAKEN[2]  # type: ignore[no-any-return]
    gains = {s: _gain(after, before, WON[s]) for s in range(N)}
    takers = [s for s in range(N) if gains[s]]
    got = takers[0] if len(takers) == 1 and gains[takers[0]] == Counter(trick) else None
    _TAKEN[:] = [before, after, (got, gains)]
    return got, gains


_TAKEN: list[Any] = [None, None, None]  # the step (its two snapshots) taker last answered for, and the answer


def completed_trick(step: Step) -> tuple[list[str], list[int]] | None:
    """The trick a play completed (its tiles and seats in play order), or None."""
    before = step.before
    if step.kind != "play" or before.phase != "play" or before.to_act is None:
        return None
    trick = [*before.zone("trick"), str(step.move.get("tile"))]
    if len(trick) < N:
        return None
    return trick, [*list(before.get("trick_seats") or []), before.to_act]


def last_trick(step: Step) -> bool:
    """The play completes the hand's seventh trick (six are already on the won stacks)."""
    return won_tiles(step.before) == N * (TRICKS - 1)


def conservation(props: GameProperties, snap: Snapshot, dealt: bool = False) -> None:
    """MOON-INV-1 / MOON-SETUP-2: the 22 tiles, each exactly once, over the zones.  The finding observes the
    tiles out of place and the zones holding them; ``dealt``: the state a deal just made, so they are the
    deal's doing (the move, too)."""
    everything = snap.all_cards()
    ok = everything == TILESET
    if not ok:
        extra = sorted((everything - TILESET).elements())
        missing = sorted((TILESET - everything).elements())
        clause = "MOON-SETUP-2" if any(t not in TILESET for t in extra) else "MOON-INV-1"
        props.expect(
            clause,
            False,
            "the zones must hold each of the 22 Moon tiles ([0-0] and [a-b], 1<=b<=a<=6) exactly once",
            "22 distinct tiles",
            {"extra": extra, "missing": missing},
            observed=lambda: _misplaced(snap, {*extra, *missing}) | ({seen.MOVE} if dealt else set()),
        )
    props.cover("MOON-INV-1", "MOON-SETUP-2")


def _misplaced(snap: Snapshot, tiles: set[str]) -> set[str]:
    """The tiles out of place and the sizes of the zones that hold them."""
    zones = {seen.size(z) for z in snap.zone_names() if tiles.intersection(snap.zone(z))}
    return {*seen.cards(tiles), *zones}


def changed_scores(before: Sequence[Any], after: Sequence[Any]) -> set[str]:
    """The seats whose total differs between two score lists (the whole field when a length is off)."""
    if len(before) != len(after):
        return {seen.SCORES}
    return {seen.score(s) for s in range(len(after)) if before[s] != after[s]}


def auction_open(bids: Sequence[Any]) -> bool:
    """The rules still let someone act: nobody has bid 21 and a seat has not acted."""
    return SHOOT not in bids and any(b is None for b in bids)


def bid_action(step: Step) -> tuple[int, Any, list[Any]] | None:
    """A bid or pass in phase ``bid``: the seat, the action and the engine's `bids` with it recorded."""
    before = step.before
    seat = before.to_act
    if before.phase != "bid" or step.kind not in ("bid", "pass") or seat is None:
        return None
    value = step.move.get("value") if step.kind == "bid" else "pass"
    bids = bids_of(before)
    bids[seat] = value
    return seat, value, bids
