"""``ruleproof diff``: where two engines, or two rule settings, behave differently.

Both sides are driven in lockstep (``ruleproof.run.lockstep``): the same setup,
the same deals and the same choices (a move is drawn from side A's legal
list; side B must list and accept it), and the same illegal-move probes,
first through the bundled fixtures' scripts, then in a Hypothesis search.
After every step the contract's fields, the legal move sets and acceptance
are compared.  The first difference in a game is a divergence; each distinct divergent field is
reported once, with its game minimized by ``ruleproof.run.minimize`` and the
clauses whose properties fail on either side's trace, so the user sees which
side breaks the rules, or that neither does.

A difference in a reading the contract leaves open (``ruleproof.run.lockstep.left_open``: the
dealer between rounds, ``leader`` on an empty trick, ...) is no divergence: the comparison goes
on past it, and it is listed apart (``DiffResult.open``), red only under ``--strict`` — unless a
side breaks a clause on its trace, which makes it a divergence like any other.

Budgets count examples, steps and replays (the profile's), never seconds.
"""

from __future__ import annotations

import argparse
import json
import shlex
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from attrs import define, evolve, field, frozen
from hypothesis import HealthCheck, Phase, Verbosity, given, reject, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from ruleproof.model.engine import AdapterBroken, JSONObject, Move, State, Unsupported, load_factory
from ruleproof.model.errors import UsageError
from ruleproof.model.findings import Event, Finding, Setup, Trace
from ruleproof.properties import properties_for
from ruleproof.properties.base import GameProperties
from ruleproof.properties.snapshot import Snapshot, move_key
from ruleproof.run.explore import draw_step  # one draw per step, read as the exploration reads it
from ruleproof.run.lockstep import (
    TAIL_STEPS,
    Difference,
    FixtureScript,
    Lockstep,
    OpenDifference,
    Side,
    WitnessedEngine,
    b_alone,
    evolve_options,
    new_game_differences,
    replay_lockstep,
)
from ruleproof.run.minimize import Minimized, minimize

P = TypeVar("P", bound=argparse.ArgumentParser)  # the CLI's parser class


@frozen
class DiffProfile:
    """How hard to look: examples, steps per example, replays to minimize one divergence."""

    name: str
    max_examples: int
    steps: int
    derandomize: bool
    minimize_replays: int


DIFF_PROFILES = {
    "dev": DiffProfile("dev", max_examples=8, steps=150, derandomize=False, minimize_replays=40),
    "ci": DiffProfile("ci", max_examples=30, steps=300, derandomize=True, minimize_replays=100),
    "thorough": DiffProfile("thorough", max_examples=400, steps=1000, derandomize=False, minimize_replays=400),
}


class DiffUsage(UsageError):
    """A wrong call (exit status 2): the message names the argument."""


# -- exploring ----------------------------------------------------------------------------------


@frozen
class Found:
    """A divergence as first met: the difference, its game's trace up to it, and the tail after it."""

    difference: Difference
    also: tuple[Difference, ...]  # other fields that differed at the same step
    trace: Trace  # ends at the divergent step
    tail: tuple[Event, ...]  # events after it (the game went on, for naming clauses)
    reading: str = ""  # for a difference in what the contract leaves open: which reading (lockstep.left_open)
    b_tail: tuple[Event, ...] = ()  # then side B alone (``lockstep.b_alone``), to name B's clauses


class Enough(Exception):
    """Raised through Hypothesis once ``stop_after`` distinct divergences are found."""


