"""Fool (Friedemann Friese's FOOL!, 4-8 players) stated as properties.

Read from rules.md §1 and protocol.md §4 "fool" without the reference engine.
Every player sheds cards into tricks; the highest card of the lead colour
wins and leads next, and the player(s) of the worst card(s) become the fool(s)
and sit out the next trick.  A round ends after the first trick that empties a
hand: +10 for going out, 0 for going out as a fool of that trick, minus the
cards left (a 1 costs 5) otherwise.  The game ends at -80 (net total, or gross
penalties with ``loss: gross``) or on a sixth +10; the highest total wins.

Covered: FOOL-SETUP-1..6, FOOL-DEAL-1, FOOL-TURN-1/2, FOOL-LEAD-1,
FOOL-COLOUR-1, FOOL-WILD-1/2, FOOL-FOLLOW-1/2, FOOL-OFF-1, FOOL-WIN-1/2,
FOOL-WORST-1..4, FOOL-SIT-1..3, FOOL-END-1, FOOL-SCORE-1..4, FOOL-GAME-1/2 and
the invariants FOOL-INV-1..11.  The deck per player count is computed here from
the ``deck`` option (A-FOOL-DECK table, or an explicit deck object).

Every transition is judged from the engine's own state: the trick is the cards
the engine collected, its fools and next leader are the ones it names, a round
is scored against the fools it reports.  One deviation (a wrong fool, a seat
skipped) is reported where it happens and switches no later check off.

Left open by the contract, so never failed here: when ``dealer`` moves between
rounds (only the dealer named after each deal is checked), ``leader`` on an
empty trick (null or the seat to act), where the final trick's cards lie
between rounds (``trick`` or ``played``), the order of cards in a hand, and
whether empty zones are present.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import chain
from typing import Any, ClassVar

from attrs import frozen
from hypothesis import strategies as st

from ruleproof.model.engine import JSONObject
from ruleproof.model.findings import Setup
from ruleproof.model.notation import (
    FOOL_BOX_MAX,
    FOOL_BOX_WILDS,
    FOOL_COLOURS,
    FOOL_WILD,
    fool_box,
    fool_colour,
    fool_number,
)
from ruleproof.properties import draws
from ruleproof.properties.base import GameProperties, IntRange
from ruleproof.properties.checks import CheckRegistry
from ruleproof.properties.options import judge_start
from ruleproof.properties.snapshot import Snapshot, Step, move_diff

GAME = "fool"

# Assumption A-FOOL-DECK (rules.md §1.2): players -> (G max, R max, Y max, B max, number of 1s).
ASSUMED_2018 = {
    8: {"G": 27, "R": 23, "Y": 21, "B": 15, "1": 6},
    7: {"G": 26, "R": 22, "Y": 20, "B": 14, "1": 6},
    6: {"G": 23, "R": 19, "Y": 17, "B": 12, "1": 5},
    5: {"G": 20, "R": 16, "Y": 14, "B": 10, "1": 4},
    4: {"G": 17, "R": 13, "Y": 11, "B": 8, "1": 3},
}
BOX: Counter[str] = Counter(fool_box())
BOX_SORTED = sorted(fool_box())  # the box as a sorted list: the per-step conservation check compares lists
DEFAULTS = {"deck": "assumed-2018", "two_fools_from": 7, "loss": "net"}
GAME_END_LOSS = 80  # FOOL-GAME-1
SIXTH_TEN = 6
# what a hand may play (legal_cards): lead anything, follow the lead colour, or play anything; the
# clause that allows it.  The duty is a plain word so that the steering (choose) names no clause.
DUTY_CLAUSE = {"lead": "FOOL-LEAD-1", "follow": "FOOL-FOLLOW-1", "free": "FOOL-FOLLOW-2"}

checks = CheckRegistry()


def profile(players: int, deck: Any) -> dict[str, int]:
    """The active profile P(n) as colour maxima and a count of 1s (FOOL-SETUP-3)."""
    if isinstance(deck, dict):
        return {k: int(deck[k]) for k in ("G", "R", "Y", "B", "1")}
    return ASSUMED_2018[players]


def deck_cards(prof: dict[str, int]) -> list[str]:
    """The cards of a profile: each colour 2..max, plus the 1s."""
    cards = [f"{c}{v}" for c in FOOL_COLOURS for v in range(2, prof[c] + 1)]
    return cards + [FOOL_WILD] * prof["1"]


def hand_size(players: int) -> int:
    """FOOL-DEAL-1: 12 cards each, 11 at 8 players."""
    return 11 if players == 8 else 12


def deck_size(players: int) -> int:
    """FOOL-SETUP-4."""
    return 88 if players == 8 else 12 * players


def fool_count(players: int, two_fools_from: int) -> int:
    """FOOL-SETUP-5 / FOOL-AMB-5: k(n)."""
    return 2 if players >= two_fools_from else 1


def value(card: str) -> int:
    """FOOL-SCORE-3: a numbered card costs its number, a 1 costs 5."""
    return 5 if card == FOOL_WILD else fool_number(card)


def lead_colour(trick: Sequence[str]) -> str | None:
    """FOOL-COLOUR-1: the colour of the first card that is not a 1 (None while only 1s)."""
    for c in trick:
        if c != FOOL_WILD:
            return fool_colour(c)
    return None


def off_colour(card: str, lead: str | None) -> bool:
    """FOOL-OFF-1 / FOOL-WILD-2: neither a 1 nor of the lead colour."""
    return lead is not None and card != FOOL_WILD and fool_colour(card) != lead


def worst_order(trick: Sequence[str], lead: str | None) -> list[int]:
    """FOOL-WORST-4: play indices from worst to best: off-colour first, lower number first, later first."""
    return sorted(range(len(trick)), key=lambda i: (0 if off_colour(trick[i], lead) else 1, fool_number(trick[i]), -i))


def winner_index(trick: Sequence[str], lead: str | None) -> int:
    """FOOL-WIN-1: the highest card counting as the lead colour; the earliest among equals (1s)."""
    return max(
        (i for i in range(len(trick)) if not off_colour(trick[i], lead)), key=lambda i: (fool_number(trick[i]), -i)
    )


def legal_cards(hand: Sequence[str], trick: Sequence[str]) -> tuple[set[str], str]:
    """The cards that may be played, and the duty that allows them (a key of ``DUTY_CLAUSE``): any card
    when leading (FOOL-LEAD-1), the lead colour or a 1 when the hand holds a non-1 card of it
    (FOOL-FOLLOW-1, FOOL-WILD-1), else any card (FOOL-FOLLOW-2)."""
    cards = set(hand)
    if not trick:
        return cards, "lead"
    lead = lead_colour(trick)
    if lead is not None and any(c != FOOL_WILD and fool_colour(c) == lead for c in cards):
        return {c for c in cards if c == FOOL_WILD or fool_colour(c) == lead}, "follow"
    return cards, "free"


def allowed_cards(props: FoolProperties, snap: Snapshot) -> tuple[set[str], str]:
    """``legal_cards`` for the seat to act in ``snap``, worked out once per snapshot: a step's state
    after is the next step's state before, and the checks ask about both."""
    if props.allowed_in is not snap:
        props.allowed_in = snap
        props.allowed = legal_cards(snap.zone(f"hand/{snap.to_act}"), snap.zone("trick"))
    return props.allowed


