"""Certificates with real engine states, for the terminal and HTML report tests.

Each sample game is played by the reference engine from a bundled fixture's
deal, a move chosen by a seeded ``random.Random`` at each step, with one move
the engine must refuse on the way; the last step is then reported as a
violation (the renderers only draw what a certificate says, so the finding
itself is made up).  States are the engine's, as ``Failure.states`` holds them.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from ruleproof.model.engine import EngineError
from ruleproof.model.findings import Event, Finding, Trace
from ruleproof.model.report import Failure
from ruleproof.reference import ReferenceEngine

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
# A move of each game the reference refuses at any moment (a card or tile nobody holds).
REFUSED = {
    "black-maria": {"type": "play", "card": "2C"},  # never in play with 3 players; a wrong-phase play with 4
    "idiot": {"type": "swap", "hand": "ZZ", "face_up": "ZZ"},
    "fool": {"type": "play", "card": "G99"},
    "moon": {"type": "play", "tile": "9-9"},
}


def fixture_deal(game: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The setup and deal move of the first bundled fixture of ``game`` that has one."""
    for path in sorted((FIXTURES / game).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for step in data["steps"]:
            if step.get("apply", {}).get("type") == "deal":
                return data["setup"], step["apply"]
    raise LookupError(f"no bundled {game} fixture deals")


def played_failure(game: str, moves: int, seed: int = 1) -> Failure:
    """A failure whose trace is a real game of ``moves`` moves and whose last step is 'the violation'."""
    setup, deal = fixture_deal(game)
    engine = ReferenceEngine()
    start = {"game": game, **setup}
    events = [Event("new_game", start)]
    states = [engine.new_game(game, setup["players"], setup["dealer"], setup["options"])]
    events.append(Event("apply", deal))
    states.append(engine.apply(deal))
    rng = random.Random(seed)
    for i in range(moves):
        if i == 1:
            try:
                engine.apply(REFUSED[game])
                raise AssertionError(f"the reference accepted {REFUSED[game]}")
            except EngineError:
                events.append(Event("reject", REFUSED[game], "CONTRACT-REJECT-1"))
                states.append(engine.state())
        listed = engine.legal_moves()
        if not listed:
            break
        move = rng.choice(listed)
        events.append(Event("apply", move))
        states.append(engine.apply(move))
    last = events[-1].value
    finding = Finding("CONTRACT-MOVES-1", "the engine lists a move twice", [last, {"type": "pass"}], [last, last])
    return Failure(
        finding, Trace(game, tuple(events), finding), "properties", True, 1.5, len(events) * 4, 3, tuple(states)
    )


def certificate(failures: dict[str, Failure], statuses: dict[str, dict[str, str]] | None = None) -> dict[str, Any]:
    """A certificate in the shape ``Certificate.to_json`` writes, around the given failures."""
    games = {}
    for game, failure in failures.items():
        clauses = {c: {"status": s, "hits": 10} for c, s in (statuses or {}).get(game, {}).items()}
        clauses.setdefault(failure.finding.clause, {"status": "fail", "hits": 3})
        games[game] = {
            "verdict": "fail",
            "seconds": 1.5,
            "clauses": clauses,
            "failures": [
                {
                    **failure.to_json(),
                    "trace_file": f"ruleproof-traces/{game}-X.json",
                    "replay": f"ruleproof replay ruleproof-traces/{game}-X.json",
                }
            ],
            "fixtures": {},
            "skipped": [],
        }
    return {
        "verdict": "fail",
        "engine": {"name": "sample", "version": "1"},
        "profile": "dev",
        "seed": None,
        "games": games,
    }
