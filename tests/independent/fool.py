"""An independent FOOL! engine (Friedemann Friese, 2018), written from docs/rules/fool.md and the contract.

This is a second reading of the Fool rules, sharing no code with ``ruleproof.reference``: one
mutable ``_Table`` per game, a small resolver for tricks, and the contract's six methods on
``FoolEngine``.  Where the contract leaves a choice open this engine makes its own:

- ``dealer`` moves left when the next round is *dealt* (in phase ``deal`` between rounds it still
  names the dealer of the round just scored);
- ``leader`` is null while the trick is empty (between tricks, and in ``deal``/``over``);
- the final trick of a round stays in zone ``trick`` (with its ``trick_seats``) until the next deal;
  ``played`` holds only the earlier tricks;
- empty zones are left out (an empty hand too); hands are shown green, red, yellow, blue, high to
  low, wilds last; ``legal_moves`` lists the 1 first, then yellow, red, green, blue, low to high;
- extension fields ``lead_colour`` (null or ``"G"``...) and ``tricks_done`` (tricks completed this
  round).

``BUGS`` plants single deviations (each filed under the clause it breaks) and ``HOUSE`` bundles
several of them the way engines written elsewhere deviate; ``engine(*names)`` builds one.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ruleproof.model.engine import BadRequest, IllegalMove, JSONObject, Move, State, Unsupported
from tests.independent import Bug, Factories, HouseRules

GAME = "fool"
OTHER_GAMES = ("black-maria", "idiot", "moon")
COLOURS = ("G", "R", "Y", "B")
BOX_MAX = {"G": 27, "R": 23, "Y": 21, "B": 15}
BOX_WILDS = 6
WILD = "1"
WILD_COST = 5
LOSS_LIMIT = 80
TENS_TO_END = 6
PLAYER_COUNTS = (4, 5, 6, 7, 8)
# players -> (G max, R max, Y max, B max, wilds): assumption A-FOOL-DECK
ASSUMED_2018 = {
    4: (17, 13, 11, 8, 3),
    5: (20, 16, 14, 10, 4),
    6: (23, 19, 17, 12, 5),
    7: (26, 22, 20, 14, 6),
    8: (27, 23, 21, 15, 6),
}
SHORT_BLUE_6 = (23, 19, 18, 11, 5)  # bug six_player_short_blue: one blue traded for a yellow
DECK_VALUES = ["assumed-2018", "custom"]
OPTION_DEFAULTS: JSONObject = {"deck": "assumed-2018", "two_fools_from": 7, "loss": "net"}
SHOW_ORDER = {"G": 0, "R": 1, "Y": 2, "B": 3}
MOVE_ORDER = {"Y": 0, "R": 1, "G": 2, "B": 3}

BUGS: dict[str, Bug] = {
    b.name: b
    for b in (
        Bug("six_player_short_blue", "FOOL-SETUP-3", "6 players: blue 2-11 and yellow 2-18 (B12 out, Y18 in)"),
        Bug("two_fools_only_at_eight", "FOOL-SETUP-5", "two discs only at 8 players, whatever two_fools_from says"),
        Bug("deal_unchecked_sizes", "FOOL-DEAL-1", "a deal is checked for its cards but not for each hand's size"),
        Bug("dealer_never_moves", "FOOL-TURN-2", "the deal never passes left: the first dealer deals every round"),
        Bug("dealer_leads_first", "FOOL-TURN-1", "the dealer, not the player on the dealer's left, leads trick 1"),
        Bug("led_one_lifts_follow", "FOOL-COLOUR-1", "a led 1 frees the whole trick from following"),
        Bug("wild_counts_as_colour", "FOOL-FOLLOW-2", "void in the lead colour but holding a 1: the 1 must be played"),
        Bug("wild_only_when_void", "FOOL-WILD-1", "a 1 may follow only when the hand holds no lead-colour card"),
        Bug("wild_off_colour_when_scored", "FOOL-WILD-2", "at scoring a 1 is an off-colour card of rank 1"),
        Bug("highest_card_wins", "FOOL-WIN-1", "the highest number among the non-fools' cards wins, any colour"),
        Bug("lowest_number_worst", "FOOL-WORST-2", "the worst card is the lowest number, off-colour or not"),
        Bug("earlier_tie_worse", "FOOL-WORST-3", "between equal worst candidates the earlier play is worse"),
        Bug("second_fool_by_number", "FOOL-WORST-4", "the second fool is the lowest number left, off-colour or not"),
        Bug("leader_field_lags", "FOOL-WIN-2", "STATE.leader names the previous trick's leader (play is right)"),
        Bug("second_fool_plays_on", "FOOL-SIT-1", "with two discs only the worst card's player sits out next"),
        Bug("wild_costs_one", "FOOL-SCORE-3", "a 1 left in hand costs 1, not 5"),
        Bug("tally_counts_out_fool", "FOOL-SCORE-4", "going out as a fool of the final trick still adds to tens"),
        Bug("tally_end_needs_seven", "FOOL-GAME-1", "the game ends on more than six +10s, not on the sixth"),
        Bug("accept_unheld", "FOOL-INV-1", "a play of any card of the deck is accepted, held or not"),
        Bug("unknown_card_bad_request", "CONTRACT-ERROR-1", "a card string naming no card is a bad_request"),
    )
}

HOUSE: dict[str, HouseRules] = {
    h.name: h
    for h in (
        HouseRules(
            "quick_web",
            ("two_fools_only_at_eight", "dealer_never_moves", "wild_costs_one", "tally_counts_out_fool"),
            "a quick browser version: German short rules (two fools with eight), fixed dealer, 1s cost 1, "
            "and a tally that counts every player who went out",
        ),
        HouseRules(
            "table_talk",
            ("dealer_leads_first", "led_one_lifts_follow", "wild_counts_as_colour", "earlier_tie_worse"),
            "the game as taught at a club table: dealer leads, a led 1 is a free trick, 1s are the colour, "
            "and the first of equal cards is the loser",
        ),
        HouseRules(
            "mobile_port",
            (
                "lowest_number_worst",
                "second_fool_by_number",
                "wild_only_when_void",
                "accept_unheld",
                "leader_field_lags",
            ),
            "a phone port with a one-line worst-card rule, 1s only when void, a UI-trusting play check "
            "and a stale leader in its state export",
        ),
        HouseRules(
            "pub_league",
            (
                "dealer_never_moves",
                "dealer_leads_first",
                "wild_costs_one",
                "tally_counts_out_fool",
                "deal_unchecked_sizes",
            ),
            "a pub league's engine with five deviations, one of them a real bug: one seat deals every round and "
            "leads the first trick itself (both shown by the deal), a 1 left in hand costs 1 and going out as a "
            "fool still adds to the tally (both shown by the round's scoring), and a deal is checked for its "
            "cards but not for the hands' sizes (the bug: a hand of 11 and one of 13 are dealt)",
        ),
    )
}


# ---------------------------------------------------------------- cards


def parse_card(text: str) -> tuple[str | None, int] | None:
    """``(colour, number)`` for a box card (colour None for the wild 1); None if it names no card."""
    if text == WILD:
        return None, 1
    if len(text) < 2 or text[0] not in BOX_MAX or not text[1:].isdigit() or text[1] == "0":
        return None
    number = int(text[1:])
    return (text[0], number) if 2 <= number <= BOX_MAX[text[0]] else None


def colour_of(card: str) -> str | None:
    return None if card == WILD else card[0]


def number_of(card: str) -> int:
    return 1 if card == WILD else int(card[1:])


def cost_of(card: str, wild_cost: int) -> int:
    return wild_cost if card == WILD else number_of(card)


def show_key(card: str) -> tuple[int, int]:
    return (9, 0) if card == WILD else (SHOW_ORDER[card[0]], -number_of(card))


def move_key(card: str) -> tuple[int, int]:
    return (-1, 0) if card == WILD else (MOVE_ORDER[card[0]], number_of(card))


def profile_cards(profile: tuple[int, int, int, int, int]) -> Counter[str]:
    """The multiset of a deck profile (G, R, Y, B maxima and the number of 1s)."""
    deck: Counter[str] = Counter()
    for colour, top in zip(COLOURS, profile[:4], strict=True):
        for number in range(2, top + 1):
            deck[f"{colour}{number}"] = 1
    if profile[4]:
        deck[WILD] = profile[4]
    return deck


BOX = profile_cards((27, 23, 21, 15, BOX_WILDS))


# ---------------------------------------------------------------- options


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_explicit_deck(deck: Any, players: int) -> tuple[int, int, int, int, int]:
    """An explicit deck object, checked as rules.md §1.2 asks (a BadRequest names the field)."""
    if set(deck) != {*COLOURS, WILD}:
        raise BadRequest(f"options.deck: needs exactly the fields G, R, Y, B and 1, got {sorted(deck)}")
    for field in (*COLOURS, WILD):
        if not _is_int(deck[field]):
            raise BadRequest(f"options.deck.{field}: {deck[field]!r} is not an integer")
    for colour in COLOURS:
        if not 2 <= deck[colour] <= BOX_MAX[colour]:
            raise BadRequest(f"options.deck.{colour}: {deck[colour]} is outside 2..{BOX_MAX[colour]}")
    if not 0 <= deck[WILD] <= BOX_WILDS:
        raise BadRequest(f"options.deck.1: {deck[WILD]} is outside 0..{BOX_WILDS}")
    total = sum(deck[c] - 1 for c in COLOURS) + deck[WILD]
    wanted = 88 if players == 8 else 12 * players
    if total != wanted:
        raise BadRequest(f"options.deck: {total} cards, {players} players need {wanted}")
    return deck["G"], deck["R"], deck["Y"], deck["B"], deck[WILD]


def check_options(options: Any, players: int) -> JSONObject:
    """Every option checked, defaults filled in."""
    if not isinstance(options, dict):
        raise BadRequest("options: not an object")
    unknown = sorted(set(options) - set(OPTION_DEFAULTS))
    if unknown:
        raise BadRequest(f"options.{unknown[0]}: not an option of fool")
    full = {**OPTION_DEFAULTS, **options}
    deck = full["deck"]
    if isinstance(deck, dict):
        check_explicit_deck(deck, players)
        full["deck"] = dict(deck)
    elif deck != "assumed-2018":
        raise BadRequest(f"options.deck: {deck!r} is neither 'assumed-2018' nor a deck object")
    if not _is_int(full["two_fools_from"]) or full["two_fools_from"] not in (7, 8):
        raise BadRequest(f"options.two_fools_from: {full['two_fools_from']!r} is not 7 or 8")
    if full["loss"] not in ("net", "gross") or not isinstance(full["loss"], str):
        raise BadRequest(f"options.loss: {full['loss']!r} is not 'net' or 'gross'")
    return full


# ---------------------------------------------------------------- the table


class _Table:
    """One game in progress, mutable."""

    def __init__(self, players: int, dealer: int, options: JSONObject, profile: tuple[int, int, int, int, int]):
        self.n = players
        self.dealer = dealer
        self.options = options
        self.deck = profile_cards(profile)
        self.discs = 2 if players >= options["two_fools_from"] else 1
        self.phase = "deal"
        self.round = 0
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.trick: list[str] = []
        self.trick_seats: list[int] = []
        self.played: list[str] = []
        self.fools: list[int] = []
        self.sitting: list[int] = []  # who sits out the current trick (== fools unless a bug says otherwise)
        self.next_leader: int | None = None
        self.prev_leader: int | None = None
        self.tricks_done = 0
        self.scores = [0] * players
        self.tens = [0] * players
        self.penalties = [0] * players
        self.winners: list[int] | None = None

    def lead_colour(self) -> str | None:
        for card in self.trick:
            if card != WILD:
                return card[0]
        return None

    def order(self) -> list[int]:
        """The seats playing the current trick, clockwise from its leader."""
        assert self.next_leader is not None
        seats = [(self.next_leader + i) % self.n for i in range(self.n)]
        return [s for s in seats if s not in self.sitting]

    def to_act(self) -> int | None:
        if self.phase != "play":
            return None
        return self.order()[len(self.trick)]


# ---------------------------------------------------------------- the engine


class FoolEngine:
    """The contract's six methods over a ``_Table``; ``bugs`` switches planted deviations on."""

    def __init__(self, bugs: frozenset[str] = frozenset()) -> None:
        self.bugs = bugs
        self.table: _Table | None = None

    # ---- contract

    def hello(self) -> JSONObject:
        return {
            "protocol": 1,
            "engine": {"name": "independent-fool", "version": "0.1"},
            "games": {
                GAME: {
                    "players": list(PLAYER_COUNTS),
                    "options": {"deck": list(DECK_VALUES), "two_fools_from": [7, 8], "loss": ["net", "gross"]},
                }
            },
        }

    def new_game(self, game: str, players: int, dealer: int, options: JSONObject) -> State:
        if not isinstance(game, str):
            raise BadRequest("game: not a string")
        if game in OTHER_GAMES:
            raise Unsupported(f"game: {game} is not implemented here")
        if game != GAME:
            raise BadRequest(f"game: {game!r} is not a game of the contract")
        if not _is_int(players) or players not in PLAYER_COUNTS:
            raise BadRequest(f"players: {players!r} is not 4..8")
        if not _is_int(dealer) or not 0 <= dealer < players:
            raise BadRequest(f"dealer: {dealer!r} is not a seat of {players}")
        full = check_options(options, players)
        self.table = _Table(players, dealer, full, self._profile(players, full["deck"]))
        if "two_fools_only_at_eight" in self.bugs:
            self.table.discs = 2 if players == 8 else 1
        return self.state()

    def legal_moves(self) -> list[Move]:
        table = self._table()
        if table.phase != "play":
            return []
        seat = table.to_act()
        assert seat is not None
        cards = sorted(self._allowed(table, table.hands[seat]), key=move_key)
        return [{"type": "play", "card": c} for c in cards]

    def apply(self, move: Move) -> State:
        table = self._table()
        if not isinstance(move, dict):
            raise BadRequest("move: not an object")
        kind = move.get("type")
        if not isinstance(kind, str):
            raise BadRequest("move.type: missing or not a string")
        if kind == "deal":
            hands = self._hands_field(move)
            self._check_phase(table, kind)
            self._deal(table, hands)
        elif kind == "play":
            card = move.get("card")
            if not isinstance(card, str):
                raise BadRequest("move.card: missing or not a string")
            self._check_phase(table, kind)
            self._play(table, card)
        else:
            self._check_phase(table, kind)
            clause = "FOOL-DEAL-1" if table.phase == "deal" else "FOOL-INV-4"
            raise IllegalMove(clause, f"unknown move type {kind!r}")
        return self.state()

    def state(self) -> State:
        return self._snapshot(self._table())

    def close(self) -> None:
        self.table = None

    # ---- setup

    def _profile(self, players: int, deck: Any) -> tuple[int, int, int, int, int]:
        if isinstance(deck, dict):
            return deck["G"], deck["R"], deck["Y"], deck["B"], deck[WILD]
        if players == 6 and "six_player_short_blue" in self.bugs:
            return SHORT_BLUE_6
        return ASSUMED_2018[players]

    def _table(self) -> _Table:
        if self.table is None:
            raise BadRequest("no game: call new_game first")
        return self.table

    @staticmethod
    def _hands_field(move: Move) -> list[list[str]]:
        hands = move.get("hands")
        if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
            raise BadRequest("move.hands: not a list of lists")
        if not all(isinstance(c, str) for h in hands for c in h):
            raise BadRequest("move.hands: a card is not a string")
        return hands

    def _check_phase(self, table: _Table, kind: str) -> None:
        if table.phase == "over":
            raise IllegalMove("FOOL-INV-10", f"the game is over: no {kind}")
        if kind == "deal" and table.phase != "deal":
            raise IllegalMove("FOOL-END-1", "a deal while the round is being played")
        if kind == "play" and table.phase != "play":
            raise IllegalMove("FOOL-DEAL-1", "a play before the cards are dealt")

    def _name_check(self, card: str) -> None:
        if parse_card(card) is None:
            if "unknown_card_bad_request" in self.bugs:
                raise BadRequest(f"card: {card!r} is not a Fool card")
            raise IllegalMove("FOOL-SETUP-2", f"{card!r} names no card of the box")

    def _deal(self, table: _Table, hands: list[list[str]]) -> None:
        for card in (c for h in hands for c in h):
            self._name_check(card)
            if card not in table.deck:
                raise IllegalMove("FOOL-SETUP-3", f"{card} is not in this game's deck")
        if len(hands) != table.n:
            raise IllegalMove("FOOL-DEAL-1", f"{len(hands)} hands for {table.n} players")
        size = sum(table.deck.values()) // table.n
        if "deal_unchecked_sizes" not in self.bugs:
            for seat, hand in enumerate(hands):
                if len(hand) != size:
                    raise IllegalMove("FOOL-DEAL-1", f"hand {seat} has {len(hand)} cards, not {size}")
        dealt = Counter(c for h in hands for c in h)
        for card, count in dealt.items():
            if count > table.deck[card]:
                raise IllegalMove("FOOL-DEAL-1", f"{card} dealt {count} times, the deck holds {table.deck[card]}")
        if dealt != table.deck:
            missing = sorted((table.deck - dealt).elements())
            raise IllegalMove("FOOL-DEAL-1", f"cards not dealt: {missing}")
        self._start_round(table, hands)

    def _start_round(self, table: _Table, hands: list[list[str]]) -> None:
        if table.round > 0 and "dealer_never_moves" not in self.bugs:
            table.dealer = (table.dealer + 1) % table.n
        table.round += 1
        table.hands = [sorted(h, key=show_key) for h in hands]
        table.trick, table.trick_seats, table.played = [], [], []
        table.fools, table.sitting = [], []
        table.tricks_done = 0
        table.prev_leader = None
        table.next_leader = table.dealer if "dealer_leads_first" in self.bugs else (table.dealer + 1) % table.n
        table.phase = "play"

    # ---- play

    def _allowed(self, table: _Table, hand: list[str]) -> set[str]:
        """The distinct cards of ``hand`` that may be played to the current trick."""
        cards = set(hand)
        lead = table.lead_colour()
        if "led_one_lifts_follow" in self.bugs and table.trick and table.trick[0] == WILD:
            lead = None
        if lead is None:
            return cards
        of_lead = {c for c in cards if colour_of(c) == lead}
        if of_lead:
            if "wild_only_when_void" in self.bugs:
                return of_lead
            return of_lead | (cards & {WILD})
        if "wild_counts_as_colour" in self.bugs and WILD in cards:
            return {WILD}
        return cards

    def _play(self, table: _Table, card: str) -> None:
        self._name_check(card)
        seat = table.to_act()
        assert seat is not None
        hand = table.hands[seat]
        if card not in hand:
            if not ("accept_unheld" in self.bugs and card in table.deck):
                raise IllegalMove("FOOL-INV-1", f"seat {seat} holds no {card}")
        elif card not in self._allowed(table, hand):
            raise IllegalMove("FOOL-FOLLOW-1", f"{card} revokes: seat {seat} must follow {table.lead_colour()}")
        if card in hand:
            hand.remove(card)
        table.trick.append(card)
        table.trick_seats.append(seat)
        if len(table.trick) == len(table.order()):
            self._finish_trick(table)

    def _finish_trick(self, table: _Table) -> None:
        winner, fools = self._resolve(table.trick, table.trick_seats, table.lead_colour(), table.discs)
        table.tricks_done += 1
        table.prev_leader = table.trick_seats[0]
        table.fools = sorted(fools)
        table.sitting = fools[:1] if "second_fool_plays_on" in self.bugs else list(table.fools)
        if self._round_over(table):
            table.next_leader = None
            self._score_round(table)
            return
        table.played.extend(table.trick)
        table.trick, table.trick_seats = [], []
        table.next_leader = winner

    def _round_over(self, table: _Table) -> bool:
        return any(not hand for hand in table.hands)

    def _resolve(self, trick: list[str], seats: list[int], lead: str | None, discs: int) -> tuple[int, list[int]]:
        """The winner and the fools of a completed trick (worst first)."""
        plays = list(enumerate(trick))

        def on_lead(card: str) -> bool:
            if card == WILD:
                return not ("wild_off_colour_when_scored" in self.bugs and lead is not None)
            return card[0] == lead

        def badness(play: tuple[int, str]) -> tuple[int, int, int]:
            index, card = play
            tie = index if "earlier_tie_worse" in self.bugs else -index
            if "lowest_number_worst" in self.bugs:
                return 0, number_of(card), tie
            return (1 if on_lead(card) else 0), number_of(card), tie

        ranked = sorted(plays, key=badness)
        worst = ranked[:discs]
        if discs == 2 and "second_fool_by_number" in self.bugs:
            rest = [p for p in plays if p != worst[0]]
            worst = [worst[0], min(rest, key=lambda p: (number_of(p[1]), -p[0]))]
        fool_idx = [i for i, _ in worst]
        if "highest_card_wins" in self.bugs:
            candidates = [p for p in plays if p[0] not in fool_idx]
        else:
            candidates = [p for p in plays if on_lead(p[1])] or plays
        best = max(candidates, key=lambda p: (number_of(p[1]), -p[0]))
        return seats[best[0]], [seats[i] for i in fool_idx]

    # ---- scoring and the end

    def _score_round(self, table: _Table) -> None:
        wild_cost = 1 if "wild_costs_one" in self.bugs else WILD_COST
        for seat in range(table.n):
            hand = table.hands[seat]
            if hand:
                loss = sum(cost_of(c, wild_cost) for c in hand)
                table.scores[seat] -= loss
                table.penalties[seat] += loss
            elif seat not in table.fools:
                table.scores[seat] += 10
                table.tens[seat] += 1
            elif "tally_counts_out_fool" in self.bugs:
                table.tens[seat] += 1
        if self._game_over(table):
            top = max(table.scores)
            table.winners = [s for s in range(table.n) if table.scores[s] == top]
            table.phase = "over"
        else:
            table.phase = "deal"

    def _game_over(self, table: _Table) -> bool:
        needed = TENS_TO_END + 1 if "tally_end_needs_seven" in self.bugs else TENS_TO_END
        if max(table.tens) >= needed:
            return True
        if table.options["loss"] == "net":
            return min(table.scores) <= -LOSS_LIMIT
        return max(table.penalties) >= LOSS_LIMIT

    # ---- STATE

    def _leader_field(self, table: _Table) -> int | None:
        if table.phase != "play" or not table.trick_seats:
            return None
        if "leader_field_lags" in self.bugs and table.prev_leader is not None:
            return table.prev_leader
        return table.trick_seats[0]

    def _zones(self, table: _Table) -> dict[str, list[str]]:
        zones: dict[str, list[str]] = {}
        if table.round == 0:
            zones["deck"] = sorted(table.deck.elements(), key=show_key)
        for seat, hand in enumerate(table.hands):
            zones[f"hand/{seat}"] = list(hand)
        zones["trick"] = list(table.trick)
        zones["played"] = list(table.played)
        zones["unused"] = sorted((BOX - table.deck).elements(), key=show_key)
        return {name: cards for name, cards in zones.items() if cards}

    def _snapshot(self, table: _Table) -> State:
        options = dict(table.options)
        if isinstance(options["deck"], dict):
            options["deck"] = dict(options["deck"])
        return {
            "game": GAME,
            "players": table.n,
            "options": options,
            "dealer": table.dealer,
            "phase": table.phase,
            "to_act": table.to_act(),
            "round": table.round,
            "zones": self._zones(table),
            "scores": list(table.scores),
            "result": None if table.winners is None else {"winners": list(table.winners)},
            "trick_seats": list(table.trick_seats),
            "leader": self._leader_field(table),
            "fools": list(table.fools),
            "tens": list(table.tens),
            "penalties": list(table.penalties),
            "lead_colour": table.lead_colour() if table.trick else None,
            "tricks_done": table.tricks_done,
        }


def engine(*bugs: str) -> FoolEngine:
    """The engine with the named planted bugs switched on (none: the correct engine)."""
    unknown = sorted(set(bugs) - set(BUGS))
    if unknown:
        raise ValueError(f"unknown fool bug(s): {', '.join(unknown)}")
    return FoolEngine(frozenset(bugs))


bugs = Factories(engine, BUGS, lambda name: (name,))
house = Factories(engine, HOUSE, lambda name: HOUSE[name].bugs)
