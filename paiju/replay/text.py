"""`paiju replay LOG` in the terminal: a step-by-step listing (one line per event, a run of
drawn cards as one line) with the table drawn when play starts, at each round (掼蛋) or trick
(双升) end and when a deal is scored; or, with ``--at``, the table at one event.

Output is deterministic: 100 columns and no colour unless stdout is a terminal."""

from __future__ import annotations

import os
import re
import sys
from collections import deque
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table as Grid
from rich.text import Text

from paiju.games import paiju_part
from paiju.replay.fold import Fold, Step
from paiju.replay.table import JOKER_NAMES, NUM_SEATS, SEAT_NAMES
from tabletop.cards import SUIT_SYMBOLS, SUITS

WIDTH = 100
TABLE_AFTER = frozenset({"gd.play_started", "gd.round_over", "gd.scored", "sj.buried", "sj.trick_won", "sj.scored"})
"""Kinds after which the listing draws the table."""
RULINGS_AT = 3
"""``--at`` shows the deal's latest rulings, up to this many."""
_RED = re.compile(r"[♥♦][0-9TJQKA]+|大王")
_RELATIVE = ("", "下家", "对家", "上家")


class _Console(Console):
    def on_broken_pipe(self) -> None:
        """``paiju replay LOG | head``: stop quietly (rich would exit 1); the command ends
        with status 0, as every paiju command does on a closed pipe."""
        self.quiet = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise BrokenPipeError


def make_console(file: Any = None) -> Console:
    """Colour on a terminal; anything else (a pipe, a file, a test) gets 100 columns of plain
    text, whatever the environment says, so the output is the same everywhere."""
    stream = file if file is not None else sys.stdout
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if tty:
        return _Console(file=file, highlight=False, emoji=False, soft_wrap=False)
    return _Console(file=file, width=WIDTH, highlight=False, emoji=False, color_system=None, soft_wrap=False,
                   force_terminal=False, force_interactive=False, force_jupyter=False)


def coloured(text: str, style: str = "") -> Text:
    out = Text(text, style=style)
    out.highlight_regex(_RED, "red")
    return out


def card_label(code: str) -> str:
    if code in JOKER_NAMES:
        return JOKER_NAMES[code]
    return SUIT_SYMBOLS[SUITS.index(code[0])] + code[1]


def cards_label(codes: str | None) -> str:
    return " ".join(card_label(c) for c in codes.split()) if codes else ""


def _group_lines(label: str, codes: str, view: dict[str, Any]) -> list[str]:
    """A suit as ranks only, bridge style ('♠ A K 7'); the trumps of 双升 as two lines, the
    jokers and level cards, then the trump suit ('主♠ A K 7')."""
    if label in SUIT_SYMBOLS:
        return [f"{label} " + " ".join(c[1] for c in codes.split())]
    trump = view["trump"]
    if label == "主" and trump in SUITS:
        split = [c for c in codes.split() if c[0] == trump and c[1] != view["level"]]
        rest = [c for c in codes.split() if c not in split]
        lines = [f"主 {cards_label(' '.join(rest))}"] if rest else []
        symbol = SUIT_SYMBOLS[SUITS.index(trump)]
        return lines + ([f"主{symbol} " + " ".join(c[1] for c in split)] if split else [])
    return [f"{label} " + cards_label(codes)]


def seat_title(seat: int, viewer: int | None) -> str:
    if viewer is None:
        where = SEAT_NAMES[seat]
    else:
        where = "you" if seat == viewer else _RELATIVE[(seat - viewer) % NUM_SEATS]
    return f"seat {seat} · {where}"


