"""`paiju replay`: a log checked, or looked at step by step.

- ``command``: the command — ``--check`` or a view;
- ``check``: re-apply a log's actions and compare every event, byte for byte (``--check``);
- ``view``: the view command (the text listing, the table at a step, the HTML page);
- ``rerun``: the log re-run through its engine, batch by batch (the table is the engine's:
  each step is drawn from the game's typed view, ``GameSpec.table_view``); a view draws from
  ``check``'s own pass, so the run that draws also says whether the log checks;
- ``fold``: each event handed with that view to its handler (``shared`` for both games,
  ``guandan``, ``shengji``), which words it and keeps the record the words need
  (``table.Table``: the round or trick as listed, notes, rulings);
- ``text``: the terminal view; ``html`` and ``page``: the self-contained HTML page.
"""
