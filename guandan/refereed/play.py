"""Play and pass, refereed: the legal plays the table's restrictions leave (``play_options``),
an irregular attempt laid on the table, announcements, retractions, dropped cards, incidents."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from guandan import events as ev
from guandan.actions import (
    Announce, AskCount, DropCard, Incident, Pass, Play, PlayWithExtra, Retract, action_to_data,
)
from guandan.combos import Reading
from guandan.legal import RECORDED, LegalActions
from guandan.movegen import Move, legal_plays, plays
from guandan.observation import Phase
from guandan.refereed import on_table, out_of_turn, restrictions, state
from guandan.refereed.state import table_of
from tabletop import refereed
from tabletop.cards import Card, codes, count_list, holds
from tabletop.errors import IllegalAction
from tabletop.rulings import facts as make_facts
from tabletop.seats import NUM_SEATS, partner

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


def play_extra(deal: Deal, a: PlayWithExtra, handed: bool) -> None:
    t = table_of(deal)
    seat = a.seat
    if deal.phase is not Phase.PLAY:
        raise IllegalAction("no play now: the deal is not in play")
    if not a.extra:
        raise IllegalAction("no extra cards: make an ordinary play")
    on_table.check_holds(deal, seat, a.cards + a.extra)
    if seat != state.play_turn(deal) or t.oot is not None:
        raise IllegalAction("extra cards carried out of turn are not modelled")
    found = deal.illegality(Play(seat, a.cards, a.reading))
    if found is not None and found.code not in RECORDED:
        raise IllegalAction(found.message)
    top = deal.top_for(seat)
    e = deal.stream.emit(ev.IrregularAttempt, seat=seat, irregularity="extra_cards",
                         action=action_to_data(a),
                         facts=make_facts(cards=codes(a.cards), reading=a.reading.code, extra=codes(a.extra),
                                          top=None if top is None else top.code, leading=top is None,
                                          rest_legal=found is None,
                                          rest_problem=None if found is None else found.code))
    on_table.lay(deal, seat, a.cards + a.extra)
    refereed.await_ruling(deal, e.seq, "extra_cards", seat, e)


def play_in_turn(deal: Deal, action: Play, found: Any) -> None:
    """A play in turn (also the answer to an out-of-turn play, held until the referee rules
    on that play), with its ``illegality``: legal, recorded as an irregular attempt, or refused."""
    t = table_of(deal)
    if found is not None and found.code not in RECORDED:
        raise IllegalAction(found.message)
    seat, cards, reading = action.seat, action.cards, action.reading
    answering = t.oot is not None
    if found is None:
        deal.stream.emit(ev.CardsPlayed, seat=seat, cards=codes(cards), reading=reading.code)
        if answering:  # 跟牌 on the out-of-turn cards: held on the table, the referee decides
            on_table.lay(deal, seat, cards)
            out_of_turn.answered(deal, "played_on_it", tuple(cards), reading)
            return
        lr = t.latent_report
        held = lr is not None and lr.seat == seat and len(cards) < deal.sizes[seat] and (
            lr.target == 3 or (lr.target == 4 and lr.plays_since >= 1) or (lr.target == 2 and not lr.found))
        if lr is None or not held:
            deal.play_cards(seat, cards, reading)
            return
        # GD-4.2.3 / 4.2.4: the unreported player plays again; the play is held on the table
        on_table.lay(deal, seat, cards)
        t.latent_report = None
        stage = 3 if lr.plays_since == 0 else 4
        refereed.found(deal, lr.seq, lr.irregularity, seat, stage=stage, at_deal_end=False,
                      acted=tuple(lr.acted), partner_acted=partner(seat) in lr.acted,
                      partner_out=partner(seat) in deal.finish_order, count=lr.count,
                      holds=deal.sizes[seat] + len(cards), cards=codes(cards), reading=reading.code)
        return
    top = deal.top_for(seat)
    e = deal.stream.emit(ev.IrregularAttempt, seat=seat, irregularity=found.code,
                         action=action_to_data(action),
                         facts=make_facts(cards=codes(cards), reading=reading.code,
                                          top=None if top is None else top.code,
                                          leading=top is None, **found.facts))
    on_table.lay(deal, seat, cards)
    if answering:  # the out-of-turn play is ruled on first, this attempt after it
        out_of_turn.answered(deal, "irregular_attempt", attempt=e.seq)
    refereed.await_ruling(deal, e.seq, found.code, seat, e)


def pass_(deal: Deal, a: Pass, handed: bool) -> None:
    t = table_of(deal)
    seat = a.seat
    if deal.phase is not Phase.PLAY:
        raise IllegalAction("no pass now: the deal is not in play")
    found = None if handed else deal.illegality(a)
    if found is not None:
        if found.code == "announce_out_of_turn":
            announce(deal, Announce(seat, "pass"), handed, action=a)
            return
        if found.code not in RECORDED:
            raise IllegalAction(found.message)
        e = deal.stream.emit(ev.IrregularAttempt, seat=seat, irregularity=found.code,
                             action=action_to_data(a), facts=make_facts(**found.facts))
        refereed.await_ruling(deal, e.seq, found.code, seat, e)
        return
    deal.stream.emit(ev.Passed, seat=seat)
    if t.oot is not None:  # a pass is no 跟牌: not applied, the referee decides (a bar stays)
        out_of_turn.answered(deal, "passed")
        return
    deal.pass_turn(seat)


def announce(deal: Deal, a: Announce, handed: bool, action: Any = None) -> None:
    if deal.phase is not Phase.PLAY:
        raise IllegalAction("no announcement now: the deal is not in play")
    seat = a.seat
    if not deal.sizes[seat] or seat in table_of(deal).placed_last:
        raise IllegalAction(f"seat {seat} is out of the play")
    if seat == state.play_turn(deal):
        raise IllegalAction("it is this seat's turn: play or pass")
    e = deal.stream.emit(ev.IrregularAttempt, seat=seat, irregularity="announce_out_of_turn",
                         action=action_to_data(action or a),
                         facts=make_facts(what=a.what, to_act=deal.turn,
                                          top=None if deal.top is None else deal.top.reading.code))
    refereed.await_ruling(deal, e.seq, "announce_out_of_turn", seat, e)


def retract(deal: Deal, a: Retract, handed: bool) -> None:
    if deal.phase is not Phase.PLAY:
        raise IllegalAction("nothing to take back: the deal is not in play")
    last = table_of(deal).last_play.get(a.seat)
    refereed.attempt(deal, a, "retract_play", last_play=None if last is None else codes(last))


def ask(deal: Deal, a: AskCount, handed: bool) -> None:
    if deal.phase is not Phase.PLAY or a.target not in range(NUM_SEATS) or a.target == a.seat:
        raise IllegalAction("no count to ask for")
    refereed.attempt(deal, a, "ask_count", target=a.target)


def drop(deal: Deal, a: DropCard, handed: bool) -> None:
    t = table_of(deal)
    if deal.phase is not Phase.PLAY:
        raise IllegalAction("dropping a card is modelled in play only")
    exposed = [c for e in t.exposures if e.seat == a.seat for c in e.cards]
    free = list(deal.hands[a.seat])
    for c in exposed:
        free[c] -= 1
    if free[a.card] <= 0:
        raise IllegalAction(f"seat {a.seat} holds no unexposed {a.card}")
    refereed.attempt(deal, a, "exposed_card", card=str(a.card))


def incident(deal: Deal, a: Incident, handed: bool) -> None:
    if a.seat not in range(NUM_SEATS):
        raise IllegalAction(f"no seat {a.seat}")
    refereed.attempt(deal, a, "incident", incident=a.incident, severity=a.severity, damaged=a.damaged,
                   note=a.note, phase=deal.phase.value)


def play_options(deal: Deal, seat: int, top: Reading | None, *, pass_on_lead: bool = False,
                 ordinary_hand_size: int = -1) -> Any:
    """The legal plays (``ordinary_hand_size``: ``LegalActions.ordinary_hand_size``)."""
    t = table_of(deal)
    moves: Sequence[Move] | None = None
    if t.exposures or t.restriction is not None:
        moves = restrictions.penalty_moves(deal, seat, top) or None
        if moves is None and top is None and t.restriction is not None and t.restriction.seat == seat:
            moves = restrictions.lead_filter(deal, seat, legal_plays(deal.hand(seat), None, deal.level,
                                                                    rules=deal.rules))
    if moves is None:   # no restriction: the engine's lazy listing (cards made for the move picked)
        moves = plays(deal.hands[seat], top, deal.level, deal.rules)
    return LegalActions(seat, moves, top is not None or pass_on_lead, ordinary_hand_size)


def restriction_broken(deal: Deal, seat: int, cards: tuple[Card, ...], reading: Reading,
                       top: Reading | None) -> str | None:
    """Which table restriction a play breaks (None: none)."""
    t = table_of(deal)
    if not t.exposures and t.restriction is None:
        return None
    r = restrictions.restriction_in_force(deal, seat) if top is None else None
    if r is not None and not restrictions.allows(r, cards, reading):
        return f"lead restriction: {r.rule} {r.kind}"
    penalty = restrictions.penalty_moves(deal, seat, top)
    if penalty:
        pcards = [c for e in t.exposures if e.seat == seat and e.penalty for c in e.cards]
        kinds = {restrictions.kind_key(m.reading) for m in penalty}
        if not holds(count_list(pcards), cards) or restrictions.kind_key(reading) not in kinds:
            return "penalty cards must be played (or pass)"
    return None
