"""The 掼蛋 rules options (shared/rules/guandan.md, every point marked *option*)."""

from __future__ import annotations

from typing import Any

import attrs

from tabletop.options import boolean, one_of, options_from_dict, options_to_dict, whole_number


@attrs.frozen(kw_only=True)
class GuandanRules:
    joker_pair_in_full_house: bool = attrs.field(default=True, validator=boolean, metadata={
        "help": "a joker pair may be the pair of a full house"})
    """A joker pair (BJ BJ or RJ RJ) may be the pair of a full house."""
    a_failures_reset: int | None = attrs.field(default=3, validator=whole_number(1, or_none=True), metadata={
        "help": "failed attempts at A before the side goes back to 2 (none: never)"})
    """After this many failed attempts to pass A the side goes back to 2; None: never."""
    match_end: str = attrs.field(default="pass_a", validator=one_of("pass_a", "deals"), metadata={
        "help": "a match ends when a side passes A, or after match_deals deals"})
    """'pass_a': the match ends when a side passes A; 'deals': after ``match_deals`` deals."""
    match_deals: int = attrs.field(default=8, validator=whole_number(1), metadata={
        "help": "deals per match when match_end=deals"})
    """Number of deals of a match when ``match_end == 'deals'``."""
    max_deals: int = attrs.field(default=200, validator=whole_number(1), metadata={
        "help": "guard: a match stops here with a result by levels"})
    """Guard against runaway matches: stop after this many deals, result 'by levels'."""
    pass_a_score: int = attrs.field(default=13, validator=whole_number(0), metadata={
        "help": "级差分 credited to the side that passed A"})
    """级差分 credited to a side that passed A (the configured maximum)."""

    def to_dict(self) -> dict[str, Any]:
        return options_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GuandanRules":
        return options_from_dict(cls, data)
