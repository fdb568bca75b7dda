"""Minimize a concrete counterexample by replaying smaller versions of it.

Hypothesis shrinks the choices that produced a trace; this works on the trace
itself, which is what a person reads.  It is delta debugging over the trace's
grammar: a trace is games (each starts with ``new_game``), a game is rounds
(each starts with an ``apply`` of a ``deal`` move) and a round is moves, with
``reject`` events (illegal-move probes) anywhere.  Passes run in order of
expected payoff, cheapest and largest first:

1. drop whole earlier games (the violating game alone is replayed first);
2. drop probes (all at once, then by halves);
3. with ``adapt``, smaller tables, each recorded deal laid out for them;
4. hoist the violating event to earlier points of its round (a probe that
   must be refused usually must be refused right after the deal too);
5. with a lenient replay, keep the violating round's start and let the
   properties' ``play_on`` moves play on (from the deal, then from halfway);
   with ``fresh``, in a one-round game, other deals shuffled by fixed seeds,
   played on the same way from the deal;
6. drop earlier rounds (whole deal-to-deal blocks), adjusting the first
   dealer so that the seats that dealt keep dealing;
7. without ``adapt``, smaller setups that keep the deals (a smaller target),
   alone or with only the violating round kept;
8. ddmin over the remaining single moves and chunks of moves.

A candidate is kept only when ``reproduces`` says it still shows the same
failure; it then returns how many events lead up to the violation and the
candidate is cut there.  Moves depend on each other (whose turn it is, which
cards are held), so a strict replay of a candidate with a move dropped mostly
diverges; ``lenient_replay`` (what certification uses) replaces a recorded
move the engine no longer lists by one it lists (``GameProperties.play_on``: the
first listed unless the game's properties pick one that makes progress) and keeps what was
actually played.  The budget counts replays and, optionally, engine calls,
never seconds, and nothing here is random: the same trace and the same engine give the same minimized trace.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import orjson
from attrs import frozen

from ruleproof.model.engine import Move, Unsupported
from ruleproof.model.findings import Event, Finding, Setup, Trace
from ruleproof.properties.base import GameProperties, Ledger
from ruleproof.properties.contract import CONTRACT_DETERMINISM
from ruleproof.properties.snapshot import move_key
from ruleproof.run.session import Session
from ruleproof.transport.checked import CheckedEngine

Reproduces = Callable[[Trace], int | None]
Setups = Callable[[Setup], Sequence[Setup]]
# a recorded deal laid out for a smaller setup (GameProperties.adapt_deal); None when it cannot be
AdaptDeal = Callable[[Move, Setup], Move | None]
# a deal for a setup shuffled by a seed (GameProperties.fresh_deal); None when the game has none
FreshDeal = Callable[[Setup, int], Move | None]
# fresh deals tried at each table: the FRESH_TABLES smallest smaller ones, then the trace's own
FRESH_DEALS, FRESH_TABLES = 24, 2


@frozen
class Played:
    """What a lenient replay played: the events sent, cut right after the violation.

    ``origin[j]`` is the index in the candidate of the event ``events[j]`` stands for (the event
    itself, or the listed move that replaced it), -1 for a move played on past the candidate's end.
    ``prior``: the other clauses violated before the violating step, in its game (none: the
    violation stands on its own; some: it may only follow from them).
    """

    events: tuple[Event, ...]
    origin: tuple[int, ...]
    prior: frozenset[str] = frozenset()


# replay a candidate leniently, playing no more than this many events in all (see ``lenient_replay``)
Lenient = Callable[[Trace, int], Played | None]

# A budget of engine calls: (the engine's call counter, how many calls minimizing may make)
Calls = tuple[Callable[[], int], int]

# A unit of deletion: the positions (ids, see _Work) of the events removed together.
Unit = tuple[int, ...]


@frozen
class Minimized:
    """The minimal trace found, how long the input was, and what it cost.

    With a lenient replay, ``clean`` says whether the trace shows the violation with no other clause
    violated before it in its game (the independence test), and ``prior`` is, when it is not clean,
    the clauses violated before it in every reproducing candidate tried (empty when they had none in
    common).
    """

    trace: Trace
    original: int  # events in the trace given to ``minimize``
    replays: int  # calls made to ``reproduces``
    clean: bool = True
    prior: frozenset[str] = frozenset()


def minimize(  # noqa: PLR0913 - keyword options after the two positional ones: budgets and replay strategies
    trace: Trace,
    reproduces: Reproduces,
    *,
    budget: int,
    setups: Setups | None = None,
    lenient: Lenient | None = None,
    calls: Calls | None = None,
    adapt: AdaptDeal | None = None,
    fresh: FreshDeal | None = None,
    quick: bool = False,
) -> Minimized:
    """The smallest trace found within ``budget`` calls of ``reproduces`` (or of ``lenient``).

    The input is replayed first: when it does not reproduce (a
    nondeterministic engine), it comes back unchanged, since nothing smaller
    could be trusted either.  With ``lenient``, every candidate is replayed
    by it instead: a move the engine no longer lists is replaced by one it
    lists, so dropping a move no longer strands the moves after it.  With
    ``adapt``, a smaller setup is tried with the game's deals laid out for
    it, right after the probes are dropped (fewer players shorten every
    round); without it, the recorded deals are kept.  With
    ``calls``, no replay starts once the engine has answered that many calls
    since the start: a replay of a short candidate costs little, so counting
    engine calls buys many more of them than counting replays would.
    With ``quick``, only the passes that cost a few replays run, once (1 to 5): what
    the first look at every failure of a game spends, before any gets the costly
    passes (fresh deals, earlier rounds, ddmin over the moves).
    """
    work = _Work(trace, reproduces, budget, lenient, calls)
    tables = setups if adapt is not None else None
    if work.confirm():
        while work.left() > 0 and not _at_floor(work, setups):
            before = work.size()
            _drop_games(work)
            _drop_probes(work)
            if setups is not None and adapt is not None:
                _smaller_setups(work, setups, adapt)
            _hoist_violation(work)
            _play_on(work)
            if quick or _at_floor(work, setups):
                break
            if fresh is not None:
                _fresh_deals(work, fresh, tables)
            _drop_rounds(work)
            if setups is not None and adapt is None:
                _smaller_setups(work, setups)
            _ddmin_moves(work)
            if work.size() >= before:  # a full round of passes found nothing: a fixpoint
                break
    return Minimized(work.trace(), len(trace.events), work.replays, work.clean, work.dirty_prior or frozenset())


class _Work:
    """The current trace as (id, event) pairs, and every replay made so far.

    Ids are positions in the input trace (a substituted ``new_game`` keeps
    its id), so a unit of deletion survives the cuts made by earlier passes.
    """

    def __init__(
        self,
        trace: Trace,
        reproduces: Reproduces,
        budget: int,
        lenient: Lenient | None = None,
        calls: Calls | None = None,
    ) -> None:
        self.game = trace.game
        self.calls = calls
        self.calls_at_start = calls[0]() if calls is not None else 0
        self.finding = trace.finding
        self.reproduces = reproduces
        self.lenient = lenient
        self.budget = budget
        self.replays = 0
        self.pairs: list[tuple[int, Event]] = list(enumerate(trace.events))
        self.cache: dict[bytes, int | None] = {}
        self.played: dict[bytes, Played | None] = {}
        self.fresh = len(trace.events)  # the next id for a move played on past a candidate's end
        # the independence test (lenient replays): a candidate with no other clause violated before the
        # violation beats any that has one, whatever their lengths; once clean, only clean ones are kept
        self.clean = True
        self.dirty_prior: frozenset[str] | None = None  # what every dirty reproducing candidate had before it

    def trace(self) -> Trace:
        return Trace(self.game, tuple(e for _, e in self.pairs), self.finding)

    def size(self) -> tuple[int, int]:
        """Events, then the setup's size: what every kept candidate makes smaller."""
        return len(self.pairs), sum(_setup_weight(e) for _, e in self.pairs if e.kind == "new_game")

    def left(self) -> int:
        """Replays left (0 once the engine calls are spent too)."""
        if self.calls is not None and self.calls[0]() - self.calls_at_start >= self.calls[1]:
            return 0
        return self.budget - self.replays

    def affords(self, events: int) -> bool:
        """Whether the calls left pay for replaying ``events`` events at worst (an ``apply`` and a
        ``legal_moves`` each, and the ``new_game``): a replay that may overrun the budget is not started,
        so what one failure leaves goes to the next and the game's calls stay within its budget."""
        return self.calls is None or self.calls[1] - (self.calls[0]() - self.calls_at_start) >= 2 * events + 2

    def ids(self) -> set[int]:
        return {i for i, _ in self.pairs}

    def confirm(self) -> bool:
        """Replay the violating game alone, else the input itself, and cut it at its violation.

        The violating game alone is tried first because the input may hold a long example's earlier
        games; they are needed only when the engine carries something from game to game.
        """
        games = _games(self.pairs)
        return (len(games) > 1 and self.attempt(games[-1], force=True)) or self.attempt(self.pairs, force=True)

    def attempt(self, pairs: list[tuple[int, Event]], *, force: bool = False) -> bool:
        """Replay a candidate; keep it (cut at the violation) when it reproduces and is smaller."""
        if not pairs or pairs[0][1].kind != "new_game":
            return False  # a trace starts with new_game (TraceError otherwise)
        candidate = Trace(self.game, tuple(e for _, e in pairs), self.finding)
        key = orjson.dumps(candidate.moves(), option=orjson.OPT_SORT_KEYS)
        if self.lenient is not None:
            return self._attempt_lenient(pairs, candidate, key, force=force)
        if key in self.cache:
            upto = self.cache[key]
        elif self.left() <= 0 or not (force or self.affords(len(pairs))):
            return False
        else:
            self.replays += 1
            upto = self.reproduces(candidate)
            self.cache[key] = upto
        if upto is None or upto < 1:
            return False
        cut = pairs[: min(upto, len(pairs))]
        if not force and _size(cut) >= self.size():
            return False
        self.pairs = cut
        return True

    def _attempt_lenient(self, pairs: list[tuple[int, Event]], candidate: Trace, key: bytes, *, force: bool) -> bool:
        """``attempt`` by a lenient replay: keep what was actually played when it is smaller, or when it
        is clean and the current trace is not (a clean one may then be up to twice as long)."""
        assert self.lenient is not None
        # a longer trace is no gain, except a clean one for a dirty one
        limit = len(self.pairs) if force else len(self.pairs) - 1 if self.clean else 2 * len(self.pairs)
        if key in self.played:
            played = self.played[key]
        elif self.left() <= 0 or not (force or self.affords(limit)):
            return False
        else:
            self.replays += 1
            played = self.played[key] = self.lenient(candidate, limit)
        if played is None or not played.events:
            return False
        if played.prior:  # the violation came after another: remember what every such candidate shares
            self.dirty_prior = played.prior if self.dirty_prior is None else self.dirty_prior & played.prior
        clean = not played.prior
        if not force and self.clean and not clean:
            return False  # never give up an independent counterexample for one that follows another
        gains = force or (clean and not self.clean)
        cut = []
        for event, origin in zip(played.events, played.origin, strict=True):
            if origin < 0:
                origin_id, self.fresh = self.fresh, self.fresh + 1
            else:
                origin_id = pairs[origin][0]
            cut.append((origin_id, event))
        if not gains and _size(cut) >= self.size():
            return False
        self.pairs, self.clean = cut, clean
        return True

    def without(self, removed: Iterable[int]) -> list[tuple[int, Event]]:
        gone = set(removed)
        return [(i, e) for i, e in self.pairs if i not in gone]


