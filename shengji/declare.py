"""Declaring trump during the draw (亮主, 反主, 加固): shengji.md §2 as pure functions.

A declaration is the cards a seat shows:

    strength 1  one level card              trump = its suit
    strength 2  a pair of identical level cards (same suit)
    strength 3  a pair of small jokers      no-trump (无主)
    strength 4  a pair of big jokers        no-trump

A single joker, or two level cards of different suits, never declare. A new declaration
stands only if it is stronger than the standing one; two level pairs have equal strength
and do not override each other unless ``rules.pair_vs_pair == "higher_suit"`` (suit order
S > H > C > D). A seat may not overcall itself, except to reinforce its own standing
single into the pair of the same card (加固); partners may overcall each other.

Hands here are count lists (length 54, indexed by card); levels are rank indices 0–12.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from tabletop.cards import BIG_JOKER, CARDS, SMALL_JOKER, SUITS, Card, as_cards, sort_cards

SINGLE, LEVEL_PAIR, SMALL_JOKER_PAIR, BIG_JOKER_PAIR = 1, 2, 3, 4
SUIT_ORDER = "SHCD"
"""pair_vs_pair = "higher_suit": a level pair overrides a level pair of a later suit here."""

NOT_A_DECLARATION = ("a declaration shows one level card, a pair of identical level cards, "
                     "or a pair of identical jokers")


def strength(cards: Sequence[int], level: int) -> int:
    """1–4 as in the module docstring, or 0 when the cards cannot declare."""
    if len(cards) == 1:
        card = cards[0]
        return SINGLE if card < SMALL_JOKER and card % 13 == level else 0
    if len(cards) == 2 and cards[0] == cards[1]:
        card = cards[0]
        if card == SMALL_JOKER:
            return SMALL_JOKER_PAIR
        if card == BIG_JOKER:
            return BIG_JOKER_PAIR
        return LEVEL_PAIR if card % 13 == level else 0
    return 0


def trump_of(cards: Sequence[int]) -> str | None:
    """The trump a valid declaration names: a suit letter, or None for no-trump (jokers)."""
    card = cards[0]
    return None if card >= SMALL_JOKER else SUITS[card // 13]


@attrs.frozen
class Declaration:
    """A declaration that was shown: who, with which cards (canonical order)."""

    seat: int
    cards: tuple[Card, ...] = attrs.field(converter=lambda c: tuple(sort_cards(as_cards(c))))

    @property
    def trump(self) -> str | None:
        return trump_of(self.cards)

    @property
    def is_single(self) -> bool:
        return len(self.cards) == 1


def why_not_overcall(
    seat: int, cards: Sequence[int], level: int, standing: Declaration | None, pair_vs_pair: str = "no",
) -> str | None:
    """Why showing ``cards`` by ``seat`` does not stand over ``standing`` (None: it does).
    Holding the cards is the caller's business."""
    new = strength(cards, level)
    if new == 0:
        return NOT_A_DECLARATION
    if standing is None:
        return None
    old = strength(standing.cards, level)
    if standing.seat == seat:
        if old == SINGLE and new == LEVEL_PAIR and cards[0] == standing.cards[0]:
            return None
        return "a seat may only reinforce its own declaration (its single into the pair of the same card)"
    if new > old:
        return None
    if new == old == LEVEL_PAIR and pair_vs_pair == "higher_suit":
        # standing is a level pair, with its trump suit (mypy cannot tie it to old)
        if SUIT_ORDER.index(trump_of(cards)) < SUIT_ORDER.index(standing.trump):  # type: ignore[arg-type]
            return None
        return f"a level pair overrides a level pair only of a lower suit (order {' > '.join(SUIT_ORDER)})"
    if new == old == LEVEL_PAIR:
        return "a pair does not override another pair"
    if new == old == SINGLE:
        return "a single does not override a single"
    return "not stronger than the standing declaration"


