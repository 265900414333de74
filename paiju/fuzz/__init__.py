"""`paiju fuzz`: rule-interaction fuzzing of an engine and its referee.

- ``case``: one case drawn, played under the invariant checker, replayed and shrunk;
- ``command``: the command (the run, clause coverage, failures written, ``--repro``).
"""
