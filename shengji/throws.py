"""Throws (甩牌, §5): a lead of several units of one effective suit stands only if no other
player holds, in that suit, a unit that beats one of its units:
- a single is beaten by any higher card;
- a pair by any higher pair;
- a k-pair tractor by a tractor of at least k pairs whose top is higher (it holds a higher
  k-pair tractor).
Units of different players are never combined. "Higher" is strict: a unit of equal rank
(e.g. another off-suit level pair) does not beat. If a unit can be beaten, the throw fails and
the thrower plays the smallest beatable unit: fewest cards, then lowest. The caller passes the
hands of the three other players (the partner's included) and applies ``throw_penalty``.
"""

from __future__ import annotations

from typing import Any, Sequence

from tabletop.cards import Card
from shengji.context import Context, card_list, count_vector
from shengji.units import Unit, decompose, pair_profile, runs


def failed_throw_units(lead: Any, other_hands: Sequence[Any], ctx: Context) -> list[Unit]:
    """The lead's units that another player can beat, smallest first (fewest cards, then
    lowest). Empty for a lead of one unit (not a throw) or a throw that stands."""
    cards = card_list(lead)
    if not cards:
        raise ValueError("empty lead")
    suit = ctx.suit_of[cards[0]]
    if any(ctx.suit_of[c] != suit for c in cards):
        raise ValueError("a throw must lie in one effective suit")
    units = decompose(cards, ctx)
    if len(units) < 2:
        return []
    holdings = [_holding(count_vector(card_list(h)), ctx, suit) for h in other_hands]
    beaten = [u for u in units if any(_beats(held, u) for held in holdings)]
    beaten.sort(key=_smallest_first)
    return beaten


def first_failed_unit(lead: list[Card], other_counts: Sequence[list[int]], ctx: Context) -> Unit | None:
    """``failed_throw_units(lead, hands, ctx)[0]``, or None when the throw stands, given the
    other players' count vectors (a deal's own check of a throw it validated as one suit):
    the units are tried smallest first and a hand's holding is worked out only when asked."""
    units = decompose(lead, ctx)
    if len(units) < 2:
        return None
    suit = ctx.suit_of[lead[0]]
    units.sort(key=_smallest_first)
    holdings: list[tuple[int, list[int], list[tuple[int, int]]] | None] = [None] * len(other_counts)
    for unit in units:
        for i, counts in enumerate(other_counts):
            held = holdings[i]
            if held is None:
                held = holdings[i] = _holding(counts, ctx, suit)
            if _beats(held, unit):
                return unit
    return None


def _smallest_first(unit: Unit) -> tuple[int, int, tuple[Card, ...]]:
    return (unit.size, unit.top, unit.cards)


def throw_outcome(lead: Any, other_hands: Sequence[Any], ctx: Context) -> list[Card]:
    """The cards actually led: the lead itself when it stands, else its smallest beatable
    unit (the rest goes back to the thrower's hand)."""
    failed = failed_throw_units(lead, other_hands, ctx)
    return list(failed[0].cards) if failed else list(card_list(lead))


def _holding(counts: list[int], ctx: Context, suit: int) -> tuple[int, list[int], list[tuple[int, int]]]:
    """(highest single order or -1, pair profile, runs of pairs) of one hand in ``suit``."""
    order_of = ctx.order_of
    high = max((order_of[c] for c in ctx.kinds[suit] if counts[c]), default=-1)
    avail = pair_profile(counts, ctx, suit)
    return high, avail, runs(avail)


def _beats(holding: tuple[int, list[int], list[tuple[int, int]]], unit: Unit) -> bool:
    high, avail, pair_runs = holding
    if unit.length == 0:
        return high > unit.top
    if unit.length == 1:
        return any(avail[i] for i in range(unit.top + 1, len(avail)))
    return any(end > unit.top and end - start + 1 >= unit.length for start, end in pair_runs)
