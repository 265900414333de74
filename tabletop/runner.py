"""Plays an engine to the end: asks whoever fills the seat that is to act — an agent, or the
referee when a ruling is awaited — and shows every event to the observers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
    interjecting = interjectors(agents)
    # An agent that says it never reads its observation (``observes = False``) is given None:
    # the engine does not snapshot the table for it at every decision.
    observing = [getattr(agent, "observes", True) is not False for agent in agents]
    # An agent with ``act_on_demand`` (an infraction injector) is handed ``engine.observe``
    # and observes only when it needs to.
    acting_on_demand: list[Callable[[Callable[[int], Any], int, Any], Any] | None] = [
        getattr(agent, "act_on_demand", None) for agent in agents]
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
        on_demand = acting_on_demand[seat]
        if on_demand is not None:
            action = on_demand(engine.observe, seat, engine.legal_actions())
        else:
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


Interjector = tuple[int, Callable[[Any, int], Any], bool]
"""A seat whose agent may act out of turn: (seat, its ``interject_on_demand`` or
``interject``, whether that is the on-demand one)."""


def interjectors(agents: Sequence[Any]) -> list[Interjector]:
    """The seats whose agents may act out of turn (see ``tabletop.protocol.Interjecting``),
    each with how to ask it."""
    out: list[Interjector] = []
    for seat, agent in enumerate(agents):
        on_demand = getattr(agent, "interject_on_demand", None)
        if on_demand is not None:
            out.append((seat, on_demand, True))
        elif hasattr(agent, "interject"):
            out.append((seat, agent.interject, False))
    return out


def interjection(engine: Any, to_act: int, interjecting: Sequence[Interjector]) -> Any | None:
    """The first out-of-turn action one of the seats other than ``to_act`` wants to take
    (asked in seat order), or None. An on-demand agent is handed ``engine.observe`` and
    observes only if it acts; any other gets its observation."""
    observe = engine.observe
    for seat, interject, on_demand in interjecting:
        if seat == to_act:
            continue
        action = interject(observe, seat) if on_demand else interject(observe(seat), seat)
        if action is not None:
            return action
    return None


def _interjection(engine: Engine, to_act: int, interjecting: Sequence[Interjector], observers: Sequence[Observer]) -> bool:
    """Let one out-of-turn seat act, if its agent wants to; True if one did."""
    action = interjection(engine, to_act, interjecting)
    if action is None:
        return False
    _apply(engine, action, observers)
    return True
