"""Out-of-turn play (GD-2.3): the cards lie on the table until the offender's 下家 calls the
referee (GD-2.3.1) or acts on them, which accepts them (GD-2.3.2)."""

from __future__ import annotations

from typing import Any

import attrs

from guandan import events as ev
from guandan.actions import CallReferee, Play, action_to_data
from guandan.combos import Reading, readings
from guandan.refereed import core, lead_option, on_table
from tabletop.cards import Card, codes
from tabletop.errors import IllegalAction
from tabletop.irregular import facts as make_facts


@attrs.define(slots=True, eq=False)
class OutOfTurn:
    """An out-of-turn play lying on the table, waiting for the offender's 下家 (``responder``)."""

    seq: int
    seat: int
    cards: tuple[Card, ...]
    reading: Reading
    rightful: int
    responder: int


def play_out_of_turn(deal: Any, a: Play) -> None:
    t = deal.table
    seat = a.seat
    lead_choice = t.choice is not None and t.choice.purpose == lead_option.PURPOSE
    if (t.choice is not None and not lead_choice) or t.report_due is not None or t.oot is not None \
            or deal.turn is None:
        raise IllegalAction("an out-of-turn play now is not modelled (the table is answering something else)")
    if a.reading not in readings(a.cards, deal.level, deal.rules):
        raise IllegalAction(f"{' '.join(map(str, a.cards))} cannot be read as {a.reading.code}")
    rightful = deal.turn
    responder = deal._next_active(seat)
    top = deal.top
    e = deal.stream.emit(ev.IrregularAttempt, seat=seat, irregularity="play_out_of_turn",
                         action=action_to_data(a), latent=True,
                         facts=make_facts(rightful=rightful, responder=responder, cards=codes(a.cards),
                                          reading=a.reading.code,
                                          top=None if top is None else top.reading.code))
    on_table.lay(deal, seat, a.cards)
    t.oot = OutOfTurn(e.seq, seat, a.cards, a.reading, rightful, responder)


def call_referee(deal: Any, a: CallReferee, handed: bool) -> None:
    t = deal.table
    o = t.oot
    if o is None or a.seat != deal.to_act:
        raise IllegalAction(f"seat {a.seat} has no out-of-turn play to call the referee about")
    deal.stream.emit(ev.RefereeCalled, seat=a.seat, offender=o.seat)
    core.found(deal, o.seq, "play_out_of_turn", o.seat,
                  followed=False, rightful=o.rightful, responder=o.responder,
                  cards=codes(o.cards), reading=o.reading.code)


def stand_out_of_turn(deal: Any, responder: int) -> None:
    """The responder acted on the out-of-turn cards: they stand as if played in turn."""
    t = deal.table
    o = t.oot
    t.oot = None
    if t.choice is not None and t.choice.purpose == lead_option.PURPOSE:
        t.choice = None  # the lead was made before the choice, and it stands
    laid = t.on_table.pop(o.seat)
    for c in laid:
        deal.hands[o.seat][c] += 1
    deal.sizes[o.seat] += len(laid)
    deal._hand_tuples[o.seat] = None
    deal.stream.emit(ev.PlayStands, seat=o.seat, cards=codes(o.cards), reading=o.reading.code,
                     reason=f"GD-2.3.2: seat {responder} acted on it")
    on_table.stand(deal, o.seat, o.cards, o.reading, report_now=True)
    core.found(deal, o.seq, "play_out_of_turn", o.seat, followed=True, rightful=o.rightful,
                  responder=responder, cards=codes(o.cards), reading=o.reading.code)
