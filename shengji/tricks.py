"""Who wins a trick (§6).

Walk the plays in order, keeping the current winner (first the lead). A play can take over
only when it lies wholly in the led suit or wholly in trumps. Then:
- a lead of one unit (single, pair, tractor): the play must have exactly the lead's shape
  (a 2-pair tractor is not two pairs); it beats the winner when it is trumps and the winner
  is not (trumping), or it is the winner's suit and its unit is higher (over-trumping, or a
  higher card of the led suit);
- a throw (several units): only an all-trump play that *covers* the throw's shape can win
  (``throw_cover``). Its cards are arranged into units standing one for one for the throw's
  units — a k-pair tractor for each k-pair tractor, a pair for each pair, one card for each
  single; a longer structure may be broken to fill smaller ones (a trump tractor stands for
  pairs, a trump pair for two singles, a 3-tractor for a 2-tractor + a pair). A cover beats
  a side-suit winner outright; against a trump winner (the throw itself when it was led in
  trumps, or an earlier cover) it must win the comparison of ``throw_compare``:
  - ``'largest_unit'``: the highest unit of the throw's largest kind in the cover's best
    arrangement beats the winner's (for the lead: its own largest unit, decomposition order);
  - ``'all_units'`` (our reading, the rules file leaves it open): some arrangement of the
    cover beats every unit of the winner's *standing arrangement* with the unit standing for
    it (within a kind, highest against highest). The lead stands with its decomposition; a
    cover that wins stands with the best (lexicographically highest) of its arrangements that
    beat the winner, so a later cover that beats it beats every earlier winner too.
Ties go to the earlier play. Mixed follows never win.

An arrangement's *value* lists its unit tops (slot orders, shengji.context) in the throw's
decomposition order: tractors longest first, then pairs, then singles, each kind highest
first. The best arrangement is the lexicographically highest value; its first entry is the
"largest unit" of §6. Everything works on per-slot counts of the trump ladder.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Iterator, Sequence

from shengji.context import TRUMP, Context, card_list, count_vector
from shengji.follow import LeadInfo, lead_info
from shengji.rules import ShengjiRules
from shengji.units import pair_profile, placements, shape_of
from tabletop.cards import Card

_SINGLE = (0,)
_PAIR = (1,)


def trick_winner(plays: Sequence[Any], ctx: Context, rules: ShengjiRules | None = None) -> int:
    """Index into ``plays`` (plays[0] is the lead) of the play that wins the trick."""
    if not plays:
        raise ValueError("a trick needs at least the lead")
    return winner_of([card_list(p) for p in plays], lead_info(plays[0], ctx), ctx,
                     ctx.rules if rules is None else rules)


def winner_of(plays: Sequence[Sequence[Card]], info: LeadInfo, ctx: Context, rules: ShengjiRules) -> int:
    """``trick_winner`` of plays of Card objects whose lead ``info`` is known (a deal's own
    trick: it read the lead when it was played)."""
    n, led, shape = info.n, info.suit, info.shape
    if len(shape) > 1:
        return _throw_winner(plays, ctx, shape, info.tops, led, rules.throw_compare == "all_units")
    suit_of = ctx.suit_of
    order_of = ctx.order_of
    best = 0
    best_suit = led
    best_top = info.tops[0]
    if n == 1:                                   # a led single: the common trick, plainly
        for i in range(1, len(plays)):
            cards = plays[i]
            if len(cards) != 1:
                continue
            card = cards[0]
            suit = suit_of[card]
            if suit == best_suit:
                top = order_of[card]
                if top > best_top:
                    best, best_top = i, top
            elif suit == TRUMP:                  # trumping a winner of the led suit
                best, best_suit, best_top = i, suit, order_of[card]
        return best
    pair = shape == _PAIR
    for i in range(1, len(plays)):
        cards = plays[i]
        if len(cards) != n:
            continue
        suit = suit_of[cards[0]]
        if suit != led and suit != TRUMP:
            continue
        if any(suit_of[c] != suit for c in cards):
            continue
        if shape == _SINGLE:
            top = order_of[cards[0]]
        elif pair:
            if cards[0] != cards[1]:
                continue
            top = order_of[cards[0]]
        else:
            got, got_tops = shape_of(cards, ctx)     # a tractor lead: a tractor of its length
            if got != shape:
                continue
            top = got_tops[0]
        if suit == TRUMP and best_suit != TRUMP:
            wins = True
        elif suit != best_suit:
            wins = False
        else:
            wins = top > best_top
        if wins:
            best, best_suit, best_top = i, suit, top
    return best


def _throw_winner(plays: Sequence[Any], ctx: Context, shape: tuple[int, ...], tops: tuple[int, ...],
                  led: int, all_units: bool) -> int:
    n = sum(2 * k if k else 1 for k in shape)
    suit_of = ctx.suit_of
    best = 0
    best_trump = led == TRUMP
    standing = tops
    for i in range(1, len(plays)):
        cards = card_list(plays[i])
        if len(cards) != n or any(suit_of[c] != TRUMP for c in cards):
            continue                       # a throw falls only to an all-trump play
        values = list(arrangements(cards, shape, ctx))
        if not values:
            continue                       # does not cover the throw's shape
        if not best_trump:
            beating = values               # trumping a side-suit winner
        elif all_units:
            beating = [v for v in values if all(a > b for a, b in zip(v, standing))]
        else:
            top = standing[0]
            beating = [v for v in values if v[0] > top]
        if beating:
            best, best_trump, standing = i, True, max(beating)
    return best


def throw_cover(play: Any, lead: Any, ctx: Context) -> tuple[int, ...] | None:
    """The best arrangement's value of ``play`` as a cover of the throw ``lead`` (its first
    entry: the highest unit of the throw's largest kind), or None when ``play`` is not all
    trumps or does not cover the throw's shape."""
    cards = card_list(play)
    info = lead_info(lead, ctx)
    if len(cards) != info.n or any(ctx.suit_of[c] != TRUMP for c in cards):
        return None
    return max(arrangements(cards, info.shape, ctx), default=None)


