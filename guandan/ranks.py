"""Level-aware rank order for 掼蛋.

Rank indices are tabletop's: '2'=0 … 'A'=12, BJ=13, RJ=14. For singles, pairs,
triples, full houses and bombs the *power* of a rank is its index, except that the
level rank is lifted above A (power 13) and the jokers sit above it (BJ 14, RJ 15).
Sequences use the natural index (A also low). The wild cards are the two heart
level cards (index 13 + level)."""

from __future__ import annotations

from tabletop.cards import RANKS, Card
from tabletop.errors import CardParseError

LEVEL_POWER = 13
SMALL_JOKER_POWER = 14
BIG_JOKER_POWER = 15
HEARTS = 1


def level_index(level: "str | int") -> int:
    """A level as rank text ('2' … 'A', also '10') or rank index → 0 … 12."""
    if isinstance(level, int) and 0 <= level <= 12:
        return level
    if isinstance(level, str):
        text = "T" if level == "10" else level.upper()
        if len(text) == 1 and text in RANKS:
            return RANKS.index(text)
    raise CardParseError(f"not a level: {level!r} (expected 2-9, T/10, J, Q, K or A)")


def level_text(level: int) -> str:
    return RANKS[level]


def power_of_rank(rank_index: int, level: int) -> int:
    """Power of a rank index for non-sequence comparisons."""
    if rank_index == level:
        return LEVEL_POWER
    if rank_index >= 13:
        return rank_index + 1
    return rank_index


def power_of_card(card: Card, level: int) -> int:
    return power_of_rank(card.rank_index, level)


def rank_of_power(power: int, level: int) -> str:
    """The rank text of a power ('BJ'/'RJ' for the jokers)."""
    if power == LEVEL_POWER:
        return RANKS[level]
    if power == SMALL_JOKER_POWER:
        return "BJ"
    if power == BIG_JOKER_POWER:
        return "RJ"
    return RANKS[power]


def wild_card(level: int) -> Card:
    """The heart level card (逢人配)."""
    return Card(HEARTS * 13 + level)
