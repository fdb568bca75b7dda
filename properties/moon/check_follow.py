"""Leading and following (MOON-LEAD-1..3, MOON-FOLLOW-1..3, MOON-TRUMP-2..4, MOON-INV-5): any tile
may be led; then exactly the tiles that follow are listed, else the whole hand.  A wrong list, and a
tile it wrongly offered when played, are filed under the reading the list shows (``readings``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ruleproof.model import observed as seen
from ruleproof.properties.moon.listing import listed_tiles
from ruleproof.properties.moon.moves import play
from ruleproof.properties.moon.props import checks
from ruleproof.properties.moon.readings import base_follow_clause, follow_clause, resolve
from ruleproof.properties.moon.state import hand_of, is_value
from ruleproof.properties.moon.tiles import led_suit, legal_plays
from ruleproof.properties.snapshot import Snapshot, Step, move_diff, move_diff_observed

if TYPE_CHECKING:
    from ruleproof.properties.moon.props import MoonProperties


@checks("MOON-LEAD-1")
def lead_moves(props: MoonProperties, step: Step) -> None:
    """MOON-LEAD-1: the seat to lead may lead any tile of its hand."""
    after = step.after
    if after.phase != "play" or after.zone("trick") or after.to_act is None:
        return
    hand = hand_of(after, after.to_act)
    got = {m.get("tile") for m in after.moves if m.get("type") == "play"}
    props.expect(
        "MOON-LEAD-1",
        got == set(hand) and len(after.moves) == len(hand),
        "any tile in hand may be led",
        *move_diff([play(t) for t in hand], after.moves),
        observed=lambda: move_diff_observed([play(t) for t in hand], after.moves),
    )


@checks(
    "MOON-LEAD-2",
    "MOON-LEAD-3",
    "MOON-FOLLOW-1",
    "MOON-FOLLOW-2",
    "MOON-FOLLOW-3",
    "MOON-TRUMP-2",
    "MOON-TRUMP-3",
    "MOON-TRUMP-4",
)
def follow_moves(props: MoonProperties, step: Step) -> None:
    """While a trick has tiles: exactly the tiles that follow the led suit are listed, else the whole
    hand; a wrong list, and a tile it wrongly offered when played, are filed under the reading the list
    shows (``follow_clause``)."""
    before, after = step.before, step.after
    if step.kind == "play" and before.phase == "play" and before.zone("trick") and before.to_act is not None:
        _listed_revoke_played(props, before, step.move.get("tile"))
    trick = after.zone("trick")
    if after.phase != "play" or not trick or after.to_act is None:
        return
    hand, contract = hand_of(after, after.to_act), after.get("contract")
    want = legal_plays(hand, trick, contract)
    got = listed_tiles(after)
    s = led_suit(trick[0], contract)
    props.cover("MOON-LEAD-2" if s == "T" else "MOON-LEAD-3", base_follow_clause(hand, trick[0], contract))
    props.cover("MOON-TRUMP-3" if contract == "doubles" else "MOON-TRUMP-2" if is_value(contract) else "MOON-TRUMP-4")
    if got == set(want) and len(after.moves) == len(want):
        return
    if got == set(want):  # the right tiles, but listed twice or beside moves of another kind
        found: tuple[str, str] | None = (base_follow_clause(hand, trick[0], contract), "other moves listed")
    else:
        found = resolve(props.shown, lambda known: follow_clause(hand, trick, contract, got, known))
    if found is None:  # several readings give this list: the positions that tell them apart will show which
        return
    props.fail(
        found[0],
        f"the led tile {trick[0]} calls for "
        + ("trumps" if s == "T" else f"{s}s")
        + f" under contract {contract!r}: play a following tile if held, else any tile",
        *move_diff([play(t) for t in want], after.moves),
        cause=found[1],
        observed=lambda: move_diff_observed([play(t) for t in want], after.moves),
    )


def _listed_revoke_played(props: MoonProperties, before: Snapshot, tile: Any) -> None:
    """A tile the engine listed though it does not follow, now played: the same reading as its list, in
    the step where MOON-INV-5 finds the play outside the rules (so the two read as one deviation)."""
    hand, trick, contract = hand_of(before, before.to_act or 0), before.zone("trick"), before.get("contract")
    listed = listed_tiles(before)
    if tile not in listed or tile in legal_plays(hand, trick, contract):
        return  # a following tile; or a probe of a tile not listed (the probe's own clause judges it)
    found = resolve(props.shown, lambda known: follow_clause(hand, trick, contract, listed, known))
    if found is not None:
        props.fail(
            found[0],
            f"{tile} was played on {trick[0]} under contract {contract!r} although it does not follow",
            {"one of": sorted(legal_plays(hand, trick, contract))},
            {"played": tile},
            cause=f"{found[1]}: played",
            observed=(seen.MOVE, seen.card(tile)),  # the tile played: what MOON-INV-5 finds in this step
        )


@checks("MOON-INV-5")
def each_play_follows(props: MoonProperties, step: Step) -> None:
    """MOON-INV-5: the tile played is one MOON-FOLLOW-1..3 allow against the hand before it
    (judged on the tile played, whatever legal_moves listed)."""
    before = step.before
    if step.kind != "play" or before.phase != "play" or before.to_act is None:
        return
    allowed = legal_plays(hand_of(before, before.to_act), before.zone("trick"), before.get("contract"))
    tile = step.move.get("tile")
    props.expect(
        "MOON-INV-5",
        tile in allowed,
        "a play follows the led suit when the hand can, against the hand before it",
        {"one of": sorted(allowed)},
        {"played": tile},
        observed=(seen.MOVE, seen.card(tile)),
    )
