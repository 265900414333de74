"""GD-7: information a side may not use (an observation flag)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import attrs

from guandan import events as ev
from guandan.observation import UnauthorisedItem
from guandan.refereed.state import table_of
from tabletop.cards import Card, codes, sort_cards
from tabletop.rulings import refuse

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


@attrs.define(slots=True)
class UnauthorisedMark:
    """GD-7: ``seat`` may not use what ``item`` shows."""

    seat: int
    item: UnauthorisedItem


def mark_unauthorised(deal: Deal, seats: Iterable[int], source: int, cards: Iterable[Card], what: str) -> None:
    """GD-7: ``seats`` may not use what ``cards`` of ``source`` show (an observation flag)."""
    t = table_of(deal)
    cards = tuple(sort_cards(cards))
    seats = tuple(sorted(set(seats)))
    for s in seats:
        t.unauthorised.append(UnauthorisedMark(s, UnauthorisedItem(what, source, cards)))
    deal.stream.emit(ev.UnauthorisedInformation, seats=seats, source=source, cards=codes(cards), what=what)


def on_unauthorised(deal: Deal, effect: Any, plan: Any) -> None:
    """GD-7: ``seats`` may not use what the information shows."""
    if effect.source is None:
        raise refuse(effect, "names no seat the information came from")
    mark_unauthorised(deal, effect.seats, effect.source, [Card(c) for c in effect.cards],
                           effect.what or plan.reason)
