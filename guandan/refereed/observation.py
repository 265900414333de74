"""The refereed part of a 掼蛋 observation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from guandan.observation import Phase, TopPlay, UnauthorisedItem
from guandan.refereed.state import _PLAY
from guandan.refereed.state import table_of
from tabletop.cards import Card, sort_cards

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


def observe_extras(deal: Deal, seat: int) -> dict[str, Any] | None:
    """The refereed fields of ``seat``'s observation; None when there are none (ordinary
    play: the strict observation says it all)."""
    t = table_of(deal)
    phase = deal.phase
    if phase is _PLAY and not (
            t.exposures or t.bars or t.placed_last or t.on_table or t.restriction or t.unauthorised
            or t.choice or t.oot or t.correction or t.sequence):
        # ordinary play: nothing to add but whether a 报牌 is due (no dict made per decision)
        return None if t.report_due is None else _REPORT_DUE
    extras: dict[str, Any] = {}
    seen_exposed: tuple[UnauthorisedItem, ...] = ()
    if t.exposures:
        extras["exposed"], extras["penalty"], by_side = _exposure_views(
            tuple((e.seat, e.penalty, tuple(e.cards)) for e in t.exposures))
        seen_exposed = by_side[seat % 2]
    if t.bars:
        extras["barred"] = tuple(sorted(t.bars))
    if t.placed_last:
        extras["placed_last"] = tuple(t.placed_last)
    if t.on_table:
        grabbed = t.grab.seat if t.grab is not None and not t.grab.in_hand else None
        extras["on_table"] = tuple((s, tuple(sort_cards(c))) for s, c in sorted(t.on_table.items())
                                   if s != grabbed)
    situation = None
    if phase is Phase.AWAITING_RULING:
        situation = "awaiting_ruling"
    elif phase is Phase.DRAW:
        situation = "draw"
        extras["stock_left"] = len(deal.stock)
    elif t.choice is not None:
        situation = "choice"
        if t.choice.seat == seat:
            extras["choice"] = (t.choice.purpose, t.choice.options)
    elif t.report_due is not None:
        situation = "report"
    elif t.oot is not None:
        situation = "out_of_turn"
        extras["top"] = TopPlay(t.oot.seat, t.oot.cards, t.oot.reading)
    elif t.correction is not None and t.correction.seat == deal.turn:
        situation = "correction"
    elif t.sequence is not None:
        situation = "pass_sequence"
    extras["situation"] = situation
    r = t.restriction
    if r is not None and r.seat == seat:
        extras["restriction"] = (r.rule, r.kind)
    items = tuple(m.item for m in t.unauthorised if m.seat == seat) + seen_exposed
    if items:
        extras["unauthorised"] = items
    return extras


_REPORT_DUE = {"situation": "report"}

_Views = tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...], tuple[tuple[UnauthorisedItem, ...], ...]]
_EXPOSURE_VIEWS: dict[tuple[tuple[int, bool, tuple[Card, ...]], ...], _Views] = {}
_EXPOSURE_VIEWS_KEPT = 4096


def _exposure_views(exposures: tuple[tuple[int, bool, tuple[Card, ...]], ...]) -> _Views:
    """What every seat sees of the exposures (seat, penalty, cards), in order: per seat its
    exposed and its penalty cards, and per side the GD-7 items of its own side's exposures.
    Remembered by the exposures' contents: they stay the same for many decisions, and each of
    the four seats observes at every decision."""
    views = _EXPOSURE_VIEWS.get(exposures)
    if views is None:
        exposed: list[list[Card]] = [[], [], [], []]
        penalty: list[list[Card]] = [[], [], [], []]
        by_side: list[list[UnauthorisedItem]] = [[], []]
        for seat, is_penalty, cards in exposures:
            exposed[seat].extend(cards)
            if is_penalty:
                penalty[seat].extend(cards)
            by_side[seat % 2].append(UnauthorisedItem("exposed cards", seat, tuple(sort_cards(cards))))
        if len(_EXPOSURE_VIEWS) >= _EXPOSURE_VIEWS_KEPT:
            _EXPOSURE_VIEWS.clear()
        views = _EXPOSURE_VIEWS[exposures] = (tuple(tuple(sort_cards(x)) for x in exposed),
                                              tuple(tuple(sort_cards(x)) for x in penalty),
                                              (tuple(by_side[0]), tuple(by_side[1])))
    return views
