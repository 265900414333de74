"""The referee's part of a `paiju simulate --referee` summary: rulings by clause, sanctions
by side, and the results the rulings changed (掼蛋: forced 单下/双下 results and level-difference
penalties; 双升: point penalties moved between the sides and level results they changed)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from paiju.sim.batch import RefereedResult
from paiju.games import paiju_part
from paiju.summary import Row, Section, Summary, count_row


def with_referee(summary: Summary, game: str, unit: str, refereed: Sequence[RefereedResult]) -> Summary:
    """``summary`` (of the plain results) with the referee's sections added (under
    ``referee`` in the JSON)."""
    by_clause = Counter(clause for r in refereed for clause, _, _ in r.rulings)

    by_side: dict[int | None, Counter[tuple[tuple[str, Any], ...]]] = {0: Counter(), 1: Counter(), None: Counter()}
    for r in refereed:
        for side, sanction in r.sanctions:
            by_side.setdefault(side, Counter())[sanction] += 1
    rows_overall = (
        count_row("irregular attempts", "irregular", sum(r.irregular for r in refereed)),
        count_row("rulings", "rulings", sum(by_clause.values())),
        count_row("unresolved (ruled by the fallback clause)", "unresolved", sum(r.unresolved for r in refereed)),
    )
    rows_clauses = tuple(count_row(f"{clause} {_clause_title(clause)}", clause, n)
                         for clause, n in sorted(by_clause.items(), key=_clause_order))
    rows_sides = tuple(
        Row(f"side {side}" if side is not None else "both sides / the table", str(side),
            {_sanction_key(k): n for k, n in sorted(kinds.items())},
            ", ".join(f"{_sanction_words(dict(k))} ×{n}" for k, n in sorted(kinds.items())) or "none")
        for side, kinds in by_side.items() if kinds or side is not None)
    part = paiju_part(game)
    changed = part.changed_by_rulings
    changed_rows = tuple(changed(unit, [r.result for r in refereed])) if changed is not None else ()
    return summary.with_sections((
        Section("referee", "referee", rows_overall),
        Section("rulings by clause", "referee.by_clause", rows_clauses, empty="no rulings"),
        Section("sanctions by side", "referee.sanctions_by_side", rows_sides),
        Section("results changed by rulings", "referee.changed", changed_rows, note=part.changed_note),
    ), title=summary.title + " (refereed)")


def _clause_title(clause_id: str) -> str:
    """The clause's title from the rulebook (imported here: only a run that ruled loads it)."""
    from enforcement.rulebook import clause

    return clause(clause_id).title


def _sanction_words(sanction: dict[str, Any]) -> str:
    """The sanction in the referee's words (``paiju.wording``, imported by a run that imposed one)."""
    from paiju.wording import sanction_words

    return sanction_words(sanction)


def _sanction_key(sanction: tuple[tuple[str, Any], ...]) -> str:
    """The JSON key of a sanction: its kind, with its other fields ('LevelDiffPenalty n=1')."""
    fields = dict(sanction)
    kind = str(fields.pop("kind", "?"))
    return " ".join([kind, *(f"{k}={v}" for k, v in fields.items() if v not in ("", 0, None))])


def _clause_order(item: tuple[str, int]) -> tuple:
    """GD-2.10 after GD-2.9: compare clause ids number by number."""
    parts = item[0].replace("-", ".").split(".")
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts)