def _at_floor(work: _Work, setups: Setups | None) -> bool:
    """No trace can be smaller: one game of its ``new_game``, its deal and the violation (or the
    ``new_game`` and the violation), independent of any other, at a setup with none smaller."""
    pairs = work.pairs
    if not work.clean or len(pairs) > 3 or len(_games(pairs)) > 1 or (len(pairs) == 3 and not _is_deal(pairs[1][1])):
        return False
    if setups is None:
        return True
    try:
        return not list(setups(Setup.from_json(pairs[0][1].value)))
    except ValueError:
        return False


def _size(pairs: list[tuple[int, Event]]) -> tuple[int, int]:
    return len(pairs), sum(_setup_weight(e) for _, e in pairs if e.kind == "new_game")


def _setup_weight(event: Event) -> int:
    """How big a setup is, to prefer fewer players and smaller numeric options."""
    value = event.value
    numbers = [v for v in (value.get("options") or {}).values() if isinstance(v, int) and not isinstance(v, bool)]
    return int(value.get("players", 0)) * 1_000_000 + sum(numbers)


# -- the trace's grammar -----------------------------------------------------------------


def _is_deal(event: Event) -> bool:
    return event.kind == "apply" and event.value.get("type") == "deal"


def _games(pairs: list[tuple[int, Event]]) -> list[list[tuple[int, Event]]]:
    """The pairs split into games, each starting at its new_game."""
    games: list[list[tuple[int, Event]]] = []
    for pair in pairs:
        if pair[1].kind == "new_game" or not games:
            games.append([])
        games[-1].append(pair)
    return games


