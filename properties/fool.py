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
    """FOOL-LEAD-1 / FOOL-FOLLOW-1 / FOOL-FOLLOW-2 / FOOL-WILD-1: the cards that may be played, and the clause."""
    cards = set(hand)
    if not trick:
        return cards, "FOOL-LEAD-1"
    lead = lead_colour(trick)
    if lead is not None and any(c != FOOL_WILD and fool_colour(c) == lead for c in cards):
        return {c for c in cards if c == FOOL_WILD or fool_colour(c) == lead}, "FOOL-FOLLOW-1"
    return cards, "FOOL-FOLLOW-2"


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


class FoolProperties(GameProperties):
    game: ClassVar[str] = GAME
    deal_clause: ClassVar[str] = "FOOL-DEAL-1"
    checks: ClassVar[CheckRegistry] = checks
    ordered_zones = frozenset({"trick"})
    option_clauses: ClassVar[dict[tuple[str, Any], tuple[str, ...]]] = {}
    # FOOL-OFF-1 defines "off-colour"; an engine that misreads it fails FOOL-WORST-2 or FOOL-WILD-2
    covered_only = frozenset({"FOOL-OFF-1"})

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
        self.tricks = 0  # completed tricks this round
        self.astray = False  # this trick already broke a turn-order clause: judge nothing more of it
        self.allowed_in: Snapshot | None = None  # the snapshot `allowed` was worked out for (allowed_cards)
        self.allowed: tuple[set[str], str] = (set(), "")

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
        cards = data.draw(draws.shuffled(self.deck), label="deal")
        h = self.h
        return {"type": "deal", "hands": [list(cards[i * h : (i + 1) * h]) for i in range(self.n)]}

    def choose(self, snap: Snapshot, pick: int, data: st.DataObject) -> dict[str, Any]:
        # by index into the engine's list; now and then (1 in 4) the 1 when listed, to reach ties of 1s
        n = len(snap.moves)
        if (pick // n) % 4 == 0:
            for m in snap.moves:
                if m.get("card") == FOOL_WILD:
                    return m
        return snap.moves[pick % n]

    @checks.hook(
        "FOOL-SETUP-2",
        "FOOL-SETUP-3",
        "FOOL-DEAL-1",
        "FOOL-LEAD-1",
        "FOOL-COLOUR-1",
        "FOOL-FOLLOW-1",
        "FOOL-FOLLOW-2",
        "FOOL-END-1",
        "FOOL-INV-1",
    )
    def illegal_moves(self, snap: Snapshot) -> Sequence[tuple[dict[str, Any], str]]:
        n, h = self.n, self.h
        if snap.phase == "deal":
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
        seat = snap.to_act
        if seat is None:
            return ()
        hand = snap.zone(f"hand/{seat}")
        bad = [({"type": "deal", "hands": [list(snap.zone(f"hand/{s}")) for s in range(n)]}, "FOOL-END-1")]
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
        legal, clause = allowed_cards(self, snap)
        if clause == "FOOL-FOLLOW-1":
            # after a led 1 the duty to follow comes from the first coloured card (FOOL-COLOUR-1)
            why = "FOOL-COLOUR-1" if snap.zone("trick")[0] == FOOL_WILD else "FOOL-FOLLOW-1"
            bad += [(play(c), why) for c in sorted(held - legal)][:2]
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


def conservation(props: FoolProperties, snap: Snapshot) -> None:
    """FOOL-INV-1 / FOOL-SETUP-2/3/4: every box card in exactly one zone; P(n) in play, the rest unused."""
    # this runs on every step: sorted lists of cards (strings, by the schema) compare as multisets
    # faster than Counters do, and the Counter differences of the messages are built only for a finding
    cards = sorted(chain.from_iterable(snap.raw["zones"].values()))
    whole = cards == BOX_SORTED
    extra = [] if whole else sorted((Counter(cards) - BOX).elements())
    props.expect(
        "FOOL-SETUP-2", not extra, "the box holds G2-27, R2-23, Y2-21, B2-15 and six 1s, nothing else", [], extra
    )
    props.expect(
        "FOOL-INV-1",
        whole,
        "every one of the 88 box cards is in exactly one zone",
        "88 cards, each once",
        None if whole else _diff(Counter(cards), BOX),
    )
    unused = snap.zone("unused")
    ok = sorted(unused) == props.unused_sorted
    props.expect(
        "FOOL-SETUP-3",
        ok,
        "the box cards outside the round deck P(n) lie in `unused`, and only they",
        None if ok else sorted(props.unused.elements(), key=str),
        None if ok else _diff(Counter(unused), props.unused),
    )
    in_play = len(cards) - len(unused)
    props.expect("FOOL-SETUP-4", in_play == props.size, props.setup4_message, props.size, in_play)
    fools = snap.get("fools") or []
    props.expect(
        "FOOL-SETUP-5", len(fools) <= props.k and len(set(fools)) == len(fools), props.setup5_message, props.k, fools
    )


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
    props.astray = False


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
    props.expect(
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
    """FOOL-SETUP-6: every disc back in the centre; FOOL-TURN-1: the player left of the dealer leads."""
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


def hand_sizes(props: FoolProperties, snap: Snapshot) -> list[int]:
    """The number of cards in each hand (read straight from the zones: this runs on every play)."""
    zones = snap.raw["zones"]
    return [len(zones.get(name) or ()) for name in props.hand_zones]


def takes_card(props: FoolProperties, before: Snapshot, after: Snapshot, seat: int, card: str) -> None:
    """FOOL-INV-7: a play takes exactly the card played from the player's hand, and no other hand changes."""
    held, now = before.zone(f"hand/{seat}"), after.zone(f"hand/{seat}")
    rest = list(held)
    if card in rest:
        rest.remove(card)
    zones_before, zones_after = before.raw["zones"], after.raw["zones"]  # read straight: this runs on every play
    others = [
        s
        for s, name in enumerate(props.hand_zones)
        if s != seat and len(zones_after.get(name) or ()) != len(zones_before.get(name) or ())
    ]
    # runs on every play: a hand's order is left open, so the hands compare as multisets (sorted lists of
    # strings); an engine that keeps the order is settled by the plain comparison, and the message's
    # sorted hands are built only for a finding
    ok = card in held and not others and (now == rest or sorted(now) == sorted(rest))
    props.expect(
        "FOOL-INV-7",
        ok,
        f"a play takes exactly the card {card} from seat {seat}'s hand and no other hand changes",
        None if ok else {"hand": sorted(rest, key=str), "others changed": []},
        None if ok else {"hand": sorted(now, key=str), "others changed": others},
    )


@checks(
    "FOOL-INV-7",
    "FOOL-SIT-1",
    "FOOL-SIT-2",
    "FOOL-SIT-3",
    "FOOL-SETUP-6",
    "FOOL-INV-3",
    "FOOL-END-1",
    "FOOL-SETUP-5",
    "FOOL-COLOUR-1",
    "FOOL-WILD-2",
    "FOOL-OFF-1",
    "FOOL-WIN-1",
    "FOOL-WIN-2",
    "FOOL-WORST-1",
    "FOOL-WORST-2",
    "FOOL-WORST-3",
    "FOOL-WORST-4",
    "FOOL-SCORE-1",
    "FOOL-SCORE-2",
    "FOOL-SCORE-3",
    "FOOL-SCORE-4",
    "FOOL-GAME-1",
    "FOOL-GAME-2",
    "FOOL-INV-1",
    "FOOL-INV-5",
    "FOOL-INV-6",
    "FOOL-INV-8",
    "FOOL-INV-9",
    "FOOL-INV-10",
    "FOOL-INV-11",
)
def trick_play(props: FoolProperties, step: Step) -> None:
    """A play: the card leaves the hand; the trick grows clockwise over the non-fools, or is resolved."""
    if step.kind != "play":
        return
    before, after, n = step.before, step.after, props.n
    seat, card = before.to_act, step.move["card"]
    assert seat is not None
    takes_card(props, before, after, seat, card)
    sitting = set(before.get("fools") or [])  # a disc kept into a new round was reported at the deal (FOOL-SETUP-6)
    trick = [*before.zone("trick"), card]
    seats = [*list(before.get("trick_seats") or []), seat]
    size = n - len(sitting)
    want_done = len(trick) >= size
    got_done = after.phase != "play" or not after.zone("trick")
    if props.astray:  # the engine left the document's turn order in this trick (already reported)
        if got_done:
            props.astray = False
            props.tricks += 1
        return
    if not want_done:
        _trick_goes_on(props, step, trick, seats, sitting, got_done)
        return
    if not got_done:
        if after.to_act in sitting:
            clause, why = (
                "FOOL-SIT-1",
                f"seat {after.to_act} holds a disc and sits this trick out, so the trick is complete",
            )
        else:
            clause, why = "FOOL-SIT-2", f"the {size} seats without a disc have played: the trick is complete"
        props.fail(clause, why, {"trick complete": trick}, {"to_act": after.to_act, "trick": after.zone("trick")})
        props.astray = True
        return
    props.expect(
        "FOOL-INV-3",
        sorted(seats) == sorted(set(range(n)) - sitting) and len(set(seats)) == len(seats),
        "the players of a trick are exactly the seats without a disc, once each",
        sorted(set(range(n)) - sitting),
        seats,
    )
    resolve(props, step, trick, seats, sitting)


def _trick_goes_on(
    props: FoolProperties, step: Step, trick: list[str], seats: list[int], sitting: set[int], got_done: bool
) -> None:
    """FOOL-SETUP-6 / FOOL-SIT-1/2/3 / FOOL-INV-3: an incomplete trick passes to the next seat without a
    disc (every seat in a round's first trick), the card joining it and the discs staying put."""
    before, after = step.before, step.after
    nxt = clockwise_after(seats[-1], props.n, sitting)
    if got_done or after.to_act != nxt:
        if props.tricks == 0:
            clause, why = "FOOL-SETUP-6", f"every seat plays the first trick of a round: seat {nxt} is next"
        elif after.to_act in sitting:
            clause, why = "FOOL-SIT-1", f"seat {after.to_act} holds a disc and sits this trick out"
        else:
            clause, why = (
                "FOOL-SIT-2",
                f"every seat but the fools plays once, clockwise: seat {nxt} is next (and the trick is not complete)",
            )
        props.fail(
            clause,
            why,
            {"to_act": nxt, "trick": trick},
            {"to_act": after.to_act, "trick": after.zone("trick"), "phase": after.phase},
        )
        props.astray = not got_done
        props.tricks += 1 if got_done else 0
        return
    judge(
        props,
        "FOOL-INV-3",
        after.zone("trick") == trick and list(after.get("trick_seats") or []) == seats,
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
    props.cover("FOOL-SIT-2")
    if sitting:
        props.cover("FOOL-SIT-1")
    else:
        props.cover("FOOL-SETUP-6")


def describe(trick: Sequence[str], seats: Sequence[int]) -> list[str]:
    """A trick for messages: seat:card in play order."""
    return [f"{seats[i]}:{trick[i]}" for i in range(len(trick))]


def _misjudged_fool(
    trick: Sequence[str], seats: Sequence[int], lead: str | None, k: int, got: Sequence[int]
) -> tuple[str, str]:
    """Which clause a wrong set of fools breaks, from the worst-card order of the document."""
    order = worst_order(trick, lead)
    want = [seats[i] for i in order[:k]]
    if len(got) != k:
        return "FOOL-SETUP-5", f"k(n) = {k} fool(s) per trick"
    if any(g not in seats for g in got):
        return "FOOL-SIT-3", "the discs go to the players of the worst cards of the trick just played"
    j = next(i for i, s in enumerate(want) if s not in got)
    e = order[j]
    x = seats.index(next(g for g in got if g not in want))
    return _worse_card_clause(trick[e], trick[x], lead, j)


def _worse_card_clause(ce: str, cx: str, lead: str | None, j: int) -> tuple[str, str]:
    """The ordering rule that makes ``ce`` (the document's ``j``-th worst card, whose player the engine
    left without a disc) worse than ``cx`` (the card of a player it gave one)."""
    if lead is None:
        return "FOOL-WORST-3", "in a trick of 1s only the later 1 is worse"
    if fool_number(ce) == fool_number(cx) and off_colour(ce, lead) == off_colour(cx, lead):
        return "FOOL-WORST-3", "among equal candidates the later-played card is worse"
    if j > 0:
        return "FOOL-WORST-4", (
            "the fools are the players of the k(n) worst cards of one total order: "
            "off-colour before lead-colour (a 1 counts as lead colour), lower before higher, later before earlier"
        )
    return _colour_clause(ce, cx, lead)


def _colour_clause(ce: str, cx: str, lead: str) -> tuple[str, str]:
    """The worst card misjudged: off-colour before lead colour (FOOL-WORST-2), a 1 as the lowest card of
    the lead colour (FOOL-WILD-2), else the lowest card (FOOL-WORST-1)."""
    if off_colour(ce, lead) and cx == FOOL_WILD:
        return "FOOL-WILD-2", "a 1 counts as the lead colour and is never off-colour, so an off-colour card is worse"
    if off_colour(ce, lead):
        return (
            "FOOL-WORST-2",
            "with off-colour cards the lowest-numbered off-colour card is worst; "
            "every off-colour card is worse than every lead-colour card",
        )
    if ce == FOOL_WILD:
        return "FOOL-WILD-2", "a 1 is the lowest card of the lead colour"
    return "FOOL-WORST-1", "with no off-colour card the lowest-ranked card is worst"


def resolve(props: FoolProperties, step: Step, trick: list[str], seats: list[int], sitting: set[int]) -> None:
    """A completed trick: fools (FOOL-WORST-*), discs, winner and next leader, or the round end."""
    after, k = step.after, props.k
    lead = lead_colour(trick)
    order = worst_order(trick, lead)
    want_fools = sorted(seats[i] for i in order[:k])
    win = winner_index(trick, lead)
    winner = seats[win]
    got_fools = sorted(after.get("fools") or [])
    props.tricks += 1
    # FOOL-INV-5: the outcome as a whole; the clause that decides a wrong fool is named below
    judge(
        props,
        "FOOL-INV-5",
        got_fools == want_fools,
        lambda: (
            f"the fools of trick {describe(trick, seats)} (lead colour {lead})",
            {"fools": want_fools},
            {"fools": got_fools},
        ),
    )
    if after.phase == "play":  # FOOL-INV-6, judged on the engine's own fools and next leader
        props.expect(
            "FOOL-INV-6",
            after.to_act not in got_fools,
            "the winner of a trick is never one of its fools, and leads next",
            {"leader not among": got_fools},
            {"leader": after.to_act},
        )
    if got_fools != want_fools:
        clause, why = _misjudged_fool(trick, seats, lead, k, got_fools)
        props.fail(
            clause,
            f"{why}; trick {describe(trick, seats)}, lead colour {lead}",
            {"fools": want_fools},
            {"fools": got_fools},
        )
    else:  # coverage of the trick-outcome clauses this trick exercised
        _cover_outcome(props, trick, lead, order, k)
    if after.phase == "play":
        _next_trick(props, step, trick, seats, lead, winner)
    else:
        _final_trick(props, step, sitting, got_fools if len(got_fools) == k else want_fools)


def _cover_outcome(props: FoolProperties, trick: list[str], lead: str | None, order: list[int], k: int) -> None:
    """The trick-outcome clauses a correctly judged trick exercised."""
    props.cover("FOOL-SIT-3", "FOOL-WORST-4", "FOOL-SETUP-5", "FOOL-INV-3")
    offs = [i for i in range(len(trick)) if off_colour(trick[i], lead)]
    props.cover("FOOL-WORST-2" if offs else "FOOL-WORST-1")
    if offs:
        props.cover("FOOL-OFF-1")  # reported as covered: a definition, its violations are WORST-2 / WILD-2
        if FOOL_WILD in trick:
            props.cover("FOOL-WILD-2")
    elif FOOL_WILD in trick and lead is not None and trick[order[0]] == FOOL_WILD:
        props.cover("FOOL-WILD-2")
    keys = [(off_colour(trick[i], lead), fool_number(trick[i])) for i in order[: k + 1]]
    if len(set(keys)) < len(keys):
        props.cover("FOOL-WORST-3")
    if trick[0] == FOOL_WILD and lead is not None:
        props.cover("FOOL-COLOUR-1")


def _trick_bound(props: FoolProperties, after: Snapshot) -> list[int]:
    """FOOL-INV-11: a round has at most 2h-1 tricks. Answers the hand sizes after the trick."""
    sizes = hand_sizes(props, after)
    bound = 2 * props.h - 1
    props.expect(
        "FOOL-INV-11", props.tricks <= bound, f"a round has at most 2h-1 = {bound} tricks", bound, props.tricks
    )
    return sizes


def _next_trick(
    props: FoolProperties, step: Step, trick: list[str], seats: list[int], lead: str | None, winner: int
) -> None:
    """After a trick that did not end the round: no hand is empty (FOOL-END-1), the winner leads
    (FOOL-WIN-1/2) and the trick moves to `played` (FOOL-INV-1)."""
    before, after = step.before, step.after
    win = seats.index(winner)
    sizes = _trick_bound(props, after)
    empty = [s for s in range(props.n) if not sizes[s]]
    props.expect(
        "FOOL-END-1",
        not empty,
        "the round ends right after the first trick that leaves a hand empty",
        {"phase": "deal or over"},
        {"phase": after.phase, "empty hands": empty},
    )
    if after.to_act != winner:
        # a tie-break of 1s, or a player of this trick taken for its winner
        clause = "FOOL-WIN-1" if lead is None or after.to_act in seats else "FOOL-WIN-2"
        props.fail(
            clause,
            f"the highest card counting as the lead colour ({trick[win]}, seat {winner}) wins the trick "
            f"and its player leads the next; trick {describe(trick, seats)}, lead colour {lead}",
            winner,
            after.to_act,
        )
    props.cover("FOOL-WIN-1", "FOOL-WIN-2")
    # multisets as sorted lists (a Counter sum and comparison loop in Python over the round's cards),
    # after the plain comparison that settles an engine appending the trick in play order; the
    # Counter difference of the message only for a finding
    played_before, played_after = before.zone("played"), after.zone("played")
    moved = played_after == played_before + trick or sorted(played_after) == sorted(played_before + trick)
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


def _final_trick(props: FoolProperties, step: Step, sitting: set[int], fools: list[int]) -> None:
    """After the final trick of a round, played to the end: some hand is empty (FOOL-END-1), the fools
    sitting it out still hold cards (FOOL-INV-8), and the round is scored."""
    after = step.after
    sizes = _trick_bound(props, after)
    empty = [s for s in range(props.n) if not sizes[s]]
    props.expect(
        "FOOL-END-1",
        bool(empty),
        "a round ends only after a trick that leaves some hand empty",
        "some hand empty",
        sizes,
    )
    props.expect(
        "FOOL-INV-8",
        all(after.zone(f"hand/{s}") for s in sitting),
        "a fool sitting out the final trick still holds cards",
        sorted(sitting),
        empty,
    )
    round_end(props, step, fools)


def round_end(props: FoolProperties, step: Step, fools: list[int]) -> None:
    """FOOL-SCORE-1..4 and FOOL-GAME-1/2 when the final trick of a round is resolved."""
    before, after, n = step.before, step.after, props.n
    gained, left = _round_scores(props, after, before, fools)
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
    props.cover("FOOL-INV-9")
    _game_end(props, step, list(tens_a))


def _round_scores(
    props: FoolProperties, after: Snapshot, before: Snapshot, fools: list[int]
) -> tuple[list[int], list[int]]:
    """FOOL-SCORE-1..3: +10 for going out, 0 for going out as a fool of the final trick, else minus the
    cards left. Answers each seat's score change and the value of the cards it still holds."""
    n = props.n
    gained = [a - b for a, b in zip(after.scores, before.scores, strict=False)]
    want: list[int] = []
    kinds: list[str] = []
    left: list[int] = []
    for s in range(n):
        hand = after.zone(f"hand/{s}")
        cost = sum(value(c) for c in hand)
        left.append(cost)
        if hand:
            want.append(-cost)
            kinds.append("FOOL-SCORE-3")
        elif s in fools:
            want.append(0)
            kinds.append("FOOL-SCORE-2")
        else:
            want.append(10)
            kinds.append("FOOL-SCORE-1")
    for s in range(n):
        if gained[s] != want[s]:
            why = {
                "FOOL-SCORE-1": f"seat {s} emptied its hand and is no fool of the final trick: +10",
                "FOOL-SCORE-2": f"seat {s} emptied its hand but is a fool of the final trick: 0",
                "FOOL-SCORE-3": f"seat {s} still holds {after.zone(f'hand/{s}')}: minus their values, a 1 costing 5",
            }[kinds[s]]
            props.fail(kinds[s], why, want, gained)
    props.cover(*set(kinds))
    return gained, left


def _game_end(props: FoolProperties, step: Step, tens: list[int]) -> None:
    """FOOL-GAME-1: the game ends iff a loss reaches 80 or a sixth +10; FOOL-INV-10/11: no round after it,
    no result before it, at most 65n rounds."""
    before, after, n = step.before, step.after, props.n
    scores = after.scores
    penalties = after.get("penalties") or [0] * n
    if props.loss == "gross":
        lost = any(p >= GAME_END_LOSS for p in penalties)
        rule = "a player's summed penalties reach 80"
    else:
        lost = any(t <= -GAME_END_LOSS for t in scores)
        rule = "a total is -80 or less"
    over = lost or any(t >= SIXTH_TEN for t in tens)
    props.expect(
        "FOOL-GAME-1",
        after.phase == ("over" if over else "deal"),
        f"after a round the game ends iff {rule} or some plus-ten tally reaches 6; otherwise the next round is dealt",
        {"phase": "over" if over else "deal"},
        {"phase": after.phase, "scores": scores, "tens": tens, "penalties": penalties},
    )
    props.situation(
        "FOOL-GAME-1",
        "ends-by-sixth-ten" if any(t >= SIXTH_TEN for t in tens) else "ends-by-loss" if lost else "continues",
    )
    props.cover("FOOL-INV-10")
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


@checks("FOOL-INV-4", "FOOL-LEAD-1", "FOOL-FOLLOW-1", "FOOL-FOLLOW-2")
def each_play_follows(props: FoolProperties, step: Step) -> None:
    """FOOL-INV-4: the card played is one FOOL-FOLLOW-1/-2 allow against the hand just before it
    (judged on the card played, whatever legal_moves listed)."""
    before = step.before
    if step.kind != "play" or before.phase != "play" or before.to_act is None:
        return
    allowed, clause = allowed_cards(props, before)
    card = step.move.get("card")
    judge(
        props,
        "FOOL-INV-4",
        card in allowed,
        lambda: (
            f"a play meets {clause} against the hand before it",
            {"one of": sorted(allowed, key=str)},
            {"played": card},
        ),
    )


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
    want, clause = allowed_cards(props, after)
    moves = after.moves
    got = {m.get("card") for m in moves if m.get("type") == "play"}
    ok = got == want and len(moves) == len(want)
    if trick and trick[0] == FOOL_WILD:
        props.cover("FOOL-COLOUR-1")
    if not ok:
        lead = lead_colour(trick)
        if FOOL_WILD in hand and FOOL_WILD not in got:
            clause, why = "FOOL-WILD-1", "a 1 may be played at every turn, also by a player holding lead-colour cards"
        elif clause == "FOOL-FOLLOW-1" and trick[0] == FOOL_WILD:
            clause, why = (
                "FOOL-COLOUR-1",
                f"a 1 was led: the first coloured card sets the lead colour ({lead}), to be followed where possible",
            )
        elif clause == "FOOL-LEAD-1":
            why = "the leader may lead any card of their hand"
        elif clause == "FOOL-FOLLOW-1":
            why = f"holding a non-1 card of the lead colour {lead}: exactly the {lead} cards and the 1s may be played"
        elif lead is None:
            why = "while only 1s are in the trick the lead colour is undefined: any card may be played"
        else:
            why = f"holding no non-1 card of the lead colour {lead} (1s create no duty): any card may be played"
        props.fail(clause, why, *move_diff([{"type": "play", "card": c} for c in want], moves))
    props.cover(clause)
    if FOOL_WILD in hand:
        props.cover("FOOL-WILD-1")
