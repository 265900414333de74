"""The 掼蛋 clauses as rulings: ``GuandanRulings.decide(engine, event)`` turns an irregular
attempt (``gd.irregular``) or its discovery (``gd.found``) into ONE ``Decision``: the clause,
the offender, the facts used, the table effects (rectification) and the sanctions. A ruling
is data: the engine carries it out (``Deal.carry_out`` / ``Match.carry_out``, one handler
per effect kind in ``guandan.table.EFFECT_HANDLERS``), so everything the table needs is in
the effects' fields — who is offered a take-back first, which seats may pass in sequence, the
shuffler the referee's lot chose. Sanctions come from the clause's ladder in the rulebook
(the ledger escalates) unless a family says otherwise; the engine then applies every imposed
one: ``LevelDiffPenalty`` to the match score, ``ForcedLast`` / ``ForcedDoubleLast`` to the
deal's result, while the next deal's procedure (GD-5.1 / GD-5.2) is the ruling's
``NoTributeNextDeal`` / ``NextDealProcedure`` effect.

One function per clause family. ``engine`` is a ``guandan.match.Match`` or a lone
``guandan.deal.Deal``; the deal is always the current one. A situation the rulebook does
not cover is a Decision without a clause (→ ``ref.unresolved`` and the fallback).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from enforcement.guandan_referee import TABLE_CITATIONS, make_guandan_referee   # noqa: F401  (re-exported: made here before)
from enforcement.referee import Decision, decision, uncovered
from tabletop.effects import (
    Expose, ForcedDoubleLast, PlayStands, RandomDraw, Redeal, Replay, RestoreOrder, Return, TableEffect,
)
from guandan.refereed.effects import (
    BarOnePlay, CorrectPlay, LeadOption, NextDealProcedure, NoTributeNextDeal, PassSequence, PenaltyCards,
    RedoReturn, RedoTribute, ReportAgain, UnauthorisedInformation,
)
from guandan.combos import Reading, readings
from guandan.deal import Deal
from guandan.table import kind_key
from guandan.observation import Phase
from tabletop.cards import Card
from tabletop.rulings import Discovered, Irregular
from tabletop.seats import next_seat, partner, prev_seat

GAME = "guandan"


def _deal(engine: Any) -> Any:
    """The deal a ruling acts on (a match's current one)."""
    return getattr(engine, "current_deal", engine)


def _cards(codes: Sequence[str] | None) -> list[Card]:
    return [Card(c) for c in codes or ()]


class GuandanRulings:
    """``GameRulings`` for 掼蛋 (see enforcement.referee)."""

    game = GAME

    def decide(self, engine: Any, event: Irregular | Discovered) -> Decision:
        """The decision on the irregular attempt (``gd.irregular``) or its discovery
        (``gd.found``) that ``event`` is."""
        answers = event.answers if isinstance(event, Discovered) else event.seq
        family = _FAMILIES.get(event.irregularity)
        if family is None:
            return uncovered(event, answers, "no clause covers this irregularity")
        if event.fact("after_end"):
            return uncovered(event, answers, "it came to light only after the deal had ended")
        if event.fact("moot"):
            return uncovered(event, answers, event.fact("moot"))
        return family(_deal(engine), event, answers)


# ---------------------------------------------------------------------------------------------
# Helpers


def _lot_shuffler(deal: Deal, side: int) -> int:
    """任意人: which player of the offending side shuffles, by lot (the REFEREE stream)."""
    return side + 2 * int(deal.referee_rng().integers(2))


def _single_last_effects(seat: int) -> list[TableEffect]:
    """GD-5.1: the seat judged 单下 gives no tribute next deal (its partner's tribute stands)."""
    return [NoTributeNextDeal(seat)]


def _double_last_effects(shuffler: int) -> list[TableEffect]:
    """GD-5.2: the next deal's procedure; its imposed leader means no tribute at all."""
    return [NextDealProcedure.after_double_last(shuffler)]


def _exposure(deal: Deal, seat: int, cards: Sequence[Card], reading: str | None = None) -> list[TableEffect]:
    """The exposed-card treatment (GD-2.3.1 / GD-2.5) of ``cards`` of ``seat``, decided now:
    Expose, then the lead option for the partner's next lead — or, when the partner can
    never lead again (out, or 单下) or the cards form no combination, penalty cards at once
    (GD-6). Cards already lying exposed are not exposed again."""
    new = deal.newly_exposed(seat, cards)
    if not new:
        return []
    kind: str | None
    if reading is not None and len(new) == len(cards):
        kind = _kind_of(reading)
    else:
        found = readings(new, deal.level, deal.rules)
        kind = kind_key(found[0]) if found else None
    effects: list[TableEffect] = [Expose(new, seat)]
    if kind is not None and deal.partner_may_lead(seat):
        effects.append(LeadOption(prev_seat(seat), partner(seat), kind))
    else:
        effects.append(PenaltyCards(new, seat))
    return effects


def _correct_play(deal: Deal, seat: int, cards: Sequence[Card]) -> CorrectPlay:
    """GD-2.4: the seat corrects its attempt (``cards``); what becomes of the cards the
    correction leaves unused."""
    return CorrectPlay(seat, unused="lead_option" if deal.partner_may_lead(seat) else "penalty", cards=cards)


def _can_force(deal: Deal) -> bool:
    return deal.phase is not Phase.SCORED


def _kind_of(reading_code: str | None) -> str:
    return kind_key(Reading.from_code(reading_code)) if reading_code else "?"


# ---------------------------------------------------------------------------------------------
# GD-1 drawing


def draw_out_of_turn(deal: Deal, event: Any, answers: int) -> Decision:
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
    else:
        # The card goes back whether or not its face was seen (the facts say what was seen).
        grabbed = None if deal.table is None else deal.table.grab    # the referee rules on refereed deals
        returned = [grabbed.card] if grabbed is not None and grabbed.seat == seat else _cards([card] if card else ())
        effects = [Return(returned, seat), RestoreOrder(rightful)]
    return decision(event, answers, clause, effects)


def wrong_counts(deal: Deal, event: Any, answers: int) -> Decision:
    """GD-1.2: a short deck is redealt with a fresh deck (PD); one side wrong: 双下 for it
    (GD-1.2.1, a player of that side drawn by lot shuffles next); one side too many and the
    other too few: warnings, later −1 each, redeal (GD-1.2.2)."""
    counts = event.fact("counts")
    if not event.fact("deck_complete"):
        return decision(event, answers, "GD-1.2", [Redeal(fresh_deck=True)], offender=None, side=None,
                         sanctions=())
    wrong_sides = sorted({s % 2 for s in range(4) if counts[s] != 27})
    if len(wrong_sides) == 1:
        side = wrong_sides[0]
        if not _can_force(deal):
            return uncovered(event, answers, "the deal is already over")
        return decision(event, answers, "GD-1.2.1", _double_last_effects(_lot_shuffler(deal, side)),
                         offender=None, side=side)
    return decision(event, answers, "GD-1.2.2", [Redeal(fresh_deck=False)], offender=None, side=None)


# ---------------------------------------------------------------------------------------------
# GD-2 play


def announce_out_of_turn(deal: Deal, event: Any, answers: int) -> Decision:
    """GD-2.2.1 ('pass') / GD-2.2.2 ('beat'): barred from the next play in this round (在该圈:
    scope 'round', the bar lapses with the round)."""
    clause = "GD-2.2.1" if event.fact("what") == "pass" else "GD-2.2.2"
    return decision(event, answers, clause, [BarOnePlay(event.seat, scope="round")])


def play_out_of_turn(deal: Deal, event: Any, answers: int) -> Decision:
    """GD-2.3.2 when the offender's 下家 played on it (跟牌: a legal play of cards on the
    out-of-turn cards, the engine's ``answer`` fact): both plays stand, order continues from
    there. Anything else — the referee called, a pass, an irregular attempt — is no 跟牌:
    GD-2.3.1 at once: taken back, exposed with the lead option for the partner (penalty cards
    when the partner can never lead again), barred from its next turn (in this round or a
    later one), order restored; the 下家's pass is void (it was never carried out: the 下家
    acts again when its turn comes), and its irregular attempt, awaited after this one, gets
    its own ruling next."""
    seat = event.seat
    if event.fact("answer") == "played_on_it":
        return decision(event, answers, "GD-2.3.2", [PlayStands(seat, event.fact("reading")),
                                                     PlayStands(event.fact("responder"), event.fact("answer_reading"))])
    cards = _cards(event.fact("cards"))
    effects = ([Return(cards, seat), RestoreOrder(event.fact("rightful")), BarOnePlay(seat, scope="next_turn")]
               + _exposure(deal, seat, cards, event.fact("reading")))
    return decision(event, answers, "GD-2.3.1", effects)


def wrong_cards(deal: Deal, event: Any, answers: int) -> Decision:
    """GD-2.4.1 / GD-2.4.2: taken back and corrected (a legal play or a pass); the cards of
    the attempt not used in the correction are then exposed (GD-2.5, no bar), as the
    CorrectPlay effect says: with the lead option, or as penalty cards."""
    seat = event.seat
    clause = "GD-2.4.2" if event.irregularity == "does_not_beat" else "GD-2.4.1"
    cards = _cards(event.fact("cards"))
    return decision(event, answers, clause, [Return(cards, seat), _correct_play(deal, seat, cards)])


def extra_cards(deal: Deal, event: Any, answers: int) -> Decision:
    """GD-2.4.3: the extra cards are exposed; the rest stands if it is a legal play, else it
    is taken back too and corrected as GD-2.4.1."""
    seat = event.seat
    cards = _cards(event.fact("cards"))
    extra = _cards(event.fact("extra"))
    effects: list[TableEffect] = [Return(extra, seat)] + _exposure(deal, seat, extra)
    if not event.fact("rest_legal"):  # taken back together with the extra cards (one table.returned)
        effects += [Return(cards, seat), _correct_play(deal, seat, cards)]
    else:                             # the rest, left lying, stands as the attempt read it
        effects.append(PlayStands(seat, event.fact("reading")))
    return decision(event, answers, "GD-2.4.3", effects)


def retract_play(deal: Deal, event: Any, answers: int) -> Decision:
    """GD-2.4.4: a legal play is never taken back; refused, the play stands."""
    return decision(event, answers, "GD-2.4.4", [])


def exposed_card(deal: Deal, event: Any, answers: int) -> Decision:
    """GD-2.5: the exposed-card treatment of GD-2.3.1 (face up, the lead option or penalty
    cards) without its bar: 禁出一手 sanctions an out-of-turn play, not an exposure. The
    adjusted score is for damage the rectification cannot repair: not given automatically."""
    effects = _exposure(deal, event.seat, [Card(event.fact("card"))])
    return decision(event, answers, "GD-2.5", effects, sanctions=())


def pass_on_lead(deal: Deal, event: Any, answers: int) -> Decision:
    return uncovered(event, answers, "passing with the lead is in no clause (the seat must lead)")


# ---------------------------------------------------------------------------------------------
# GD-3 tribute and return


def wrong_tribute(deal: Deal, event: Any, answers: int) -> Decision:
    """GD-3.1.1 before the first play: the card comes back exposed, tribute again, warning;
    GD-3.1.2 after it: 双下 for the offending side."""
    seat = event.seat
    if event.fact("discovered") == "after_first_play":
        if not _can_force(deal):
            return uncovered(event, answers, "the deal is already over")
        return decision(event, answers, "GD-3.1.2", _double_last_effects(seat))
    card = Card(event.fact("given"))
    effects = [Return([card], seat)] + _exposure(deal, seat, [card]) + [RedoTribute(seat)]
    return decision(event, answers, "GD-3.1.1", effects)


def wrong_return(deal: Deal, event: Any, answers: int) -> Decision:
    """GD-3.2.1 before the first play: return again, warning; GD-3.2.2 after it: 双下."""
    seat = event.seat
    if event.fact("discovered") == "after_first_play":
        if not _can_force(deal):
            return uncovered(event, answers, "the deal is already over")
        return decision(event, answers, "GD-3.2.2", _double_last_effects(seat))
    card = Card(event.fact("given"))
    return decision(event, answers, "GD-3.2.1", [Return([card], seat), RedoReturn(seat)])


# ---------------------------------------------------------------------------------------------
# GD-4 reporting


def extra_report(deal: Deal, event: Any, answers: int) -> Decision:
    """GD-4.1: reporting when not due, or asking for another's count: a warning."""
    return decision(event, answers, "GD-4.1", [])


def missing_report(deal: Deal, event: Any, answers: int) -> Decision:
    """GD-4.2.1 - GD-4.2.5 by the stage at which the missing or wrong 报牌 came to light.
    Found only after the deal (``at_deal_end``), GD-4.2.1-4.2.3 have no table effect: nothing
    is reported again, taken back or barred, the result stands (PD); GD-4.2.4 and GD-4.2.5
    keep their forced places."""
    seat = event.seat
    stage = event.fact("stage")
    at_end = bool(event.fact("at_deal_end"))
    if stage in (1, 2, 3) and at_end:
        return decision(event, answers, f"GD-4.2.{stage}", [])
    if stage == 1:
        return decision(event, answers, "GD-4.2.1", [ReportAgain(seat)])
    if stage == 2:
        effects: list[TableEffect] = [ReportAgain(seat)]
        # Only this round's plays since may be taken back; each seat decides for its own
        # play, asked in play order from the first (the table asks the next ones). What
        # the partner takes back is unauthorised information to the offender: the table
        # marks it when it happens, not an effect here.
        this_round = tuple(event.fact("played_this_round") or ())
        if this_round:
            effects.append(Replay(this_round, chooser=this_round[0],
                                  purpose="partner_replay" if this_round[0] == partner(seat) else "replay"))
        return decision(event, answers, "GD-4.2.2", effects)
    if stage == 3:
        cards = _cards(event.fact("cards"))
        effects = ([Return(cards, seat)] + _exposure(deal, seat, cards, event.fact("reading"))
                   + [BarOnePlay(seat, scope="next_turn"), ReportAgain(seat)])
        seats = deal.pass_sequence_seats(seat, "offender_leads")
        if seats:
            effects.append(PassSequence(seat, seats, "offender_leads"))
        return decision(event, answers, "GD-4.2.3", effects)
    if not _can_force(deal):
        return uncovered(event, answers, "the deal is already over")
    if stage == 4:
        cards = _cards(event.fact("cards"))
        effects = ([Return(cards, seat)] if cards else []) + _single_last_effects(seat)
        seats = [] if at_end else deal.pass_sequence_seats(seat, "play_on")
        if seats:
            effects.append(PassSequence(seat, seats, "play_on"))
        return decision(event, answers, "GD-4.2.4", effects)
    # stage 5: gone out unreported
    if event.fact("partner_out"):
        return decision(event, answers, "GD-4.2.5", _single_last_effects(seat))
    return decision(event, answers, "GD-4.2.5", _double_last_effects(seat), sanctions=(ForcedDoubleLast(),),
                     extra_facts=(("partner_still_playing", True),))


# ---------------------------------------------------------------------------------------------
# Reported incidents (GD-2.1, GD-7)


def incident(deal: Deal, event: Any, answers: int) -> Decision:
    """GD-2.1 manner of play (warning, −1, −2); GD-7 information: its side may not use it;
    damage to the other side is for the adjusted score (unresolved → fallback)."""
    seat = event.seat
    what = event.fact("incident")
    if what == "manner_of_play":
        return decision(event, answers, "GD-2.1", [])
    if what == "information":
        if event.fact("damaged"):
            return uncovered(event, answers, "information used to the other side's damage: "
                                               "adjusted score at the referee's discretion")
        note = event.fact("note") or "reported information"
        return decision(event, answers, "GD-7", [UnauthorisedInformation(
            [partner(seat)], source=seat, what=f"incident: {note} (GD-7)")])
    return uncovered(event, answers, f"a reported incident of kind {what!r} is in no clause")


_FAMILIES: dict[str, Callable[[Any, Any, int], Decision]] = {
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