@define
class Exploration:
    """What every Hypothesis example of one diff shares."""

    a: Side
    b: Side
    declared: JSONObject
    profile: DiffProfile
    ignore: tuple[str, ...]
    found: dict[str, Found] = field(factory=dict)  # by Difference.key, first met first
    open_found: dict[str, Found] = field(factory=dict)  # differences in what the contract leaves open, the same way
    stop_after: int | None = None  # distinct divergences after which the rest of the examples are no-ops
    skipped: list[str] = field(factory=list)
    stats: dict[str, int] = field(
        factory=lambda: {"setup_probes": 0, "fixtures": 0, "examples": 0, "games": 0, "steps": 0, "probes": 0}
    )

    def enough(self) -> bool:
        return self.stop_after is not None and len(self.found) >= self.stop_after

    def collect_open(self, lock: Lockstep) -> None:
        """Keep each step that shows a field the contract leaves open not seen before, with its game up to it."""
        seen = {d.key for f in self.open_found.values() for d in (f.difference, *f.also)}
        for o in lock.open:
            if o.keys - seen:
                seen |= o.keys
                self.open_found[o.difference.key] = open_found(lock, o)

    def run_setup_probes(self) -> None:
        """``new_game`` with an option left out or a value the contract forbids: both must answer alike.

        The probes are certification's (``ruleproof.run.setup_probes``): one
        unknown option, wrong types and out-of-contract values per option, and
        every option left out (the defaults).  Each divergence is one event long.
        """
        from ruleproof.run.setup_probes import probes

        game = self.a.props_cls.game
        bare = Setup(game, self.declared["players"][0], 0, {})
        everything = probes(game, self.declared)
        usual = everything[0][0].options  # the first probe is the usual values plus one unknown option
        for setup in [s for s, _ in everything] + [bare]:
            if self.enough():
                return
            if any(setup.options.get(k, usual.get(k)) != usual.get(k) for k in self.b.options):
                continue  # B sets that option itself (--vs-options): the probe would compare two different calls
            self.stats["setup_probes"] += 1
            found = new_game_differences(self.a, self.b, setup, self.ignore)
            if found and found[0].key not in self.found:
                self.found[found[0].key] = Found(
                    found[0], tuple(found[1:]), Trace(game, (Event("new_game", setup.to_json()),)), ()
                )

    def run_fixtures(self, declared_b: JSONObject, pinned: JSONObject) -> None:
        """The bundled fixtures' scripts in lockstep: the situations random play rarely reaches."""
        from ruleproof.model.fixtures import unsupported_reason
        from ruleproof.run.fixtures import fixtures_for

        for fx in fixtures_for(self.a.props_cls.game, self.declared):
            if self.enough():
                return
            named = fx.setup.get("options") or {}
            if any(k in named and named[k] != v for k, v in pinned.items()):
                continue  # the fixture is about another setting than the one asked for
            if unsupported_reason(fx, self.declared) or unsupported_reason(
                evolve_options(fx, self.b.options), declared_b
            ):
                continue
            self.stats["fixtures"] += 1
            setup = Setup(fx.game, fx.setup["players"], fx.setup["dealer"], {**named, **pinned})
            lock = Lockstep(self.a, self.b, self.ignore)
            try:
                lock.start(setup)
            except Unsupported as err:
                self.skipped.append(f"fixture {fx.id}: {err.message}")
                continue
            self.stats["games"] += 1
            script = FixtureScript(lock, self.a.props_cls.ordered_zones)
            for step in fx.steps:
                if not script.step(step) or (lock.diverged and len(lock.events) - 1 - (lock.at or 0) >= TAIL_STEPS):
                    break
            self.collect_open(lock)
            if lock.diverged and lock.at is not None:
                first = lock.differences[0]
                if first.key not in self.found:
                    script.play_on()
                    tail = lock.tail(lock.at + 1)
                    b_tail = script.play_on_b()
                    trace = lock.game_trace(lock.at)
                    self.found[first.key] = Found(first, tuple(lock.differences[1:]), trace, tail, b_tail=b_tail)

    def run(self, seed: int | None) -> None:
        if self.enough():
            return
        setups = self.a.props_cls.setups(self.declared)
        steps = max(10, int(self.profile.steps * self.a.props_cls.step_scale))

        @settings(
            max_examples=self.profile.max_examples,
            derandomize=self.profile.derandomize and seed is None,
            deadline=None,
            database=None,
            phases=(Phase.explicit, Phase.generate),  # no shrinking: divergences are minimized on the trace
            verbosity=Verbosity.quiet,
            report_multiple_bugs=False,
            suppress_health_check=list(HealthCheck),
        )
        @given(data=st.data())
        def example(data: st.DataObject) -> None:
            self.stats["examples"] += 1
            self.example(data, setups, steps)
            if self.stop_after is not None and len(self.found) >= self.stop_after:
                raise Enough  # ends the search; Hypothesis replays this example once, drawing the same data

        if seed is not None:
            example = hypothesis_seed(seed)(example)
        try:
            example()
        except Enough:
            pass
        except Unsatisfiable:
            self.skipped.append("every setup drawn was refused as unsupported")

    def example(self, data: st.DataObject, setups: st.SearchStrategy[Setup], steps: int) -> None:
        lock = Lockstep(self.a, self.b, self.ignore)
        try:
            self.start(lock, data.draw(setups, label="setup"))
            for _ in range(steps):
                self.stats["steps"] += 1
                if lock.diverged or not self.step(lock, data, setups):
                    break
            if lock.diverged:
                self.record(lock, data)
        finally:  # also when the next game's setup is refused (reject() ends the example)
            self.collect_open(lock)

    def start(self, lock: Lockstep, setup: Setup) -> None:
        try:
            lock.start(setup)
        except Unsupported as err:
            note = f"setup {setup.to_json()}: {err.message}"
            if note not in self.skipped:
                self.skipped.append(note)
            reject()
        self.stats["games"] += 1
        self.probe_deals(lock)

    def probe_deals(self, lock: Lockstep) -> None:
        """Every deal the rules forbid, before a game's first deal: how each side checks the kit's deal is
        behaviour too, and a random probe meets the one deal phase of a one-deal game (Idiot) too rarely.
        Nothing is drawn here, so the choices that follow are those of an example without it."""
        props = self.a.session.props if self.a.session else None
        if props is None or self.a.snap.phase != "deal":
            return
        for move, clause in props.guarded("illegal_moves", props.illegal_moves, self.a.snap):
            if lock.diverged:
                return
            self.stats["probes"] += 1
            lock.probe(move, clause)

    def step(self, lock: Lockstep, data: st.DataObject, setups: st.SearchStrategy[Setup]) -> bool:
        """One lockstep step; False when this game cannot go on."""
        snap, props = self.a.snap, self.a.session.props if self.a.session else None
        assert props is not None
        if snap.phase == "over":
            last = next((e.value for e in reversed(lock.events) if e.kind == "apply"), None)
            if last is not None:
                lock.probe(last, "CONTRACT-OVER-1")
            if not lock.diverged:
                self.start(lock, data.draw(setups, label="next setup"))
            return True
        probe, pick = draw_step(data)
        if probe:
            bad = props.guarded("illegal_moves", props.illegal_moves, snap)
            if bad:
                move, clause = bad[pick % len(bad)]
                self.stats["probes"] += 1
                lock.probe(move, clause)
                return True
        move = next_move(props, snap, pick, data)
        return move is not None and (lock.apply(move) or lock.diverged)

    def record(self, lock: Lockstep, data: st.DataObject) -> None:
        """Keep the first divergence of each field, and play on a little for the clauses."""
        assert lock.at is not None
        first = lock.differences[0]
        trace = lock.game_trace(lock.at)
        tail = self.tail(lock, data)  # also for a field already found: what is drawn never depends on earlier examples
        b_tail = self.b_tail(lock, data)
        if first.key not in self.found:
            self.found[first.key] = Found(first, tuple(lock.differences[1:]), trace, tail, b_tail=b_tail)

    def b_tail(self, lock: Lockstep, data: st.DataObject) -> tuple[Event, ...]:
        """Then side B alone with its properties' choices among its own moves (``lockstep.b_alone``)."""
        props = self.b.session.props if self.b.session else None
        assert props is not None
        return b_alone(lock, lambda snap: next_move(props, snap, draw_step(data)[1], data))

    def tail(self, lock: Lockstep, data: st.DataObject) -> tuple[Event, ...]:
        """Play on with A's choices while B lists and accepts them (no more comparing); a move either side
        refused is left out (``Lockstep.tail``: B's game may be over where A's deals the next round)."""
        start = len(lock.events)
        props = self.a.session.props if self.a.session else None
        assert props is not None
        for _ in range(TAIL_STEPS):
            snap = self.a.snap
            move = next_move(props, snap, draw_step(data)[1], data)
            if (
                move is None
                or (snap.phase != "deal" and move_key(move) not in self.b.snap.move_keys)
                or not lock.apply(move)
            ):
                break
        return lock.tail(start)


