"""`paiju train`: referee training on scenarios taken from refereed units.

- ``scenarios``: a scenario (the table before a ruling, the ruling expected) and packs of them;
- ``generate``: refereed units played until the irregularities asked for occur;
- ``grade``: a trainee's answer read and graded against the referee's ruling;
- ``command``: the command (interactive, batch answers, ``export``).
"""
