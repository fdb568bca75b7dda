"""The deal (BM-DEAL-1/2) and what it starts: every hand as sent, the next round, the dealer moved left,
and the pass from the dealer's left (BM-PASS-1/-3: no round without one; BM-PASS-2: who passes first).

The first dealer is judged on the first state (``BlackMariaProperties.start``); exactly when `dealer`
moves between rounds is left open (protocol.md §8): only its value once the next round is dealt counts.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ruleproof.model import observed as seen
from ruleproof.properties.black_maria.cards import hand_size
from ruleproof.properties.black_maria.house import pass_way
from ruleproof.properties.black_maria.props import checks
from ruleproof.properties.snapshot import Snapshot, Step

if TYPE_CHECKING:
    from ruleproof.properties.black_maria.props import BlackMariaProperties


@checks("BM-DEAL-1", "BM-DEAL-2", "BM-INV-2")
def the_deal(props: BlackMariaProperties, step: Step) -> None:
    """After a deal: hands as sent, 17 or 13 each, the next round, its dealer."""
    if step.kind != "deal":
        return
    after, n = step.after, props.n
    hands = [Counter(after.zone(f"hand/{s}")) for s in range(n)]
    props.expect(
        "BM-DEAL-1",
        hands == [Counter(h) for h in step.move["hands"]],
        "each seat holds exactly the cards dealt to it",
        step.move["hands"],
        [after.zone(f"hand/{s}") for s in range(n)],
        observed=lambda: {seen.zone(f"hand/{s}") for s in range(n) if hands[s] != Counter(step.move["hands"][s])},
    )
    size = hand_size(n)
    props.expect(
        "BM-INV-2",
        all(sum(h.values()) == size for h in hands),
        f"every hand has {size} cards after the deal",
        size,
        [sum(h.values()) for h in hands],
        observed=lambda: {seen.size(f"hand/{s}") for s in range(n) if sum(hands[s].values()) != size},
    )
    rnd = after.get("round")
    props.expect(
        "BM-DEAL-2",
        rnd == step.before.get("round", 0) + 1,
        "each deal starts the next round",
        step.before.get("round", 0) + 1,
        rnd,
        observed=(seen.ROUND,),
    )
    want_dealer = (props.setup.dealer + (rnd or 1) - 1) % n
    props.expect(
        "BM-DEAL-2",
        after.get("dealer") == want_dealer,
        f"round {rnd}'s dealer is the first dealer moved {(rnd or 1) - 1} seat(s) left",
        want_dealer,
        after.get("dealer"),
        observed=(seen.DEALER,),
    )
    props.dealt = hands
    props.passed = {}
    props.round_scores = list(step.before.scores)


@checks("BM-PASS-1", "BM-PASS-2", "BM-PASS-3", "BM-PASS-4")
def pass_begins(props: BlackMariaProperties, step: Step) -> None:
    """Every round starts with the pass (a round of 2 or later without one is a hold round, BM-PASS-3; the
    first, no pass at all, BM-PASS-1), the seat left of the dealer the engine names passing first; with
    a declared pass rule, a round passes iff its way is not hold (BM-PASS-4)."""
    if step.kind != "deal":
        return
    after, n = step.after, props.n
    rnd = after.get("round") or 0
    if props.house.passing != "right":  # a declared pass rule: this round's way (BM-PASS-4)
        if not _declared_round(props, after, rnd):
            return
    elif after.phase != "pass":
        props.fail(
            "BM-PASS-3" if rnd >= 2 else "BM-PASS-1",
            "every round starts with the pass of three cards to the right: there is no hold round",
            {"phase": "pass"},
            {"phase": after.phase},
            observed=(seen.PHASE,),
        )
        return
    else:
        props.cover("BM-PASS-3" if rnd >= 2 else "BM-PASS-1")  # no hold round: this one passes
    dealer = after.get("dealer")  # the dealer the engine names, so a wrong dealer fails only BM-DEAL-2
    first = (dealer + 1) % n if isinstance(dealer, int) else None
    props.expect(
        "BM-PASS-2",
        after.to_act == first,
        "after the deal the seats pass, starting left of the dealer",
        {"phase": "pass", "to_act": first},
        {"phase": after.phase, "to_act": after.to_act},
        observed=(seen.TO_ACT,),
    )


def _declared_round(props: BlackMariaProperties, after: Snapshot, rnd: int) -> bool:
    """BM-PASS-4 as a round is dealt under a declared pass rule: it passes iff its way is not hold.
    True when the engine's round passes (its first passer is then judged)."""
    option = props.house.passing
    way = pass_way(option, props.n, rnd or 1)
    props.paired_situations("BM-PASS-4")
    props.expect(
        "BM-PASS-4",
        (after.phase == "pass") == (way != "hold"),
        f"with pass={option} round {rnd} " + ("holds: no pass" if way == "hold" else f"passes {way}"),
        {"phase": "play" if way == "hold" else "pass"},
        {"phase": after.phase},
        observed=(seen.PHASE,),
        rule="hold" if way == "hold" or after.phase != "pass" else "",
    )
    return after.phase == "pass"
