"""Declaration irregularities: simultaneous declarations (lots or the partners' choice),
the right to declare lost."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from shengji.actions import Declare, DeclareAtOnce, action_to_data
from shengji.declare import Declaration, declaration_options, why_not_overcall
from shengji.events import DeclarationBarred, DeclarationDeclined, DeclarationStands, IrregularAttempt
from shengji.phase import Phase
from shengji.refereed import state
from shengji.refereed.state import table_of
from tabletop import refereed
from tabletop.cards import codes, holds
from tabletop.errors import IllegalAction
from tabletop.rulings import facts as make_facts
from tabletop.rulings import RulingPlan, refuse
from tabletop.seats import partner

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from shengji.deal import Deal


def declare_at_once(deal: Deal, a: DeclareAtOnce) -> None:
    t = table_of(deal)
    other = partner(a.seat)
    if (deal.phase not in (Phase.DRAW, Phase.DECLARE) or deal.to_act != other or t.draw.step
            or t.choice is not None):
        raise IllegalAction("declaring at once needs the partner to be at a declaration chance")
    if a.seat in deal.declare_barred:
        raise IllegalAction(f"seat {a.seat} has lost the right to declare in this deal")
    if not holds(deal.hands[a.seat], a.cards):
        raise IllegalAction("cards not in hand")
    message = why_not_overcall(a.seat, a.cards, deal.level, deal.declaration, deal.rules.pair_vs_pair)
    if message is not None:
        raise IllegalAction(message)
    options = declaration_options(deal.hands[other], deal.level, other, deal.declaration,
                                  deal.rules.pair_vs_pair)
    if not options:
        raise IllegalAction(f"seat {other} has nothing to declare")
    mine = options[0]
    shown = {a.seat: codes(a.cards), other: codes(mine)}
    e = deal.stream.emit(
        IrregularAttempt, seat=a.seat, irregularity="simultaneous_declaration", action=action_to_data(a),
        facts=make_facts(seats=tuple(sorted((a.seat, other))), chose_instead_of_lots=a.chose,
                         declarations=((a.seat, codes(a.cards)), (other, codes(mine))),
                         chosen=a.seat if a.chose else None))
    t.shown[e.seq] = shown
    refereed.await_ruling(deal, e.seq, "simultaneous_declaration", a.seat, e, then=DECLARE_ON)


def declare(deal: Deal, a: Any) -> None:
    t = table_of(deal)
    if t.draw.step or t.choice is not None:
        raise IllegalAction(f"a {type(a).__name__} is not possible now")
    found = deal.illegality(a)
    if found is not None:
        raise IllegalAction(found[1])
    if type(a) is Declare:
        deal.make_declaration(a)
    else:
        deal.stream.emit(DeclarationDeclined, seat=a.seat)
        deal.resume_declaring()


def bar_declaration(deal: Deal, seat: int, reason: str) -> None:
    """``seat`` may not declare or overcall trump for the rest of this deal."""
    deal.declare_barred.add(seat)
    deal.stream.emit(DeclarationBarred, seat=seat, reason=reason)


def settle_declaration(deal: Deal, seat: int, cards: Iterable[Any], withdrawn: int, reason: str, *,
                       how: str = "lots") -> None:
    """Of two declarations shown at the same moment, ``seat``'s (``cards``) stands and
    ``withdrawn``'s is taken back."""
    declaration = Declaration(seat, cards)
    deal.declaration = declaration
    deal.declarations += (declaration,)
    deal.stream.emit(DeclarationStands, seat=seat, cards=codes(declaration.cards), trump=declaration.trump,
                     withdrawn=withdrawn, how=how, reason=reason)


def on_lose_declaration_right(deal: Deal, effect: Any, plan: RulingPlan) -> None:
    bar_declaration(deal, effect.seat, plan.reason)


def shown_declarations(deal: Deal, effect: Any, plan: RulingPlan, seat: int | None) -> tuple[dict, int]:
    shown = None if plan.answers is None else table_of(deal).shown.get(plan.answers)
    if shown is None:
        raise refuse(effect, "no simultaneous declarations await this ruling")
    if seat not in shown:
        raise refuse(effect, f"seat {seat} showed none of the simultaneous declarations")
    return shown, next(s for s in shown if s != seat)


def on_lots_draw(deal: Deal, effect: Any, plan: RulingPlan) -> None:
    """The declaration of the seat the lot fell on stands; the other is taken back."""
    shown, other = shown_declarations(deal, effect, plan, effect.winner)
    if set(effect.seats) != set(shown):
        raise refuse(effect, f"the declarations shown were seats {sorted(shown)}'s")
    settle_declaration(deal, effect.winner, shown[effect.winner], other, plan.reason, how="lots")


def on_declaration_stands(deal: Deal, effect: Any, plan: RulingPlan) -> None:
    """The declaration the partners chose stands; the other is taken back."""
    shown, other = shown_declarations(deal, effect, plan, effect.seat)
    settle_declaration(deal, effect.seat, shown[effect.seat], other, plan.reason, how="chosen")


def declare_on(deal: Deal) -> None:
    """Simultaneous declarations were ruled on: the declaring goes on."""
    deal.resume_declaring()


DECLARE_ON = state.STEPS.register(declare_on)
