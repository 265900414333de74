"""Rebuilding a 双升 game's actions from its log, and re-applying them.

Every ACTION event names its seat and carries the cards the seat showed, so the action
comes back exactly; set-up events (shuffle, cut, draw) are re-created by the engine from
the seed and need no action. Refereed logs too: an irregular attempt carries the attempted
action as plain data, the table steps (``sj.draw_ran``, ``table.chose``) are actions, and so is a
ruling (the referee's seat's): re-applied as logged, or ruled again by a fresh referee.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from shengji.actions import Action, Bury, Choose, Declare, Draw, NoDeclare, Play, action_from_data
from shengji.events import (
    Buried, CardsPlayed, ChoiceMade, DeclarationDeclined, Declared, DrawRan, IrregularAttempt,
)
from tabletop.errors import LogError
from tabletop.events import Event
from tabletop.rulings import Ruling, RulingEvent, Unresolved, UnresolvedEvent, ruling_from_event
from tabletop.runner import settle


def action_from_event(event: Event) -> Action | Ruling | Unresolved | None:
    """The action an ACTION event records; None for any other event."""
    if isinstance(event, CardsPlayed):
        return Play(_seat(event), event.cards)
    if isinstance(event, Declared):
        return Declare(_seat(event), event.cards)
    if isinstance(event, DeclarationDeclined):
        return NoDeclare(_seat(event))
    if isinstance(event, Buried):
        return Bury(_seat(event), event.cards)
    if isinstance(event, DrawRan):
        return Draw(_seat(event))
    if isinstance(event, ChoiceMade):
        return Choose(_seat(event), event.option)
    if isinstance(event, IrregularAttempt):
        return action_from_data(event.action)
    if isinstance(event, (RulingEvent, UnresolvedEvent)):
        return ruling_from_event(event)
    return None


def _seat(event: Event) -> int:
    if event.seat is None:
        raise LogError(f"event {event.KIND!r} (seq {event.seq}) names no seat")
    return event.seat


def replay(engine: Any, events: Iterable[Event], referee: Any = None) -> list[Event]:
    """Re-apply the actions of ``events`` to a fresh ``engine`` (built from the same seed
    and rules) and check that it emits the same events; raise LogError at the first
    difference. The logged rulings are re-applied as they are, or — ``referee`` given —
    that referee rules again whenever the referee's seat is to act. Returns the events
    produced."""
    expected = list(events)
    produced: list[Event] = list(engine.take_events())
    for event in expected:
        if not event.ACTION or (referee is not None and type(event) in (RulingEvent, UnresolvedEvent)):
            continue
        action = action_from_event(event)
        if action is None:
            continue
        if engine.to_act is None:
            raise LogError(f"event {event.seq}: the game is over but the log goes on with {event.KIND}")
        batch = engine.apply(action)
        batch.extend(engine.take_events())
        produced.extend(batch)
        if referee is not None:
            produced.extend(settle(engine, referee))
    for mine, theirs in zip(produced, expected):
        if mine != theirs:
            raise LogError(f"event {theirs.seq}: replay gives {mine.to_dict()}, the log has {theirs.to_dict()}")
    if len(produced) != len(expected):
        raise LogError(f"replay gives {len(produced)} events, the log has {len(expected)}")
    return produced
