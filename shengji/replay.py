"""Rebuilding a 双升 game's actions from its log, and re-applying them.

Every ACTION event names its seat and carries the cards the seat showed, so the action
comes back exactly; set-up events (shuffle, cut, draw) are re-created by the engine from
the seed and need no action. Refereed logs too: an irregular attempt carries the attempted
action as plain data, and the table steps (``sj.draw``, ``sj.chose``) are actions. What a
referee did (rulings, primitives) is re-created by a fresh referee given as an observer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from shengji.actions import Action, Bury, Choose, Declare, Draw, NoDeclare, Play, action_from_data
from shengji.events import (
    Buried, CardsPlayed, ChoiceMade, DeclarationDeclined, Declared, DrawRan, IrregularAttempt,
)
from tabletop.errors import LogError
from tabletop.events import Event
from tabletop.runner import deliver


def action_from_event(event: Event) -> Action | None:
    """The action an ACTION event records; None for any other event."""
    kind = type(event)
    if kind is CardsPlayed:
        return Play(event.seat, event.cards)
    if kind is Declared:
        return Declare(event.seat, event.cards)
    if kind is DeclarationDeclined:
        return NoDeclare(event.seat)
    if kind is Buried:
        return Bury(event.seat, event.cards)
    if kind is DrawRan:
        return Draw(event.seat)
    if kind is ChoiceMade:
        return Choose(event.seat, event.option)
    if kind is IrregularAttempt:
        return action_from_data(event.action)
    return None


def replay(engine: Any, events: Iterable[Event], observers: Sequence[Any] = ()) -> list[Event]:
    """Re-apply the actions of ``events`` to a fresh ``engine`` (built from the same seed
    and rules) and check that it emits the same events; raise LogError at the first
    difference. ``observers`` (a fresh referee) are shown every event, as in a run, and what
    they answer with is compared too. Returns the events produced."""
    expected = list(events)
    produced: list[Event] = []

    def shown(batch: list[Event]) -> None:
        produced.extend(batch)
        if observers:
            _deliver(engine, batch, observers, produced)

    shown(list(engine.take_events()))
    for event in expected:
        if not event.ACTION:
            continue
        action = action_from_event(event)
        if action is None:
            continue
        if engine.to_act is None:
            raise LogError(f"event {event.seq}: the game is over but the log goes on with {event.KIND}")
        batch = engine.apply(action)
        batch.extend(engine.take_events())
        shown(batch)
    for mine, theirs in zip(produced, expected):
        if mine != theirs:
            raise LogError(f"event {theirs.seq}: replay gives {mine.to_dict()}, the log has {theirs.to_dict()}")
    if len(produced) != len(expected):
        raise LogError(f"replay gives {len(produced)} events, the log has {len(expected)}")
    return produced


def _deliver(engine: Any, batch: list[Event], observers: Sequence[Any], produced: list[Event]) -> None:
    """As tabletop.runner.deliver, collecting what the observers' answers add."""
    class Recorder:
        def on_events(self, engine: Any, events: list[Event]) -> None:
            if events is not batch:
                produced.extend(events)
            return None

    deliver(engine, batch, [*observers, Recorder()])
