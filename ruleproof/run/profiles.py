"""How hard a certification looks: the profiles (``--profile``) and the Hypothesis settings they give.

A profile fixes every budget that decides a result, in counts (examples, steps, shards, replays,
engine calls), never in seconds, so the same seed gives the same certificate.
"""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, Verbosity, settings

from ruleproof.run.profile_table import PROFILES, Profile

__all__ = ["PROFILES", "Profile", "hypothesis_settings"]


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
