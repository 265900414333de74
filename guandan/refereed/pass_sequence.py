"""GD-4.2.3 / 4.2.4: the seats named may pass in turn, even with the lead (``PassSequence``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from guandan import events as ev
from guandan.refereed import restrictions
from guandan.refereed.state import table_of
from tabletop.rulings import refuse
from tabletop.seats import next_seat, partner, prev_seat

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


@attrs.define(slots=True)
class PassSequence:
    """GD-4.2.3 / 4.2.4 (``reporting``): ``seats`` may pass in turn (``index``: whose turn it
    is); then the offender leads ('offender_leads') or play goes on ('play_on')."""

    offender: int
    seats: list[int]
    index: int
    then: str


def start(deal: Deal, offender: int, then: str, reason: str,
          seats: Sequence[int] | None = None) -> None:
    """GD-4.2.3 ('offender_leads') / GD-4.2.4 ('play_on'): the offender's 下家, partner
    and (for 4.2.3) 上家 in turn may pass even with the lead; ``seats``: the ones the
    ruling named, in order (None: ``pass_sequence_seats``)."""
    t = table_of(deal)
    seats = seats_for(deal, offender, then) if seats is None else list(seats)
    if not seats:
        return
    t.sequence = PassSequence(offender, seats, 0, then)
    deal.turn = seats[0]
    deal.passed = [s for s in deal.passed if s not in seats]
    deal.stream.emit(ev.PassSequence, seat=offender, seats=tuple(seats), then=then)
    deal.legal_cache = None


def seats_for(deal: Deal, offender: int, then: str) -> list[int]:
    """Who may pass in the GD-4.2.3 / 4.2.4 sequence, in order (seats still in play)."""
    order = [next_seat(offender), partner(offender), prev_seat(offender)]
    if then == "play_on":
        order = order[:2]
    active = deal.active_seats()
    return [s for s in order if s in active]


def pass_in_sequence(deal: Deal, seat: int) -> None:
    t = table_of(deal)
    s = t.sequence
    assert s is not None, "called while a pass sequence runs"
    seats, index, then = s.seats, s.index, s.then
    top = deal.top
    if top is not None and top.seat != seat:
        deal.passed.append(seat)
    index += 1
    while index < len(seats) and seats[index] not in deal.active_seats():
        index += 1
    if index < len(seats):
        s.index = index
        deal.turn = seats[index]
        return
    t.sequence = None
    AFTER.get(then, play_on)(deal, s, top)


def offender_leads(deal: Deal, sequence: PassSequence, top: Any) -> None:
    """GD-4.2.3: the sequence over, the offender leads a new round (its exposed cards, if any)."""
    t = table_of(deal)
    offender = sequence.offender
    top_seat = top.seat if top is not None else offender
    deal.stream.emit(ev.RoundEnded, seat=top_seat, leader=offender, partner_leads=False)
    deal.top = None
    deal.passed = []
    deal.leader = deal.turn = offender
    t.lead_count += 1
    if "next_turn" in t.bars.get(offender, ()):   # its GD-4.2.3 bar; any other bar stays
        restrictions.take_bar(deal, offender, "next_turn")
        deal.stream.emit(ev.BarEnded, seat=offender, how="lifted")
    restrictions.lapse_round_bars(deal)
    exposed = [c for e in t.exposures if e.seat == offender and e.led_after_sequence for c in e.cards]
    if exposed:
        restrictions.restrict_lead(deal, offender, "cards", "exposed cards", cards=exposed)


def play_on(deal: Deal, sequence: PassSequence, top: Any) -> None:
    """GD-4.2.4: the sequence over, the offender's 上家 continues as in normal play."""
    deal.turn = deal.next_active(sequence.seats[-1])
    if top is not None and all(s == top.seat or s in deal.passed for s in deal.active_seats()):
        deal.close_round()


AFTER = {"offender_leads": offender_leads, "play_on": play_on}
"""What follows the sequence, by the ruling's ``then`` (as logged in ``gd.pass_sequence``)."""


def on_pass_sequence(deal: Deal, effect: Any, plan: Any) -> None:
    """GD-4.2.3 / GD-4.2.4: the seats the ruling named may pass in turn, even with the lead."""
    active = deal.active_seats()
    if not effect.seats or any(s not in active for s in effect.seats):
        raise refuse(effect, "names a seat no longer in play")
    start(deal, effect.offender, effect.then, plan.reason, seats=effect.seats)
