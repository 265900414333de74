"""The decisions a 双升 seat makes: declare trump (or not), bury the kitty, play cards.

Every action is a frozen record naming its seat; cards are kept in canonical order, so
two actions showing the same multiset of cards are equal.

``Choices`` is what ``legal_actions()`` returns. Small decision spaces are listed in full
(``complete`` is True). Three spaces are combinatorial and are never enumerated: burying 8
of 33 cards, leads (any multiset of one effective suit is a throw) and follows from a void
(any n of the other cards). For those ``complete`` is False, the sequence lists only some
legal actions (the basic ones), ``sample(rng)`` draws from the whole space, and the
engine's ``why_illegal(action)`` decides any action an agent builds itself.

``lead_units`` (every single, pair and tractor a hand can lead) and ``random_lead`` (those,
and now and then a random throw) are what the lead ``Choices`` list and sample.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs
import numpy as np

from shengji.context import Context
from tabletop.cards import CARDS, Card, as_cards, format_cards, sort_cards

_CANONICAL_RANK = [0] * len(CARDS)
for _i, _c in enumerate(sort_cards(CARDS)):
    _CANONICAL_RANK[_c] = _i


def _canonical_cards(cards: "str | Iterable[Card | int | str]") -> tuple[Card, ...]:
    """Cards in tabletop's canonical order (rank, then suit), as a tuple of Card."""
    if type(cards) is not tuple or any(type(c) is not Card for c in cards):
        cards = as_cards(cards)
    return tuple(sorted(cards, key=_CANONICAL_RANK.__getitem__))


@attrs.frozen
class Declare:
    """亮主 / 反主 / 加固: show ``cards`` (one level card, or a pair of identical level
    cards or jokers) to declare or overcall trump. A reinforcement shows the whole pair."""

    seat: int
    cards: tuple[Card, ...] = attrs.field(converter=_canonical_cards)

    def __str__(self) -> str:
        return f"seat {self.seat} declares {format_cards(self.cards)}"


@attrs.frozen
class NoDeclare:
    """Decline to declare at this opportunity (the seat may declare at a later one)."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} does not declare"


@attrs.frozen
class Bury:
    """扣底: the banker puts exactly 8 cards face down as the kitty."""

    seat: int
    cards: tuple[Card, ...] = attrs.field(converter=_canonical_cards)

    def __str__(self) -> str:
        return f"seat {self.seat} buries {format_cards(self.cards)}"


@attrs.frozen
class Play:
    """Lead or follow with ``cards`` (a lead of several units is a throw)."""

    seat: int
    cards: tuple[Card, ...] = attrs.field(converter=_canonical_cards)

    def __str__(self) -> str:
        return f"seat {self.seat} plays {format_cards(self.cards)}"


Action = Declare | NoDeclare | Bury | Play


def pick_index(rng: np.random.Generator, n: int) -> int:
    """A uniform index in range(n) from one float draw (``rng.random()`` costs a third of
    ``rng.integers``, and samplers run at every step of a simulation)."""
    return int(rng.random() * n)


class Choices(Sequence):
    """The legal actions of one decision (see the module docstring).

    ``listed`` is built lazily (agents that only ``sample`` never pay for it)."""

    __slots__ = ("_listed", "_make", "_sampler", "_complete")

    def __init__(
        self,
        listed: "Sequence[Any] | Callable[[], Sequence[Any]]",
        *,
        complete: "bool | Callable[[], bool]" = True,
        sampler: "Callable[[np.random.Generator], Any] | None" = None,
    ) -> None:
        if callable(listed):
            self._listed: tuple[Any, ...] | None = None
            self._make = listed
        else:
            self._listed = tuple(listed)
            self._make = None
        self._sampler = sampler
        self._complete = complete

    @property
    def complete(self) -> bool:
        """Whether ``listed`` is every legal action (decided lazily, like ``listed``)."""
        if callable(self._complete):
            self._complete = bool(self._complete())
        return self._complete

    @property
    def listed(self) -> tuple[Any, ...]:
        if self._listed is None:
            self._listed = tuple(self._make())
        return self._listed

    def __len__(self) -> int:
        return len(self.listed)

    def __getitem__(self, index):  # type: ignore[override]
        return self.listed[index]

    def __iter__(self):
        return iter(self.listed)

    def __contains__(self, action: object) -> bool:
        return action in self.listed

    def sample(self, rng: np.random.Generator) -> Any:
        """A legal action drawn at random: by the decision's own sampler when it has one
        (bury, leads, follows: every legal action has a positive probability), otherwise
        uniformly from ``listed``."""
        if self._sampler is not None:
            return self._sampler(rng)
        listed = self.listed
        return listed[pick_index(rng, len(listed))]

    def __repr__(self) -> str:
        shown = "…" if self._listed is None else f"{len(self._listed)} listed"
        return f"Choices({shown}, complete={self.complete})"


# ---------------------------------------------------------------------------------------------
# Leads (the lead Choices list the units and sample throws too)


def lead_units(hand: Sequence[Card], ctx: Context) -> list[tuple[Card, ...]]:
    """Every single, pair and tractor the hand can lead (each multiset once). Throws of
    several units are left out: there are exponentially many."""
    out: list[tuple[Card, ...]] = []
    pairs_by_suit: dict[int, dict[int, list[Card]]] = {}
    suit_of, order_of = ctx.suit_of, ctx.order_of
    previous = None
    for c in sorted(hand):                           # copies adjacent
        if c == previous:
            out.append((c, c))
            pairs_by_suit.setdefault(suit_of[c], {}).setdefault(order_of[c], []).append(c)
        else:
            out.append((c,))
        previous = c
    for slots in pairs_by_suit.values():
        if len(slots) < 2:
            continue
        for start in slots:                          # tractors: consecutive slots holding pairs
            end = start + 1
            while end in slots:
                for pick in itertools.product(*(slots[i] for i in range(start, end + 1))):
                    out.append(tuple(c for c in pick for _ in (0, 1)))
                end += 1
    return out


THROW_SAMPLE_SHARE = 0.1
"""Share of random leads that try a throw of random cards of one suit (most fail)."""


def random_lead(hand: Sequence[Card], ctx: Context, rng: np.random.Generator) -> list[Card]:
    """A random lead: usually one of ``lead_units`` (uniform), sometimes
    (THROW_SAMPLE_SHARE) a random subset of two or more cards of one effective suit."""
    if rng.random() < THROW_SAMPLE_SHARE:
        by_suit: dict[int, list[Card]] = {}
        for c in hand:
            by_suit.setdefault(ctx.suit_of[c], []).append(c)
        suits = [cards for cards in by_suit.values() if len(cards) >= 2]
        if suits:
            cards = suits[pick_index(rng, len(suits))]
            size = 2 + pick_index(rng, len(cards) - 1)
            picks = rng.choice(len(cards), size=size, replace=False)
            return [cards[i] for i in sorted(picks)]
    units = lead_units(hand, ctx)
    return list(units[pick_index(rng, len(units))])
