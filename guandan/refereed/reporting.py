"""报牌 (GD-4.2): the report step, a missing or wrong report that comes to light later
(``LatentReport``) at the stage the table reaches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from guandan import events as ev
from guandan.actions import Report, action_to_data
from guandan.observation import Phase
from guandan.refereed import state
from guandan.refereed.state import table_of
from tabletop import refereed
from tabletop.errors import IllegalAction
from tabletop.rulings import facts as make_facts
from tabletop.seats import partner

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal

REPORT_LIMIT = 10


@attrs.define(slots=True, eq=False)
class PlaySince:
    """A play another seat made since the wrong report: ``point``, where its action stands in
    the deal's record (taking it back rebuilds the deal up to there); ``round``, the lead (圈)
    it was made in (``table.lead_count``)."""

    seat: int
    point: int
    round: int


@attrs.define(slots=True, eq=False)
class LatentReport:
    """A missing or wrong 报牌 nobody noticed yet (GD-4.2), to come to light at stage
    ``target`` (stage 2: ``rounds_later`` rounds after ``round``, the one it was made in)."""

    seq: int
    seat: int
    target: int
    irregularity: str
    count: int | None
    round: int
    rounds_later: int = 0
    acted: list[int] = attrs.Factory(list)
    """Other seats that played or passed since the unreported play."""
    played: list[int] = attrs.Factory(list)
    """Other seats that played (出牌) since."""
    next_seat: int | None = None
    """The first seat to act after the offender (its 下家 in play; None: nobody acted yet):
    once it has played (出牌) it is GD-4.2.2; a pass is not a play (GD-4.2.1 still applies)."""
    plays: list[PlaySince] = attrs.Factory(list)
    plays_since: int = 0
    """The offender's own plays since that went through unnoticed (GD-4.2.4)."""
    found: bool = False
    asking: list[PlaySince] = attrs.Factory(list)
    """GD-4.2.2: the plays of this round whose seats are still to be asked whether they take
    theirs back, in play order (the first one is being asked)."""
    cited: str = ""
    """The clause the ruling that offered the take-back cited (its reason): a take-back cites it."""


def report(deal: Deal, a: Report, handed: bool) -> None:
    t = table_of(deal)
    if t.report_due != a.seat:
        if deal.phase is not Phase.PLAY:
            raise IllegalAction("no report now")
        refereed.attempt(deal, a, "report_repeated", count=a.count, announced=deal.announced[a.seat])
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
    later = {"rounds_later": a.rounds_later} if stage == 2 and a.rounds_later else {}
    info = make_facts(count=a.count, holds=true, stage=stage, requested_stage=a.discovered, **later)
    if stage == 1:
        e = deal.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity=irregularity,
                             action=action_to_data(a), facts=info)
        refereed.await_ruling(deal, e.seq, irregularity, a.seat, e)
        return
    e = deal.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity=irregularity,
                         action=action_to_data(a), facts=info, latent=True)
    t.latent_report = LatentReport(e.seq, a.seat, a.discovered, irregularity, a.count, t.lead_count,
                                   a.rounds_later if a.discovered == 2 else 0)


def followed(deal: Deal, lr: LatentReport, seat: int, cards: int) -> None:
    """Another seat played (``cards`` > 0) or passed since the unreported play."""
    lr.acted.append(seat)
    if lr.next_seat is None:
        lr.next_seat = seat
    if cards:
        lr.played.append(seat)
        t = table_of(deal)
        lr.plays.append(PlaySince(seat, t.point(), t.lead_count))


def made_when_laid(deal: Deal, seat: int, point: int | None) -> None:
    """The play ``seat`` just made stood from the table, where its cards were laid at ``point``:
    it was made then (taking it back goes back to before that attempt)."""
    lr = table_of(deal).latent_report
    if lr is not None and point is not None and lr.plays and lr.plays[-1].seat == seat:
        lr.plays[-1].point = point


def stage_reached(lr: LatentReport) -> int:
    """How far the play went since the unreported play (GD-4.2.1-4.2.4)."""
    if lr.plays_since:
        return 4 if lr.plays_since >= 2 else 3
    return 2 if lr.next_seat in lr.played else 1


def discover(deal: Deal, stage: int | None) -> None:
    """The latent report comes to light at ``stage`` (None: the deal would end now: found
    after the deal, at the stage it had reached). At stage 2 in play, the plays made since in
    this round (``played_this_round``, in play order) are what may be taken back."""
    t = table_of(deal)
    lr = t.latent_report
    assert lr is not None, "called with a latent 报牌 irregularity on the table"
    at_end = stage is None
    if stage is None:
        stage = stage_reached(lr)
    lr.found = True
    this_round = [p.seat for p in lr.plays if p.round == t.lead_count] if stage == 2 and not at_end else []
    t.latent_report = lr if this_round else None
    extra: dict[str, Any] = {"played_this_round": tuple(this_round)} if stage == 2 and not at_end else {}
    refereed.found(deal, lr.seq, lr.irregularity, lr.seat, stage=stage, at_deal_end=at_end,
               acted=tuple(lr.acted), played=tuple(lr.played),
               partner_acted=partner(lr.seat) in lr.acted,
               partner_out=partner(lr.seat) in deal.finish_order,
               count=lr.count, holds=deal.sizes[lr.seat] + len(t.on_table.get(lr.seat, ())), **extra)


def found_after_end(deal: Deal, lr: LatentReport) -> None:
    """The deal ended (a forced result) with the report still unnoticed: it comes to light
    now, at the stage it had reached, as one found after the deal."""
    table_of(deal).latent_report = lr
    discover(deal, None)


def report_again(deal: Deal, seat: int) -> None:
    """ReportAgain: ``seat`` announces its true count."""
    laid = len(table_of(deal).on_table.get(seat, ()))
    deal.announced[seat] = deal.sizes[seat] + laid
    deal.stream.emit(ev.CardsReported, seat=seat, count=deal.sizes[seat] + laid)


def drop_latent_report(deal: Deal) -> None:
    table_of(deal).latent_report = None


def on_report_again(deal: Deal, effect: Any, plan: Any) -> None:
    report_again(deal, effect.seat)


def on_turn(deal: Deal, seat: int, leading: bool) -> Any:
    """The turn hook: a GD-4.2.1 / 4.2.2 report comes to light when the table reaches its
    stage: at once when the 下家 passed (GD-4.2.1); after it played, at the offender's next
    turn, or as the ``rounds_later``-th round after it begins (GD-4.2.2)."""
    lr = table_of(deal).latent_report
    if lr is None or lr.found or lr.target != 2 or lr.next_seat is None:
        return state.NEXT
    if lr.next_seat not in lr.played:
        discover(deal, 1)  # the 下家 passed: not yet 出牌, still GD-4.2.1
        return state.WAIT
    if lr.rounds_later:
        if leading and table_of(deal).lead_count >= lr.round + lr.rounds_later:
            discover(deal, 2)
            return state.WAIT
    elif seat == lr.seat:
        discover(deal, 2)
        return state.WAIT
    return state.NEXT
