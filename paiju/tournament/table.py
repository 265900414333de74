"""The results table: one row per deal played, for pandas, Polars or DuckDB.

``SCHEMA`` is the documentation and the Parquet schema at once: (column, Arrow type,
meaning). The CSV has the same columns in the same order; an empty CSV cell is a null.
Match-level columns (``match_*``) repeat on every deal row of the match; the referee's
columns count what happened in the unit (the deal, or for ``--matches`` the whole match —
the referee keeps its record per match) and sit on the unit's first deal row only, 0 or
empty on the others, so that summing a column never counts a ruling twice.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

from paiju.tournament.outcomes import UnitFacts
from paiju.tournament.run import TournamentRun

SCHEMA: tuple[tuple[str, str, str], ...] = (
    ("game", "string", "the game: guandan or shengji"),
    ("seed", "int64", "the run's root seed"),
    ("unit", "string", "deal or match: what a board is"),
    ("duplicate", "bool", "played in the duplicate format"),
    ("pairing", "string", "'A vs B' (the agents in --agents order)"),
    ("agent_a", "string", "the pairing's first agent"),
    ("agent_b", "string", "the pairing's second agent"),
    ("pair", "int64", "the scoring pair within the pairing (0, 1, …)"),
    ("board", "int64", "the unit index in the seed tree: the same board is the same cards"),
    ("seating", "int64", "0: agent_a on seats 0&2; 1: agent_b on seats 0&2"),
    ("deal", "int64", "the deal's number within its match (1 for --deals)"),
    ("seat0", "string", "the agent on seat 0"),
    ("seat1", "string", "the agent on seat 1"),
    ("seat2", "string", "the agent on seat 2"),
    ("seat3", "string", "the agent on seat 3"),
    ("winner_team", "int64", "the team that won the deal (0: seats 0&2); 双升: the team that goes up or takes the bank"),
    ("winner_agent", "string", "the agent of that team"),
    ("levels", "int64", "levels the winning team gained in the deal"),
    ("level_diff_a", "int64", "levels from agent_a's side: +levels if agent_a's team won the deal, else -levels"),
    ("finish_order", "string", "掼蛋: seats in finishing order, e.g. '0 2 1 3' (null for 双升)"),
    ("banker", "int64", "双升: the banker seat (null for 掼蛋)"),
    ("points", "int64", "双升: the attackers' points after adjustments (null for 掼蛋)"),
    ("match_winner_agent", "string", "--matches: the agent that won the match (null for a tie or with --deals)"),
    ("match_score_a", "float64", "--matches: agent_a's match score, 1 win, 0.5 tie, 0 loss (null with --deals)"),
    ("refereed", "bool", "played with the referee"),
    ("rulings", "string", "referee rulings as 'CLAUSE@TEAM' separated by ';' (TEAM '-' when no side); null unrefereed"),
    ("rulings_count", "int64", "number of rulings (null unrefereed)"),
    ("irregular", "int64", "irregular attempts (null unrefereed)"),
    ("unresolved", "int64", "irregularities the rulebook did not cover (null unrefereed)"),
    ("sanctions", "string", "sanction kinds as 'KIND@TEAM' separated by ';' (null unrefereed)"),
    ("forced", "bool", "掼蛋 refereed: the deal's result was set by a ruling (null otherwise)"),
    ("point_adjustment", "int64", "双升 refereed: attackers' points moved by rulings in the deal (null otherwise)"),
    ("complete", "bool", "false in the table of an interrupted tournament: the boards played until it stopped"),
)
COLUMNS = tuple(name for name, _, _ in SCHEMA)
_UNIT_NAMES = {"deals": "deal", "matches": "match"}


def _side(side: int | None) -> str:
    return "-" if side is None else str(side)


def rows(run: TournamentRun) -> Iterator[dict[str, Any]]:
    """The table's rows: by pairing, then pair, then seating, then deal."""
    plan = run.plan
    pairings = plan.pairings
    for key in sorted(run.units):
        number, seating, pair = key
        pairing = pairings[number]
        facts: UnitFacts = run.units[key]
        seats = pairing.seats(seating, plan.table)
        team_a = pairing.team_of_first(seating)
        match_winner = None
        match_score = None
        if facts.is_match:
            match_score = facts.score(team_a)
            match_winner = None if facts.match_winner is None else pairing.on_side(facts.match_winner, seating).label
        for place, deal in enumerate(facts.deals):
            first = place == 0
            row: dict[str, Any] = {
                "game": plan.game, "seed": plan.seed, "unit": _UNIT_NAMES[plan.unit],
                "duplicate": plan.duplicate, "pairing": pairing.label, "agent_a": pairing.first.label,
                "agent_b": pairing.second.label, "pair": pair, "board": plan.board(pair, seating),
                "seating": seating, "deal": deal.number,
                **{f"seat{n}": seats[n].label if n < len(seats) else None for n in range(4)},
                "winner_team": deal.winner_team, "winner_agent": pairing.on_side(deal.winner_team, seating).label,
                "levels": deal.levels, "level_diff_a": deal.levels if deal.winner_team == team_a else -deal.levels,
                "finish_order": deal.finish_order, "banker": deal.banker, "points": deal.points,
                "match_winner_agent": match_winner, "match_score_a": match_score,
                "refereed": facts.refereed,
                "rulings": None, "rulings_count": None, "irregular": None, "unresolved": None, "sanctions": None,
                "forced": deal.forced if facts.refereed else None,
                "point_adjustment": deal.point_adjustment if facts.refereed else None,
                "complete": run.interrupted is None,
            }
            if facts.refereed:
                row.update({
                    "rulings": ";".join(f"{c}@{_side(s)}" for c, s in facts.rulings) if first else "",
                    "rulings_count": len(facts.rulings) if first else 0,
                    "irregular": facts.irregular if first else 0,
                    "unresolved": facts.unresolved if first else 0,
                    "sanctions": ";".join(f"{k}@{_side(s)}" for s, k in facts.sanctions) if first else "",
                })
            yield row


def to_csv(table: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in table:
        writer.writerow({k: _csv_cell(v) for k, v in row.items()})
    return out.getvalue()


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def to_parquet(table: list[dict[str, Any]], path: str) -> None:
    """Needs pyarrow (the ``tournament`` extra)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    types = {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_()}
    schema = pa.schema([pa.field(name, types[kind], nullable=True,
                                 metadata={"description": meaning}) for name, kind, meaning in SCHEMA])
    arrays = {name: [row[name] for row in table] for name in COLUMNS}
    pq.write_table(pa.Table.from_pydict(arrays, schema=schema), path)
