"""The wait for the referee and the turn hooks of a refereed 掼蛋 deal: irregularities
awaited and found, the ruling's end of the wait, the choice offered to a seat, whose turn it
is to play, and what bars, lead options, penalty cards and a latent 报牌 do on a turn (``settle``)."""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from guandan import events as ev
from guandan.actions import Choose, action_to_data
from guandan.observation import Phase
from guandan.refereed import state
from guandan.refereed.state import table_of
from tabletop.cards import codes
from tabletop.errors import IllegalAction
from tabletop.irregular import Discovered, Irregular
from tabletop.irregular import facts as make_facts
from tabletop.refereed import Choice, Resume, ResumeSteps
from tabletop.refereed import offer_choice as offer_shared_choice
from tabletop.rulings import Awaited, refuse

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


def await_ruling(deal: Deal, seq: int, irregularity: str, seat: int | None, event: Irregular | Discovered) -> None:
    """The table waits for a ruling on attempt ``seq``, which ``event`` calls for: the
    referee's seat is to act."""
    assert irregularity in state.IRREGULARITIES, f"undeclared irregularity id {irregularity!r}"
    t = table_of(deal)
    t.wait(Awaited(seq, irregularity, seat, event))
    if deal.phase is not Phase.AWAITING_RULING and deal.phase is not Phase.SCORED:
        t.resume_phase = deal.phase
        deal.phase = Phase.AWAITING_RULING
    deal.legal_cache = None


def found(deal: Deal, answers: int, irregularity: str, seat: int | None, *, await_: bool = True,
          **info: Any) -> None:
    e = deal.stream.emit(ev.IrregularityFound, seat=seat, irregularity=irregularity, answers=answers,
                         facts=make_facts(**info))
    if await_:
        await_ruling(deal, answers, irregularity, seat, e)


def resolve(deal: Deal, seq: int | None = None) -> None:
    """End the wait for the ruling on attempt ``seq`` (the first one when None); play
    goes on once no ruling is awaited (its events go to the stream)."""
    t = deal.table
    if t is None:
        raise ValueError("resolve: the deal is not refereed")
    if t.stop_waiting(seq) and deal.phase is Phase.AWAITING_RULING:
        deal.phase = t.resume_phase
        deal.legal_cache = None
        go_on(deal)
    return None


RESUME_STEPS: ResumeSteps[Deal] = ResumeSteps()
"""The steps the table resumes with once a wait is over (which one, ``go_on`` computes from
the state), registered by ``engine``, which imports the features: the draw's end, a wrong
tribute or return coming to light."""
FINISH_DRAW = Resume("finish_draw")
DISCOVER_TRIBUTE = Resume("discover_tribute")


class Hooks:
    """What the turn and the deal's end call in the features, filled in by ``engine``, so
    that this module imports none of them: cards on the table going back, a 报牌
    irregularity found after the deal, and each feature's ``on_turn`` in the order they
    are asked (报牌, bars, lead option, penalty cards)."""

    return_cards: Callable[..., Any]
    report_found_after_end: Callable[[Any, Any], None]
    on_turn: tuple[Callable[[Any, int, bool], Any], ...] = ()


HOOKS = Hooks()


def go_on(deal: Deal) -> None:
    t = table_of(deal)
    if deal.phase is Phase.DRAW and not deal.stock and t.grab is None:
        RESUME_STEPS.resume(deal, FINISH_DRAW)
        return
    if deal.phase is not Phase.PLAY:
        return
    if t.latent and deal.plays >= 1:
        RESUME_STEPS.resume(deal, DISCOVER_TRIBUTE)
        return
    settle(deal)


def offer_choice(deal: Deal, seat: int, purpose: str, options: Sequence[str], about: Any = None, *,
                 on_chosen: Callable[[Any, Choice, str], None]) -> None:
    """``seat`` must choose one of ``options`` before the table goes on (Choose actions);
    ``on_chosen(deal, choice, option)``, of the feature that offers it, carries the choice out."""
    offer_shared_choice(deal, seat, purpose, options, about, on_chosen=on_chosen)
    deal.legal_cache = None


