"""The draw, refereed (SJ-1): ``Draw`` runs it to the next declaration chance; a card taken
out of turn (``DrawSlip``, ``Grab``), the banker drawing on into the kitty (``KittyDraw``)
and a miscount slip (``Redirect``) come to light as the draw reaches them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from shengji.actions import Draw, DrawKitty, DrawOutOfTurn, action_to_data
from shengji.declare import DECLARING, can_declare
from shengji.events import CARD_CODES, CardTaken, DrawRan, IrregularAttempt, emit_card_drawn
from shengji.phase import Phase
from shengji.refereed import on_table, state
from shengji.refereed.state import table_of
from tabletop import refereed
from tabletop.errors import IllegalAction
from tabletop.rulings import facts as make_facts
from tabletop.refereed import Grab
from tabletop.seats import seats_from

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from shengji.deal import Deal

KITTY_SIZE = 8


@attrs.define(slots=True, order=True)
class DrawSlip:
    """An out-of-turn draw to come (``draw``): ``seat`` will take the card at draw
    ``position`` (attempt ``seq``); ordered by position."""

    position: int
    seq: int
    seat: int
    face_seen: bool
    in_hand: bool


@attrs.define(slots=True)
class KittyDraw:
    """SJ-1.5 (``draw``): the banker will draw on into the kitty at the end of the draw."""

    banker: int
    seq: int


@attrs.define(slots=True, eq=False)
class Redirect:
    """A miscount slip in progress: ``taker`` takes the next ``remaining`` cards due to ``of``
    from draw position ``start`` on."""

    seq: int
    by: int
    taker: int
    of: int
    count: int
    start: int
    fault: str
    remaining: int = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.remaining = self.count


@attrs.define(slots=True, eq=False)
class DrawState:
    """The draw's slice of the table: whether a ``Draw`` step is due (``step``), out-of-turn
    draws to come (``slips``, by draw position), a miscount slip (``redirect``), the banker
    drawing on into the kitty (``kitty_draw``, then ``kitty_drawn``: the seat that drew a kitty
    card, once it has)."""

    step: bool = False
    slips: list[DrawSlip] = attrs.Factory(list)
    redirect: Redirect | None = None
    kitty_draw: KittyDraw | None = None
    kitty_drawn: int | None = None


def begin(deal: Deal) -> None:
    """Refereed: the draw waits for the rightful next drawer's ``Draw``."""
    t = table_of(deal)
    t.draw.step = True
    deal.turn = deal.draw_seat


def draw(deal: Deal, a: Draw) -> None:
    t = table_of(deal)
    if deal.phase is not Phase.DRAW or not t.draw.step or t.choice is not None:
        raise IllegalAction("no draw step now")
    if a.seat != deal.to_act:
        raise IllegalAction(f"seat {deal.to_act} draws next, not seat {a.seat}")
    t.draw.step = False
    if not a.flawed:
        deal.stream.emit(DrawRan, seat=a.seat)
        continue_draw(deal)
        return
    taker, of, count = a.extra_by, a.of, a.count
    if of is None or taker is None or taker not in range(4) or of not in range(4) or taker == of:
        t.draw.step = True
        raise IllegalAction("a miscount slip names two different seats: extra_by takes cards due to of")
    start = deal.drawn + a.at
    last = len(deal.stock) - KITTY_SIZE
    turns = sum(1 for i in range(max(start, deal.drawn), last) if (deal.first_drawer + i) % 4 == of)
    if count < 1 or a.at < 0 or t.draw.redirect is not None or turns < count:
        t.draw.step = True
        raise IllegalAction(f"seat {of} has only {turns} draws left from there (slip of {count})")
    e = deal.stream.emit(IrregularAttempt, seat=a.seat, irregularity="miscount_after_draw",
                         action=action_to_data(a), latent=True,
                         facts=make_facts(taker=taker, short=of, size=count, fault=a.fault))
    t.draw.redirect = Redirect(e.seq, a.seat, taker, of, count, start, a.fault)
    continue_draw(deal)


def continue_draw(deal: Deal) -> None:
    """The draw in refereed mode: as in strict mode, plus the slips that were set up."""
    t = table_of(deal)
    stock, hands, level, stream = deal.stock, deal.hands, deal.level, deal.stream
    hand_size, sorted_cache, barred = deal.hand_size, deal.sorted_cache, deal.declare_barred
    standing, pair_vs_pair = deal.declaration, deal.rules.pair_vs_pair
    slips, r = t.draw.slips, t.draw.redirect
    last = len(stock) - KITTY_SIZE
    declaring = DECLARING[level]
    unable = [False, False, False, False]   # as in the strict draw (``Deal._continue_draw``)
    while deal.drawn < last:
        index = deal.drawn
        seat = deal.draw_seat
        if slips and slips[0].position == index:
            grab(deal, slips.pop(0))
            return
        receiver = seat
        if r is not None and r.remaining and seat == r.of and index >= r.start:
            receiver = r.taker
            r.remaining -= 1
        card = stock[index]
        counts = hands[receiver]
        counts[card] += 1                       # deal.add_cards(receiver, (card,)), inline
        hand_size[receiver] += 1
        sorted_cache[receiver] = None
        emit_card_drawn(stream, receiver, CARD_CODES[card], index)
        deal.drawn = index + 1
        deal.draw_seat = (seat + 1) % 4
        if (declaring[card] or not unable[receiver]) and receiver not in barred:
            if can_declare(counts, level, receiver, standing, pair_vs_pair):
                deal.turn = receiver
                return
            unable[receiver] = True
    end_of_draw(deal)


