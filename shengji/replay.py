"""Rebuilding a 双升 game's actions from its log, and re-applying them.

Every ACTION event names its seat and carries the cards the seat showed, so the action
comes back exactly; set-up events (shuffle, cut, draw) are re-created by the engine from
the seed and need no action.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from shengji.actions import Action, Bury, Declare, NoDeclare, Play
from shengji.events import Buried, CardsPlayed, DeclarationDeclined, Declared
from tabletop.errors import LogError
from tabletop.events import Event


def action_from_event(event: Event) -> Action | None:
    """The action an ACTION event records; None for any other event."""
    if isinstance(event, CardsPlayed):
        return Play(event.seat, event.cards)
    if isinstance(event, Declared):
        return Declare(event.seat, event.cards)
    if isinstance(event, DeclarationDeclined):
        return NoDeclare(event.seat)
    if isinstance(event, Buried):
        return Bury(event.seat, event.cards)
    return None


def replay(engine: Any, events: Iterable[Event]) -> list[Event]:
    """Re-apply the actions of ``events`` to a fresh ``engine`` (built from the same seed
    and rules) and check that it emits the same events; raise LogError at the first
    difference. Returns the events the engine emitted."""
    expected = list(events)
    produced: list[Event] = list(engine.take_events())
    for event in expected:
        action = action_from_event(event)
        if action is None:
            continue
        if engine.to_act is None:
            raise LogError(f"event {event.seq}: the game is over but the log goes on with {event.KIND}")
        produced.extend(engine.apply(action))
        produced.extend(engine.take_events())
    for mine, theirs in zip(produced, expected):
        if mine != theirs:
            raise LogError(f"event {theirs.seq}: replay gives {mine.to_dict()}, the log has {theirs.to_dict()}")
    if len(produced) != len(expected):
        raise LogError(f"replay gives {len(produced)} events, the log has {len(expected)}")
    return produced
