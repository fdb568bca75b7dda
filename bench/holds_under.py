"""Each bundled Idiot fixture's ``holds_under``: the other house values its script holds under, unchanged.

    python bench/holds_under.py --check     # exit 1 when a bundled file's holds_under differs (printed)
    python bench/holds_under.py --write     # write the values found into fixtures/idiot/*.json

For every fixture and every house option it does not name, the fixture runs on the reference engine
under each value of the option but its default (every variant of the other options, as a certification
runs it); the values under which every variant passes are its ``holds_under``.  Each option is judged
alone, the others at their defaults.  ``tests/test_user_fixtures.py`` checks the bundled files against
``computed`` so they cannot go stale.  Run from the repository root.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from attrs import evolve

from ruleproof.model.fixtures import Fixture, bundled, variants
from ruleproof.properties import properties_for
from ruleproof.properties.base import Ledger
from ruleproof.reference import ReferenceEngine
from ruleproof.run.fixtures import option_values, run_fixture
from ruleproof.transport.checked import CheckedEngine

GAME = "idiot"
FOLDER = Path(__file__).resolve().parent.parent / "fixtures" / GAME


def holds(fx: Fixture, name: str, value: Any, engine: CheckedEngine, house: dict[str, Any]) -> bool:
    """Does every variant of ``fx`` pass on the reference under ``name=value``?"""
    declared = engine.hello()["games"][GAME]
    declared = {**declared, "options": {**declared["options"], name: [value]}}
    runs = variants(evolve(fx, holds_under={name: (value,)}), declared, house)
    props = properties_for(GAME)
    return all(run_fixture(v, engine, props, Ledger(), lambda f, s: None).status == "pass" for v in runs)


def computed(fx: Fixture) -> dict[str, list[Any]]:
    """The house values but the defaults that ``fx``'s script holds under on the reference."""
    engine = CheckedEngine(ReferenceEngine())
    props = properties_for(GAME)
    house = props.house_defaults(fx.setup["players"])
    named = fx.setup.get("options") or {}
    out: dict[str, list[Any]] = {}
    for name in sorted(house):
        if name in named:
            continue
        values = [v for v in option_values(GAME, name) or [] if v != house[name]]
        held = [v for v in values if holds(fx, name, v, engine, house)]
        if held:
            out[name] = held
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    args = ap.parse_args()
    stale = 0
    for fx in bundled(GAME):
        want = computed(fx)
        have = {k: list(v) for k, v in fx.holds_under.items()}
        if want == have:
            continue
        stale += 1
        print(f"{fx.path}: holds_under {json.dumps(have)} -> {json.dumps(want)}")
        if args.write:
            path = FOLDER / Path(fx.path).name
            data = json.loads(path.read_text(encoding="utf-8"))
            data.pop("holds_under", None)
            if want:
                data["holds_under"] = want
            path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
