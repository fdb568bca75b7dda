"""The README's adapter under Black Maria's state machine: `pytest examples/stateful` runs it."""

import ruleproof.stateful
from examples.python.adapter import Adapter

TestAdapter = ruleproof.stateful.machine("black-maria", Adapter).TestCase
