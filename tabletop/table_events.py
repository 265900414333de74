"""What the table primitives did, the same in every game: cards returned, exposed and made
penalty cards; a bar set, served and ended; a choice offered and made; the turn restored; a
card drawn at random. Each names the ruling's clause as ``reason`` where a ruling caused it."""

from __future__ import annotations

from typing import ClassVar

import attrs

from tabletop.events import Event


@attrs.frozen(kw_only=True)
class CardsReturned(Event):
    """Cards go back: to ``seat``'s hand (``to`` 'hand') or onto the stock ('stock');
    ``exposed``: they stay face up in front of it."""

    KIND: ClassVar[str] = "table.returned"
    cards: tuple[str, ...]
    to: str
    exposed: bool = False
    reason: str


@attrs.frozen(kw_only=True)
class CardsExposed(Event):
    """暴露张: face up in front of ``seat``, still its cards, seen by every seat.
    ``combination``: their type where the game names one (掼蛋's lead option), else None."""

    KIND: ClassVar[str] = "table.exposed"
    cards: tuple[str, ...]
    combination: str | None = None
    reason: str


@attrs.frozen(kw_only=True)
class ExposureLifted(Event):
    """Exposed cards go back into the hand as ordinary cards."""

    KIND: ClassVar[str] = "table.exposure_lifted"
    cards: tuple[str, ...]
    reason: str


@attrs.frozen(kw_only=True)
class PenaltyCardsMarked(Event):
    """罚张: exposed cards that must be played (or passed) at each legal chance. ``cause``
    None: a ruling's effect (or its choice) made them so; else they lapsed into penalty cards
    without a new ruling, as the ruling that left them exposed (the ``ruling`` event's seq)
    already says: 掼蛋's 'partner_out' / 'partner_judged_last' (the lead option can never be
    asked) or 'no_combination_left' (what remains of them forms no combination)."""

    KIND: ClassVar[str] = "table.penalty_cards"
    cards: tuple[str, ...]
    reason: str
    cause: str | None = None
    ruling: int | None = None


@attrs.frozen(kw_only=True)
class SeatBarred(Event):
    """禁出一手: ``seat`` passes automatically when its turn to play next comes. ``scope``
    'next_turn': in this round or a later one (a barred lead goes to its 下家); 'round':
    only in this round, the bar lapses when the round ends."""

    KIND: ClassVar[str] = "table.barred"
    reason: str
    scope: str = "next_turn"


@attrs.frozen(kw_only=True)
class BarredPass(Event):
    """A barred seat's turn came: it passes (not a decision, so not an action). ``lead_to``:
    the turn was a lead, which goes to that seat."""

    KIND: ClassVar[str] = "table.barred_pass"
    lead_to: int | None = None


@attrs.frozen(kw_only=True)
class BarEnded(Event):
    """``how``: 'lapsed' (the round ended first), 'lifted' (all passed), 'served' (its
    turn came as the answer to an out-of-turn play, and it passed) or 'judged_last' (the
    seat was judged 单下 and plays no more)."""

    KIND: ClassVar[str] = "table.bar_ended"
    how: str


@attrs.frozen(kw_only=True)
class ChoiceOffered(Event):
    """``seat`` must choose one of ``options`` (``purpose``) before play goes on."""

    KIND: ClassVar[str] = "table.choice"
    purpose: str
    options: tuple[str, ...]
    about: int | None


@attrs.frozen(kw_only=True)
class ChoiceMade(Event):
    """``seat`` answered the table's choice ``purpose`` with ``option``."""

    KIND: ClassVar[str] = "table.chose"
    ACTION: ClassVar[bool] = True
    purpose: str
    option: str


@attrs.frozen(kw_only=True)
class TurnRestored(Event):
    """Order restored: ``seat`` is to act (in the draw: draws next)."""

    KIND: ClassVar[str] = "table.turn_restored"
    reason: str


@attrs.frozen(kw_only=True)
class RandomlyDrawn(Event):
    """``seat`` drew ``cards`` at random from ``source``'s hand (the referee's stream)."""

    KIND: ClassVar[str] = "table.random_draw"
    source: int
    cards: tuple[str, ...]
    reason: str


RENAMED_IN_VERSION_2: dict[str, str] = {
    f"{game}.{name}": f"table.{name}"
    for game, names in (
        ("gd", ("returned", "exposed", "exposure_lifted", "penalty_cards", "barred", "barred_pass", "bar_ended",
                "choice", "chose", "turn_restored", "random_draw")),
        ("sj", ("returned", "exposed", "choice", "chose", "turn_restored", "random_draw")),
    )
    for name in names
}
"""Log format version 1 → 2: the per-game kinds of these events became the table's own."""


RENAMED_IN_VERSION_3: dict[str, str] = {
    "gd.draw": "gd.draw_ran", "sj.draw": "sj.draw_ran", "gd.levels": "gd.levels_advanced",
    "sj.levels": "sj.levels_advanced", "gd.reported": "gd.cards_reported",
}
"""Log format version 2 → 3: kinds renamed to say what their events mean (the draw ran, the
levels advanced, the cards a seat holds reported)."""


def upgrade(data: dict, version: int) -> dict:
    """An event record of log format ``version`` (1 or 2) in the current shape."""
    if version < 2:
        kind = RENAMED_IN_VERSION_2.get(data.get("kind"))  # type: ignore[arg-type]  # a kind that is not a string finds nothing
        if kind is not None:
            data = {**data, "kind": kind}
            if kind == "table.random_draw" and "card" in data:
                data["cards"] = [data.pop("card")]   # 掼蛋's random draw named its one card
    kind = RENAMED_IN_VERSION_3.get(data.get("kind"))  # type: ignore[arg-type]  # a kind that is not a string finds nothing
    return data if kind is None else {**data, "kind": kind}
