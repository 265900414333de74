"""The engine and agent protocols both games implement (see ARCHITECTURE.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from tabletop.events import Event


@runtime_checkable
class Engine(Protocol):
    """A deterministic state machine over one deal or one match."""

    @property
    def phase(self) -> Any: ...

    @property
    def to_act(self) -> int | str | None:
        """The seat that must decide now: a seat number, ``tabletop.seats.REFEREE`` while an
        irregularity awaits a ruling, or None when nothing is pending (over)."""

    def legal_actions(self) -> Sequence[Any]:
        """Every legal action for ``to_act``, after all table restrictions."""

    def apply(self, action: Any) -> list[Event]:
        """Apply an action; return the events it produced."""

    def observe(self, seat: int) -> Any:
        """That seat's information set: own hand and everything public."""

    def take_events(self) -> list[Event]:
        """Events emitted outside ``apply`` (the deal's set-up, primitives) not yet taken."""

    @property
    def result(self) -> Any: ...


@runtime_checkable
class Agent(Protocol):
    """Chooses one of the legal actions. Agents are seeded at construction. An agent whose
    class sets ``observes = False`` never reads its observation: ``tabletop.runner.run``
    then passes None instead of asking the engine for one."""

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any: ...


@runtime_checkable
class Interjecting(Protocol):
    """An agent that may also act out of turn (an infraction injector): before each decision
    ``tabletop.runner.run`` asks every such agent of another seat. With
    ``interject_on_demand`` it is handed ``engine.observe`` (and calls ``observe(seat)``
    only if it acts), else ``interject`` gets the seat's observation. Either returns the
    out-of-turn action, or None."""

    def interject(self, observation: Any, seat: int) -> Any | None: ...


@runtime_checkable
class RefereeSeat(Protocol):
    """Fills the referee's seat: answers the first irregularity the engine awaits a ruling
    on (``engine.awaiting_ruling[0]``) with a ``tabletop.rulings.Ruling`` or ``Unresolved``.
    The rulebook referee is one filler; a trainee, a script or a test can be another."""

    def rule(self, engine: Any) -> Any: ...


@runtime_checkable
class Observer(Protocol):
    """Is shown every event in order (and changes nothing)."""

    def on_events(self, engine: Any, events: list[Event]) -> None: ...
