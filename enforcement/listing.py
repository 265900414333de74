"""Rows for ``paiju rules guandan|shengji``: one per clause, in catalogue order."""

from __future__ import annotations

import unicodedata

from enforcement.rulebook import RULEBOOK, clauses_for


def rules_table(game: str) -> list[tuple[str, str, str]]:
    """(clause id, title, sanction) for every clause of ``game``. Headings have sanction '—';
    reported-only clauses are marked '[reported]', project defaults '[PD]', clauses no
    machine-played deal can set off '[not automatic]' (the reason: ``not_automatic``) after
    the title."""
    rows = []
    for c in clauses_for(game):
        marks = [m for m, on in (("[reported]", c.reported), ("[PD]", c.project_default),
                                 ("[not automatic]", c.not_automatic is not None)) if on]
        title = " ".join([c.title, *marks])
        rows.append((c.id, title, "—" if c.heading else c.sanction.describe()))
    return rows


def not_automatic(game: str) -> list[tuple[str, str]]:
    """(clause id, why it cannot fire automatically) for the clauses of ``game`` that say so."""
    return [(c.id, c.not_automatic) for c in clauses_for(game) if c.not_automatic is not None]


def format_rules_table(game: str) -> str:
    """The table as plain text, ids indented by depth (for output without rich)."""
    rows = [("  " * RULEBOOK[cid].depth + cid, title, sanction)
            for cid, title, sanction in rules_table(game)]
    id_width = max(_width(r[0]) for r in rows)
    title_width = max(_width(r[1]) for r in rows)
    return "\n".join(f"{_pad(a, id_width)}  {_pad(b, title_width)}  {c}".rstrip() for a, b, c in rows)


def _width(text: str) -> int:
    """Terminal columns: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))
