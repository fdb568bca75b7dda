"""ruleproof: a property-based rules conformance kit for card and domino game engines.

The harness lives here; ``ruleproof.reference`` holds the reference engines,
``ruleproof.properties`` the rules stated as Hypothesis state machines and
``ruleproof.fixtures`` the scripted scenarios.  ``ruleproof.model.games`` lists the
games and where each one's pieces live.
"""

from ruleproof.model.errors import RuleproofPartialWarning, RuleproofWarning
from ruleproof.model.games import SPECS

__version__ = "0.1.0"
PROTOCOL_VERSION = 1
GAMES = tuple(s.name for s in SPECS)
__all__ = ["GAMES", "PROTOCOL_VERSION", "SPECS", "RuleproofPartialWarning", "RuleproofWarning", "__version__"]
