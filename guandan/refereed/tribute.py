"""Tribute and return, refereed (GD-3): a wrong tribute or return found at once or after the
first play (``LatentIrregularity``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from guandan import events as ev
from guandan.actions import DISCOVERED_AT_ONCE, GiveTribute, ReturnCard, action_to_data
from guandan.refereed import on_table, restrictions
from guandan.refereed.state import table_of
from tabletop import refereed
from tabletop.errors import IllegalAction
from tabletop.rulings import facts as make_facts

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


@attrs.define(slots=True)
class LatentIrregularity:
    """A wrong tribute or return nobody noticed (``tribute``), found after the first play."""

    seq: int
    irregularity: str
    seat: int
    facts: dict[str, Any]


def give_tribute(deal: Deal, a: GiveTribute, handed: bool) -> None:
    t = table_of(deal)
    found = deal.illegality(a)
    if found is None:
        restrictions.consume_exposed(deal, a.seat, [a.card])   # an exposed card given leaves its exposure
        deal.give_tribute(a.seat, a.card)
        return
    if found.code != "wrong_tribute":
        raise IllegalAction(found.message)
    stage = a.discovered or DISCOVERED_AT_ONCE
    facts = make_facts(**found.facts, discovered=stage)
    if stage == DISCOVERED_AT_ONCE:
        e = deal.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity="wrong_tribute",
                             action=action_to_data(a), facts=facts)
        on_table.lay(deal, a.seat, [a.card])
        refereed.await_ruling(deal, e.seq, "wrong_tribute", a.seat, e)
        return
    e = deal.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity="wrong_tribute",
                         action=action_to_data(a), facts=facts, latent=True)
    t.latent.append(LatentIrregularity(e.seq, "wrong_tribute", a.seat, dict(facts)))
    restrictions.consume_exposed(deal, a.seat, [a.card])
    deal.give_tribute(a.seat, a.card, emit=False)


def return_card(deal: Deal, a: ReturnCard, handed: bool) -> None:
    t = table_of(deal)
    found = deal.illegality(a)
    if found is None:
        restrictions.consume_exposed(deal, a.seat, [a.card])
        deal.give_return(a.seat, a.card)
        return
    if found.code != "wrong_return":
        raise IllegalAction(found.message)
    stage = a.discovered or DISCOVERED_AT_ONCE
    facts = make_facts(**found.facts, discovered=stage)
    if stage == DISCOVERED_AT_ONCE:
        e = deal.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity="wrong_return",
                             action=action_to_data(a), facts=facts)
        on_table.lay(deal, a.seat, [a.card])
        refereed.await_ruling(deal, e.seq, "wrong_return", a.seat, e)
        return
    e = deal.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity="wrong_return",
                         action=action_to_data(a), facts=facts, latent=True)
    t.latent.append(LatentIrregularity(e.seq, "wrong_return", a.seat, dict(facts)))
    restrictions.consume_exposed(deal, a.seat, [a.card])
    deal.give_return(a.seat, a.card, emit=False, to=found.facts["to"])


def discover(deal: Deal) -> None:
    t = table_of(deal)
    found, t.latent = t.latent, []
    for li in found:
        refereed.found(deal, li.seq, li.irregularity, li.seat, **{**li.facts, "discovered": "after_first_play"})


def on_later(deal: Deal, effect: Any, plan: Any) -> None:
    """RedoTribute / RedoReturn: the seat's own next tribute or return carries it out."""
