"""A completed trick: the discs (FOOL-INV-5, FOOL-SETUP-5, FOOL-SIT-3), the worst cards
(FOOL-WORST-1..4, FOOL-WILD-2, FOOL-OFF-1) and the winner (FOOL-WIN-1/2, FOOL-INV-6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleproof.model import observed as seen
from ruleproof.model.notation import FOOL_WILD, fool_number
from ruleproof.properties.fool.cards import off_colour
from ruleproof.properties.fool.props import checks
from ruleproof.properties.fool.reporting import FOOLS, describe, judge
from ruleproof.properties.fool.trick import Trick, completed
from ruleproof.properties.fool.worst import misjudged
from ruleproof.properties.snapshot import Step

if TYPE_CHECKING:
    from ruleproof.properties.fool.props import FoolProperties


@checks("FOOL-SETUP-5", "FOOL-SIT-3", "FOOL-INV-5")
def disc_holders(props: FoolProperties, step: Step) -> None:
    """FOOL-INV-5: right after a trick the discs are held by exactly the players of its k(n) worst cards
    (the state's side of every wrong fool); FOOL-SETUP-5: k(n) of them; FOOL-SIT-3: by players of this
    trick.  Which ordering rule a wrong choice among the trick's players breaks is ``worst_cards``'."""
    t = completed(props, step)
    if t is None:
        return
    judge(
        props,
        "FOOL-INV-5",
        t.got_fools == t.want_fools,
        lambda: (
            f"the fools of trick {describe(t.cards, t.seats)} (lead colour {t.lead})",
            {"fools": list(t.want_fools)},
            {"fools": list(t.got_fools)},
        ),
        observed=(FOOLS,),
    )
    why = f"trick {describe(t.cards, t.seats)}, lead colour {t.lead}"
    props.situation("FOOL-SETUP-5", f"{props.k} disc{'s' if props.k > 1 else ''}")
    if len(set(t.got_fools)) != props.k:
        props.fail(
            "FOOL-SETUP-5",
            f"k(n) = {props.k} fool(s) per trick; {why}",
            list(t.want_fools),
            t.got_fools,
            observed=(FOOLS,),
        )
    elif not set(t.got_fools) <= set(t.seats):
        props.fail(
            "FOOL-SIT-3",
            f"the discs go to the players of the worst cards of the trick just played; {why}",
            list(t.want_fools),
            list(t.got_fools),
            observed=(FOOLS,),
        )
    else:
        props.cover("FOOL-SETUP-5", "FOOL-SIT-3")


@checks("FOOL-WORST-1", "FOOL-WORST-2", "FOOL-WORST-3", "FOOL-WORST-4", "FOOL-WILD-2", "FOOL-OFF-1")
def worst_cards(props: FoolProperties, step: Step) -> None:
    """The fools are the players of the k(n) worst cards of one total order (FOOL-WORST-1..4, FOOL-WILD-2);
    a wrong choice among the trick's players is filed under the rule whose misreading gives the engine's
    choice (``misjudged``)."""
    t = completed(props, step)
    if t is None or len(set(t.got_fools)) != props.k or not set(t.got_fools) <= set(t.seats):
        return  # no trick, or a disc count or holder FOOL-SETUP-5 / FOOL-SIT-3 report
    if t.got_fools == t.want_fools:
        _cover_outcome(props, t)
        return
    explained = misjudged(t, props.k)
    for clause, why in explained:
        props.fail(
            clause,
            f"{why}; trick {describe(t.cards, t.seats)}, lead colour {t.lead}",
            {"fools": list(t.want_fools)},
            {"fools": list(t.got_fools)},
            cause=" or ".join(c for c, _ in explained),
            observed=(FOOLS,),
        )


def _cover_outcome(props: FoolProperties, t: Trick) -> None:
    """The trick-outcome clauses a correctly judged trick exercised."""
    trick, lead, k = t.cards, t.lead, props.k
    props.cover("FOOL-WORST-4")
    offs = [i for i in range(len(trick)) if off_colour(trick[i], lead)]
    props.cover("FOOL-WORST-2" if offs else "FOOL-WORST-1")
    if offs:
        props.cover("FOOL-OFF-1")  # reported as covered: a definition, its violations are WORST-2 / WILD-2
        if FOOL_WILD in trick:
            props.cover("FOOL-WILD-2")
    elif FOOL_WILD in trick and lead is not None and trick[t.order[0]] == FOOL_WILD:
        props.cover("FOOL-WILD-2")
    keys = [(off_colour(trick[i], lead), fool_number(trick[i])) for i in t.order[: k + 1]]
    if len(set(keys)) < len(keys):
        props.cover("FOOL-WORST-3")


@checks("FOOL-WIN-1", "FOOL-WIN-2", "FOOL-INV-6")
def trick_winner(props: FoolProperties, step: Step) -> None:
    """FOOL-WIN-1/2: the player of the highest card counting as the lead colour wins and leads the next
    trick; FOOL-INV-6: a fool of the trick never leads it.  When the rules' winner is among the engine's
    fools (a worst-card rule misread: FOOL-INV-5 and that rule are reported), it sits the next trick
    out by the engine's own discs, and who leads instead is no question the rules answer."""
    t, after = completed(props, step), step.after
    if t is None or after.phase != "play" or t.winner in t.got_fools:
        return
    props.expect(
        "FOOL-INV-6",
        after.to_act not in t.got_fools,
        "the winner of a trick is never one of its fools, and leads next",
        {"leader not among": list(t.got_fools)},
        {"leader": after.to_act},
        observed=(seen.TO_ACT,),
    )
    if after.to_act in t.got_fools:
        return
    if after.to_act != t.winner:
        win = t.seats.index(t.winner)
        # a tie-break of 1s, or another player of this trick taken for its winner; else the lead went astray
        clause = "FOOL-WIN-1" if t.lead is None or after.to_act in t.seats else "FOOL-WIN-2"
        props.fail(
            clause,
            f"the highest card counting as the lead colour ({t.cards[win]}, seat {t.winner}) wins the trick "
            f"and its player leads the next; trick {describe(t.cards, t.seats)}, lead colour {t.lead}",
            t.winner,
            after.to_act,
            observed=(seen.TO_ACT,),
        )
    props.cover("FOOL-WIN-1", "FOOL-WIN-2")
