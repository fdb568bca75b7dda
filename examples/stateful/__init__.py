"""Test modules that put ruleproof's state machines in a pytest suite (docs/stateful.md)."""
