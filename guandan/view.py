"""The 掼蛋 table for reading (``table_view``): a frozen record of what the engine knows now —
hands, exposed and penalty cards with the lead options pending on them, bars, the round, the
tribute, levels and scores, the next-deal procedure, who is to act, what the table waits
for, the deal's and the match's result. Facts only; the words are the viewer's.

Reading is pure (nothing emitted, nothing changed) and nothing here runs unless asked. The
refereed state is read through ``_refereed`` alone. A view taken after every batch (the
invariant checker's) reuses the parts built last time — seat records, exposures, the census —
whose inputs compare equal to what it reads now (``_LAST``): the records are frozen, so an
equal one is as good as a new one."""

from __future__ import annotations

from operator import is_
from typing import Any

import attrs

from guandan.deal import Deal, DealResult
from guandan.match import Match, MatchResult, NextDeal
from guandan.observation import Phase
from guandan.ranks import level_text
from tabletop.cards import Card
from tabletop.view import (
    Exposure, PendingOption, SeatView, TableView, awaited_rulings, deal_and_match, held_of, pending_choice,
    resume_phase, without,
)


@attrs.frozen
class LeadRestriction:
    """``seat``'s next lead must not ('forbid') or must ('require') be of ``kind``, or must
    be exactly ``cards`` ('cards')."""

    rule: str
    kind: str
    cards: tuple[Card, ...] = ()


@attrs.frozen(kw_only=True)
class GuandanSeat(SeatView):
    announced: int | None = None
    """The count the seat last announced (报牌)."""
    place: int | None = None
    """1 … 4 once the seat is out (or placed by a forced result)."""
    placed_last: bool = False
    """Judged 单下 by a ruling."""
    restriction: LeadRestriction | None = None
    designated: str | None = None
    """The combination type (``kind_key``) the seat's 下家 designated for its penalty cards on
    this turn (None: none designated for this turn)."""
    option_answered_at: int | None = None
    """The lead (``GuandanView.leads``) at which a lead option on this seat was last answered."""


@attrs.frozen
class Play:
    seat: int
    cards: tuple[Card, ...]
    kind: str
    """The combination's kind (``Reading.kind`` name)."""
    reading: str = ""
    """The reading it was played as (``Reading.code``)."""


@attrs.frozen
class Round:
    """The round in the middle: who led it, the play to beat, the seats that passed on it."""

    leader: int | None
    top: Play | None
    passed: tuple[int, ...]
    plays: int
    """Plays made this deal so far."""
    first_leader: int | None = None
    """The seat that led the deal's first round (None: play has not started)."""


@attrs.frozen
class Tribute:
    """This deal's tribute: who owes whom (``payments``, payer → receiver), what changed
    hands (``given``: (kind 'tribute'/'return', giver, taker, card)), and why none is paid."""

    payments: tuple[tuple[int, int], ...]
    double: bool
    resisted: bool
    waived: bool
    excused: tuple[int, ...]
    given: tuple[tuple[str, int, int, Card], ...]
    leader: int


@attrs.frozen
class Setup:
    """How the deal was drawn: who shuffled, who cut, who drew first."""

    shuffler: int
    cutter: int
    first_drawer: int


@attrs.frozen
class OutOfTurn:
    """An out-of-turn play lying on the table, waiting for ``responder``'s answer."""

    seat: int
    cards: tuple[Card, ...]
    responder: int
    answer: str | None
    seq: int = -1
    """The seq of the out-of-turn attempt."""
    reading: str = ""
    """The reading the cards were laid as (``Reading.code``)."""


@attrs.frozen(kw_only=True)
class GuandanView(TableView):
    game: str = "guandan"
    seats: tuple[GuandanSeat, ...]
    round: Round
    finish: tuple[int, ...] = ()
    judged_last: tuple[int, ...] = ()
    """Seats judged 单下 by a ruling, in the order judged (the first takes the very last place)."""
    face_up: tuple[int, Card] | None = None
    tribute: Tribute | None = None
    exposures: tuple[Exposure, ...] = ()
    out_of_turn: OutOfTurn | None = None
    pass_sequence: tuple[int, ...] = ()
    """Seats still to pass in a pass sequence (GD-4.2.3 / 4.2.4)."""
    correction: int | None = None
    """The seat that must correct its play."""
    result: DealResult | None = None
    """The deal's own result record once it is scored."""
    levels: tuple[str, str] | None = None
    """Team levels (a match)."""
    scores: tuple[int, int] | None = None
    penalties: tuple[int, int] = (0, 0)
    next_deal: NextDeal | None = None
    """The procedure scheduled for the next deal (a match; the match's own frozen record, as
    ``procedure`` and ``match_result``: the view carries the engine's records, not copies)."""
    procedure: NextDeal | None = None
    """The procedure this deal was drawn under (a match's deal after a ruling scheduled one;
    None: the usual way)."""
    setup: Setup | None = None
    """How a drawn refereed deal was drawn (None: strict, or dealt from given hands)."""
    leads: int = 0
    """Leads (round starts) so far in this deal (refereed)."""
    report_due: int | None = None
    """The seat whose 报牌 the table waits for."""
    match_result: MatchResult | None = None
    """The match's result once it is over (its deals' records included)."""


