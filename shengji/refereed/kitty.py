"""Kitty irregularities: a wrong number of cards buried (found at the banker's first lead),
the burial redone."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shengji.actions import Bury
from shengji.events import BurialUndone
from shengji.phase import Phase
from shengji.refereed import on_table
from shengji.refereed.state import table_of
from tabletop.cards import codes, holds, sort_cards
from tabletop.errors import IllegalAction
from tabletop.rulings import RulingPlan, refuse

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from shengji.deal import Deal


def bury(deal: Deal, a: Bury) -> None:
    t = table_of(deal)
    if t.choice is not None:
        raise IllegalAction("a choice must be answered first")
    found = deal.illegality(a)
    if found is not None and found[0] != "wrong_bury_count":
        raise IllegalAction(found[1])
    if found is not None:
        if not a.cards or not holds(deal.hands[a.seat], a.cards):
            raise IllegalAction("cards not in hand")
        t.bad_burial = len(a.cards)       # nobody notices until the banker leads
    on_table.unexpose(deal, a.seat, a.cards)
    deal.bury_cards(a)


def undo_burial(deal: Deal, reason: str) -> None:
    """The banker takes its buried cards back and buries again (SJ-3.1.10.1)."""
    t = table_of(deal)
    banker = deal.banker
    assert banker is not None, "the banker has buried"
    cards = list(deal.kitty)
    deal.kitty = []
    deal.buried = False
    deal.add_cards(banker, cards)
    t.bad_burial = None
    t.resume_phase = Phase.KITTY
    deal.turn = banker
    deal.stream.emit(BurialUndone, seat=banker, cards=codes(sort_cards(cards)), reason=reason)


def on_redo_bury(deal: Deal, effect: Any, plan: RulingPlan) -> None:
    """The banker takes its buried cards back and buries again."""
    if effect.seat != deal.banker or not deal.buried or deal.tricks or deal.trick:
        raise refuse(effect, f"seat {effect.seat} has no burial of this deal to redo")
    undo_burial(deal, plan.reason)
