"""What stands against a seat after a ruling, consulted at its turn (``on_turn``, from the
engine's ``settle``) and inside ``legal_actions``:

- 禁出一手: a 'next_turn' bar (GD-2.3.1) waits for the seat's next turn to play; a 'round' bar
  (GD-2.2) lapses when its round ends. A barred lead goes to the 下家 (接风 when it is out). Two
  bars on one seat are two sanctions: each costs one turn, served one after the other in the
  order they were imposed (``table.bars``: seat → its bars' scopes, first to be served first).
- The GD-2.3.1 lead option (a forbid / b require / c free) about exposed cards, and the lead
  restriction it leaves (``LeadRestriction``), applied to the legal leads.
- 暴露张 and 罚张 (GD-6): exposed cards stay in the owner's hand, marked; penalty cards must be
  played at each legal chance, of the kind the holder's 下家 designates (``Designation``)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from guandan import events as ev
from guandan.combos import BOMB_KINDS, Reading, readings
from guandan.movegen import Move, legal_plays, plays
from guandan.refereed import state
from guandan.refereed.state import table_of
from tabletop import refereed
from tabletop.cards import Card, codes, sort_cards, without
from tabletop.games import cited_by_referee
from tabletop.refereed import effect_seat
from tabletop.rulings import refuse
from tabletop.seats import next_seat, partner, prev_seat

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


def kind_key(reading: Reading) -> str:
    """The combination type for the lead option (PD): the kind, bombs by size."""
    return f"BOMB {reading.size}" if reading.kind.name == "BOMB" else reading.kind.name


def on_turn(deal: Deal, seat: int, leading: bool) -> Any:
    """The turn hook of what stands against a seat, asked in order (only what is pending):
    a bar is served, a lead option asked, penalty cards' kind designated."""
    t = table_of(deal)
    if t.bars:
        verdict = bar_on_turn(deal, seat, leading)
        if verdict is not state.NEXT:
            return verdict
    if t.lead_options:
        verdict = lead_option_on_turn(deal, seat, leading)
        if verdict is not state.NEXT:
            return verdict
    if t.exposures:
        return penalty_on_turn(deal, seat, leading)
    return state.NEXT


# 禁出一手

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


def bar_on_turn(deal: Deal, seat: int, leading: bool) -> Any:
    """A barred seat's turn serves its first bar — a pass, or (a 'next_turn'
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


# The lead option and the lead restriction

LEAD_OPTION_PURPOSE = "lead_option"
"""The choice's purpose in the log (``table.choice``)."""
LEAD_OPTIONS = ("forbid", "require", "free")


@attrs.define(slots=True, eq=False)
class LeadOptionState:
    """GD-2.3.1: ``chooser`` decides about ``restricted``'s next lead (exposure ``uid``);
    ``asked_at``: the lead at which it was last answered 'free'; ``ruling``: the seq of the
    ruling that set it (None: carried out without a logged ruling)."""

    uid: int
    chooser: int
    restricted: int
    kind: str
    asked_at: int = -1
    ruling: int | None = None


@attrs.define(slots=True)
class LeadRestriction:
    """``seat``'s next lead (``lead_option``): must not ('forbid') or must ('require') be of
    ``kind``, or must be exactly ``cards`` ('cards', GD-4.2.3)."""

    seat: int
    rule: str
    kind: str
    cards: tuple[Card, ...] = ()


def set_option(deal: Deal, exposure: Any, reason: str, ruling: int | None = None) -> None:
    """GD-2.3.1: the exposed cards' owner's 上家 will choose about its partner's next lead
    (``ruling``: the seq of the ruling that says so). A partner that can never lead again
    lets it lapse at once (``lapse``)."""
    if exposure.kind is None:
        raise ValueError(f"{reason}: no lead option about cards that form no combination")
    seat = exposure.seat
    opt = LeadOptionState(exposure.uid, prev_seat(seat), partner(seat), exposure.kind, ruling=ruling)
    t = table_of(deal)
    t.lead_options.append(opt)
    deal.stream.emit(ev.LeadOptionSet, seat=seat, chooser=opt.chooser, restricted=opt.restricted,
                     combination=exposure.kind, cards=codes(exposure.cards))
    if not partner_may_lead(deal, seat):
        restricted_gone(deal, opt.restricted, "partner_judged_last" if opt.restricted in t.placed_last
                        else "partner_out")


def cited(step: str) -> str:
    """The clause the referee has the table cite for a lead option's ``step``."""
    return cited_by_referee("guandan", step)


LAPSES = {
    "partner_out": "its partner went out: the lead option can never be asked",
    "partner_judged_last": "its partner was judged 下游 (单下): the lead option can never be asked",
    "no_combination_left": "what remains of them forms no combination",
}
"""Why a lead option lapses and its exposed cards become penalty cards without a new ruling
(the ``cause`` of the ``table.penalty_cards`` event): the meaning of the ``LeadOption`` the
ruling set (GD-2.3.1, seed 六: 暴露张未能按照第（二）款收回，则成为罚张)."""


