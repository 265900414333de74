"""The trump context of a 双升 deal (level rank + trump suit) and its lookup tables.

Every card of the pack falls into one *effective suit*: 'S', 'H', 'C', 'D' for the side suits
or 'T' for trumps (internally 0–3 and ``TRUMP`` = 4). Within an effective suit the cards stand
on a ladder of *slots*, lowest first; a card's ``order`` is its slot number. Cards on the same
slot are equal in play. Two pairs are consecutive (may form a tractor) exactly when their
slots differ by one, so the ladder encodes both the ranking and the tractor chain (§4, §5):

    side suit   2 3 … K A                 with the level rank removed (and 2 under 常主)
    trumps      trump-suit 2 … K A        (level rank removed; none in no-trump)
                [off-suit 2s]  [trump-suit 2]      only with permanent_twos, level ≠ 2
                off-suit level cards      one slot: all equal, never consecutive with each other
                trump-suit level card     (absent in no-trump)
                BJ, RJ

Choices the rules file leaves open (documented here, tested in tests/shengji/test_context.py):
- No-trump: the slot above the off-suit level cards is BJ, so a level pair followed by a BJ
  pair is a tractor (nothing lies between them).
- permanent_twos: the 2s' slots sit between trump A and the off-suit level cards, so the chain
  runs … trump A → off-suit 2 → trump-suit 2 → off-suit level → trump-suit level → BJ → RJ
  (in no-trump: off-suit 2 → off-suit level → BJ → RJ). At level 2 the option changes nothing:
  the 2s are level cards already.

All tables are plain lists indexed by card index (0–53), so ``is_trump``, ``effective_suit``
and ``order`` are single list lookups.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tabletop.cards import (
    BIG_JOKER, CARDS, NUM_CARD_KINDS, RANKS, SMALL_JOKER, SUITS, Card, as_cards, rank_index,
)
from shengji.rules import DEFAULT_RULES, ShengjiRules

TRUMP = 4
EFFECTIVE_SUITS = "SHCDT"
SUIT_NAMES = ("spades", "hearts", "clubs", "diamonds", "trumps")


def _level_index(level: "int | str") -> int:
    if isinstance(level, bool):
        raise ValueError(f"not a level: {level!r}")
    if isinstance(level, int):
        if 0 <= level <= 12:
            return int(level)
        raise ValueError(f"level index must be 0–12, got {level}")
    if isinstance(level, str):
        index = rank_index(level.strip())
        if index <= 12:
            return index
    raise ValueError(f"not a level: {level!r} (expected 2-9, T/10, J, Q, K, A)")


class Context:
    """Level and trump of a deal, with per-card tables. Immutable; equal when level, trump
    and rules are equal. ``Context('7', 'C')``, ``Context(5, None)`` (no-trump)."""

    __slots__ = ("level", "trump", "rules", "suit_of", "order_of", "trump_of", "slots", "kinds",
                 "cache")

    level: int                          # rank index 0–12 of the level rank
    trump: str | None                   # 'S' 'H' 'C' 'D', or None for no-trump
    rules: ShengjiRules
    suit_of: list[int]                  # card → effective suit 0–4
    order_of: list[int]                 # card → slot within its effective suit
    trump_of: list[bool]                # card → is a trump
    slots: tuple[tuple[tuple[int, ...], ...], ...]  # suit → slots (low → high) → card indices
    kinds: tuple[tuple[int, ...], ...]  # suit → its card indices, low → high
    cache: dict                         # lead analyses (shengji.follow), bounded

    def __init__(self, level: "int | str", trump: str | None, rules: ShengjiRules | None = None):
        set_ = object.__setattr__
        lv = _level_index(level)
        if trump is not None and trump not in SUITS:
            raise ValueError(f"trump must be one of S, H, C, D or None (no-trump), got {trump!r}")
        rules = DEFAULT_RULES if rules is None else rules
        if not isinstance(rules, ShengjiRules):
            raise TypeError(f"rules must be ShengjiRules, got {type(rules).__name__}")
        set_(self, "level", lv)
        set_(self, "trump", trump)
        set_(self, "rules", rules)
        slots = _build_slots(lv, trump, rules.permanent_twos)
        suit_of = [0] * NUM_CARD_KINDS
        order_of = [0] * NUM_CARD_KINDS
        for suit, ladder in enumerate(slots):
            for rung, cards in enumerate(ladder):
                for c in cards:
                    suit_of[c] = suit
                    order_of[c] = rung
        set_(self, "suit_of", suit_of)
        set_(self, "order_of", order_of)
        set_(self, "trump_of", [s == TRUMP for s in suit_of])
        set_(self, "slots", slots)
        set_(self, "kinds", tuple(tuple(c for rung in ladder for c in rung) for ladder in slots))
        set_(self, "cache", {})

    # -- queries (also as module functions below) -------------------------------------------
    def is_trump(self, card: "Card | int | str") -> bool:
        return self.trump_of[_index(card)]

    def effective_suit(self, card: "Card | int | str") -> str:
        """'S', 'H', 'C', 'D', or 'T' for a trump."""
        return EFFECTIVE_SUITS[self.suit_of[_index(card)]]

    def order(self, card: "Card | int | str") -> int:
        """Rank of the card within its effective suit (higher wins; equal cards are equal)."""
        return self.order_of[_index(card)]

    @property
    def level_rank(self) -> str:
        return RANKS[self.level]

    def level_cards(self) -> list[Card]:
        return [CARDS[s * 13 + self.level] for s in range(4)]

    def cards_of(self, suit: str) -> list[Card]:
        """The card kinds of an effective suit, lowest first."""
        return [CARDS[c] for c in self.kinds[EFFECTIVE_SUITS.index(suit)]]

    # -- immutability, equality -------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Context is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Context is immutable")

    def _key(self) -> tuple:
        return (self.level, self.trump, self.rules)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Context) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        extra = "" if self.rules == DEFAULT_RULES else f", rules={self.rules!r}"
        return f"Context({RANKS[self.level]!r}, {self.trump!r}{extra})"

    def __reduce__(self):
        return (Context, (self.level, self.trump, self.rules))


def _build_slots(level: int, trump: str | None, permanent_twos: bool) -> tuple[tuple[tuple[int, ...], ...], ...]:
    t = SUITS.index(trump) if trump is not None else None
    twos = permanent_twos and level != 0
    plain = [r for r in range(13) if r != level and not (twos and r == 0)]
    ladders: list[list[tuple[int, ...]]] = []
    for s in range(4):
        ladders.append([] if s == t else [(s * 13 + r,) for r in plain])
    trumps: list[tuple[int, ...]] = [] if t is None else [(t * 13 + r,) for r in plain]
    if twos:
        trumps.append(tuple(s * 13 for s in range(4) if s != t))
        if t is not None:
            trumps.append((t * 13,))
    trumps.append(tuple(s * 13 + level for s in range(4) if s != t))
    if t is not None:
        trumps.append((t * 13 + level,))
    trumps.append((SMALL_JOKER,))
    trumps.append((BIG_JOKER,))
    ladders.append(trumps)
    return tuple(tuple(ladder) for ladder in ladders)


def _index(card: "Card | int | str") -> int:
    if type(card) is Card:
        return card
    return Card(card)


def is_trump(card: "Card | int | str", ctx: Context) -> bool:
    """Jokers, the eight level cards and the trump suit (no-trump: jokers and level cards)."""
    return ctx.trump_of[card if type(card) is Card else Card(card)]


def effective_suit(card: "Card | int | str", ctx: Context) -> str:
    """'S', 'H', 'C', 'D', or 'T' for a trump."""
    return EFFECTIVE_SUITS[ctx.suit_of[card if type(card) is Card else Card(card)]]


def card_order(card: "Card | int | str", ctx: Context) -> int:
    """``ctx.order(card)``: the card's rank within its effective suit."""
    return ctx.order_of[card if type(card) is Card else Card(card)]


def card_list(cards: Any) -> list[Card]:
    """Cards from anything ``tabletop.cards.as_cards`` accepts (a Card list passes through)."""
    if type(cards) is list and all(type(c) is Card for c in cards):
        return cards
    return as_cards(cards)


def count_vector(cards: Iterable[int]) -> list[int]:
    vec = [0] * NUM_CARD_KINDS
    for c in cards:
        vec[c] += 1
    return vec
