"""Out-of-turn play (GD-2.3): the cards lie on the table until the offender's 下家 answers
them. Whatever it does — calls the referee, plays on them, passes, or attempts an irregular
play — the engine only reports it (the ``answer`` fact of the irregularity it brings to
light, the answer itself held) and waits: whether the play stands (GD-2.3.2) or is taken
back (GD-2.3.1) is the referee's ruling, which the table then carries out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from guandan import events as ev
from guandan.actions import CallReferee, Play, action_to_data
from guandan.combos import Reading, readings
from guandan.observation import Phase
from guandan.refereed import on_table, restrictions
from guandan.refereed.state import table_of
from tabletop import refereed
from tabletop.cards import Card, codes
from tabletop.errors import IllegalAction
from tabletop.rulings import facts as make_facts
from tabletop.rulings import refuse

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal

ANSWERS = ("called_referee", "played_on_it", "passed", "irregular_attempt")
"""What the 下家 did about the out-of-turn cards (the ``answer`` fact): called the referee;
made a legal play of cards on them (跟牌); passed; attempted a play the rules do not allow."""


@attrs.define(slots=True, eq=False)
class OutOfTurn:
    """An out-of-turn play lying on the table, waiting for the offender's 下家 (``responder``);
    ``answer``: what the 下家 did (one of ``ANSWERS``, None: nothing yet), its play on it
    (``answer_cards`` as ``answer_reading``, held on the table) until the ruling."""

    seq: int
    seat: int
    cards: tuple[Card, ...]
    reading: Reading
    rightful: int
    responder: int
    answer: str | None = None
    answer_cards: tuple[Card, ...] = ()
    answer_reading: Reading | None = None


def play_out_of_turn(deal: Deal, a: Play) -> None:
    t = table_of(deal)
    seat = a.seat
    lead_choice = t.choice is not None and t.choice.purpose == restrictions.LEAD_OPTION_PURPOSE
    if (t.choice is not None and not lead_choice) or t.report_due is not None or t.oot is not None \
            or deal.turn is None:
        raise IllegalAction("an out-of-turn play now is not modelled (the table is answering something else)")
    if a.reading not in readings(a.cards, deal.level, deal.rules):
        raise IllegalAction(f"{' '.join(map(str, a.cards))} cannot be read as {a.reading.code}")
    rightful = deal.turn
    responder = deal.next_active(seat)
    top = deal.top
    e = deal.stream.emit(ev.IrregularAttempt, seat=seat, irregularity="play_out_of_turn",
                         action=action_to_data(a), latent=True,
                         facts=make_facts(rightful=rightful, responder=responder, cards=codes(a.cards),
                                          reading=a.reading.code,
                                          top=None if top is None else top.reading.code))
    on_table.lay(deal, seat, a.cards)
    t.oot = OutOfTurn(e.seq, seat, a.cards, a.reading, rightful, responder)


def call_referee(deal: Deal, a: CallReferee, handed: bool) -> None:
    t = table_of(deal)
    o = t.oot
    if o is None or a.seat != deal.to_act or o.answer is not None:
        raise IllegalAction(f"seat {a.seat} has no out-of-turn play to call the referee about")
    deal.stream.emit(ev.RefereeCalled, seat=a.seat, offender=o.seat)
    answered(deal, "called_referee")


def answered(deal: Deal, answer: str, cards: tuple[Card, ...] = (), reading: Reading | None = None,
             attempt: int | None = None) -> None:
    """The 下家 answered the out-of-turn play (``answer``, one of ``ANSWERS``; its play on it
    ``cards`` as ``reading`` lies on the table, held; ``attempt``: the seq of its irregular
    attempt, ruled on its own after this one): the out-of-turn play comes to light with that
    fact, and the table waits for the referee. Nothing is decided here: a pass is not
    applied, a play on it does not stand until a ruling says so."""
    o = table_of(deal).oot
    assert o is not None, "the 下家 answers an out-of-turn play lying on the table"
    o.answer, o.answer_cards, o.answer_reading = answer, cards, reading
    info: dict[str, Any] = {}
    if cards:
        info.update(answer_cards=codes(cards), answer_reading=None if reading is None else reading.code)
    if attempt is not None:
        info["answer_attempt"] = attempt
    refereed.found(deal, o.seq, "play_out_of_turn", o.seat, rightful=o.rightful, responder=o.responder,
               cards=codes(o.cards), reading=o.reading.code, answer=answer, **info)


def stand(deal: Deal, effect: Any, plan: Any) -> bool:
    """A ``PlayStands`` of the out-of-turn play's offender or of the 下家's play held on it:
    the out-of-turn cards stand as if played in turn (order continues from there), then the
    下家's play on them stands as made. False: the effect is about other cards."""
    t = table_of(deal)
    o = t.oot
    if o is None:
        return False
    if effect.seat == o.responder and o.answer_cards:
        raise refuse(effect, f"seat {o.responder}'s play on the out-of-turn cards can stand only after them "
                     f"(list the PlayStands of seat {o.seat} first)")
    if effect.seat != o.seat or effect.seat not in t.on_table:
        return False
    if effect.reading is not None and effect.reading != o.reading.code:
        raise refuse(effect, f"the out-of-turn play was {o.reading.code}")
    t.oot = None
    if t.choice is not None and t.choice.purpose == restrictions.LEAD_OPTION_PURPOSE:
        t.choice = None  # the lead was made before the choice, and it stands
    follow = plan.take("PlayStands", seat=o.responder) if o.answer_cards else None
    on_table.stand_play(deal, o.seat, o.cards, o.reading,
                        f"{plan.reason}: seat {o.seat}'s play out of turn stands as if in turn",
                        report_now=follow is not None)
    if follow is None:
        return True
    if deal.phase is Phase.SCORED or t.end_pending:  # the offender went out and ended the deal
        on_table.return_cards(deal, o.responder, "the deal ended")
        return True
    assert o.answer_reading is not None, "the 下家's play on it was read when it was held"
    on_table.stand_play(deal, o.responder, o.answer_cards, o.answer_reading,
                        f"{plan.reason}: seat {o.responder}'s play on it stands", report_now=False)
    return True


def on_play_stands(deal: Deal, effect: Any, plan: Any) -> None:
    """PlayStands: an out-of-turn play and the 下家's play on it (``stand``), or the cards
    a seat left lying on the table (the rest of a play with extra cards, GD-2.4.3)."""
    if not stand(deal, effect, plan):
        on_table.on_play_stands(deal, effect, plan)