def _rounds(game: list[tuple[int, Event]]) -> list[list[tuple[int, Event]]]:
    """A game's events from its first deal on, split into deal-to-deal blocks."""
    rounds: list[list[tuple[int, Event]]] = []
    for pair in game:
        if _is_deal(pair[1]):
            rounds.append([])
        if rounds:
            rounds[-1].append(pair)
    return rounds


def _last_id(work: _Work) -> int:
    return work.pairs[-1][0]


def _with_dealer(pairs: list[tuple[int, Event]], new_game_id: int, dealer: int) -> list[tuple[int, Event]]:
    return [(i, Event("new_game", {**e.value, "dealer": dealer}) if i == new_game_id else e) for i, e in pairs]


def _dealers(setup: dict[str, Any], dropped: int) -> Iterator[int]:
    """First dealers to try after dropping ``dropped`` rounds: the one who dealt the kept round first.

    All four games pass the deal to the left (dealer + 1), so the round that
    is kept is dealt by the same seat again only if the game starts there;
    then the dealer as it was (an engine that never rotates) and the other
    direction.  Other seats are not tried: each costs a replay.
    """
    n, dealer = int(setup.get("players", 1)), int(setup.get("dealer", 0))
    order = [(dealer + dropped) % n, dealer, (dealer - dropped) % n]
    seen: set[int] = set()
    for d in order:
        if d not in seen:
            seen.add(d)
            yield d


