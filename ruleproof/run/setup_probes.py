"""Probes of ``new_game`` itself: option values the contract forbids, and options left out.

The exploration always sends every option, each a value the engine declared,
so two readings of the contract were never tried (issue 10):

- CONTRACT-SETUP-2: an option of the wrong JSON type (``true`` or ``"14"``), an
  unknown option, or a value outside the contract's own set (a Moon target of
  22) is a ``bad_request`` (protocol.md §2 "Errors");
- CONTRACT-SETUP-3: an option left out takes the contract's default
  (docs/rules/GAME.md "Options of the contract"), echoed in the state.

``probe_setups`` runs once per game from the smoke stage (a handful of
``new_game`` calls).  A setup the engine wrongly accepts is started again
through a ``Session``, so the finding is made by ``judge_start`` (called from
each game's ``start`` check) on a trace that replays: the trace is the one
``new_game``.
"""

from __future__ import annotations

from typing import Any

from attrs import frozen

from ruleproof import GAMES
from ruleproof.model.engine import BadRequest, EngineError, Unsupported
from ruleproof.model.findings import Event, Finding, Setup
from ruleproof.properties import contract, properties_for
from ruleproof.properties.base import GameProperties, Ledger
from ruleproof.properties.contract import CONTRACT_DEFAULTS, CONTRACT_OPTIONS, IntRange, OptionsContract
from ruleproof.run.session import Session, Sink
from ruleproof.transport.checked import CheckedEngine

UNKNOWN = "no_such_option"


def contract_values(game: str) -> OptionsContract:
    """The contract's values of each option of ``game`` (stated by its properties)."""
    return properties_for(game).options_contract if game in GAMES else {}


def defaults(game: str, players: int, sent: dict[str, Any]) -> dict[str, Any]:
    """The contract's default of every option (some depend on the player count or another option)."""
    return properties_for(game).default_options(players, sent) if game in GAMES else {}


def forbidden(game: str, name: str, value: Any) -> str | None:
    """Why the contract forbids ``name: value`` for ``game`` (None when it allows it)."""
    return contract.forbidden(contract_values(game), game, name, value)


def _wrong_values(game: str, name: str) -> list[Any]:
    """Values of ``name`` the contract forbids: the wrong JSON type, then outside its set."""
    spec = contract_values(game)[name]
    if isinstance(spec, IntRange):
        return [str(spec.lo), True, (spec.hi + 1) if spec.hi is not None else spec.lo - 1]
    first = spec[0]
    wrong_type: Any = True if isinstance(first, str) else str(first).lower()
    outside = (max(spec) + 1) if contract.is_int(first) else f"{first}-x" if isinstance(first, str) else None
    return [v for v in (wrong_type, outside) if v is not None]


def _valid(declared: dict[str, Any]) -> dict[str, Any]:
    """One declared value of every declared option (the first; never the non-value "custom")."""
    out = {}
    for name, spec in declared.get("options", {}).items():
        values = [v for v in spec if v != "custom"] if isinstance(spec, list) else [spec["min"]]
        if values:
            out[name] = values[0]
    return out


def probes(game: str, declared: dict[str, Any]) -> list[tuple[Setup, str]]:
    """The ``new_game`` probes for one game: (setup, what it probes)."""
    players = declared["players"][0]
    valid = _valid(declared)
    out = [(Setup(game, players, 0, {**valid, UNKNOWN: 1}), f"unknown option {UNKNOWN}")]
    for name in valid:
        if name in contract_values(game):
            out += [(Setup(game, players, 0, {**valid, name: v}), f"{name}: {v!r}") for v in _wrong_values(game, name)]
    return out


@frozen
class _Probing:
    """What a probe needs to record a finding: the engine, the game's properties, the ledger and the sink."""

    engine: CheckedEngine
    props_cls: type[GameProperties]
    ledger: Ledger
    sink: Sink

    def session(self, setup: Setup | None = None) -> Session:
        """A session to record a finding on; with ``setup``, its trace is that one ``new_game``."""
        session = Session(self.engine, self.props_cls, self.ledger, self.sink)
        if setup is not None:
            session.events.append(Event("new_game", setup.to_json()))
        return session


def probe_setups(
    engine: CheckedEngine,
    game: str,
    declared: dict[str, Any],
    props_cls: type[GameProperties],
    ledger: Ledger,
    sink: Sink,
) -> None:
    """CONTRACT-SETUP-2 and -3 on a few ``new_game`` calls (the smoke stage runs this once per game)."""
    probing = _Probing(engine, props_cls, ledger, sink)
    for setup, what in probes(game, declared):
        try:
            engine.new_game(setup.game, setup.players, setup.dealer, setup.options)
        except BadRequest:
            ledger.hit(CONTRACT_OPTIONS)
            continue
        except EngineError as err:  # illegal_move, unsupported or internal: an answer of the wrong kind
            finding = Finding(
                CONTRACT_OPTIONS, f"new_game with {what} must be a bad_request, not {err.kind}", "bad_request", err.kind
            )
            sink(finding, probing.session(setup))
            continue
        _start(probing, setup, CONTRACT_OPTIONS, f"new_game accepted {what}: bad_request expected")
    _probe_defaults(probing, game, declared)


def _probe_defaults(probing: _Probing, game: str, declared: dict[str, Any]) -> None:
    """Every option left out: the defaults apply (only when each default is a value the engine declares)."""
    players = declared["players"][0]
    options = declared.get("options", {})
    house = properties_for(game).house_options if game in GAMES else frozenset()
    # a house option the engine does not declare is never sent: it plays its default without one
    want = {k: v for k, v in defaults(game, players, {}).items() if k in options or k not in house}
    if not all(_declares(options.get(k), v) for k, v in want.items()):
        return
    bare = Setup(game, players, 0, {})
    try:
        probing.engine.new_game(game, players, 0, {})
    except Unsupported:
        return
    except EngineError as err:
        finding = Finding(
            CONTRACT_DEFAULTS,
            f"new_game with every option left out must apply the defaults, not answer {err.kind}",
            {"options": want},
            err.kind,
        )
        probing.sink(finding, probing.session(bare))
        return
    _start(probing, bare, CONTRACT_DEFAULTS, "the properties could not read the state of a setup with defaults")


def _start(probing: _Probing, setup: Setup, clause: str, message: str) -> None:
    """Start an accepted probe setup through a Session: ``judge_start`` records what is wrong, on a
    trace that replays.  Properties that cannot even read such a setup record the finding here."""
    session = probing.session()
    try:
        session.start(setup)
    except Unsupported:
        pass
    except Exception:  # a forbidden value the properties' model cannot hold (a string target, say)
        probing.sink(Finding(clause, message, "bad_request", {"accepted": setup.options}), session)


def _declares(spec: Any, value: Any) -> bool:
    if isinstance(spec, list):
        return any(value == v and type(value) is type(v) for v in spec)
    if isinstance(spec, dict):
        return bool(spec["min"] <= value <= spec["max"])
    return False