def table_view(engine: Deal | Match, viewer: int | None = None, number: int | None = None) -> GuandanView:
    """The table of a deal or a match now, as ``viewer`` (None: every hand) may see it;
    ``number``: in a match, the deal of that number (``deal_and_match``)."""
    deal, match = deal_and_match(engine, Match, number)
    t = _refereed(deal)
    finish = tuple(deal.finish_order)
    places = {s: k for k, s in enumerate(finish, start=1)}
    hands, sizes, announced = deal.hands, deal.sizes, deal.announced
    if t is None:   # strict: no exposures, options, bars, restrictions or cards on the table
        exposures: tuple[Exposure, ...] = ()
        exposed: tuple[tuple[Card, ...], ...] = ((), (), (), ())
        penalty: tuple[tuple[Card, ...], ...] = exposed
        options: tuple[tuple[tuple[Any, ...], ...], ...] = ((), (), (), ())
        judged_last: tuple[int, ...] = ()
        restricted = designated = None
        bars: dict[int, list[str]] = {}
        lying: dict[int, list[Card]] = {}
        answered: dict[int, int] = {}
    else:
        exposures, exposed, penalty = _exposures([(e.uid, e.seat, e.cards, e.penalty) for e in t.exposures])
        options = _options([(o.restricted, o.chooser, o.kind, o.uid, o.asked_at) for o in t.lead_options])
        r, d = t.restriction, t.designation
        restricted = r.seat if r is not None else None
        designated = d.holder if d is not None and d.turn == t.turns else None
        judged_last = tuple(t.placed_last)
        bars, lying, answered = t.bars, t.on_table, t.option_asked
    seats = []
    for s in range(4):
        shown = viewer is None or viewer == s
        seats.append(_seat(s, (
            tuple(hands[s]) if shown else None, sizes[s] if shown else None, exposed[s], penalty[s],
            tuple(lying[s]) if s in lying else (), tuple(bars[s]) if s in bars else (), options[s],
            announced[s], places.get(s), s in judged_last,
            (r.rule, r.kind, tuple(r.cards)) if s == restricted else None,
            d.kind if s == designated else None, answered.get(s))))
    top = deal.top
    oot = t.oot if t is not None else None
    sequence = t.sequence if t is not None else None
    return GuandanView(
        viewer=viewer, deal=deal.deal_number, phase=deal.phase.value, resume_phase=resume_phase(t), level=deal.level_text, seats=tuple(seats),
        to_act=deal.to_act, awaiting=awaited_rulings(t), choice=pending_choice(t),
        round=Round(deal.leader, Play(top.seat, tuple(top.cards), top.reading.kind.name, top.reading.code)
                    if top is not None else None, tuple(deal.passed), deal.plays,
                    deal.first_leader),
        finish=finish, judged_last=judged_last, face_up=deal.face_up, tribute=_tribute(deal), exposures=exposures,
        out_of_turn=OutOfTurn(oot.seat, tuple(oot.cards), oot.responder, oot.answer, oot.seq, oot.reading.code)
        if oot is not None else None,
        pass_sequence=tuple(sequence.seats[sequence.index:]) if sequence is not None else (),
        correction=t.correction.seat if t is not None and t.correction is not None else None,
        result=deal.result,
        census=_census(deal) if viewer is None else (), setup=_setup(t), leads=t.lead_count if t is not None else 0,
        report_due=t.report_due if t is not None else None,
        **(_match_part(match, deal) if match is not None else {}))


_LAST: dict[Any, Any] = {}
"""The last part of a view built from what (``_exposures``, ``_options``, ``_seat``, ``_setup``,
``_census``): a checker takes a view after every batch, and between two views at most a seat or
two changed, so the others' parts are the ones built last time. A part is reused only when what
it was built from is equal to what it would be built from now (compared, not trusted), whatever
the engine."""


def _exposures(fields: list[tuple[int, int, list[Card], bool]]) -> tuple[
        tuple[Exposure, ...], tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...]]:
    """The exposure records of ``fields`` (uid, seat, cards, penalty of each exposure, in order)
    and each seat's exposed and penalty cards."""
    last = _LAST.get(Exposure)
    if last is not None and last[0] == fields:
        return last[1]
    exposures = tuple([Exposure(uid, seat, tuple(cards), penalty) for uid, seat, cards, penalty in fields])
    exposed: list[tuple[Card, ...]] = [(), (), (), ()]
    penalty_cards: list[tuple[Card, ...]] = [(), (), (), ()]
    for x in exposures:
        if x.penalty:
            penalty_cards[x.seat] += x.cards
        else:
            exposed[x.seat] += x.cards
    block = (exposures, tuple(exposed), tuple(penalty_cards))
    _LAST[Exposure] = ([(uid, seat, list(cards), penalty) for uid, seat, cards, penalty in fields], block)
    return block


