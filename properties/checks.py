"""The check registry: a game's named checks and the clauses each one states.

Each game module makes one ``CheckRegistry`` (``checks = CheckRegistry()``) and
declares its checks with it:

- ``@checks("BM-PASS-1", "BM-PASS-2")`` on a transition check ``fn(props, step)``,
  run on every step;
- ``@checks.hook("BM-SETUP-1", ...)`` on a hook method of the properties class
  (``start``, ``illegal_moves``, ``after_rejection``) for the clauses it reports
  outside the transition checks.

The declared clauses are the source of a game's clause list
(``GameProperties.all_clauses``); tests/test_registry.py proves each check
reports exactly what it declares.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from attrs import frozen

F = TypeVar("F", bound=Callable[..., Any])


@frozen
class Check:
    """A named check, the clauses it states, and the function that states them."""

    name: str
    clauses: tuple[str, ...]
    fn: Callable[..., Any]


class CheckRegistry:
    """The invariant registry of one game's properties (Schemathesis-style named checks)."""

    def __init__(self) -> None:
        self.checks: list[Check] = []  # transition checks, run on every step in this order
        self.hooks: list[Check] = []  # hook methods of the properties class: never run by the registry

    def __call__(self, *clauses: str) -> Callable[[F], F]:
        """Register a transition check ``fn(props, step)`` that states ``clauses``."""

        def register(fn: F) -> F:
            self.checks.append(Check(fn.__name__, clauses, fn))
            return fn

        return register

    def hook(self, *clauses: str) -> Callable[[F], F]:
        """Declare the clauses a hook method (``start``, ``illegal_moves``, ...) reports."""

        def register(fn: F) -> F:
            self.hooks.append(Check(fn.__name__, clauses, fn))
            return fn

        return register

    def every(self) -> Iterable[Check]:
        """The transition checks, then the hooks."""
        return [*self.checks, *self.hooks]

    def clauses(self) -> list[str]:
        """Every clause some check or hook declares, each once, in declaration order."""
        return list(dict.fromkeys(clause for check in self.every() for clause in check.clauses))