def open_found(lock: Lockstep, o: OpenDifference) -> Found:
    """An open difference as a ``Found``: its game up to the step it showed at, nothing after."""
    return Found(o.difference, o.also, lock.game_trace(o.at, start=o.start), (), o.reading)


def next_move(props: GameProperties, snap: Snapshot, pick: int, data: st.DataObject) -> Move | None:
    """The properties' deal in phase deal, else their choice among A's legal moves; None when there is none."""
    move: Move | None  # None also when the properties crashed on this state (``guarded`` reports it)
    if snap.phase == "deal":
        move = props.guarded("deal", props.deal, snap, data)
    elif snap.phase == "over" or not snap.moves:
        move = None
    else:
        move = props.guarded("choose", props.choose, snap, pick, data)
    return move


# -- reporting ----------------------------------------------------------------------------------


@frozen
class Divergence:
    """A reported divergence: minimized, with the clauses each side's trace breaks."""

    difference: Difference
    also: tuple[Difference, ...]
    trace: Trace  # side A's trace; its last event is the divergent step
    trace_b: Trace  # the same with side B's setup (differs only under --vs-options)
    original: int  # the trace's length before minimizing
    replays: int
    clauses_a: tuple[str, ...]
    clauses_b: tuple[str, ...]
    reading: str = ""  # a difference in what the contract leaves open: which reading ("": a behaviour divergence)
    # each side's state after each event of ``trace`` (None where it was not recorded): the boards around the step
    states_a: tuple[State | None, ...] = ()
    states_b: tuple[State | None, ...] = ()

    @property
    def step(self) -> int:
        """The divergent step: its 1-based position in ``trace``."""
        return len(self.trace.events)

    @property
    def seat(self) -> int | None:
        """The seat that moved in the divergent step (side A's seat to act before it), when a seat moved."""
        event = self.trace.events[-1]
        before = self.states_a[-2] if len(self.states_a) >= 2 else None
        if event.kind == "new_game" or event.value.get("type") == "deal" or not isinstance(before, dict):
            return None
        seat = before.get("to_act")
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else None

    def to_json(self) -> JSONObject:
        out = {
            "step": self.step,
            "field": self.difference.field,
            "a": self.difference.a,
            "b": self.difference.b,
            "clauses": {"a": list(self.clauses_a), "b": list(self.clauses_b)},
            "trace": self.trace.to_json(),
            "also": [{"field": d.field, "a": d.a, "b": d.b} for d in self.also],
            "original_steps": self.original,
            "replays": self.replays,
            "seat": self.seat,
        }
        if self.reading:
            out["reading"] = self.reading
        if self.trace_b != self.trace:
            out["trace_b"] = self.trace_b.to_json()
        return out


