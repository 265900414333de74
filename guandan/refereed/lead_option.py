"""The GD-2.3.1 lead option (a forbid / b require / c free) about exposed cards, and the lead
restriction it leaves (``LeadRestriction``), applied to the legal leads."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from guandan import events as ev
from guandan.combos import BOMB_KINDS, Reading, readings
from guandan.movegen import Move, plays
from guandan.refereed import state
from guandan.refereed.state import table_of
from tabletop import refereed
from tabletop.cards import Card, codes, sort_cards
from tabletop.games import cited_by_referee
from tabletop.seats import partner, prev_seat

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal

PURPOSE = "lead_option"
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
    if t.choice is not None and t.choice.purpose == PURPOSE and t.choice.about == opt.uid:
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
    kinds = [state.kind_key(r) for r in found]
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
        kept = [m for m in moves if state.kind_key(m.reading) != kind]
    elif rule == "require":
        kept = [m for m in moves if state.kind_key(m.reading) == kind]
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
    return (state.kind_key(reading) == kind) == (rule == "require")


def chosen(deal: Deal, choice: Any, option: str) -> None:
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


CHOSEN = state.STEPS.register(chosen, "lead_option_chosen")


def on_turn(deal: Deal, seat: int, leading: bool) -> Any:
    """The turn hook: before a restricted seat leads, its partner's 下家 is asked (once per lead)."""
    t = table_of(deal)
    if leading and t.lead_options and t.option_asked.get(seat) != t.lead_count:
        opt = next((o for o in t.lead_options if o.restricted == seat and o.asked_at < t.lead_count), None)
        if opt is not None:
            refereed.offer_choice(deal, opt.chooser, PURPOSE, LEAD_OPTIONS, about=opt.uid, then=CHOSEN)
            return state.WAIT
    return state.NEXT
