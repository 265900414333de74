"""The refereed core of every game: what refereed mode adds to a deal (the irregularities
awaiting a ruling and the phase play resumes in, the cards laid on the table — still their
owner's —, the choice offered to a seat, the referee's random stream) and the one wait for
the referee: an attempt recorded or an irregularity found (``attempt``, ``found``), the wait
(``await_ruling``) and its end (``resolve``), the choice offered and made (``offer_choice``,
``choose``), the order restored (``restore_turn``, ``on_restore_order``). Each game's table
state extends ``RefereedState`` with what is really its own (掼蛋's bars and lead options,
双升's revokes and kitty) and names in ``GAME`` (a ``Refereeing`` record) what differs: its
phases, its events, the step it takes when the wait is over. What the table does next is a
``Resume`` record naming a step the game's features register (``ResumeSteps``), never a
stored function."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Protocol

import attrs

from tabletop.cards import Card
from tabletop.errors import IllegalAction
from tabletop.events import EventStream
from tabletop.rulings import Awaited, Discovered, Irregular, refuse
from tabletop.rulings import facts as make_facts
from tabletop.rng import referee_generator
from tabletop.table_events import ChoiceMade, ChoiceOffered, TurnRestored


@attrs.frozen
class Resume:
    """A step the table takes later, by name: once a wait (and any choice) is over, or once a
    choice is made — a typed record in the table's state, not a stored closure. The step is
    one of the game's ``ResumeSteps``."""

    step: str


class Choice:
    """``seat`` must choose one of ``options`` (``purpose``, about seat ``about``) before
    the table goes on; ``then``: the step that carries the choice out, called with the deal,
    the choice and the option chosen; ``data``: plain facts that step needs (source, to,
    count, reason)."""

    __slots__ = ("seat", "purpose", "options", "about", "then", "data")

    def __init__(self, seat: int, purpose: str, options: tuple[str, ...], about: Any, then: Resume,
                 data: dict[str, Any] | None = None) -> None:
        self.seat, self.purpose, self.options, self.about = seat, purpose, options, about
        self.then = then
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


class ResumeSteps:
    """A game's steps by name, each registered by the feature that owns it (so this layer and
    the game's lower modules import no feature): what a wait resumes with (called with the
    deal) and what carries a choice out (called with the deal, the choice and the option)."""

    def __init__(self) -> None:
        self._steps: dict[str, Callable[..., None]] = {}

    def register(self, step: Callable[..., None], name: str | None = None) -> Resume:
        """Register ``step`` under ``name`` (default: its own); the record that resumes with it."""
        name = step.__name__ if name is None else name
        assert name not in self._steps, f"resume step {name!r} registered twice"
        self._steps[name] = step
        return Resume(name)

    def resume(self, deal: "RefereedDeal", pending: Resume | None, *args: Any) -> None:
        """Take the step ``pending`` names (nothing when None) with ``args`` after the deal."""
        if pending is not None:
            self._steps[pending.step](deal, *args)


@attrs.frozen
class Refereeing:
    """What the shared core needs to know of one game (its table state's ``GAME``)."""

    awaiting: Any
    """The phase member of a table waiting for a ruling."""
    kept: tuple[Any, ...]
    """The phases a new wait leaves as they are (already waiting; 掼蛋: the deal scored)."""
    irregularities: tuple[str, ...]
    """Every irregularity id the game records."""
    attempt_event: type[Irregular]
    found_event: type[Discovered]
    action_data: Callable[[Any], tuple[tuple[str, Any], ...]]
    """The game's ``action_to_data`` (an attempt's action in the log)."""
    steps: ResumeSteps
    wait_over: Resume
    """The step the table takes once no ruling is awaited (掼蛋's ``go_on``, 双升's ``carry_on``)."""
    table_changed: Callable[[Any], None]
    """What the deal forgets when the table changes (掼蛋: its cached legal actions)."""


def nothing_cached(deal: "RefereedDeal") -> None:
    """A ``table_changed`` for a deal that caches nothing computed from the table."""


class RefereedDeal(Protocol):
    """What the shared refereed core needs of a game's deal: its refereed table (None: a
    strict deal), its event stream, its phase and the seat whose turn it is."""

    @property
    def table(self) -> "RefereedState | None": ...

    @property
    def stream(self) -> EventStream: ...

    phase: Any
    turn: int | None


def effect_seat(effect: Any) -> int:
    """The seat a table effect names (refused when it names none)."""
    if effect.seat is None:
        raise refuse(effect, "names no seat")
    return effect.seat


def return_grabbed(deal: RefereedDeal, effect: Any, reason: str, return_cards: Any) -> bool:
    """Carry out a Return of the card its seat drew out of turn (``return_cards`` puts it
    back on the stock); False when the seat has drawn none (refused when the ruling names
    other cards than the one drawn)."""
    grab, seat = None if deal.table is None else deal.table.grab, effect_seat(effect)
    if grab is None or grab.seat != seat:
        return False
    if list(effect.cards) != [str(grab.card)]:
        raise refuse(effect, f"seat {seat} drew {grab.card} out of turn, not {' '.join(effect.cards)}")
    return_cards(deal, seat, reason)
    return True


