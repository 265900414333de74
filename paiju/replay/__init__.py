"""`paiju replay`: a log checked, or looked at step by step.

- ``command``: the command — ``--check`` or a view;
- ``check``: re-apply a log's actions and compare every event, byte for byte (``--check``);
- ``view``: the view command (the text listing, the table at a step, the HTML page);
- ``fold``: a log folded into a ``table.Table`` one event at a time, by handlers per event
  kind (``shared`` for both games, ``guandan``, ``shengji``);
- ``text``: the terminal view; ``html`` and ``page``: the self-contained HTML page.
"""