# -- passes ------------------------------------------------------------------------------


def _drop_games(work: _Work) -> None:
    """Drop every game but the violating one, else ddmin over the earlier games."""
    games = _games(work.pairs)
    if len(games) < 2:
        return
    earlier = [tuple(i for i, _ in g) for g in games[:-1]]
    _ddmin(work, earlier)


def _drop_probes(work: _Work) -> None:
    """Drop probes (reject events) before the violation: all, then by halves."""
    last = _last_id(work)
    probes: list[Unit] = [(i,) for i, e in work.pairs if e.kind == "reject" and i != last]
    if probes:
        _ddmin(work, probes)


def _hoist_violation(work: _Work) -> None:
    """Try the violating event earlier in its round: right after the deal first, then halfway.

    A probe usually breaks its rule anywhere (four tries); a move is rarely
    legal much earlier, so it gets one try.
    """
    last_id, last = work.pairs[-1]
    if last.kind == "new_game" or _is_deal(last):
        return
    tries = 4 if last.kind == "reject" else 1
    game = _games(work.pairs)[-1]
    rounds = _rounds(game)
    start = work.pairs.index(rounds[-1][0]) + 1 if rounds else work.pairs.index(game[0]) + 1
    end = len(work.pairs) - 1  # the violation's own position
    lo = start
    for _ in range(tries):
        if lo >= end:
            return
        candidate = [*work.pairs[:lo], (last_id, last)]
        if work.attempt(candidate):
            return
        lo = (lo + end + 1) // 2