def smaller_setups(declared: JSONObject) -> Callable[[Setup], list[Setup]]:
    """The minimizer's smaller setups: each integer-range option (a target) at its minimum, or halved.

    A smaller target ends the game in fewer rounds; option values from a
    list and player counts are kept (the recorded deals are for this table).
    """
    ranges = {k: v for k, v in (declared.get("options") or {}).items() if isinstance(v, dict)}

    def smaller(setup: Setup) -> list[Setup]:
        out = []
        for name, spec in ranges.items():
            value = setup.options.get(name)
            if not isinstance(value, int) or value <= spec["min"]:
                continue
            for less in dict.fromkeys([spec["min"], max(spec["min"], value // 2)]):
                out.append(Setup(setup.game, setup.players, setup.dealer, {**setup.options, name: less}))
        return out

    return smaller


def finish(
    found: Found,
    a: Side,
    b: Side,
    ignore: tuple[str, ...],
    budget: int,
    setups: Callable[[Setup], list[Setup]] | None = None,
) -> Divergence:
    """Minimize one divergence (or open difference), then name the clauses each side's trace breaks."""
    key, open_key = found.difference.key, found.difference.key if found.reading else None

    def reproduces(candidate: Trace) -> int | None:
        try:
            lock = replay_lockstep(candidate, a, b, ignore, open_key)
        except AdapterBroken:  # a candidate this engine cannot take; the original still stands
            return None
        at = shown_at(lock, key, open_key)
        return None if at is None else at + 1

    if len(found.trace.events) == 1:  # a new_game probe: nothing to minimize, and no session could replay it
        small = Minimized(found.trace, 1, 0)
        final = None
    else:
        small = minimize(found.trace, reproduces, budget=budget, setups=setups)
        final = replay_lockstep(small.trace, a, b, ignore, open_key)
    difference, also = found.difference, found.also
    if final is not None and final.differences and final.differences[0].key == key:
        difference, also = final.differences[0], tuple(final.differences[1:])
    elif final is not None and open_key is not None:
        shown = next((o for o in final.open if key in o.keys), None)
        if shown is not None:  # the field it was found by first, the step's others after it
            together = (shown.difference, *shown.also)
            difference = next(d for d in together if d.key == key)
            also = tuple(d for d in together if d is not difference)
    long_trace = Trace(found.trace.game, found.trace.events + found.tail)
    b_trace = Trace(found.trace.game, long_trace.events + found.b_tail)  # B alone after the two parted
    # a side that refused the new_game has no game to judge (its replay would only say it refused)
    refused = {"A": difference.a, "B": difference.b} if difference.field == "new_game" else {}
    clauses_a = side_clauses(a, (small.trace, long_trace)) if refused.get("A", "accepted") == "accepted" else ()
    clauses_b = side_clauses(b, (small.trace, b_trace)) if refused.get("B", "accepted") == "accepted" else ()
    named = next(iter(clauses_b + clauses_a), None)
    finding = Finding(named, f"diverged on {difference.field}") if named else None
    trace = Trace(small.trace.game, small.trace.events, finding)
    states = final.states[: len(trace.events)] if final is not None else []
    return Divergence(
        difference,
        also,
        trace,
        for_side(trace, b),
        len(found.trace.events),
        small.replays,
        clauses_a,
        clauses_b,
        found.reading,
        tuple(s[0] for s in states),
        tuple(s[1] for s in states),
    )


def shown_at(lock: Lockstep | None, key: str, open_key: str | None) -> int | None:
    """Where a replay showed the difference of ``key`` (index in its events): as its first divergence,
    or, for an open difference (``open_key``), among the open ones before any divergence."""
    if lock is None:
        return None
    if open_key is None:
        return lock.at if lock.at is not None and lock.differences[0].key == key else None
    return next((o.at for o in lock.open if open_key in o.keys), None)


def for_side(trace: Trace, side: Side) -> Trace:
    """The trace with ``side``'s option overrides in every new_game: what replays against that side."""
    if not side.options:
        return trace
    events = tuple(
        Event("new_game", side.setup(Setup.from_json(e.value)).to_json()) if e.kind == "new_game" else e
        for e in trace.events
    )
    return Trace(trace.game, events, trace.finding)


def side_clauses(side: Side, traces: Sequence[Trace]) -> tuple[str, ...]:
    """Every clause whose properties fail when ``side`` replays any of ``traces``."""
    from ruleproof.run.replay import replay  # the lead's replay (ReplayOutcome)

    seen: dict[str, None] = {}
    for trace in traces:
        outcome = replay(for_side(trace, side), side.engine, side.props_cls)
        for finding in outcome.findings:
            seen.setdefault(finding.clause, None)
    return tuple(seen)


# -- the call -------------------------------------------------------------------------------------


def parse_options(pairs: Sequence[str], flag: str) -> JSONObject:
    """``K=V`` pairs; V is read as JSON when it parses (21, true), else as a string."""
    out: JSONObject = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise DiffUsage(f"{flag} {pair}: expected NAME=VALUE")
        try:
            out[name] = json.loads(raw)
        except ValueError:
            out[name] = raw
    return out


def check_options(options: JSONObject, declared: JSONObject, flag: str, side: str) -> None:
    """Each value must be one the side declares in ``hello`` (a listed value or within the range)."""
    allowed = declared.get("options", {})
    for name, value in options.items():
        if name not in allowed:
            raise DiffUsage(
                f"{flag} {name}: side {side} declares no option {name!r} (it declares {', '.join(allowed) or 'none'})"
            )
        spec = allowed[name]
        ok = (
            (spec["min"] <= value <= spec["max"])
            if isinstance(spec, dict) and isinstance(value, int)
            else (isinstance(spec, list) and value in spec)
        )
        if not ok:
            raise DiffUsage(
                f"{flag} {name}={json.dumps(value)}: side {side} does not declare this value ({json.dumps(spec)})"
            )


def narrowed(a: JSONObject, b: JSONObject, options: JSONObject, vs_options: JSONObject) -> JSONObject:
    """What to draw setups from: what both sides declare, option values pinned by --options.

    An option set only for B is drawn, for A, among the other values A
    declares (when there are any): the comparison is then always between
    two settings.  An option B overrides is drawn from A's values alone.
    """
    players = [p for p in a.get("players", []) if p in b.get("players", [])]
    opts = {
        name: common(spec, (b.get("options") or {}).get(name)) if name not in vs_options else spec
        for name, spec in (a.get("options") or {}).items()
    }
    for name, value in vs_options.items():
        if name not in options and isinstance(opts.get(name), list):
            others = [v for v in opts[name] if v != value]
            opts[name] = others or opts[name]
    for name, value in options.items():
        opts[name] = {"min": value, "max": value} if isinstance(opts.get(name), dict) else [value]
    return {**a, "players": players, "options": opts}


def common(a: Any, b: Any) -> Any:
    """The values of one option both sides declare (A's when B does not declare it: B then uses its default)."""
    if isinstance(a, dict) and isinstance(b, dict):
        lo, hi = max(a["min"], b["min"]), min(a["max"], b["max"])
        return {"min": lo, "max": hi} if lo <= hi else a
    if isinstance(a, list) and isinstance(b, list):
        return [v for v in a if v in b] or a
    return a


def make_side(name: str, spec: str | None, cmd: str | None, timeout: float, flag: str) -> WitnessedEngine:
    if cmd is not None:
        from ruleproof.transport.subprocess import SubprocessEngine

        argv = shlex.split(cmd)
        if not argv:
            raise DiffUsage(f"{flag} is empty")
        try:
            return WitnessedEngine(SubprocessEngine(argv, timeout=timeout))
        except AdapterBroken as broken:  # the command cannot be started
            broken.message = f"side {name} ({flag}): {broken.message}"
            raise
    if spec is not None:
        try:
            factory = load_factory(spec, from_cwd=True)  # MODULE is looked up from the current directory
        except (ValueError, ImportError, AttributeError) as err:
            raise DiffUsage(f"{flag} {spec}: {err}") from None
        return WitnessedEngine(factory())
    from ruleproof.reference import ReferenceEngine

    return WitnessedEngine(ReferenceEngine())


@frozen
class DiffResult:
    game: str
    a: JSONObject  # engine name/version (hello) and the options it runs with
    b: JSONObject
    profile: str
    seed: int | None
    divergences: tuple[Divergence, ...]  # behaviour differences: moves listed, acceptance, pinned-down fields
    broken: str | None = None
    skipped: tuple[str, ...] = ()
    stats: JSONObject = field(factory=dict)
    open: tuple[Divergence, ...] = ()  # differences only in readings the contract leaves open
    strict: bool = False  # --strict: an open difference makes the run red too

    @property
    def verdict(self) -> str:
        """broken, diverged (a behaviour difference), open (differences only in what the contract leaves
        open), or same."""
        if self.broken:
            return "broken"
        return "diverged" if self.divergences else "open" if self.open else "same"

    @property
    def exit_status(self) -> int:
        return {"same": 0, "open": 1 if self.strict else 0, "diverged": 1, "broken": 2}[self.verdict]

    def to_json(self) -> JSONObject:
        return {
            "verdict": self.verdict,
            "a": self.a,
            "b": self.b,
            "game": self.game,
            "profile": self.profile,
            "seed": self.seed,
            "strict": self.strict,
            "divergences": [d.to_json() for d in self.divergences],
            "open": [d.to_json() for d in self.open],
            "broken": self.broken,
            "skipped": list(self.skipped),
            "stats": self.stats,
        }


def diff(  # noqa: PLR0913 - keyword options of the public API, passed by name by the command and tests
    a: WitnessedEngine,
    b: WitnessedEngine,
    game: str,
    profile: DiffProfile,
    *,
    seed: int | None = None,
    options: JSONObject | None = None,
    vs_options: JSONObject | None = None,
    ignore: Sequence[str] = (),
    stop_after: int | None = None,
    strict: bool = False,
) -> DiffResult:
    """Compare two engines on ``game``; raises DiffUsage for a wrong call (undeclared game or option value).

    ``stop_after`` ends the search after that many distinct divergences (the
    kit's own tests use 1; the command looks for all).
    """
    options, vs_options = dict(options or {}), dict(vs_options or {})
    hellos = {name: greet(name, engine, game) for name, engine in (("A", a), ("B", b))}
    dec_a, dec_b = hellos["A"]["games"][game], hellos["B"]["games"][game]
    check_options(options, dec_a, "--options", "A")
    check_options({**options, **vs_options}, dec_b, "--vs-options" if vs_options else "--options", "B")
    declared = narrowed(dec_a, dec_b, options, vs_options)
    # a house rule one side does not declare is sent to neither: both play its default (the documents' rule)
    house = properties_for(game).house_options
    one_sided = {k for k in house if k not in (dec_a.get("options") or {}) or k not in (dec_b.get("options") or {})}
    declared = {**declared, "options": {k: v for k, v in declared["options"].items() if k not in one_sided}}
    if not declared["players"]:
        raise DiffUsage(
            f"--game {game}: the sides declare no player count in common ({dec_a['players']} and {dec_b['players']})"
        )
    props_cls = properties_for(game)
    side_a = Side("A", a, props_cls)
    side_b = Side("B", b, props_cls, {k: v for k, v in vs_options.items()})
    ignore_t = tuple(ignore)
    run = Exploration(side_a, side_b, declared, profile, ignore_t, stop_after=stop_after)
    result = DiffResult(
        game,
        {**hellos["A"]["engine"], "options": options},
        {**hellos["B"]["engine"], "options": {**options, **vs_options}},
        profile.name,
        seed,
        (),
        strict=strict,
    )
    try:
        run.run_setup_probes()
        run.run_fixtures(dec_b, options)
        run.run(seed)
        smaller = smaller_setups(declared)
        found = [finish(f, side_a, side_b, ignore_t, profile.minimize_replays, smaller) for f in run.found.values()]
        budget = max(5, profile.minimize_replays // 5)  # a short trace to read: found early, nothing to explain
        seen = [finish(f, side_a, side_b, ignore_t, budget, smaller) for f in run.open_found.values()]
    except AdapterBroken as broken:
        return evolve(result, broken=f"{broken.kind}: {broken.message}", skipped=tuple(run.skipped), stats=run.stats)
    # an open difference on whose trace a side breaks a clause is not only a reading: a divergence
    found += [evolve(d, reading="") for d in seen if d.clauses_a or d.clauses_b]
    # nothing compared is no evidence of sameness: a call that plays no game is wrong, not "same"
    none = None if run.stats["games"] or found else "no setup was accepted by both sides: " + "; ".join(run.skipped[:3])
    return evolve(
        result,
        divergences=tuple(found),
        broken=none,
        skipped=tuple(run.skipped),
        stats=dict(run.stats),
        open=tuple(d for d in seen if not (d.clauses_a or d.clauses_b)),
    )


def greet(name: str, engine: WitnessedEngine, game: str) -> JSONObject:
    """A side's ``hello``, which must declare ``game``."""
    try:
        hello = engine.hello()
    except AdapterBroken as broken:
        broken.message = f"side {name}: {broken.message}"
        raise
    if game not in hello["games"]:
        declares = ", ".join(hello["games"]) or "nothing"
        raise DiffUsage(
            f"--game {game}: side {name} ({hello['engine']['name']}) does not declare it (it declares {declares})"
        )
    return hello


__all__ = [
    "DIFF_PROFILES",
    "DiffProfile",
    "DiffResult",
    "DiffUsage",
    "Divergence",
    "WitnessedEngine",
    "diff",
]
