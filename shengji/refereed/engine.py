"""The refereed 双升 engine protocol: an action to its feature's handler, and a ruling carried
out in the one order of ``tabletop.rulings.RulingPlan.carry_out`` (sanctions first, then each
listed effect in the order listed, through ``EFFECT_HANDLERS``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from shengji.actions import (
    Bury, Choose, Declare, DeclareAtOnce, Draw, DrawKitty, DrawOutOfTurn, DropCard, Incident, NoDeclare,
    Play, PlayWithExtra, Revoke,
)
from shengji.phase import Phase
from shengji.refereed import declaration, draw, kitty, on_table, play, points, remedies, revoke
from shengji.refereed.state import table_of
from tabletop.errors import IllegalAction, RulingRefused
from tabletop.refereed import choose, on_restore_order, resolve
from tabletop.rulings import Ruling, RulingPlan, Unresolved, admit_ruling, refuse_what_cannot_be_carried_out

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from shengji.deal import Deal

_PLAY = Phase.PLAY


def apply(deal: Deal, action: Any) -> list:
    kind = type(action)
    if kind is Play and deal.phase is _PLAY:
        t = table_of(deal)
        if (action.seat == deal.turn and t.choice is None and t.bad_burial is None
                and deal.play_illegality(action) is None):
            # the common case: ``play.play_now`` of a legal play in turn, inline
            seat = action.seat
            played = deal.play_cards(action)
            if t.exposed[seat]:
                on_table.unexpose(deal, seat, played)
            if t.revoke is not None:
                revoke.after_play(deal)
            return deal.stream.take()
    elif kind is Ruling or kind is Unresolved:
        apply_ruling(deal, action)
        return deal.stream.take()
    if deal.phase is Phase.AWAITING_RULING:
        raise IllegalAction("the table waits for the referee's ruling")
    if deal.phase is Phase.SCORED:
        raise IllegalAction("the deal is over")
    handler = ACTION_HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(f"not a 双升 action: {action!r}")
    handler(deal, action)
    return deal.stream.take()


def apply_ruling(deal: Deal, ruling: Ruling | Unresolved, match: Any = None) -> None:
    """The referee's seat acts: refuse what cannot be carried out before anything
    changes, log the ruling (``ref.ruling`` / ``ref.unresolved``), then carry out exactly
    its effects and sanctions (``carry_out``; ``match``: the match around the deal, for
    the sanctions that are the match's)."""
    t = deal.table
    sanctions, reason = admit_ruling("双升", t, () if t is None else t.awaiting, ruling, EFFECT_HANDLERS,
                                     SANCTION_HANDLERS, deal.stream)
    if match is not None:
        match.carry_out(ruling.effects, sanctions, reason=reason, answers=ruling.answers)
    else:
        carry_out(deal, ruling.effects, sanctions, reason=reason, answers=ruling.answers)


def carry_out(deal: Deal, effects: Sequence[Any], sanctions: Sequence[Any] = (), *, reason: str,
              answers: int | None = None) -> None:
    """Carry out a ruling on this deal: its imposed sanctions' table consequences (a
    ``PointPenalty`` moves points, as the ruling's first consequence in the log), then
    each listed table effect in order, each through ``EFFECT_HANDLERS`` by its kind,
    then — ``answers`` given — the wait for the ruling on attempt ``answers`` ends and
    play resumes. ``effects`` are ``tabletop.effects.TableEffect`` records,
    ``sanctions`` the ledger's imposed rows (``.sanction``, ``.seat``, ``.side``,
    ``.clause``); both read by kind and fields only. ``reason`` (the clause) is what the
    primitive events give as their reason. An effect or sanction the table cannot carry out raises
    ``RulingRefused`` with the reason: unknown kinds, and a ruling on nothing awaited,
    before anything changes; otherwise a handler refuses before it changes anything,
    the effects listed before it having been carried out."""
    t = deal.table
    if t is None:
        raise RulingRefused("the deal is not refereed: no ruling to carry out")
    refuse_what_cannot_be_carried_out("双升", effects, sanctions, EFFECT_HANDLERS, SANCTION_HANDLERS,
                                      (w.answers for w in t.awaiting), answers)
    RulingPlan(reason, effects, answers).carry_out(deal, sanctions, EFFECT_HANDLERS, SANCTION_HANDLERS)
    if answers is not None:
        resolve(deal, answers)


EFFECT_HANDLERS: dict[str, Any] = {
    "Return": on_table.on_return,
    "Expose": on_table.on_expose,
    "RestoreOrder": on_restore_order,
    "CorrectFollow": on_restore_order,
    "Replay": revoke.on_replay,
    "RedoBury": kitty.on_redo_bury,
    "LoseDeclarationRight": declaration.on_lose_declaration_right,
    "PlayStands": play.on_play_stands,
    "LotsDraw": declaration.on_lots_draw,
    "DeclarationStands": declaration.on_declaration_stands,
    "Choice": remedies.on_choice,
    "RandomDraw": remedies.on_random_draw,
    "Redeal": remedies.on_redeal,
}
"""Effect kind → handler(deal, effect, plan): the one place a 双升 ruling's table effects
are carried out (``carry_out``)."""


SANCTION_HANDLERS: dict[str, Any] = {
    "PointPenalty": points.on_point_penalty,
    # recorded in the ledger only: nothing changes at the table
    "Warning": None, "RecordedViolation": None, "Suspension": None, "AdjustedScore": None,
    # the match's (shengji.match.Match.carry_out); a lone deal has no match to lose
    "MatchLoss": None,
}
"""Sanction kind → handler(deal, imposed row, plan), None: recorded only."""


ACTION_HANDLERS: dict[type, Callable[[Any, Any], None]] = {
    Draw: draw.draw,
    DrawOutOfTurn: draw.draw_out_of_turn,
    DrawKitty: draw.draw_kitty,
    DeclareAtOnce: declaration.declare_at_once,
    Declare: declaration.declare,
    NoDeclare: declaration.declare,
    Bury: kitty.bury,
    Play: play.play,
    PlayWithExtra: play.play_extra,
    Revoke: play.play_revoke,
    DropCard: on_table.drop,
    Incident: play.incident,
    Choose: choose,
}
