"""The decisions a 掼蛋 seat makes: play, pass, give tribute, return a card.

Every action is a frozen record naming its seat. A play carries its cards in canonical
order and the declared reading (a set of cards can have several readings, and each one
is a distinct action)."""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from guandan.combos import Reading
from tabletop.cards import Card, as_cards, format_cards, sort_cards


def _canonical_cards(cards: "str | Iterable[Card | int | str]") -> tuple[Card, ...]:
    return tuple(sort_cards(as_cards(cards)))


def _as_reading(reading: "Reading | str") -> Reading:
    return Reading.from_code(reading) if isinstance(reading, str) else reading


@attrs.frozen
class Play:
    """Lay ``cards`` down as ``reading`` (a Reading or its code, e.g. ``"PAIR 9"``)."""

    seat: int
    cards: tuple[Card, ...] = attrs.field(converter=_canonical_cards)
    reading: Reading = attrs.field(converter=_as_reading)

    def __str__(self) -> str:
        return f"seat {self.seat} plays {format_cards(self.cards)} as {self.reading.code}"


@attrs.frozen
class Pass:
    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} passes"


@attrs.frozen
class GiveTribute:
    """进贡: the payer gives ``card`` (its choice among the copies of the required rank)."""

    seat: int
    card: Card = attrs.field(converter=Card)

    def __str__(self) -> str:
        return f"seat {self.seat} gives tribute {self.card}"


@attrs.frozen
class ReturnCard:
    """还贡: the tribute receiver returns ``card`` to its own payer."""

    seat: int
    card: Card = attrs.field(converter=Card)

    def __str__(self) -> str:
        return f"seat {self.seat} returns {self.card}"


Action = Play | Pass | GiveTribute | ReturnCard
