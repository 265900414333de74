"""Combinations of 双升 (§5): singles, pairs, tractors, and the decomposition of a lead.

- A *pair* is two identical cards (same suit and rank, or two identical jokers). Two level
  cards of different suits are not a pair, even though they rank equal.
- A *tractor* is two or more pairs on consecutive slots of one effective suit (see
  shengji.context for the slot ladder: the level rank is skipped, the trump chain runs
  … trump K → trump A → off-suit level → trump-suit level → BJ → RJ). Pairs on the same slot
  (two off-suit level pairs) are never consecutive; there is no A–2 wrap.
- ``decompose`` reads a lead's shape: longest tractors first (ties: the higher one first),
  then pairs, then singles. In a side suit this is simply the maximal runs of pairs; in
  trumps at most one off-suit level pair (one off-suit 2 pair under 常主) joins a run and the
  others stay pairs (the run takes the kind of the lowest suit letter S < H < C < D there;
  the shape does not depend on that choice).

Internally a suit's pair structure is an *availability profile*: for each slot of the suit,
the number of pairs held there (0 or 1, up to 3–4 on the off-suit level slot). Tractors are
runs of slots with availability ≥ 1; several disjoint tractors fit when no slot is used more
often than its availability. These helpers work on count vectors (list of 54 ints).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from tabletop.cards import CARDS, Card
from shengji.context import EFFECTIVE_SUITS, TRUMP, Context, card_list, count_vector

KINDS = ("single", "pair", "tractor")


@attrs.frozen
class Unit:
    """One unit of a play. ``length`` counts pairs: single 0, pair 1, tractor k ≥ 2.
    ``top`` is the order (shengji.context) of its highest card; ``suit`` the effective suit
    letter ('T' for trumps); ``cards`` lowest first."""

    kind: str
    cards: tuple[Card, ...]
    length: int
    top: int
    suit: str

    @property
    def size(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return "".join(str(c) for c in self.cards)


# ---------------------------------------------------------------------------------------------
# Pair structure of one effective suit

def pair_profile(counts: list[int], ctx: Context, suit: int) -> list[int]:
    """Pairs held on each slot of ``suit`` (the availability profile)."""
    out = []
    for rung in ctx.slots[suit]:
        a = 0
        for c in rung:
            a += counts[c] >> 1
        out.append(a)
    return out


def profile_of(card_counts: dict[int, int], ctx: Context, suit: int) -> list[int]:
    """The availability profile of a few cards given as {card: copies} (all of ``suit``)."""
    avail = [0] * len(ctx.slots[suit])
    order = ctx.order_of
    for c, k in card_counts.items():
        if k >= 2:
            avail[order[c]] += k >> 1
    return avail


def runs(avail: list[int]) -> list[tuple[int, int]]:
    """Maximal runs of slots holding a pair, as (first slot, last slot)."""
    out = []
    start = -1
    for i, a in enumerate(avail):
        if a:
            if start < 0:
                start = i
        elif start >= 0:
            out.append((start, i - 1))
            start = -1
    if start >= 0:
        out.append((start, len(avail) - 1))
    return out


def longest_run(avail: list[int]) -> int:
    best = cur = 0
    for a in avail:
        if a:
            cur += 1
            if cur > best:
                best = cur
        else:
            cur = 0
    return best


def fits(avail: list[int], lengths: list[int]) -> bool:
    """Whether disjoint tractors of these lengths (descending) fit in the profile."""
    if not lengths:
        return True
    if sum(lengths) > sum(avail):
        return False
    cover = list(avail)
    m = len(cover)
    count = len(lengths)

    def place(i: int, first: int) -> bool:
        if i == count:
            return True
        k = lengths[i]
        # Equal lengths are interchangeable: place them left to right only.
        lo = first if i and lengths[i - 1] == k else 0
        for a in range(lo, m - k + 1):
            span = range(a, a + k)
            if all(cover[x] for x in span):
                for x in span:
                    cover[x] -= 1
                ok = place(i + 1, a)
                for x in span:
                    cover[x] += 1
                if ok:
                    return True
        return False

    return place(0, 0)


def tractor_vector(avail: list[int], lengths: tuple[int, ...]) -> tuple[int, ...]:
    """How closely the profile can match the led tractors ``lengths`` (k1 ≥ k2 ≥ …) with
    tractors of its own, unit by unit, longest first (§6, revised 2026-12-05): led tractor i
    gets the lexicographically largest list of disjoint tractors (each of 2 or more pairs,
    longest first, at most ki pairs together), padded with zeros to ki // 2 entries; the
    result is those lists one after the other, maximised lexicographically in that order.
    A led 4-pair tractor: (4, 0) > (3, 0) > (2, 2) > (2, 0) > (0, 0), i.e. a 4-pair tractor,
    else a 3-pair tractor (+ a pair), else two 2-pair tractors, else one (+ pairs). For a led
    tractor of 2 or 3 pairs the list is one entry: the longest tractor up to ki."""
    if not lengths:
        return ()
    if len(lengths) == 1 and lengths[0] < 4:
        j = min(lengths[0], longest_run(avail))
        return (j if j >= 2 else 0,)
    chosen: list[int] = []
    out: list[int] = []
    for k in lengths:
        left = k
        for _ in range(k // 2):
            for j in range(left, 1, -1):
                trial = sorted(chosen + [j], reverse=True)
                if fits(avail, trial):
                    chosen = trial
                    out.append(j)
                    left -= j
                    break
            else:
                out.append(0)
                left = 0        # nothing of 2 or more pairs fits: the rest of this unit is 0
    return tuple(out)


def placements(avail: list[int], lengths: list[int]) -> list[tuple[int, ...]]:
    """Every way (start slots, one per length) to place disjoint tractors of these lengths."""
    out: list[tuple[int, ...]] = []
    cover = list(avail)
    m = len(cover)
    starts: list[int] = []

    def place(i: int, first: int) -> None:
        if i == len(lengths):
            out.append(tuple(starts))
            return
        k = lengths[i]
        lo = first if i and lengths[i - 1] == k else 0
        for a in range(lo, m - k + 1):
            span = range(a, a + k)
            if all(cover[x] for x in span):
                for x in span:
                    cover[x] -= 1
                starts.append(a)
                place(i + 1, a)
                starts.pop()
                for x in span:
                    cover[x] += 1

    place(0, 0)
    return out


def suit_units(counts: list[int], ctx: Context, suit: int) -> list[tuple[int, int, list[int]]]:
    """The greedy decomposition of the cards of one effective suit, as (length, top, kinds)
    triples sorted by length then top, both descending; ``kinds`` lists each card kind once
    per copy used (a pair's kind appears twice), lowest first."""
    ladder = ctx.slots[suit]
    left = {c: counts[c] for rung in ladder for c in rung if counts[c]}
    pairs_at = [[c for c in rung if counts[c] >= 2] for rung in ladder]
    avail = [sum(counts[c] >> 1 for c in rung) for rung in pairs_at]
    out: list[tuple[int, int, list[int]]] = []
    while True:
        best_len = 0
        best_end = -1
        cur = 0
        for i, a in enumerate(avail):
            cur = cur + 1 if a else 0
            if cur >= best_len and cur:
                best_len, best_end = cur, i  # ties: the higher run
        if best_len < 2:
            break
        kinds: list[int] = []
        for i in range(best_end - best_len + 1, best_end + 1):
            c = next(c for c in pairs_at[i] if left[c] >= 2)
            left[c] -= 2
            avail[i] -= 1
            kinds += (c, c)
        out.append((best_len, best_end, kinds))
    order = ctx.order_of
    pairs = []
    singles = []
    for c, n in left.items():
        for _ in range(n >> 1):
            pairs.append((1, order[c], [c, c]))
        if n & 1:
            singles.append((0, order[c], [c]))
    pairs.sort(key=_rank_key)
    singles.sort(key=_rank_key)
    return out + pairs + singles


def _rank_key(unit: tuple[int, int, list[int]]) -> tuple[int, int]:
    return (-unit[1], unit[2][0])


def shape_of(cards: Sequence[int], ctx: Context) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(unit lengths, unit tops) of the greedy decomposition of cards of ONE effective suit,
    in decomposition order; the same reading as ``suit_units`` without building the units
    (the trick-comparison hot path)."""
    order = ctx.order_of
    copies: dict[int, int] = {}
    for c in cards:
        copies[c] = copies.get(c, 0) + 1
    pairs_at: dict[int, int] = {}
    singles = []
    for c, k in copies.items():
        if k >= 2:
            o = order[c]
            pairs_at[o] = pairs_at.get(o, 0) + (k >> 1)
        if k & 1:
            singles.append(order[c])
    lengths: list[int] = []
    tops: list[int] = []
    if pairs_at:
        slots = sorted(pairs_at)
        while len(slots) >= 2:
            best_len = 0
            best_end = -1
            cur = 0
            prev = -2
            for o in slots:
                cur = cur + 1 if o == prev + 1 else 1
                prev = o
                if cur >= best_len:
                    best_len, best_end = cur, o
            if best_len < 2:
                break
            for o in range(best_end - best_len + 1, best_end + 1):
                pairs_at[o] -= 1
                if not pairs_at[o]:
                    del pairs_at[o]
            lengths.append(best_len)
            tops.append(best_end)
            slots = sorted(pairs_at)
        for o in sorted(pairs_at, reverse=True):
            lengths += [1] * pairs_at[o]
            tops += [o] * pairs_at[o]
    if singles:
        singles.sort(reverse=True)
        lengths += [0] * len(singles)
        tops += singles
    return tuple(lengths), tuple(tops)


# ---------------------------------------------------------------------------------------------
# Public predicates

def decompose(cards: Any, ctx: Context) -> list[Unit]:
    """The units of a play: longest tractors first (ties: higher first), then pairs, then
    singles, each group highest first. Units never span effective suits; a play of several
    effective suits (only a follow can be one) lists trump units before side-suit units of
    the same length."""
    cl = card_list(cards)
    counts = count_vector(cl)
    suits = sorted({ctx.suit_of[c] for c in cl}, reverse=True)  # trumps first
    units: list[tuple[int, int, int, list[int]]] = []
    for s in suits:
        units += [(length, s, top, kinds) for length, top, kinds in suit_units(counts, ctx, s)]
    if len(suits) > 1:
        units.sort(key=lambda u: (-u[0], -(u[1] == TRUMP), -u[2], u[1]))
    return [_unit(length, top, s, kinds) for length, s, top, kinds in units]


def _unit(length: int, top: int, suit: int, kinds: list[int]) -> Unit:
    kind = KINDS[min(length, 2)]
    return Unit(kind=kind, cards=tuple(CARDS[c] for c in kinds), length=length, top=top,
                suit=EFFECTIVE_SUITS[suit])


def is_pair(cards: Any, ctx: Context | None = None) -> bool:
    """Two identical cards (same suit and rank, or two identical jokers)."""
    cl = card_list(cards)
    return len(cl) == 2 and cl[0] == cl[1]


def is_tractor(cards: Any, ctx: Context) -> bool:
    """Two or more pairs on consecutive slots of one effective suit (§5)."""
    cl = card_list(cards)
    if len(cl) < 4 or len(cl) % 2:
        return False
    counts = count_vector(cl)
    kinds = sorted({c for c in cl})
    if any(counts[c] != 2 for c in kinds):
        return False
    suit = ctx.suit_of[kinds[0]]
    if any(ctx.suit_of[c] != suit for c in kinds):
        return False
    orders = sorted(ctx.order_of[c] for c in kinds)
    return all(b == a + 1 for a, b in zip(orders, orders[1:]))


def is_valid_lead(cards: Any, ctx: Context) -> bool:
    """A lead is one or more cards of one effective suit: a single, a pair, a tractor, or a
    throw of several such units (whether a throw stands is shengji.throws' question)."""
    cl = card_list(cards)
    if not cl:
        return False
    suit = ctx.suit_of[cl[0]]
    return all(ctx.suit_of[c] == suit for c in cl)


def shape(cards: Any, ctx: Context) -> tuple[int, ...]:
    """The lengths of a play's units in decomposition order, e.g. (2, 1, 0) for a 2-pair
    tractor + pair + single."""
    return tuple(u.length for u in decompose(cards, ctx))
