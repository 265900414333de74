"""Point penalties given before the banker is known wait for it (``DeferredPenalty``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from shengji.events import PointsAdjusted
from shengji.phase import Phase
from shengji.refereed.state import table_of
from tabletop.seats import team

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from shengji.deal import Deal


@attrs.define(slots=True)
class DeferredPenalty:
    """A point penalty given before the banker is known, waiting for it."""

    offender: int
    points: int
    reason: str


def adjust_points_deferred(deal: Deal, offender: int, points: int, reason: str) -> None:
    table_of(deal).deferred.append(DeferredPenalty(offender, points, reason))


def banker_known(deal: Deal) -> None:
    """The banker is known: point penalties given during the draw take effect."""
    t = table_of(deal)
    banker = deal.banker
    assert banker is not None, "called once the banker is known"
    for penalty in t.deferred:
        offender, points, reason = penalty.offender, penalty.points, penalty.reason
        delta = points if team(offender) == team(banker) else -points
        deal.adjustments += ((reason, delta),)
        deal.stream.emit(PointsAdjusted, seat=offender, points=points, attackers_delta=delta, reason=reason)
    t.deferred = []


def on_point_penalty(deal: Deal, row: Any, plan: Any) -> None:
    """罚分: points move towards the non-offending side (rulings come before the deal is
    scored; during the draw they wait for the banker)."""
    if deal.phase is not Phase.SCORED:
        offender = row.seat if row.seat is not None else row.side     # seat `side` is on that side
        deal.move_points(offender, row.sanction.n, f"PointPenalty {row.clause}")
