"""How hard a certification looks: the profiles (``--profile``) and the Hypothesis settings they give.

A profile fixes every budget that decides a result, in counts (examples, steps, shards, replays,
engine calls), never in seconds, so the same seed gives the same certificate.
"""

from __future__ import annotations

from attrs import frozen
from hypothesis import HealthCheck, Phase, Verbosity, settings

__all__ = ["PROFILES", "Profile", "hypothesis_settings"]


@frozen
class Profile:
    """How hard to look: examples and steps to explore, and what minimizing the failures may spend.

    Minimizing a game's failures may make ``minimize_share`` times as many engine calls as its
    exploration made, and at least ``minimize_calls``: an engine failing many clauses then costs at
    most about (1 + share) times a passing one, however many it fails.  Calls, not replays, because
    a replay of a short candidate costs a few calls and one of the recorded trace hundreds; both are
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
    minimize_calls: int  # per game, at least
    minimize_share: float  # per game, of the exploration's engine calls
    shards: int = 1  # Hypothesis runs the examples are split into (never the number of workers)


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

for _p in PROFILES.values():  # also usable as Hypothesis profiles by name
    settings.register_profile(f"ruleproof-{_p.name}", max_examples=_p.max_examples, derandomize=_p.derandomize)


def hypothesis_settings(profile: Profile) -> settings:
    return settings(
        max_examples=profile.max_examples,
        derandomize=profile.derandomize,
        deadline=None,
        database=None,
        print_blob=False,
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        phases=(Phase.generate,),  # nothing to shrink: violations are recorded, never raised
        suppress_health_check=list(HealthCheck),
    )
