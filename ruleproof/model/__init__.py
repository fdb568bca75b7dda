"""What the kit talks about, with no behaviour of its own: the engine contract (``engine``), the games
and their notation (``games``, ``notation``, ``schema``, ``clauses``), what a check finds (``findings``,
``fixtures``), and what a certification reports (``report``, ``certificate``).  Every other layer
imports from here; this package imports from none of them (tests/test_layers.py)."""
