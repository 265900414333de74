"""Cards laid on the table (an attempt), still their owner's, and exposed cards (暴露张):
laid, returned (face up or not), exposed; plays of the open trick taken back (a wrong follow
found late). Cards standing as a play are ``play``'s."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import attrs

from shengji.actions import DropCard, action_to_data
from shengji.events import CardsExposed, CardsReturned, IrregularAttempt, PlaysTakenBack
from shengji.phase import Phase
from shengji.refereed.state import table_of
from tabletop import refereed
from tabletop.cards import Card, codes, count_list, holds, sort_cards, without
from tabletop.errors import IllegalAction
from tabletop.rulings import facts as make_facts
from tabletop.refereed import effect_seat, return_grabbed
from tabletop.rulings import RulingPlan, refuse

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from shengji.deal import Deal


@attrs.define(slots=True)
class AttemptOnTable:
    """A play attempt lying on the table (``play``): ``cards`` of the play, ``extra`` cards."""

    seat: int
    irregularity: str
    cards: tuple[Card, ...]
    extra: tuple[Card, ...]


def trump_now(deal: Deal) -> str | None:
    """Trump as the table knows it now (during the draw: the standing declaration's)."""
    if deal.trump_known:
        return deal.trump
    return None if deal.declaration is None else deal.declaration.trump

def take(deal: Deal, seat: int, cards: Iterable[Card]) -> None:
    cards = list(cards)
    deal.remove_cards(seat, cards)
    unexpose(deal, seat, cards)


def lay(deal: Deal, seat: int, cards: Iterable[Card]) -> None:
    cards = list(cards)
    take(deal, seat, cards)
    table_of(deal).on_table.lay(seat, cards)


def unexpose(deal: Deal, seat: int, cards: Iterable[Card]) -> None:
    """Cards that leave the hand are no longer exposed in front of it."""
    exposed = table_of(deal).exposed[seat]
    if exposed:
        for c in cards:
            if c in exposed:
                exposed.remove(c)


def return_cards(deal: Deal, seat: int, reason: str, *, cards: Iterable[Card] | None = None,
                 exposed: bool = True) -> tuple[Card, ...]:
    """Cards ``seat`` laid on the table (all, or ``cards``) go back to its hand, face up
    (``exposed``) or not. A card drawn out of turn goes back onto the stock instead, to be
    drawn by its rightful drawer."""
    t = table_of(deal)
    if t.grab is not None and t.grab.seat == seat:
        card = t.grab.card
        if t.grab.in_hand:
            take(deal, seat, [card])
        else:
            t.on_table.pick_up(seat, [card])
        deal.drawn -= 1                  # the card is back on top of the stock
        t.grab = None
        deal.stream.emit(CardsReturned, seat=seat, cards=(str(card),), to="stock", exposed=False,
                         reason=reason)
        return (card,)
    back = t.on_table.pick_up(seat, cards)
    deal.add_cards(seat, back)
    if exposed:
        t.exposed[seat].extend(back)
    deal.stream.emit(CardsReturned, seat=seat, cards=codes(sort_cards(back)), to="hand", exposed=exposed,
                     reason=reason)
    return tuple(back)


def expose(deal: Deal, seat: int, cards: Iterable[Card], reason: str) -> None:
    """暴露张: ``cards`` of ``seat``'s hand lie face up in front of it until played."""
    cards = list(cards)
    table_of(deal).exposed[seat].extend(cards)
    deal.stream.emit(CardsExposed, seat=seat, cards=codes(sort_cards(cards)), reason=reason)


def attempt_cards(deal: Deal, seq: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """(play cards, extra cards) of the attempt ``seq`` lying on the table."""
    attempt = table_of(deal).attempts[seq]
    return attempt.cards, attempt.extra


def attempt(deal: Deal, a: Any, irregularity: str, *, cards: tuple[Card, ...] | None = None,
            extra: tuple[Card, ...] = (), **info: Any) -> None:
    """Lay the attempt's cards on the table and wait for the ruling."""
    laid = a.cards if cards is None else cards
    info = dict(info, cards=codes(laid))
    if extra:
        info["extra"] = codes(extra)
    info.setdefault("level", deal.level_text)
    info.setdefault("trump", deal.trump)
    info.setdefault("trick", deal.trick_number)
    e = deal.stream.emit(IrregularAttempt, seat=a.seat, irregularity=irregularity,
                         action=action_to_data(a), facts=make_facts(**info))
    lay(deal, a.seat, laid)
    table_of(deal).attempts[e.seq] = AttemptOnTable(a.seat, irregularity, tuple(without(laid, extra)), tuple(extra))
    refereed.await_ruling(deal, e.seq, irregularity, a.seat, e)


def on_return(deal: Deal, effect: Any, plan: RulingPlan) -> None:
    """The cards go back where they came from: a card drawn out of turn onto the stock,
    cards laid on the table into the hand (face up when the ruling also exposes them)."""
    if return_grabbed(deal, effect, plan.reason, return_cards):
        return
    seat, cards = effect.seat, [Card(c) for c in effect.cards]
    laid = table_of(deal).on_table.get(seat, [])
    if cards and holds(count_list(laid), cards):
        whole = Counter(cards) == Counter(laid)
        return_cards(deal, seat, plan.reason, cards=None if whole else cards,
                          exposed=plan.take("Expose", seat=seat, cards=effect.cards) is not None)
        return
    position = next((i for i, (s, _) in enumerate(deal.trick) if s == seat), None)
    if cards and position is not None and Counter(deal.trick[position][1]) == Counter(cards):
        take_back(deal, effect, plan, seat, position)
        return
    raise refuse(effect, f"seat {seat} has not got these cards lying on the table "
                  f"({' '.join(codes(sort_cards(laid))) or 'none'}) nor as its play in the open trick")


def on_expose(deal: Deal, effect: Any, plan: RulingPlan) -> None:
    """暴露张: the cards lie face up in front of their owner."""
    seat = effect_seat(effect)
    cards = [Card(c) for c in effect.cards]
    if not cards or not holds(deal.hands[seat], table_of(deal).exposed[seat] + cards):
        raise refuse(effect, f"seat {seat} does not hold these cards unexposed")
    expose(deal, seat, cards, plan.reason)


def drop(deal: Deal, a: DropCard) -> None:
    t = table_of(deal)
    if not a.cards:
        raise IllegalAction("drop at least one card")
    shown = t.exposed[a.seat] + list(a.cards)
    if not holds(deal.hands[a.seat], shown):
        raise IllegalAction("cards not in hand (or already exposed)")
    during = "sorting" if a.sorting else {
        Phase.DRAW: "draw", Phase.DECLARE: "draw", Phase.KITTY: "burial", Phase.PLAY: "play"}[deal.phase]
    e = deal.stream.emit(IrregularAttempt, seat=a.seat, irregularity="exposed_card", action=action_to_data(a),
                         facts=make_facts(cards=codes(a.cards), during=during, level=deal.level_text,
                                          trump=trump_now(deal)))
    refereed.await_ruling(deal, e.seq, "exposed_card", a.seat, e)


def take_back_plays(deal: Deal, seat: int, reason: str) -> None:
    """The plays of the open trick from ``seat``'s on go back: ``seat``'s exposed, the
    later ones not; ``seat`` plays again (a wrong follow found after the next seat played)."""
    t = table_of(deal)
    position = next(i for i, (s, _) in enumerate(deal.trick) if s == seat)
    taken = deal.trick[position:]
    del deal.trick[position:]
    for s, cards in taken:
        deal.add_cards(s, cards)
        if s == seat:
            t.exposed[s].extend(cards)
    deal.stream.emit(PlaysTakenBack, seat=seat, seats=tuple(s for s, _ in taken),
                     cards=tuple(codes(c) for _, c in taken), reason=reason)
    deal.turn = seat


def take_back(deal: Deal, effect: Any, plan: RulingPlan, seat: int, position: int) -> None:
    """A play of the open trick taken back: it comes back face up, the later plays come
    back to be played again, and ``seat`` plays again — one primitive, so the ruling must
    list all of it (Expose, Replay of the later seats, CorrectFollow)."""
    later = tuple(sorted(s for s, _ in deal.trick[position + 1:]))
    if deal.phase is not Phase.AWAITING_RULING:
        raise refuse(effect, "the table is not waiting for a ruling")
    wanted = [("Expose", dict(seat=seat, cards=effect.cards)), ("CorrectFollow", dict(seat=seat))]
    if later:
        wanted.append(("Replay", dict(seats=later)))
    done = set(plan.done)
    for kind, fields in wanted:
        if not plan.take(kind, **fields):
            plan.done = done
            shown = ", ".join(f"{k}={v}" for k, v in fields.items())
            raise refuse(effect, f"a play taken back from the open trick needs {kind}({shown}) listed with it")
    take_back_plays(deal, seat, plan.reason)
