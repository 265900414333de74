"""What one seat may see of a 掼蛋 deal: its own hand and everything public.

Public: the level, phase, whose turn, the current top play and who passed on it, each
seat's announced card count (报牌; None = not announced, i.e. more than 10 as far as the
table is told), every card played so far per seat, the finishing order, the tribute
and return cards, and the face-up card of a first deal. Never another seat's hidden cards.

Refereed mode adds the public table state (exposed and penalty cards, bars, seats judged
last, cards laid on the table, what the table is doing, the choice asked of this seat, its
lead restriction) and the GD-7 flag ``unauthorised``: what this seat knows but may not use."""

from __future__ import annotations

import copyreg
import enum
from collections.abc import Callable
from typing import Any, cast

import attrs
from mypy_extensions import mypyc_attr

from guandan.combos import Reading
from tabletop.cards import Card


class Phase(enum.Enum):
    DRAW = "draw"
    TRIBUTE = "tribute"
    RETURN = "return"
    PLAY = "play"
    SCORED = "scored"
    AWAITING_RULING = "awaiting_ruling"
    """Refereed mode: an irregularity waits for the referee (nobody is to act)."""


@attrs.frozen
class TopPlay:
    """The play to beat in the current round."""

    seat: int
    cards: tuple[Card, ...]
    reading: Reading


@attrs.frozen
class TributeRecord:
    """A tribute or return card that changed hands (public). ``kind``: 'tribute' or 'return'."""

    kind: str
    giver: int
    taker: int
    card: Card


@attrs.frozen
class UnauthorisedItem:
    """A piece of information a seat may not use (GD-7): ``what`` (e.g. 'exposed cards',
    'partner took back', 'incident: …'), whose cards (``source``) and which."""

    what: str
    source: int
    cards: tuple[Card, ...] = ()


@mypyc_attr(native_class=False)  # compiled builds: its subclass is an attrs class, a Python class
class _Deferred:
    """Base of ``Observation``: an observation may be made from a snapshot, its fields
    filled on first access (the runner asks for an observation at every decision; a random
    agent never reads it). ``_snapshot`` is (fill, args): the fields are the keywords
    ``fill(*args)`` returns; nothing in ``args`` may change afterwards. A subclass is a
    frozen attrs dict class whose fields have plain defaults (no factories, converters or
    validators): filling sets its ``__dict__`` at once, what its ``__init__`` would make."""

    __slots__ = ("_snapshot",)

    def __getattr__(self, name: str) -> Any:
        # Python calls this only for an attribute not set: a deferred field, or a missing one.
        if name == "_snapshot" or not self._fill():
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return object.__getattribute__(self, name)

    def _fill(self) -> bool:
        """Fill the fields from the snapshot (False: there is none, they are filled)."""
        snapshot = getattr(self, "_snapshot", None)
        if snapshot is None:
            return False
        fill, args = snapshot
        object.__setattr__(self, "_snapshot", None)
        cls = type(self)
        defaults = _FIELD_DEFAULTS.get(cls)
        if defaults is None:
            defaults = _FIELD_DEFAULTS[cls] = {field.name: field.default for field in attrs.fields(cast(Any, cls))
                                               if field.default is not attrs.NOTHING}
        filled = defaults.copy()
        filled.update(fill(*args))
        object.__setattr__(self, "__dict__", filled)
        return True

    def __reduce__(self) -> tuple:
        self._fill()
        return (_NEW_OBJECT, (type(self),), dict(self.__dict__))


_FIELD_DEFAULTS: dict[type, dict[str, Any]] = {}
"""Per deferred class: its fields' defaults."""
_NEW_OBJECT = copyreg.__newobj__  # type: ignore[attr-defined]  # pickle's NEWOBJ: object.__new__(cls)


@attrs.frozen(kw_only=True, slots=False)   # a dict class: see _Deferred
class Observation(_Deferred):
    seat: int
    hand: tuple[Card, ...]
    level: int
    """The deal's level as a rank index ('2' = 0 … 'A' = 12)."""
    phase: Phase
    to_act: int | None
    leader: int | None
    """The seat that led the current round."""
    top: TopPlay | None
    passed: tuple[int, ...]
    """Seats that passed since the top play, in order."""
    announced: tuple[int | None, ...]
    """Per seat: the count it last announced (0 once it has gone out); None = more than 10."""
    played: tuple[tuple[Card, ...], ...]
    """Per seat: every card it has played this deal, in order."""
    finish_order: tuple[int, ...]
    tributes: tuple[TributeRecord, ...]
    tribute_resisted: bool
    face_up: tuple[int, Card] | None = None
    """明牌 of a first deal: (the seat that drew it, the card), public since the draw."""

    # Refereed mode (strict mode leaves the defaults). All public: every seat sees them.
    exposed: tuple[tuple[Card, ...], ...] = ((), (), (), ())
    """Per seat: its exposed cards (暴露张, penalty cards included), face up, still its own."""
    penalty: tuple[tuple[Card, ...], ...] = ((), (), (), ())
    """Per seat: those of its exposed cards that are penalty cards (罚张, GD-6)."""
    barred: tuple[int, ...] = ()
    """Seats barred from their next play in this round (禁出一手)."""
    placed_last: tuple[int, ...] = ()
    """Seats judged 下游 (单下) that play no more."""
    on_table: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    """Cards laid on the table but not (yet) part of the play: an out-of-turn play, a wrong
    play waiting for the ruling, a card drawn out of turn."""
    situation: str | None = None
    """What the table is doing apart from ordinary play: 'draw', 'report' (a 报牌 is due),
    'choice', 'out_of_turn' (the next player answers an out-of-turn play), 'correction',
    'pass_sequence', 'awaiting_ruling'; None otherwise."""
    choice: tuple[str, tuple[str, ...]] | None = None
    """(purpose, options) when this seat is asked to choose."""
    restriction: tuple[str, str] | None = None
    """This seat's next lead: ('forbid' | 'require' | 'cards', kind)."""
    stock_left: int = 0
    """Cards still to draw (draw phase)."""
    unauthorised: tuple["UnauthorisedItem", ...] = ()
    """GD-7 flag: information this seat has but may not use (its own side's exposed cards,
    its partner's taken-back plays …). Built-in agents never read it."""

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4

    @classmethod
    def deferred(cls, fill: Callable[..., dict[str, Any]], args: tuple) -> "Observation":
        """An observation whose fields (the constructor's keywords) are ``fill(*args)``,
        computed when first read. ``args`` is a snapshot: nothing in it changes later."""
        obs = object.__new__(cls)
        object.__setattr__(obs, "_snapshot", (fill, args))
        return obs
