"""The legal actions at one decision of a 掼蛋 deal, as a lazy sequence (strict and
refereed mode alike)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from guandan.actions import Action, Pass, Play
from guandan.movegen import Move
from tabletop.cards import Card


class LegalActions(Sequence):
    """The legal actions at one decision, built lazily: a random agent that picks one
    index never pays for building hundreds of Play objects. Pass (when legal) is first."""

    __slots__ = ("seat", "moves", "can_pass", "_built", "_last")

    def __init__(self, seat: int, moves: list[Move], can_pass: bool) -> None:
        self.seat = seat
        self.moves = moves
        self.can_pass = can_pass
        self._built: dict[int, Action] = {}
        self._last: Action | None = None

    def __len__(self) -> int:
        return len(self.moves) + self.can_pass

    def __getitem__(self, index: Any) -> Any:
        action = self._built.get(index)
        if action is not None:
            self._last = action
            return action
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self.moves) + self.can_pass
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError("legal action index out of range")
        if self.can_pass and i == 0:
            action = Pass(self.seat)
        else:
            move = self.moves[i - self.can_pass]
            action = _play_of(self.seat, move.cards, move.reading)
        self._built[index] = self._last = action
        return action

    def handed_out(self, action: Any) -> bool:
        """Whether ``action`` is one of the objects this list built (so it is legal)."""
        return action is self._last or any(a is action for a in self._built.values())

    def __repr__(self) -> str:
        return f"LegalActions(seat={self.seat}, {len(self)} actions)"


def _play_of(seat: int, cards: tuple[Card, ...], reading: Any) -> Play:
    """A Play from a move's (already canonical) cards, skipping the converters."""
    play = object.__new__(Play)
    object.__setattr__(play, "seat", seat)
    object.__setattr__(play, "cards", cards)
    object.__setattr__(play, "reading", reading)
    return play


class _Choices(LegalActions):
    """Legal tribute or return choices (few, built eagerly)."""

    __slots__ = ("_count",)

    def __init__(self, seat: int, actions: list[Action]) -> None:
        super().__init__(seat, [], False)
        self._built = dict(enumerate(actions))
        self._count = len(actions)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        i = index + self._count if index < 0 else index
        if not 0 <= i < self._count:
            raise IndexError("legal action index out of range")
        return self._built[i]

    def __len__(self) -> int:
        return self._count
