"""`paiju tournament`: round robins between agents, optionally in the duplicate format,
with confidence intervals, Bradley–Terry ratings, a results table and an HTML report.

    plan.py      entrants, pairings, which boards each pairing plays in which seating
    run.py       playing it on simulate's batch machinery; scoring pairs; --until-significant
    outcomes.py  what is read from a played deal or match (the one per-game table)
    stats.py     intervals and the Bradley–Terry fit
    table.py     the one-row-per-deal table (CSV, Parquet) and its schema
    report.py    the HTML report with matplotlib plots
    command.py   the command line
"""
