"""`paiju rules GAME`: the referee's clause catalogue, one row per clause; `paiju rules GAME
CLAUSE` (or ``--clause ID``): one clause in full — Chinese text, English summary, trigger,
rectification, sanction ladder; `paiju rules GAME WORDS`: the clauses that say them (or what
people also say for them, ``paiju.rules_search``); `paiju rules GAME --options`: the game's rules options with
their types, defaults and allowed values (from the game's rules class, via the registry)."""

from __future__ import annotations

import argparse
import re
import shutil
import unicodedata

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from enforcement.listing import clause_detail, not_automatic, rules_table
from paiju.wording import sanction_words, sanctions_named
from tabletop.effects import Sanction
from tabletop.errors import OptionError
from tabletop.games import game_spec
from tabletop.options import describe_options
from paiju.summary import counted

LABEL_WIDTH = 17
DEFAULT_WIDTH = 100
"""Columns to fill when stdout is not a terminal."""


def rules_command(args: argparse.Namespace) -> int:
    words = getattr(args, "clause_id", None) or []
    words = [words] if isinstance(words, str) else words
    given = getattr(args, "clause", None)
    if words and not given and not getattr(args, "options", False) and not (len(words) == 1 and is_clause_id(words[0])):
        print(search_text(args.game, " ".join(words)))
        return 0
    wanted = " ".join(words) if words else None
    if wanted and given and wanted.upper() != given.upper():
        raise OptionError(f"rules: two clauses given ({wanted} and --clause {given}): give one")
    wanted = wanted or given
    if wanted and getattr(args, "options", False):
        raise OptionError("rules: a CLAUSE or --options, not both")
    if getattr(args, "options", False):
        print(options_text(args.game))
        return 0
    if wanted:
        print(clause_text(args.game, wanted))
        return 0
    rows = rules_table(args.game, said)
    table = Table(title=f"{args.game}: {counted(len(rows), 'clause')}", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("clause", style="cyan", no_wrap=True)
    table.add_column("summary")
    table.add_column("sanction", overflow="fold")   # rich would cut a CJK-wrapped line short
    for clause_id, summary, sanction in rows:
        table.add_row(clause_id, escape(summary), escape(sanction))   # '[reported]' is no markup
    console = Console(highlight=False)
    console.print(table)
    for clause_id, why in not_automatic(args.game):
        console.print(f"[not automatic] {clause_id}: {why}", markup=False)
    console.print(f"one clause in full: paiju rules {args.game} CLAUSE; the rules options: "
                  f"paiju rules {args.game} --options", markup=False)
    return 0


def said(sanction: Sanction) -> str:
    """A sanction in the referee's words, English beside (``paiju.wording``)."""
    return sanction_words(sanction.to_dict())


def is_clause_id(text: str) -> bool:
    """'GD-2.3.1', 'sj-1.3': a clause id (of either game), not words to search for."""
    return re.fullmatch(r"(?i)(GD|SJ)-[0-9][0-9a-z.]*", text.strip()) is not None


def search_text(game: str, query: str) -> str:
    """The clauses of ``game`` that say ``query`` (or what people also say for its words),
    one line each: id, title, sanction."""
    from paiju.rules_search import search

    found = search(game, query)
    if not found:
        return f"no {game_spec(game).title} clause says {query!r} (paiju rules {game} lists them all)"
    rows = {clause_id: (title, sanction) for clause_id, title, sanction in rules_table(game, said)}
    lines = [f"{len(found)} clause{'s' if len(found) != 1 else ''} say {query!r}:"]
    lines += [f"  {c.id} {rows[c.id][0]} — {rows[c.id][1]}" for c in found]
    return "\n".join(lines + [f"one clause in full: paiju rules {game} CLAUSE"])


def clause_text(game: str, clause_id: str, width: int | None = None) -> str:
    """One clause in full, a label column and its text wrapped beside it."""
    width = width or _width()
    lines = []
    for label, text in clause_detail(game, clause_id, said):
        if label not in ("clause", "allowed effects"):   # the rulebook's prose names sanctions by kind
            keys, dash, prose = text.partition(" — ") if label == "trigger" else ("", "", text)
            text = keys + dash + sanctions_named(prose)
        first = True
        for paragraph in text.splitlines() or [""]:
            for line in wrap(paragraph, max(20, width - LABEL_WIDTH)):
                head = f"{label}:" if first else ""
                lines.append(pad(head, LABEL_WIDTH) + line)
                first = False
    return "\n".join(lines)


def options_text(game: str) -> str:
    """The rules options of ``game``: one block per option (name, type, default, allowed
    values, what it does) and how to set one."""
    spec = game_spec(game)
    options = describe_options(spec.rules_from_dict({}))
    lines = [f"{spec.name} ({spec.title}): {len(options)} rules options; set one with "
             f"paiju simulate {spec.name} --rules NAME=VALUE", ""]
    for option in options:
        lines.append(option.name)
        lines.append(f"    type: {option.type}; default: {option.default}; allowed: {option.allowed}")
        if option.help:
            lines += [f"    {line}" for line in wrap(option.help, _width() - 4)]
    return "\n".join(lines)


def _width() -> int:
    return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns


def columns(text: str) -> int:
    """Terminal columns: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, width: int) -> str:
    return text + " " * max(1, width - columns(text))


CLOSING = set("，。、；：！？）」』》")
"""Chinese punctuation that never starts a line."""
_TOKENS = re.compile(r"\s+|[\u2e80-\ufaff\uff00-\uffef]|[^\s\u2e80-\ufaff\uff00-\uffef]+")
"""Words, and each CJK character on its own (Chinese breaks between any two characters)."""


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns (a longer word stands alone)."""
    lines: list[str] = []
    line = ""
    for token in _TOKENS.findall(text):
        if token.isspace():
            if line:
                line += " "
            continue
        if line and columns(line) + columns(token) > width and token not in CLOSING:
            lines.append(line.rstrip())
            line = ""
        line += token
    lines.append(line.rstrip())
    return lines
