"""MkDocs hooks: the pages that are read off the code, so they cannot go stale.

A page asks for generated text with a marker line of its own:

- ``<!-- paiju:cli -->``: every ``paiju`` command's ``--help``, rendered from the argparse
  parsers themselves (``paiju.cli.build_parser``), subcommands and nested ones included;
- ``<!-- paiju:clauses GAME -->``: the game's penalty code clause by clause from the
  rulebook (``enforcement.RULEBOOK``): the seed's Chinese sentence, the project's English,
  the sanction, every project default marked;
- ``<!-- paiju:options GAME -->``: the game's rules options read from its rules class.

An unknown marker fails the build (a typo must not leave a page silently short).
"""

from __future__ import annotations

import argparse
import html
import os
import re
from typing import Any

MARKER = re.compile(r"^<!-- paiju:(\w+)(?: (\w+))? -->$", re.M)
HELP_WIDTH = "100"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return MARKER.sub(lambda m: _render(m.group(1), m.group(2), page.file.src_path), markdown)


def _render(kind: str, game: str | None, where: str) -> str:
    if kind == "cli":
        return _cli_reference()
    if kind == "clauses" and game:
        return _clauses(game)
    if kind == "options" and game:
        return _options(game)
    raise ValueError(f"{where}: unknown marker paiju:{kind} {game or ''}")


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.append((name, sub))
    return found


def _cli_reference() -> str:
    """Each command's help as ``paiju COMMAND --help`` prints it, one section per command."""
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = HELP_WIDTH    # argparse wraps to the terminal's width
    try:
        from paiju.cli import build_parser

        parts: list[str] = []

        def walk(parser: argparse.ArgumentParser, level: int) -> None:
            parts.append(f"{'#' * level} `{parser.prog}`\n\n```text\n{parser.format_help().rstrip()}\n```\n")
            for _, sub in _subcommands(parser):
                walk(sub, min(level + 1, 4))

        walk(build_parser(), 2)
        return "\n".join(parts)
    finally:
        if previous is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = previous


def _cell(text: str) -> str:
    return html.escape(text).replace("|", "&#124;").replace("\n", "<br>")


def _clauses(game: str) -> str:
    """One section per clause of ``game``, in the rulebook's order."""
    from enforcement import clauses_for
    from paiju.rules_cmd import said

    out = []
    for c in clauses_for(game):
        marks = []
        if c.project_default:
            marks.append("**project default**: the seed has no such clause")
        if c.reported:
            marks.append("set off only by a report")
        depth = min(c.id.count("."), 2) + 3
        out.append(f"{'#' * depth} {c.id} {c.title} {{ #{c.id.lower().replace('.', '-')} }}\n")
        if marks:
            out.append("*" + "; ".join(marks) + "*\n")
        if c.text_zh:
            quoted = "\n".join(f"> {line}" if line else ">" for line in c.text_zh.splitlines())
            out.append(f"{quoted}\n")
        out.append(f"{c.summary}\n")
        if not c.heading:
            out.append(f"- **Sanction**: {c.sanction.describe(said)}")
            if c.rectification.effects:
                out.append(f"- **Table effects a ruling may list**: {', '.join(f'`{e}`' for e in c.rectification.effects)}")
            out.append("")
        if c.pd:
            out.append(f'!!! note "Project default"\n    {c.pd}\n')
    return "\n".join(out)


def _options(game: str) -> str:
    """The rules options of ``game`` as a table: name, type, default, allowed, what it does."""
    from tabletop.games import game_spec
    from tabletop.options import describe_options

    spec = game_spec(game)
    rows = ["| option | type | default | allowed | what it does |", "|---|---|---|---|---|"]
    for option in describe_options(spec.rules_from_dict({})):
        rows.append(f"| `{option.name}` | {_cell(str(option.type))} | `{option.default}` | "
                    f"{_cell(str(option.allowed))} | {_cell(option.help or '')} |")
    return "\n".join(rows) + "\n"
