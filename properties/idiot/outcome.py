"""The rules' model of one move's outcome: where every card goes, what burns, what is drawn, what is
pending, who is out, whether the game is over and who acts next.

``predict`` works out a legal play, blind play, pickup or stop from the state before it.  A blind card
is judged by the rules, but the outcome follows the engine's own verdict on it when its state shows one
(the card on the pile, or in the hand): a blind card the engine fails against the rules is a
difference of rank legality (``check_play``), and what follows it (the pile into the hand, the turn
passing, the game not ending) is judged as the consequence of the engine's verdict, never as a second
deviation.  So is what follows a burn: the pending follow-up or chain and the next player follow the
engine's burn (its burn pile grew), a burn missed or made against the rules being the burn's difference
alone.  Nothing here names a clause.
"""

from __future__ import annotations

from collections import Counter

from ruleproof.properties.idiot.cards import Burn, burn_kind, house, playable, size, take, top_key
from ruleproof.properties.idiot.legal import split_play
from ruleproof.properties.idiot.view import View, next_active, prev_active
from ruleproof.properties.snapshot import Step

NO_CARDS: Counter[str] = Counter()  # an empty multiset to share: read, never changed


class Outcome:
    """What the rules say the acting seat's zones, the draw pile, the pile, the out list and the turn are
    after one move."""

    # set by _whose_turn (declared here, not assigned: nothing to build for every move)
    out: list[int]
    gone: bool
    holders: list[int]
    over: bool
    to_act: int | None
    direction: int  # the direction of play after the move (IDIOT-REVERSE-1)
    reversed = False  # this move reversed it
    eights = 0  # the players this move's 8s skip, when it passes the turn (IDIOT-EIGHT-1)

    # the defaults of a move that sets them (each replaced, never changed in place: shared by every Outcome)
    t = ""  # the move's type (step.kind, read once)
    # the face-up and face-down rows after the move; None: as before (no multiset built)
    fu: Counter[str] | None = None
    fd: Counter[str] | None = None
    burned: Counter[str] | None = None  # the burn pile after a burn; None when nothing burns
    r: str | None = None
    pending: str | None = None
    burn: Burn | None = None
    failed_blind = False
    rules_legal: bool | None = None  # a blind card: the rules' verdict
    engine_legal: bool | None = None  # a blind card: the engine's verdict, as its state shows it (None: unread)

    def __init__(self, v0: View, s: int) -> None:
        self.s = s
        self.hand = v0.hand.fresh(s)  # changed in place; the rows are replaced when they change
        self.draw, self.pile = v0.draw, v0.pile  # replaced by new lists, never changed in place
        self.top = top_key(v0.pile)  # the top before the move, as a rank comparison sees it
        self.cards: list[str] = []
        self.drawn: list[str] = []
        # the cards a play takes from the hand and the face-up row (split_play's); none until then
        self.from_hand: Counter[str] = NO_CARDS
        self.from_fu: Counter[str] = NO_CARDS


def predict(step: Step, v0: View, v1: View, direction: int = 1) -> Outcome:
    """The rules' outcome of a legal play, blind play, pickup or stop, with play running in ``direction``."""
    t, s = step.kind, step.before.to_act
    assert s is not None
    o = Outcome(v0, s)
    o.t = t
    if t == "pickup":
        o.hand.update(o.pile)
        o.pile = []
    elif t == "play_blind":
        _blind(step, v0, v1, o)
    elif t == "play":
        _play_from_zones(step, v0, o)
    burned = False
    if t in ("play", "play_blind") and not o.failed_blind:
        _land(v0, o)
        # what follows a burn (no follow-up, no chain, the next player or the burner) follows the engine's
        # burn: a burn missed or made against the rules is the burn's difference alone (check_special)
        burned = len(v1.burned_list) > len(v0.burned_list)
    _house_turn(v0, o, direction, burned)
    _whose_turn(v0, o, burned)
    return o


def _house_turn(v0: View, o: Outcome, direction: int, burned: bool) -> None:
    """IDIOT-REVERSE-1: a play of the reverse rank that lands (a burn included) reverses the direction once;
    IDIOT-EIGHT-1: each 8 of a play skips a player when that play passes the turn (none after a burn)."""
    played = o.t in ("play", "play_blind") and not o.failed_blind
    o.reversed = played and o.r is not None and house(v0.opts, "reverse") == o.r
    o.direction = -direction if o.reversed else direction
    if played and o.r == "8" and not burned and house(v0.opts, "eight_skips"):
        o.eights = len(o.cards)


