"""docs/contributing.md names files that exist (a guide pointing at moved files sends people astray)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from ruleproof.model.games import SPECS

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "contributing.md"
CODE = re.compile(r"`([^`\s]+)`")
FILES = (".py", ".md", ".json", ".toml")
PLACEHOLDERS = ("NAME", "TRACE", "PATH", "FILE", "CLAUSE")  # stand for what the contributor creates


def named_paths() -> list[str]:
    """Every code span of the guide that is a file or folder path (``docs/rules/GAME.md``, ``.ci/run``)."""
    spans = CODE.findall(GUIDE.read_text(encoding="utf-8"))
    paths = [s for s in spans if ("/" in s or s.endswith(FILES)) and not s.startswith(("-", "http")) and ":" not in s]
    return [p for p in dict.fromkeys(paths) if not any(word in p for word in PLACEHOLDERS)]


def for_each_game(path: str) -> list[str]:
    """GAME is a game's name, GAME_ its module name: a path naming them stands for every game's."""
    if "GAME" not in path:
        return [path]
    return [path.replace("GAME_", s.name.replace("-", "_")).replace("GAME", s.name) for s in SPECS]


def test_the_guide_names_enough_paths() -> None:
    assert len(named_paths()) >= 20, named_paths()


@pytest.mark.parametrize("path", named_paths())
def test_every_path_the_guide_names_exists(path: str) -> None:
    missing = [p for p in for_each_game(path) if not (ROOT / p).exists()]
    assert not missing, f"docs/contributing.md names {missing}"


def test_pyproject_lists_every_folder_setuptools_takes_for_a_package() -> None:
    # a folder with an identifier name under a listed package is a package to setuptools: unlisted,
    # every build warns (its files still ship by the package-data globs)
    root = Path(__file__).resolve().parent.parent
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(config["packages"])
    folders = {"ruleproof.properties": root / "properties", "ruleproof.fixtures": root / "fixtures"}
    folders |= {"ruleproof": root / "ruleproof", "ruleproof.output": root / "ruleproof" / "output"}
    wanted = {
        f"{package}.{sub.name}"
        for package, folder in folders.items()
        for sub in folder.iterdir()
        if sub.is_dir() and sub.name.isidentifier() and not sub.name.startswith("__")
    }
    assert wanted - listed == set()


def readme_commands() -> list[str]:
    """The README's first two lines, the commands a new user runs: the main job, then the suite."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines[1:5] if line.startswith("    ")]


def test_the_readmes_main_job_runs_on_the_runtime_install() -> None:
    main, suite = readme_commands()
    assert ".venv/bin/pip install . " in main and "[test]" not in main
    assert main.endswith("ruleproof certify") and suite.endswith(".venv/bin/pytest")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = {re.split(r"[<>=\[; ]", d)[0].lower() for d in config["dependencies"]}
    tools = {re.split(r"[<>=\[; ]", d)[0].lower() for d in config["optional-dependencies"]["test"]}
    assert runtime & tools == set(), "a test tool is a runtime dependency: every user installs it"


def test_ci_installs_and_tests_as_the_readme_says() -> None:
    _, suite = readme_commands()
    install = suite.split(" && ")[1].removeprefix(".venv/bin/pip install ")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert f".venv/bin/pip install --quiet {install}" in ci
    assert suite.split(" && ")[-1] in ci, "CI runs the README's test command as it is written"


def test_the_release_steps_build_and_check_what_ci_builds() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "-m build" in ci and "twine check --strict" in ci
    (release,) = [line for line in guide.splitlines() if "twine upload" in line]
    assert "-m build" in release and "twine check --strict" in release


@pytest.mark.parametrize("page", ["docs/protocol.md", "docs/adapters.md", "docs/ci.md", "docs/stateful.md"])
def test_a_users_pages_stand_on_their_own(page: str) -> None:
    """A user's checkout has no shared/ folder (the project's steering notes): the contract's page is
    itself normative, and no page sends a reader to a file they do not have."""
    assert "shared/" not in (ROOT / page).read_text(encoding="utf-8")