def lapse(deal: Deal, opt: LeadOptionState, cause: str) -> None:
    """The lead option ``opt`` lapses (``cause``, one of ``LAPSES``): its exposed cards that
    are not penalty cards yet become penalty cards now (GD-6), logged with the cause and the
    ruling that set the option; a choice offered about it is withdrawn."""
    t = table_of(deal)
    t.lead_options.remove(opt)
    if t.choice is not None and t.choice.purpose == LEAD_OPTION_PURPOSE and t.choice.about == opt.uid:
        t.choice = None
    exposure = next((e for e in t.exposures if e.uid == opt.uid), None)
    if exposure is not None and not exposure.penalty:
        exposure.penalty = True
        deal.stream.emit(ev.PenaltyCardsMarked, seat=exposure.seat, cards=codes(exposure.cards),
                         reason=f"{cited('penalty_cards')}: {LAPSES[cause]} (暴露张未能收回，成为罚张)", cause=cause, ruling=opt.ruling)
    deal.legal_cache = None


def restricted_gone(deal: Deal, seat: int, cause: str) -> None:
    """``seat`` went out or was judged 单下 (``cause``): it can never lead again, so every
    lead option about its lead lapses."""
    for opt in [o for o in table_of(deal).lead_options if o.restricted == seat]:
        lapse(deal, opt, cause)


def reread(deal: Deal, exposure: Any) -> None:
    """Some of ``exposure``'s cards were played: the lead option's type is read again from
    those that remain (the type it had, if they still form it); none: its option lapses
    and they are penalty cards (PD)."""
    found = readings(exposure.cards, deal.level, deal.rules)
    kinds = [kind_key(r) for r in found]
    exposure.kind = exposure.kind if exposure.kind in kinds else kinds[0] if kinds else None
    for opt in [o for o in table_of(deal).lead_options if o.uid == exposure.uid]:
        if exposure.kind is None:
            lapse(deal, opt, "no_combination_left")
        else:
            opt.kind = exposure.kind


def partner_may_lead(deal: Deal, seat: int) -> bool:
    """Whether ``seat``'s partner can still have the lead this deal (not out, not 单下)."""
    p = partner(seat)
    t = table_of(deal)
    return bool(deal.sizes[p] or t.on_table.get(p)) and p not in t.placed_last


def restrict_lead(deal: Deal, seat: int, rule: str, kind: str, *, cards: Iterable[Card] = ()) -> None:
    """``seat``'s next lead must ('require'), must not ('forbid') be of ``kind``, or must
    be exactly ``cards`` ('cards'). Enforced in legal_actions(); it lapses when nothing
    (or, for 'require', only bombs) satisfies it."""
    t = table_of(deal)
    cards = tuple(sort_cards(cards))
    r = LeadRestriction(seat, rule, kind, cards)
    lapsed = satisfying(deal, r, _lead_readings(deal, seat)) is None
    t.restriction = r
    deal.stream.emit(ev.LeadRestricted, seat=seat, rule=rule, combination=kind, cards=codes(cards),
                     lapsed=lapsed)
    deal.legal_cache = None


def exposed_cards_gone(deal: Deal) -> None:
    """A restriction to lead exactly the exposed cards ('cards', GD-4.2.3) ends once any of
    them is no longer exposed in front of its seat, however it went (led, played on another
    seat's cards, lifted by a choice): those cards can no longer be led as exposed."""
    t = table_of(deal)
    r = t.restriction
    if r is None or r.rule != "cards":
        return
    exposed = Counter(c for e in t.exposures if e.seat == r.seat for c in e.cards)
    if any(exposed[c] < n for c, n in Counter(r.cards).items()):
        t.restriction = None
        deal.legal_cache = None


def _lead_readings(deal: Deal, seat: int) -> list[Move]:
    """``seat``'s leads with their readings only (no cards): what ``satisfying`` reads of
    them for 'forbid' and 'require' ('cards' reads none)."""
    listing = plays(deal.hands[seat], None, deal.level, deal.rules)
    return [Move((), reading) for _, recipes, first in listing.segments for reading, _, _ in recipes[first:]]


def lead_filter(deal: Deal, seat: int, moves: list[Move]) -> list[Move]:
    r = table_of(deal).restriction
    if r is None or r.seat != seat:
        return moves
    kept = satisfying(deal, r, moves)
    return kept if kept is not None else moves


