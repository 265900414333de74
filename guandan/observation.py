"""What one seat may see of a 掼蛋 deal: its own hand and everything public.

Public: the level, phase, whose turn, the current top play and who passed on it, each
seat's announced card count (报牌; None = not announced, i.e. more than 10 as far as the
table is told), every card played so far per seat, the finishing order, the tribute
and return cards, and the face-up card of a first deal. Never another seat's hidden cards."""

from __future__ import annotations

import enum

import attrs

from guandan.combos import Reading
from tabletop.cards import Card


class Phase(enum.Enum):
    DRAW = "draw"
    TRIBUTE = "tribute"
    RETURN = "return"
    PLAY = "play"
    SCORED = "scored"


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


@attrs.frozen(kw_only=True)
class Observation:
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

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4
