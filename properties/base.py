"""``GameProperties``: the base of each game's rules stated as properties.

A game's properties are a ``GameProperties`` subclass: an observer that is
shown every transition (state before, move, state after) and records a
``Finding`` naming each clause the transition breaks, then lets the game go
on (record and continue).  Nothing here knows any game's rules.  Driving an
engine is ``ruleproof.run.session``; the finding and trace model is
``ruleproof.model.findings``.
"""

from __future__ import annotations

import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

from attrs import define, field
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from ruleproof.model import clauses as docs
from ruleproof.model.engine import JSONObject, Move
from ruleproof.model.findings import Finding, Setup, message_shape
from ruleproof.model.fixtures import bundled
from ruleproof.model.games import CONTRACT_DOC, spec
from ruleproof.properties.checks import CheckRegistry
from ruleproof.properties.contract import (
    CONTRACT_CLAUSES,
    IntRange,  # the type of options_contract, for the games
)
from ruleproof.properties.snapshot import Snapshot, Step

__all__ = ["GameProperties", "IntRange", "Ledger", "Observed", "clause_table"]

# what a finding observed: atoms (``ruleproof.model.observed``), or a function that gives them on a violation
Observed = Iterable[str] | Callable[[], Iterable[str]]


@define
class Ledger:
    """What the properties saw: hits per clause, findings not yet handed on, checks that crashed.

    A clause is ``pass`` only if it was hit at least once and never violated.
    """

    hits: Counter[str] = field(factory=Counter)
    pending: list[Finding] = field(factory=list)
    check_errors: Counter[str] = field(factory=Counter)
    situations: dict[str, Counter[str]] = field(factory=dict)  # clause -> situation -> times judged

    def hit(self, clause: str, n: int = 1) -> None:
        self.hits[clause] += n

    def situation(self, clause: str, name: str) -> None:
        """``clause`` was judged in the situation ``name`` (one of the readings it names)."""
        self.hits[clause] += 1
        self.situations.setdefault(clause, Counter())[name] += 1

    def record(self, finding: Finding) -> None:
        self.pending.append(finding)

    def crashed(self, check: str, exc: BaseException) -> None:
        """A check raised on a state it could not read: a kit bug, reported, never a verdict."""
        where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
        at = f" at {where.filename.rsplit('/', 1)[-1]}:{where.lineno}" if where else ""
        self.check_errors[f"{check}: {type(exc).__name__}: {exc}{at}"] += 1