def choose(deal: Deal, a: Choose, handed: bool) -> None:
    t = table_of(deal)
    c = t.choice
    if c is None or a.seat != c.seat or a.option not in c.options:
        raise IllegalAction(f"seat {a.seat} has no choice {a.option!r} to make")
    t.choice = None
    deal.stream.emit(ev.ChoiceMade, seat=a.seat, purpose=c.purpose, option=a.option)
    c.data["on_chosen"](deal, c, a.option)


def restore_turn(deal: Deal, seat: int, reason: str) -> None:
    """Order restored: ``seat`` is to act (to draw next, in the draw)."""
    deal.turn = seat
    deal.stream.emit(ev.TurnRestored, seat=seat, reason=reason)
    deal.legal_cache = None


def play_turn(deal: Deal) -> int | None:
    """Whose turn to play it is (None while something else must be answered first)."""
    t = table_of(deal)
    if deal.phase is not Phase.PLAY:
        return None
    if t.oot is not None:
        return t.oot.responder
    if t.choice is not None or t.report_due is not None:
        return None
    return deal.turn


class Turn(enum.Enum):
    """What a feature's ``on_turn`` hook says about the seat whose turn it is."""

    NEXT = "next"
    """Nothing for this feature: ask the next one."""
    AGAIN = "again"
    """The turn moved on (a barred seat passed): look at the new one."""
    WAIT = "wait"
    """The table waits (a choice offered, a 报牌 irregularity found)."""


NEXT, AGAIN, WAIT = Turn.NEXT, Turn.AGAIN, Turn.WAIT


def settle(deal: Deal) -> None:
    """The hook of a turn: the deal ends if it is over, then each feature, in order, looks at
    the seat whose turn it is (a 报牌 comes to light, a bar is served, a lead option asked,
    penalty cards' kind designated) until one moves the turn on (look again) or waits."""
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
        for on_turn in HOOKS.on_turn:
            verdict = on_turn(deal, seat, leading)
            if verdict is not NEXT:
                break
        if verdict is not AGAIN:
            return


def attempt(deal: Deal, action: Any, irregularity: str, **info: Any) -> None:
    e = deal.stream.emit(ev.IrregularAttempt, seat=action.seat, irregularity=irregularity,
                         action=action_to_data(action), facts=make_facts(**info))
    await_ruling(deal, e.seq, irregularity, action.seat, e)


def flush_latent(deal: Deal) -> None:
    """The deal ended with irregularities nobody noticed in time: they come to light now
    (``after_end``), so that each one still gets its ruling."""
    t = table_of(deal)
    lr, t.latent_report = t.latent_report, None
    if lr is not None and not lr.found:
        HOOKS.report_found_after_end(deal, lr)
    latent, t.latent = t.latent, []
    for li in latent:
        found(deal, li.seq, li.irregularity, li.seat, **{**li.facts, "after_end": True})
    o, t.oot = t.oot, None
    if o is not None:
        HOOKS.return_cards(deal, o.seat, "the deal ended")
        found(deal, o.seq, "play_out_of_turn", o.seat, after_end=True, cards=codes(o.cards))


def awaiting(deal: Deal, effect: Any) -> None:
    if deal.phase is not Phase.AWAITING_RULING:
        raise refuse(effect, "the table is not waiting for a ruling")


def on_restore_order(deal: Deal, effect: Any, plan: Any) -> None:
    """``seat`` acts once the wait is over."""
    awaiting(deal, effect)
    restore_turn(deal, effect.seat, plan.reason)


def referee_rng(deal: Deal) -> Any:
    """The REFEREE stream of this deal (tabletop.rng), for lots and random draws."""
    return table_of(deal).referee_rng(deal.seed, deal.deal_number)
