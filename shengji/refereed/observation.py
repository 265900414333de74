"""The refereed part of a 双升 observation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shengji.phase import Phase
from shengji.refereed.state import table_of
from tabletop.cards import sort_cards

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from shengji.deal import Deal

_AWAITING = Phase.AWAITING_RULING


def observe_extras(deal: Deal, seat: int) -> dict[str, Any] | None:
    """The RefereedObservation fields, or None when all are at their defaults."""
    t = table_of(deal)
    d = t.draw
    if not (d.step or t.choice is not None or t.on_table or d.slips or deal.declare_barred or any(t.exposed)
            or t.revoke is not None or d.kitty_draw is not None or d.redirect is not None
            or deal.phase is _AWAITING):
        return None
    if deal.phase is Phase.AWAITING_RULING:
        situation = "awaiting_ruling"
    elif t.choice is not None:
        situation = "choice"
    elif t.draw.step:
        situation = "draw"
    else:
        situation = None
    out: dict[str, Any] = {"situation": situation}
    if t.exposed[0] or t.exposed[1] or t.exposed[2] or t.exposed[3]:
        out["exposed"] = tuple(tuple(sort_cards(cards)) for cards in t.exposed)
    if t.on_table:
        out["on_table"] = tuple((s, tuple(c)) for s, c in sorted(t.on_table.items()))
    choice = t.choice
    if choice is not None and choice.seat == seat:
        out["choice"] = (choice.purpose, choice.options)
    if deal.declare_barred:
        out["declare_barred"] = tuple(sorted(deal.declare_barred))
    if t.draw.slips or t.draw.kitty_draw is not None or t.draw.redirect is not None or t.revoke is not None:
        own = ["draw_other_seat_card" for slip in t.draw.slips if slip.seat == seat]
        if t.draw.kitty_draw is not None and t.draw.kitty_draw.banker == seat:
            own.append("banker_drew_kitty")
        if t.draw.redirect is not None and t.draw.redirect.by == seat:
            own.append("miscount_after_draw")
        if t.revoke is not None and t.revoke.seat == seat:
            own.append("wrong_follow")
        out["own_latent"] = tuple(own)
    return out
