"""Rows for ``paiju rules guandan|shengji``: one per clause, in catalogue order."""

from __future__ import annotations

import unicodedata

from enforcement.rulebook import RULEBOOK, clause, clauses_for
from tabletop.errors import OptionError


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


def clause_detail(game: str, clause_id: str) -> list[tuple[str, str]]:
    """(label, text) rows for ``paiju rules GAME --clause ID``: the clause's title, summary,
    trigger keys, the table-effect kinds its rulings may list with the rectification prose,
    and the sanction. An id of another game is an OptionError; an unknown one an
    UnknownClause (naming near ids)."""
    c = clause(clause_id)
    if c.game != game:
        raise OptionError(f"clause {c.id} is a {c.game} clause, not {game}")
    marks = [m for m, on in (("[reported]", c.reported), ("[PD]", c.project_default),
                             ("[heading]", c.heading)) if on]
    rows = [
        ("clause", " ".join([c.id, c.title, *marks])),
        ("summary", c.summary),
        ("trigger", ", ".join(c.trigger.keys) + " — " + c.trigger.text),
        ("allowed effects", ", ".join(c.rectification.effects) or "none"),
        ("rectification", c.rectification.text),
        ("sanction", "—" if c.heading else c.sanction.describe()),
    ]
    if c.pd:
        rows.append(("PD", c.pd))
    if c.not_automatic is not None:
        rows.append(("not automatic", c.not_automatic))
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
