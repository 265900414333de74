"""暴露张 and 罚张 (GD-6): exposed cards stay in the owner's hand, marked; penalty cards must
be played at each legal chance, of the kind the holder's 下家 designates (``Designation``)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import attrs

from guandan import events as ev
from guandan.combos import Reading, readings
from guandan.movegen import Move, legal_plays
from guandan.refereed import lead_option, state
from guandan.refereed.state import table_of
from tabletop import refereed
from tabletop.cards import Card, codes, sort_cards, without
from tabletop.refereed import effect_seat
from tabletop.rulings import refuse
from tabletop.seats import next_seat, partner, prev_seat

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


@attrs.define(slots=True, eq=False)
class Exposure:
    """Exposed cards of one seat from one incident (a multiset that shrinks as they are
    played). ``kind``: their combination type, or None when they form none; ``penalty``:
    they are penalty cards (GD-6)."""

    uid: int
    seat: int
    cards: list[Card]
    kind: str | None
    reason: str
    penalty: bool = False
    size: int = attrs.field(default=0)
    """How many cards ``kind`` was read from (it is read again when fewer remain)."""
    led_after_sequence: bool = False
    """The ruling that exposed them also imposed a pass sequence after which their owner
    leads a new round (``PassSequence`` with then 'offender_leads'): it leads them then."""

    def __attrs_post_init__(self) -> None:
        self.size = self.size or len(self.cards)


@attrs.define(slots=True)
class Designation:
    """GD-6 (``penalty_cards``): the kind ``holder``'s penalty cards must be played as on turn
    number ``turn``, designated by its 下家."""

    holder: int
    turn: int
    kind: str


def expose(deal: Deal, seat: int, cards: Iterable[Card], reason: str, *,
           then: Callable[[Any, Exposure, str], None] | None,
           reading: Reading | None = None, only_new: bool = True) -> Exposure | None:
    """暴露张: ``cards`` (in ``seat``'s hand) lie face up, seen by all, still its own.
    ``then(deal, exposure, reason)`` carries out the ruling's instruction about them:
    ``lead_option.set_option`` (the GD-2.3.1 option for the partner's next lead; the cards
    must form a combination) or ``as_penalty`` (penalty cards at once, GD-6); None: they are
    only exposed. ``only_new``: cards that
    already lay exposed are left out (not exposed twice); False: ``cards`` are exactly
    the ones to expose (an ``Expose`` effect)."""
    t = table_of(deal)
    cards = sort_cards(cards)
    new = newly_exposed(deal, seat, cards) if only_new else cards
    if len(new) != len(cards):  # some of them lay exposed already (and went out in the attempt)
        cards, reading = new, None
        if not cards:
            return None
    found = readings(cards, deal.level, deal.rules)
    if reading is None or reading not in found:
        reading = found[0] if found else None
    kind = None if reading is None else state.kind_key(reading)
    exposure = Exposure(t.next_uid, seat, list(cards), kind, reason)
    t.next_uid += 1
    t.exposures.append(exposure)
    deal.stream.emit(ev.CardsExposed, seat=seat, cards=codes(cards), combination=kind, reason=reason)
    if then is not None:
        then(deal, exposure, reason)
    deal.legal_cache = None
    return exposure


def newly_exposed(deal: Deal, seat: int, cards: Iterable[Card]) -> list[Card]:
    """Those of ``cards`` that do not lie exposed in front of ``seat`` already."""
    already = [c for e in table_of(deal).exposures if e.seat == seat for c in e.cards]
    cards = sort_cards(cards)
    return sort_cards(without(cards, already)) if already else cards


def as_penalty(deal: Deal, exposure: Exposure, reason: str) -> None:
    """The exposed cards are penalty cards at once (GD-6)."""
    make_penalty(deal, exposure.seat, exposure, reason)


def make_penalty(deal: Deal, seat: int, exposure: Exposure | None, reason: str) -> None:
    """Exposed cards (one exposure, or all of the seat's) become penalty cards (GD-6)."""
    t = table_of(deal)
    for e in t.exposures:
        if e.seat == seat and (exposure is None or e is exposure) and not e.penalty:
            e.penalty = True
            deal.stream.emit(ev.PenaltyCardsMarked, seat=seat, cards=codes(e.cards), reason=reason)
    deal.legal_cache = None


def penalty_moves(deal: Deal, seat: int, top: Reading | None) -> list[Move]:
    """GD-6: the legal plays made only of ``seat``'s penalty cards (of the designated
    kind, once designated; within a lead restriction in force). Empty: this is no legal
    opportunity for them."""
    t = table_of(deal)
    cards = [c for e in t.exposures if e.seat == seat and e.penalty for c in e.cards]
    if not cards:
        return []
    moves = legal_plays(cards, top, deal.level, rules=deal.rules)
    if top is None and t.restriction is not None:
        r = lead_option.restriction_in_force(deal, seat)
        if r is not None:
            moves = [m for m in moves if lead_option.allows(r, m.cards, m.reading)]
    d = t.designation
    if d is not None and d.holder == seat and d.turn == t.turns:
        moves = [m for m in moves if state.kind_key(m.reading) == d.kind] or moves
    return moves


def consume_exposed(deal: Deal, seat: int, cards: Iterable[Card]) -> None:
    t = table_of(deal)
    rest = list(cards)
    for e in t.exposures:
        if e.seat != seat:
            continue
        for c in list(e.cards):
            if c in rest:
                e.cards.remove(c)
                rest.remove(c)
    shrunk = [e for e in t.exposures if e.seat == seat and e.cards and len(e.cards) < e.size]
    gone = {e.uid for e in t.exposures if not e.cards}
    if gone:
        t.exposures = [e for e in t.exposures if e.cards]
        t.lead_options = [o for o in t.lead_options if o.uid not in gone]
    for e in shrunk:   # some of them played: the type is read from what remains
        e.size = len(e.cards)
        lead_option.reread(deal, e)
    lead_option.exposed_cards_gone(deal)


def on_expose(deal: Deal, effect: Any, plan: Any) -> None:
    """暴露张: the cards lie face up, still their owner's; with the ``LeadOption`` (the
    partner's next lead, chosen by the 上家) or the ``PenaltyCards`` of the same cards listed
    after it, that follows at once."""
    seat = effect_seat(effect)
    cards = sort_cards(Card(c) for c in effect.cards)
    hand = deal.hands[seat]
    exposed = Counter(c for e in table_of(deal).exposures if e.seat == seat for c in e.cards)
    if not cards or any(hand[c] - min(exposed[c], hand[c]) < n for c, n in Counter(cards).items()):
        raise refuse(effect, f"seat {seat} does not hold these cards unexposed")
    reading: Reading | None = None
    then: Callable[[Any, Exposure, str], None] | None = None
    lead = plan.take("LeadOption", chooser=prev_seat(seat), restricted_seat=partner(seat))
    if lead is not None:
        reading = next((r for r in readings(cards, deal.level, deal.rules)
                        if state.kind_key(r) == lead.exposed_kind), None)
        if reading is None:
            raise refuse(effect, f"the cards do not form a {lead.exposed_kind} for the lead option")
        then = functools.partial(lead_option.set_option, ruling=plan.ruling)
    elif plan.take("PenaltyCards", seat=seat, cards=effect.cards) is not None:
        then = as_penalty
    exposure = expose(deal, seat, cards, plan.reason, then=then, reading=reading, only_new=False)
    if exposure is not None:
        exposure.led_after_sequence = any(e.KIND == "PassSequence" and e.then == "offender_leads"
                                          and e.offender == seat for e in plan.effects)


def on_with_expose(deal: Deal, effect: Any, plan: Any) -> None:
    raise refuse(effect, "is carried out with the Expose of its cards, listed before it "
                  "(LeadOption: chooser the owner's 上家, restricted seat its partner)")


def designated(deal: Deal, choice: Any, option: str) -> None:
    """GD-6: the holder's 下家 designated the kind its penalty cards are played as this turn."""
    t = table_of(deal)
    t.designation = Designation(choice.about, t.turns, option)
    deal.stream.emit(ev.PenaltyKindDesignated, seat=choice.seat, holder=choice.about, combination=option)


DESIGNATED = state.STEPS.register(designated)


def on_turn(deal: Deal, seat: int, leading: bool) -> Any:
    """The turn hook: when the holder's penalty cards could be played as several kinds, its
    下家 designates one first (GD-6; at the table even when out)."""
    t = table_of(deal)
    if t.exposures and any(e.seat == seat and e.penalty for e in t.exposures):
        d = t.designation
        if d is None or d.holder != seat or d.turn != t.turns:
            top = None if leading else deal.top  # not leading: a play lies on the table
            moves = penalty_moves(deal, seat, None if top is None else top.reading)
            kinds = sorted({state.kind_key(m.reading) for m in moves})
            if len(kinds) > 1:
                refereed.offer_choice(deal, next_seat(seat), "designate", tuple(kinds), about=seat,
                                      then=DESIGNATED)
                return state.WAIT
    return state.NEXT
