"""Moves the rules forbid, each with the clause it breaks, for the exploration to send as probes.

A probe is a well-formed move an engine must refuse (``illegal_move``, state unchanged): a wrong deal;
in the swap phase a swap of a card not held, of a face-down card, or naming the same card as both
(held in one row only), a play, a decline; later a move of another phase, a card not held, another
seat's card, a card named more often than the seat holds it, a face-down card by name or too early, a
face-up card while the hand holds cards, two ranks at once, a card off the ladder or off the chain, a
card lower than the pile allows.  A probe the engine lists is not sent: the listed move is judged
already (``check_*``), and its acceptance would only repeat it.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ruleproof.properties.idiot.aspects import Aspect
from ruleproof.properties.idiot.cards import beneath, capped, laid_out, play, playable, pool, through, top_key
from ruleproof.properties.idiot.diff import misread_through
from ruleproof.properties.idiot.view import View, key_of
from ruleproof.properties.snapshot import Snapshot

if TYPE_CHECKING:
    from ruleproof.properties.idiot.props import IdiotProperties

Probe = tuple[dict[str, Any], str]


def bad_moves(props: IdiotProperties, snap: Snapshot) -> list[Probe]:
    """The probes of this state (none the engine lists)."""
    phase = snap.phase
    if phase == "deal":
        return bad_deals(props.decks, props.n)
    if phase == "over" or snap.to_act is None:
        return []
    v = props.view(snap)
    s = snap.to_act
    hand, fu, fd = v.hand[s], v.fu[s], v.fd[s]
    not_held = next((c for c in sorted(pool(1)) if c not in hand and c not in fu and c not in fd), None)
    bad = bad_swaps(hand, fu, fd, not_held) if phase == "swap" else bad_plays(props, v, s, not_held)
    listed = v.listed
    return [(m, clause) for m, clause in bad if key_of(m) not in listed]


def bad_plays(props: IdiotProperties, v: View, s: int, not_held: str | None) -> list[Probe]:
    """The probes of the opening and the play phase."""
    hand, fu = v.hand[s], v.fu[s]
    bad: list[Probe] = []
    _out_of_turn(bad, v, hand, fu)
    if not_held:
        bad.append((play([not_held]), "IDIOT-MULTI-1"))
    others: Counter[str] = Counter()
    for o in range(v.n):
        if o != s:
            others.update(v.hand[o])
    foreign = [c for c in others if c not in hand and c not in fu]
    if foreign:
        bad.append((play([foreign[0]]), "IDIOT-MULTI-1"))
    zone = v.zone_of(s)
    src = hand if zone == "hand" else fu if zone == "face_up" else Counter()
    _named_twice(bad, v, s, src)
    _hidden_cards(bad, v, s, zone)
    _ranks(bad, props, v, hand, src)
    return bad


def bad_deals(decks: int, n: int) -> list[Probe]:
    """IDIOT-DEAL-1/2: a deal of the wrong sizes or a short draw pile; IDIOT-SETUP-2: a card twice (one
    missing) in the draw pile, a face-down row or a hand, or no card of the pool."""
    good = laid_out(sorted(pool(decks).elements()), n)
    bad: list[Probe] = []
    short = {**good, "hand": [good["hand"][0] + good["draw"][:1], *good["hand"][1:]], "draw": good["draw"][1:]}
    bad.append((short, "IDIOT-DEAL-1"))
    fewer = {**good, "face_down": good["face_down"][:-1], "draw": good["draw"] + good["face_down"][-1]}
    bad.append((fewer, "IDIOT-DEAL-1"))
    extra = good["hand"][0][0]  # one copy too many of a card, one card missing
    if good["draw"]:
        bad.append(({**good, "draw": good["draw"][:-1]}, "IDIOT-DEAL-2"))
        bad.append(({**good, "draw": [*good["draw"][:-1], extra]}, "IDIOT-SETUP-2"))
    down = [*good["face_down"][:-1], [extra, *good["face_down"][-1][1:]]]
    bad.append(({**good, "face_down": down}, "IDIOT-SETUP-2"))
    bad.append(({**good, "hand": [["1Z", *good["hand"][0][1:]], *good["hand"][1:]]}, "IDIOT-SETUP-2"))
    return bad


def bad_swaps(hand: Counter[str], fu: Counter[str], fd: Counter[str], not_held: str | None) -> list[Probe]:
    """IDIOT-SWAP-1: a swap of a card not held or a face-down card, a swap naming one card as both the hand
    card and the face-up card while only one row holds it, a play during the swap phase; IDIOT-OPEN-1: a
    decline before the opening."""
    bad: list[Probe] = []
    if not_held and fu:
        bad.append(({"type": "swap", "hand": not_held, "face_up": next(iter(fu))}, "IDIOT-SWAP-1"))
    fd_only = [c for c in fd if c not in fu]
    if fd_only and hand:
        bad.append(({"type": "swap", "hand": next(iter(hand)), "face_up": fd_only[0]}, "IDIOT-SWAP-1"))
    hand_only = [c for c in hand if c not in fu]
    if hand_only:
        bad.append(({"type": "swap", "hand": hand_only[0], "face_up": hand_only[0]}, "IDIOT-SWAP-1"))
    up_only = [c for c in fu if c not in hand]
    if up_only:
        bad.append(({"type": "swap", "hand": up_only[0], "face_up": up_only[0]}, "IDIOT-SWAP-1"))
    if hand:
        bad.append((play([next(iter(hand))]), "IDIOT-SWAP-1"))
    bad.append(({"type": "decline"}, "IDIOT-OPEN-1"))
    return bad


def _out_of_turn(bad: list[Probe], v: View, hand: Counter[str], fu: Counter[str]) -> None:
    """Moves of another phase or state: a swap (IDIOT-SWAP-1), a decline outside the ladder or on "any"
    (IDIOT-OPEN-1/3), a stop with nothing pending (IDIOT-TWO-2), a pickup of no pile (IDIOT-PICKUP-3)."""
    if hand and fu:
        bad.append(({"type": "swap", "hand": next(iter(hand)), "face_up": next(iter(fu))}, "IDIOT-SWAP-1"))
    if v.phase != "opening":
        bad.append(({"type": "decline"}, "IDIOT-OPEN-1"))
    elif v.snap.get("opening_rank") == "any":
        bad.append(({"type": "decline"}, "IDIOT-OPEN-3"))
    if not v.pending:
        bad.append(({"type": "stop"}, "IDIOT-TWO-2"))
    if not v.pile and not v.pending:
        bad.append(({"type": "pickup"}, "IDIOT-PICKUP-3"))


def _named_twice(bad: list[Probe], v: View, s: int, src: Counter[str]) -> None:
    """IDIOT-MULTI-1: a play naming a card the engine lists alone once more than the seat holds it at all
    (with 2 decks and both copies held, three times): legal by membership, never by count."""
    listed = v.listed
    c = next((c for c in sorted(src) if (c,) in listed), None)
    if c is not None:
        held = v.hand[s][c] + v.fu[s][c] + v.fd[s][c]
        bad.append((play([c] * (held + 1)), "IDIOT-MULTI-1"))


def _hidden_cards(bad: list[Probe], v: View, s: int, zone: str) -> None:
    """IDIOT-BLIND-1: face-down cards before they are the open zone, or an index past them;
    IDIOT-TABLE-1: face-up cards while the hand holds some."""
    hand, fu, fd = v.hand[s], v.fu[s], v.fd[s]
    if zone != "face_down" and fd:
        bad.append(({"type": "play_blind", "index": 0}, "IDIOT-BLIND-1"))
        fd_only = [c for c in fd if c not in hand and c not in fu]
        if fd_only:
            bad.append((play([fd_only[0]]), "IDIOT-BLIND-1"))
    if zone == "face_down" and 0 < len(v.fd_list[s]) < 3 and v.pending != "chain":
        bad.append(({"type": "play_blind", "index": len(v.fd_list[s])}, "IDIOT-BLIND-1"))
    if hand and fu:
        up_only = [c for c in fu if c not in hand]
        if up_only:
            bad.append((play([up_only[0]]), "IDIOT-TABLE-1"))


# the clause of a low card the engine might accept: IDIOT-RANK-1 when another order of the ranks explains it
RANK_PROBE = {Aspect.ORDER: "IDIOT-RANK-1", Aspect.RANK: "IDIOT-PLAY-2"}


def _ranks(bad: list[Probe], props: IdiotProperties, v: View, hand: Counter[str], src: Counter[str]) -> None:
    """Cards of the wrong rank: two ranks at once (IDIOT-MULTI-1), off the opening ladder's rank
    (IDIOT-OPEN-1), off a chain's rank (IDIOT-DRAW-3), or lower than the pile allows (IDIOT-PLAY-2, or
    IDIOT-RANK-1 when the engine's comparisons seen so far make it an order of its own)."""
    ranks = sorted({c[0] for c in src})
    if len(ranks) >= 2 and v.pending != "chain":
        a, b = (min(c for c in src if c[0] == r) for r in ranks[:2])
        bad.append((play([a, b]), "IDIOT-MULTI-1"))
    if v.phase == "opening":
        rank = v.snap.get("opening_rank")
        if rank != "any":
            wrong = [c for c in hand if c[0] != rank]
            if wrong:
                bad.append((play([wrong[0]]), "IDIOT-OPEN-1"))
    elif v.pending == "chain" and v.pile:
        wrong = [c for c in hand if c[0] != v.pile[-1][0]]
        if wrong:
            bad.append((play([wrong[0]]), "IDIOT-DRAW-3"))
    elif not v.pending and v.pile:
        low = [c for c in src if not playable(c[0], v.pile, v.opts)]
        if low:
            bad.append((play([low[0]]), _low_clause(props, v, low[0][0])))


def _low_clause(props: IdiotProperties, v: View, r: str) -> str:
    """The clause a play of ``r`` lower than the pile allows breaks when taken: through a transparent card the
    transparent rule's only where the engine refuses it on the card below with nothing on it (else the rank
    rules', judged against that card, as ``diff.misread_through`` files listings)."""
    under = beneath(v.pile, v.opts)
    if through(v.pile, v.opts) and misread_through(v, props.ranks, r, True):
        return "IDIOT-TRANSPARENT-1"
    if through(v.pile, v.opts) and capped(under, v.opts):
        return "IDIOT-SEVEN-1"
    skip = "T" if v.opts["ten_anytime"] else ""
    aspect, _ = props.ranks.classify(r, top_key(under), True, skip, now=True)
    return RANK_PROBE.get(aspect, "IDIOT-PLAY-2")
