"""Driving an engine through games while recording, never stopping, on a violation.

A ``Session`` makes every call to the engine for one driver (the state
machine, a fixture, a replay), keeps the trace of what was sent, shows each
transition to the game's properties and checks the contract's own clauses
(docs/rules/contract.md).  Record and continue: a violated clause is recorded
in the ``Ledger`` and handed to the session's sink with the trace so far; the
game goes on from the engine's own state, so clauses downstream of a
deviation still get verdicts and invariants are judged at every step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import orjson

from ruleproof.model import observed
from ruleproof.model.engine import AdapterBroken, EngineError, IllegalMove, JSONObject, Move, State, Unsupported
from ruleproof.model.findings import Event, Finding, Setup, Trace, message_shape
from ruleproof.model.observed import overlaps
from ruleproof.properties.base import GameProperties, Ledger, clause_table
from ruleproof.properties.contract import (
    CONTRACT_ACCEPT,
    CONTRACT_DETERMINISM,
    CONTRACT_DISTINCT,
    CONTRACT_ERROR,
    CONTRACT_OVER,
    CONTRACT_PHASE,
    CONTRACT_REJECT,
    CONTRACT_SETUP,
)
from ruleproof.properties.snapshot import Snapshot, Step, canonical, move_key, summary
from ruleproof.transport.checked import CheckedEngine

Sink = Callable[[Finding, "Session"], None]


def is_invariant(clause: str) -> bool:
    """An invariant clause (``GAME-INV-n``) states what every state the rules reach has."""
    return "-INV-" in clause


def move_shape(move: Move, snap: Snapshot | None) -> str:
    """What kind of move this is, as a cause of a finding: its type, how many cards it names, a card named
    twice, a card the seat to act does not hold.  A probe of three identical cards is another cause than
    a pass of two, though both break BM-PASS-1."""
    parts = [str(move.get("type"))]
    hand = set(snap.zone(f"hand/{snap.to_act}")) if snap is not None and snap.to_act is not None else set()
    cards = move.get("cards")
    if isinstance(cards, list):
        parts.append(f"{len(cards)} cards")
        if len({str(c) for c in cards}) < len(cards):
            parts.append("one named twice")
    else:
        cards = [move[k] for k in ("card", "tile") if isinstance(move.get(k), str)]
    if hand and any(str(c) not in hand for c in cards):
        parts.append("not in the hand")
    return " ".join(parts)


ACCEPTED = "accepted"  # the rule of a finding "the engine accepted a move the rules forbid"
CHANGED = "changed"  # ... of "a refusal changed the state" (CONTRACT-REJECT-1)


def answered(err: EngineError) -> frozenset[str]:
    """What an error answer observed: an ``internal`` answer is a crash, the same defect whatever request
    showed it (``observed.crash``)."""
    return frozenset({observed.crash(message_shape(err.message))}) if err.kind == "internal" else frozenset()


def _pieces(move: Move) -> list[Any]:
    pieces = move.get("cards")
    if isinstance(pieces, list):
        return pieces
    return [move[k] for k in ("card", "tile") if isinstance(move.get(k), str)]


def _accepted(move: Move, before: Snapshot) -> frozenset[str]:
    """A forbidden move taken: the move, its pieces wherever they went, the hand of the seat that made it."""
    hand = {observed.zone(f"hand/{before.to_act}")} if before.to_act is not None else set()
    return frozenset({observed.MOVE, *hand}) | observed.cards(_pieces(move))


def _stuck(snap: Snapshot) -> frozenset[str]:
    """A seat to act with no move (or nobody to act): the list, who acts, and the sizes of the hands (a
    seat runs out of cards first when a card was lost or gained by any hand)."""
    players = snap.raw.get("players")
    seats = range(players) if isinstance(players, int) and 0 < players <= 16 else ()
    hands = {observed.size(f"hand/{s}") for s in seats} | {
        observed.size(z) for z in snap.zone_names() if z.startswith("hand/")
    }
    return frozenset({observed.TO_ACT, observed.MOVES, *hands})


def _listed_twice(dupes: list[Any]) -> frozenset[str]:
    """A move listed twice: that move, and its pieces (a card held twice lists its play twice)."""
    return observed.moves(dupes) | observed.cards(c for m in dupes if isinstance(m, dict) for c in _pieces(m))


def changed(before: JSONObject, after: JSONObject) -> frozenset[str]:
    """The fields (and zones) in which two canonical states differ."""
    atoms = {k for k in set(before) | set(after) if k != "zones" and before.get(k) != after.get(k)}
    zones_a, zones_b = before.get("zones") or {}, after.get("zones") or {}
    for z in set(zones_a) | set(zones_b):
        was, now = zones_a.get(z) or [], zones_b.get(z) or []
        if was != now:  # the zone, and the pieces that left or joined it (a card lost is a card observed)
            atoms |= {observed.zone(z), *observed.cards((Counter(was) - Counter(now)) + (Counter(now) - Counter(was)))}
    return frozenset(atoms) or frozenset({"state"})


def _surely_distinct(moves: tuple[Move, ...]) -> bool:
    """True when no two moves can share a ``move_key``; False means "ask move_key".

    Equal move keys imply equal (number of fields, type, card, tile, sorted cards): the moves passed
    the schema, so those fields are strings, lists of strings, or absent. So when these cheaper keys are
    all distinct, so are the move keys, and CONTRACT-MOVES-1 is judged exactly as by move_key
    without serialising every listed move every step (Black Maria lists every 3-card pass: 286 to
    680 moves); a game whose checks compare move sets still keys them, once per snapshot.
    """
    try:
        keys = {
            (
                len(m),
                m.get("type"),
                m.get("card"),
                m.get("tile"),
                tuple(sorted(c)) if isinstance(c := m.get("cards"), list) else c,
            )
            for m in moves
        }
    except (AttributeError, TypeError):  # not an object, or a field that cannot be hashed or sorted
        return False
    return len(keys) == len(moves)


class Session:
    """Drives one engine through games of one kind, checking and recording.

    Every call goes through here: the trace it keeps is exactly what was sent,
    so a finding can be replayed move for move.  ``sink(finding, session)`` is
    called for every violation, right after the step that showed it.
    """

    def __init__(self, engine: CheckedEngine, props_cls: type[GameProperties], ledger: Ledger, sink: Sink) -> None:
        self.engine = engine
        self.props_cls = props_cls
        self.ledger = ledger
        self.sink = sink
        self.events: list[Event] = []
        self.props: GameProperties | None = None
        self.snap: Snapshot | None = None
        self._game_start = 0  # index in events of the current game's new_game
        self._refused: set[int] = set()  # indexes of applied events the engine refused
        self.violations = 0  # findings handed to the sink so far
        # what took this game's state off the rules in earlier steps, and what each of those touched (_flush)
        self.taint: list[tuple[str, frozenset[str]]] = []
        self._off_rules = False  # this step took the game off the rules (a forbidden move accepted)

    @property
    def moves_sent(self) -> int:
        """The moves sent to the engine so far, applied or to be refused (each a step of the run)."""
        return sum(e.kind != "new_game" for e in self.events)

    # -- trace -----------------------------------------------------------------------
    def trace(self, finding: Finding | None = None) -> Trace:
        return Trace(self.props_cls.game, tuple(self.events), finding)

    def _flush(self) -> None:
        """Hand this step's findings to the sink (each with the trace up to this step).

        While the sink runs, ``prior_for(finding)`` tells what this game's earlier steps did to leave
        the rules that the finding observed: a broken invariant (a state no play by the rules reaches:
        cards duplicated, a hand of the wrong size, a total that fell), a forbidden move the engine
        took, a refusal that changed the state.  Each taints what it observed (``Finding.observed``);
        a violation that observes a tainted part may only follow from it, one that observes none
        stands on its own (the independence test, docs/architecture.md), however many deviations came
        before it.  A deviation that leaves the state within the rules (the wrong seat to lead, a move
        missing from the list) taints nothing: what comes after is judged from the engine's own state.
        """
        pending, self.ledger.pending = self.ledger.pending, []
        off_rules, self._off_rules = self._off_rules, False
        if not pending:
            return
        self.violations += len(pending)
        for finding in pending:
            self.sink(finding, self)
        for finding in pending:
            # the move itself is this step's alone: what it did shows in the parts it touched
            touched = finding.observed - {observed.MOVE}
            if touched and (is_invariant(finding.clause) or (off_rules and finding.rule in (ACCEPTED, CHANGED))):
                self.taint.append((finding.clause, touched))

    def prior_for(self, finding: Finding) -> frozenset[str]:
        """The clauses of earlier steps of this game that took the state off the rules where ``finding``
        looks: it may be their consequence (``follows``)."""
        return frozenset(
            clause for clause, touched in self.taint if clause != finding.clause and overlaps(touched, finding.observed)
        )

    @property
    def prior(self) -> frozenset[str]:
        """Every clause that took this game's state off the rules so far, whatever it touched."""
        return frozenset(clause for clause, _ in self.taint)

    def _fail(  # noqa: PLR0913 - a finding's parts, the last three by name
        self,
        clause: str,
        message: str,
        expected: Any = None,
        got: Any = None,
        *,
        cause: str = "",
        observed: frozenset[str] = frozenset(),
        rule: str = "",
    ) -> None:
        signature = f"contract:{rule + ':' if rule else ''}{cause or message_shape(message)}"
        self.ledger.record(Finding(clause, message, expected, got, signature, observed or frozenset({clause}), rule))

    # -- steps -----------------------------------------------------------------------
    def snapshot(self, state: State) -> Snapshot:
        try:
            moves = tuple(self.engine.legal_moves())
        except EngineError as err:  # an answer: the seat to act has no move the kit can see (CONTRACT-PHASE-1)
            self._fail(
                CONTRACT_PHASE,
                f"legal_moves answered {err.kind} ({err.message}); it must list the moves of the seat to act",
                "a list of moves",
                err.kind,
                cause=f"legal_moves answered {err.kind}",
                observed=frozenset({observed.MOVES, observed.TO_ACT}) | answered(err),
            )
            moves = ()
        snap = Snapshot(state, moves)
        self._check_contract(snap)
        return snap

    def start(self, setup: Setup) -> Snapshot:
        """``new_game``; Unsupported propagates, a refused declared setup is CONTRACT-SETUP-1."""
        self.events.append(Event("new_game", setup.to_json()))
        self._game_start = len(self.events) - 1
        self.taint = []
        try:
            state = self.engine.new_game(setup.game, setup.players, setup.dealer, setup.options)
        except Unsupported:
            raise
        except EngineError as err:  # bad_request, illegal_move or internal: an answer, never a break
            self._fail(
                CONTRACT_SETUP,
                f"new_game refused a setup the engine declared in hello ({err.kind}): {err.message}",
                "a state in phase deal",
                err.kind,
                cause=f"new_game answered {err.kind}",
                observed=frozenset({"setup"}) | answered(err),
            )
            self._flush()
            raise Unsupported(f"refused a declared setup: {err.message}") from None
        self.props = self.props_cls(setup, self.ledger)
        self.snap = self.snapshot(state)
        self._check_setup(setup, self.snap)
        self.props.guarded("start", self.props.start, self.snap)
        self._flush()
        return self.snap

    def apply(self, move: Move, *, listed: bool = False) -> bool:
        """Apply a move that must be accepted (a deal, or a listed legal move); False if refused."""
        assert self.snap is not None and self.props is not None
        before = self.snap
        self.events.append(Event("apply", move))
        try:
            state = self.engine.apply(move)
        except EngineError as err:  # any kind: an answer (a finding), never a break
            self._refused.add(len(self.events) - 1)
            self._refusal(move, listed, err)
            self._unchanged(before)
            self._flush()
            return False
        if listed:
            self.ledger.hit(CONTRACT_ACCEPT)
        self._moved(before, move, state)
        return True

    def _refusal(self, move: Move, listed: bool, err: EngineError) -> None:
        if listed:
            what, clause = "a move it listed as legal", CONTRACT_ACCEPT
        else:  # a deal the rules allow: filed under the rule the engine misreads when it names one
            what, clause = "a deal the rules allow", self._deal_refused_under(err)
        self._fail(
            clause,
            f"the engine refused {what} ({err.kind}): {err.message}",
            {"accepted": move},
            err.kind,
            cause=f"refused {move_shape(move, self.snap)} ({err.kind})",
            observed=frozenset({observed.MOVE, observed.listed(move)}) | answered(err),
        )

    def _deal_refused_under(self, err: EngineError) -> str:
        """The clause a refused lawful deal is filed under.

        An engine that cites one of the game's rules for refusing a deal the rules allow reads that
        rule wrongly (a deck short of a card is a misread deck composition, not a misread deal), so
        the cited game clause takes it; otherwise (no clause, a contract clause, an unknown name) the
        game's deal clause does.
        """
        cited = err.clause if isinstance(err, IllegalMove) else None
        if cited and not cited.startswith("CONTRACT-") and cited in clause_table(self.props_cls):
            return cited
        return self.props_cls.deal_clause

    def _moved(self, before: Snapshot, move: Move, state: State) -> None:
        """The engine accepted ``move``: its state is the truth from here on."""
        assert self.props is not None
        after = self.snapshot(state)
        self.snap = after
        self.props.observe(Step(before, move, after))
        self._flush()

    def reject(self, move: Move, clause: str) -> None:
        """Send a move the rules forbid; require illegal_move and an unchanged state."""
        assert self.snap is not None and self.props is not None
        before = self.snap
        self.events.append(Event("reject", move, clause))
        try:
            state = self.engine.apply(move)
        except IllegalMove:
            self.ledger.hit(clause)
            self.ledger.hit(CONTRACT_ERROR)
        except EngineError as err:  # bad_request, internal, unsupported: an answer of the wrong kind
            self.ledger.hit(clause)  # refused, as the rule says; only the kind of the answer is wrong
            self._fail(
                CONTRACT_ERROR,
                f"a well-formed move that breaks {clause} was answered {err.kind} ({err.message}); "
                "the contract says illegal_move",
                "illegal_move",
                err.kind,
                cause=f"{err.kind} to {move_shape(move, before)}",
                observed=frozenset({observed.MOVE}) | answered(err),
            )
        else:
            self._fail(
                clause,
                f"the engine accepted a move that breaks {clause}",
                {"rejected": move},
                {"accepted": move},
                cause=move_shape(move, before),
                observed=_accepted(move, before),
                rule=ACCEPTED,
            )
            self._off_rules = True
            self._moved(before, move, state)  # judged like any transition: invariants still hold or fail
            return
        self._unchanged(before)
        # on the state the engine shows now: a refusal that changed it (CONTRACT-REJECT-1) is judged in this step
        self.props.guarded("after_rejection", self.props.after_rejection, self.snap, move, clause)
        self._flush()

    def _unchanged(self, before: Snapshot) -> None:
        """CONTRACT-REJECT-1 after any error answer to a move; a ``state`` that cannot be read is a break."""
        now = self.read_state()
        ordered = self.props_cls.ordered_zones
        self.ledger.hit(CONTRACT_REJECT)
        if canonical(now, ordered) != canonical(before.raw, ordered):
            self._fail(
                CONTRACT_REJECT,
                "the state changed after a rejected move",
                summary(before.raw),
                summary(now),
                observed=changed(canonical(before.raw, ordered), canonical(now, ordered)),
                rule=CHANGED,
            )
            self._off_rules = True
            self.snap = self.snapshot(now)  # go on from where the engine says it is

    def read_state(self) -> State:
        """``state``; an error answer means the game can no longer be read: the engine cannot be driven."""
        try:
            return self.engine.state()
        except EngineError as err:
            raise AdapterBroken(
                "state_error",
                f"state answered {err.kind} ({err.message}): the game can no longer be read",
                sent={"method": "state", "params": {}},
                received=err.to_error(),
            ) from None

    def moves_in_game(self) -> int:
        """How many moves the current game has seen (applied or rejected)."""
        return len(self.events) - self._game_start - 1

    def replay_current_game(self) -> None:
        """CONTRACT-DET-1: the same setup and moves must give the same state.

        The replay ends with the engine where the first run was, so the
        session can go on; a difference is recorded, and play continues from
        the state the replay produced.
        """
        assert self.snap is not None
        setup = Setup.from_json(self.events[self._game_start].value)
        final = canonical(self.snap.raw, self.props_cls.ordered_zones)
        self.ledger.hit(CONTRACT_DETERMINISM)
        try:
            state: Any = self.engine.new_game(setup.game, setup.players, setup.dealer, setup.options)
        except EngineError as err:
            self._fail(
                CONTRACT_DETERMINISM,
                f"replaying the game, new_game refused the setup it took the first time ({err.kind}): {err.message}",
                {"accepted": setup.to_json()},
                err.kind,
                observed=frozenset({"setup"}) | answered(err),
            )
            self._flush()
            return
        for i in range(self._game_start + 1, len(self.events)):
            e = self.events[i]
            try:
                state = self.engine.replay_apply(e.value)
            except EngineError as err:
                # a probe is meant to be refused, and so is a move refused the first time
                if e.kind == "apply" and i not in self._refused:
                    self._fail(
                        CONTRACT_DETERMINISM,
                        f"replaying the same moves, a move accepted the first time was refused: {err.message}",
                        {"accepted": e.value},
                        err.kind,
                        observed=frozenset({observed.listed(e.value)}) | answered(err),
                    )
        state = self.engine.checked_state(state)
        again = canonical(state, self.props_cls.ordered_zones)
        if again != final:
            self._fail(
                CONTRACT_DETERMINISM,
                "replaying the same setup and moves gave a different state",
                summary(final),
                summary(again),
                observed=changed(final, again),
            )
            self.snap = self.snapshot(state)
        self._flush()

    def after_over(self, move: Move) -> None:
        """CONTRACT-OVER-1: after ``over`` any move is rejected and changes nothing."""
        self.reject(move, CONTRACT_OVER)

    # -- contract checks ------------------------------------------------------------------
    def _check_setup(self, setup: Setup, snap: Snapshot) -> None:
        s = snap.raw
        got = {k: s.get(k) for k in ("game", "players", "dealer", "phase", "round")}
        want = {"game": setup.game, "players": setup.players, "dealer": setup.dealer, "phase": "deal", "round": 0}
        self.ledger.hit(CONTRACT_SETUP)
        if got != want:
            self._fail(
                CONTRACT_SETUP,
                "new_game must return the setup in phase deal, round 0",
                want,
                got,
                observed=frozenset(k for k in want if want[k] != got[k]),
            )
        echoed = {k: s["options"].get(k) for k in setup.options}
        if echoed != setup.options:
            self._fail(
                CONTRACT_SETUP,
                "the state's options must echo the options sent",
                setup.options,
                echoed,
                observed=frozenset({observed.OPTIONS}),
            )

    def _check_contract(self, snap: Snapshot) -> None:
        idle = snap.phase in ("deal", "over")
        self.ledger.hit(CONTRACT_PHASE)
        result = snap.raw.get("result")
        if (result is None) == (snap.phase == "over"):
            self._fail(
                CONTRACT_PHASE,
                "`result` is null until the game is over, and set once it is",
                {"phase": snap.phase, "result": "set" if snap.phase == "over" else None},
                {"phase": snap.phase, "result": result},
                observed=frozenset({observed.RESULT, observed.PHASE}),
            )
        seen = {"to_act": snap.to_act, "moves": len(snap.moves)}
        if idle and (snap.to_act is not None or snap.moves):
            self._fail(
                CONTRACT_PHASE,
                f"in phase {snap.phase!r} nobody acts and legal_moves is []",
                {"to_act": None, "moves": 0},
                seen,
                observed=frozenset({observed.TO_ACT, observed.MOVES}),
            )
        if not idle and (snap.to_act is None or not snap.moves):
            self._fail(
                CONTRACT_PHASE,
                f"in phase {snap.phase!r} a seat must act and have at least one legal move",
                {"to_act": "a seat", "moves": "at least 1"},
                seen,
                observed=_stuck(snap),
            )
        if snap.moves:
            self.ledger.hit(CONTRACT_DISTINCT)
            if not _surely_distinct(snap.moves) and len(snap.move_keys) != len(snap.moves):
                dupes = [m for m, n in Counter(move_key(m) for m in snap.moves).items() if n > 1]
                self._fail(
                    CONTRACT_DISTINCT,
                    "legal_moves lists a move more than once",
                    "each move once",
                    {"listed more than once": [orjson.loads(d) for d in dupes][:3]},
                    observed=_listed_twice([orjson.loads(d) for d in dupes]),
                )
