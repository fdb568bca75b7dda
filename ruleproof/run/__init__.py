"""Running a certification: driving an engine (``session``), the exploration (``explore``), the smoke
stage and ``new_game`` probes (``smoke``, ``setup_probes``), fixtures (``fixtures``), what was found
(``causes``), minimizing and replaying counterexamples (``minimize``, ``replay``), one game's
certification (``runner``, emitting ``events``), declared deviations and baselines (``expect``),
pinning a trace as a fixture (``pin``) and two engines in lockstep (``lockstep``, ``diff``)."""