class RefereedState:
    """The refereed part of a deal's state that every game has."""

    GAME: ClassVar[Refereeing]
    """What differs in the game (each game's table state names its own)."""

    def __init__(self) -> None:
        self.awaiting: list[Awaited] = []
        """The irregularities waiting for a ruling, oldest first."""
        self.resume_phase: Any = None
        """The phase play resumes in once no ruling is awaited."""
        self.then: Resume | None = None
        """A step the feature that paused the table asked for once the wait is over (双升's
        draw, declaration and revoke), taken by the game's ``wait_over`` step; None: none."""
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


def table_of(deal: RefereedDeal) -> RefereedState:
    """The refereed state of ``deal`` (the core runs only at a refereed deal)."""
    table = deal.table
    assert table is not None, "the refereed core ran at a strict deal"
    return table


def await_ruling(deal: RefereedDeal, seq: int, irregularity: str, seat: int | None,
                 event: Irregular | Discovered, *, then: Resume | None = None) -> None:
    """The table waits for a ruling on attempt ``seq``, which ``event`` calls for: the
    referee's seat is to act (the phase says so; the seat whose turn it is stays ``turn``).
    ``then``: the step to take once the wait is over."""
    t = table_of(deal)
    game = t.GAME
    assert irregularity in game.irregularities, f"undeclared irregularity id {irregularity!r}"
    t.wait(Awaited(seq, irregularity, seat, event))
    if deal.phase not in game.kept:
        t.resume_phase = deal.phase
        deal.phase = game.awaiting
    if then is not None:
        t.then = then
    game.table_changed(deal)


def attempt(deal: RefereedDeal, action: Any, irregularity: str, **info: Any) -> None:
    """``action`` breaks a rule: one irregular attempt (an action event) with the facts
    ``info``, and the table waits for the ruling on it."""
    game = table_of(deal).GAME
    e = deal.stream.emit(game.attempt_event, seat=action.seat, irregularity=irregularity,
                         action=game.action_data(action), facts=make_facts(**info))
    await_ruling(deal, e.seq, irregularity, action.seat, e)


def found(deal: RefereedDeal, answers: int, irregularity: str, seat: int | None, *,
          then: Resume | None = None, **info: Any) -> None:
    """A latent irregularity (attempt ``answers``) comes to light with the facts ``info``;
    the table waits for the ruling on it."""
    t = table_of(deal)
    e = deal.stream.emit(t.GAME.found_event, seat=seat, irregularity=irregularity, answers=answers,
                         facts=make_facts(**info))
    await_ruling(deal, answers, irregularity, seat, e, then=then)


def resolve(deal: RefereedDeal, seq: int | None = None) -> None:
    """End the wait for the ruling on attempt ``seq`` (the first one when None); once no
    ruling is awaited play resumes in its phase and the game takes its ``wait_over`` step
    (its events go to the stream)."""
    t = deal.table
    if t is None:
        raise ValueError("resolve: the deal is not refereed")
    game = t.GAME
    if t.stop_waiting(seq) and deal.phase is game.awaiting:
        deal.phase = t.resume_phase
        game.table_changed(deal)
        game.steps.resume(deal, game.wait_over)


def offer_choice(deal: RefereedDeal, seat: int, purpose: str, options: Sequence[str], about: Any = None, *,
                 then: Resume, **data: Any) -> Choice:
    """``seat`` must choose one of ``options`` before the table goes on (logged as
    ``table.choice``; the log names ``about`` when it is a seat); ``then``: the registered
    step that carries the choice out; ``data``: plain facts it needs."""
    table = deal.table
    if table is None:
        raise ValueError("a choice is offered at a refereed table only")
    choice = table.choice = Choice(seat, purpose, tuple(options), about, then, data)
    deal.stream.emit(ChoiceOffered, seat=seat, purpose=purpose, options=choice.options,
                     about=about if isinstance(about, int) else None)
    table.GAME.table_changed(deal)
    return choice


def choose(deal: RefereedDeal, a: Any, handed: bool = False) -> None:
    """The chooser's ``Choose``: logged, then the choice's step carries it out. ``handed``
    (whether the action came from the legal list) is part of 掼蛋's dispatch signature and
    changes nothing here: a choice is always checked against its options."""
    t = table_of(deal)
    c = t.choice
    if c is None or a.seat != c.seat:
        raise IllegalAction(f"seat {a.seat} has no choice to make now")
    if a.option not in c.options:
        raise IllegalAction(f"not one of the options {c.options}: {a.option!r}")
    t.choice = None
    deal.stream.emit(ChoiceMade, seat=a.seat, purpose=c.purpose, option=a.option)
    t.GAME.steps.resume(deal, c.then, c, a.option)


def restore_turn(deal: RefereedDeal, seat: int, reason: str) -> None:
    """Order restored: ``seat`` acts next (once the wait is over; to draw next, in the draw)."""
    deal.turn = seat
    deal.stream.emit(TurnRestored, seat=seat, reason=reason)
    table_of(deal).GAME.table_changed(deal)


def on_restore_order(deal: RefereedDeal, effect: Any, plan: Any) -> None:
    """RestoreOrder (双升's CorrectFollow too): ``seat`` acts once the wait is over."""
    if deal.phase is not table_of(deal).GAME.awaiting:
        raise refuse(effect, "the table is not waiting for a ruling")
    restore_turn(deal, effect.seat, plan.reason)
