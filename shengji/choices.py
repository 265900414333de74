"""The legal actions of a 双升 lead or follow, as lazy ``Choices``: listed when asked, sampled
directly (one is made at every lead and follow, so classes rather than closures). They live
apart from ``shengji.deal`` because they subclass ``Choices`` (a ``Sequence``), which a module
compiled with mypyc cannot subclass without changing how it behaves."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from shengji.actions import Choices, Play, lead_units, pick_index, play_of, random_lead
from shengji.context import Context
from shengji.follow import legal_follows, sample_follow
from tabletop.cards import Card

if TYPE_CHECKING:
    from shengji.deal import Deal

FOLLOW_LIST_LIMIT = 64
"""Follows are listed in full only when an upper bound of their number is at most this."""

class LeadChoices(Choices):
    """A lead's Choices: its units listed (lazily), ``random_lead`` sampled; the hand is
    read when asked. A class rather than closures: one is made at every lead."""

    __slots__ = ("_deal", "_seat", "_ctx")

    def __init__(self, deal: Deal, seat: int, ctx: Context) -> None:
        self._deal = deal
        self._seat = seat
        self._ctx = ctx
        self._listed = None
        self._make = None
        self._sampler = None
        self._complete = deal.hand_size[seat] <= 1

    @property
    def listed(self) -> tuple[Any, ...]:
        if self._listed is None:
            seat = self._seat
            self._listed = tuple(play_of(seat, u) for u in lead_units(self._deal.hand(seat), self._ctx))
        return self._listed

    def sample(self, rng: np.random.Generator) -> Play:
        seat = self._seat
        return play_of(seat, random_lead(self._deal.hand(seat), self._ctx, rng))

    @property
    def hand(self) -> tuple[Card, ...]:
        """The leader's hand."""
        return self._deal.hand(self._seat)

    lead = None
    """No lead yet (as a follow's ``lead``)."""


class FollowChoices(Choices):
    """A follow's Choices (``Deal.legal_actions`` at a follow). A class rather than closures: one is
    made at every follow."""

    __slots__ = ("_seat", "_hand", "_lead", "_ctx", "_few")

    def __init__(self, seat: int, hand: tuple[Card, ...], lead: tuple[Card, ...], ctx: Context) -> None:
        self._seat = seat
        self._hand = hand
        self._lead = lead
        self._ctx = ctx
        self._few: bool | None = None
        self._listed = None
        self._make = None
        self._sampler = None
        self._complete = False          # unused: ``complete`` is decided by ``_is_few``

    @property
    def hand(self) -> tuple[Card, ...]:
        """The follower's hand."""
        return self._hand

    @property
    def lead(self) -> tuple[Card, ...]:
        """The cards that lead the trick."""
        return self._lead

    def _in_suit(self) -> list[Card]:
        suit_of = self._ctx.suit_of
        suit = suit_of[self._lead[0]]
        return [c for c in self._hand if suit_of[c] == suit]

    def _is_few(self) -> bool:
        if self._few is None:
            n = len(self._lead)
            h = len(self._in_suit())
            self._few = (math.comb(h, n) if h >= n else math.comb(len(self._hand) - h, n - h)) <= FOLLOW_LIST_LIMIT
        return self._few

    @property
    def complete(self) -> bool:
        return self._is_few()

    @property
    def listed(self) -> tuple[Any, ...]:
        if self._listed is None:
            if self._is_few():
                seat = self._seat
                self._listed = tuple(play_of(seat, p) for p in legal_follows(self._hand, self._lead, self._ctx))
            else:
                self._listed = (self.sample(np.random.default_rng(0)),)
        return self._listed

    def sample(self, rng: np.random.Generator) -> Play:
        lead = self._lead
        n = len(lead)
        if n == 1:                      # a single: of the suit if held, else any card
            suit_of = self._ctx.suit_of
            suit = suit_of[lead[0]]
            pool = [c for c in self._hand if suit_of[c] == suit] or self._hand
            return play_of(self._seat, (pool[int(rng.random() * len(pool))],))
        if n == 2 and lead[0] == lead[1]:
            return play_of(self._seat, _sample_pair_follow(self._hand, self._in_suit(), rng))
        return play_of(self._seat, sample_follow(self._hand, lead, self._ctx, rng))


def _sample_pair_follow(hand: tuple[Card, ...], in_suit: list[Card], rng: np.random.Generator) -> list[Card]:
    """A random legal follow to a led pair: a pair of the suit if the hand has one
    (有对必须出对), else two cards of the suit, else what it has of the suit filled up."""
    h = len(in_suit)
    if h >= 2:
        pairs = [c for i, c in enumerate(in_suit) if i and in_suit[i - 1] == c]
        if pairs:
            c = pairs[pick_index(rng, len(pairs))]
            return [c, c]
        i, j = _two_indices(h, rng)
        return [in_suit[i], in_suit[j]]
    if h == 1:
        rest = [c for c in hand if c != in_suit[0]]
        return [in_suit[0], rest[pick_index(rng, len(rest))]]
    i, j = _two_indices(len(hand), rng)
    return [hand[i], hand[j]]


def _two_indices(m: int, rng: np.random.Generator) -> tuple[int, int]:
    i = pick_index(rng, m)
    j = pick_index(rng, m - 1)
    return i, j + (j >= i)

