"""Cards laid on the table (an attempt), still their owner's: laid, returned, or standing as a play."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from guandan import events as ev
from guandan.combos import Reading, readings
from guandan.observation import Phase
from guandan.refereed import reporting
from guandan.refereed.state import table_of
from tabletop.cards import Card, codes, holds, sort_cards
from tabletop.errors import IllegalAction
from tabletop.refereed import return_grabbed
from tabletop.rulings import refuse
from tabletop.seats import NUM_SEATS

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


def return_cards(deal: Deal, seat: int, reason: str, *, only: Iterable[Card] | None = None) -> tuple[Card, ...]:
    """The cards ``seat`` laid on the table go back to its hand (a card drawn out of
    turn: back on top of the stock); ``only``: just those of them, the rest stay laid."""
    t = table_of(deal)
    if t.grab is not None and t.grab.seat == seat:
        card = t.grab.card
        if t.grab.in_hand:
            deal.out_of_hand(seat, (card,))
        else:
            t.on_table.pick_up(seat, [card])
        deal.stock.insert(0, card)
        t.draw.taken -= 1
        t.grab = None
        deal.stream.emit(ev.CardsReturned, seat=seat, cards=(str(card),), to="stock", reason=reason)
        return (card,)
    laid = t.on_table.pick_up(seat, only)
    deal.into_hand(seat, laid)
    if t.oot is not None and t.oot.seat == seat and seat not in t.on_table:
        t.oot = None
    if laid:
        deal.stream.emit(ev.CardsReturned, seat=seat, cards=codes(sort_cards(laid)), to="hand", reason=reason)
    deal.legal_cache = None
    return tuple(laid)


def lay(deal: Deal, seat: int, cards: Iterable[Card]) -> None:
    """Cards of an attempt go from the hand onto the table (still the seat's)."""
    cards = list(cards)
    deal.out_of_hand(seat, cards)
    t = table_of(deal)
    if seat not in t.on_table:
        t.laid_at[seat] = t.point()
    t.on_table.lay(seat, cards)


def stand_play(deal: Deal, seat: int, cards: Iterable[Card], reading: Reading, reason: str, *,
               report_now: bool = False) -> None:
    """Cards ``seat`` laid on the table stand as its play (the rest of a play with extra
    cards, GD-2.4.3; an out-of-turn play and the play on it, GD-2.3.2). ``report_now``: a
    报牌 it owes is made at once (another play stands right after it)."""
    t = table_of(deal)
    cards = tuple(sort_cards(cards))
    deal.into_hand(seat, t.on_table.pick_up(seat, cards))
    deal.stream.emit(ev.PlayStands, seat=seat, cards=codes(cards), reading=reading.code, reason=reason)
    stand(deal, seat, cards, reading, report_now=report_now)


def stand(deal: Deal, seat: int, cards: tuple[Card, ...], reading: Reading, *, report_now: bool) -> None:
    """Apply a play that stands by a ruling or an acceptance (no action event)."""
    t = table_of(deal)
    awaiting = deal.phase is Phase.AWAITING_RULING
    if awaiting:  # the play's state changes happen as in play
        deal.phase = t.resume_phase
    deal.play_cards(seat, cards, reading)
    reporting.made_when_laid(deal, seat, t.laid_at.get(seat))
    if report_now and t.report_due == seat:
        t.report_due = None
        deal.report(seat)
    if awaiting and deal.phase is not Phase.SCORED and deal.phase is not Phase.AWAITING_RULING:
        t.resume_phase = deal.phase
        deal.phase = Phase.AWAITING_RULING


def on_return(deal: Deal, effect: Any, plan: Any) -> None:
    """The cards go back: a card drawn out of turn onto the stock, cards laid on the table
    into the hand (every Return of the seat in the ruling at once)."""
    if return_grabbed(deal, effect, plan.reason, return_cards):
        return
    seat, cards = effect.seat, [Card(c) for c in effect.cards]
    laid = table_of(deal).on_table.get(seat, [])
    taken = []
    while (more := plan.take("Return", seat=seat)) is not None:
        taken.append(more)
    for more in taken:
        cards += [Card(c) for c in more.cards]
    need, have = Counter(cards), Counter(laid)
    if not cards or any(have[c] < n for c, n in need.items()):
        raise refuse(effect, f"seat {seat} has not got these cards lying on the table "
                      f"({' '.join(codes(sort_cards(laid))) or 'none'})")
    whole = need == have
    return_cards(deal, seat, plan.reason, only=None if whole else cards)


def on_play_stands(deal: Deal, effect: Any, plan: Any) -> None:
    """The cards ``seat`` left lying on the table stand as its play, as ``reading``."""
    laid = table_of(deal).on_table.get(effect.seat)
    if not laid:
        raise refuse(effect, f"no cards of seat {effect.seat} lie on the table")
    if effect.reading is None:
        raise refuse(effect, "names no combination for the cards to stand as")
    reading = Reading.from_code(effect.reading)
    if reading not in readings(sort_cards(laid), deal.level, deal.rules):
        raise refuse(effect, f"the cards lying on the table are no {effect.reading}")
    stand_play(deal, effect.seat, laid, reading, plan.reason + ": the rest stands")


def check_holds(deal: Deal, seat: int, cards: Sequence[Card]) -> None:
    """What cannot even be attempted: cards the seat does not hold, a seat out of play."""
    if seat not in range(NUM_SEATS):
        raise IllegalAction(f"no seat {seat}")
    if not cards:
        raise IllegalAction("no cards (a pass is not a play)")
    if not holds(deal.hands[seat], cards):
        raise IllegalAction(f"cards not in hand: {' '.join(map(str, cards))}")
    if seat in table_of(deal).placed_last:
        raise IllegalAction(f"seat {seat} is judged last and plays no more")
