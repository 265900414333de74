"""Who wins a trick (§6).

Walk the plays in order, keeping the current winner (first the lead). A play can take over
only when it lies wholly in the led suit or wholly in trumps AND its decomposition has exactly
the lead's shape (same unit lengths in the same order: a 2-pair tractor is not two pairs).
Then it beats the current winner when
- it is trumps and the winner is not (trumping); or
- it is the winner's suit and, for a lead of one unit, its unit is higher (over-trumping, or
  a higher card of the led suit); for a throw (several units) only an all-trump play can
  win, and it must beat the winner's largest unit (``throw_compare='largest_unit'``) or
  every unit, paired in decomposition order (``'all_units'``).
Equal plays do not beat: the earlier play keeps the trick. Mixed follows never win.
"""

from __future__ import annotations

from typing import Any, Sequence

from shengji.context import TRUMP, Context, card_list
from shengji.follow import lead_info
from shengji.rules import ShengjiRules
from shengji.units import shape_of

_SINGLE = (0,)
_PAIR = (1,)


def trick_winner(plays: Sequence[Any], ctx: Context, rules: ShengjiRules | None = None) -> int:
    """Index into ``plays`` (plays[0] is the lead) of the play that wins the trick."""
    if not plays:
        raise ValueError("a trick needs at least the lead")
    rules = ctx.rules if rules is None else rules
    info = lead_info(plays[0], ctx)
    n, led, shape = info.n, info.suit, info.shape
    throw = len(shape) > 1
    all_units = rules.throw_compare == "all_units"
    suit_of = ctx.suit_of
    order_of = ctx.order_of
    best = 0
    best_suit = led
    best_tops = info.tops
    for i in range(1, len(plays)):
        cards = card_list(plays[i])
        if len(cards) != n:
            continue
        suit = suit_of[cards[0]]
        if suit != led and suit != TRUMP:
            continue
        if any(suit_of[c] != suit for c in cards):
            continue
        if shape == _SINGLE:
            tops = (order_of[cards[0]],)
        elif shape == _PAIR:
            if cards[0] != cards[1]:
                continue
            tops = (order_of[cards[0]],)
        else:
            got_shape, tops = shape_of(cards, ctx)
            if got_shape != shape:
                continue
        if suit == TRUMP and best_suit != TRUMP:
            wins = True
        elif suit != best_suit:
            wins = False
        elif not throw:
            wins = tops[0] > best_tops[0]
        elif suit != TRUMP:
            wins = False                       # a side-suit throw falls only to trumps
        elif all_units:
            wins = all(a > b for a, b in zip(tops, best_tops))
        else:
            wins = tops[0] > best_tops[0]
        if wins:
            best, best_suit, best_tops = i, suit, tops
    return best
