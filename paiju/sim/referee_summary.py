"""The referee's part of a `paiju simulate --referee` summary: rulings by clause, sanctions
by side, and the results the rulings changed (掼蛋: forced 单下/双下 results and level-difference
penalties; 双升: point penalties moved between the sides and level results they changed)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from enforcement.rulebook import clause as lookup_clause
from paiju.sim.batch import RefereedResult
from paiju.games import Summary, paiju_part

Rows = tuple[tuple[str, str], ...]


def with_referee(summary: Summary, game: str, unit: str, refereed: Sequence[RefereedResult]) -> Summary:
    """``summary`` (of the plain results) with the referee's sections and data added."""
    by_clause = Counter(clause for r in refereed for clause, _, _ in r.rulings)
    by_side: dict[int | None, Counter[str]] = {0: Counter(), 1: Counter(), None: Counter()}
    for r in refereed:
        for _, side, kinds in r.rulings:
            by_side.setdefault(side, Counter()).update(kinds)
    irregular = sum(r.irregular for r in refereed)
    unresolved = sum(r.unresolved for r in refereed)
    rulings = sum(by_clause.values())
    rows_clauses: Rows = tuple((f"{clause} {lookup_clause(clause).title}", str(n))
                               for clause, n in sorted(by_clause.items(), key=_clause_order)) or (("-", "no rulings"),)
    rows_sides: Rows = tuple(
        (f"side {side}" if side is not None else "both sides / table",
         ", ".join(f"{kind} ×{n}" for kind, n in sorted(kinds.items())) or "none")
        for side, kinds in by_side.items() if kinds or side is not None)
    rows_overall: Rows = (
        ("irregular attempts", str(irregular)),
        ("rulings", str(rulings)),
        ("unresolved (fallback clause)", str(unresolved)),
    )
    changed = paiju_part(game).changed_by_rulings
    changed_rows, changed_data = changed(unit, [r.result for r in refereed]) if changed is not None else ((), {})
    data = dict(summary.data)
    data["referee"] = {
        "irregular": irregular, "rulings": rulings, "unresolved": unresolved,
        "by_clause": dict(sorted(by_clause.items(), key=_clause_order)),
        "sanctions_by_side": {str(side): dict(sorted(kinds.items())) for side, kinds in by_side.items() if kinds},
        "changed": changed_data,
    }
    sections = summary.sections + (
        ("referee", rows_overall),
        ("rulings by clause", rows_clauses),
        ("sanctions by side", rows_sides),
        ("results changed by rulings", changed_rows),
    )
    return Summary(title=summary.title + " (refereed)", sections=sections, data=data)


def _clause_order(item: tuple[str, int]) -> tuple:
    """GD-2.10 after GD-2.9: compare clause ids number by number."""
    parts = item[0].replace("-", ".").split(".")
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts)