def play(card: str) -> dict[str, str]:
    return {"type": "play", "card": card}


def clockwise_after(seat: int, n: int, skip: set[int]) -> int:
    """The next seat to the left of ``seat`` that is not sitting out."""
    for d in range(1, n + 1):
        s = (seat + d) % n
        if s not in skip:
            return s
    return seat


@frozen
class Trick:
    """A trick the engine has just completed, as the rules resolve it (worked out once per step)."""

    cards: tuple[str, ...]
    seats: tuple[int, ...]
    lead: str | None
    order: tuple[int, ...]  # play indices, worst first (FOOL-WORST-4)
    want_fools: tuple[int, ...]  # the seats of the k worst cards, sorted
    winner: int  # the seat of the winning card (FOOL-WIN-1)
    got_fools: tuple[int, ...]  # the disc holders the engine names after the trick, sorted


def completed(props: FoolProperties, step: Step) -> Trick | None:
    """The trick this step completed, by the engine's account (the play left the trick empty or ended
    the round), resolved by the rules; None when the step completed none, or one whose bookkeeping is
    broken.  Worked out once per step, which also counts the round's completed tricks (``props.tricks``)
    and notes whether the step's trick is the round's first (``props.first``) and whether the engine
    completed it (``props.done``)."""
    if props.trick_step is not step:
        props.trick_step, props.trick_view, props.done = step, None, False
        props.first = props.tricks == 0
        before, after = step.before, step.after
        played = step.kind == "play" and before.phase == "play" and before.to_act is not None
        if played and (after.phase != "play" or not after.zone("trick")):
            props.tricks += 1
            props.done = True
            props.trick_view = _resolved(props, step)
    return props.trick_view


def trick_done(props: FoolProperties, step: Step) -> bool:
    """Whether the engine completed a trick in ``step`` (its trick is empty after a play, or the round ended)."""
    completed(props, step)
    return props.done


def first_trick(props: FoolProperties, step: Step) -> bool:
    """Whether the play of ``step`` belongs to the round's first trick (no trick completed before it)."""
    completed(props, step)
    return props.first


def _resolved(props: FoolProperties, step: Step) -> Trick | None:
    """The rules' outcome of the trick the engine completed in ``step``; None when its bookkeeping is
    broken (the seats do not match the cards: FOOL-INV-3), so that no rule can be applied to it."""
    before, card, seat = step.before, step.move.get("card"), step.before.to_act
    seats: list[int] = [*list(before.get("trick_seats") or []), seat if seat is not None else -1]
    cards: list[str] = [*before.zone("trick"), card if isinstance(card, str) else ""]
    if len(cards) != len(seats) or not isinstance(card, str) or card not in BOX:
        return None
    lead = lead_colour(cards)
    order = tuple(worst_order(cards, lead))
    return Trick(
        tuple(cards),
        tuple(seats),
        lead,
        order,
        tuple(sorted(seats[i] for i in order[: props.k])),
        seats[winner_index(cards, lead)],
        tuple(sorted(step.after.get("fools") or [])),
    )


