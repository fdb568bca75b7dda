"""ruleproof: a property-based rules conformance kit for card and domino game engines.

The harness lives here; ``ruleproof.reference`` holds the reference engines,
``ruleproof.properties`` the rules stated as Hypothesis state machines and
``ruleproof.fixtures`` the scripted scenarios.
"""

__version__ = "0.1.0"
PROTOCOL_VERSION = 1
GAMES = ("black-maria", "idiot", "fool", "moon")
