"""What refereed mode adds to a deal of any game: the irregularities awaiting a ruling and
the phase play resumes in, the cards laid on the table (still their owner's), the choice
offered to a seat, and the referee's random stream. Each game's table state extends it with
what is really its own (掼蛋's bars and lead options, 双升's revokes and kitty)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, Protocol, TypeVar

import attrs

from tabletop.cards import Card
from tabletop.events import EventStream
from tabletop.rng import referee_generator
from tabletop.rulings import Awaited
from tabletop.table_events import ChoiceOffered


class Choice:
    """``seat`` must choose one of ``options`` (``purpose``, about seat ``about``) before
    the table goes on; ``data``: what the engine needs to carry the choice out."""

    __slots__ = ("seat", "purpose", "options", "about", "data")

    def __init__(self, seat: int, purpose: str, options: tuple[str, ...], about: Any = None,
                 data: dict[str, Any] | None = None) -> None:
        self.seat, self.purpose, self.options, self.about = seat, purpose, options, about
        self.data = {} if data is None else data


class OnTable(dict):
    """Seat → the cards it laid on the table (an attempt, a card drawn out of turn), still
    its own until they go back or stand."""

    def lay(self, seat: int, cards: Iterable[Card]) -> None:
        self.setdefault(seat, []).extend(cards)

    def pick_up(self, seat: int, only: Iterable[Card] | None = None) -> list[Card]:
        """Take ``seat``'s cards off the table (all, or those of ``only`` lying there)."""
        if only is None:
            return self.pop(seat, [])
        lying = self.get(seat, [])
        taken = [c for c in only if c in lying]
        for c in taken:
            lying.remove(c)
        if not lying:
            self.pop(seat, None)
        return taken


@attrs.define(slots=True)
class Grab:
    """A card drawn out of turn: ``seat`` took ``card`` due to ``rightful``; ``in_hand``: put
    into the hand (else lying on the table)."""

    seat: int
    card: Card
    in_hand: bool
    rightful: int


@attrs.frozen
class Resume:
    """What the table does once a wait (and any choice) is over: the step ``step`` of its
    game's ``ResumeSteps`` — a typed record in the table's state, not a stored closure."""

    step: str


GameDeal = TypeVar("GameDeal")


class ResumeSteps(Generic[GameDeal]):
    """A game's steps a wait resumes with, by name; each feature registers its own (so this
    layer and the game's core import no feature)."""

    def __init__(self) -> None:
        self._steps: dict[str, Callable[[GameDeal], None]] = {}

    def register(self, step: Callable[[GameDeal], None], name: str | None = None) -> Resume:
        """Register ``step`` under ``name`` (default: its own); the record that resumes with it."""
        name = step.__name__ if name is None else name
        assert name not in self._steps, f"resume step {name!r} registered twice"
        self._steps[name] = step
        return Resume(name)

    def resume(self, deal: GameDeal, pending: Resume | None) -> None:
        """Take the step ``pending`` names (nothing when None)."""
        if pending is not None:
            self._steps[pending.step](deal)


class RefereedDeal(Protocol):
    """What the shared refereed core needs of a game's deal: its refereed table (None: a
    strict deal) and its event stream."""

    @property
    def table(self) -> "RefereedState | None": ...

    @property
    def stream(self) -> EventStream: ...


def effect_seat(effect: Any) -> int:
    """The seat a table effect names (refused when it names none)."""
    from tabletop.rulings import refuse

    if effect.seat is None:
        raise refuse(effect, "names no seat")
    return effect.seat


def return_grabbed(deal: RefereedDeal, effect: Any, reason: str, return_cards: Any) -> bool:
    """Carry out a Return of the card its seat drew out of turn (``return_cards`` puts it
    back on the stock); False when the seat has drawn none (refused when the ruling names
    other cards than the one drawn)."""
    from tabletop.rulings import refuse

    grab, seat = None if deal.table is None else deal.table.grab, effect_seat(effect)
    if grab is None or grab.seat != seat:
        return False
    if list(effect.cards) != [str(grab.card)]:
        raise refuse(effect, f"seat {seat} drew {grab.card} out of turn, not {' '.join(effect.cards)}")
    return_cards(deal, seat, reason)
    return True


class RefereedState:
    """The refereed part of a deal's state that every game has."""

    def __init__(self) -> None:
        self.awaiting: list[Awaited] = []
        """The irregularities waiting for a ruling, oldest first."""
        self.resume_phase: Any = None
        """The phase play resumes in once no ruling is awaited."""
        self.on_table = OnTable()
        self.choice: Choice | None = None
        self.grab: Grab | None = None
        self.rng: Any = None

    def wait(self, awaited: Awaited) -> bool:
        """Add ``awaited``; True if the table was not waiting yet."""
        self.awaiting.append(awaited)
        return len(self.awaiting) == 1

    def stop_waiting(self, answers: int | None) -> bool:
        """The ruling on attempt ``answers`` (the first awaited when None) is made; True if
        no ruling is awaited any more."""
        if self.awaiting:
            index = 0 if answers is None else next(
                (i for i, a in enumerate(self.awaiting) if a.answers == answers), None)
            if index is not None:
                self.awaiting.pop(index)
        return not self.awaiting

    def referee_rng(self, seed: int | None, deal_number: int) -> Any:
        """The referee's stream of this deal (lots, random draws), made on first use."""
        if self.rng is None:
            self.rng = referee_generator(seed, deal_number)
        return self.rng


def offer_choice(deal: RefereedDeal, seat: int, purpose: str, options: Sequence[str], about: Any = None,
                 **data: Any) -> Choice:
    """``seat`` must choose one of ``options`` before the table goes on (logged as
    ``table.choice``; the log names ``about`` when it is a seat)."""
    table = deal.table
    if table is None:
        raise ValueError("a choice is offered at a refereed table only")
    choice = table.choice = Choice(seat, purpose, tuple(options), about, data)
    deal.stream.emit(ChoiceOffered, seat=seat, purpose=purpose, options=choice.options,
                     about=about if isinstance(about, int) else None)
    return choice