def seat_cell(view: dict[str, Any], seat: int) -> Text:
    info = view["seats"][seat]
    head = seat_title(seat, view["viewer"])
    if info["count"] is not None:
        head += f" · {info['count']} cards"
    out = Text(head, style="bold")
    badges = ([info["role"]] if info["role"] else []) + ([f"报{info['announced']}"] if info["announced"] else [])
    for badge in badges + info["flags"]:
        out.append("\n")
        out.append(f"[{badge}]", style="yellow")
    if info["hand"] is None:
        out.append("\n(hidden)", style="dim")
    else:
        for label, codes in info["hand"]:
            for line in _group_lines(label, codes, view):
                out.append("\n")
                out.append_text(coloured(line))
        if not info["hand"]:
            out.append("\n(no cards)", style="dim")
    for key, label in (("exposed", "exposed 暴露张"), ("penalty", "penalty 罚张"), ("on_table", "on the table")):
        if info[key]:
            out.append("\n")
            out.append_text(coloured(f"{label}: {cards_label(info[key])}", "bold"))
    return out


def pile_cell(view: dict[str, Any], limit: int = 9) -> Text:
    pile = view["pile"]
    out = Text(pile["title"] or " ", style="bold")
    plays = pile["plays"]
    top = max((k for k, p in enumerate(plays) if p[1] is not None and p[0] == pile["winner"]), default=-1)
    if len(plays) > limit:
        out.append(f"\n… {len(plays) - limit} earlier", style="dim")
    for k, (seat, codes, label) in enumerate(plays):
        if k < len(plays) - limit:
            continue
        line = f"{seat}: " + (label or "pass" if codes is None else cards_label(codes) + (f" {label}" if label else ""))
        out.append("\n")
        out.append_text(coloured(("▶" if k == top else " ") + line, "bold" if k == top else ""))
    if pile["note"]:
        out.append("\n" + pile["note"], style="yellow")
    last = view["last"]
    if paiju_part(view["game"]).shows_last_round and last and last["plays"]:
        shown = " | ".join(f"{s}: {cards_label(c)}" for s, c, _ in last["plays"] if c)
        out.append("\n")
        out.append_text(coloured(f"previous {last['title'].split(',')[0]}: {shown}", "dim"))
    return out


def info_line(view: dict[str, Any]) -> str:
    parts = [f"deal {view['deal']}"]
    if view["level"]:
        parts.append(f"level {view['level']}")
    if view["levels"]:
        parts.append(f"levels: side 0 at {view['levels'][0]}, side 1 at {view['levels'][1]}")
    if view["trump"]:
        parts.append("no trump" if view["trump"] == "NT" else f"trump {card_label(view['trump'] + '2')[0]}")
    if view["banker"] is not None:
        parts.append(f"banker {view['banker']}")
    if view["points"] is not None:
        parts.append(f"attackers {view['points']} pts")
    return " · ".join(parts)


def place_line(view: dict[str, Any], where: str) -> str:
    parts = [view["phase"]]
    if view["viewer"] is not None:
        parts.append(f"seat {view['viewer']}'s view")
    if view["unit"] is not None and view["unit_name"] == "match":
        parts.append(f"match {view['unit']}")
    return " · ".join(parts + [where])


def table_panel(view: dict[str, Any], caption: str) -> Panel:
    bottom = view["viewer"] if view["viewer"] is not None else 0
    south, east, north, west = ((bottom + k) % NUM_SEATS for k in range(NUM_SEATS))
    grid = Grid.grid(padding=(0, 1), expand=True)
    grid.add_column(ratio=28, overflow="fold")
    grid.add_column(ratio=42, overflow="fold")
    grid.add_column(ratio=28, overflow="fold")
    grid.add_row("", seat_cell(view, north), "")
    grid.add_row(seat_cell(view, west), Panel(pile_cell(view), box=box.ROUNDED, padding=(0, 1)), seat_cell(view, east))
    grid.add_row("", seat_cell(view, south), "")
    parts: list[Any] = [grid]
    lower = Text()
    for note in view["notes"]:
        lower.append_text(coloured(note + "\n", "dim"))
    kitty = view["kitty"]
    if kitty:
        shown = cards_label(kitty["cards"]) if kitty["cards"] else "face down"
        lower.append_text(coloured(f"kitty ({kitty['count']}{', ' + kitty['note'] if kitty['note'] else ''}): {shown}\n"))
    if view["result"]:
        lower.append(f"result: {view['result']}\n", style="bold")
    if lower.plain:
        lower.rstrip()
        parts.append(lower)
    return Panel(Group(*parts), title=Text(info_line(view)), title_align="left",
                 subtitle=Text(place_line(view, caption)), subtitle_align="right", box=box.ROUNDED)


