"""Cards, their one text notation, and hands as count vectors.

A card is a small integer index, wrapped so that it prints as its notation:

    index = suit * 13 + rank      suit: S=0 H=1 C=2 D=3, rank: '2'=0 … 'A'=12
    52 = BJ (small/black joker, 小王), 53 = RJ (big/red joker, 大王)

The two copies of a card in a two-deck game are the same value: hands and piles
are multisets, stored as count vectors of length 54 indexed by card index.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Union

import numpy as np
from mypy_extensions import mypyc_attr

from tabletop.errors import CardParseError

SUITS = "SHCD"
RANKS = "23456789TJQKA"
SUIT_SYMBOLS = "♠♥♣♦"
NUM_CARD_KINDS = 54
SMALL_JOKER = 52
BIG_JOKER = 53


@mypyc_attr(native_class=False)  # compiled builds: a subclass of int stays a Python class
class Card(int):
    """One card. ``Card('SA')``, ``Card(12)`` and ``str(card) == 'SA'``."""

    __slots__ = ()

    def __new__(cls, value: "int | str") -> "Card":
        if isinstance(value, Card):
            return value
        if isinstance(value, str):
            return parse_card(value)
        if isinstance(value, (int, np.integer)) and 0 <= value < NUM_CARD_KINDS:
            return CARDS[int(value)]
        raise CardParseError(f"not a card: {value!r}")

    @property
    def is_joker(self) -> bool:
        return self >= SMALL_JOKER

    @property
    def suit(self) -> str | None:
        """'S', 'H', 'C', 'D', or None for a joker."""
        return None if self >= SMALL_JOKER else SUITS[self // 13]

    @property
    def suit_index(self) -> int:
        """0–3 for S H C D; 4 for jokers."""
        return 4 if self >= SMALL_JOKER else self // 13

    @property
    def rank(self) -> str:
        """'2' … 'A', or 'BJ' / 'RJ'."""
        return _RANK_TEXT[self]

    @property
    def rank_index(self) -> int:
        """0–12 for '2' … 'A'; 13 for BJ, 14 for RJ."""
        return _RANK_INDEX[self]

    def __str__(self) -> str:
        return _CODES[self]

    def __repr__(self) -> str:
        return f"Card('{_CODES[self]}')"

    def __reduce__(self):
        return (Card, (int(self),))


_CODES: tuple[str, ...] = tuple(s + r for s in SUITS for r in RANKS) + ("BJ", "RJ")
_RANK_TEXT: tuple[str, ...] = tuple(r for _ in SUITS for r in RANKS) + ("BJ", "RJ")
_RANK_INDEX: tuple[int, ...] = tuple(i for _ in SUITS for i in range(13)) + (13, 14)
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(NUM_CARD_KINDS))
CODE_TO_CARD: dict[str, Card] = {code: card for code, card in zip(_CODES, CARDS)}


def card_of(suit: str, rank: str) -> Card:
    """The card of a suit letter and rank text (rank 'BJ'/'RJ' ignores the suit)."""
    if rank in ("BJ", "RJ"):
        return CODE_TO_CARD[rank]
    return CARDS[SUITS.index(suit) * 13 + RANKS.index(rank)]


def rank_index(rank: str) -> int:
    """'2' → 0 … 'A' → 12, 'BJ' → 13, 'RJ' → 14; also accepts '10'."""
    if rank == "10":
        return 8
    if rank == "BJ":
        return 13
    if rank == "RJ":
        return 14
    i = RANKS.find(rank.upper()) if len(rank) == 1 else -1
    if i < 0:
        raise CardParseError(f"not a rank: {rank!r} (expected 2-9, T/10, J, Q, K, A)")
    return i


# ---------------------------------------------------------------------------------------------
# Parsing

_SUIT_ALIASES = {"S": 0, "H": 1, "C": 2, "D": 3, "♠": 0, "♥": 1, "♣": 2, "♦": 3,
                 "♤": 0, "♡": 1, "♧": 2, "♢": 3}
_RANK_PATTERN = r"(?:10|[2-9TJQKA])"
_SUIT_PATTERN = r"[SHCD♠♥♣♦♤♡♧♢]"
_TOKEN = re.compile(
    rf"(?P<joker>BJ|RJ|小王|大王)"
    rf"|(?P<s1>{_SUIT_PATTERN})(?P<r1>{_RANK_PATTERN})"
    rf"|(?P<r2>{_RANK_PATTERN})(?P<s2>{_SUIT_PATTERN})"
)
_SEPARATORS = re.compile(r"[\s,;]+")
_JOKER_ALIASES = {"BJ": SMALL_JOKER, "RJ": BIG_JOKER, "小王": SMALL_JOKER, "大王": BIG_JOKER}


def _card_from_match(m: re.Match) -> Card:
    if m.group("joker"):
        return CARDS[_JOKER_ALIASES[m.group("joker")]]
    suit = m.group("s1") or m.group("s2")
    rank = m.group("r1") or m.group("r2")
    return CARDS[_SUIT_ALIASES[suit] * 13 + rank_index(rank)]


def parse_card(text: str) -> Card:
    """One card: 'SA', 'S10', '♠A', 'A♠', 'BJ', '小王' …"""
    cards = parse_cards(text)
    if len(cards) != 1:
        raise CardParseError(f"expected one card, got {len(cards)} in {text!r}")
    return cards[0]


def parse_cards(text: str) -> list[Card]:
    """Cards from text. Tokens may be separated by spaces or commas or written
    back to back ('SAHKBJ'). Raises CardParseError naming the first bad token."""
    if not isinstance(text, str):
        raise CardParseError(f"expected card text, got {type(text).__name__}")
    norm = text.upper()
    cards: list[Card] = []
    pos = 0
    n = len(norm)
    while pos < n:
        sep = _SEPARATORS.match(norm, pos)
        if sep:
            pos = sep.end()
            continue
        m = _TOKEN.match(norm, pos)
        if m is None:
            source = text if len(text) == n else norm
            bad = _SEPARATORS.split(source[pos:], maxsplit=1)[0]
            raise CardParseError(f"bad card {bad!r} in {text!r}")
        cards.append(_card_from_match(m))
        pos = m.end()
    return cards


CardsLike = Union[str, Iterable["Card | int | str"], np.ndarray]


def as_cards(cards: CardsLike) -> list[Card]:
    """Accept text, an iterable of cards/indices/codes, or a count vector."""
    if isinstance(cards, str):
        return parse_cards(cards)
    if isinstance(cards, np.ndarray) and cards.shape == (NUM_CARD_KINDS,):
        return from_counts(cards)
    return [c if type(c) is Card else Card(c) for c in cards]


def format_cards(cards: Iterable[Card]) -> str:
    """Space-separated notation, in the order given."""
    return " ".join(_CODES[c] for c in cards)


def codes(cards: Iterable[Card]) -> tuple[str, ...]:
    """Card codes for event payloads and logs."""
    return tuple(_CODES[c] for c in cards)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Canonical order: by rank (2 … A, then BJ, RJ), then suit S H C D."""
    return sorted(cards, key=_rank_then_suit)


