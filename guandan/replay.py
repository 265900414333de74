"""Rebuild the action behind an ACTION event, so a log can be re-applied (refereed logs
too: an irregular attempt carries the attempted action as plain data, and a ruling is the
referee's seat's action)."""

from __future__ import annotations

from guandan import events as ev
from guandan.actions import (
    Action, CallReferee, Choose, Draw, GiveTribute, Pass, Play, Report, ReturnCard, action_from_data,
)
from guandan.combos import Reading
from tabletop.cards import Card
from tabletop.errors import LogError
from tabletop.events import Event
from tabletop.rulings import Ruling, RulingEvent, Unresolved, UnresolvedEvent, ruling_from_event


def action_from_event(event: Event) -> Action | Ruling | Unresolved:
    """The action that produced ``event`` (an event with ``ACTION = True``)."""
    kind = type(event)
    if kind is ev.CardsPlayed:
        return Play(event.seat, [Card(c) for c in event.cards], Reading.from_code(event.reading))
    if kind is ev.Passed:
        return Pass(event.seat)
    if kind is ev.TributeGiven:
        return GiveTribute(event.seat, Card(event.card))
    if kind is ev.ReturnGiven:
        return ReturnCard(event.seat, Card(event.card))
    if kind is ev.DrawRan:
        return Draw(event.seat)
    if kind is ev.CountReported:
        return Report(event.seat, event.count)
    if kind is ev.ChoiceMade:
        return Choose(event.seat, event.option)
    if kind is ev.RefereeCalled:
        return CallReferee(event.seat)
    if kind is ev.IrregularAttempt:
        return action_from_data(event.action)
    if kind is RulingEvent or kind is UnresolvedEvent:
        return ruling_from_event(event)
    raise LogError(f"event {event.KIND!r} (seq {event.seq}) is not a 掼蛋 action")
