"""What a person or a tool reads: the terminal report (``render``, ``terminal``, with the table drawing
of ``table``), the HTML page (``html``), JUnit (``junit``), the markdown summary (``summary``),
progress lines (``progress``) and the files written whole or not at all (``files``).  Each output is a
handler of the run's events (``ruleproof.run.events``); it reads the model, never the run."""