class GameProperties:
    """Base of one game's properties: the model a check may keep, and the hooks.

    Subclasses set ``game``, ``checks`` (a ``CheckRegistry`` declaring every
    clause they report on) and implement the hooks that draw setups, deals and
    illegal moves.  One instance observes one game (a fresh one per ``new_game``).
    """

    game: ClassVar[str]
    checks: ClassVar[CheckRegistry]
    # zones whose order is meaningful (a trick, a pile); the others compare as multisets
    ordered_zones: ClassVar[frozenset[str]] = frozenset({"trick"})
    # (option, value) -> clauses that can only be checked with that option value
    option_clauses: ClassVar[dict[tuple[str, Any], tuple[str, ...]]] = {}
    # the contract's values of each option (docs/rules/GAME.md): a list, or an IntRange
    options_contract: ClassVar[dict[str, list[Any] | IntRange]] = {}
    # the step budget of one Hypothesis example is this many times the profile's base
    step_scale: ClassVar[float] = 1.0
    # the clause a refused deal breaks (a deal the properties drew is one the rules allow)
    deal_clause: ClassVar[str]
    # clauses no behaviour can break on their own (a definition others apply, "no guaranteed
    # termination"): reported `covered` when reached, never `pass`
    covered_only: ClassVar[frozenset[str]] = frozenset()
    # clause -> the situations that tell its readings apart (e.g. MOON-SCORE-1: made exactly, made
    # with overtricks, failed); a clause that passes without reaching them all is `partial`
    situations: ClassVar[dict[str, tuple[str, ...]]] = {}
    # clause -> the (option, other option) pairs of a house-rule clause whose values interact: the clause
    # is judged under every declared house value of the option with every declared value of the other
    # (pairwise coverage, not the full product), each pair a situation of it ("pass=rotate, first_lead=
    # two_clubs"; recorded by ``paired``); the pairs of undeclared values are not situations at all
    paired: ClassVar[dict[str, tuple[tuple[str, str], ...]]] = {}
    # options an engine may leave out of its `hello` (house rules): it then plays their default (the
    # documents' rule), is never sent them and need not echo them in its state (CONTRACT-SETUP-3)
    house_options: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, setup: Setup, ledger: Ledger) -> None:
        self.setup = setup
        self.ledger = ledger
        self.check = ""  # the check running now: the first part of a finding's signature

    # -- reporting -----------------------------------------------------------------
    def cover(self, *clauses: str) -> None:
        for clause in clauses:
            self.ledger.hit(clause)

    def fail(  # noqa: PLR0913 - a finding's parts, the last three by name
        self,
        clause: str,
        message: str,
        expected: Any = None,
        got: Any = None,
        *,
        cause: str = "",
        observed: Observed = (),
        rule: str = "",
    ) -> None:
        """Record a violation of ``clause``; the check (and the game) go on.

        ``cause`` names the sub-case when the message alone would not tell two causes apart (the ranks
        involved, say); by default the message's shape does (its text without cards, seats and counts).
        ``observed`` names the parts of the state or listing where the difference shows (atoms of
        ``ruleproof.model.observed``, or a function giving them, called only on a violation): what
        decides whether two violations are one deviation, and whether a later one is a consequence.  A
        check that names none observes its own name.  ``rule`` names the part of the clause broken
        when the clause states several (two rules broken are two deviations).
        """
        signature = f"{self.check}:{rule + ':' if rule else ''}{cause or message_shape(message)}"
        atoms = frozenset(observed() if callable(observed) else observed) or frozenset({f"check:{self.check}"})
        self.ledger.record(Finding(clause, message, expected, got, signature, atoms, rule))

    def expect(  # noqa: PLR0913 - a finding's parts, the last three by name
        self,
        clause: str,
        ok: bool,
        message: str,
        expected: Any = None,
        got: Any = None,
        *,
        cause: str = "",
        observed: Observed = (),
        rule: str = "",
    ) -> None:
        """Cover ``clause``; record a violation when ``ok`` is false."""
        self.ledger.hits[clause] += 1  # the ledger's hit, inlined: this runs dozens of times a step
        if not ok:
            self.fail(clause, message, expected, got, cause=cause, observed=observed, rule=rule)

    def situation(self, clause: str, name: str) -> None:
        """Count ``clause`` as judged in the situation ``name`` (declared in ``situations``)."""
        self.ledger.situation(clause, name)

    def paired_situations(self, clause: str) -> None:
        """Count ``clause`` as judged under this game's values of each pair of options it interacts with
        (``paired``): its situations of pairwise coverage."""
        for own, other in self.paired.get(clause, ()):
            value = self.pair_value(own, self.played(own), other)
            self.ledger.situation(clause, pair_name(own, value, other, self.played(other)))

    def played(self, name: str) -> Any:
        """The value of option ``name`` this game plays: the setup's, else the default."""
        if name in self.setup.options:
            return self.setup.options[name]
        return self.option_default(name, self.setup.players, self.setup.options)

    @classmethod
    def option_default(cls, name: str, players: int, sent: JSONObject | None = None) -> Any:
        """The value option ``name`` plays when it is not sent: ``default_options``' (a game whose house rules
        are left out of it gives theirs here)."""
        return cls.default_options(players, dict(sent or {})).get(name)

    @classmethod
    def pair_value(cls, own: str, value: Any, other: str) -> Any:
        """The value of ``own`` a pair with ``other`` names: ``value`` itself, or where only some of ``own``'s
        values play differently with ``other``, the class ``value`` is in (Idiot's transparent 6 with
        ``six_burn``, any other transparent rank alike)."""
        return value

    @classmethod
    def situations_for(cls, declared: JSONObject) -> dict[str, tuple[str, ...]]:
        """The situations that tell each clause's readings apart for an engine that declares ``declared``
        (its ``hello`` entry for the game): ``situations``, and for each house-rule clause the pairs of
        its option's declared house values with every declared value of the options it interacts with."""
        out = dict(cls.situations)
        values = declared_values(cls, declared)
        players = min(declared.get("players") or [0]) or 0
        for clause, pairs in cls.paired.items():
            names = list(
                dict.fromkeys(
                    pair_name(own, cls.pair_value(own, v, other), other, w)
                    for own, other in pairs
                    for v in values.get(own, [])
                    if v != cls.option_default(own, players)
                    for w in values.get(other, [])
                )
            )
            if names:
                out[clause] = (*out.get(clause, ()), *names)
        return out

    def guarded(self, name: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Run one check so that a crash on a strange state never stops the others (it is reported)."""
        self.check = name
        try:
            return fn(*args)
        except HypothesisException:  # Hypothesis's own control flow (a rejected or overrun draw)
            raise
        except Exception as exc:  # the kit's own bug on a state it did not foresee: never a verdict
            self.ledger.crashed(name, exc)
            return None

    # -- the verdict table -----------------------------------------------------------
    @classmethod
    def all_clauses(cls) -> list[str]:
        """Every clause these properties and the game's fixtures report on, in the rules' order."""
        return list(clause_table(cls))

    # -- hooks ---------------------------------------------------------------------
    @classmethod
    def default_options(cls, players: int, sent: JSONObject) -> JSONObject:
        """The contract's default of every option left out of ``new_game`` (CONTRACT-SETUP-3).

        Some depend on the player count or on another option ``sent``.
        """
        return {}

    @classmethod
    def house_defaults(cls, players: int) -> JSONObject:
        """Each house option's default: the rule a fixture that does not name it scripts (sorted by name)."""
        return {k: cls.option_default(k, players) for k in sorted(cls.house_options)}

    @classmethod
    def setups(cls, declared: JSONObject) -> st.SearchStrategy[Setup]:
        """The setups to draw, from the engine's ``hello`` entry for this game."""
        raise NotImplementedError

    @classmethod
    def long_odds(cls, declared: JSONObject) -> int:
        """One example in this many runs four times the profile's steps, to play whole games to a high
        target: 4, unless the game's properties know the engine declares only long games."""
        return 4

    @classmethod
    def smaller_setups(cls, setup: Setup, declared: JSONObject) -> list[Setup]:
        """Smaller tables than ``setup`` the engine declared (fewer players first), for the minimizer;
        each is tried with the recorded deals passed through ``adapt_deal``.  None by default."""
        return []

    @classmethod
    def adapt_deal(cls, deal: Move, setup: Setup) -> Move | None:
        """A deal recorded at another table, laid out for ``setup`` (the minimizer's smaller
        setups): keep what it can of each remaining seat's cards; None when it cannot."""
        return None

    @classmethod
    def fresh_deal(cls, setup: Setup, seed: int) -> Move | None:
        """A deal for ``setup`` shuffled by ``seed`` (no Hypothesis draw), for the minimizer to search
        for a shorter game that breaks the same clause; None (the default) when the game has none."""
        return None

    def deal(self, snap: Snapshot, data: st.DataObject) -> Move:
        """Draw a complete deal for the current state (phase ``deal``)."""
        raise NotImplementedError

    def choose(self, snap: Snapshot, pick: int, data: st.DataObject) -> Move:
        """Pick a legal move: ``pick`` is a drawn integer far larger than any move list, so
        ``pick % n`` is an index and ``pick // n`` is left for further choices (override to steer
        towards progress; ``data`` is there for the rarer extra draws)."""
        return snap.moves[pick % len(snap.moves)]

    def play_on(self, snap: Snapshot) -> Move:
        """A listed move that moves the game on, for the minimizer's lenient replay: it stands in for a
        recorded move the engine no longer lists, and plays on past a candidate's end.  The engine's
        first listed move by default; a game whose first listed move can go round in circles (Idiot's
        swaps) picks one that makes progress.  Deterministic: no draws."""
        return snap.moves[0]

    def illegal_moves(self, snap: Snapshot) -> Sequence[tuple[Move, str]]:
        """Well-formed moves the rules forbid here, each with the clause it breaks
        (declared with ``@checks.hook``)."""
        return ()

    def start(self, snap: Snapshot) -> None:
        """Checks on the state right after ``new_game`` (their clauses declared with ``@checks.hook``)."""

    def observe(self, step: Step) -> None:
        """Run every registered check on one transition, whatever the others found."""
        for check in self.checks.checks:
            self.guarded(check.name, check.fn, self, step)

    def after_rejection(self, snap: Snapshot, move: Move, clause: str) -> None:
        """Checks after an illegal move was rejected (beyond 'state unchanged'), on the state the engine
        shows after the refusal: the one before it, or what a refusal that changed it left."""

    def listing_clause(self, snap: Snapshot, missing: Sequence[Move], extra: Sequence[Move]) -> str | None:
        """The clause a listing of ``snap`` breaks when it lacks ``missing`` and lists ``extra`` (moves a
        fixture scripts as legal and as forbidden), by the rule logic the checks use on listings, so one
        bug reads as one clause whether a fixture or the exploration found it; None when the properties
        have no reading of it (the fixture's own clause stands)."""
        return None


def rules_judged(props: type[GameProperties], declared: JSONObject) -> tuple[str, ...]:
    """The options an engine declares with other values than the document's rule alone, as reports name
    them ("pass rotate", "moon others_score", "scoring any" when it declares every value)."""
    players = min(declared.get("players") or [0]) or 0
    out = []
    for name, values in declared_values(props, declared).items():
        if values == [props.option_default(name, players)]:
            continue
        contract = props.options_contract.get(name)
        every = (
            isinstance(contract, list)
            and len(values) > 1
            and {_value(v) for v in values} >= {_value(v) for v in contract}
        )
        out.append(f"{name} {'any' if every else '/'.join(_value(v) for v in values)}")
    return tuple(out)


def pair_name(own: str, value: Any, other: str, value2: Any) -> str:
    """A situation of pairwise coverage: ``pass=rotate, first_lead=two_clubs`` (JSON values, so that a
    boolean reads ``true``)."""
    return f"{own}={_value(value)}, {other}={_value(value2)}"


def _value(value: Any) -> str:
    return value if isinstance(value, str) else "null" if value is None else str(value).lower()


def declared_values(props: type[GameProperties], declared: JSONObject) -> dict[str, list[Any]]:
    """Each list-valued option's values an engine declares (the contract's values when it declares the
    option without a list)."""
    options = declared.get("options") or {}
    out: dict[str, list[Any]] = {}
    for name, contract in props.options_contract.items():
        got = options.get(name)
        if isinstance(got, list):
            out[name] = list(got)
        elif isinstance(contract, list) and got is None:
            out[name] = [props.option_default(name, min(declared.get("players") or [0]) or 0)]
    return out


_TABLES: dict[type[GameProperties], tuple[str, ...]] = {}  # the table of each properties class, made once


def clause_table(props: type[GameProperties]) -> tuple[str, ...]:
    """The clauses of one game's verdict table: those its checks and hooks declare, its deal clause
    and its bundled fixtures' clauses, in the order of the game's rules document (then the contract
    document's, for a contract clause a check states), followed by the contract's own clauses."""
    if props not in _TABLES:
        _TABLES[props] = _make_table(props)
    return _TABLES[props]


def _make_table(props: type[GameProperties]) -> tuple[str, ...]:

    stated = {*props.checks.clauses(), props.deal_clause}
    for fx in bundled(props.game):
        stated.update(fx.clauses)
        stated.update(s["clause"] for s in fx.steps if "clause" in s)
    order = {c: i for i, c in enumerate([*docs.document(spec(props.game).rules_doc), *docs.document(CONTRACT_DOC)])}
    own = sorted(stated - set(CONTRACT_CLAUSES), key=lambda c: (order.get(c, len(order)), c))
    return (*own, *CONTRACT_CLAUSES)
