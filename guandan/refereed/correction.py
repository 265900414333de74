"""GD-2.4: a seat corrects its attempt (``Correction``); the cards it leaves unused are exposed."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import attrs

from guandan import events as ev
from guandan.combos import readings
from guandan.refereed import restrictions
from guandan.refereed.state import table_of
from tabletop.cards import Card, codes, holds, sort_cards, without
from tabletop.rulings import refuse

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


@attrs.define(slots=True)
class Correction:
    """GD-2.4 (``penalty_cards``): ``seat`` acts again on its attempt ``cards``; the cards the
    correction leaves unused are then exposed as ``unused`` says ('lead_option' | 'penalty')."""

    seat: int
    cards: list[Card]
    reason: str
    unused: str
    ruling: int | None = None
    """The seq of the ruling that called for the correction (a lead option it sets names it)."""


def await_correction(deal: Deal, seat: int, cards: Iterable[Card], reason: str, *, unused: str,
                     ruling: int | None = None) -> None:
    """``seat`` acts again when its turn comes (at once, for an attempt in turn; in the
    restored order, for an attempt on cards played out of turn and taken back): a legal
    play or a pass; the cards of its attempt not used in that correction are then exposed
    (GD-2.4), as the ruling said (``unused``, see
    ``tabletop.effects.CorrectPlay``): 'lead_option' (the option when they form a
    combination, else penalty cards) or 'penalty'."""
    t = table_of(deal)
    cards = sort_cards(cards)
    if unused not in ("lead_option", "penalty"):
        raise ValueError(f"await_correction: unknown instruction {unused!r}")
    t.correction = Correction(seat, list(cards), reason, unused, ruling)
    deal.stream.emit(ev.CorrectionDue, seat=seat, cards=codes(cards), reason=reason)
    deal.legal_cache = None


def expose_unused(deal: Deal, seat: int, used: Iterable[Card]) -> None:
    """The ruling's CorrectPlay(unused=...) carried out: 'penalty', or 'lead_option' (the
    option needs a combination: cards that form none are penalty cards)."""
    t = table_of(deal)
    c = t.correction
    assert c is not None, "called when the seat's correction is due"
    attempt, reason, rule = c.cards, c.reason, c.unused
    t.correction = None
    unused = without(attempt, used)
    new = restrictions.newly_exposed(deal, seat, unused)  # what expose will lay out
    if new:
        combo = bool(readings(new, deal.level, deal.rules))
        if rule == "lead_option" and combo:
            restrictions.expose(deal, seat, unused, reason,
                                 then=functools.partial(restrictions.set_option, ruling=c.ruling))
        else:
            restrictions.expose(deal, seat, unused, reason, then=restrictions.as_penalty)


def on_correct_play(deal: Deal, effect: Any, plan: Any) -> None:
    """``seat`` acts again on its attempt (``cards``, back in its hand); the cards the
    correction does not use are then dealt with as the ruling said (``unused``)."""
    if not effect.cards:
        raise refuse(effect, "names no attempt's cards to correct")
    if effect.unused is None:
        raise refuse(effect, "does not say what becomes of the cards the correction leaves unused")
    cards = sort_cards(Card(c) for c in effect.cards)
    if not holds(deal.hands[effect.seat], cards):
        raise refuse(effect, f"seat {effect.seat} does not hold the attempt's cards (list their Return first)")
    await_correction(deal, effect.seat, cards, plan.reason, unused=effect.unused, ruling=getattr(plan, "ruling", None))
