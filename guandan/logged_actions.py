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
    if isinstance(event, ev.IrregularAttempt):
        return action_from_data(event.action)
    if isinstance(event, (RulingEvent, UnresolvedEvent)):
        return ruling_from_event(event)
    if isinstance(event, ev.CardsPlayed):
        return Play(_seat(event), [Card(c) for c in event.cards], Reading.from_code(event.reading))
    if isinstance(event, ev.Passed):
        return Pass(_seat(event))
    if isinstance(event, ev.TributeGiven):
        return GiveTribute(_seat(event), Card(event.card))
    if isinstance(event, ev.ReturnGiven):
        return ReturnCard(_seat(event), Card(event.card))
    if isinstance(event, ev.DrawRan):
        return Draw(_seat(event))
    if isinstance(event, ev.CountReported):
        return Report(_seat(event), event.count)
    if isinstance(event, ev.ChoiceMade):
        return Choose(_seat(event), event.option)
    if isinstance(event, ev.RefereeCalled):
        return CallReferee(_seat(event))
    raise LogError(f"event {event.KIND!r} (seq {event.seq}) is not a 掼蛋 action")


def _seat(event: Event) -> int:
    if event.seat is None:
        raise LogError(f"event {event.KIND!r} (seq {event.seq}) names no seat")
    return event.seat
