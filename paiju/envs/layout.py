"""A flat observation vector made of named, fixed-shape fields (what both games' envs
hand out as ``observation``): one allocation per step, and ``unpack`` gives the fields
back as named arrays (views)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from gymnasium import spaces

CARD_KINDS = 54
SEATS = 4
DTYPE = np.int16


class Layout:
    """Fields ``(name, shape, low, high, meaning)`` laid end to end in one int16 vector."""

    def __init__(self, fields: Sequence[tuple[str, tuple[int, ...], int, int, str]]) -> None:
        self.fields = tuple(fields)
        self.slices: dict[str, slice] = {}
        self.shapes: dict[str, tuple[int, ...]] = {}
        lows: list[np.ndarray] = []
        highs: list[np.ndarray] = []
        at = 0
        for name, shape, low, high, _meaning in self.fields:
            size = int(np.prod(shape)) if shape else 1
            self.slices[name] = slice(at, at + size)
            self.shapes[name] = shape
            lows.append(np.full(size, low, DTYPE))
            highs.append(np.full(size, high, DTYPE))
            at += size
        self.size = at
        self.low = np.concatenate(lows)
        self.high = np.concatenate(highs)

    def offset(self, name: str) -> int:
        return self.slices[name].start

    def space(self) -> spaces.Box:
        return spaces.Box(self.low, self.high, (self.size,), DTYPE)

    def unpack(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The fields of an observation vector as named arrays (views; scalars as 0-d)."""
        if vector.shape != (self.size,):
            raise ValueError(f"expected an observation of shape ({self.size},), got {vector.shape}")
        return {name: vector[self.slices[name]].reshape(self.shapes[name]) for name in self.slices}

    def table(self) -> str:
        """The layout as a Markdown table (docs/guides/training-agents.md)."""
        rows = ["| field | offset | shape | values | meaning |", "|---|---|---|---|---|"]
        for name, shape, low, high, meaning in self.fields:
            rows.append(f"| `{name}` | {self.offset(name)} | {shape or '()'} | {low}…{high} | {meaning} |")
        return "\n".join(rows)


def relative(seat: int, me: int) -> int:
    """A seat as seen from ``me``: 0 me, 1 my 下家 (next), 2 my partner, 3 my 上家."""
    return (seat - me) % SEATS


def add_cards(out: np.ndarray, at: int, cards: Sequence[int]) -> None:
    """Count ``cards`` (card indices) into ``out[at:at + 54]``."""
    if cards:
        out[at:at + CARD_KINDS] += np.bincount(np.fromiter(cards, np.intp, len(cards)), minlength=CARD_KINDS)


def cards_of(counts: np.ndarray) -> tuple:
    """The cards of a 54-count row, in tabletop's canonical order."""
    from tabletop.cards import from_counts

    return tuple(from_counts(counts.astype(np.int64)))
