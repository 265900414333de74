"""Rows for ``paiju rules guandan|shengji``: one per clause, in catalogue order."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from enforcement.rulebook import ORDINALS, RULEBOOK, SanctionRule, clause, clauses_for
from tabletop.effects import Sanction
from tabletop.errors import OptionError

Say = Callable[[Sanction], str]
"""How a view says a sanction ('扣 1 个级差分 …' in paiju); ``str`` gives its kind ('LevelDiffPenalty(1)')."""


def rules_table(game: str, say: Say = str) -> list[tuple[str, str, str]]:
    """(clause id, title, sanction) for every clause of ``game``. Headings have sanction '—';
    reported-only clauses are marked '[reported]', project defaults '[PD]', clauses no
    machine-played deal can set off '[not automatic]' (the reason: ``not_automatic``) after
    the title."""
    rows = []
    for c in clauses_for(game):
        marks = [m for m, on in (("[reported]", c.reported), ("[PD]", c.project_default),
                                 ("[not automatic]", c.not_automatic is not None)) if on]
        title = " ".join([c.title, *marks])
        rows.append((c.id, title, "—" if c.heading else c.sanction.describe(say)))
    return rows


def clause_detail(game: str, clause_id: str, say: Say = str) -> list[tuple[str, str]]:
    """(label, text) rows for ``paiju rules GAME CLAUSE``: the clause's title, its Chinese
    text, English summary, trigger keys, the rectification with the table-effect kinds its
    rulings may list, and the sanction ladder (one line per step); a text may hold several
    lines. An id of another game is an OptionError; an unknown one an UnknownClause (naming
    near ids)."""
    c = clause(clause_id)
    if c.game != game:
        raise OptionError(f"clause {c.id} is a {c.game} clause, not {game}: see paiju rules {c.game} {c.id}")
    marks = [m for m, on in (("[reported]", c.reported), ("[PD]", c.project_default),
                             ("[heading]", c.heading)) if on]
    rows = [("clause", " ".join([c.id, c.title, *marks]))]
    if c.parent is not None:
        rows.append(("part of", f"{c.parent} {RULEBOOK[c.parent].title}"))
    below = [child.id for child in clauses_for(game) if child.parent == c.id]
    if below:
        rows.append(("sub-clauses", ", ".join(below)))
    rows += [
        ("中文", c.text_zh or "—"),
        ("summary", c.summary),
        ("trigger", ", ".join(c.trigger.keys) + " — " + c.trigger.text),
        ("rectification", c.rectification.text or "—"),
        ("allowed effects", ", ".join(c.rectification.effects) or "none"),
        ("sanction", "—" if c.heading else "\n".join(sanction_ladder(c.sanction, say))),
    ]
    if c.refs:
        rows.append(("applies", ", ".join(c.refs)))
    if c.pd:
        rows.append(("PD", c.pd))
    if c.not_automatic is not None:
        rows.append(("not automatic", c.not_automatic))
    return rows


def sanction_ladder(rule: SanctionRule, say: Say = str) -> list[str]:
    """One line per step of a sanction rule: '1st: none', '2nd and later: Warning', then how
    occurrences are counted; a rule without steps is 'none'."""
    counted = rule.text.startswith("counted")   # a text that only says how occurrences count
    if not any(rule.steps):
        return [rule.text if rule.text.startswith("none") else " — ".join(filter(None, ["none", rule.text]))]
    if len(rule.steps) == 1:
        lines = [" + ".join(say(s) for s in rule.steps[0])]
    else:
        lines = []
        for number, step in enumerate(rule.steps, start=1):
            label = ORDINALS.get(number, f"{number}th")
            if number == len(rule.steps):
                label += " and later"
            lines.append(f"{label}: {' + '.join(say(s) for s in step) or 'none'}")
        lines.append(f"occurrences counted per {rule.per}, per match")
    if rule.to == "both_sides":
        lines.append("borne by both sides alike")
    if rule.text and not counted:
        lines.append(rule.text)
    return lines


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
