"""单下 and 双下 (GD-5): a seat judged 下游, and the result forced for a side."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from guandan import events as ev
from guandan.observation import Phase
from guandan.refereed import on_table, restrictions
from guandan.refereed.state import table_of
from tabletop import refereed
from tabletop.cards import codes

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


def place_last(deal: Deal, seat: int, reason: str) -> None:
    """单下: ``seat`` is judged 下游 and plays no more; the deal ends when the others'
    places are settled."""
    t = table_of(deal)
    if seat in t.placed_last:
        return
    t.placed_last.append(seat)
    for _ in t.bars.pop(seat, ()):   # it plays no more: each bar it still owes ends, as the log says
        deal.stream.emit(ev.BarEnded, seat=seat, how="judged_last")
    o = t.oot
    if o is not None and o.responder == seat:
        o.responder = deal.next_active(seat) if len(deal.active_seats()) > 1 else o.responder
    elif o is not None and o.seat == seat:  # its own out-of-turn play is moot now
        t.oot = None
        on_table.return_cards(deal, seat, reason)
        refereed.found(deal, o.seq, "play_out_of_turn", seat, moot="the offender was judged last",
                      cards=codes(o.cards))
    restrictions.restricted_gone(deal, seat, "partner_judged_last")
    if t.restriction is not None and t.restriction.seat == seat:
        t.restriction = None
    deal.stream.emit(ev.PlacedLast, seat=seat, reason=reason)
    if deal.phase is Phase.SCORED:
        return
    if deal.play_is_over():
        t.end_pending = True
    elif deal.turn == seat or (deal.turn is not None and not deal.sizes[deal.turn]):
        deal.turn = deal.next_active(seat)
    deal.legal_cache = None


def out_by_play(deal: Deal, answers: int | None) -> None:
    """After a ruling: a seat whose last cards stood but that the ruling neither placed last
    nor gave a forced result (GD-4.2.5 answered without 单下 or 双下) went out by its play,
    in the next place; the turn moves on from it (the deal ends when it is over). Nothing
    else holds such a seat: without this nobody would be left to act. ``answers``: the
    attempt the ruling answers (a seat another awaited ruling concerns waits for that one)."""
    t = table_of(deal)
    playing = t.resume_phase if deal.phase is Phase.AWAITING_RULING else deal.phase
    if playing is not Phase.PLAY:
        return   # in the draw or the tribute an empty hand has not gone out
    ruled_later = {w.seat for w in t.awaiting if w.answers != answers}   # their own rulings place them
    for seat in range(len(deal.sizes)):
        if (deal.sizes[seat] or not deal.played[seat] or seat in deal.finish_order or seat in t.placed_last
                or t.on_table.get(seat) or seat in ruled_later):
            continue
        deal.announced[seat] = 0
        deal.finish_order.append(seat)
        deal.stream.emit(ev.PlayerFinished, seat=seat, place=len(deal.finish_order))
        restrictions.restricted_gone(deal, seat, "partner_out")
        if deal.play_is_over():
            t.end_pending = True
        elif deal.turn == seat or (deal.turn is not None and not deal.sizes[deal.turn]):
            deal.turn = deal.next_active(seat)
        deal.legal_cache = None


def on_forced_last(deal: Deal, row: Any, plan: Any) -> None:
    """GD-5.1 单下: the seat is judged 下游 and plays no more."""
    if row.seat is not None and deal.phase is not Phase.SCORED:
        place_last(deal, row.seat, f"{row.clause}: judged 下游 (单下)")


def on_forced_double_last(deal: Deal, row: Any, plan: Any) -> None:
    """GD-5.2 双下: the other side 上游 and 二游 (see ``double_last_order``), once the
    ruling's effects have put the table right (``force_double_last``): the result ends the
    deal, and what the ruling lists still applies to it."""
    plan.forced_double_last = row


def force_double_last(deal: Deal, row: Any, plan: Any) -> None:
    """The 双下 result a ruling imposed (``on_forced_double_last``), after its effects."""
    if deal.phase is Phase.SCORED:
        return
    order = double_last_order(deal, row.side)
    why = f"{row.clause}: 双下 for side {row.side}"
    if plan.match is not None:
        plan.match.impose_result(order, why)
    else:
        deal.impose_result(order, why)


def double_last_order(deal: Deal, side: int) -> tuple[int, int, int, int]:
    """The 双下 result: the non-offending side 上游 and 二游, the offending side after it.
    Within a side, places the play already settled stand: a seat that went out is ahead of
    its partner, a seat judged 下游 (单下) is behind it; else the lower seat first."""
    finished = list(deal.finish_order)
    judged = deal.table.placed_last if deal.table is not None else []

    def ranked(team: int) -> list[int]:
        def key(s: int) -> tuple[int, int]:
            if s in finished:
                return (0, finished.index(s))
            return (2, s) if s in judged else (1, s)
        return sorted((team, team + 2), key=key)

    return tuple(ranked(1 - side) + ranked(side))  # type: ignore[return-value]  # two seats per side