def _rank_then_suit(card: int) -> int:
    return _RANK_INDEX[card] * 5 + (4 if card >= SMALL_JOKER else card // 13)


# ---------------------------------------------------------------------------------------------
# Count vectors

def to_counts(cards: CardsLike) -> np.ndarray:
    """A count vector (int8, length 54) of the cards."""
    if isinstance(cards, np.ndarray) and cards.shape == (NUM_CARD_KINDS,):
        return cards.astype(np.int8, copy=True)
    vec = np.zeros(NUM_CARD_KINDS, dtype=np.int8)
    for c in as_cards(cards):
        vec[c] += 1
    return vec


def from_counts(counts: "np.ndarray | Iterable[int]") -> list[Card]:
    """The cards of a count vector, in canonical order."""
    out: list[Card] = []
    for i, n in enumerate(counts):
        if n < 0:
            raise ValueError(f"negative count for {_CODES[i]}")
        out.extend([CARDS[i]] * int(n))
    return sort_cards(out)


def count_list(cards: Iterable[int]) -> list[int]:
    """A plain-list count vector (the hot paths index lists faster than arrays)."""
    vec = [0] * NUM_CARD_KINDS
    for c in cards:
        vec[c] += 1
    return vec


def full_deck(decks: int = 2) -> list[Card]:
    """Every card of ``decks`` packs, in index order (two copies each for two decks)."""
    return [card for card in CARDS for _ in range(decks)]


def without(cards: Iterable[Card], taken: Iterable[Card]) -> list[Card]:
    """Multiset difference: ``cards`` less one copy of each card in ``taken`` (a card not
    among ``cards`` is ignored)."""
    out = list(cards)
    for c in taken:
        if c in out:
            out.remove(c)
    return out


def holds(counts: "list[int]", cards: Iterable[int]) -> bool:
    """Whether a count vector holds every card of ``cards`` (copies counted)."""
    need = count_list(cards)
    return all(need[i] <= counts[i] for i in range(NUM_CARD_KINDS) if need[i])
