"""The 掼蛋 clauses as rulings: ``GuandanRulings.decide(engine, event)`` turns an irregular
attempt (``gd.irregular``) or its discovery (``gd.found``) into ONE ``Decision``: the clause,
the offender, the facts used, the table effects (rectification) and, through
``Decision.apply``, the table primitives that carry it out, then ``resolve``. Sanctions come
from the clause's ladder in the rulebook (the ledger escalates) unless a family says
otherwise; every imposed sanction is then applied: ``LevelDiffPenalty`` to the match score,
``ForcedLast`` / ``ForcedDoubleLast`` to the deal's result and the next deal's procedure
(GD-5.1 / GD-5.2).

One function per clause family. ``engine`` is a ``guandan.match.Match`` or a lone
``guandan.deal.Deal``; the deal is always the current one. A situation the rulebook does
not cover is a Decision without a clause (→ ``ref.unresolved`` and the fallback).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from enforcement.referee import Decision
from enforcement.sanctions import (
    BarOnePlay, CorrectPlay, Expose, ForcedDoubleLast, ForcedLast, LeadOption, LevelDiffPenalty,
    NextDealProcedure, NoTributeNextDeal, PassSequence, PenaltyCards, RandomDraw, RedoReturn, RedoTribute, Redeal,
    Replay, ReportAgain, RestoreOrder, Return, TableEffect, UnauthorisedInformation,
)
from enforcement.ledger import Imposed
from enforcement.rulebook import clauses_by_irregularity
from guandan import events as ev
from guandan.combos import Reading, readings
from guandan.table import IRREGULARITIES, kind_key
from guandan.observation import Phase
from tabletop.cards import Card
from tabletop.events import Event
from tabletop.seats import next_seat, partner, prev_seat

GAME = "guandan"


class _Table:
    """The deal a ruling acts on, and the match around it (None for a lone deal)."""

    def __init__(self, engine: Any) -> None:
        self.deal = getattr(engine, "current_deal", engine)
        self.match = engine if hasattr(engine, "add_level_penalty") else None

    def _keep(self, taken: list) -> None:
        """Match/Deal hooks hand back (take) the stream's pending events: put them back,
        so the runner shows them to every observer in order."""
        stream = self.deal.stream
        stream.pending[0:0] = taken

    def level_penalty(self, side: int, n: int, reason: str) -> None:
        if self.match is not None:
            self._keep(self.match.add_level_penalty(side, n, reason=reason))
        else:  # a lone deal has no match score: the penalty is recorded in the log and ledger
            self.deal.stream.emit(ev.LevelPenalty, team=side, levels=n, reason=reason)

    def schedule_next_deal(self, **kw: Any) -> None:
        if self.match is not None:
            if self.match.ended is None:
                self._keep(self.match.schedule_next_deal(**kw))
        else:
            self.deal.schedule_next_deal(**kw)

    def no_tribute_for(self, seat: int) -> dict[str, Any]:
        """GD-5.1's next-deal keywords for ``seat`` merged with what is already scheduled
        (an earlier ruling's seats and procedure stand)."""
        if self.match is not None:
            s = self.match.scheduled
            current = None if s is None else dict(
                no_tribute_seats=s.no_tribute_seats, no_tribute=s.no_tribute, shuffler=s.shuffler,
                cutter=s.cutter, first_drawer=s.first_drawer, leader=s.leader)
        else:
            current = self.deal.table.next_deal
        if current is None:
            return {"no_tribute_seats": (seat,)}
        merged = dict(current)
        merged["no_tribute_seats"] = tuple(sorted(set(current["no_tribute_seats"]) | {seat}))
        return merged

    def force_result(self, order: Sequence[int], reason: str) -> None:
        if self.match is not None:
            self._keep(self.match.force_result(order, reason))
        else:
            self._keep(self.deal.force_result(order, reason))


def _cards(codes: Sequence[str] | None) -> list[Card]:
    return [Card(c) for c in codes or ()]


class GuandanRulings:
    """``GameRulings`` for 掼蛋 (see enforcement.referee)."""

    game = GAME
    kinds = ("gd.irregular", "gd.found")

    def decide(self, engine: Any, event: Event) -> Sequence[Decision]:
        kind = event.KIND
        if kind == "gd.irregular":
            if event.latent:
                return ()
            return (self._decide(engine, event, event.seq),)
        if kind == "gd.found":
            return (self._decide(engine, event, event.answers),)
        return ()

    def _decide(self, engine: Any, event: Any, answers: int) -> Decision:
        family = _FAMILIES.get(event.irregularity)
        table = _Table(engine)
        if family is None:
            return _unresolved(event, answers, "no clause covers this irregularity")
        if event.fact("after_end"):
            return _unresolved(event, answers, "it came to light only after the deal had ended")
        if event.fact("moot"):
            return _unresolved(event, answers, event.fact("moot"))
        return family(table, event, answers)

    def unresolved(self, engine: Any, decision: Decision) -> None:
        """Play goes on as it stood: no unresolved irregularity lays cards on the table
        (passing with the lead, reported incidents, what came to light too late), so the
        seat that was to act still is."""
        deal = _Table(engine).deal
        if deal.table is None or deal.phase is Phase.SCORED:
            return
        deal.resolve(decision.answers)


# ---------------------------------------------------------------------------------------------
# Helpers


def _unresolved(event: Any, answers: int, why: str) -> Decision:
    return Decision(None, answers, offender=event.seat,
                    side=None if event.seat is None else event.seat % 2,
                    facts=tuple(event.facts) + (("why_unresolved", why),), irregularity=event.irregularity)


def _decision(event: Any, answers: int, clause: str, effects: Sequence[TableEffect],
              carry_out: Callable[[_Table, Decision, list[Imposed]], None], table: _Table, *,
              offender: Any = "event", side: int | None = None, sanctions: Any = None,
              extra_facts: Sequence[tuple[str, Any]] = (), shuffler: int | None = None) -> Decision:
    seat = event.seat if offender == "event" else offender

    def apply(engine: Any, decision: Decision, imposed: list[Imposed]) -> None:
        carry_out(table, decision, imposed)
        _impose(table, decision, imposed, shuffler)
        table.deal.resolve(answers)

    return Decision(clause, answers, offender=seat, side=side, facts=tuple(event.facts) + tuple(extra_facts),
                    effects=tuple(effects), sanctions=sanctions, irregularity=event.irregularity, apply=apply)


def _impose(table: _Table, decision: Decision, imposed: list[Imposed], shuffler: int | None = None) -> None:
    """Carry out the sanctions the ledger imposed (escalations included)."""
    deal = table.deal
    for row in imposed:
        s = row.sanction
        if isinstance(s, LevelDiffPenalty):
            table.level_penalty(row.side, s.n, row.clause)
        elif isinstance(s, ForcedDoubleLast):
            _double_last(table, row.side, row.seat if shuffler is None else shuffler, row.clause)
        elif isinstance(s, ForcedLast) and row.seat is not None:
            table.schedule_next_deal(**table.no_tribute_for(row.seat))  # before: 单下 may end the match
            if deal.phase is not Phase.SCORED:
                deal.place_last(row.seat, f"{row.clause}: judged 下游 (单下)")


def _double_last(table: _Table, side: int, seat: int | None, clause: str) -> None:
    """GD-5.2: the other side 上游 and 二游; next deal no tribute, a player of the offending
    side shuffles (the offender; else drawn from the REFEREE stream), its 下家 cuts, its
    partner draws first, its 上家 leads."""
    deal = table.deal
    shuffler = seat if seat is not None else _lot_shuffler(deal, side)
    p = NextDealProcedure.after_double_last(shuffler)
    # Scheduled before the result is forced: the ruling sets the procedure even when that
    # result then ends the match (so no next deal follows).
    table.schedule_next_deal(no_tribute=True, shuffler=p.shuffler, cutter=p.cutter,
                             first_drawer=p.first_drawer, leader=p.leader)
    if deal.phase is not Phase.SCORED:
        table.force_result(_double_last_order(deal, side), f"{clause}: 双下 for side {side}")


def _double_last_order(deal: Any, side: int) -> tuple[int, int, int, int]:
    """The 双下 result: the non-offending side 上游 and 二游, the offending side after it.
    Within a side, places the play already settled stand: a seat that went out is ahead of
    its partner, a seat judged 下游 (单下) is behind it; else the lower seat first."""
    finished = list(deal.finish_order)
    judged = deal.table.placed_last if deal.table is not None else []

    def ranked(team: int) -> list[int]:
        def key(s: int) -> tuple[int, int]:
            if s in finished:
                return (0, finished.index(s))
            return (2, s) if s in judged else (1, s)
        return sorted((team, team + 2), key=key)

    return tuple(ranked(1 - side) + ranked(side))  # type: ignore[return-value]


def _lot_shuffler(deal: Any, side: int) -> int:
    """任意人: which player of the offending side shuffles, by lot (the REFEREE stream)."""
    return side + 2 * int(deal.referee_rng().integers(2))


def _single_last_effects(seat: int) -> list[TableEffect]:
    """GD-5.1: the seat judged 单下 gives no tribute next deal (its partner's tribute stands)."""
    return [NoTributeNextDeal(seat)]


def _double_last_effects(shuffler: int) -> list[TableEffect]:
    """GD-5.2: the next deal's procedure; its imposed leader means no tribute at all."""
    return [NextDealProcedure.after_double_last(shuffler)]


def _exposure(table: _Table, seat: int, cards: Sequence[Card], reading: str | None = None,
              *, bar: bool = False) -> tuple[list[TableEffect], list[Card], str]:
    """The exposed-card treatment (GD-2.3.1 / GD-2.5) of ``cards`` of ``seat``, decided now:
    Expose, then the lead option for the partner's next lead — or, when the partner can
    never lead again (out, or 单下) or the cards form no combination, penalty cards at once
    (GD-6). Cards already lying exposed are not exposed again (``expose`` leaves them out the
    same way: pass it all the cards). Returns (effects, the cards newly exposed, the
    instruction for ``expose``)."""
    deal = table.deal
    new = deal.newly_exposed(seat, cards)
    if not new:
        return [], [], "none"
    if reading is not None and len(new) == len(cards):
        kind = _kind_of(reading)
    else:
        found = readings(new, deal.level, deal.rules)
        kind = kind_key(found[0]) if found else None
    effects: list[TableEffect] = [Expose(new, seat)]
    if kind is not None and deal.partner_may_lead(seat):
        effects.append(LeadOption(prev_seat(seat), partner(seat), kind))
        return effects, new, "lead_option"
    effects.append(PenaltyCards(new, seat))
    return effects, new, "penalty"


def _correct_play(table: _Table, seat: int) -> CorrectPlay:
    """GD-2.4: what becomes of the attempt's cards the correction leaves unused."""
    return CorrectPlay(seat, unused="lead_option" if table.deal.partner_may_lead(seat) else "penalty")


def _can_force(table: _Table) -> bool:
    return table.deal.phase is not Phase.SCORED


def _no_table_change(table: _Table, decision: Decision, imposed: list[Imposed]) -> None:
    return None


def _kind_of(reading_code: str | None) -> str:
    return kind_key(Reading.from_code(reading_code)) if reading_code else "?"


# ---------------------------------------------------------------------------------------------
# GD-1 drawing


def draw_out_of_turn(table: _Table, event: Any, answers: int) -> Decision:
    """GD-1.1.1 - GD-1.1.3b: the card goes back (or the rightful drawer draws at random)."""
    seat = event.seat
    rightful = event.fact("rightful")
    card = event.fact("card")
    if not event.fact("inserted"):
        clause = "GD-1.1.2" if event.fact("face_seen") else "GD-1.1.1"
    else:
        clause = "GD-1.1.3a" if event.fact("identifiable") else "GD-1.1.3b"
    if clause == "GD-1.1.3b":
        effects = [RandomDraw(seat, rightful), RestoreOrder(next_seat(rightful))]

        def carry_out(t: _Table, d: Decision, imposed: list[Imposed]) -> None:
            t.deal.random_draw(seat, rightful, clause)
    else:
        # The card goes back whether or not its face was seen (the facts say what was seen).
        grabbed = table.deal.table.grab
        returned = [grabbed[1]] if grabbed is not None and grabbed[0] == seat else _cards([card] if card else ())
        effects = [Return(returned, seat), RestoreOrder(rightful)]

        def carry_out(t: _Table, d: Decision, imposed: list[Imposed]) -> None:
            t.deal.return_cards(seat, clause)
            t.deal.restore_turn(rightful, clause)
    return _decision(event, answers, clause, effects, carry_out, table)


def wrong_counts(table: _Table, event: Any, answers: int) -> Decision:
    """GD-1.2: a short deck is redealt with a fresh deck (PD); one side wrong: 双下 for it
    (GD-1.2.1); one side too many and the other too few: warnings, later −1 each, redeal
    (GD-1.2.2)."""
    counts = event.fact("counts")
    if not event.fact("deck_complete"):
        def redeal_fresh(t: _Table, d: Decision, imposed: list[Imposed]) -> None:
            t.deal.redeal(True, "GD-1.2: short deck")
        return _decision(event, answers, "GD-1.2", [Redeal(fresh_deck=True)], redeal_fresh, table,
                         offender=None, side=None, sanctions=())
    wrong_sides = sorted({s % 2 for s in range(4) if counts[s] != 27})
    if len(wrong_sides) == 1:
        side = wrong_sides[0]
        if not _can_force(table):
            return _unresolved(event, answers, "the deal is already over")
        shuffler = _lot_shuffler(table.deal, side)
        return _decision(event, answers, "GD-1.2.1", _double_last_effects(shuffler), _no_table_change, table,
                         offender=None, side=side, shuffler=shuffler)

    def redeal(t: _Table, d: Decision, imposed: list[Imposed]) -> None:
        t.deal.redeal(False, "GD-1.2.2")
    return _decision(event, answers, "GD-1.2.2", [Redeal(fresh_deck=False)], redeal, table,
                     offender=None, side=None)


# ---------------------------------------------------------------------------------------------
# GD-2 play


def announce_out_of_turn(table: _Table, event: Any, answers: int) -> Decision:
    """GD-2.2.1 ('pass') / GD-2.2.2 ('beat'): barred from the next play in this round (在该圈:
    scope 'round', the bar lapses with the round)."""
    seat = event.seat
    clause = "GD-2.2.1" if event.fact("what") == "pass" else "GD-2.2.2"

    def carry_out(t: _Table, d: Decision, imposed: list[Imposed]) -> None:
        t.deal.bar_in_round(seat, clause)
    return _decision(event, answers, clause, [BarOnePlay(seat, scope="round")], carry_out, table)


def play_out_of_turn(table: _Table, event: Any, answers: int) -> Decision:
    """GD-2.3.2 when the next player acted on it (it stands); else GD-2.3.1: taken back,
    order restored, barred from its next turn (in this round or a later one), exposed with
    the lead option for the partner (penalty cards when the partner can never lead again)."""
    seat = event.seat
    if event.fact("followed"):
        return _decision(event, answers, "GD-2.3.2", [], _no_table_change, table)
    cards = _cards(event.fact("cards"))
    reading = event.fact("reading")
    rightful = event.fact("rightful")
    exposure, exposed, then = _exposure(table, seat, cards, reading)
    effects = [Return(cards, seat), RestoreOrder(rightful), BarOnePlay(seat, scope="next_turn")] + exposure

    def carry_out(t: _Table, d: Decision, imposed: list[Imposed]) -> None:
        deal = t.deal
        deal.return_cards(seat, "GD-2.3.1")
        if exposed:
            deal.expose(seat, cards, "GD-2.3.1", then=then, reading=Reading.from_code(reading))
        deal.bar_next_play(seat, "GD-2.3.1")
        deal.restore_turn(rightful, "GD-2.3.1")
    return _decision(event, answers, "GD-2.3.1", effects, carry_out, table)


def wrong_cards(table: _Table, event: Any, answers: int) -> Decision:
    """GD-2.4.1 / GD-2.4.2: taken back and corrected (a legal play or a pass); the cards of
    the attempt not used in the correction are then exposed (GD-2.5, no bar), as the
    CorrectPlay effect says: with the lead option, or as penalty cards."""
    seat = event.seat
    clause = "GD-2.4.2" if event.irregularity == "does_not_beat" else "GD-2.4.1"
    cards = _cards(event.fact("cards"))
    correct = _correct_play(table, seat)

    def carry_out(t: _Table, d: Decision, imposed: list[Imposed]) -> None:
        t.deal.return_cards(seat, clause)
        t.deal.await_correction(seat, cards, clause, unused=correct.unused)
    return _decision(event, answers, clause, [Return(cards, seat), correct], carry_out, table)


def extra_cards(table: _Table, event: Any, answers: int) -> Decision:
    """GD-2.4.3: the extra cards are exposed; the rest stands if it is a legal play, else it
    is corrected as GD-2.4.1."""
    seat = event.seat
    cards = _cards(event.fact("cards"))
    extra = _cards(event.fact("extra"))
    reading = Reading.from_code(event.fact("reading"))
    rest_legal = event.fact("rest_legal")
    exposure, exposed, then = _exposure(table, seat, extra)
    effects: list[TableEffect] = [Return(extra, seat)] + exposure
    correct = _correct_play(table, seat)
    if not rest_legal:
        effects += [Return(cards, seat), correct]

    def carry_out(t: _Table, d: Decision, imposed: list[Imposed]) -> None:
        deal = t.deal
        deal.return_cards(seat, "GD-2.4.3", only=extra if rest_legal else None)
        if exposed:
            deal.expose(seat, extra, "GD-2.4.3", then=then)
        if rest_legal:
            deal.stand_play(seat, cards, reading, "GD-2.4.3: the rest stands")
        else:
            deal.await_correction(seat, cards, "GD-2.4.3", unused=correct.unused)
    return _decision(event, answers, "GD-2.4.3", effects, carry_out, table)


def retract_play(table: _Table, event: Any, answers: int) -> Decision:
    """GD-2.4.4: a legal play is never taken back; refused, the play stands."""
    return _decision(event, answers, "GD-2.4.4", [], _no_table_change, table)


def exposed_card(table: _Table, event: Any, answers: int) -> Decision:
    """GD-2.5: the exposed-card treatment of GD-2.3.1 (face up, the lead option or penalty
    cards) without its bar: 禁出一手 sanctions an out-of-turn play, not an exposure. The
    adjusted score is for damage the rectification cannot repair: not given automatically."""
    seat = event.seat
    card = Card(event.fact("card"))
    effects, exposed, then = _exposure(table, seat, [card])

    def carry_out(t: _Table, d: Decision, imposed: list[Imposed]) -> None:
        if exposed:
            t.deal.expose(seat, [card], "GD-2.5", then=then)
    return _decision(event, answers, "GD-2.5", effects, carry_out, table, sanctions=())


def pass_on_lead(table: _Table, event: Any, answers: int) -> Decision:
    return _unresolved(event, answers, "passing with the lead is in no clause (the seat must lead)")


# ---------------------------------------------------------------------------------------------
# GD-3 tribute and return


def wrong_tribute(table: _Table, event: Any, answers: int) -> Decision:
    """GD-3.1.1 before the first play: the card comes back exposed, tribute again, warning;
    GD-3.1.2 after it: 双下 for the offending side."""
    seat = event.seat
    if event.fact("discovered") == "after_first_play":
        if not _can_force(table):
            return _unresolved(event, answers, "the deal is already over")
        return _decision(event, answers, "GD-3.1.2", _double_last_effects(seat), _no_table_change, table)
    card = Card(event.fact("given"))
    exposure, exposed, then = _exposure(table, seat, [card])

    def carry_out(t: _Table, d: Decision, imposed: list[Imposed]) -> None:
        t.deal.return_cards(seat, "GD-3.1.1")
        if exposed:
            t.deal.expose(seat, [card], "GD-3.1.1", then=then)
    return _decision(event, answers, "GD-3.1.1", [Return([card], seat)] + exposure + [RedoTribute(seat)],
                     carry_out, table)


def wrong_return(table: _Table, event: Any, answers: int) -> Decision:
    """GD-3.2.1 before the first play: return again, warning; GD-3.2.2 after it: 双下."""
    seat = event.seat
    if event.fact("discovered") == "after_first_play":
        if not _can_force(table):
            return _unresolved(event, answers, "the deal is already over")
        return _decision(event, answers, "GD-3.2.2", _double_last_effects(seat), _no_table_change, table)
    card = Card(event.fact("given"))

    def carry_out(t: _Table, d: Decision, imposed: list[Imposed]) -> None:
        t.deal.return_cards(seat, "GD-3.2.1")
    return _decision(event, answers, "GD-3.2.1", [Return([card], seat), RedoReturn(seat)], carry_out, table)


# ---------------------------------------------------------------------------------------------
# GD-4 reporting


def extra_report(table: _Table, event: Any, answers: int) -> Decision:
    """GD-4.1: reporting when not due, or asking for another's count: a warning."""
    return _decision(event, answers, "GD-4.1", [], _no_table_change, table)


def missing_report(table: _Table, event: Any, answers: int) -> Decision:
    """GD-4.2.1 - GD-4.2.5 by the stage at which the missing or wrong 报牌 came to light."""
    seat = event.seat
    stage = event.fact("stage")
    at_end = bool(event.fact("at_deal_end"))
    acted = tuple(event.fact("acted") or ())
    played = tuple(event.fact("played") or ())
    if stage == 1:
        def report(t: _Table, d: Decision, imposed: list[Imposed]) -> None:
            t.deal.report_again(seat)
        return _decision(event, answers, "GD-4.2.1", [ReportAgain(seat)], report, table)
    if stage == 2:
        effects: list[TableEffect] = [ReportAgain(seat)]
        if acted:
            effects.append(Replay([s for s in acted]))
        # What the partner takes back is unauthorised information to the offender: part of
        # the Replay it may choose later (its gd.unauthorised follows that choice), not an
        # effect of this ruling.

        def take_back(t: _Table, d: Decision, imposed: list[Imposed]) -> None:
            deal = t.deal
            deal.report_again(seat)
            first = next((s for s in acted if s != partner(seat)), None)
            if first is not None:
                deal.offer_replay(first)
            elif partner(seat) in played:
                deal.offer_choice(partner(seat), "partner_replay", ("take_back", "stand"))
            else:
                deal.drop_latent_report()
        return _decision(event, answers, "GD-4.2.2", effects, take_back, table)
    if stage == 3:
        if at_end:
            return _unresolved(event, answers, "GD-4.2.3 found only at the end of the deal: "
                                               "the second play can no longer be taken back")
        cards = _cards(event.fact("cards"))
        code = event.fact("reading")
        exposure, exposed, then = _exposure(table, seat, cards, code)
        effects = ([Return(cards, seat)] + exposure
                   + [BarOnePlay(seat, scope="next_turn"), ReportAgain(seat)])
        seats = table.deal.pass_sequence_seats(seat, "offender_leads")
        if seats:
            effects.append(PassSequence(seat, seats, "offender_leads"))

        def sequence(t: _Table, d: Decision, imposed: list[Imposed]) -> None:
            deal = t.deal
            deal.return_cards(seat, "GD-4.2.3")
            if exposed:
                deal.expose(seat, cards, "GD-4.2.3", then=then, reading=Reading.from_code(code))
            deal.bar_next_play(seat, "GD-4.2.3")
            deal.report_again(seat)
            deal.start_pass_sequence(seat, "offender_leads", "GD-4.2.3")
        return _decision(event, answers, "GD-4.2.3", effects, sequence, table)
    if not _can_force(table):
        return _unresolved(event, answers, "the deal is already over")
    side = seat % 2
    if stage == 4:
        cards = _cards(event.fact("cards"))
        effects = ([Return(cards, seat)] if cards else []) + _single_last_effects(seat)
        seats = [] if at_end else table.deal.pass_sequence_seats(seat, "play_on")
        if seats:
            effects.append(PassSequence(seat, seats, "play_on"))

        def play_on(t: _Table, d: Decision, imposed: list[Imposed]) -> None:
            if cards:
                t.deal.return_cards(seat, "GD-4.2.4")
            if not at_end:
                t.deal.start_pass_sequence(seat, "play_on", "GD-4.2.4")
        return _decision(event, answers, "GD-4.2.4", effects, play_on, table)
    # stage 5: gone out unreported
    if event.fact("partner_out"):
        return _decision(event, answers, "GD-4.2.5", _single_last_effects(seat), _no_table_change, table)
    return _decision(event, answers, "GD-4.2.5", _double_last_effects(seat), _no_table_change, table,
                     sanctions=(ForcedDoubleLast(),), extra_facts=(("partner_still_playing", True),))


# ---------------------------------------------------------------------------------------------
# Reported incidents (GD-2.1, GD-7)


def incident(table: _Table, event: Any, answers: int) -> Decision:
    """GD-2.1 manner of play (warning, −1, −2); GD-7 information: its side may not use it;
    damage to the other side is for the adjusted score (unresolved → fallback)."""
    seat = event.seat
    what = event.fact("incident")
    if what == "manner_of_play":
        return _decision(event, answers, "GD-2.1", [], _no_table_change, table)
    if what == "information":
        if event.fact("damaged"):
            return _unresolved(event, answers, "information used to the other side's damage: "
                                               "adjusted score at the referee's discretion")
        note = event.fact("note") or "reported information"

        def flag(t: _Table, d: Decision, imposed: list[Imposed]) -> None:
            t.deal.mark_unauthorised((partner(seat),), seat, (), f"incident: {note} (GD-7)")
        return _decision(event, answers, "GD-7", [UnauthorisedInformation([partner(seat)])], flag, table)
    return _unresolved(event, answers, f"a reported incident of kind {what!r} is in no clause")


_FAMILIES: dict[str, Callable[[_Table, Any, int], Decision]] = {
    "draw_out_of_turn": draw_out_of_turn,
    "wrong_counts_after_draw": wrong_counts,
    "announce_out_of_turn": announce_out_of_turn,
    "play_out_of_turn": play_out_of_turn,
    "wrong_kind": wrong_cards,
    "does_not_beat": wrong_cards,
    "extra_cards": extra_cards,
    "retract_play": retract_play,
    "exposed_card": exposed_card,
    "pass_on_lead": pass_on_lead,
    "wrong_tribute": wrong_tribute,
    "wrong_return": wrong_return,
    "report_repeated": extra_report,
    "ask_count": extra_report,
    "report_missing": missing_report,
    "report_wrong": missing_report,
    "incident": incident,
}

IRREGULARITY_CLAUSES: dict[str, tuple[str, ...]] = clauses_by_irregularity(GAME, IRREGULARITIES)
"""Which clauses each irregularity id can be ruled under (the trainer, and tests), derived
from the rulebook's triggers (enforcement.rulebook.clauses_by_irregularity); an empty tuple:
always unresolved (the rulebook's ``unresolved:`` keys, fallback GD-2.5)."""
