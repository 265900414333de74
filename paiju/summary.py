"""One structure for a run's results, printed as tables and written as JSON.

A ``Summary`` is a title and sections of ``Row``s; each row holds its result (``value``,
what the JSON gets at ``section.key`` / ``row.key``) and the text printed for it, made
from that value when the row is made. The terminal tables (``print_tables``) and the
``results`` of ``--summary`` (``Summary.data``) are two renderings of the same rows, so
neither can hold a result the other lacks; ``per_unit`` adds the per-unit lists behind the
spreads (JSON only: one number per deal or match).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text


@attrs.frozen
class Row:
    label: str
    """As printed (left column)."""
    key: str
    """Its key in its section's JSON object."""
    value: Any
    """The result: a count, a number, a spread (mean, median, min, max) or an object of them."""
    text: str
    """As printed (right column), made from ``value``."""


@attrs.frozen
class Section:
    heading: str
    key: str
    """Where its rows go in the JSON: a key, or a dotted path into an enclosing section
    (``referee.by_clause``)."""
    rows: tuple[Row, ...]
    empty: str = "none"
    """Printed when there are no rows (the JSON gets an empty object)."""
    note: str = ""
    """Printed under the table: what its terms mean (terminal only)."""


@attrs.frozen
class Summary:
    """A titled list of sections of rows (see the module): printed as tables, and the same
    results as data (no timings)."""

    title: str
    unit: str
    """'deals' or 'matches'."""
    count: int
    sections: tuple[Section, ...]
    per_unit: dict[str, list[Any]] = attrs.field(factory=dict)

    @property
    def data(self) -> dict[str, Any]:
        """The results as JSON: ``{unit: count, section key: {row key: value}, …, "per_unit": …}``."""
        out: dict[str, Any] = {self.unit: self.count}
        for section in self.sections:
            place = out
            *outer, last = section.key.split(".")
            for key in outer:
                place = place.setdefault(key, {})
            if last in place:
                raise ValueError(f"two sections write {section.key!r}")
            place[last] = {row.key: row.value for row in section.rows}
        if self.per_unit:
            out["per_unit"] = self.per_unit
        return out

    def with_sections(self, sections: Iterable[Section], title: str | None = None) -> "Summary":
        return attrs.evolve(self, sections=self.sections + tuple(sections), title=title or self.title)


# ---------------------------------------------------------------------------------------------
# Rows


def count_row(label: str, key: str, count: int, whole: int | None = None) -> Row:
    """A count, printed with its share of ``whole`` when one is given: '3 (37.5%)'."""
    return Row(label, key, count, share(count, whole) if whole is not None else str(count))


def value_row(label: str, key: str, value: Any, text: str | None = None) -> Row:
    return Row(label, key, value, str(value) if text is None else text)


def spread_row(label: str, key: str, values: Sequence[float]) -> Row:
    """Mean, median, min and max of ``values`` ('-' and null for none)."""
    if not values:
        return Row(label, key, None, "-")
    spread = {"mean": round(mean(values), 3), "median": median(values),
              "min": min(values), "max": max(values)}
    return Row(label, key, spread, f"mean {spread['mean']:.1f}, median {spread['median']:g}, "
                                   f"min {spread['min']:g}, max {spread['max']:g}")


def mean(values: Sequence[float]) -> float:
    """``statistics.fmean`` (its formula: ``fsum`` over the count), without importing
    ``statistics`` into every run (≈1 ms)."""
    return math.fsum(values) / len(values)


def median(values: Sequence[float]) -> float:
    """``statistics.median`` (the middle value, or the mean of the middle two)."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def share(part: int, whole: int) -> str:
    return f"{part} ({100.0 * part / whole:.1f}%)" if whole else str(part)


def counted(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless one: '1 deal', '3 matches', '0 levels'."""
    if n == 1:
        return f"1 {noun}"
    if noun.endswith("y") and noun[-2:-1] not in tuple("aeiou"):   # irregularity → irregularities
        return f"{n} {noun[:-1]}ies"
    return f"{n} {noun}{'es' if noun.endswith(('ch', 'sh', 's', 'x')) else 's'}"


def unit_noun(unit: str) -> str:
    """'deals' → 'deal', 'matches' → 'match'."""
    return unit[:-2] if unit.endswith("ches") else unit.removesuffix("s")


# ---------------------------------------------------------------------------------------------
# The terminal


def print_tables(summary: Summary, console: Console | None = None) -> None:
    """The title, then one two-column table per section."""
    console = console or Console(highlight=False)
    console.print(f"[bold]{summary.title}[/bold]", highlight=False)
    for section in summary.sections:
        console.print(Text(section.heading, style="italic"))   # not a title: a title wraps at the table's width
        table = Table(show_header=False, box=box.SIMPLE)
        table.add_column(style="cyan")
        table.add_column()
        for row in section.rows:
            table.add_row(row.label, row.text)
        if not section.rows:
            table.add_row("-", section.empty)
        console.print(table)
        if section.note:   # under the table, as wide as the screen (a caption wraps at the table's width)
            console.print(Text(f"  {section.note}", style="dim"))
            console.print()
