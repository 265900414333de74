"""The draw, refereed (GD-1): ``Draw`` runs it; a card drawn out of turn (``Grab``) lies on
the table or in the hand until ruled on; random draws and redeals carry rulings out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from guandan import events as ev
from guandan.actions import Draw, DrawOutOfTurn, action_to_data
from guandan.observation import Phase
from guandan.refereed import state
from guandan.refereed.state import table_of
from tabletop import refereed
from tabletop.cards import Card, codes
from tabletop.errors import IllegalAction
from tabletop.rulings import facts as make_facts
from tabletop.refereed import Grab
from tabletop.rulings import refuse
from tabletop.seats import NUM_SEATS, next_seat

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


@attrs.define(slots=True, eq=False)
class DrawState:
    """The draw's slice of the table: how the deal was set up to be drawn (``setup``: shuffler,
    cutter, first drawer, face-up card, what follows the draw), redeals so far, cards lost in
    the draw, the face-up card's position in the drawn order and the seat that drew it."""

    setup: dict[str, Any] = attrs.Factory(dict)
    redeals: int = 0
    lost: list[Card] = attrs.Factory(list)
    face_position: int | None = None
    face_drawer: int | None = None
    taken: int = 0
    """Cards taken from the stock so far (positions in the drawn order)."""


def draw(deal: Deal, a: Draw, handed: bool) -> None:
    if deal.phase is not Phase.DRAW:
        raise IllegalAction("no draw now")
    if a.seat != deal.to_act:
        raise IllegalAction(f"seat {deal.turn} draws next, not seat {a.seat}")
    n = len(deal.stock)
    if not a.flawed:
        deal.stream.emit(ev.DrawRan, seat=a.seat)
        run_draw(deal, n)
        finish_draw(deal)
        return
    if not 0 <= a.at < n:
        raise IllegalAction(f"the slip must happen within the {n} cards still to draw")
    turn = deal.turn
    assert turn is not None, "the draw: a seat draws next"
    rightful = (turn + a.at) % NUM_SEATS
    if a.extra_by is not None and (a.extra_by not in range(NUM_SEATS) or a.extra_by == rightful):
        raise IllegalAction("the extra card is taken by a seat other than its rightful drawer")
    counts = list(deal.sizes)
    seat = turn
    for i in range(n):
        if i == a.at and (a.lost or a.extra_by is not None):
            if a.extra_by is not None:
                counts[a.extra_by] += 1
            continue
        counts[seat] += 1
        seat = next_seat(seat)
    complete = not a.lost
    if complete and counts == [27] * 4:
        raise IllegalAction("that slip leaves every count right: no table could tell (draw normally)")
    ev_ = deal.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity="wrong_counts_after_draw",
                           action=action_to_data(a),
                           facts=make_facts(counts=tuple(counts), deck_complete=complete))
    run_draw(deal, n, slip=a)
    deal.stream.emit(ev.HandsComplete, sizes=tuple(deal.sizes))
    refereed.await_ruling(deal, ev_.seq, "wrong_counts_after_draw", None, ev_)


def run_draw(deal: Deal, count: int, slip: Draw | None = None) -> None:
    t = table_of(deal)
    turn = deal.turn
    assert turn is not None, "the draw: a seat draws next"
    if slip is None:  # the usual draw: what ``deal.draw_next`` does card by card, in one loop
        state = t.draw
        taken, face, seat = state.taken, state.face_position, turn
        if face is not None and taken <= face < taken + count:
            state.face_drawer = (seat + face - taken) % NUM_SEATS
        state.taken = taken + count
        stock = deal.stock
        cards = stock[:count]
        del stock[:count]
        seat = deal.draw_cards(cards, codes(cards), seat)
        for drawer in range(min(count, NUM_SEATS)):
            changed = (turn + drawer) % NUM_SEATS
            deal.hand_cache[changed] = deal.analysed[changed] = deal.shrunk_from[changed] = None
        deal.turn = seat
        return
    for i in range(count):
        if slip is not None and i == slip.at:
            if slip.lost:
                card = deal.stock.pop(0)
                t.draw.lost.append(card)
                t.draw.taken += 1
                deal.stream.emit(ev.CardLost, card=str(card))
            if slip.extra_by is not None:
                take_from_stock(deal, slip.extra_by)
            continue
        take_from_stock(deal, turn)
        deal.turn = turn = next_seat(turn)


def take_from_stock(deal: Deal, seat: int) -> Card:
    t = table_of(deal)
    if t.draw.taken == t.draw.face_position:
        t.draw.face_drawer = seat
    t.draw.taken += 1
    return deal.draw_next(seat)


def finish_draw(deal: Deal) -> None:
    deal.stream.emit(ev.HandsComplete, sizes=tuple(deal.sizes))
    after_draw(deal)


def after_draw(deal: Deal) -> None:
    t = table_of(deal)
    s = t.draw.setup
    if s.get("previous_order") is not None:
        deal.start_tribute(s["previous_order"], s["no_tribute_seats"], s["no_tribute"], s["leader"])
    elif s.get("leader") is not None:
        deal.start_play(s["leader"], "given")
    else:
        deal.start_play(t.draw.face_drawer if t.draw.face_drawer is not None else s["face_leader"], "face_up")


