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
    def to_act(self) -> int | None:
        """The seat that must decide now, or None when nothing is pending (over)."""

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
    """Chooses one of the legal actions. Agents are seeded at construction."""

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any: ...


@runtime_checkable
class Observer(Protocol):
    """Is shown every event in order. May answer with events of its own (a referee's
    rulings, applied through the engine's table primitives); those are shown to every
    observer in turn."""

    def on_events(self, engine: Any, events: list[Event]) -> "list[Event] | None": ...
