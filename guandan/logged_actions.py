"""Rebuild the action behind an ACTION event, so a log can be re-applied (refereed logs
too: an irregular attempt carries the attempted action as plain data, and a ruling is the
referee's seat's action)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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


def deal_from_given_hands(events: Sequence[Event], rules: Any, mode: str = "strict", report_step: bool = True) -> Any:
    """The deal a log's first events say was made from given hands (``Deal.from_hands``: a
    test's or a puzzle's) — ``gd.deal_started`` from 'hands', ``gd.hands_set``, the seats
    already out, then play started by its leader — made again, or None when they say
    otherwise (a drawn deal, or given hands that start with a tribute)."""
    from guandan.deal import Deal
    from tabletop.events import EventStream

    head = [e for e in events[:12] if e.KIND != "unit"]
    if len(head) < 3 or not isinstance(head[0], ev.DealStarted) or head[0].source != "hands" \
            or not isinstance(head[1], ev.HandsSet):
        return None
    finished = []
    for event in head[2:]:
        if isinstance(event, ev.PlayerFinished):
            finished.append(_seat(event))
        elif isinstance(event, ev.PlayStarted):
            stream = EventStream(deal=head[0].deal, next_seq=head[0].seq)
            return Deal.from_hands([list(h) for h in head[1].hands], head[0].level, _seat(event), rules,
                                   finished=finished, stream=stream, deal_number=head[0].deal, mode=mode,
                                   report_step=report_step)
        else:
            return None
    return None
