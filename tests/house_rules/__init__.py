"""Engines with house rules: real-world deviations, several at once, for the record-and-continue runner.

Unlike the mutant gallery (one planted bug each, caught on its own clause),
each engine here deviates in several places the way engines written
elsewhere do, so a certification must judge every clause in one run: keep
recording after the first failure, still fail an invariant broken later, and
leave almost nothing untested.
"""
