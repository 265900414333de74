"""The legal actions at one decision of a 掼蛋 deal, as a lazy sequence, and why an action
is illegal (``Illegality``, what ``Deal.illegality`` answers): strict and refereed mode
alike."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from guandan.actions import Action, Pass, Play
from guandan.movegen import Move, Plays
from tabletop.cards import Card

RECORDED = frozenset({"play_out_of_turn", "announce_out_of_turn", "pass_on_lead", "wrong_kind",
                      "does_not_beat", "wrong_tribute", "wrong_return"})
"""The ``Illegality`` codes a refereed table records as an irregular attempt (it refuses
the others, as strict mode refuses every one)."""


class Illegality(NamedTuple):
    """Why an action may not be applied now (``Deal.illegality``)."""

    code: str
    message: str
    facts: dict[str, Any] = {}


class LegalActions(Sequence):
    """The legal actions at one decision, built lazily: a random agent that picks one
    index never pays for building hundreds of Play objects (nor, with ``movegen.plays``,
    for their cards). Pass (when legal) is first."""

    __slots__ = ("seat", "moves", "can_pass", "ordinary_hand_size", "_count", "_built", "_last")

    def __init__(self, seat: int, moves: Sequence[Move], can_pass: bool, ordinary_hand_size: int = -1) -> None:
        self.seat = seat
        self.moves = moves
        self.can_pass = can_pass
        self.ordinary_hand_size = ordinary_hand_size
        """At a play in turn with no ruling, choice, 报牌 or pass sequence pending (the seat
        leads exactly when it may not pass): the seat's number of cards; else -1. What an
        infraction injector needs to tell what it could commit without observing."""
        self._count = len(moves) + can_pass
        self._built: dict[int, Action] = {}
        self._last: Action | None = None

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: Any) -> Any:
        if type(index) is int and 0 <= index < self._count:  # what an agent asks
            action = self._built.get(index)
            if action is None:
                if not self.can_pass:
                    action = self._play_at(index)
                elif index:
                    action = self._play_at(index - 1)
                else:
                    action = _pass_of(self.seat)
                self._built[index] = action
            self._last = action
            return action
        action = self._built.get(index)
        if action is not None:
            self._last = action
            return action
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        n = self._count
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError("legal action index out of range")
        if self.can_pass:
            if i == 0:
                action = _pass_of(self.seat)
            else:
                move = self.moves[i - 1]
                action = _play_of(self.seat, move.cards, move.reading)
        else:
            move = self.moves[i]
            action = _play_of(self.seat, move.cards, move.reading)
        self._built[index] = self._last = action
        return action

    def _play_at(self, i: int) -> Play:
        """The Play of move ``i`` (0 <= i < len(moves)); from a lazy listing, its cards are
        made for this move only and no Move is made."""
        moves = self.moves
        cards, reading = moves.made(i) if type(moves) is Plays else moves[i]
        return _play_of(self.seat, cards, reading)

    def __iter__(self) -> Iterator[Action]:
        # Through the moves' own iteration (a lazy listing makes each class's moves once).
        built, seat = self._built, self.seat
        if self.can_pass:
            yield self[0]
        for i, move in enumerate(self.moves, self.can_pass):
            action = built.get(i)
            if action is None:
                action = built[i] = _play_of(seat, move.cards, move.reading)
            self._last = action
            yield action

    def handed_out(self, action: Any) -> bool:
        """Whether ``action`` is one of the objects this list built (so it is legal)."""
        return action is self._last or any(a is action for a in self._built.values())

    def __repr__(self) -> str:
        return f"LegalActions(seat={self.seat}, {len(self)} actions)"

    # Pickle and copy written out (a deal keeps its legal actions, an environment's snapshot
    # pickles the deal): compiled builds make this a native class, which has no default.
    def __reduce__(self) -> tuple[Any, ...]:
        return (LegalActions, (self.seat, self.moves, self.can_pass, self.ordinary_hand_size),
                (self._count, self._built, self._last))

    def __setstate__(self, state: tuple[int, dict[int, Action], Action | None]) -> None:
        self._count, self._built, self._last = state


_new = object.__new__
_SET_PLAY_SEAT, _SET_PLAY_CARDS, _SET_PLAY_READING = (Play.__dict__[name].__set__ for name in ("seat", "cards", "reading"))
_SET_PASS_SEAT = Pass.__dict__["seat"].__set__
"""The slots' setters of the frozen attrs classes Play and Pass (no attribute look-up by name)."""


def _play_of(seat: int, cards: tuple[Card, ...], reading: Any) -> Play:
    """A Play from a move's (already canonical) cards, skipping the converters."""
    play = _new(Play)
    _SET_PLAY_SEAT(play, seat)
    _SET_PLAY_CARDS(play, cards)
    _SET_PLAY_READING(play, reading)
    return play


def _pass_of(seat: int) -> Pass:
    """``Pass(seat)`` without the attrs constructor call (the most frequent action)."""
    action = _new(Pass)
    _SET_PASS_SEAT(action, seat)
    return action


class _Choices(LegalActions):
    """Legal tribute or return choices (few, built eagerly)."""

    __slots__ = ()

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

    def __iter__(self) -> Iterator[Action]:
        return iter(self._built.values())

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Choices, (self.seat, []), (self._count, self._built, self._last))
