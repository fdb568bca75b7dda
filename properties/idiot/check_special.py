"""Burns (IDIOT-BURN-10, IDIOT-BURN-4KIND, IDIOT-BURN-6S): the pile burns exactly when the rules say.

A 10 burns the whole pile (ten_anytime or not), a run of four or more of one rank on top burns it (the
maximal contiguous run, across plays and players, a 2 breaking it), three 6s (``six_burn: 3``) burn
it.  Burning is judged only when the play stays on the pile (a failed blind card burns nothing); who
starts the new pile is the turn order's (``check_turn``), the 2's follow-up ``check_turn``'s too, and
"a 2 or a 10 goes on anything" rank legality's (``check_play``).  A transparent card is a card of its rank
(four of it burn) that breaks a run of another (IDIOT-TRANSPARENT-1); a burn counted across it is accepted too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ruleproof.model import observed as obs
from ruleproof.properties.idiot.cards import burn_of, run_past_twos, same, size, top_run
from ruleproof.properties.idiot.props import checks
from ruleproof.properties.shown import top
from ruleproof.properties.snapshot import Step

if TYPE_CHECKING:
    from ruleproof.properties.idiot.outcome import Outcome
    from ruleproof.properties.idiot.props import IdiotProperties

BURN_CLAUSES = {"ten": "IDIOT-BURN-10", "sixes": "IDIOT-BURN-6S", "run": "IDIOT-BURN-4KIND"}
PILES = (obs.zone("discard"), obs.zone("burned"))  # a burn moves the pile into the burn pile
BURN_MESSAGES = {
    "ten": "a 10 burns the whole pile, itself included",
    "sixes": "{six_burn} or more 6s on top burn the whole pile",
    "run": "four or more cards of one rank on top burn the whole pile",
}


@checks("IDIOT-BURN-10", "IDIOT-BURN-4KIND", "IDIOT-BURN-6S")
def burns(props: IdiotProperties, step: Step) -> None:
    """A play that stays on the pile burns it exactly when the rules say, the whole pile into `burned`."""
    o = props.outcome(step)
    if o is None or o.t not in ("play", "play_blind") or o.failed_blind:
        return
    v0, v1 = props.views(step)
    landed = v0.pile + o.cards  # the pile before any burn
    _situation(props, o, landed)
    burned_now = v1.burned_list != v0.burned_list and bool(v1.burned - v0.burned)  # the same list: no burn
    if o.burn:
        assert o.burned is not None
        ok = burned_now and not v1.pile and same(v1.burned, o.burned)
        props.expect(
            BURN_CLAUSES[o.burn],
            ok,
            BURN_MESSAGES[o.burn].format(six_burn=v0.opts["six_burn"]),
            None if ok else {"discard": [], "burned": size(o.burned) - size(v0.burned)},
            None if ok else {"discard": top(v1.pile), "burned": size(v1.burned) - size(v0.burned)},
            observed=PILES,
        )
        return
    r = o.r or "3"
    if burned_now and _across(landed, v0.opts):
        props.cover(BURN_CLAUSES[burn_of(r)])  # a run counted across a transparent card: the sources leave it open
        return
    if burned_now:  # the engine burned a pile the rules leave standing
        props.fail(
            BURN_CLAUSES[burn_of(r)],
            f"the pile does not burn (top run of {top_run(landed)} x {r})",
            {"discard": landed[-6:], "burned": 0},
            {"discard": v1.pile[-6:], "burned": size(v1.burned) - size(v0.burned)},
            observed=PILES,
        )
    if top_run(landed) >= (2 if r == "6" else 3):
        props.cover(BURN_CLAUSES[burn_of(r)])  # a run one short of burning stays


def _across(landed: list[str], opts: dict[str, Any]) -> bool:
    """IDIOT-TRANSPARENT-1's reading left open: the top card's rank counted across the transparent cards between
    its cards reaches a burn (9 9 3 9 9, a 3 transparent), which the kit accepts as well as the run it breaks."""
    t = opts.get("transparent")
    if t is None or not landed or landed[-1][0] in (t, "T"):
        return False
    r, n = landed[-1][0], 0
    for c in reversed(landed):
        if c[0] == r:
            n += 1
        elif c[0] != t:
            break
    return n >= (opts["six_burn"] if r == "6" else 4)


def _situation(props: IdiotProperties, o: Outcome, landed: list[str]) -> None:
    """IDIOT-BURN-4KIND's situations: four from one play, across plays, five or more, a run broken by a 2."""
    run = top_run(landed)
    if o.burn == "run":
        props.situation(
            "IDIOT-BURN-4KIND", "five-or-more" if run >= 5 else "one-play" if len(o.cards) >= 4 else "across-plays"
        )
    elif not o.burn and o.r not in ("2", "6", "T") and run < 4 <= run_past_twos(landed):
        props.situation("IDIOT-BURN-4KIND", "run-broken")
