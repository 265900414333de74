"""Rebuild the action behind an ACTION event, so a log can be re-applied."""

from __future__ import annotations

from guandan import events as ev
from guandan.actions import Action, GiveTribute, Pass, Play, ReturnCard
from guandan.combos import Reading
from tabletop.cards import Card
from tabletop.errors import LogError
from tabletop.events import Event


def action_from_event(event: Event) -> Action:
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
    raise LogError(f"event {event.KIND!r} (seq {event.seq}) is not a 掼蛋 action")
