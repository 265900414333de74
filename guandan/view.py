"""The 掼蛋 table for reading (``table_view``): a frozen record of what the engine knows now —
hands, exposed and penalty cards with the lead options pending on them, bars, the round, the
tribute, levels and scores, the next-deal procedure, who is to act, what the table waits
for, the deal's and the match's result. Facts only; the words are the viewer's.

Reading is pure (nothing emitted, nothing changed) and nothing here runs unless asked. The
refereed state is read through ``_refereed`` alone."""

from __future__ import annotations

from operator import add
from typing import Any

import attrs

from guandan.deal import Deal, DealResult
from guandan.match import Match, MatchResult, NextDeal
from guandan.observation import Phase
from guandan.ranks import level_text
from tabletop.cards import Card
from tabletop.view import (
    Exposure, PendingOption, SeatView, TableView, awaited_rulings, deal_and_match, held_of, on_table, pending_choice,
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
    exposures = tuple(Exposure(e.uid, e.seat, tuple(e.cards), e.penalty) for e in t.exposures) if t is not None else ()
    options: dict[int, list[PendingOption]] = {}
    if t is not None:
        for o in t.lead_options:
            options.setdefault(o.restricted, []).append(PendingOption(o.restricted, o.chooser, o.kind, o.uid,
                                                                      o.asked_at))
    places = {s: k for k, s in enumerate(deal.finish_order, start=1)}
    r = t.restriction if t is not None else None
    d = t.designation if t is not None else None
    seats = []
    for s in range(4):
        exposed = tuple(c for e in exposures if e.seat == s and not e.penalty for c in e.cards) if exposures else ()
        penalty = tuple(c for e in exposures if e.seat == s and e.penalty for c in e.cards) if exposures else ()
        shown = viewer is None or viewer == s
        holding = tuple(deal.hands[s]) if shown else None
        seats.append(GuandanSeat(
            s, without(without(held_of(holding), exposed), penalty) if holding is not None else None,
            deal.sizes[s] if shown else None,
            exposed, penalty, on_table(t, s), tuple(t.bars.get(s, ())) if t is not None else (),
            tuple(options.get(s, ())), holding, announced=deal.announced[s],
            place=places.get(s), placed_last=t is not None and s in t.placed_last,
            restriction=LeadRestriction(r.rule, r.kind, tuple(r.cards)) if r is not None and r.seat == s else None,
            designated=d.kind if d is not None and d.holder == s and d.turn == t.turns else None,
            option_answered_at=t.option_asked.get(s) if t is not None else None))
    top = deal.top
    oot = t.oot if t is not None else None
    sequence = t.sequence if t is not None else None
    return GuandanView(
        viewer=viewer, deal=deal.deal_number, phase=deal.phase.value, resume_phase=resume_phase(t), level=deal.level_text, seats=tuple(seats),
        to_act=deal.to_act, awaiting=awaited_rulings(t), choice=pending_choice(t),
        round=Round(deal.leader, Play(top.seat, tuple(top.cards), top.reading.kind.name, top.reading.code)
                    if top is not None else None, tuple(deal.passed), deal.plays,
                    deal.first_leader),
        finish=tuple(deal.finish_order), judged_last=tuple(t.placed_last) if t is not None else (), face_up=deal.face_up, tribute=_tribute(deal), exposures=exposures,
        out_of_turn=OutOfTurn(oot.seat, tuple(oot.cards), oot.responder, oot.answer, oot.seq, oot.reading.code)
        if oot is not None else None,
        pass_sequence=tuple(sequence.seats[sequence.index:]) if sequence is not None else (),
        correction=t.correction.seat if t is not None and t.correction is not None else None,
        result=deal.result,
        census=_census(deal) if viewer is None else (), setup=_setup(t), leads=t.lead_count if t is not None else 0,
        report_due=t.report_due if t is not None else None,
        **(_match_part(match, deal) if match is not None else {}))


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
    places)."""
    h0, h1, h2, h3 = deal.hands
    counts = list(map(add, map(add, h0, h1), map(add, h2, h3)))
    places = [deal.stock, *deal.played]
    t = _refereed(deal)
    if t is not None:
        places += [*t.on_table.values(), t.draw.lost]
    for place in places:
        for card in place:
            counts[card] += 1
    return tuple(counts)


def _setup(t: Any) -> Setup | None:
    setup = t.draw.setup if t is not None else None
    if not setup:
        return None
    return Setup(setup["shuffler"], setup["cutter"], setup["first_drawer"])


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
