"""Plays an engine to the end: asks whoever fills the seat that is to act — an agent, or the
referee when a ruling is awaited — and shows every event to the observers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tabletop.errors import PaijuError
from tabletop.events import Event
from tabletop.protocol import Agent, Engine, Observer, RefereeSeat
from tabletop.seats import REFEREE


class RunawayError(PaijuError):
    """The engine did not finish within the step limit (an engine bug, not a user error)."""


class NoRefereeError(PaijuError):
    """The table awaits a ruling and nobody fills the referee's seat."""


def deliver(engine: Any, events: list[Event], observers: Sequence[Observer]) -> None:
    """Show ``events`` to every observer, in order."""
    if events:
        for observer in observers:
            observer.on_events(engine, events)


def run(engine: Engine, agents: Sequence[Agent], observers: Sequence[Observer] = (), *,
        referee: RefereeSeat | None = None, max_steps: int = 100_000) -> Any:
    """Ask ``agents[engine.to_act]`` for actions — and ``referee`` for a ruling whenever the
    referee's seat is to act — until nobody is to act; return the result. A referee that also
    observes (has ``on_events``) is shown every event first."""
    if referee is not None and hasattr(referee, "on_events"):
        observers = [referee, *observers]  # type: ignore[list-item]  # the referee observes too (it has on_events)
    deliver(engine, engine.take_events(), observers)
    # Seats whose agents may act out of turn (an infraction injector): before each
    # decision every other such seat gets the chance. Strict runs have none and pay nothing.
    interjecting = [(seat, agent) for seat, agent in enumerate(agents) if hasattr(agent, "interject")]
    # An agent that says it never reads its observation (``observes = False``) is given None:
    # the engine does not snapshot the table for it at every decision.
    observing = [getattr(agent, "observes", True) is not False for agent in agents]
    steps = 0
    while True:
        seat = engine.to_act
        if seat is None:
            break
        steps += 1
        if steps > max_steps:
            raise RunawayError(f"engine still running after {max_steps} actions")
        if seat is REFEREE:
            _apply(engine, rule(engine, referee), observers)
            continue
        assert isinstance(seat, int), f"to_act is a seat or the referee's, not {seat!r}"
        if interjecting and _interjection(engine, seat, interjecting, observers):
            continue
        action = agents[seat].act(engine.observe(seat) if observing[seat] else None, engine.legal_actions())
        _apply(engine, action, observers)
    return engine.result


def rule(engine: Any, referee: RefereeSeat | None) -> Any:
    """The referee's answer to the first irregularity ``engine`` awaits a ruling on."""
    if referee is None:
        first = next(iter(getattr(engine, "awaiting_ruling", ())), None)
        what = f" on {first.irregularity} (event {first.answers})" if first is not None and hasattr(first, "irregularity") else ""
        raise NoRefereeError(f"the table awaits a ruling{what} and nobody fills the referee's seat")
    return referee.rule(engine)


def settle(engine: Any, referee: RefereeSeat | None, observers: Sequence[Observer] = ()) -> list[Event]:
    """Let ``referee`` rule until the table awaits no ruling; the events, in order."""
    out: list[Event] = []
    while engine.to_act is REFEREE:
        events = engine.apply(rule(engine, referee))
        events.extend(engine.take_events())
        deliver(engine, events, observers)
        out.extend(events)
    return out


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
