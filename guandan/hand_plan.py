"""How many plays a 掼蛋 hand needs to go out: the plan a player makes of its hand.

A hand is 15 rank counts (tabletop rank indices: '2' = 0 … 'A' = 12, BJ = 13, RJ = 14;
the wild cards are left out: they fill whatever the player wants later). ``plays_needed``
splits it into combinations — bombs kept whole (four or more of a rank, the four jokers),
then the sequences that absorb loose cards (a straight over at least three single ranks, a
tube over at least two pairs, a plate of two triples), then triples with pairs as full
houses, pairs and singles — and returns the smallest number of plays found. Straight
flushes are not planned (the suits are left out). Cached: a deal's agents ask about the
same few hands again and again.
"""

from __future__ import annotations

import functools

RANK_COUNTS = 15
_STRAIGHT_WINDOWS = tuple(tuple(12 if p == 0 else p - 1 for p in range(start, start + 5)) for start in range(10))
"""Rank indices of each straight, from A-2-3-4-5 to T-J-Q-K-A."""
_TUBE_WINDOWS = tuple(tuple(12 if p == 0 else p - 1 for p in range(start, start + 3)) for start in range(12))
_PLATE_WINDOWS = tuple(tuple(12 if p == 0 else p - 1 for p in range(start, start + 2)) for start in range(13))


@functools.lru_cache(maxsize=1 << 16)
def plays_needed(counts: tuple[int, ...]) -> int:
    """The fewest plays this plan finds for the hand (0 for an empty hand)."""
    best = _without_sequences(counts)
    for window, width in _sequences(counts):
        rest = list(counts)
        for r in window:
            rest[r] -= width
        best = min(best, 1 + plays_needed(tuple(rest)))
    return best


def bombs_in(counts: tuple[int, ...]) -> int:
    """Bombs the plan keeps whole: ranks of four or more, and the four jokers."""
    return sum(1 for r in range(13) if counts[r] >= 4) + (counts[13] == 2 and counts[14] == 2)


def _without_sequences(counts: tuple[int, ...]) -> int:
    plays = triples = pairs = singles = 0
    for r in range(13):
        n = counts[r]
        if n >= 4:
            plays += 1
        elif n == 3:
            triples += 1
        elif n == 2:
            pairs += 1
        elif n == 1:
            singles += 1
    if counts[13] == 2 and counts[14] == 2:
        plays += 1
    else:
        for j in (13, 14):
            if counts[j] == 2:
                pairs += 1
            elif counts[j] == 1:
                singles += 1
    return plays + triples + max(0, pairs - triples) + singles


def _sequences(counts: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
    """The sequences worth trying: they never break a bomb and each absorbs loose cards."""
    some = ones = pairs_or_more = twos = threes = 0
    for r in range(13):
        n = counts[r]
        if 1 <= n <= 3:
            bit = 1 << r
            some |= bit
            if n == 1:
                ones |= bit
            else:
                pairs_or_more |= bit
                if n == 2:
                    twos |= bit
                else:
                    threes |= bit
    out = []
    if ones.bit_count() >= 3:
        for window, mask in _STRAIGHT_MASKS:
            if mask & some == mask and (mask & ones).bit_count() >= 3:
                out.append((window, 1))
    if twos.bit_count() >= 2:
        for window, mask in _TUBE_MASKS:
            if mask & pairs_or_more == mask and (mask & twos).bit_count() >= 2:
                out.append((window, 2))
    if threes.bit_count() >= 2:
        for window, mask in _PLATE_MASKS:
            if mask & threes == mask:
                out.append((window, 3))
    return out


def _masks(windows: tuple[tuple[int, ...], ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    return tuple((w, sum(1 << r for r in w)) for w in windows)


_STRAIGHT_MASKS = _masks(_STRAIGHT_WINDOWS)
_TUBE_MASKS = _masks(_TUBE_WINDOWS)
_PLATE_MASKS = _masks(_PLATE_WINDOWS)