def draw_out_of_turn(deal: Deal, a: DrawOutOfTurn, handed: bool) -> None:
    t = table_of(deal)
    if deal.phase is not Phase.DRAW or t.grab is not None:
        raise IllegalAction("no draw out of turn now")
    n = len(deal.stock)
    if not 0 <= a.after < n:
        raise IllegalAction(f"only {n} cards are left to draw")
    turn = deal.turn
    assert turn is not None, "the draw: a seat draws next"
    rightful = (turn + a.after) % NUM_SEATS
    if a.seat == rightful:
        raise IllegalAction(f"seat {a.seat} is the rightful drawer of that card")
    card = deal.stock[a.after]
    face_card = t.draw.taken + a.after == t.draw.face_position
    inserted = a.inserted
    face_seen = a.face_seen or inserted or face_card
    identifiable = (a.identifiable or face_card) if inserted else True
    shown = face_seen and identifiable
    ev_ = deal.stream.emit(
        ev.IrregularAttempt, seat=a.seat, irregularity="draw_out_of_turn", action=action_to_data(a),
        facts=make_facts(rightful=rightful, face_seen=face_seen, inserted=inserted,
                         identifiable=identifiable, face_up_card=face_card,
                         card=str(card) if shown else None))
    run_draw(deal, a.after)
    drawn = deal.stock.pop(0)
    t.draw.taken += 1
    if inserted:
        deal.into_hand(a.seat, (drawn,))
    else:
        t.on_table.lay(a.seat, [drawn])
    t.grab = Grab(a.seat, drawn, inserted, rightful)
    refereed.await_ruling(deal, ev_.seq, "draw_out_of_turn", a.seat, ev_)


def random_draw(deal: Deal, source: int, to: int, reason: str) -> Card:
    """``to`` (the rightful drawer) draws a card at random from ``source``'s hand; the
    draw goes on with ``to``'s 下家 (GD-1.1.3b). The REFEREE stream decides."""
    t = table_of(deal)
    hand = deal.hand(source)
    card = hand[int(state.referee_rng(deal).integers(len(hand)))]
    deal.move_card(source, to, card)
    if t.grab is not None and t.grab.seat == source:
        t.grab = None
    deal.turn = next_seat(to)
    deal.stream.emit(ev.RandomlyDrawn, seat=to, source=source, cards=(str(card),), reason=reason)
    deal.legal_cache = None
    return card


def redeal(deal: Deal, fresh_deck: bool, reason: str) -> None:
    """Gather the cards and draw again (same shuffler, cutter, first drawer; the shuffle
    from the deal's SHUFFLE stream, attempt-numbered). ``fresh_deck``: a short deck is
    replaced (GD-1.2 PD)."""
    t = table_of(deal)
    if deal.seed is None:
        raise ValueError("a deal from explicit hands cannot be redealt")
    t.draw.redeals += 1
    k = t.draw.redeals
    deal.stream.emit(ev.Redealt, attempt=k, fresh_deck=fresh_deck, reason=reason)
    for s in range(NUM_SEATS):
        deal.hands[s] = [0] * 54
        deal.sizes[s] = 0
        deal.hand_cache[s] = deal.analysed[s] = deal.shrunk_from[s] = None
    t.on_table.clear()
    t.draw.lost.clear()
    t.grab = None
    t.draw.taken = 0
    t.draw.face_drawer = None
    shuffle_and_cut(deal, t.draw.setup, attempt=k)
    deal.legal_cache = None


def shuffle_and_cut(deal: Deal, s: dict, attempt: int = 0) -> None:
    """The shuffle, cut and (first deal) face-up card; the draw then waits for ``Draw``."""
    t = table_of(deal)
    deck, _, position = deal.shuffle_and_cut(s["shuffler"], s["cutter"], s["first_drawer"], s["face_up"], attempt)
    t.draw.face_position = position
    if position is not None:
        s["face_leader"] = (s["first_drawer"] + position) % NUM_SEATS
    deal.stock = deck
    deal.phase = Phase.DRAW
    deal.turn = s["first_drawer"]


def on_random_draw(deal: Deal, effect: Any, plan: Any) -> None:
    """GD-1.1.3b: ``to`` draws a card at random from ``source``'s hand (REFEREE stream); the
    draw goes on with ``to``'s 下家 (the ``RestoreOrder`` listed with it)."""
    if effect.source is None or effect.to is None or effect.source == effect.to or effect.count != 1:
        raise refuse(effect, "a random draw here is one card from one seat's hand to another seat")
    if deal.phase is not Phase.AWAITING_RULING or table_of(deal).resume_phase is not Phase.DRAW:
        raise refuse(effect, "a random draw is carried out during the draw")
    if not deal.sizes[effect.source]:
        raise refuse(effect, f"seat {effect.source} holds no card")
    if plan.take("RestoreOrder", seat=next_seat(effect.to)) is None:
        raise refuse(effect, f"the draw goes on with seat {next_seat(effect.to)}: list RestoreOrder with it")
    random_draw(deal, effect.source, effect.to, plan.reason)


def on_redeal(deal: Deal, effect: Any, plan: Any) -> None:
    """The cards are gathered and drawn again (a fresh deck for a short one)."""
    if deal.seed is None:
        raise refuse(effect, "a deal from explicit hands cannot be redealt")
    redeal(deal, effect.fresh_deck, plan.reason + (": short deck" if effect.fresh_deck else ""))
