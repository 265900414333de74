"""禁出一手: a 'next_turn' bar (GD-2.3.1) waits for the seat's next turn to play; a 'round'
bar (GD-2.2) lapses when its round ends. A barred lead goes to the 下家 (接风 when it is out).
Two bars on one seat are two sanctions: each costs one turn, served one after the other in
the order they were imposed (``table.bars``: seat → its bars' scopes, first to be served first)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from guandan import events as ev
from guandan.refereed import state
from guandan.refereed.state import table_of
from tabletop.rulings import refuse
from tabletop.seats import next_seat

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


def bar_next_play(deal: Deal, seat: int, reason: str) -> None:
    """禁出一手 (scope 'next_turn'): ``seat`` passes automatically when its turn to play
    next comes, in this round or a later one; a barred lead goes to its 下家."""
    bar(deal, seat, reason, "next_turn")


def bar_in_round(deal: Deal, seat: int, reason: str) -> None:
    """禁出一手 (scope 'round', GD-2.2): as ``bar_next_play``, but the bar lapses when the
    round ends before the turn comes."""
    bar(deal, seat, reason, "round")


def bar(deal: Deal, seat: int, reason: str, scope: str) -> None:
    table_of(deal).bars.setdefault(seat, []).append(scope)
    deal.stream.emit(ev.SeatBarred, seat=seat, reason=reason, scope=scope)
    deal.legal_cache = None


def lapse_round_bars(deal: Deal) -> None:
    """The round ended: its GD-2.2 bars lapse; 'next_turn' bars wait for their turn."""
    t = table_of(deal)
    for s in sorted(t.bars):
        scopes = t.bars[s]
        for _ in range(scopes.count("round")):
            scopes.remove("round")
            deal.stream.emit(ev.BarEnded, seat=s, how="lapsed")
        if not scopes:
            del t.bars[s]


def barred_lead(deal: Deal, seat: int) -> None:
    """A 'next_turn' bar on a lead: the seat passes and the lead goes to its 下家 (as in
    GD-4.2.3, 下家自动拥有领出权); when the 下家 has gone out, to the 下家's partner (接风,
    as when a seat goes out with the round won), else to the next seat still in play. The
    lead thus stays with the non-offending side. A new lead: the lead count goes up."""
    t = table_of(deal)
    lead_to = deal.leader_after(next_seat(seat))
    deal.stream.emit(ev.BarredPass, seat=seat, lead_to=lead_to)
    t.turns += 1
    deal.top = None
    deal.passed = []
    deal.leader = deal.turn = lead_to
    t.lead_count += 1
    if t.designation is not None and t.designation.holder == seat:
        t.designation = None


def on_bar(deal: Deal, effect: Any, plan: Any) -> None:
    """禁出一手, scope 'next_turn' (GD-2.3.1) or 'round' (GD-2.2)."""
    if effect.scope == "round":
        bar_in_round(deal, effect.seat, plan.reason)
    elif effect.scope == "next_turn":
        bar_next_play(deal, effect.seat, plan.reason)
    else:
        raise refuse(effect, "掼蛋 bars a seat's next play in this round or its next turn")


def on_turn(deal: Deal, seat: int, leading: bool) -> Any:
    """The turn hook: a barred seat's turn serves its first bar — a pass, or (a 'next_turn'
    bar on a lead) the lead goes on; a 'round' bar reaching a lead has lapsed (and the next
    bar, if any, is looked at on the same turn)."""
    t = table_of(deal)
    if seat not in t.bars:
        return state.NEXT
    scope = take_bar(deal, seat)
    if leading and t.sequence is None:
        if scope == "round":  # a GD-2.2 bar reaches no further than its round
            deal.stream.emit(ev.BarEnded, seat=seat, how="lapsed")
        else:
            barred_lead(deal, seat)
        return state.AGAIN
    deal.stream.emit(ev.BarredPass, seat=seat)
    deal.pass_turn(seat)
    return state.AGAIN


def take_bar(deal: Deal, seat: int, scope: str | None = None) -> str:
    """The first of ``seat``'s bars (of ``scope``, when given) is spent: its scope."""
    bars = table_of(deal).bars
    scopes = bars[seat]
    scope = scopes.pop(0 if scope is None else scopes.index(scope))
    if not scopes:
        del bars[seat]
    return scope