def landed_direction(step: Step, v0: View, direction: int) -> int:
    """The direction after a play the rules forbid but the engine applied: it landed, so a card of the
    reverse rank reverses play as a legal one would (IDIOT-REVERSE-1).  Else every later turn would be
    judged in a direction the engine never had, a second deviation of the one rank misjudged."""
    if step.kind != "play" or step.before.to_act is None:
        return direction
    cards = step.move.get("cards")
    if not isinstance(cards, list) or not cards or not isinstance(cards[0], str) or not cards[0]:
        return direction
    return -direction if house(v0.opts, "reverse") == cards[0][0] else direction


def _blind(step: Step, v0: View, v1: View, o: Outcome) -> None:
    """A face-down card: legal or failed by the engine's verdict when its state shows one, else the rules'."""
    s = o.s
    card = v0.fd_list[s][step.move["index"]]
    o.fd = v0.fd[s] - Counter([card])
    o.cards, o.r = [card], card[0]
    o.rules_legal = playable(o.r, o.pile, v0.opts)
    o.engine_legal = engine_verdict(v0, v1, s, card)
    legal = o.rules_legal if o.engine_legal is None else o.engine_legal
    if not legal:
        o.failed_blind = True
        o.hand.update(o.pile)
        o.hand[card] += 1
        o.pile = []


def engine_verdict(v0: View, v1: View, s: int, card: str) -> bool | None:
    """Did the engine fail the revealed ``card`` (the old pile, or the card, went into the hand) or take it as
    legal (the card on the pile, or burned with it)?  None when its state shows neither."""
    gained = v1.hand[s]
    before = v0.hand[s]
    if v0.pile and all(gained[c] >= before[c] + k for c, k in Counter(v0.pile).items()):
        return False
    if gained[card] > before[card]:
        return False
    if v1.pile[-1:] == [card] or (v1.burned_list != v0.burned_list and v1.burned[card] > v0.burned[card]):
        return True
    return None


def _play_from_zones(step: Step, v0: View, o: Outcome) -> None:
    """A play: the cards leave the hand and/or the face-up row."""
    o.cards = cards = list(step.move["cards"])
    o.r = cards[0][0]
    parts = split_play(v0, cards, o.hand)  # o.hand: still the hand before the move
    assert parts is not None
    o.from_hand, o.from_fu = from_hand, from_fu = parts
    take(o.hand, from_hand)
    if from_fu:
        o.fu = v0.fu[o.s] - from_fu


def _land(v0: View, o: Outcome) -> None:
    """The played cards land on the pile, which may burn; a play from the hand draws back up to 3."""
    o.pile = o.pile + o.cards
    o.burn = burn_kind(o.pile, v0.opts)
    if o.burn:
        o.burned = v0.burned.copy()
        o.burned.update(o.pile)
        o.pile = []
    if o.from_hand:
        draw = o.draw
        k = min(len(draw), max(0, 3 - size(o.hand)))
        if k:
            o.drawn = draw[len(draw) - k :]
            o.draw = draw[: len(draw) - k]
            o.hand.update(o.drawn)


def _whose_turn(v0: View, o: Outcome, burned: bool) -> None:
    """Who is out, whether the game is over, what is pending and who acts next (``burned``: the engine's
    pile burned)."""
    t, s, n, opts = o.t, o.s, v0.n, v0.opts
    o.out = list(v0.out)
    o.gone = not (o.hand or (v0.fu.lists[s] if o.fu is None else o.fu) or (v0.fd.lists[s] if o.fd is None else o.fd))
    if o.gone and s not in o.out:
        o.out.append(s)
    holding = v0.holding
    o.holders = [x for x in range(n) if (holding[x] if x != s else not o.gone)]
    o.over = len(o.holders) == 1
    if t in ("play", "play_blind") and not o.failed_blind and not burned and not o.gone:
        if o.r == "2" and t == "play" and opts["two_followup"] == "optional":
            o.pending = "two_followup"
        elif o.r in {c[0] for c in o.drawn}:
            o.pending = "chain"
    if o.over:
        o.to_act = None
    elif o.pending or (burned and opts["after_burn"] == "burner" and not o.gone):
        o.to_act = s
    else:
        o.to_act = next_seat(s, n, o.out, o.direction, o.eights)


def next_seat(s: int, n: int, out: list[int], direction: int, skips: int) -> int | None:
    """The next active seat from ``s`` in ``direction``, ``skips`` active seats passed over (with two active
    players an 8 skips the other: the same seat again)."""
    step = next_active if direction == 1 else prev_active
    seat: int | None = s
    for _ in range(skips + 1):
        seat = step(seat, n, out) if seat is not None else None
    return seat
