"""The deal (FOOL-DEAL-1, FOOL-INV-2, FOOL-SETUP-6, FOOL-TURN-1/2, FOOL-INV-9): hands as sent, the
round's dealer moving left, the discs back in the centre, the first leader left of the dealer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ruleproof.model import observed as seen
from ruleproof.properties.fool.props import checks
from ruleproof.properties.fool.reporting import FOOLS, judge, penalties, tens
from ruleproof.properties.snapshot import Snapshot, Step

if TYPE_CHECKING:
    from ruleproof.properties.fool.props import FoolProperties


@checks("FOOL-DEAL-1", "FOOL-INV-2", "FOOL-SETUP-6", "FOOL-TURN-1", "FOOL-TURN-2", "FOOL-INV-9")
def the_deal(props: FoolProperties, step: Step) -> None:
    """After a deal: hands as sent, |P(n)|/n each, no disc held, the player left of the dealer leads."""
    if step.kind != "deal":
        return
    before, after = step.before, step.after
    _dealt_as_sent(props, step)
    _round_dealer(props, before, after)
    _first_leader(props, after)
    same = {k: before.get(k) for k in ("scores", "tens", "penalties")}
    now = {k: after.get(k) for k in ("scores", "tens", "penalties")}
    props.expect(
        "FOOL-INV-9",
        same == now,
        "a deal changes no total, tally or penalty sum",
        same,
        now,
        observed=lambda: _changed_totals(same, now),
    )
    props.tricks = 0


def _dealt_as_sent(props: FoolProperties, step: Step) -> None:
    """FOOL-DEAL-1 / FOOL-INV-2: each seat holds the h cards sent to it, and nothing is left over."""
    after, n = step.after, props.n
    hands, sent = [after.zone(f"hand/{s}") for s in range(n)], step.move["hands"]
    sizes = [len(h) for h in hands]
    # hands compare as multisets: sorted lists of strings (Counter's == loops in Python), messages only for a finding
    judge(
        props,
        "FOOL-DEAL-1",
        len(hands) == len(sent) and all(sorted(a) == sorted(b) for a, b in zip(hands, sent, strict=False)),
        lambda: (
            "each seat holds exactly the cards dealt to it",
            [sorted(h, key=str) for h in sent],
            [sorted(h, key=str) for h in hands],
        ),
        # the move itself (a deal the engine took as another) and each hand that is not as sent
        observed=lambda: {
            seen.MOVE,
            *(
                seen.zone(f"hand/{s}")
                for s in range(max(len(hands), len(sent)))
                if s >= len(hands) or s >= len(sent) or sorted(hands[s]) != sorted(sent[s])
            ),
        },
    )
    props.situation("FOOL-DEAL-1", f"{props.h} cards each")
    props.expect(
        "FOOL-DEAL-1",
        sum(sizes) == len(props.deck)
        and not after.zone("trick")
        and not after.zone("played")
        and not after.zone("deck"),
        "every card of P(n) is dealt: nothing left in deck, trick or played",
        {"dealt": len(props.deck)},
        {
            "in hands": sum(sizes),
            "deck": len(after.zone("deck")),
            "trick": len(after.zone("trick")),
            "played": len(after.zone("played")),
        },
        observed=lambda: {
            seen.MOVE,
            *(seen.zone(z) for z in ("deck", "trick", "played") if after.zone(z)),
            *(seen.size(f"hand/{s}") for s in range(n) if sizes[s] != props.h),
        },
    )
    props.expect(  # the state's side of a wrong deal accepted: hands of the wrong size
        "FOOL-INV-2",
        all(size == props.h for size in sizes),
        f"every hand has {props.h} cards at the start of a round",
        props.h,
        sizes,
        # the deal applied, and the hands of the wrong size: what a round too short or too long follows from
        observed=lambda: {seen.MOVE, *(seen.size(f"hand/{s}") for s in range(n) if sizes[s] != props.h)},
    )


def _round_dealer(props: FoolProperties, before: Snapshot, after: Snapshot) -> None:
    """FOOL-DEAL-1: a deal starts the next round; FOOL-TURN-1/2: its dealer, moving left each round."""
    rnd = after.get("round")
    props.expect(
        "FOOL-DEAL-1",
        rnd == (before.get("round") or 0) + 1,
        "each deal starts the next round",
        (before.get("round") or 0) + 1,
        rnd,
        observed=(seen.ROUND,),
        rule="the next round",
    )
    want_dealer = (props.setup.dealer + (rnd or 1) - 1) % props.n
    if (rnd or 1) >= 2:
        props.expect(
            "FOOL-TURN-2",
            after.get("dealer") == want_dealer,
            f"the deal passes to the left each round: round {rnd}'s dealer is seat {want_dealer}",
            want_dealer,
            after.get("dealer"),
            observed=(seen.DEALER,),
        )
    else:
        props.expect(
            "FOOL-TURN-1",
            after.get("dealer") == want_dealer,
            "the first round is dealt by the dealer named at new_game",
            want_dealer,
            after.get("dealer"),
            observed=(seen.DEALER,),
            rule="the first dealer",
        )


def _first_leader(props: FoolProperties, after: Snapshot) -> None:
    """FOOL-SETUP-6: every disc back in the centre; FOOL-TURN-1: the player left of the dealer leads
    (`leader` is left open on an empty trick: null, or that player)."""
    props.expect(
        "FOOL-SETUP-6",
        not after.get("fools"),
        "at the start of a round every disc is back in the centre",
        [],
        after.get("fools"),
        observed=(FOOLS,),
    )
    dealer = after.get("dealer")
    first = (dealer + 1) % props.n if isinstance(dealer, int) else None
    if not after.get("fools"):  # with a disc still held the leader may be skipped: reported above
        props.expect(
            "FOOL-TURN-1",
            after.phase == "play" and after.to_act == first and not after.zone("trick"),
            "the player left of the round's dealer leads its first trick",
            {"phase": "play", "to_act": first},
            {"phase": after.phase, "to_act": after.to_act},
            observed=lambda: {seen.TO_ACT, *((seen.PHASE,) if after.phase != "play" else ())},
            rule="the first leader",
        )
        props.expect(
            "FOOL-TURN-1",
            after.get("leader") in (None, first),
            "the round's first leader is left of the dealer",
            first,
            after.get("leader"),
            observed=(seen.LEADER,),
            rule="the first leader",
        )
    props.cover("FOOL-INV-2")


def _changed_totals(before: dict[str, Any], after: dict[str, Any]) -> set[str]:
    """The seats' totals, tallies and penalty sums a deal changed (a field of the wrong shape whole)."""
    atoms: set[str] = set()
    for field, atom in (("scores", seen.score), ("tens", tens), ("penalties", penalties)):
        was, now = before.get(field), after.get(field)
        if was == now:
            continue
        if isinstance(was, list) and isinstance(now, list) and len(was) == len(now):
            atoms |= {atom(s) for s in range(len(now)) if was[s] != now[s]}
        else:
            atoms.add(field)
    return atoms
