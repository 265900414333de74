"""Plays an engine to the end with agents, showing every event to observers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tabletop.errors import PaijuError
from tabletop.events import Event
from tabletop.protocol import Agent, Engine, Observer


class RunawayError(PaijuError):
    """The engine did not finish within the step limit (an engine bug, not a user error)."""


def deliver(engine: Any, events: list[Event], observers: Sequence[Observer]) -> None:
    """Show ``events`` to every observer; events an observer answers with are shown to
    all observers too, in order, until nothing new comes back."""
    queue = events
    while queue:
        answered: list[Event] = []
        for observer in observers:
            more = observer.on_events(engine, queue)
            if more:
                answered.extend(more)
            pending = engine.take_events()
            if pending:
                answered.extend(pending)
        queue = answered


def run(engine: Engine, agents: Sequence[Agent], observers: Sequence[Observer] = (), *, max_steps: int = 100_000) -> Any:
    """Ask ``agents[engine.to_act]`` for actions until nobody is to act; return the result."""
    deliver(engine, engine.take_events(), observers)
    steps = 0
    while True:
        seat = engine.to_act
        if seat is None:
            break
        steps += 1
        if steps > max_steps:
            raise RunawayError(f"engine still running after {max_steps} actions")
        action = agents[seat].act(engine.observe(seat), engine.legal_actions())
        events = engine.apply(action)
        events.extend(engine.take_events())
        deliver(engine, events, observers)
    return engine.result