def satisfying(deal: Deal, r: LeadRestriction, moves: list[Move]) -> list[Move] | None:
    """The moves a restriction allows, or None when it lapses (nothing satisfies it;
    for 'require', also when only bombs do: refusal granted, PD)."""
    rule, kind, cards = r.rule, r.kind, r.cards
    if rule == "forbid":
        kept = [m for m in moves if kind_key(m.reading) != kind]
    elif rule == "require":
        kept = [m for m in moves if kind_key(m.reading) == kind]
        if kept and all(m.reading.kind in BOMB_KINDS for m in kept):
            return None
    else:  # 'cards': exactly these cards (GD-4.2.3: the offender leads its exposed cards)
        want = sort_cards(cards)
        kept = [Move(tuple(want), rd) for rd in readings(want, deal.level, deal.rules)]
    return kept or None


def restriction_in_force(deal: Deal, seat: int) -> LeadRestriction | None:
    """The lead restriction on ``seat`` if it does not lapse for its hand now."""
    r = table_of(deal).restriction
    if r is None or r.seat != seat:
        return None
    return None if satisfying(deal, r, _lead_readings(deal, seat)) is None else r


def allows(r: LeadRestriction, cards: Sequence[Card], reading: Reading) -> bool:
    rule, kind = r.rule, r.kind
    if rule == "cards":
        return sort_cards(cards) == list(r.cards)
    return (kind_key(reading) == kind) == (rule == "require")


def lead_option_chosen(deal: Deal, choice: Any, option: str) -> None:
    """The chooser picked ``option`` about the exposure ``choice.about``: a / b restrict the
    lead and lift the exposure; c leaves the cards as penalty cards."""
    uid = choice.about
    t = table_of(deal)
    opt = next(o for o in t.lead_options if o.uid == uid)
    exposure = next(e for e in t.exposures if e.uid == uid)
    t.option_asked[opt.restricted] = t.lead_count
    if option == "free":
        opt.asked_at = t.lead_count
        if not exposure.penalty:
            exposure.penalty = True
            deal.stream.emit(ev.PenaltyCardsMarked, seat=exposure.seat, cards=codes(exposure.cards),
                             reason=f"{cited('penalty_cards')}: choice c, the exposed cards stay")
        return
    t.lead_options.remove(opt)
    t.exposures.remove(exposure)
    exposed_cards_gone(deal)
    deal.stream.emit(ev.ExposureLifted, seat=exposure.seat, cards=codes(exposure.cards),
                     reason=f"{cited('lead_option')}: choice {'a' if option == 'forbid' else 'b'}")
    restrict_lead(deal, opt.restricted, option, opt.kind)


LEAD_OPTION_CHOSEN = state.STEPS.register(lead_option_chosen)


def lead_option_on_turn(deal: Deal, seat: int, leading: bool) -> Any:
    """Before a restricted seat leads, its partner's 下家 is asked (once per lead)."""
    t = table_of(deal)
    if leading and t.lead_options and t.option_asked.get(seat) != t.lead_count:
        opt = next((o for o in t.lead_options if o.restricted == seat and o.asked_at < t.lead_count), None)
        if opt is not None:
            refereed.offer_choice(deal, opt.chooser, LEAD_OPTION_PURPOSE, LEAD_OPTIONS, about=opt.uid, then=LEAD_OPTION_CHOSEN)
            return state.WAIT
    return state.NEXT


# 暴露张 and 罚张

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
    ``set_option`` (the GD-2.3.1 option for the partner's next lead; the cards
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
    kind = None if reading is None else kind_key(reading)
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
        r = restriction_in_force(deal, seat)
        if r is not None:
            moves = [m for m in moves if allows(r, m.cards, m.reading)]
    d = t.designation
    if d is not None and d.holder == seat and d.turn == t.turns:
        moves = [m for m in moves if kind_key(m.reading) == d.kind] or moves
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
        reread(deal, e)
    exposed_cards_gone(deal)


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
                        if kind_key(r) == lead.exposed_kind), None)
        if reading is None:
            raise refuse(effect, f"the cards do not form a {lead.exposed_kind} for the lead option")
        then = functools.partial(set_option, ruling=plan.ruling)
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


def penalty_on_turn(deal: Deal, seat: int, leading: bool) -> Any:
    """When the holder's penalty cards could be played as several kinds, its
    下家 designates one first (GD-6; at the table even when out)."""
    t = table_of(deal)
    if t.exposures and any(e.seat == seat and e.penalty for e in t.exposures):
        d = t.designation
        if d is None or d.holder != seat or d.turn != t.turns:
            top = None if leading else deal.top  # not leading: a play lies on the table
            moves = penalty_moves(deal, seat, None if top is None else top.reading)
            kinds = sorted({kind_key(m.reading) for m in moves})
            if len(kinds) > 1:
                refereed.offer_choice(deal, next_seat(seat), "designate", tuple(kinds), about=seat,
                                      then=DESIGNATED)
                return state.WAIT
    return state.NEXT