def _options(fields: list[tuple[int, int, str, int, int]]) -> tuple[tuple[tuple[Any, ...], ...], ...]:
    """``fields`` (restricted seat, chooser, kind, exposure, asked_at of each lead option, in
    order) by the seat they wait for."""
    last = _LAST.get(PendingOption)
    if last is not None and last[0] == fields:
        return last[1]
    options: list[tuple[tuple[Any, ...], ...]] = [(), (), (), ()]
    for x in fields:
        options[x[0]] += (x,)
    block = tuple(options)
    _LAST[PendingOption] = (fields, block)
    return block


def _seat(s: int, fields: tuple[Any, ...]) -> GuandanSeat:
    """Seat ``s``'s record of ``fields`` (``GuandanSeat``'s from ``holding`` on in order, the
    options and the restriction as their fields' tuples; the concealed hand is the holding less
    the exposed and penalty cards)."""
    last = _LAST.get(s)
    if last is not None and last[0] == fields:
        return last[1]
    (holding, count, exposed, penalty, lying, bars, options, announced, place, placed_last,
     restriction, designated, answered) = fields
    seat = GuandanSeat(
        s, without(without(held_of(holding), exposed), penalty) if holding is not None else None, count,
        exposed, penalty, lying, bars, tuple([PendingOption(*o) for o in options]), holding,
        announced=announced, place=place, placed_last=placed_last,
        restriction=LeadRestriction(*restriction) if restriction is not None else None,
        designated=designated, option_answered_at=answered)
    _LAST[s] = (fields, seat)
    return seat


def _refereed(deal: Deal) -> Any:
    """The refereed part of the deal's state (None in strict mode): the one path the view
    reads it by."""
    return deal.table


def _tribute(deal: Deal) -> Tribute | None:
    plan = deal.tribute_plan
    if plan is None:
        return None
    return Tribute(tuple(plan.payments), plan.double, plan.resisted, plan.waived, tuple(plan.excused),
                   tuple((r.kind, r.giver, r.taker, r.card) for r in deal.tributes), plan.leader)


def _census(deal: Deal) -> tuple[int, ...]:
    """Copies of each card anywhere at the table (``Deal.card_counts`` without building the
    places): each seat's hand and played cards as one count vector (which a play leaves as it
    was: the four are added up again only when one changed), then the stock, the cards laid on
    the table and those lost in a flawed draw."""
    hands, played = deal.hands, deal.played
    last = _LAST.get(_census)
    if last is not None and last[0] == hands and last[1] == played:
        counts = last[3]   # no card went into or out of a hand or a played pile
    else:
        owned = []
        for s in range(4):
            hand, pile = hands[s], played[s]
            if last is not None and last[0][s] == hand and last[1][s] == pile:
                owned.append(last[2][s])
                continue
            cards = list(hand)
            for card in pile:
                cards[card] += 1
            mine = tuple(cards)
            owned.append(last[2][s] if last is not None and last[2][s] == mine else mine)
        if last is not None and all(map(is_, last[2], owned)):
            counts = last[3]
        else:
            o0, o1, o2, o3 = owned
            counts = tuple([a + b + c + d for a, b, c, d in zip(o0, o1, o2, o3)])
        _LAST[_census] = ([hand[:] for hand in hands], played[:], owned, counts)
    t = _refereed(deal)
    places = [deal.stock, *t.on_table.values(), t.draw.lost] if t is not None else [deal.stock]
    if not any(places):
        return counts   # play under way: every card is in a hand or played
    more = list(counts)
    for place in places:
        for card in place:
            more[card] += 1
    return tuple(more)


def _setup(t: Any) -> Setup | None:
    setup = t.draw.setup if t is not None else None
    if not setup:
        return None
    last = _LAST.get(Setup)
    if last is not None and last[0] == setup:
        return last[1]
    record = Setup(setup["shuffler"], setup["cutter"], setup["first_drawer"])
    _LAST[Setup] = (dict(setup), record)
    return record


def _match_part(match: Match, deal: Deal) -> dict[str, Any]:
    first, second = match.levels.levels
    return {
        "levels": (level_text(first), level_text(second)),
        "scores": match.scores,
        "penalties": (match.penalties[0], match.penalties[1]),
        "next_deal": match.scheduled,
        "procedure": match.procedure if deal is match.deal else None,
        "match_result": match.result,
    }


__all__ = ["GuandanView", "Phase", "table_view"]