def grab(deal: Deal, slip: DrawSlip) -> None:
    index, seq, seat, face_seen, in_hand = slip.position, slip.seq, slip.seat, slip.face_seen, slip.in_hand
    t = table_of(deal)
    card = deal.stock[index]
    rightful = deal.draw_seat
    deal.drawn += 1
    if in_hand:
        deal.add_cards(seat, [card])
    else:
        t.on_table.lay(seat, [card])
    t.grab = Grab(seat, card, in_hand, rightful)
    deal.stream.emit(CardTaken, seat=seat, card=str(card), index=index, due=rightful, in_hand=in_hand)
    refereed.found(deal, seq, "draw_other_seat_card", seat, then=DRAW_ON,
                  card=str(card), face_seen=face_seen or in_hand, in_hand=in_hand, rightful=rightful,
                  index=index, level=deal.level_text, trump=on_table.trump_now(deal))


def end_of_draw(deal: Deal) -> None:
    """After the last card: the banker's draw into the kitty, then the count of the
    hands (a miscount comes to light), then the last-chance round."""
    t = table_of(deal)
    if t.draw.kitty_draw is not None:
        seat, seq = t.draw.kitty_draw.banker, t.draw.kitty_draw.seq
        t.draw.kitty_draw = None
        index = deal.drawn
        card = deal.stock[index]
        deal.drawn += 1
        deal.add_cards(seat, [card])
        t.draw.kitty_drawn = seat
        deal.stream.emit(CardTaken, seat=seat, card=str(card), index=index, due=None, in_hand=True)
        refereed.found(deal, seq, "banker_drew_kitty", seat, then=END_THE_DRAW,
                      card=str(card), kitty_left=len(deal.stock) - deal.drawn, banker=seat)
        return
    r = t.draw.redirect
    if r is not None:
        t.draw.redirect = None
        counts = tuple(deal.hand_size)
        sides = (counts[0] + counts[2], counts[1] + counts[3])
        offender = r.taker if r.fault == "taker" else r.of
        refereed.found(deal, r.seq, "miscount_after_draw", offender, then=END_THE_DRAW,
                      counts=counts, per_side=sides, size=r.count - r.remaining, taker=r.taker, short=r.of,
                      fault=r.fault, offender=offender, before_first_play=True)
        return
    deal.phase = Phase.DECLARE
    deal.last_chance = list(seats_from(deal.first_drawer))
    deal.continue_last_chance()


def draw_out_of_turn(deal: Deal, a: DrawOutOfTurn) -> None:
    t = table_of(deal)
    if deal.phase is not Phase.DRAW or deal.to_act is None:
        raise IllegalAction("no draw out of turn now: the draw is over")
    last = len(deal.stock) - KITTY_SIZE
    taken = {s.position for s in t.draw.slips}
    index = deal.drawn + max(0, a.after)
    free = [i for i in range(deal.drawn, last) if i not in taken and (deal.first_drawer + i) % 4 != a.seat]
    if not free:
        raise IllegalAction("no card due to another seat is left to take")
    index = next((i for i in free if i >= index), free[-1])
    in_hand = a.in_hand
    e = deal.stream.emit(IrregularAttempt, seat=a.seat, irregularity="draw_other_seat_card",
                         action=action_to_data(a), latent=True,
                         facts=make_facts(index=index, rightful=(deal.first_drawer + index) % 4,
                                          face_seen=a.face_seen or in_hand, in_hand=in_hand))
    t.draw.slips.append(DrawSlip(index, e.seq, a.seat, a.face_seen or in_hand, in_hand))
    t.draw.slips.sort()


def draw_kitty(deal: Deal, a: DrawKitty) -> None:
    t = table_of(deal)
    if deal.phase is not Phase.DRAW or deal.to_act is None or deal.drawn >= len(deal.stock) - KITTY_SIZE:
        raise IllegalAction("no draw into the kitty now: the draw is over")
    if deal.banker is None or a.seat != deal.banker:
        raise IllegalAction("only a known banker draws on into the kitty")
    if t.draw.kitty_draw is not None or t.draw.kitty_drawn is not None:
        raise IllegalAction("the banker already draws into the kitty")
    e = deal.stream.emit(IrregularAttempt, seat=a.seat, irregularity="banker_drew_kitty",
                         action=action_to_data(a), latent=True, facts=make_facts(banker=a.seat))
    t.draw.kitty_draw = KittyDraw(a.seat, e.seq)


def draw_on(deal: Deal) -> None:
    """A card drawn out of turn was ruled on: the draw goes on."""
    continue_draw(deal)


def end_the_draw(deal: Deal) -> None:
    """The kitty draw or the miscount was ruled on: the end of the draw goes on."""
    end_of_draw(deal)


DRAW_ON = state.STEPS.register(draw_on)
END_THE_DRAW = state.STEPS.register(end_the_draw)