class FoolProperties(GameProperties):
    game: ClassVar[str] = GAME
    deal_clause: ClassVar[str] = "FOOL-DEAL-1"
    checks: ClassVar[CheckRegistry] = checks
    ordered_zones = frozenset({"trick"})
    option_clauses: ClassVar[dict[tuple[str, Any], tuple[str, ...]]] = {}
    # FOOL-OFF-1 defines "off-colour"; an engine that misreads it fails FOOL-WORST-2 or FOOL-WILD-2
    covered_only = frozenset({"FOOL-OFF-1"})
    # a steered game (choose) plays 6 rounds of h tricks of n-k cards to a sixth +10: 220 to 370 plays
    step_scale: ClassVar[float] = 1.5

    # the readings of the game end: which of the two end conditions fired (or neither), and a shared win
    situations: ClassVar[dict[str, tuple[str, ...]]] = {
        "FOOL-GAME-1": ("continues", "ends-by-loss", "ends-by-sixth-ten"),
        "FOOL-GAME-2": ("unique-highest", "tie-for-highest"),
    }

    def __init__(self, setup: Setup, ledger: Any) -> None:
        super().__init__(setup, ledger)
        n = setup.players
        opts = {**DEFAULTS, **setup.options}
        self.n = n
        self.profile = profile(n, opts["deck"])
        self.deck = deck_cards(self.profile)
        self.deck_count: Counter[str] = Counter(self.deck)
        self.unused: Counter[str] = BOX - self.deck_count
        self.unused_sorted = sorted(self.unused.elements())
        self.k = fool_count(n, int(opts["two_fools_from"]))
        self.h = hand_size(n)
        self.size = deck_size(n)
        self.hand_zones = [f"hand/{s}" for s in range(n)]  # zone names, built once: the checks read them every step
        self.loss = opts["loss"]
        # the messages of the per-step checks FOOL-SETUP-4/-5, formatted once per game rather than on every snapshot
        self.setup4_message = f"the round deck has 12n cards (88 at 8 players): {self.size}"
        self.setup5_message = f"k(n) = {self.k} disc(s) in use: at most that many are held, each by a different seat"
        self.tricks = 0  # tricks the engine completed this round (completed)
        self.first = True  # the current step's trick is the round's first (completed)
        self.done = False  # the engine completed a trick in the current step (completed)
        self.trick_step: Step | None = None  # the step `trick_view` was worked out for (completed)
        self.trick_view: Trick | None = None
        self.allowed_in: Snapshot | None = None  # the snapshot `allowed` was worked out for (allowed_cards)
        self.allowed: tuple[set[str], str] = (set(), "")
        self.favourites: tuple[int, ...] | None = None  # the seats this game steers to go out (choose); None: undrawn

    # -- what to draw ------------------------------------------------------------------
    options_contract: ClassVar[dict[str, list[Any] | IntRange]] = {
        "deck": ["assumed-2018"],
        "two_fools_from": [7, 8],
        "loss": ["net", "gross"],
    }

    @classmethod
    def default_options(cls, players: int, sent: JSONObject) -> JSONObject:
        return {"deck": "assumed-2018", "two_fools_from": 7, "loss": "net"}

    @classmethod
    def setups(cls, declared: dict[str, Any]) -> st.SearchStrategy[Setup]:
        players = sorted(p for p in declared["players"] if 4 <= p <= 8) or list(declared["players"])
        options = declared.get("options", {})
        decks = options.get("deck", ["assumed-2018"])
        named = [d for d in decks if d == "assumed-2018"]
        custom = "custom" in decks
        fools_from = [v for v in options.get("two_fools_from", [7]) if v in (7, 8)] or [7]
        losses = [v for v in options.get("loss", ["net"]) if v in ("net", "gross")] or ["net"]

        @st.composite
        def setup(draw: Any) -> Setup:
            n = draw(st.sampled_from(players), label="players")
            kinds = named + (["custom"] if custom else [])
            kind = draw(st.sampled_from(kinds or ["assumed-2018"]), label="deck kind")
            deck: Any = draw(explicit_deck(n), label="deck") if kind == "custom" else "assumed-2018"
            opts = {
                "deck": deck,
                "two_fools_from": draw(st.sampled_from(fools_from), label="two_fools_from"),
                "loss": draw(st.sampled_from(losses), label="loss"),
            }
            dealer = draw(st.integers(0, n - 1), label="dealer")
            return Setup(GAME, n, dealer, opts)

        return setup()

    def deal(self, snap: Snapshot, data: st.DataObject) -> dict[str, Any]:
        """A shuffled deal; in a steered game (drawn once, at its first deal) the favourite seats hold
        high cards of every colour, so that they win tricks, are never fools and go out each round."""
        if self.favourites is None:
            self.favourites = favourites(self.n, data.draw(st.integers(0, 99), label="steering"))
        cards = data.draw(draws.shuffled(self.deck), label="deal")
        return {"type": "deal", "hands": arranged(cards, self.favourites, self.n, self.h)}

    def choose(self, snap: Snapshot, pick: int, data: st.DataObject) -> dict[str, Any]:
        """A steered game plays for its favourites (``steer``); the others pick by index into the
        engine's list, now and then (1 in 4) the 1 when listed, to reach ties of 1s."""
        n = len(snap.moves)
        if self.favourites:
            card = steer(self, snap)
            if card is not None:
                return play(card)
        if (pick // n) % 4 == 0:
            for m in snap.moves:
                if m.get("card") == FOOL_WILD:
                    return m
        return snap.moves[pick % n]

    @checks.hook(
        "FOOL-SETUP-2", "FOOL-SETUP-3", "FOOL-DEAL-1", "FOOL-COLOUR-1", "FOOL-FOLLOW-1", "FOOL-END-1", "FOOL-INV-1"
    )
    def illegal_moves(self, snap: Snapshot) -> Sequence[tuple[dict[str, Any], str]]:
        if snap.phase == "deal":
            return self._illegal_deals()
        seat = snap.to_act
        if seat is None:
            return ()
        n = self.n
        hand = snap.zone(f"hand/{seat}")
        bad: list[tuple[dict[str, Any], str]] = [
            ({"type": "deal", "hands": [list(snap.zone(f"hand/{s}")) for s in range(n)]}, "FOOL-END-1")
        ]
        held = set(hand)
        elsewhere = next(
            (c for s in range(n) if s != seat for c in snap.zone(f"hand/{s}") if c not in held and c != FOOL_WILD), None
        )
        if elsewhere is not None:
            bad.append((play(elsewhere), "FOOL-INV-1"))
        gone = [c for c in snap.zone("played") if c not in held and c != FOOL_WILD]
        if gone:
            bad.append((play(gone[-1]), "FOOL-INV-1"))
        outside = [c for c in self.unused if c != FOOL_WILD]
        if outside:
            bad.append((play(outside[0]), "FOOL-SETUP-3"))
        legal, duty = allowed_cards(self, snap)
        if duty == "follow":
            # after a led 1 the duty to follow comes from the first coloured card (FOOL-COLOUR-1)
            why = "FOOL-COLOUR-1" if snap.zone("trick")[0] == FOOL_WILD else "FOOL-FOLLOW-1"
            bad += [(play(c), why) for c in sorted(held - legal)][:2]
        return bad

    def _illegal_deals(self) -> list[tuple[dict[str, Any], str]]:
        """Deals the rules forbid: a card moved between hands, a card twice, a hand missing, a card
        outside the box, a box card outside this game's deck; and a play before the deal."""
        n, h = self.n, self.h
        good = [sorted(self.deck, key=str)[i * h : (i + 1) * h] for i in range(n)]
        short = [good[0][1:], good[1] + good[0][:1], *good[2:]]
        other = next(c for c in good[1] if c != good[0][-1])
        twice = [[*good[0][:-1], other], *good[1:]]
        bad: list[tuple[dict[str, Any], str]] = [
            ({"type": "deal", "hands": short}, "FOOL-DEAL-1"),
            ({"type": "deal", "hands": twice}, "FOOL-DEAL-1"),
            ({"type": "deal", "hands": good[:-1]}, "FOOL-DEAL-1"),
            ({"type": "deal", "hands": [[*good[0][:-1], "G28"], *good[1:]]}, "FOOL-SETUP-2"),
            (play(good[0][0]), "FOOL-DEAL-1"),
        ]
        outside = sorted(c for c in self.unused if c != FOOL_WILD)
        if outside:
            bad.append(({"type": "deal", "hands": [[*good[0][:-1], outside[0]], *good[1:]]}, "FOOL-SETUP-3"))
        return bad

    # -- checks on the state right after new_game --------------------------------------------
    @checks.hook(
        "FOOL-SETUP-1",
        "FOOL-SETUP-2",
        "FOOL-SETUP-3",
        "FOOL-SETUP-4",
        "FOOL-SETUP-5",
        "FOOL-INV-1",
        "FOOL-INV-2",
        "CONTRACT-SETUP-2",
        "CONTRACT-SETUP-3",
    )
    def start(self, snap: Snapshot) -> None:
        judge_start(self, snap)  # CONTRACT-SETUP-2/-3 on the kit's setup probes
        self.expect("FOOL-SETUP-1", 4 <= snap.players <= 8, "Fool is for 4 to 8 players", "4..8", snap.players)
        conservation(self, snap)
        n = self.n
        zeros = [0] * n
        got = {"scores": snap.scores, "tens": snap.get("tens"), "fools": snap.get("fools")}
        self.expect(
            "FOOL-INV-2",
            got == {"scores": zeros, "tens": zeros, "fools": []},
            "a new game starts with zero totals, zero tallies and no disc held",
            {"scores": zeros, "tens": zeros, "fools": []},
            got,
        )


# -- steering: games that reach a sixth +10 and a shared win -------------------------------------------
# Random play almost never gives one seat six +10s before someone reaches -80, nor two seats the same
# top total.  A steered game picks one or two favourite seats: the deal gives them high cards of
# every colour, they play the lowest card that keeps every favourite out of the fools, and the others
# shed their costliest card that does the same.  The favourites then go out together round after
# round: a sixth +10 (at 4-6 players) and, with two, a shared win.  Only listed moves are played and
# every deal is one the rules allow, so the steering holds on any engine; on a state it cannot read it
# leaves the choice to the index pick.


def favourites(n: int, v: int) -> tuple[int, ...]:
    """The favourite seats of a game from a draw ``v`` in 0..99: none (1 in 4); else at 4-6 players one
    (2 in 4, a sixth +10) or two (1 in 4, a sixth +10 shared), at 7-8 two (with two fools a trick, one
    favourite's opponents keep too many cards for a sixth +10 before -80, but two go out together)."""
    mode, spin = v % 4, v // 4
    first = spin % n
    second = (first + 1 + (spin // n) % (n - 1)) % n
    if mode == 0:
        return ()
    if mode < 3 and n <= 6:
        return (first,)
    return (first, second)


def arranged(cards: list[str], favs: Sequence[int], n: int, h: int) -> list[list[str]]:
    """Deal ``cards`` (shuffled) in hands of ``h``; each favourite first gets its share of every colour
    (h/4 each) from the colour's highest cards, in the shuffled order, the rest as they come."""
    rest = list(cards)
    hands: list[list[str]] = [[] for _ in range(n)]
    for i, colour in enumerate(FOOL_COLOURS):
        quota = h // 4 + (1 if i < h % 4 else 0)
        ranked = sorted((c for c in rest if c != FOOL_WILD and fool_colour(c) == colour), key=fool_number)
        top = set(ranked[-((3 * quota * len(favs) + 1) // 2) :]) if favs else set()
        pool = [c for c in rest if c in top]
        for j, seat in enumerate(favs):
            for c in pool[j * quota : (j + 1) * quota]:
                hands[seat].append(c)
                rest.remove(c)
    for seat in range(n):
        need = h - len(hands[seat])
        hands[seat] += rest[:need]
        rest = rest[need:]
    return hands


def steer(props: FoolProperties, snap: Snapshot) -> str | None:
    """The card the seat to act plays in a steered game: of the listed cards that keep every favourite
    out of this trick's fools (played out by ``favourites_fooled``), a favourite plays the lowest (its
    high cards keep it safe later), another seat the costliest (it goes out holding little).  Safe
    means safe by the rules and by numbers alone where it can (an engine that misreads the off-colour
    rule still leaves the favourites out), by the rules alone where it cannot."""
    seat = snap.to_act
    cards: list[str] = [m["card"] for m in snap.moves if m.get("type") == "play" and m.get("card") in BOX]
    if seat is None or not cards or len(cards) != len(snap.moves):
        return None
    try:
        fooled = {c: favourites_fooled(props, snap, seat, c) for c in cards}
    except (ValueError, TypeError, IndexError):  # a state the steering cannot read: the index pick decides
        return None
    safe = [c for c in cards if fooled[c] == (False, False)] or [c for c in cards if not fooled[c][0]] or cards
    if seat in (props.favourites or ()):
        return min(safe, key=fool_number)
    return max(safe, key=lambda c: (value(c), fool_number(c)))


def favourites_fooled(props: FoolProperties, snap: Snapshot, seat: int, card: str) -> tuple[bool, bool]:
    """Whether a favourite is among the fools, by the rules and by numbers alone, once ``seat`` plays
    ``card`` and the seats still to play follow the steering's plain choices (a favourite its highest
    legal card, another its costliest)."""
    favs, n = set(props.favourites or ()), props.n
    trick = [*snap.zone("trick"), card]
    seats = [*list(snap.get("trick_seats") or []), seat]
    sitting = set(snap.get("fools") or [])
    hands = {s: list(snap.zone(f"hand/{s}")) for s in range(n)}
    hands[seat].remove(card)
    nxt = clockwise_after(seat, n, sitting)
    while nxt not in seats and len(seats) < n:
        legal, _ = legal_cards(hands[nxt], trick)
        if not legal:
            break
        pick = max(legal, key=fool_number) if nxt in favs else max(legal, key=lambda c: (value(c), fool_number(c)))
        trick.append(pick)
        seats.append(nxt)
        hands[nxt].remove(pick)
        nxt = clockwise_after(nxt, n, sitting)
    by_rules = worst_order(trick, lead_colour(trick))[: props.k]
    by_number = sorted(range(len(trick)), key=lambda i: (fool_number(trick[i]), -i))[: props.k]
    return bool(favs & {seats[i] for i in by_rules}), bool(favs & {seats[i] for i in by_number})


def explicit_deck(n: int) -> st.SearchStrategy[dict[str, int]]:
    """A valid explicit deck for n players (rules.md §1.2): 2..max per colour, 0..6 1s, 12n or 88 cards."""
    total = deck_size(n)

    @st.composite
    def draw_deck(draw: Any) -> dict[str, int]:
        cap = sum(FOOL_BOX_MAX[c] - 1 for c in FOOL_COLOURS)
        wilds = draw(st.integers(max(0, total - cap), FOOL_BOX_WILDS))
        left = total - wilds
        out: dict[str, int] = {}
        colours = list(FOOL_COLOURS)
        for i, c in enumerate(colours[:-1]):
            rest = colours[i + 1 :]
            lo = max(1, left - sum(FOOL_BOX_MAX[r] - 1 for r in rest))
            hi = min(FOOL_BOX_MAX[c] - 1, left - len(rest))
            count = draw(st.integers(lo, hi))
            out[c] = count + 1
            left -= count
        out[colours[-1]] = left + 1
        out["1"] = wilds
        return out

    return draw_deck()


def judge(props: FoolProperties, clause: str, ok: bool, finding: Callable[[], tuple[str, Any, Any]]) -> None:
    """``props.expect`` for checks run on every play or trick: the message and the expected and got
    values, which cost more to build than the check itself, come from ``finding`` only when it fails."""
    if ok:
        props.expect(clause, True, "")
    else:
        props.expect(clause, False, *finding())


def _diff(got: Counter[str], want: Counter[str]) -> dict[str, Any]:
    return {"extra": sorted((got - want).elements()), "missing": sorted((want - got).elements())}


def describe(trick: Sequence[str], seats: Sequence[int]) -> list[str]:
    """A trick for messages: seat:card in play order."""
    return [f"{seats[i]}:{trick[i]}" for i in range(len(trick))]


def hand_sizes(props: FoolProperties, snap: Snapshot) -> list[int]:
    """The number of cards in each hand (read straight from the zones: this runs on every play)."""
    zones = snap.raw["zones"]
    return [len(zones.get(name) or ()) for name in props.hand_zones]


# -- conservation and the deal ---------------------------------------------------------------------------
def conservation(props: FoolProperties, snap: Snapshot) -> None:
    """FOOL-INV-1: every box card in exactly one zone, P(n) in play and the rest in `unused`, at most k(n)
    discs held; FOOL-SETUP-2/3/4/5 name what is wrong: a card that is not in the box, a deck of the
    wrong size, the wrong cards of the right size, too many discs."""
    # this runs on every step: sorted lists of cards (strings, by the schema) compare as multisets
    # faster than Counters do, and the Counter differences of the messages are built only for a finding
    cards = sorted(chain.from_iterable(snap.raw["zones"].values()))
    whole = cards == BOX_SORTED
    unused = snap.zone("unused")
    placed = sorted(unused) == props.unused_sorted
    fools = snap.get("fools") or []
    discs = len(fools) <= props.k and len(set(fools)) == len(fools)
    ok = whole and placed and discs
    props.expect(
        "FOOL-INV-1",
        ok,
        "every one of the 88 box cards is in exactly one zone: P(n) in hands, trick and played, the rest in "
        "`unused`; at most k(n) discs are held",
        None if ok else {"box": "88 cards, each once", "unused": sorted(props.unused.elements(), key=str)},
        None if ok else {"box": _diff(Counter(cards), BOX), "unused": _diff(Counter(unused), props.unused)},
    )
    foreign = [] if whole else sorted({c for c in cards if c not in BOX})
    props.expect(
        "FOOL-SETUP-2", not foreign, "the box holds G2-27, R2-23, Y2-21, B2-15 and six 1s, nothing else", [], foreign
    )
    if whole:  # the box is all there, each card once: what is wrong is which cards are in play
        in_play = len(cards) - len(unused)
        props.expect("FOOL-SETUP-4", in_play == props.size, props.setup4_message, props.size, in_play)
        if in_play == props.size:
            props.expect(
                "FOOL-SETUP-3",
                placed,
                "the box cards outside the round deck P(n) lie in `unused`, and only they",
                None if placed else sorted(props.unused.elements(), key=str),
                None if placed else _diff(Counter(unused), props.unused),
            )
    props.expect("FOOL-SETUP-5", discs, props.setup5_message, props.k, fools)


@checks("FOOL-INV-1", "FOOL-SETUP-2", "FOOL-SETUP-3", "FOOL-SETUP-4", "FOOL-SETUP-5")
def every_card_once(props: FoolProperties, step: Step) -> None:
    conservation(props, step.after)


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
    props.expect("FOOL-INV-9", same == now, "a deal changes no total, tally or penalty sum", same, now)
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
    )
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
    )
    props.expect(  # the state's side of a wrong deal accepted: hands of the wrong size
        "FOOL-INV-2",
        all(size == props.h for size in sizes),
        f"every hand has {props.h} cards at the start of a round",
        props.h,
        sizes,
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
    )
    want_dealer = (props.setup.dealer + (rnd or 1) - 1) % props.n
    if (rnd or 1) >= 2:
        props.expect(
            "FOOL-TURN-2",
            after.get("dealer") == want_dealer,
            f"the deal passes to the left each round: round {rnd}'s dealer is seat {want_dealer}",
            want_dealer,
            after.get("dealer"),
        )
    else:
        props.expect(
            "FOOL-TURN-1",
            after.get("dealer") == want_dealer,
            "the first round is dealt by the dealer named at new_game",
            want_dealer,
            after.get("dealer"),
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
        )
        props.expect(
            "FOOL-TURN-1",
            after.get("leader") in (None, first),
            "the round's first leader is left of the dealer",
            first,
            after.get("leader"),
        )
    props.cover("FOOL-INV-2")


# -- each play: the card, the duty to follow, the turn -------------------------------------------------
def _a_play(step: Step) -> bool:
    """A play in phase play by a seat to act: the steps the per-play checks judge."""
    return step.kind == "play" and step.before.phase == "play" and step.before.to_act is not None


@checks("FOOL-INV-7")
def card_leaves_hand(props: FoolProperties, step: Step) -> None:
    """FOOL-INV-7: a play takes exactly the card played from the player's hand, and no other hand changes.
    A card the player does not hold is FOOL-INV-1's (the probe, and the card then in two zones)."""
    if not _a_play(step):
        return
    before, after = step.before, step.after
    seat, card = before.to_act, step.move.get("card")
    assert seat is not None
    held, now = before.zone(f"hand/{seat}"), after.zone(f"hand/{seat}")
    if card not in held:
        return
    rest = list(held)
    rest.remove(card)
    zones_before, zones_after = before.raw["zones"], after.raw["zones"]  # read straight: this runs on every play
    others = [
        s
        for s, name in enumerate(props.hand_zones)
        if s != seat and len(zones_after.get(name) or ()) != len(zones_before.get(name) or ())
    ]
    # a hand's order is left open, so the hands compare as multisets (sorted lists of strings); an engine
    # that keeps the order is settled by the plain comparison, and the message's hands only for a finding
    ok = not others and (now == rest or sorted(now) == sorted(rest))
    props.expect(
        "FOOL-INV-7",
        ok,
        f"a play takes exactly the card {card} from seat {seat}'s hand and no other hand changes",
        None if ok else {"hand": sorted(rest, key=str), "others changed": []},
        None if ok else {"hand": sorted(now, key=str), "others changed": others},
    )


@checks("FOOL-INV-4", "FOOL-FOLLOW-1", "FOOL-COLOUR-1")
def play_follows(props: FoolProperties, step: Step) -> None:
    """FOOL-INV-4: the card played is one FOOL-FOLLOW-1/-2 allow against the hand just before it (judged
    on the card played, whatever legal_moves listed); a revoke breaks FOOL-FOLLOW-1, or FOOL-COLOUR-1
    when a 1 was led (the duty then comes from the first coloured card).  A card the player does not
    hold is FOOL-INV-1's."""
    if not _a_play(step):
        return
    before, card = step.before, step.move.get("card")
    if card not in before.zone(f"hand/{before.to_act}"):
        return
    allowed, duty = allowed_cards(props, before)
    ok = card in allowed
    judge(
        props,
        "FOOL-INV-4",
        ok,
        lambda: (
            "a play meets FOOL-FOLLOW-1 against the hand before it",
            {"one of": sorted(allowed, key=str)},
            {"played": card},
        ),
    )
    if duty == "follow":
        trick = before.zone("trick")
        lead = lead_colour(trick)
        props.expect(
            "FOOL-COLOUR-1" if trick[0] == FOOL_WILD else "FOOL-FOLLOW-1",
            ok,
            f"holding a non-1 {lead} card, the player must play {lead} or a 1"
            + (": a 1 was led, and the first coloured card set the lead colour" if trick[0] == FOOL_WILD else ""),
            {"one of": sorted(allowed, key=str)},
            {"played": card},
        )


@checks("FOOL-SETUP-6", "FOOL-SIT-1", "FOOL-SIT-2", "FOOL-SIT-3", "FOOL-INV-3", "FOOL-TURN-1", "FOOL-WIN-2")
def trick_turn(props: FoolProperties, step: Step) -> None:
    """The turn within a trick: after each card the next seat without a disc to the left plays (every
    seat in a round's first trick, FOOL-SETUP-6), and once the turn comes back round to a seat that has
    played the trick is complete (FOOL-SIT-1/2).  Judged card by card from the engine's trick, so a
    seat skipped is reported once and the trick goes on from where the engine took it."""
    if not _a_play(step):
        return
    before, after, n = step.before, step.after, props.n
    seat = before.to_act
    assert seat is not None
    seats = [*list(before.get("trick_seats") or []), seat]
    first = first_trick(props, step)
    sitting: set[int] = set() if first else set(before.get("fools") or [])
    nxt = clockwise_after(seat, n, sitting)
    want_done, got_done = nxt in seats, trick_done(props, step)
    if got_done:
        props.expect("FOOL-INV-3", len(set(seats)) == len(seats), "each seat plays a trick once", "once each", seats)
    if want_done != got_done or (not got_done and after.to_act != nxt):
        clause, why = _turn_clause(after.to_act if not got_done else None, nxt, sitting, first, want_done)
        props.fail(
            clause,
            why,
            {"to_act": None if want_done else nxt, "trick complete": want_done},
            {"to_act": after.to_act, "trick": after.zone("trick"), "phase": after.phase},
        )
    else:
        props.cover("FOOL-SIT-1" if sitting else "FOOL-SETUP-6", "FOOL-SIT-2")
    if not got_done:
        _trick_grows(props, step, seats, first)


def _turn_clause(engine_next: int | None, nxt: int, sitting: set[int], first: bool, want_done: bool) -> tuple[str, str]:
    """The rule a wrong turn breaks: a seat holding a disc plays (FOOL-SIT-1), a seat is skipped in a
    round's first trick (FOOL-SETUP-6), or the turn does not pass once round the seats without a disc,
    clockwise (FOOL-SIT-2: a seat without a disc skipped, sitting out twice in a row, or playing twice)."""
    if engine_next is not None and engine_next in sitting:
        return "FOOL-SIT-1", f"seat {engine_next} holds a disc and sits this trick out"
    if want_done:
        return "FOOL-SIT-2", "every seat without a disc has played once: the trick is complete"
    if first:
        return "FOOL-SETUP-6", f"every seat plays the first trick of a round: seat {nxt} is next"
    return "FOOL-SIT-2", f"every seat without a disc plays once, clockwise: seat {nxt}, holding none, is next"


def _trick_grows(props: FoolProperties, step: Step, seats: list[int], first: bool) -> None:
    """While a trick goes on: the card joins it with its seat (FOOL-INV-3), the discs stay put
    (FOOL-SIT-3), and `leader` names the seat that led it (FOOL-TURN-1 in a round's first trick,
    FOOL-WIN-2, the trick winner leads the next, after)."""
    before, after = step.before, step.after
    trick = [*before.zone("trick"), step.move.get("card")]
    kept = after.zone("trick") == trick and list(after.get("trick_seats") or []) == seats
    judge(
        props,
        "FOOL-INV-3",
        kept,
        lambda: (
            "the card joins the trick in play order, with the seat that played it",
            {"trick": trick, "trick_seats": seats},
            {"trick": after.zone("trick"), "trick_seats": after.get("trick_seats")},
        ),
    )
    props.expect(
        "FOOL-SIT-3",
        sorted(after.get("fools") or []) == sorted(before.get("fools") or []),
        "the discs change hands only when a trick is resolved",
        before.get("fools"),
        after.get("fools"),
    )
    if kept:  # judged against the trick's own record of who led it
        props.expect(
            "FOOL-TURN-1" if first else "FOOL-WIN-2",
            after.get("leader") == seats[0],
            "while a trick has cards, `leader` is the seat that led it",
            seats[0],
            after.get("leader"),
        )


# -- a completed trick: the discs, the worst cards, the winner --------------------------------------------
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
    )
    why = f"trick {describe(t.cards, t.seats)}, lead colour {t.lead}"
    if len(set(t.got_fools)) != props.k:
        props.fail("FOOL-SETUP-5", f"k(n) = {props.k} fool(s) per trick; {why}", list(t.want_fools), t.got_fools)
    elif not set(t.got_fools) <= set(t.seats):
        props.fail(
            "FOOL-SIT-3",
            f"the discs go to the players of the worst cards of the trick just played; {why}",
            list(t.want_fools),
            list(t.got_fools),
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


# the misreadings of the worst-card order a wrong choice of fools may follow, each with the rule it breaks:
# a sort key over (card, play index, lead colour), smaller is worse
Key = Callable[[str, int, str | None], tuple[int, ...]]
MISREADINGS: tuple[tuple[str, str, Key], ...] = (
    (
        "FOOL-WORST-3",
        "among equal candidates the later-played card is worse, never the earlier",
        lambda c, i, lead: (0 if off_colour(c, lead) else 1, fool_number(c), i),
    ),
    (
        "FOOL-WILD-2",
        "a 1 counts as a lead-colour card of rank 1 and is never off-colour, so an off-colour card is worse",
        lambda c, i, lead: (
            0 if lead is not None and (c == FOOL_WILD or fool_colour(c) != lead) else 1,
            fool_number(c),
            -i,
        ),
    ),
    (
        "FOOL-WORST-2",
        "every off-colour card is worse than every lead-colour card, whatever the numbers",
        lambda c, i, lead: (fool_number(c), -i),
    ),
)


def misjudged(t: Trick, k: int) -> list[tuple[str, str]]:
    """Which rule a wrong set of fools breaks, by the smallest difference: the rules whose one misreading
    (``MISREADINGS``; for a second disc, the second fool taken by number alone, FOOL-WORST-4) gives
    exactly the engine's fools.  Two misreadings that give the same fools on this trick (a 1 taken over
    an off-colour card, both by "a 1 is off-colour" and by "numbers alone") are both named: the trick
    cannot tell them apart.  When none does, the first card the engine ranked wrongly decides."""
    got = set(t.got_fools)
    cards, seats, lead = t.cards, t.seats, t.lead
    found: list[tuple[str, str]] = []
    for clause, why, key in MISREADINGS:
        order = sorted(range(len(cards)), key=lambda i: key(cards[i], i, lead))
        if {seats[i] for i in order[:k]} == got:
            found.append((clause, why))
    if k > 1:
        rest = sorted((i for i in t.order[1:]), key=lambda i: (fool_number(cards[i]), -i))
        if {seats[i] for i in (t.order[0], *rest[: k - 1])} == got:
            found.append(
                (
                    "FOOL-WORST-4",
                    "the fools are the players of the k(n) worst cards of one total order: the second is the "
                    "next worst by the same order (off-colour before lead-colour), not the next lowest number",
                )
            )
    return found or [_first_misranked(t)]


def _first_misranked(t: Trick) -> tuple[str, str]:
    """The ordering rule that makes ``e`` (the worst card by the rules whose player the engine left
    without a disc) worse than ``x`` (the card of a player it gave one)."""
    cards, seats, lead = t.cards, t.seats, t.lead
    e = next(i for i in t.order if seats[i] in t.want_fools and seats[i] not in t.got_fools)
    x = next(i for i in t.order[::-1] if seats[i] in t.got_fools and seats[i] not in t.want_fools)
    ce, cx = cards[e], cards[x]
    if lead is None or (fool_number(ce) == fool_number(cx) and off_colour(ce, lead) == off_colour(cx, lead)):
        return "FOOL-WORST-3", "among equal candidates the later-played card is worse"
    if off_colour(ce, lead):
        return _off_colour_clause(cx, lead)
    if ce == FOOL_WILD:
        return "FOOL-WILD-2", "a 1 is the lowest card of the lead colour"
    if any(off_colour(c, lead) for c in cards):
        return "FOOL-WORST-4", "after the off-colour cards the next worst is the lowest lead-colour card"
    return "FOOL-WORST-1", "with no off-colour card the lowest-ranked card is worst"


def _off_colour_clause(cx: str, lead: str) -> tuple[str, str]:
    """An off-colour card left without a disc for ``cx``: a 1 (FOOL-WILD-2), a lead-colour card, or a
    higher off-colour card (FOOL-WORST-2)."""
    if cx == FOOL_WILD:
        return "FOOL-WILD-2", "a 1 counts as the lead colour and is never off-colour, so an off-colour card is worse"
    if not off_colour(cx, lead):
        return "FOOL-WORST-2", "every off-colour card is worse than every lead-colour card"
    return "FOOL-WORST-2", "with off-colour cards the lowest-numbered off-colour card is worst"


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
        )
    props.cover("FOOL-WIN-1", "FOOL-WIN-2")


# -- the end of a trick, of a round, of the game -----------------------------------------------------------
@checks("FOOL-END-1", "FOOL-INV-1", "FOOL-INV-8", "FOOL-INV-11")
def round_goes_on(props: FoolProperties, step: Step) -> None:
    """After a trick: the round goes on iff no hand is empty (FOOL-END-1); a trick that does not end it
    moves to `played` (FOOL-INV-1); a fool sitting out the final trick still holds cards (FOOL-INV-8);
    at most 2h-1 tricks a round (FOOL-INV-11)."""
    if not trick_done(props, step):
        return
    before, after = step.before, step.after
    sizes = hand_sizes(props, after)
    empty = [s for s in range(props.n) if not sizes[s]]
    bound = 2 * props.h - 1
    props.expect(
        "FOOL-INV-11", props.tricks <= bound, f"a round has at most 2h-1 = {bound} tricks", bound, props.tricks
    )
    if after.phase == "play":
        props.expect(
            "FOOL-END-1",
            not empty,
            "the round ends right after the first trick that leaves a hand empty",
            {"phase": "deal or over"},
            {"phase": after.phase, "empty hands": empty},
        )
        _trick_to_played(props, step)
        return
    props.expect(
        "FOOL-END-1",
        bool(empty),
        "a round ends only after a trick that leaves some hand empty",
        "some hand empty",
        sizes,
    )
    # the disc holders that did not play the final trick (one that played anyway is FOOL-SIT-1's)
    seats = {*list(before.get("trick_seats") or []), before.to_act}
    sitting = set() if first_trick(props, step) else set(before.get("fools") or []) - seats
    props.expect(
        "FOOL-INV-8",
        all(sizes[s] for s in sitting),
        "a fool sitting out the final trick still holds cards",
        sorted(sitting),
        empty,
    )


def _trick_to_played(props: FoolProperties, step: Step) -> None:
    """FOOL-INV-1: a completed trick moves to `played` and the next trick starts empty."""
    before, after = step.before, step.after
    trick = [*before.zone("trick"), step.move.get("card")]
    # multisets as sorted lists, after the plain comparison that settles an engine appending the trick in
    # play order; the Counter difference of the message only for a finding
    played_before, played_after = before.zone("played"), after.zone("played")
    moved = played_after == played_before + trick or sorted(played_after) == sorted(
        [*played_before, *(c for c in trick if isinstance(c, str))]
    )
    judge(
        props,
        "FOOL-INV-1",
        moved and not after.zone("trick"),
        lambda: (
            "a completed trick moves to `played` and the next trick starts empty",
            sorted(trick, key=str),
            sorted((Counter(played_after) - Counter(played_before)).elements(), key=str),
        ),
    )


def _round_ended(props: FoolProperties, step: Step) -> bool:
    """The play of ``step`` completed the final trick of a round: the round is scored in this step."""
    return trick_done(props, step) and step.after.phase != "play"


@checks("FOOL-SCORE-1", "FOOL-SCORE-2", "FOOL-SCORE-3", "FOOL-SCORE-4", "FOOL-INV-9")
def round_scored(props: FoolProperties, step: Step) -> None:
    """FOOL-SCORE-1..4 when the final trick of a round is resolved, against the fools of that trick as
    the engine names them (a wrong fool is the worst-card rules' finding, not a scoring one);
    FOOL-INV-9: every score, tally and penalty change follows them."""
    if not _round_ended(props, step):
        return
    before, after, n = step.before, step.after, props.n
    fools = set(after.get("fools") or [])
    gained, left, ok = _round_scores(props, before, after, fools)
    tens_b, tens_a = before.get("tens") or [0] * n, after.get("tens") or [0] * n
    # the tally counts the rounds the player scored +10 (the score itself is judged above)
    want_tens = [tens_b[s] + (1 if gained[s] == 10 else 0) for s in range(n)]
    props.expect(
        "FOOL-SCORE-4",
        list(tens_a) == want_tens,
        "the plus-ten tally goes up by one exactly for each +10 (a 0 for going out as a fool does not count)",
        want_tens,
        tens_a,
    )
    ok = ok and list(tens_a) == want_tens
    if props.loss == "gross":
        pen_b, pen_a = before.get("penalties") or [0] * n, after.get("penalties") or [0] * n
        want_pen = [pen_b[s] + left[s] for s in range(n)]
        props.expect(
            "FOOL-SCORE-3",
            list(pen_a) == want_pen,
            "under loss: gross each player's card penalties (without the +10s) are summed over the game",
            want_pen,
            pen_a,
        )
        ok = ok and list(pen_a) == want_pen
    props.expect(  # the state's side of any scoring finding above
        "FOOL-INV-9",
        ok,
        "score, tally and penalty changes follow FOOL-SCORE-1..4",
        {"scores": "by FOOL-SCORE-1..3", "tens": want_tens},
        {"round scores": gained, "tens": tens_a},
    )


def _round_scores(
    props: FoolProperties, before: Snapshot, after: Snapshot, fools: set[int]
) -> tuple[list[int], list[int], bool]:
    """FOOL-SCORE-1..3: +10 for going out, 0 for going out as a fool of the final trick, else minus the
    cards left. Answers each seat's score change, the value of the cards it still holds, and whether
    every change was right."""
    n = props.n
    gained = [a - b for a, b in zip(after.scores, before.scores, strict=False)]
    kinds: list[str] = []
    left: list[int] = []
    ok = True
    for s in range(n):
        hand = after.zone(f"hand/{s}")
        cost = sum(value(c) for c in hand)
        left.append(cost)
        kind, want = ("FOOL-SCORE-3", -cost) if hand else ("FOOL-SCORE-2", 0) if s in fools else ("FOOL-SCORE-1", 10)
        kinds.append(kind)
        if s >= len(gained) or gained[s] != want:
            ok = False
            why = {
                "FOOL-SCORE-1": f"seat {s} emptied its hand and is no fool of the final trick: +10",
                "FOOL-SCORE-2": f"seat {s} emptied its hand but is a fool of the final trick: 0",
                "FOOL-SCORE-3": f"seat {s} still holds {hand}: minus their values, a 1 costing 5",
            }[kind]
            props.fail(kind, why, want, gained[s] if s < len(gained) else None)
    props.cover(*set(kinds))
    return gained + [0] * (n - len(gained)), left, ok


@checks("FOOL-GAME-1", "FOOL-GAME-2", "FOOL-INV-10", "FOOL-INV-11")
def game_end(props: FoolProperties, step: Step) -> None:
    """FOOL-GAME-1: after a round the game ends iff a loss reaches 80 or a tally its sixth +10, judged on
    the engine's own totals, tallies and penalties; FOOL-INV-10: its twin on the state, and no result
    before the end; FOOL-INV-11: at most 65n rounds."""
    if not _round_ended(props, step):
        return
    before, after, n = step.before, step.after, props.n
    scores, tens = after.scores, list(after.get("tens") or [0] * n)
    penalties = after.get("penalties") or [0] * n
    if props.loss == "gross":
        lost = any(p >= GAME_END_LOSS for p in penalties)
        rule = "a player's summed penalties reach 80"
    else:
        lost = any(t <= -GAME_END_LOSS for t in scores)
        rule = "a total is -80 or less"
    six = any(t >= SIXTH_TEN for t in tens)
    want = "over" if lost or six else "deal"
    for clause in ("FOOL-GAME-1", "FOOL-INV-10"):
        props.expect(
            clause,
            after.phase == want,
            f"after a round the game ends iff {rule} or some plus-ten tally reaches 6; otherwise the next round "
            "is dealt",
            {"phase": want},
            {"phase": after.phase, "scores": scores, "tens": tens, "penalties": penalties},
        )
    props.situation("FOOL-GAME-1", "ends-by-sixth-ten" if six else "ends-by-loss" if lost else "continues")
    rounds = after.get("round") or 0
    props.expect("FOOL-INV-11", rounds <= 65 * n, f"a game has at most 65n = {65 * n} rounds", 65 * n, rounds)
    if after.phase == "over":
        _game_won(props, before, after, rounds)
    else:
        props.expect(
            "FOOL-INV-10", after.get("result") is None, "no result while the game goes on", None, after.get("result")
        )


def _game_won(props: FoolProperties, before: Snapshot, after: Snapshot, rounds: int) -> None:
    """FOOL-GAME-2: the highest total wins, ties share; FOOL-INV-10: no round is dealt after the end."""
    scores = after.scores
    top = max(scores)
    winners = [s for s in range(props.n) if scores[s] == top]
    got = sorted(((after.get("result") or {}).get("winners")) or [])
    props.expect(
        "FOOL-GAME-2", got == winners, "the highest total wins; players tied for it share the win", winners, got
    )
    props.situation("FOOL-GAME-2", "tie-for-highest" if len(winners) > 1 else "unique-highest")
    props.expect(
        "FOOL-INV-10",
        rounds == before.get("round"),
        "when the game ends no further round is dealt",
        before.get("round"),
        rounds,
    )


# -- the legal moves of the seat to act ------------------------------------------------------------------
@checks("FOOL-LEAD-1", "FOOL-COLOUR-1", "FOOL-WILD-1", "FOOL-FOLLOW-1", "FOOL-FOLLOW-2", "FOOL-INV-8", "FOOL-END-1")
def legal_moves(props: FoolProperties, step: Step) -> None:
    """The legal moves of the seat to act: exactly the cards the lead and follow rules allow.

    Registered last, so a trick or round-end finding on the same step is reported first."""
    after = step.after
    if after.phase != "play" or after.to_act is None:
        return
    hand = after.zone(f"hand/{after.to_act}")
    trick = after.zone("trick")
    if not trick:
        empty = [s for s in range(props.n) if not after.zone(f"hand/{s}")]
        props.expect("FOOL-END-1", not empty, "no trick starts while some hand is empty: the round is over", [], empty)
        props.cover("FOOL-INV-8")
    want, duty = allowed_cards(props, after)
    clause = DUTY_CLAUSE[duty]
    moves = after.moves
    got = {m.get("card") for m in moves if m.get("type") == "play"}
    ok = got == want and len(moves) == len(want)
    if trick and trick[0] == FOOL_WILD:
        props.cover("FOOL-COLOUR-1")
    if not ok:
        clause, why = _listing_clause(hand, trick, duty, got)
        props.fail(clause, why, *move_diff([{"type": "play", "card": c} for c in want], moves))
    props.cover(clause)
    if FOOL_WILD in hand:
        props.cover("FOOL-WILD-1")


def _listing_clause(hand: Sequence[str], trick: Sequence[str], duty: str, got: set[Any]) -> tuple[str, str]:
    """The rule a wrong list of legal moves breaks: a 1 left out (FOOL-WILD-1), the duty after a led 1
    (FOOL-COLOUR-1), or the lead / follow rule the hand is under."""
    lead = lead_colour(trick)
    if FOOL_WILD in hand and FOOL_WILD not in got:
        return "FOOL-WILD-1", "a 1 may be played at every turn, also by a player holding lead-colour cards"
    if duty == "follow" and trick[0] == FOOL_WILD:
        return (
            "FOOL-COLOUR-1",
            f"a 1 was led: the first coloured card sets the lead colour ({lead}), to be followed where possible",
        )
    if duty == "lead":
        return "FOOL-LEAD-1", "the leader may lead any card of their hand"
    if duty == "follow":
        return (
            "FOOL-FOLLOW-1",
            f"holding a non-1 card of the lead colour {lead}: exactly the {lead} cards and the 1s may be played",
        )
    if lead is None:
        return "FOOL-FOLLOW-2", "while only 1s are in the trick the lead colour is undefined: any card may be played"
    return (
        "FOOL-FOLLOW-2",
        f"holding no non-1 card of the lead colour {lead} (1s create no duty): any card may be played",
    )
