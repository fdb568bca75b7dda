"""The layers of ``ruleproof`` as the folder names show them, and no import cycle (issue 22).

From the bottom up: ``model`` (the contract, games, findings, reports: no behaviour), then the
rules stated twice and independently (``properties``, ``reference``: neither imports the other),
``adapter`` (the helper for a user's adapter: the contract's setup checks and defaults),
``transport`` (talking to an engine), ``run`` (a certification), ``output`` (what people and tools
read), ``stateful`` (the games as Hypothesis state machines for a user's suite: it drives engines as
``run`` does and words failures as ``output`` does) and ``cli`` (the command and the pytest
plugin).  A module may import from its own layer and the layers below, never above, and the modules
import each other without a cycle.  Imports inside functions and under ``TYPE_CHECKING`` count: a
lazy import is still a dependency.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# where each subpackage's sources live (pyproject.toml's package-dir)
SOURCES = {"ruleproof": ROOT / "ruleproof", "ruleproof.properties": ROOT / "properties",
           "ruleproof.reference": ROOT / "reference"}  # fmt: skip
LAYERS = ["model", "rules", "adapter", "transport", "run", "output", "stateful", "cli"]


def layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return LAYERS.index("model")  # ruleproof/__init__.py: the version and the game names
    name = {"properties": "rules", "reference": "rules"}.get(parts[1], parts[1])
    return LAYERS.index(name)


def modules() -> Iterator[tuple[str, Path]]:
    for package, folder in SOURCES.items():
        for path in sorted(folder.rglob("*.py")):
            rel = path.relative_to(folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            name = ".".join([package, *parts])
            if package == "ruleproof" and len(parts) > 0 and parts[0] in ("properties", "reference"):
                continue  # never there: mapped from the top-level folders
            yield name, path


def imports(path: Path, module: str) -> set[str]:
    """Every ``ruleproof`` module ``path`` imports, wherever the import statement stands."""
    found: set[str] = set()
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {  # `if TYPE_CHECKING:` imports never run: names for the type checker, no dependency
        id(n)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and ast.unparse(block.test).endswith("TYPE_CHECKING")
        for stmt in block.body
        for n in ast.walk(stmt)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("ruleproof"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package
                base = ".".join([*package.split(".")[: len(package.split(".")) - node.level + 1], base]).strip(".")
            if base.startswith("ruleproof"):
                found.add(base)
                found.update(f"{base}.{a.name}" for a in node.names)  # `from ruleproof.model import schema`
    return found


def graph() -> dict[str, set[str]]:
    known = dict(modules())
    return {m: {i for i in imports(p, m) if i in known and i != m} for m, p in known.items()}


def test_no_module_imports_from_a_layer_above_it() -> None:
    wrong = [
        f"{m} ({LAYERS[layer(m)]}) imports {i} ({LAYERS[layer(i)]})"
        for m, deps in graph().items()
        for i in sorted(deps)
        if layer(i) > layer(m)
    ]
    assert not wrong, "\n".join(wrong)


def test_the_two_readings_of_the_rules_never_import_each_other() -> None:
    crossing = [
        f"{m} imports {i}"
        for m, deps in graph().items()
        for i in deps
        if {[*m.split("."), ""][1], [*i.split("."), ""][1]} == {"properties", "reference"}
    ]
    assert not crossing, "\n".join(crossing)


def test_no_import_cycle() -> None:
    deps = graph()
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for d in sorted(deps[m]):
            if state.get(d) == 1:
                return [*path[path.index(d) :], d]
            if d not in state and (cycle := visit(d)):
                return cycle
        path.pop()
        state[m] = 2
        return None

    for m in sorted(deps):
        if m not in state:
            cycle = visit(m)
            assert cycle is None, " -> ".join(cycle)


def test_every_folder_is_a_layer() -> None:
    folders = {p.name for p in (ROOT / "ruleproof").iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders <= set(LAYERS), folders - set(LAYERS)


def test_the_architecture_page_maps_every_module() -> None:
    """docs/architecture.md names every module: by its path (``run/session.py``), or by its file name on
    a row that names its folder (``properties/base.py``, ``checks.py``); a game's package of properties
    as a whole (``idiot/``)."""
    rows = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").splitlines()
    missing = []
    for name, path in modules():
        rel = path.relative_to(ROOT)
        if rel.parts[0] == "properties" and len(rel.parts) > 2:  # a game's package: its folder is its entry
            folder, shown = "properties/", f"{rel.parts[1]}/"
        elif path.name == "__init__.py":
            continue
        else:
            folder, shown = f"{path.parent.name}/", path.name
        if not any(f"{folder}{shown}" in row or (folder in row and shown in row) for row in rows):
            missing.append(name)
    assert not missing, f"docs/architecture.md does not map {missing}"


def test_the_state_machines_are_a_layer_of_their_own_that_nothing_imports() -> None:
    assert layer("ruleproof.stateful") == LAYERS.index("stateful")
    importers = sorted(m for m, deps in graph().items() if "ruleproof.stateful" in deps)
    assert importers == [], importers  # a user's test suite imports it; the command and the plugin never do


def test_importing_ruleproof_or_its_plugin_leaves_hypothesis_stateful_unimported() -> None:
    # pytest loads the plugin in every session of a project that installs ruleproof: it must stay cheap
    code = "import ruleproof, ruleproof.cli.plugin, sys; print('hypothesis.stateful' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
