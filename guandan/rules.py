"""The 掼蛋 rules options (docs/rules/guandan.md, every point marked *option*)."""

from __future__ import annotations

from typing import Any

import attrs

from tabletop.errors import OptionError
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
    first_deal_lead: str = attrs.field(default="face_up", validator=one_of("face_up", "seat_0"), metadata={
        "help": "who leads a match's first deal: the drawer of the face-up card, or seat 0 (no face-up card)"})
    """'face_up': the drawer of the face-up card (明牌) leads the first deal; 'seat_0': seat 0
    does, and no card is turned face up (OGD's server)."""
    equal_double_tribute: str = attrs.field(default="next_seat", validator=one_of("next_seat", "random"), metadata={
        "help": "double tribute of equal cards: the 上游's 下家 pays the 上游 and leads, or a seeded draw picks that payer"})
    """Double tribute with cards of equal rank: 'next_seat' the 上游's 下家 pays the 上游 (and
    leads); 'random' a draw from the deal's seed picks which payer does (OGD's server varies)."""

    def to_dict(self) -> dict[str, Any]:
        return options_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GuandanRules":
        """The rules ``data`` gives; ``preset`` names a set of them (``PRESETS``) that the
        other keys override."""
        if "preset" in data:
            data = dict(data)
            name = data.pop("preset")
            if name not in PRESETS:
                raise OptionError(f"unknown 掼蛋 rules preset {name!r} (known: {', '.join(PRESETS)})")
            data = {**PRESETS[name], **data}
        return options_from_dict(cls, data)


PRESETS: dict[str, dict[str, Any]] = {
    "ogd": {"first_deal_lead": "seat_0", "equal_double_tribute": "random"},
}
"""Named sets of rules options (``--rules preset=NAME``). 'ogd': the table of the OpenGuanDan
competition server -- seat 0 leads each game's first deal, and which payer of an equal
double tribute pays the 上游 and leads varies (a seeded draw here). Its return rule (natural
2-10, level cards excluded) and the rest are paiju's defaults already."""
