"""The 双升 ruleset options (docs/rules/shengji.md), as one frozen object recorded in the
log header so that a replay runs under the rules it was played with."""

from __future__ import annotations

from typing import Any

import attrs

from tabletop.errors import OptionError
from tabletop.options import allows, boolean, one_of, options_from_dict, options_to_dict, whole_number

# Ranks at which a promotion stops (must be played and defended); "A" always.
DEFENDABLE_RANKS = frozenset({"5", "T", "K", "A"})


def _rank_set(value: Any) -> frozenset:
    if isinstance(value, str):
        value = [value]
    try:
        return frozenset("T" if str(v) == "10" else str(v).upper() for v in value)
    except TypeError:
        raise OptionError(f"must_defend must be a set of ranks, got {value!r}") from None


@allows("5, T, K, A; always A")
def _check_must_defend(instance: Any, attribute: attrs.Attribute, value: frozenset) -> None:
    unknown = sorted(value - DEFENDABLE_RANKS)
    if unknown:
        raise OptionError(f"must_defend may only hold 5, T, K, A, got {', '.join(unknown)}")
    if "A" not in value:
        raise OptionError("must_defend must contain A (a promotion never skips past A)")


@attrs.frozen(kw_only=True)
class ShengjiRules:
    """Options of docs/rules/shengji.md; the defaults are the competition form."""

    pair_vs_pair: str = attrs.field(default="no", validator=one_of("no", "higher_suit"), metadata={
        "help": "declaring trumps: a level-card pair never overrides one of another suit (no), or does when its suit is higher, S > H > C > D"})
    no_bid: str = attrs.field(default="flip_kitty", validator=one_of("flip_kitty", "redeal", "no_trump"), metadata={
        "help": "when nobody declares trumps: flip the kitty, redeal, or play without trumps"})
    # 常主: 2s are trumps just below the off-suit level cards. No effect at level 2.
    permanent_twos: bool = attrs.field(default=False, validator=boolean, metadata={
        "help": "2s are trumps (常主)"})
    throw_penalty: int = attrs.field(default=10, validator=one_of(10, 0), metadata={
        "help": "points per failed throw (0: off)"})
    throw_compare: str = attrs.field(default="largest_unit", validator=one_of("largest_unit", "all_units"), metadata={
        "help": "an all-trump play that covers a throw beats it when its largest unit beats the throw's, or when every unit does"})
    kitty_multiplier: str = attrs.field(default="times", validator=one_of("times", "power"), metadata={
        "help": "kitty points multiplied by 2 x unit size (times) or 2^size (power)"})
    must_defend: frozenset = attrs.field(
        default=frozenset({"A"}), converter=_rank_set, validator=_check_must_defend, metadata={
            "type": "ranks, comma-separated", "help": "levels a promotion stops at (must be played and defended)"})
    max_deals: int = attrs.field(default=300, validator=whole_number(1), metadata={
        "help": "guard: a runaway match stops here"})

    def to_dict(self) -> dict[str, Any]:
        return options_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ShengjiRules":
        return options_from_dict(cls, data)


DEFAULT_RULES = ShengjiRules()
