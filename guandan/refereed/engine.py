"""The refereed 掼蛋 engine protocol: an action to its feature's handler, a ruling carried
out in the one order of ``tabletop.rulings.RulingPlan.carry_out``, and the turn settled after
each (``settle``: what bars, lead options, penalty cards and a latent 报牌 do on a turn; ``go_on``
once a wait is over; ``flush_latent`` when the deal ends). This module sits above every feature
and calls them directly.

A ruling is data the table carries out (``carry_out(effects, sanctions, reason=, answers=)``,
and ``guandan.match.Match.carry_out`` with the match around it): the imposed sanctions
through ``SANCTION_HANDLERS``, then each listed table effect, in the order the ruling lists
them, through its handler in ``EFFECT_HANDLERS``, then ``resolve``. A handler does
exactly what its effect says, through its feature module's primitives, or raises ``RulingRefused``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from guandan import events as ev
from guandan.actions import (
    Announce, AskCount, CallReferee, Choose, Draw, DrawOutOfTurn, DropCard, GiveTribute, Incident, Pass,
    Play, PlayWithExtra, Report, Retract, ReturnCard,
)
from guandan.observation import Phase
from guandan.refereed import (
    correction, draw, information, next_deal, on_table, out_of_turn, pass_sequence, placing, play, rebuild,
    reporting, restrictions, state, take_back, tribute,
)
from guandan.refereed.state import AGAIN, NEXT, table_of
from tabletop.cards import codes
from tabletop.errors import IllegalAction, RulingRefused
from tabletop.refereed import choose, found, on_restore_order, resolve
from tabletop.rulings import Ruling, RulingPlan, Unresolved, admit_ruling, refuse_what_cannot_be_carried_out

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


def apply(deal: Deal, action: Any) -> list:
    legal = deal.legal_cache
    kind = type(action)
    if kind is Ruling or kind is Unresolved:
        apply_ruling(deal, action)
        return deal.stream.take()
    if deal.phase is Phase.SCORED:
        raise IllegalAction("the deal is over")
    if deal.phase is Phase.AWAITING_RULING:
        raise IllegalAction("the table waits for the referee's ruling")
    handler = ACTION_HANDLERS.get(kind)
    if handler is None:
        raise IllegalAction(f"not a 掼蛋 action: {action!r}")
    handed = legal is not None and legal.handed_out(action)
    deal.legal_cache = None
    recorded = table_of(deal).record.actions
    recorded.append(action)    # first: ``TableState.point`` is its place while it is applied
    try:
        handler(deal, action, handed)
    except IllegalAction:      # refused: nothing changed
        recorded.pop()
        raise
    if deal.phase is not Phase.AWAITING_RULING and deal.phase is not Phase.SCORED:
        settle(deal)
    return deal.stream.take()


def apply_ruling(deal: Deal, ruling: Ruling | Unresolved, match: Any = None) -> None:
    """The referee's seat acts: refuse what cannot be carried out before anything
    changes, log the ruling (``ref.ruling`` / ``ref.unresolved``), then carry out exactly
    its effects and sanctions (``carry_out``); ``match``: the match around the deal."""
    t = deal.table
    sanctions, reason = admit_ruling("掼蛋", t, () if t is None else t.awaiting, ruling, EFFECT_HANDLERS,
                                     SANCTION_HANDLERS, deal.stream)
    logged = deal.stream.next_seq - 1    # the ruling's own line, the last event admit_ruling emitted
    recorded = None if t is None else t.record.actions
    if recorded is not None:
        recorded.append(ruling if match is None else rebuild.InMatch(ruling))
    try:
        carry_out(deal, ruling.effects, sanctions, reason=reason, answers=ruling.answers, match=match,
                  ruling=logged)
    except IllegalAction:
        if recorded is not None:
            recorded.pop()
        raise


def carry_out(deal: Deal, effects: Sequence[Any], sanctions: Sequence[Any] = (), *, reason: str,
              answers: int | None = None, match: Any = None, ruling: int | None = None) -> None:
    """Carry out a ruling on this deal (``RulingPlan.carry_out``, the order of every game):
    the imposed sanctions' consequences through ``SANCTION_HANDLERS`` (``LevelDiffPenalty``
    → the match score, ``ForcedLast`` → 单下), then each listed table effect through
    ``EFFECT_HANDLERS`` by its kind, in the order the ruling lists them; then an imposed
    ``ForcedDoubleLast``'s 双下 result (it ends the deal: the effects first put the table
    right and set the next deal up); then — ``answers`` given — the wait for the
    ruling on attempt ``answers`` ends and play resumes. ``effects`` are
    ``tabletop.effects.TableEffect`` records, ``sanctions`` the ledger's imposed rows
    (``.sanction``, ``.seat``, ``.side``, ``.clause``), read by kind and fields only;
    ``match``: the ``guandan.match.Match`` around the deal (None: a lone deal, whose level
    penalties are only recorded). ``reason`` (the clause) is what the primitive events give
    as their reason; ``ruling``: the seq of the ruling's log line (what a lead option it sets
    names when it lapses later). What the table cannot carry out raises ``RulingRefused`` with the
    reason: unknown kinds and a ruling on nothing awaited before anything changes;
    otherwise a handler refuses before it changes anything, the effects listed before it
    having been carried out."""
    t = deal.table
    if t is None:
        raise RulingRefused("the deal is not refereed: no ruling to carry out")
    # (a ruling with no table effect may answer an attempt that stood, GD-2.3.2)
    refuse_what_cannot_be_carried_out("掼蛋", effects, sanctions, EFFECT_HANDLERS, SANCTION_HANDLERS,
                                      (w.answers for w in t.awaiting), answers, effects_need_an_attempt=True)
    plan = _Plan(reason, effects, answers, match, ruling)
    plan.carry_out(deal, sanctions, EFFECT_HANDLERS, SANCTION_HANDLERS)
    if plan.forced_double_last is not None:
        placing.force_double_last(deal, plan.forced_double_last, plan)
    lr = t.latent_report
    if lr is not None and answers is not None and lr.seq == answers and t.choice is None:
        t.latent_report = None           # a 报牌 ruled on, no take-back offered: settled
    if any(not n and s not in deal.finish_order and s not in t.placed_last for s, n in enumerate(deal.sizes)):
        placing.out_by_play(deal, answers)   # a seat with no cards left that no place holds yet
    if answers is not None:
        resolve(deal, answers)


class _Plan(RulingPlan):
    """A ruling being carried out on a 掼蛋 deal, with the match around it (or None). One
    primitive may carry out several listed effects (the Returns of one seat's laid cards are
    one ``table.returned``; an ``Expose`` followed by the ``LeadOption`` or ``PenaltyCards`` of
    its cards is one exposure; a ``RandomDraw`` restores the order to the drawer's 下家)."""

    __slots__ = ("match", "ruling", "forced_double_last")

    def __init__(self, reason: str, effects: Sequence[Any], answers: int | None, match: Any,
                 ruling: int | None = None) -> None:
        super().__init__(reason, effects, answers)
        self.match = match
        self.ruling = ruling
        self.forced_double_last: Any = None
        """The imposed 双下 (its ledger row), scored once the effects are carried out."""


EFFECT_HANDLERS: dict[str, Any] = {
    "Return": on_table.on_return,
    "Expose": restrictions.on_expose,
    "LeadOption": restrictions.on_with_expose,
    "PenaltyCards": restrictions.on_with_expose,
    "BarOnePlay": restrictions.on_bar,
    "RestoreOrder": on_restore_order,
    "RandomDraw": draw.on_random_draw,
    "Redeal": draw.on_redeal,
    "CorrectPlay": correction.on_correct_play,
    "PlayStands": out_of_turn.on_play_stands,
    "ReportAgain": reporting.on_report_again,
    "PassSequence": pass_sequence.on_pass_sequence,
    "Replay": take_back.on_replay,
    "UnauthorisedInformation": information.on_unauthorised,
    "RedoTribute": tribute.on_later,
    "RedoReturn": tribute.on_later,
    "NoTributeNextDeal": next_deal.on_no_tribute_next_deal,
    "NextDealProcedure": next_deal.on_next_deal_procedure,
}
"""Effect kind → handler(deal, effect, plan): the one place a 掼蛋 ruling's table effects
are carried out (``carry_out``)."""


def on_level_penalty(deal: Deal, row: Any, plan: _Plan) -> None:
    """LevelDiffPenalty: off the side's match score (a lone deal: recorded as an event)."""
    if plan.match is not None:
        plan.match.impose_level_penalty(row.side, row.sanction.n, reason=row.clause)
    else:
        deal.stream.emit(ev.LevelPenalty, team=row.side, levels=row.sanction.n, reason=row.clause)


SANCTION_HANDLERS: dict[str, Any] = {
    "LevelDiffPenalty": on_level_penalty,
    "ForcedLast": placing.on_forced_last,
    "ForcedDoubleLast": placing.on_forced_double_last,
    # recorded in the ledger only: nothing changes at the table
    "Warning": None, "RecordedViolation": None, "Suspension": None, "AdjustedScore": None,
}
"""Sanction kind → handler(deal, imposed row, plan), None: recorded only."""


def play_in_or_out_of_turn(deal: Deal, a: Play, handed: bool) -> None:
    """A ``Play`` goes where the deal's classification sends it: out of turn (``out_of_turn``,
    laid on the table for the 下家 to answer), or in turn (``play.play_in_turn``: legal, or
    recorded as an irregular attempt, or refused)."""
    if deal.phase is not Phase.PLAY:
        raise IllegalAction("no play now: the deal is not in play")
    found = None
    if not handed:
        on_table.check_holds(deal, a.seat, a.cards)
        found = deal.illegality(a)
        if found is not None and found.code == "play_out_of_turn":
            out_of_turn.play_out_of_turn(deal, a)
            return
    play.play_in_turn(deal, a, found)


ACTION_HANDLERS: dict[type, Callable[[Any, Any, bool], None]] = {
    Draw: draw.draw,
    DrawOutOfTurn: draw.draw_out_of_turn,
    GiveTribute: tribute.give_tribute,
    ReturnCard: tribute.return_card,
    Play: play_in_or_out_of_turn,
    PlayWithExtra: play.play_extra,
    Pass: play.pass_,
    Report: reporting.report,
    Choose: choose,
    CallReferee: out_of_turn.call_referee,
    Announce: play.announce,
    Retract: play.retract,
    AskCount: play.ask,
    DropCard: play.drop,
    Incident: play.incident,
    rebuild.Step: lambda deal, step, handed: step.redo(deal),
}




def go_on(deal: Deal) -> None:
    """The wait is over: the draw ends (the stock drawn), a wrong tribute or return comes to
    light (after the first play), or the turn is settled."""
    t = table_of(deal)
    if deal.phase is Phase.DRAW and not deal.stock and t.grab is None:
        draw.finish_draw(deal)
        return
    if deal.phase is not Phase.PLAY:
        return
    if t.latent and deal.plays >= 1:
        tribute.discover(deal)
        return
    settle(deal)


def settle(deal: Deal) -> None:
    """The hook of a turn: the deal ends if it is over, then each feature with something
    pending, in order, looks at the seat whose turn it is (a 报牌 comes to light; what stands
    against the seat: a bar served, a lead option asked, penalty cards' kind designated)
    until one moves the turn on (look again) or waits."""
    t = table_of(deal)
    if not (t.bars or t.lead_options or t.exposures or t.latent_report is not None or t.end_pending):
        return  # nothing that acts on whose turn it is
    for _ in range(16):
        if (deal.phase is not Phase.PLAY or t.choice is not None or t.report_due is not None
                or t.oot is not None):
            return
        if t.end_pending:
            t.end_pending = False
            if deal.play_is_over():
                deal.end_by_play()
                return
        seat = deal.turn
        assert seat is not None, "in play, a seat has the turn"
        top = deal.top
        leading = top is None or top.seat == seat
        verdict = NEXT
        if t.latent_report is not None:
            verdict = reporting.on_turn(deal, seat, leading)
        if verdict is NEXT and (t.bars or t.lead_options or t.exposures):
            verdict = restrictions.on_turn(deal, seat, leading)
        if verdict is not AGAIN:
            return


def flush_latent(deal: Deal) -> None:
    """The deal ended with irregularities nobody noticed in time: they come to light now
    (``after_end``), so that each one still gets its ruling."""
    t = table_of(deal)
    lr, t.latent_report = t.latent_report, None
    if lr is not None and not lr.found:
        reporting.found_after_end(deal, lr)
    latent, t.latent = t.latent, []
    for li in latent:
        found(deal, li.seq, li.irregularity, li.seat, **{**li.facts, "after_end": True})
    o, t.oot = t.oot, None
    if o is not None:
        on_table.return_cards(deal, o.seat, "the deal ended")
        found(deal, o.seq, "play_out_of_turn", o.seat, after_end=True, cards=codes(o.cards))


state.STEPS.register(go_on, state.GO_ON.step)
