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
    # Seats whose agents may act out of turn (an infraction injector): before each
    # decision every other such seat gets the chance. Strict runs have none and pay nothing.
    interjecting = [(seat, agent) for seat, agent in enumerate(agents) if hasattr(agent, "interject")]
    steps = 0
    while True:
        seat = engine.to_act
        if seat is None:
            break
        steps += 1
        if steps > max_steps:
            raise RunawayError(f"engine still running after {max_steps} actions")
        if interjecting and _interjection(engine, seat, interjecting, observers):
            continue
        action = agents[seat].act(engine.observe(seat), engine.legal_actions())
        _apply(engine, action, observers)
    return engine.result


def _apply(engine: Engine, action: Any, observers: Sequence[Observer]) -> None:
    events = engine.apply(action)
    events.extend(engine.take_events())
    deliver(engine, events, observers)


def _interjection(engine: Engine, to_act: int, interjecting: list[tuple[int, Any]], observers: Sequence[Observer]) -> bool:
    """Let one out-of-turn seat act, if its agent wants to; True if one did."""
    for seat, agent in interjecting:
        if seat == to_act:
            continue
        action = agent.interject(engine.observe(seat), seat)
        if action is not None:
            _apply(engine, action, observers)
            return True
    return False
