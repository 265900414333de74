"""The wait for the referee in a refereed 双升 deal: irregularities awaited and found, the
ruling's end of the wait and what the table then does (``TableState.then``, a ``Resume`` record
naming a step of the feature that paused it), the choice offered to a seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from shengji.actions import Choices, Choose, Draw, Incident, action_to_data
from shengji.events import ChoiceMade, IrregularAttempt, IrregularityFound, TurnRestored
from shengji.phase import Phase
from shengji.refereed import state
from shengji.refereed.state import table_of
from tabletop.errors import IllegalAction
from tabletop.irregular import Discovered, Irregular
from tabletop.irregular import facts as make_facts
from tabletop.refereed import Resume, ResumeSteps
from tabletop.refereed import offer_choice as offer_shared_choice
from tabletop.rulings import Awaited, RulingPlan, refuse
from tabletop.seats import team

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from shengji.deal import Deal


RESUME_STEPS: ResumeSteps[Deal] = ResumeSteps()
"""The steps a wait resumes with (``TableState.then``), each registered by its feature."""


def await_ruling(deal: Deal, seq: int, irregularity: str, seat: int | None, event: Irregular | Discovered, *,
                 then: Resume | None = None) -> None:
    """The table waits for a ruling on attempt ``seq``, which ``event`` calls for: the
    referee's seat is to act (``deal.to_act``, computed from the phase); the seat whose turn
    it is stays ``deal.turn``."""
    assert irregularity in state.IRREGULARITIES, f"undeclared irregularity id {irregularity!r}"
    t = table_of(deal)
    t.wait(Awaited(seq, irregularity, seat, event))
    if deal.phase is not Phase.AWAITING_RULING:
        t.resume_phase = deal.phase
        deal.phase = Phase.AWAITING_RULING
    if then is not None:
        t.then = then


def found(deal: Deal, answers: int, irregularity: str, seat: int | None, *,
          then: Resume | None = None,
          **info: Any) -> None:
    e = deal.stream.emit(IrregularityFound, seat=seat, irregularity=irregularity, answers=answers,
                         facts=make_facts(**info))
    await_ruling(deal, answers, irregularity, seat, e, then=then)


def resolve(deal: Deal, seq: int | None = None) -> list:
    """End the wait for the ruling on attempt ``seq`` (the first one when None); play goes
    on once no ruling is awaited and no choice is open. Returns nothing: the events wait
    in the stream (``take_events``)."""
    t = deal.table
    if t is None:
        raise ValueError("resolve: the deal is not refereed")
    if not t.stop_waiting(seq) or deal.phase is not Phase.AWAITING_RULING:
        return []
    deal.phase = t.resume_phase
    if t.choice is not None:
        return []
    carry_on(deal)
    return []


def carry_on(deal: Deal) -> None:
    """The wait and any choice are over: the table goes on."""
    t = table_of(deal)
    then, t.then = t.then, None
    RESUME_STEPS.resume(deal, then)


def unpaused(deal: Deal, step: Any) -> None:
    """Run ``step`` (a play a ruling lets stand) as if the table were not waiting; what
    it leads to becomes what the table resumes with."""
    t = table_of(deal)
    held = t.awaiting
    t.awaiting = []
    deal.phase = t.resume_phase
    step()
    if t.awaiting:                               # the step itself came to a wait
        t.awaiting = held + t.awaiting
        return
    t.awaiting = held
    t.resume_phase = deal.phase
    if held:
        deal.phase = Phase.AWAITING_RULING


def offer_choice(deal: Deal, seat: int, purpose: str, options: Sequence[str], about: int | None = None,
                 **data: Any) -> None:
    """``seat`` must choose one of ``options`` before the table goes on; ``data`` is what
    the engine needs to carry the choice out: ``on_chosen(deal, choice, option)``, of the
    feature that offers it, and what that needs (source, to, count, reason)."""
    offer_shared_choice(deal, seat, purpose, options, about, **data)


def choose(deal: Deal, a: Choose) -> None:
    t = table_of(deal)
    c = t.choice
    if c is None or a.seat != c.seat or a.seat != deal.to_act:
        raise IllegalAction(f"seat {a.seat} has no choice to make now")
    if a.option not in c.options:
        raise IllegalAction(f"not one of the options {c.options}: {a.option!r}")
    t.choice = None
    deal.stream.emit(ChoiceMade, seat=a.seat, purpose=c.purpose, option=a.option)
    c.data["on_chosen"](deal, c, a.option)


def legal(deal: Deal) -> Choices:
    """The legal actions of a choice or a draw step (the deal lists the others)."""
    seat = deal.to_act
    if seat is None:
        return Choices(())
    assert isinstance(seat, int), "the deal answers for the referee's seat itself"
    t = table_of(deal)
    if t.choice is not None:
        return Choices([Choose(seat, o) for o in t.choice.options])
    return Choices(_DRAWS[seat])


_DRAWS = tuple((Draw(seat),) for seat in range(4))
"""A draw step's one legal action per seat (frozen: one made for all deals)."""


def restore_turn(deal: Deal, seat: int, reason: str) -> None:
    """Order restored: ``seat`` acts next (once the wait is over)."""
    deal.turn = seat
    deal.stream.emit(TurnRestored, seat=seat, reason=reason)


def referee_rng(deal: Deal) -> Any:
    """The REFEREE stream of this deal (tabletop.rng), for lots and random draws."""
    return table_of(deal).referee_rng(deal.seed, deal.stream.deal)


def on_restore_order(deal: Deal, effect: Any, plan: RulingPlan) -> None:
    """``seat`` acts once the wait is over (RestoreOrder; CorrectFollow: it follows again)."""
    if deal.phase is not Phase.AWAITING_RULING:
        raise refuse(effect, "the table is not waiting for a ruling")
    restore_turn(deal, effect.seat, plan.reason)


def trump_now(deal: Deal) -> str | None:
    """Trump as the table knows it now (during the draw: the standing declaration's)."""
    if deal.trump_known:
        return deal.trump
    return None if deal.declaration is None else deal.declaration.trump


def incident(deal: Deal, a: Incident) -> None:
    """A reported incident; its minutes are a fact only of a side's lateness."""
    late = {"minutes": a.minutes} if a.incident == "late" else {}
    e = deal.stream.emit(IrregularAttempt, seat=a.seat, irregularity="incident", action=action_to_data(a),
                         facts=make_facts(incident=a.incident, severity=a.severity, damaged=a.damaged,
                                          note=a.note, side=team(a.seat), **late))
    await_ruling(deal, e.seq, "incident", a.seat, e)
