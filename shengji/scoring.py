"""Points, the kitty multiplier and the level result of a deal (§6, §7)."""

from __future__ import annotations

import operator
from typing import Any

from tabletop.cards import NUM_CARD_KINDS
from shengji.context import Context, card_list
from shengji.follow import lead_info
from shengji.rules import ShengjiRules

# 5 = 5 points, T and K = 10 (rank indices 3, 8, 11); 200 in the two-deck pack.
POINTS = [(5 if i % 13 == 3 else 10 if i % 13 in (8, 11) else 0) if i < 52 else 0
          for i in range(NUM_CARD_KINDS)]
PACK_POINTS = 200


def card_points(cards: Any) -> int:
    """Points among the cards: each 5 counts 5, each T and K 10."""
    return sum(POINTS[c] for c in card_list(cards))


def kitty_multiplier(last_lead: Any, ctx: Context, rules: ShengjiRules | None = None) -> int:
    """Multiplier of the kitty's points when the attackers win the last trick, from the size
    (cards) of the largest unit of that trick's lead: 'times' 2 × size (single 2, pair 4,
    2-pair tractor 8, 3-pair 12); 'power' 2 ** size (2, 4, 16, 64)."""
    rules = ctx.rules if rules is None else rules
    info = lead_info(last_lead, ctx)
    size = max(2 * k if k else 1 for k in info.shape)
    return 2 * size if rules.kitty_multiplier == "times" else 2 ** size


def level_result(attacker_points: int) -> tuple[str, int]:
    """(side, levels) from the attackers' final total (§7):
    0 → banker +3; 5–35 → banker +2; 40–75 → banker +1; 80–115 → attackers take the bank, +0;
    120–155 → attackers +1; 160–195 → +2; 200 → +3 and each further 40 one more (240 → +4).
    Totals between the table's multiples of 5 belong to the band below the next threshold
    (40, 80, 120, 160, 200, 240, …). A negative total (possible only after penalties) reads
    as 0."""
    if isinstance(attacker_points, bool):
        raise TypeError("attacker points must be an integer, got a bool")
    p = max(0, operator.index(attacker_points))
    if p == 0:
        return ("banker", 3)
    if p < 40:
        return ("banker", 2)
    if p < 80:
        return ("banker", 1)
    if p < 120:
        return ("attackers", 0)
    if p < 160:
        return ("attackers", 1)
    if p < 200:
        return ("attackers", 2)
    return ("attackers", 3 + (p - 200) // 40)
