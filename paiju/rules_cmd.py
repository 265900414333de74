"""`paiju rules GAME`: the referee's clause catalogue, one row per clause; `--clause ID`: one
clause in full (trigger keys, the effect kinds its rulings may list, sanction)."""

from __future__ import annotations

import argparse

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from enforcement.listing import clause_detail, not_automatic, rules_table


def rules_command(args: argparse.Namespace) -> int:
    if getattr(args, "clause", None):
        console = Console(highlight=False)
        for label, text in clause_detail(args.game, args.clause):
            console.print(f"{label + ':':<17}{text}", markup=False)
        return 0
    rows = rules_table(args.game)
    table = Table(title=f"{args.game}: {len(rows)} clauses", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("clause", style="cyan", no_wrap=True)
    table.add_column("summary")
    table.add_column("sanction")
    for clause_id, summary, sanction in rows:
        table.add_row(clause_id, escape(summary), escape(sanction))   # '[reported]' is no markup
    console = Console(highlight=False)
    console.print(table)
    for clause_id, why in not_automatic(args.game):
        console.print(f"[not automatic] {clause_id}: {why}", markup=False)
    return 0