def declaration_options(
    counts: Sequence[int], level: int, seat: int, standing: Declaration | None, pair_vs_pair: str = "no",
) -> list[tuple[Card, ...]]:
    """Every declaration ``seat`` can show with its hand (count list) that would stand:
    singles and pairs of level cards, joker pairs. Empty when it can do nothing."""
    out: list[tuple[Card, ...]] = []
    old = 0 if standing is None else strength(standing.cards, level)
    mine = standing is not None and standing.seat == seat
    if mine and standing is not None:
        # Only 加固: the standing single into the pair of the same card.
        shown = standing.cards[0]
        if old == SINGLE and counts[shown] >= 2:
            out.append((CARDS[shown], CARDS[shown]))
        return out
    if old >= BIG_JOKER_PAIR:
        return out
    for suit in range(4):
        card = suit * 13 + level
        n = counts[card]
        if n >= 1 and old == 0:
            out.append((CARDS[card],))
        if n >= 2 and (old < LEVEL_PAIR or (
                old == LEVEL_PAIR and pair_vs_pair == "higher_suit"
                # old == LEVEL_PAIR: standing is a level pair, with its trump suit
                and SUIT_ORDER.index(SUITS[suit]) < SUIT_ORDER.index(standing.trump))):  # type: ignore[union-attr,arg-type]
            out.append((CARDS[card], CARDS[card]))
    if counts[SMALL_JOKER] >= 2 and old < SMALL_JOKER_PAIR:
        out.append((CARDS[SMALL_JOKER], CARDS[SMALL_JOKER]))
    if counts[BIG_JOKER] >= 2:
        out.append((CARDS[BIG_JOKER], CARDS[BIG_JOKER]))
    return out


DECLARING: tuple[tuple[bool, ...], ...] = tuple(
    tuple(card >= SMALL_JOKER or card % 13 == level for card in range(54)) for level in range(13))
"""By level, by card index: whether the card is one a declaration can show (a level card or
a joker). ``can_declare`` reads only those counts, so drawing any other card leaves its
answer as it was."""


def can_declare(counts: Sequence[int], level: int, seat: int, standing: Declaration | None, pair_vs_pair: str = "no") -> bool:
    """Whether ``declaration_options`` is non-empty (the draw's hot path asks this after
    every card, so the common "nothing to show" answer is found without building lists)."""
    if standing is None:
        return (counts[level] or counts[13 + level] or counts[26 + level] or counts[39 + level]
                or counts[SMALL_JOKER] >= 2 or counts[BIG_JOKER] >= 2) > 0
    # a declaration stands: only a pair can do anything now
    if (counts[level] < 2 and counts[13 + level] < 2 and counts[26 + level] < 2 and counts[39 + level] < 2
            and counts[SMALL_JOKER] < 2 and counts[BIG_JOKER] < 2):
        return False
    return bool(declaration_options(counts, level, seat, standing, pair_vs_pair))


def flip_kitty(kitty: Sequence[int], level: int) -> tuple[str | None, int]:
    """Nobody declared (no_bid = "flip_kitty"): the kitty is turned up one card at a time.

    The first level card turned sets trump to its suit and the turning stops there.
    Without a level card all cards are turned and the highest one sets trump: highest by
    natural rank (2 low … A, then small joker, big joker), ties to the card turned first;
    a joker as the highest card means no-trump. Returns (trump or None, cards turned)."""
    best = -1
    best_card = None
    for turned, card in enumerate(kitty, start=1):
        if card < SMALL_JOKER and card % 13 == level:
            return SUITS[card // 13], turned
        rank = card % 13 if card < SMALL_JOKER else 13 + card - SMALL_JOKER
        if rank > best:
            best, best_card = rank, card
    if best_card is None:
        raise ValueError("cannot flip an empty kitty")
    return (None if best_card >= SMALL_JOKER else SUITS[best_card // 13]), len(kitty)
