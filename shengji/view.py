"""The 双升 table for reading (``table_view``): a frozen record of what the engine knows now —
hands, exposed cards, cards on the table, the trick in the middle, trump and banker, the
kitty, points, levels, who is to act, what the table waits for, the deal's and the match's
result. Facts only; the words are the viewer's.

Reading is pure (nothing emitted, nothing changed) and nothing here runs unless asked. The
refereed state is read through ``_refereed`` alone. A view taken after every batch (the
invariant checker's) reuses the seat records and the count of the tricks played built last
time when what they are built from is the same (``_LAST``).

Information rules (``viewer`` a seat): hand sizes are public; the kitty is seen by the
banker once it has picked it up (and by everyone once the deal is scored)."""

from __future__ import annotations

from operator import add, is_
from typing import Any

import attrs

from shengji.deal import RANKS, Deal, DealResult
from shengji.match import Match, MatchResult
from shengji.phase import Phase
from tabletop.cards import NUM_CARD_KINDS, Card
from tabletop.view import (
    SeatView, TableView, awaited_rulings, deal_and_match, held_of, on_table, pending_choice, resume_phase, without,
)


@attrs.frozen
class Trick:
    """The trick in the middle: its number (1 …), who led it, (seat, cards) in play order."""

    number: int
    leader: int | None
    plays: tuple[tuple[int, tuple[Card, ...]], ...]


@attrs.frozen
class Declaration:
    seat: int
    cards: tuple[Card, ...]


@attrs.frozen(kw_only=True)
class ShengjiView(TableView):
    game: str = "shengji"
    seats: tuple[SeatView, ...]
    trump: str | None
    trump_known: bool
    banker: int | None
    declaration: Declaration | None = None
    declare_barred: tuple[int, ...] = ()
    """Seats that may not declare in this deal."""
    kitty: tuple[Card, ...] | None
    """None: the viewer may not see it."""
    kitty_size: int
    buried: bool
    trick: Trick
    last_trick: Trick | None = None
    last_winner: int | None = None
    points: int
    """The attackers' points so far."""
    banker_points: int = 0
    """The points the banker's side took in tricks so far."""
    adjustments: tuple[tuple[str, int], ...] = ()
    result: DealResult | None = None
    """The deal's own result record once it is scored (the kitty in it is public then)."""
    levels: tuple[str, str]
    """Team levels."""
    match_result: MatchResult | None = None
    """The match's own result record once it is over."""


def table_view(engine: Deal | Match, viewer: int | None = None, number: int | None = None) -> ShengjiView:
    """The table of a deal or a match now, as ``viewer`` (None: every hand) may see it;
    ``number``: in a match, the deal of that number (``deal_and_match``)."""
    deal, match = deal_and_match(engine, Match, number)
    t = _refereed(deal)
    seats = [_seat(s, (tuple(deal.hands[s]) if viewer is None or viewer == s else None, deal.hand_size[s],
                       tuple(t.exposed[s]) if t is not None else (), on_table(t, s))) for s in range(4)]
    result = deal.result
    kitty_seen = viewer is None or result is not None or (viewer == deal.banker and bool(deal.picked_up or deal.buried))
    last = deal.tricks[-1] if deal.tricks else None
    decl = deal.declaration
    return ShengjiView(
        viewer=viewer, deal=number if number is not None else match.deal_number if match is not None else 1, phase=deal.phase.value, resume_phase=resume_phase(t),
        level=deal.level_text, seats=tuple(seats), to_act=deal.to_act, awaiting=awaited_rulings(t),
        choice=pending_choice(t), trump=deal.trump, trump_known=deal.trump_known, banker=deal.banker,
        declaration=Declaration(decl.seat, tuple(decl.cards)) if decl is not None else None,
        declare_barred=tuple(sorted(deal.declare_barred)),
        kitty=tuple(deal.kitty) if kitty_seen else None, kitty_size=len(deal.kitty), buried=deal.buried,
        trick=Trick(deal.trick_number, deal.leader, tuple((s, tuple(cs)) for s, cs in deal.trick)),
        last_trick=Trick(len(deal.tricks), last.plays[0][0], tuple(last.plays)) if last is not None else None,
        last_winner=last.winner if last is not None else None,
        points=deal.attackers_points, banker_points=deal.banker_points, adjustments=tuple(deal.adjustments),
        census=_census(deal) if viewer is None else (),
        result=result,
        levels=(RANKS[match.levels[0]], RANKS[match.levels[1]]) if match is not None else deal.level_texts,
        match_result=match.result if match is not None else None)


_LAST: dict[Any, Any] = {}
"""The last seat records and the count of the tricks played, with what they were built from: a
checker takes a view after every batch, and between two views at most a seat or two changed
and a trick at most was added. A part is reused only when what it was built from is the same
(compared; completed tricks are frozen records, so the same ones are the same cards)."""


def _seat(s: int, fields: tuple[Any, ...]) -> SeatView:
    """Seat ``s``'s record of ``fields`` (holding, count, exposed cards, cards on the table; the
    concealed hand is the holding less the exposed cards)."""
    last = _LAST.get(s)
    if last is not None and last[0] == fields:
        return last[1]
    holding, count, exposed, lying = fields
    seat = SeatView(s, without(held_of(holding), exposed) if holding is not None else None, count, exposed, (),
                    lying, holding=holding)
    _LAST[s] = (fields, seat)
    return seat


def _census(deal: Deal) -> tuple[int, ...]:
    """Copies of each card anywhere at the table: hands, the stock still to draw, the kitty,
    the trick in progress, the tricks played, cards laid on the table."""
    h0, h1, h2, h3 = deal.hands
    counts = list(map(add, map(add, h0, h1), map(add, h2, h3)))
    for card, n in enumerate(_tricks_played(deal.tricks)):
        if n:
            counts[card] += n
    places: list[Any] = [deal.stock[deal.drawn:], deal.kitty]
    places += [cards for _, cards in deal.trick]
    t = _refereed(deal)
    if t is not None:
        places += list(t.on_table.values())
    for place in places:
        for card in place:
            counts[card] += 1
    return tuple(counts)


def _tricks_played(tricks: list[Any]) -> tuple[int, ...]:
    """The cards of the completed tricks as a count vector: the last count, plus the tricks
    completed since, while the tricks it counted are still the first ones."""
    last = _LAST.get(_tricks_played)
    if last is not None and len(last[0]) <= len(tricks) and all(map(is_, last[0], tricks)):
        counted, counts = len(last[0]), list(last[1])
        if counted == len(tricks):
            return last[1]
    else:
        counted, counts = 0, [0] * NUM_CARD_KINDS
    for trick in tricks[counted:]:
        for _, cards in trick.plays:
            for card in cards:
                counts[card] += 1
    total = tuple(counts)
    _LAST[_tricks_played] = (tricks[:], total)
    return total


def _refereed(deal: Deal) -> Any:
    """The refereed part of the deal's state (None in strict mode): the one path the view
    reads it by."""
    return deal.table


__all__ = ["Phase", "ShengjiView", "table_view"]
