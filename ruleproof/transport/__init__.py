"""Talking to an engine: in process under a deadline (``inprocess``), over a pipe (``subprocess``,
``reaper``, and the other end, ``server``), every answer checked against the contract (``checked``)."""
