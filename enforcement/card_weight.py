"""双升 penalty-card weight, heavy or light (the rulebook's heavy penalty cards, 重罚张; seed 001
第三条 (三)): exposed heavy cards cost 10 points (SJ-3.1.3), light ones a warning (SJ-1.3).

Heavy (重罚张): big joker, small joker, every level card (the trump one 主级牌 and the off-suit
ones 副级牌), A, K, 10, 5, QQ and JJ (two identical Q / J), any tractor among the cards, and —
only with the ``special_small_pairs`` option (PD, off by default) — a pair of a suit in which
the holder's partner or an opponent has shown void. Light (轻罚张): everything else; e.g. at
level 2, an exposed 3, 4, 6, 7 or 8.

Tractors: pass ``is_tractor`` (a predicate on a list of four cards: two pairs) to use the
engine's own tractor rule, e.g. ``lambda cs: units.is_tractor(cs, ctx)`` from shengji.units, so
rule variants (permanent twos) agree. Without it the standard trump order (双升 rules §4-5)
is used. Any tractor contains a tractor of two adjacent pairs, so checking every two
pairs finds them all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from itertools import combinations

from tabletop.cards import SMALL_JOKER, BIG_JOKER, Card, CardsLike, as_cards, rank_index, sort_cards

_HEAVY_RANKS = frozenset(rank_index(r) for r in ("A", "K", "T", "5"))
_HEAVY_PAIR_RANKS = frozenset(rank_index(r) for r in ("Q", "J"))
_SUITS = "SHCD"

TractorPredicate = Callable[[Sequence[Card]], bool]


def heavy_cards(
    cards: CardsLike,
    level: str | int,
    trump: str | None,
    *,
    is_tractor: TractorPredicate | None = None,
    special_small_pairs: bool = False,
    void_suits: Collection[str] = (),
) -> list[Card]:
    """The cards (canonical order, with repeats) that make an exposure heavy: heavy single
    cards, both cards of a QQ/JJ, the cards of every tractor, and with ``special_small_pairs``
    both cards of a pair whose effective suit ('S','H','C','D', 'T' for trump) is in
    ``void_suits``. An empty list means the cards are light."""
    hand = as_cards(cards)
    lvl = _level_index(level)
    _check_trump(trump)
    counts = Counter(hand)
    heavy: Counter[Card] = Counter()
    for card, n in counts.items():
        if card >= SMALL_JOKER or card.rank_index == lvl or card.rank_index in _HEAVY_RANKS:
            heavy[card] = n
    pairs = sorted(card for card, n in counts.items() if n >= 2)
    for card in pairs:
        if card.rank_index in _HEAVY_PAIR_RANKS:
            heavy[card] = counts[card]
    predicate = is_tractor or (lambda four: _standard_tractor(four, lvl, trump))
    for a, b in combinations(pairs, 2):
        if predicate([a, a, b, b]):
            heavy[a] = counts[a]
            heavy[b] = counts[b]
    if special_small_pairs and void_suits:
        voids = set(void_suits)
        for card in pairs:
            if _effective_suit(card, lvl, trump) in voids:
                heavy[card] = counts[card]
    return sort_cards(heavy.elements())


def is_heavy(
    cards: CardsLike,
    level: str | int,
    trump: str | None,
    *,
    is_tractor: TractorPredicate | None = None,
    special_small_pairs: bool = False,
    void_suits: Collection[str] = (),
) -> bool:
    """True when the cards contain any heavy penalty card or heavy combination."""
    return bool(heavy_cards(cards, level, trump, is_tractor=is_tractor,
                            special_small_pairs=special_small_pairs, void_suits=void_suits))


def _level_index(level: str | int) -> int:
    if isinstance(level, str):
        return rank_index(level)
    if isinstance(level, int) and not isinstance(level, bool) and 0 <= level <= 12:
        return level
    raise ValueError(f"level must be a rank ('2' … 'A') or index 0-12, got {level!r}")


def _check_trump(trump: str | None) -> None:
    if trump is not None and (not isinstance(trump, str) or len(trump) != 1 or trump not in _SUITS):
        raise ValueError(f"trump must be one of S, H, C, D or None (no-trump), got {trump!r}")


def _effective_suit(card: Card, level: int, trump: str | None) -> str:
    if card >= SMALL_JOKER or card.rank_index == level or card.suit == trump:
        return "T"
    return card.suit  # type: ignore[return-value]  # not a joker: it has a suit


def _order(card: Card, level: int, trump: str | None) -> int:
    """Standard order within the card's effective suit (shengji.md §4): ranks 2…A with the
    level skipped, then off-suit level cards (all equal), the trump-suit level card, the
    small joker and the big joker."""
    if card == BIG_JOKER:
        return 15 if trump is not None else 14
    if card == SMALL_JOKER:
        return 14 if trump is not None else 13
    r = card.rank_index
    if r == level:
        return 13 if card.suit == trump else 12
    return r - 1 if r > level else r


def _standard_tractor(four: Sequence[Card], level: int, trump: str | None) -> bool:
    a, b = four[0], four[2]
    if a == b or four[1] != a or four[3] != b:
        return False
    suit = _effective_suit(a, level, trump)
    if _effective_suit(b, level, trump) != suit:
        return False
    return abs(_order(a, level, trump) - _order(b, level, trump)) == 1
