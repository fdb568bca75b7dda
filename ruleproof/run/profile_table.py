"""The profiles (``--profile``): how hard a certification looks, in counts, never in seconds.

Kept apart from ``ruleproof.run.profiles`` (which turns them into Hypothesis settings) so that the
command line's ``--help`` and the pytest plugin's start-up read the one table without importing
Hypothesis.
"""

from __future__ import annotations

import secrets

from attrs import frozen

__all__ = ["PROFILES", "Profile", "described", "run_seed"]


@frozen
class Profile:
    """How hard to look: examples and steps to explore, and what minimizing the failures may spend.

    Minimizing a game's failures may make ``minimize_share`` times as many engine calls as its
    exploration made, no more than keeps the whole run (smoke, fixtures, exploration, minimizing)
    within ``calls_per_step`` calls per step explored, at least ``minimize_calls``, and never, floor
    or not, more than ``calls_per_step`` calls per step played (explored, or a fixture's move): an
    engine failing many clauses then costs at most about (1 + share) times a passing one, however
    many it fails, and an engine behind a pipe without ``moves`` (two calls a step to explore) about
    2.5 calls a step in all (each failure's confirming replay is made even past that).  Calls, not
    replays, because a replay of a short candidate costs a few calls and one of the recorded trace
    hundreds; both are
    counts, so the same seed gives the same certificate.

    The exploration is ``shards`` Hypothesis runs of an even share of the examples each, from seeds
    derived from the run's seed (``ruleproof.run.shards``): the unit that workers (``--workers``,
    pytest-xdist) and machines (``--shard K/N``) share out.  One shard explores as an unsharded run.
    """

    name: str
    max_examples: int
    steps: int
    derandomize: bool
    minimize_replays: int  # per failing clause
    minimize_calls: int  # per game, at least (within calls_per_step)
    minimize_share: float  # per game, of the exploration's engine calls
    shards: int = 1  # Hypothesis runs the examples are split into (never the number of workers)
    # per game: minimizing spends no more than keeps the whole run within this many engine calls per step
    # explored (raised to minimize_calls), nor ever per step played (explored, or a fixture's move)
    calls_per_step: float = 2.5


PROFILES = {
    "dev": Profile(
        "dev",
        max_examples=8,
        steps=150,
        derandomize=False,
        minimize_replays=60,
        minimize_calls=10_000,
        minimize_share=0.5,
        shards=2,
    ),
    "ci": Profile(
        "ci",
        max_examples=30,
        steps=300,
        derandomize=True,
        minimize_replays=200,
        # a fifth of the exploration: on the house-rules engines the same shortest counterexample per
        # clause as half (Black Maria's all identical, 32% of the run's calls -> 13%; Idiot's too but a
        # consequence, 33% -> 17%); a tenth lengthened them (Idiot's BURN-10 from 9 steps to 20)
        minimize_calls=5_000,
        minimize_share=0.2,
    ),
    "thorough": Profile(
        "thorough",
        max_examples=400,
        steps=1000,
        derandomize=False,
        minimize_replays=2000,
        minimize_calls=100_000,
        minimize_share=0.25,
        shards=16,  # 25 examples each: enough to keep 2 to 16 workers or machines evenly busy
    ),
}


def described(profile: Profile) -> str:
    """``dev: 8 examples of 150 steps, a new seed each run`` (for ``--help``)."""
    how = "the same every run" if profile.derandomize else "a new seed each run"
    return f"{profile.name}: {profile.max_examples} examples of {profile.steps} steps, {how}"


def run_seed(profile: str, seed: int | None) -> int | None:
    """The seed a run explores from: the one given; None for a derandomized profile (its examples are
    fixed already); else one drawn now, so that the certificate records it and ``--seed`` repeats the run."""
    if seed is not None or PROFILES[profile].derandomize:
        return seed
    return secrets.randbelow(2**32)
