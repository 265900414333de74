"""GD-5.1 / 5.2: the procedure of the next deal (a lone deal records it; a match applies it)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from guandan import events as ev
from guandan.refereed.state import table_of

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


def schedule_next_deal(deal: Deal, *, no_tribute_seats: Iterable[int] = (), no_tribute: bool = False,
                       shuffler: int | None = None, cutter: int | None = None,
                       first_drawer: int | None = None, leader: int | None = None) -> list:
    """A lone deal's next-deal procedure (GD-5.1 / GD-5.2): recorded as an event and in
    ``table.next_deal`` (a Match applies its own ``schedule_next_deal``)."""
    t = table_of(deal)
    no_tribute = no_tribute or leader is not None
    t.next_deal = dict(no_tribute_seats=tuple(sorted(set(no_tribute_seats))), no_tribute=no_tribute,
                       shuffler=shuffler, cutter=cutter, first_drawer=first_drawer, leader=leader)
    deal.stream.emit(ev.NextDealScheduled, **t.next_deal)
    return []


def scheduled(deal: Deal, match: Any) -> dict[str, Any] | None:
    if match is not None:
        s = match.scheduled
        return None if s is None else dict(
            no_tribute_seats=s.no_tribute_seats, no_tribute=s.no_tribute, shuffler=s.shuffler,
            cutter=s.cutter, first_drawer=s.first_drawer, leader=s.leader)
    return table_of(deal).next_deal


def schedule(deal: Deal, match: Any, **procedure: Any) -> None:
    if match is None:
        schedule_next_deal(deal, **procedure)
    elif match.ended is None:            # the match is over: no next deal to set up
        match.set_next_deal(**procedure)


def on_no_tribute_next_deal(deal: Deal, effect: Any, plan: Any) -> None:
    """GD-5.1: ``seat`` gives no tribute next deal (added to the procedure in force)."""
    current = scheduled(deal, plan.match)
    if current is None:
        schedule(deal, plan.match, no_tribute_seats=(effect.seat,))
        return
    merged = dict(current)
    merged["no_tribute_seats"] = tuple(sorted(set(current["no_tribute_seats"]) | {effect.seat}))
    schedule(deal, plan.match, **merged)


def on_next_deal_procedure(deal: Deal, effect: Any, plan: Any) -> None:
    """GD-5.2: no tribute next deal; the shuffler, cutter, first drawer and leader named."""
    schedule(deal, plan.match, no_tribute=True, shuffler=effect.shuffler, cutter=effect.cutter,
              first_drawer=effect.first_drawer, leader=effect.leader)