def ruling_panels(view: dict[str, Any], latest_only: bool = False) -> list[Panel]:
    rulings = view["rulings"][-1:] if latest_only else view["rulings"]
    out = []
    for r in rulings:
        who = f"seat {r['offender']}" if r["offender"] is not None else "the table"
        body = Text()
        if r["kind"] == "unresolved":
            body.append(f"unresolved: {who} {r['irregularity']}; no clause fits, fallback\n", style="bold")
        else:
            body.append(f"ruling on {who}" + (f" (answers seq {r['answers']})" if r["answers"] not in (None, -1) else "") + "\n",
                        style="bold")
        if r["text_zh"]:
            body.append(r["text_zh"] + "\n")
        if r["summary"]:
            body.append(r["summary"] + "\n", style="italic")
        if r["said"] and r["said"] != r["summary"]:
            body.append(r["said"] + "\n")
        if r["facts"]:
            body.append(f"facts 事实: {r['facts']}\n", style="dim")
        for name, label in (("rectification", "rectification 纠正"), ("sanctions", "sanctions 处罚")):
            if r[name]:
                body.append(f"{label}: " + "; ".join(r[name]) + "\n")
        body.rstrip()
        out.append(Panel(body, title=Text(f"{r['clause']} {r['title']}", style="bold red"), title_align="left",
                         subtitle=f"seq {r['seq']}", subtitle_align="right", box=box.HEAVY))
    return out


def step_line(step: Step) -> Text:
    marker = {"ruling": "§ ", "irregular": "! "}.get(step.tags, "  ")
    style = {"ruling": "bold red", "irregular": "bold yellow"}.get(step.tags, "")
    line = Text(f"{step.label:>7} {marker}", style="dim")
    line.append_text(coloured(step.text, style))
    return line


def print_listing(fold: Fold, console: Console, tables: bool = True) -> int:
    """The step-by-step listing; returns the number of steps."""
    count = 0
    deal_key: tuple[Any, Any] | None = None
    for step in fold.steps():
        count += 1
        if step.kind == "unit":
            if fold.table.unit_name == "match":
                console.rule(Text(f"match {step.unit}"), characters="═", align="left")
        elif (step.unit, step.deal) != deal_key:
            deal_key = (step.unit, step.deal)
            console.rule(Text(f"deal {step.deal}"), characters="─", align="left")
        console.print(step_line(step))
        if step.tags == "ruling":
            for panel in ruling_panels(fold.table.view(), latest_only=True):
                console.print(panel)
        if tables and step.kind in TABLE_AFTER:
            console.print(table_panel(fold.table.view(), f"after seq {step.label} · line {step.line}"))
    return count


def print_table_at(fold: Fold, index: int, console: Console, context: int = 8) -> None:
    """The table after event ``index``, with the steps just before it (in its deal)."""
    for part in table_at(fold, index, context):
        console.print(part)


def table_at(fold: Fold, index: int, context: int = 8) -> list[Any]:
    """What ``print_table_at`` prints, made up front (the fold may move on before it is printed)."""
    recent: deque[Step] = deque(maxlen=context + 1)
    for step in fold.steps(until=index):
        if recent and (recent[-1].unit, recent[-1].deal) != (step.unit, step.deal):
            recent.clear()
        recent.append(step)
    view = fold.table.view()
    target = recent[-1]
    parts: list[Any] = [step_line(step) for step in recent]
    parts.append(table_panel(view, f"at seq {target.label} · line {target.line}"))
    earlier = len(view["rulings"]) - RULINGS_AT
    if earlier > 0:
        parts.append(Text(f"… {earlier} earlier ruling{'s' if earlier > 1 else ''} in this deal", style="dim"))
    parts.extend(ruling_panels({**view, "rulings": view["rulings"][-RULINGS_AT:]}))
    return parts