def _play_on(work: _Work) -> None:
    """With a lenient replay: keep the violating round's start, then let the properties' play_on moves play.

    Tried right after the round's deal, then halfway to the violation: a rule broken in every trick
    or turn shows within a few moves whatever is played.
    """
    if work.lenient is None:
        return
    game = _games(work.pairs)[-1]
    rounds = _rounds(game)
    start = work.pairs.index(rounds[-1][0]) + 1 if rounds else work.pairs.index(game[0]) + 1
    end = len(work.pairs) - 1
    for lo in (start, (start + end) // 2):
        if lo >= end or work.left() <= 0:
            return
        if work.attempt(work.pairs[:lo]):
            return


def _fresh_deals(work: _Work, fresh: FreshDeal, setups: Setups | None) -> None:
    """With a lenient replay, a one-round game: other deals, played on from the deal.

    The properties shuffle them by fixed seeds (the same trace gives the same candidates), at the
    smallest smaller tables first (two players, then three: a rule about the turn order may need
    three), then at the trace's own (unless a smaller table's deal was kept: the trace's first table
    is then a larger one, and its deals are not paid for); every deal that shows the clause sooner
    is kept, so each later one must show it sooner still.  A rule broken whenever some cards meet
    (a rank on a rank, a burn) shows within a few turns of many deals, where deleting moves from the
    recorded game cannot move those cards any closer.
    """
    game = _games(work.pairs)[-1]
    rounds = _rounds(game)
    if work.lenient is None or len(rounds) != 1 or game[1] is not rounds[0][0]:
        return  # a game of several rounds (or with events before its deal) keeps its deals
    (new_game_id, first), deal_id = game[0], rounds[0][0][0]
    current = Setup.from_json(first.value)
    smaller = list(setups(current))[:FRESH_TABLES] if setups is not None else []
    moved = False  # a deal at a smaller table was kept: the trace's own table can only be a larger one now
    for setup in [*smaller, current]:
        if moved and setup is current:
            return
        for seed in range(FRESH_DEALS):
            if work.left() <= 0:
                return
            deal = fresh(setup, seed)
            if deal is None:
                return
            kept = work.attempt([(new_game_id, Event("new_game", setup.to_json())), (deal_id, Event("apply", deal))])
            moved = moved or (kept and setup is not current)


def _drop_rounds(work: _Work) -> None:
    """Drop earlier rounds of each game: all of them at once (up to three first dealers), then ddmin."""
    for game in reversed(_games(work.pairs)):
        if work.left() <= 0:
            return
        rounds = _rounds(game)
        if len(rounds) < 2:
            continue
        new_game_id, setup = game[0][0], game[0][1].value
        earlier = [tuple(i for i, _ in r) for r in rounds[:-1]]
        dropped = work.without(i for unit in earlier for i in unit)
        if any(work.attempt(_with_dealer(dropped, new_game_id, d)) for d in _dealers(setup, len(earlier))):
            continue
        _ddmin(work, earlier, _DealerShift(work, new_game_id))


class _DealerShift:
    """When ddmin drops the first k rounds of a game, start it with the dealer of the first round kept.

    Dropping rounds further in cannot keep every later dealer (only the first
    dealer is in the trace), so those candidates keep the dealer as it is.
    """

    def __init__(self, work: _Work, new_game_id: int) -> None:
        self.work, self.new_game_id = work, new_game_id

    def __call__(self, candidate: list[tuple[int, Event]], removed: list[Unit]) -> list[tuple[int, Event]]:
        game = next(g for g in _games(self.work.pairs) if g[0][0] == self.new_game_id)
        rounds = [tuple(i for i, _ in r) for r in _rounds(game)]
        k = len(removed)
        if rounds[:k] != removed:
            return candidate
        return _with_dealer(candidate, self.new_game_id, next(_dealers(game[0][1].value, k)))


def _with_setup(
    pairs: list[tuple[int, Event]], game: list[tuple[int, Event]], setup: Setup, adapt: AdaptDeal | None
) -> list[tuple[int, Event]] | None:
    """The pairs with ``game`` started by ``setup`` (its deals adapted to it when ``adapt`` is given)."""
    ids = {i for i, _ in game}
    new_game_id = game[0][0]
    out: list[tuple[int, Event]] = []
    for i, event in pairs:
        sent = event
        if i == new_game_id:
            sent = Event("new_game", setup.to_json())
        elif adapt is not None and i in ids and _is_deal(event):
            deal = adapt(event.value, setup)
            if deal is None:
                return None
            sent = Event("apply", deal)
        out.append((i, sent))
    return out


def _smaller_setups(work: _Work, setups: Setups, adapt: AdaptDeal | None = None, limit: int = 6) -> None:
    """Substitute smaller setups into the violating game's new_game, alone or with only its last round."""
    tried: set[bytes] = set()
    progress = True
    while progress and work.left() > 0:
        progress = False
        game = _games(work.pairs)[-1]
        new_game_id, current = game[0]
        try:
            options = list(setups(Setup.from_json(current.value)))[:limit]
        except ValueError:
            return
        for setup in options:
            value = setup.to_json()
            key = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
            if key in tried:
                continue
            tried.add(key)
            swapped = _with_setup(work.pairs, game, setup, adapt)
            if swapped is None:
                continue
            if work.attempt(swapped):
                progress = True
                break
            rounds = _rounds(game)
            if len(rounds) < 2:
                continue
            earlier = {i for r in rounds[:-1] for i, _ in r}
            only_last = [(i, e) for i, e in swapped if i not in earlier]
            if any(work.attempt(_with_dealer(only_last, new_game_id, d)) for d in _dealers(value, len(rounds) - 1)):
                progress = True
                break


def _ddmin_moves(work: _Work) -> None:
    """ddmin over single moves and probes: never a new_game, a deal or the violation itself."""
    last = _last_id(work)
    units: list[Unit] = [(i,) for i, e in work.pairs if e.kind != "new_game" and not _is_deal(e) and i != last]
    if units:
        _ddmin(work, units)


Adjust = Callable[[list[tuple[int, Event]], list[Unit]], list[tuple[int, Event]]]


def _ddmin(work: _Work, units: list[Unit], adjust: Adjust | None = None) -> None:
    """Zeller's ddmin over deletion units: remove all, then halves, quarters, ... down to single units.

    Removing everything is tried first (the usual case for earlier games and
    probes).  ``adjust`` rewrites a candidate given how many units it drops
    (used to move the first dealer when leading rounds are dropped).
    """

    def attempt(removed: list[Unit]) -> bool:
        candidate = work.without(i for unit in removed for i in unit)
        if adjust is not None:
            candidate = adjust(candidate, removed)
        return work.attempt(candidate)

    def alive(us: list[Unit]) -> list[Unit]:  # a success may cut the trace short: forget what is gone
        ids = work.ids()
        return [u for u in us if all(i in ids for i in u)]

    if attempt(units):
        return
    chunks = 2
    while len(units) >= 1 and work.left() > 0:
        size = -(-len(units) // chunks)
        parts = [units[k : k + size] for k in range(0, len(units), size)]
        removed = next((p for p in parts if attempt(p)), None)
        if removed is not None:
            units = alive([u for u in units if u not in removed])
            chunks = max(chunks - 1, 2)
            continue
        if size == 1:
            return
        chunks = min(chunks * 2, len(units))


# -- the lenient replay -------------------------------------------------------------------


class _Stranded(Exception):
    """The candidate cannot be followed any further (no game, a deal out of place, a refused move)."""


def lenient_replay(
    engine: CheckedEngine, props_cls: type[GameProperties], clause: str, signature: str | None = None
) -> Lenient:
    """A replay for ``minimize(lenient=...)`` that follows a candidate wherever the engine lets it.

    A recorded move the engine does not list here is replaced by the properties' ``play_on`` move; a probe
    the engine now lists is sent only where the properties still name it as breaking its clause
    (else it is dropped, so a move that became legal is not blamed); once the candidate runs out,
    the ``play_on`` move is played on.  It answers what was played, cut right after ``clause`` first
    failed (with that ``signature``, when given), and what failed before it; or None when it did not
    fail within ``limit`` events.  Deterministic: the same engine plays the same moves.
    """

    def run(candidate: Trace, limit: int) -> Played | None:
        return _LenientRun(Session(engine, props_cls, Ledger(), lambda *_: None), clause, signature).run(
            candidate, limit
        )

    return run


class _LenientRun:
    """One lenient replay: the session, what was sent, and whether (and after what) the clause failed."""

    def __init__(self, session: Session, clause: str, signature: str | None) -> None:
        session.sink = self.sink
        self.session, self.clause, self.signature = session, clause, signature
        self.hit = False
        self.prior: frozenset[str] = frozenset()
        self.events: list[Event] = []
        self.origin: list[int] = []

    def sink(self, finding: Finding, session: Session) -> None:
        if not self.hit and finding.clause == self.clause and self.signature in (None, finding.signature):
            self.hit = True
            self.prior = session.prior_for(finding)

    def played(self) -> Played:
        return Played(tuple(self.events), tuple(self.origin), self.prior)

    def run(self, candidate: Trace, limit: int) -> Played | None:
        session = self.session
        current: tuple[int, Event] | None = None  # the event being sent: kept when its refusal is the violation
        try:
            for i, event in enumerate(candidate.events):
                if len(self.events) >= limit:
                    return None
                current = (i, event)
                sent = _send(session, event)
                if sent is not None:
                    self.events.append(sent)
                    self.origin.append(i)
                if self.hit:
                    return self.played()
            if self.clause == CONTRACT_DETERMINISM and session.snap is not None:  # judged by replaying the game
                session.replay_current_game()
                if self.hit:
                    return self.played()
            while len(self.events) < limit and session.snap is not None and session.snap.moves:
                self.events.append(_send_listed(session, _stand_in(session)))
                self.origin.append(-1)
                if self.hit:
                    return self.played()
        except _Stranded:
            if self.hit:  # the violation was the refusal itself (CONTRACT-MOVES-2, a deal clause)
                if current is not None and session.events and session.events[-1] == current[1]:
                    self.events.append(current[1])  # the refused event belongs to the counterexample
                    self.origin.append(current[0])
                return self.played()
        return None


def _send(session: Session, event: Event) -> Event | None:
    """Send one candidate event as the lenient replay does: the event sent, None when dropped."""
    if event.kind == "new_game":
        try:
            session.start(Setup.from_json(event.value))
        except Unsupported:
            raise _Stranded from None
        return event
    snap, props = session.snap, session.props
    if snap is None or props is None:
        raise _Stranded
    if event.kind == "reject":
        key, clause = move_key(event.value), event.clause or "CONTRACT-REJECT-1"
        if key in snap.move_keys:  # listed here: sent only if the properties still call it illegal
            bad = props.guarded("illegal_moves", props.illegal_moves, snap) or ()
            if not any(c == clause and move_key(m) == key for m, c in bad):
                return None
        session.reject(event.value, clause)
        return event
    if _is_deal(event):
        if snap.phase != "deal" or not session.apply(event.value):
            raise _Stranded
        return event
    if snap.phase == "deal" or not snap.moves:
        raise _Stranded  # the round ended sooner than recorded: no deal to send
    move = event.value if move_key(event.value) in snap.move_keys else _stand_in(session)
    return _send_listed(session, move)


def _stand_in(session: Session) -> Move:
    """The listed move the properties play on with (``GameProperties.play_on``), else the first listed."""
    snap, props = session.snap, session.props
    assert snap is not None and props is not None and snap.moves
    move = props.guarded("play_on", props.play_on, snap)
    return move if move is not None else snap.moves[0]


def _send_listed(session: Session, move: Move) -> Event:
    if not session.apply(move, listed=True):
        raise _Stranded
    return Event("apply", move)


__all__ = ["Minimized", "Played", "lenient_replay", "minimize"]
