"""报牌 (GD-4.2): the report step, a missing or wrong report that comes to light later
(``LatentReport``) at the stage the table reaches."""

from __future__ import annotations

from typing import Any

import attrs

from guandan import events as ev
from guandan.actions import Report, action_to_data
from guandan.observation import Phase
from guandan.refereed import core, snapshot
from tabletop.errors import IllegalAction
from tabletop.irregular import facts as make_facts
from tabletop.seats import next_seat, partner, seats_from

REPORT_LIMIT = 10


@attrs.define(slots=True, eq=False)
class LatentReport:
    """A missing or wrong 报牌 nobody noticed yet (GD-4.2), to come to light at ``target``;
    ``snap0`` / ``snap_partner``: the play as it was then / before the partner first acted
    after it (GD-4.2.2 take-back)."""

    seq: int
    seat: int
    target: int
    irregularity: str
    count: int | None
    snap0: dict
    acted: list[int] = attrs.Factory(list)
    """Other seats that played or passed since the unreported play."""
    played: list[int] = attrs.Factory(list)
    """Other seats that played (出牌) since: GD-4.2.2 needs the 下家 among them."""
    plays_since: int = 0
    snap_partner: dict | None = None


def report(deal: Any, a: Report, handed: bool) -> None:
    t = deal.table
    if t.report_due != a.seat:
        if deal.phase is not Phase.PLAY:
            raise IllegalAction("no report now")
        core.attempt(deal, a, "report_repeated", count=a.count, announced=deal.announced[a.seat])
        return
    true = deal.sizes[a.seat]
    if a.count == true:
        t.report_due = None
        deal.announced[a.seat] = true
        deal.stream.emit(ev.CountReported, seat=a.seat, count=true)
        return
    irregularity = "report_missing" if a.count is None else "report_wrong"
    t.report_due = None
    if a.count is not None:
        deal.announced[a.seat] = a.count
    stage = a.discovered
    if stage > 1 and t.latent_report is not None:
        stage = 1  # one unnoticed 报牌 irregularity at a time: a second one is noticed at once
    info = make_facts(count=a.count, holds=true, stage=stage, requested_stage=a.discovered)
    if stage == 1:
        e = deal.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity=irregularity,
                             action=action_to_data(a), facts=info)
        core.await_ruling(deal, e.seq, irregularity, a.seat, e)
        return
    e = deal.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity=irregularity,
                         action=action_to_data(a), facts=info, latent=True)
    t.latent_report = LatentReport(e.seq, a.seat, a.discovered, irregularity, a.count, snapshot.take(deal))


def discover(deal: Any, stage: int | None) -> None:
    """The latent report comes to light at ``stage`` (None: the deal would end now)."""
    t = deal.table
    lr = t.latent_report
    n = first_after(deal, lr.seat)
    n_played = n in lr.played  # 出牌: a pass is not a play (GD-4.2.2)
    at_end = stage is None
    if at_end:
        stage = 4 if lr.plays_since >= 2 else 3 if lr.plays_since == 1 else 2 if n_played else 1
    t.latent_report = None if stage != 2 else lr
    core.found(deal, lr.seq, lr.irregularity, lr.seat, stage=stage, at_deal_end=at_end,
                  acted=tuple(lr.acted), played=tuple(lr.played),
                  partner_acted=partner(lr.seat) in lr.acted,
                  partner_out=partner(lr.seat) in deal.finish_order,
                  count=lr.count, holds=deal.sizes[lr.seat] + len(t.on_table.get(lr.seat, ())))


def first_after(deal: Any, seat: int) -> int:
    """The seat that acted first after ``seat`` (its 下家 still in play)."""
    for s in seats_from(next_seat(seat))[:3]:
        if deal.sizes[s] and s not in deal.table.placed_last:
            return s
    return next_seat(seat)


def report_again(deal: Any, seat: int) -> None:
    """ReportAgain: ``seat`` announces its true count."""
    laid = len(deal.table.on_table.get(seat, ()))
    deal.announced[seat] = deal.sizes[seat] + laid
    deal.stream.emit(ev.CardsReported, seat=seat, count=deal.sizes[seat] + laid)


def drop_latent_report(deal: Any) -> None:
    deal.table.latent_report = None


def on_report_again(deal: Any, effect: Any, plan: Any) -> None:
    report_again(deal, effect.seat)


def on_turn(deal: Any, seat: int, leading: bool) -> Any:
    """The turn hook: a GD-4.2.1 / 4.2.2 report comes to light when the table reaches its
    stage; the play is snapshot before the offender's partner first acts (GD-4.2.2)."""
    lr = deal.table.latent_report
    if lr is None:
        return core.NEXT
    if lr.target == 2:
        first = first_after(deal, lr.seat)
        if first in lr.acted and first not in lr.played:
            discover(deal, 1)  # the 下家 passed: not yet 出牌, still GD-4.2.1
            return core.WAIT
        if seat == lr.seat and first in lr.played:
            discover(deal, 2)
            return core.WAIT
    if seat == partner(lr.seat) and lr.snap_partner is None:
        lr.snap_partner = snapshot.take(deal)
    return core.NEXT
