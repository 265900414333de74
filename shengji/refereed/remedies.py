"""The remedies a miscount leaves to the non-offending side (SJ-1.10, SJ-3.1.7): a random
draw, a redeal, or a card handed over."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shengji.events import CardHandedOver, RandomlyDrawn, Redealt
from shengji.phase import Phase
from shengji.refereed import on_table, state
from shengji.refereed.state import table_of
from tabletop import rng as streams
from tabletop import refereed
from tabletop.cards import Card, codes
from tabletop.refereed import OnTable
from tabletop.rulings import RulingPlan, refuse
from tabletop.seats import next_seat

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from shengji.deal import Deal

MISCOUNT_DRAW = "miscount_draw"
"""SJ-1.10: the non-offending side decides whether a card is drawn at random."""


MISCOUNT_REMEDY = "miscount_remedy"
"""SJ-3.1.7: the non-offending side chooses a random draw or a redeal."""


HAND_OVER = "hand_over"
"""SJ-1.10 declined: the seat with the card too many hands one of its choice over (PD)."""


RANDOM_DRAW, DECLINE, REDEAL = "random_draw", "decline", "redeal"


_OPTION_NAMES = {"RandomDraw": RANDOM_DRAW, "Redeal": REDEAL}


_CHOICE_PURPOSES = {(RANDOM_DRAW, DECLINE): MISCOUNT_DRAW, (RANDOM_DRAW, REDEAL): MISCOUNT_REMEDY}
"""The choices a 双升 table can offer, by their options (a random draw of the miscount's
cards, or not / or a redeal)."""


def random_draw(deal: Deal, source: int, to: int, count: int, reason: str) -> tuple[Card, ...]:
    """``to`` draws ``count`` cards at random from ``source``'s hand (REFEREE stream). In
    the draw, after a card drawn out of turn and kept, it stands for the rightful
    drawer's draw of that card."""
    t = table_of(deal)
    rng = state.referee_rng(deal)
    drawn: list[Card] = []
    for _ in range(count):
        hand = deal.hand(source)
        card = hand[int(rng.random() * len(hand))]
        on_table.take(deal, source, [card])
        deal.add_cards(to, [card])
        drawn.append(card)
    if t.grab is not None and t.grab.seat == source:
        seat, card, in_hand, rightful = t.grab.seat, t.grab.card, t.grab.in_hand, t.grab.rightful
        if not in_hand:                      # the card on the table joins the hand it came to
            t.on_table.pick_up(seat, [card])
            deal.add_cards(seat, [card])
        t.grab = None
        deal.draw_seat = next_seat(rightful)
    deal.stream.emit(RandomlyDrawn, seat=to, source=source, cards=codes(drawn), reason=reason)
    return tuple(drawn)


def hand_over(deal: Deal, source: int, to: int, card: Card, reason: str) -> None:
    """``source`` hands ``card`` of its choice to ``to``."""
    on_table.take(deal, source, [card])
    deal.add_cards(to, [card])
    deal.stream.emit(CardHandedOver, seat=to, source=source, card=str(card), reason=reason)


def redeal(deal: Deal, reason: str) -> None:
    """Gather the cards and draw again (a new shuffle from the redeal seed path)."""
    deal.attempt += 1
    seed = streams.child_seed(deal.seed, streams.REDEAL, deal.attempt)
    clear_for_redeal(deal)
    deal.stream.emit(Redealt, reason=reason, attempt=deal.attempt, seed=seed)
    deal.start_draw()


def clear_for_redeal(deal: Deal) -> None:
    """What lies on the table from the draw is gathered up for a redeal (a ruling's, or
    nobody declaring): exposed cards, cards on the table, slips, a pending grab."""
    t = table_of(deal)
    t.exposed = [[], [], [], []]
    t.on_table = OnTable()
    t.draw.slips = []
    t.draw.redirect = None
    t.draw.kitty_draw = None
    t.draw.kitty_drawn = None
    t.grab = None


def on_random_draw(deal: Deal, effect: Any, plan: RulingPlan) -> None:
    """``to`` draws ``count`` cards at random from ``source``'s hand (REFEREE stream)."""
    if effect.source is None or effect.to is None or effect.source == effect.to:
        raise refuse(effect, "a random draw here is from one seat's hand to another seat")
    if deal.hand_size[effect.source] < effect.count:
        raise refuse(effect, f"seat {effect.source} holds fewer than {effect.count} card(s)")
    random_draw(deal, effect.source, effect.to, effect.count, plan.reason)


def on_redeal(deal: Deal, effect: Any, plan: RulingPlan) -> None:
    """The cards are gathered and drawn again (a chosen remedy: not while a ruling is awaited)."""
    if effect.fresh_deck:
        raise refuse(effect, "双升 redeals the same cards")
    if deal.phase is Phase.AWAITING_RULING:
        raise refuse(effect, "a redeal is carried out when chosen, not while a ruling is awaited")
    table_of(deal).then = None
    redeal(deal, plan.reason)


def on_choice(deal: Deal, effect: Any, plan: RulingPlan) -> None:
    """The chooser must pick one of the options before the table goes on; the chosen one is
    carried out when it is picked (``remedy_chosen``)."""
    names = tuple(_OPTION_NAMES.get(o.KIND, o.KIND) for o in effect.options)
    names += (DECLINE,) if effect.may_decline else ()
    purpose = _CHOICE_PURPOSES.get(names)
    if purpose is None:
        raise refuse(effect, f"no 双升 choice offers {', '.join(names)} (offered: "
                      + "; ".join(", ".join(k) for k in _CHOICE_PURPOSES) + ")")
    draw = effect.options[0]
    if draw.source is None or draw.to is None:
        raise refuse(effect, "the random draw names no seat to draw from or for")
    refereed.offer_choice(deal, effect.chooser, purpose, names, about=plan.answers, then=REMEDY_CHOSEN,
                      source=draw.source, to=draw.to,
                      count=draw.count, reason=plan.reason, remedies=tuple(effect.options))


def remedy_chosen(deal: Deal, choice: Any, option: str) -> None:
    """The non-offending side chose a remedy: the option's own table effect, or (declined)
    the seat with the card too many hands one of its choice over."""
    data = choice.data
    chosen = next((o for o in data["remedies"] if _OPTION_NAMES.get(o.KIND) == option), None)
    if chosen is None:
        source = data["source"]
        options = tuple(dict.fromkeys(str(c) for c in deal.hand(source)))
        refereed.offer_choice(deal, source, HAND_OVER, options, about=choice.about, then=HANDED_OVER, **data)
        return
    _REMEDY_HANDLERS[chosen.KIND](deal, chosen, RulingPlan(data["reason"], (chosen,)))
    if chosen.KIND != "Redeal":
        state.carry_on(deal)


def handed_over(deal: Deal, choice: Any, option: str) -> None:
    """The seat with the card too many chose the card it hands over."""
    data = choice.data
    hand_over(deal, data["source"], data["to"], Card(option), data["reason"])
    state.carry_on(deal)


REMEDY_CHOSEN = state.STEPS.register(remedy_chosen)
HANDED_OVER = state.STEPS.register(handed_over)

_REMEDY_HANDLERS = {"RandomDraw": on_random_draw, "Redeal": on_redeal}
"""A chosen remedy's own table effect (the same handlers a ruling's effects go through)."""
