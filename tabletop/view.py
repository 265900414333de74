"""The table as its engine knows it, for reading: frozen records both games' views share
(``guandan.view``, ``shengji.view``). A view is facts only — cards, seats, counts, the ids the
engine keeps — never a clause decision and never words (a viewer adds its own).

A view is taken on demand (``table_view(engine, viewer)``): it reads the engine, changes
nothing and emits nothing, and costs nothing while nobody asks for one. The engine is a deal
alone or a match around it; ``deal_and_match`` says which deal a view is of, for every game.

``viewer``: None for the referee's omniscient eye (every hand); a seat for what that seat
may know (another seat's concealed cards are None)."""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

import attrs

from tabletop.cards import CARDS, Card


@attrs.frozen
class PendingOption:
    """A choice the table holds open on a seat's exposed cards (掼蛋's lead option: ``chooser``
    decides how ``seat`` leads the combination ``kind`` of its exposure ``exposure``)."""

    seat: int
    chooser: int
    kind: str
    exposure: int
    asked_at: int = -1
    """The lead (``GuandanView.leads``) at which the choice was last answered 'free' (-1: never)."""


@attrs.frozen
class Exposure:
    """Cards lying face up in front of ``seat``, still its own (``penalty``: penalty cards)."""

    uid: int
    seat: int
    cards: tuple[Card, ...]
    penalty: bool = False


@attrs.frozen
class SeatView:
    """One seat at the table."""

    seat: int
    hand: tuple[Card, ...] | None
    """The concealed cards (exposed and penalty cards and cards on the table left out), or
    None when the viewer may not see them."""
    count: int | None
    """Cards the seat holds (exposed ones included, cards on the table not), or None when
    the viewer may not know it."""
    exposed: tuple[Card, ...] = ()
    """Face-up cards that are not penalty cards."""
    penalty: tuple[Card, ...] = ()
    """Penalty cards (罚张 / 罚牌), face up."""
    on_table: tuple[Card, ...] = ()
    """Laid on the table by an irregular attempt, waiting for the ruling (out of the hand)."""
    bars: tuple[str, ...] = ()
    """The seat's bars, by scope, in the order they are served."""
    options: tuple[PendingOption, ...] = ()
    """Options pending on this seat's exposed cards."""
    holding: tuple[int, ...] | None = None
    """Every card the seat holds (concealed, exposed and penalty cards) as a count vector by
    card index, or None when the viewer may not see them."""


@attrs.frozen
class Choice:
    """A choice the table waits for: ``seat`` picks one of ``options``."""

    seat: int
    purpose: str
    options: tuple[str, ...]
    about: Any = None


class MatchOfDeals(Protocol):
    """A match engine as a view reads it: the deal in play, and a deal by its number."""

    @property
    def deal(self) -> Any: ...

    def deal_numbered(self, number: int) -> Any: ...


DealT = TypeVar("DealT")
MatchT = TypeVar("MatchT", bound=MatchOfDeals)


def deal_and_match(engine: DealT | MatchT, match_class: type[MatchT],
                   number: int | None = None) -> tuple[DealT, MatchT | None]:
    """The deal a view of ``engine`` shows, and the match around it (None: a deal alone).
    ``number``: in a match, the deal of that number (the current one or the one just over: a
    change that ends a deal draws the next, and an event belongs to the deal it names)."""
    if isinstance(engine, match_class):
        return engine.deal if number is None else engine.deal_numbered(number), engine
    return engine, None  # type: ignore[return-value]  # not the match class: the deal


def resume_phase(table: Any) -> str | None:
    """While the refereed table awaits a ruling: the phase play resumes in (else None)."""
    phase = None if table is None or not table.awaiting else table.resume_phase
    return None if phase is None else str(phase.value)


@attrs.frozen
class AwaitedRuling:
    """An irregularity waiting for the referee: the attempt at seq ``answers``."""

    answers: int
    seat: int | None
    irregularity: str


def awaited_rulings(table: Any) -> tuple[AwaitedRuling, ...]:
    """The refereed table's awaited rulings as records (none in strict mode)."""
    if table is None:
        return ()
    return tuple(AwaitedRuling(a.answers, a.seat, a.irregularity) for a in table.awaiting)


def pending_choice(table: Any) -> Choice | None:
    """The choice the refereed table waits for, if any."""
    choice = None if table is None else table.choice
    if choice is None:
        return None
    about = choice.about if isinstance(choice.about, (int, str, type(None))) else None
    return Choice(choice.seat, choice.purpose, tuple(choice.options), about)


def on_table(table: Any, seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` has lying on the table (an irregular attempt's), in order."""
    if table is None:
        return ()
    return tuple(table.on_table.get(seat, ()))


_COPIES = tuple(((), (card,), (card, card)) for card in CARDS)
"""Per card index: no copy, one, two (a hand holds at most two of a card in either game)."""


def held(counts: list[int] | tuple[int, ...]) -> tuple[Card, ...]:
    """The cards of a hand's count vector, in card index order."""
    out: list[Card] = []
    for copies, n in zip(_COPIES, counts):
        if n:
            out += copies[n] if n < 3 else copies[1] * n
    return tuple(out)


_HELD: dict[tuple[int, ...], tuple[Card, ...]] = {}
_HELD_LIMIT = 4096


def held_of(holding: tuple[int, ...]) -> tuple[Card, ...]:
    """``held`` of a count vector, remembered: between two views at most a seat or two changed
    its hand, so a checker taking a view after every batch builds the others' cards again
    for nothing."""
    cards = _HELD.get(holding)
    if cards is None:
        if len(_HELD) >= _HELD_LIMIT:
            _HELD.clear()
        cards = _HELD[holding] = held(holding)
    return cards


def without(cards: tuple[Card, ...] | list[Card], taken: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """``cards`` less ``taken`` (multisets; a card not there is skipped)."""
    if not taken:
        return tuple(cards)
    rest = list(cards)
    for c in taken:
        try:
            rest.remove(c)
        except ValueError:
            pass
    return tuple(rest)


@attrs.frozen(kw_only=True)
class TableView:
    """What every game's view of the table says first: who looks (``viewer``), the deal's
    number, the phase (and while a ruling is awaited, the phase play resumes in), the level,
    who is to act, the rulings awaited and a choice held open. Each game's view adds its own."""

    game: str
    viewer: int | None
    deal: int
    phase: str
    resume_phase: str | None = None
    """While a ruling is awaited (``phase`` 'awaiting_ruling'): the phase play resumes in."""
    level: str
    to_act: int | str | None
    awaiting: tuple[AwaitedRuling, ...] = ()
    choice: Choice | None = None
    census: tuple[int, ...] = ()
    """Copies of each card (by card index) anywhere at the table — hands, stock, kitty, played
    cards, cards laid on the table, cards lost in a flawed draw — for the referee's eye (empty
    for a seat's)."""