def arrangements(cards: Sequence[Any], shape: tuple[int, ...], ctx: Context) -> Iterator[tuple[int, ...]]:
    """The values of every arrangement of ``cards`` (all trumps, as many as the throw) into
    units standing for the units of ``shape`` (the throw's unit lengths in decomposition
    order). Distinct arrangements may give the same value; none: no cover."""
    lengths = [k for k in shape if k >= 2]
    n_pairs = sum(1 for k in shape if k == 1)
    counts = count_vector(list(cards))
    avail = pair_profile(counts, ctx, TRUMP)
    if sum(avail) < sum(lengths) + n_pairs:
        return
    order_of = ctx.order_of
    at = [0] * len(avail)                   # cards on each slot
    for c in cards:
        at[order_of[c]] += 1
    for starts in placements(avail, lengths) if lengths else [()]:
        left_pairs = list(avail)
        left = list(at)
        runs: list[int] = []
        for k, a in zip(lengths, starts):
            for x in range(a, a + k):
                left_pairs[x] -= 1
                left[x] -= 2
        # tractor tops, highest first within each length (lengths are descending)
        j = 0
        while j < len(lengths):
            e = j
            while e < len(lengths) and lengths[e] == lengths[j]:
                e += 1
            runs += sorted((starts[x] + lengths[x] - 1 for x in range(j, e)), reverse=True)
            j = e
        pair_slots = [x for x in range(len(left_pairs) - 1, -1, -1) for _ in range(left_pairs[x])]
        seen: set[tuple[int, ...]] = set()
        for chosen in combinations(pair_slots, n_pairs):
            if chosen in seen:
                continue
            seen.add(chosen)
            rest = list(left)
            for x in chosen:
                rest[x] -= 2
            singles = [x for x in range(len(rest) - 1, -1, -1) for _ in range(rest[x])]
            yield tuple(runs) + chosen + tuple(singles)
