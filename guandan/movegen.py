"""掼蛋 move generation: every legal play from a hand, and why a given play is illegal.

A play is ``Move(cards, reading)``: the same cards with another reading are another move.
Passing is not a Move (the deal adds it).

Default mode lists each reading once per number of wilds it uses (``combos.wilds_used``:
wilds standing for another card; a wild in a level-rank place stands for itself, for a
straight flush only in the heart level place), with one deterministic choice of cards:
- never a wild where a natural card serves: a level-rank place takes the ♠ ♣ ♦ level cards
  before a heart level card (wild) as itself, and a full house first minimises the wild
  cards it holds (so S9 C9 D9 BJ BJ, not S9 C9 D9 H7 H7 at level 7);
- the natural cards of a rank are taken in suit order S H C D (duplicates together);
- a full house then takes the lowest pair in power order (level-aware, joker pairs last)
  and, when a wild could sit in the triple or in the pair, puts it in the pair;
- a sequence using more wilds than its gaps need puts the extra wilds in the highest
  places (the high natural cards stay in hand).
``expand_suits=True`` lists every distinct (cards, reading) instead.

Order: non-bomb kinds in ``Kind`` order, each by increasing key, then the bombs up the
ladder (4, 5, straight flush, 6 … 10, joker bomb); equal strength by reading (straight
flush suits S H C D), then fewer wilds used.

Speed: a hand is analysed once per (counts, level, option) and kept in a bounded LRU
cache; its moves are listed per comparison class on first use and kept sorted by strength,
so following a top play is a bisection in one kind's list plus the bombs above it.
Generation works on per-rank counts and bit masks of held ranks, never on subsets of cards.
A class is listed as recipes (reading, how to make the cards): engines use ``plays``, a
lazy sequence that makes the cards of the moves looked at only (a random agent looks at
one); ``legal_plays`` makes them all (and keeps them for the next call on the hand).
"""

from __future__ import annotations

from typing import Any

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import product
from typing import NamedTuple, overload

import numpy as np

from tabletop.cards import CARDS, Card, CardsLike, as_cards, format_cards, sort_cards
from tabletop.errors import CardParseError

from guandan.combos import (
    BOMB_CLASS, BOMBS, FULL_HOUSES, JOKER_BOMB, PAIRS, PLATES, SEQUENCE_LENGTH, SEQUENCE_WIDTH,
    SINGLES, STRAIGHT_FLUSHES, STRAIGHTS, TRIPLES, TUBES, VALUES, Kind, Reading, as_level,
    as_reading, card_counts, rank_of_position, readings, sequence_starts, why_not_beats,
)

SMALL_JOKER = 52
BIG_JOKER = 53
HAND_CACHE_SIZE = 512
"""Hands kept analysed (a deal has four live hands; each costs ~10 kB)."""


class Move(NamedTuple):
    """A play: ``cards`` in canonical order (``sort_cards``) read as ``reading``."""

    cards: tuple[Card, ...]
    reading: Reading

    def __str__(self) -> str:
        return f"{format_cards(self.cards)} as {self.reading.code}"


Recipe = tuple[Reading, Callable[..., tuple[Card, ...]], tuple]
"""A move not made yet: ``(reading, make, args)``, its cards ``make(hand, *args)``."""


# ---------------------------------------------------------------------------------------------
# Public API

def legal_plays(hand: CardsLike, top: object, level: "str | int", *, expand_suits: bool = False,
                rules: Any = None) -> list[Move]:
    """Every play from ``hand`` that may be made on ``top`` (a Reading, a reading code,
    or anything with a ``.reading``; None to lead). Passing is not a Move."""
    h = _analysed(_counts_key(hand), as_level(level), _joker_pair(rules))
    on = None if top is None else as_reading(top)
    if expand_suits:
        return h.expanded(on)
    if on is None:
        out: list[Move] = []
        for comparison_class in range(BOMB_CLASS + 1):
            out += h.class_moves(comparison_class)
        return out
    c = on.comparison_class
    above = h.class_moves(c)[h.first_above(c, on):]
    if c == BOMB_CLASS:
        return above
    return above + h.class_moves(BOMB_CLASS)


def plays(counts: "list[int] | tuple[int, ...]", top: Reading | None, level: int, rules: Any = None) -> "Plays":
    """The plays of ``legal_plays`` (same moves, same order) for an engine: the hand as a
    54-count list, ``top`` a Reading or None, ``level`` an index. The moves' cards are made
    only for the moves looked at (``Plays[i]``)."""
    return _analysed(bytes(counts), level, _joker_pair(rules)).plays(top)


def analysed_hand(counts: "list[int] | tuple[int, ...]", level: int, rules: Any = None,
                  shrunk_from: "_Hand | None" = None) -> "_Hand":
    """The analysed hand ``plays`` lists from (its ``plays(top)`` is ``plays(counts, top,
    level, rules)``): an engine keeps it while the hand is unchanged, so a decision on an
    unchanged hand skips the hand's key and the cache look-up. ``shrunk_from``: an analysed
    hand holding every card of this one (the hand before its last plays): the classes it
    has no play of are not looked for again."""
    hand = _analysed(bytes(counts), level, _joker_pair(rules))
    if shrunk_from is not None:
        hand.none_where_none(shrunk_from)
    return hand


class Plays(Sequence[Move]):
    """Legal plays listed lazily: a read-only sequence of ``Move`` whose cards are made
    when a move is looked at. ``segments``: (comparison class, its recipes, first index)
    of the hand's lists, in listing order. Going through all of them makes (and keeps, in
    the hand) every move of the classes, as ``legal_plays`` does."""

    __slots__ = ("hand", "segments", "_len")

    def __init__(self, hand: "_Hand", segments: tuple[tuple[int, list[Recipe], int], ...],
                 length: int) -> None:
        self.hand = hand
        self.segments = segments
        self._len = length  # of the segments together

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        i = index + self._len if index < 0 else index
        if not 0 <= i < self._len:
            raise IndexError("play index out of range")
        made = self.made(i)
        return made if type(made) is Move else _new(Move, made)

    def made(self, i: int) -> tuple[tuple[Card, ...], Reading]:
        """The cards and reading of play ``i`` (0 <= i < len), its Move if it was made
        already: what ``guandan.legal`` builds a Play from without a Move in between."""
        for comparison_class, recipes, first in self.segments:
            n = len(recipes) - first
            if i < n:
                made = self.hand._moves.get(comparison_class)
                if made is not None:
                    return made[first + i]
                reading, make, args = recipes[first + i]
                return make(self.hand, *args), reading
            i -= n
        raise AssertionError("unreachable")

    def __iter__(self):
        for comparison_class, _, first in self.segments:
            yield from self.hand.class_moves(comparison_class)[first:]

    def __repr__(self) -> str:
        return f"Plays({self._len} moves)"

    def __reduce__(self) -> tuple[Any, ...]:
        # Written out (not the slots' default): compiled builds make this a native class,
        # which pickles and deep-copies only through an explicit reduce.
        return (Plays, (self.hand, self.segments, self._len))


def recipe_keys(*recipe_lists: Sequence[Recipe], base: int = 0) -> list[int]:
    """Per recipe (of every list, in order), ``base`` + 3 × its reading's id + the heart
    level cards (wild cards, standing in or as themselves) its play holds, read without
    making the cards: what ``paiju.envs`` keys a play by. The second part is
    ``make(...).count(wild card)``."""
    jokers, joker_bomb, joker_house = _Hand.jokers, _Hand.joker_bomb, _Hand.joker_house
    # the common case first: a play made of ranks holds its wild count as its last argument
    return [base + 3 * reading.id + (args[-1] if make is not jokers and make is not joker_bomb
                                     and make is not joker_house else args[2] if make is joker_house else 0)
            for recipes in recipe_lists for reading, make, args in recipes]


def why_illegal_play(hand: CardsLike, cards: CardsLike, reading: "Reading | str", top: "Reading | str | None", level: "str | int",
                     rules: Any = None) -> str | None:
    """None when playing ``cards`` read as ``reading`` on ``top`` (None: leading) is legal,
    else a one-line reason."""
    level = as_level(level)
    play = as_cards(cards)
    if not play:
        return "no cards (a pass is not a play)"
    have = card_counts(hand)
    want = card_counts(play)
    missing = [CARDS[i] for i in range(54) for _ in range(max(0, want[i] - have[i]))]
    if missing:
        return f"cards not in hand: {format_cards(sort_cards(missing))}"
    try:
        reading = as_reading(reading)
    except CardParseError as exc:
        return str(exc)
    shown = format_cards(sort_cards(play))
    found = readings(play, level, rules)
    if not found:
        return f"not a combination: {shown}"
    if reading not in found:
        return (f"{shown} cannot be read as {reading.code} "
                f"(it reads as {', '.join(r.code for r in found)})")
    if top is None:
        return None
    return why_not_beats(reading, as_reading(top), level)


def is_legal_play(hand: CardsLike, cards: CardsLike, reading: "Reading | str", top: "Reading | str | None", level: "str | int",
                  rules: Any = None) -> bool:
    return why_illegal_play(hand, cards, reading, top, level, rules) is None


def clear_cache() -> None:
    """Forget analysed hands (for benchmarks)."""
    _analysed.cache_clear()
    _TUPLE_KEYS.clear()


# ---------------------------------------------------------------------------------------------
# Hand analysis

def _joker_pair(rules: Any) -> bool:
    return True if rules is None else bool(rules.joker_pair_in_full_house)


def _counts_key(hand: Any) -> bytes:
    """The hand as 54 counts in bytes (the cache key: hashed and compared at C speed).
    Tuples of cards are remembered, so asking again about an unchanged hand costs one dict
    look-up."""
    if type(hand) is tuple:
        key = _TUPLE_KEYS.get(hand)
        if key is None:
            if len(_TUPLE_KEYS) >= HAND_CACHE_SIZE:
                _TUPLE_KEYS.clear()
            key = _TUPLE_KEYS[hand] = _count(hand)
        return key
    if isinstance(hand, np.ndarray) and hand.shape == (54,):
        return bytes(hand.tolist())
    if isinstance(hand, str):
        hand = as_cards(hand)
    elif not isinstance(hand, (list, tuple)):
        hand = list(hand)
    return _count(hand)


def _count(cards: Any) -> bytes:
    counts = bytearray(54)
    if cards and type(cards[0]) is Card:  # a hand of Cards: no checks
        try:
            for c in cards:
                counts[c] += 1
            return bytes(counts)
        except TypeError:
            counts = bytearray(54)
    for c in cards:
        counts[Card(c)] += 1
    return bytes(counts)


_TUPLE_KEYS: dict[tuple, bytes] = {}


@lru_cache(maxsize=HAND_CACHE_SIZE)
def _analysed(counts: bytes, level: int, joker_pair: bool) -> "_Hand":
    return _Hand(counts, level, joker_pair)


_POWER_ORDER = tuple(tuple([r for r in range(13) if r != level] + [level]) for level in range(13))
_WINDOWS = {kind: tuple(tuple(rank_of_position(q) for q in range(p, p + SEQUENCE_LENGTH[kind]))
                        for p in sequence_starts(kind))
            for kind in (Kind.STRAIGHT, Kind.TUBE, Kind.PLATE)}
_SORTED_WINDOWS = {kind: tuple(tuple(sorted(w)) for w in ws) for kind, ws in _WINDOWS.items()}


def _release_order(window: tuple[int, ...]) -> tuple[int, ...]:
    ordered = sorted(window)
    return tuple(sorted(range(len(window)), key=lambda i: -window.index(ordered[i])))


_RELEASE_ORDER = {kind: tuple(_release_order(w) for w in ws) for kind, ws in _WINDOWS.items()}
"""Indices into the sorted window, highest sequence position first."""
_LEVEL_PLACE = {kind: tuple(tuple(w.index(level) if level in w else -1 for w in ws)
                             for level in range(13))
                for kind, ws in _SORTED_WINDOWS.items()}
"""_LEVEL_PLACE[kind][level][start]: index of the level rank in the sorted window, or -1."""
_new = tuple.__new__  # Move(cards, reading) without the NamedTuple wrapper call
_PREFIXES: tuple[list[dict], ...] = tuple([{} for _ in range(13)] for _ in range(2))
"""_PREFIXES[is_level][rank][bytes((n♠, n♥, n♣, n♦))]: the prefixes of the rank's natural cards."""
_AT_LEAST = {k: bytes([48] * k + [49] * (256 - k)) for k in range(5)}
"""bytes.translate tables: a count below k → '0', else '1' (then ``int(text, 2)``)."""
_NONZERO = _AT_LEAST[1]
_SUIT_BYTES = (1 << 104) - 1
"""The 13 bytes of one suit, in a hand's counts read as one int (byte i = card i)."""
_SEQUENCE_KINDS = (Kind.STRAIGHT, Kind.TUBE, Kind.PLATE)
"""Sequence kinds by their index in the recipe keys (an int hashes faster than an Enum)."""
_SEQUENCE_READINGS = (STRAIGHTS, TUBES, PLATES)
_RECIPES: dict[tuple, tuple[Recipe, ...]] = {}


def _recipes(key: tuple) -> tuple[Recipe, ...]:
    """For one sequence window and the pattern of held ranks in it: the recipes (cards:
    natural cards per place in rank order, then physical wilds) for each number of wilds
    used, fewest first. Memoised: the key is (kind index, start, held≥1 bits, held≥2 bits,
    held≥3 bits, level place, wilds), a few ten thousand keys at most."""
    k, p, bits1, bits2, bits3, level_place, wilds = key
    kind = _SEQUENCE_KINDS[k]
    width = SEQUENCE_WIDTH[kind]
    window = _WINDOWS[kind][p]
    ranks = _SORTED_WINDOWS[kind][p]
    reading = _SEQUENCE_READINGS[k][p]
    caps = []  # natural cards per place (capped at the width), places in rank order
    for r in ranks:
        q = window.index(r)  # place in sequence order = bit of the masks
        caps.append((bits1 >> q & 1) + (bits2 >> q & 1) + (bits3 >> q & 1))
    gaps = movable = as_itself = 0
    for i, n in enumerate(caps):
        if i == level_place:
            as_itself = width - n  # heart level cards in the level place, as themselves
        else:
            gaps += width - n
            movable += n
    out = []
    for w in range(gaps, min(wilds - as_itself, gaps + movable) + 1):
        takes = list(caps)
        extra = w - gaps
        for i in _RELEASE_ORDER[kind][p]:  # extra wilds replace the highest naturals
            if not extra:
                break
            if i != level_place and takes[i]:
                drop = min(takes[i], extra)
                takes[i] -= drop
                extra -= drop
        out.append((reading, _Hand.assemble, (ranks, tuple(takes), w + as_itself)))
    got = _RECIPES[key] = tuple(out)
    return got


_NO_PLACE = (-1,) * 10
_SEQUENCE_SHAPES = tuple((SEQUENCE_WIDTH[kind], SEQUENCE_LENGTH[kind], (1 << SEQUENCE_LENGTH[kind]) - 1,
                          _LEVEL_PLACE[kind]) for kind in _SEQUENCE_KINDS)
"""Per sequence kind index k: (width, length, window bit mask, _LEVEL_PLACE[kind]), read
without hashing the Kind enum (its Python-level ``__hash__`` showed in profiles)."""
_STRAIGHT_PLACES = _LEVEL_PLACE[Kind.STRAIGHT]
_FLUSH_ENTRIES: dict[tuple[int, int, int, int, int], tuple[tuple[int, int, int, Recipe], ...]] = {}


def _flush_entries(key: tuple[int, int, int, int, int]) -> tuple[tuple[int, int, int, Recipe], ...]:
    """(value, reading id, wilds used, recipe) of the straight flushes of suit s in the
    window starting at position p, when the suit holds the ranks ``bits`` of the window
    (bit i: its i-th position) and the hand ``wilds`` wilds; ``level_place``: the heart
    level place in the window, or -1. Memoised: 4 × 10 × 32 × 2 × 3 keys at most."""
    s, p, bits, level_place, wilds = key
    reading = STRAIGHT_FLUSHES[s][p]
    value = VALUES[0][reading.id]  # a straight flush's value does not depend on the level
    got = _FLUSH_ENTRIES[key] = tuple(
        (value, reading.id, w, (reading, _Hand.flush_cards, (13 * s, ranks, nwild)))
        for w, ranks, nwild in _flush_recipes(p, bits, level_place, wilds))
    return got


def _flush_recipes(p: int, bits: int, level_place: int, wilds: int) -> list[tuple[int, tuple[int, ...], int]]:
    """For one straight-flush window and the suit's held ranks in it: (wilds used, ranks
    of the natural cards in rank order, physical wilds), fewest wilds first. ``level
    place`` is the heart level place (a wild there stands as itself) or -1."""
    window = _WINDOWS[Kind.STRAIGHT][p]
    ranks = _SORTED_WINDOWS[Kind.STRAIGHT][p]
    held = [r for r in ranks if bits >> window.index(r) & 1]
    as_itself = 1 if level_place >= 0 else 0
    gaps = 5 - len(held) - as_itself
    by_height = sorted(held, key=window.index)  # sequence order: the low A first
    out = []
    for w in range(gaps, min(wilds - as_itself, gaps + len(held)) + 1):
        keep = set(by_height[:len(held) - (w - gaps)])  # extra wilds replace the highest
        out.append((w, tuple(r for r in ranks if r in keep), w + as_itself))
    return out


_WINDOW_STARTS: dict[int, tuple[int, ...]] = {}


def _windows(mask: int, length: int, missing: int) -> tuple[int, ...]:
    """Start positions of the ``length``-rank windows (positions 0 … 14 - length) missing
    at most ``missing`` of the positions set in ``mask`` (memoised: 3 × 3 × 2^14 keys at
    most)."""
    key = (mask << 4 | length) << 2 | missing
    got = _WINDOW_STARTS.get(key)
    if got is None:
        full = (1 << length) - 1
        got = _WINDOW_STARTS[key] = tuple(
            p for p in range(15 - length) if length - (mask & full << p).bit_count() <= missing)
    return got


def _prefixes(r: int, is_level: bool, suit_counts: bytes) -> tuple[tuple[Card, ...], ...]:
    """For rank r: the first k natural (non-wild) cards in suit order, for every k."""
    cards: list[Card] = []
    for s in range(4):
        if not (is_level and s == 1):
            cards += [CARDS[13 * s + r]] * suit_counts[s]
    got = _PREFIXES[is_level][r][suit_counts] = tuple(tuple(cards[:k]) for k in range(len(cards) + 1))
    return got


def _rank_recipes(kind: int, r: int, n: int, wilds: int, level: int) -> tuple[Recipe, ...]:
    """The singles (kind 0), pairs (1) or triples (2) of rank r with n natural cards, with
    ``wilds`` wilds at ``level``: fewest wilds first; a level rank once, its heart level
    cards standing as themselves."""
    size = kind + 1
    reading = (SINGLES, PAIRS, TRIPLES)[kind][r]
    if r == level:
        if n + wilds < size:
            return ()
        a = min(n, size)
        return ((reading, _Hand.one_rank, (r, a, size - a)),)
    if not n:
        return ()
    return tuple((reading, _Hand.one_rank, (r, size - w, w))
                 for w in range(max(0, size - n), min(wilds, size - 1) + 1))


_RANK_TABLES: dict[tuple[int, int, int], tuple[tuple[tuple[Recipe, ...], ...], ...]] = {}


def _rank_table(kind: int, level: int, wilds: int) -> tuple[tuple[tuple[Recipe, ...], ...], ...]:
    """For singles, pairs or triples at ``level`` with ``wilds`` wilds: per rank in power
    order, per natural count (0-8), the rank's recipes. Memoised (3 × 13 × 3 tables)."""
    got = _RANK_TABLES[kind, level, wilds] = tuple(
        tuple(_rank_recipes(kind, r, n, wilds, level) for n in range(9)) for r in _POWER_ORDER[level])
    return got


_RANK_BOMBS: dict[tuple[int, int, int, int], tuple[tuple[int, int, int, Recipe], ...]] = {}


def _rank_bombs(key: tuple[int, int, int, int]) -> tuple[tuple[int, int, int, Recipe], ...]:
    """(value, reading id, wilds used, recipe) of the bombs of rank r with n natural cards
    and ``wilds`` wilds at ``level``. Memoised: the key is (r, n, wilds, level)."""
    r, n, wilds, level = key
    values = VALUES[level]
    out = []
    if r == level:
        for size in range(4, min(n + wilds, 10) + 1):
            a = min(n, size)
            reading = BOMBS[size][r]
            out.append((values[reading.id], reading.id, 0, (reading, _Hand.one_rank, (r, a, size - a))))
    else:
        for size in range(4, min(n + wilds, 10) + 1):
            reading = BOMBS[size][r]
            for w in range(max(0, size - n), min(wilds, size - 1) + 1):
                out.append((values[reading.id], reading.id, w, (reading, _Hand.one_rank, (r, size - w, w))))
    got = _RANK_BOMBS[key] = tuple(out)
    return got


class _Hand:
    """One hand at one level: natural cards per rank, and the moves listed so far.

    Moves are listed per comparison class as recipes ``(reading, make, args)``: the cards
    are ``make(hand, *args)``, made only for the moves somebody looks at (a random agent
    looks at one of ~70), so listing a class costs little more than deciding its moves."""

    __slots__ = ("counts", "level", "joker_pair", "wild_card", "wilds", "held", "natural",
                 "masks", "_prefixes", "_recipes", "_moves")

    def __init__(self, counts: bytes, level: int, joker_pair: bool) -> None:
        self.counts = counts
        self.level = level
        self.joker_pair = joker_pair
        self.wild_card = CARDS[13 + level]
        self.wilds = counts[13 + level]
        # Natural cards per rank (the heart level cards are wilds): with the counts read as one
        # int, byte i = card i, adding the four 13-byte suits adds up every rank at once.
        cards = int.from_bytes(counts[:52], "little")
        per_rank = ((cards & _SUIT_BYTES) + (cards >> 104 & _SUIT_BYTES) + (cards >> 208 & _SUIT_BYTES)
                    + (cards >> 312) - (self.wilds << 8 * level))
        self.held = held = per_rank.to_bytes(13, "big")  # the A first (for translate masks)
        self.natural = list(held[::-1])
        # Bit r+1 of masks[i]: at least i+1 natural cards of rank r; bit 0 repeats the A (low).
        m1 = int(held.translate(_AT_LEAST[1]), 2) << 1
        m2 = int(held.translate(_AT_LEAST[2]), 2) << 1
        m3 = int(held.translate(_AT_LEAST[3]), 2) << 1
        self.masks = (m1 | (m1 >> 13), m2 | (m2 >> 13), m3 | (m3 >> 13))
        """Bit q of a mask is sequence position q (0 = low A, r+1 = rank r)."""
        self._prefixes: list[tuple[tuple[Card, ...], ...] | None] = [None] * 13  # per rank, made on demand
        self._recipes: list[list[Recipe] | None] = [None] * (BOMB_CLASS + 1)
        self._moves: dict[int, list[Move]] = {}  # by class, for legal_plays

    def __reduce__(self) -> tuple[Any, ...]:
        # A hand is its counts, level and option; what it has listed is kept for reuse only.
        # So a copy (an environment's snapshot, a deal's deep copy) is the analysed hand of
        # this process, as in both builds (compiled, a native class pickles only this way).
        return (_analysed, (self.counts, self.level, self.joker_pair))

    # -- cards (the ``make`` of recipes) -------------------------------------------------

    def rank_prefixes(self, r: int) -> tuple[tuple[Card, ...], ...]:
        """The prefixes of rank r's natural (non-wild) cards in suit order (duplicates
        adjacent): the first k of them for every k. Kept in ``_prefixes`` once looked up
        (``self._prefixes[r] or self.rank_prefixes(r)``: a prefix tuple is never empty)."""
        is_level = r == self.level
        suit_counts = self.counts[r:52:13]
        prefixes = _PREFIXES[is_level][r].get(suit_counts)
        if prefixes is None:
            prefixes = _prefixes(r, is_level, suit_counts)
        self._prefixes[r] = prefixes
        return prefixes

    def rank_cards(self, r: int) -> tuple[Card, ...]:
        """Natural (non-wild) cards of rank r in suit order, duplicates adjacent."""
        return (self._prefixes[r] or self.rank_prefixes(r))[-1]

    def one_rank(self, r: int, k: int, nwild: int) -> tuple[Card, ...]:
        """k natural cards of rank r plus nwild wilds, in canonical order."""
        naturals = (self._prefixes[r] or self.rank_prefixes(r))[k]
        if not nwild:
            return naturals
        level = self.level
        if r < level:
            return naturals + (self.wild_card,) * nwild
        if r > level:
            return (self.wild_card,) * nwild + naturals
        spades = min(k, self.counts[level])
        return naturals[:spades] + (self.wild_card,) * nwild + naturals[spades:]

    def assemble(self, ranks: tuple[int, ...], takes: tuple[int, ...], nwild: int) -> tuple[Card, ...]:
        """Cards of several ranks (in increasing order), takes[i] natural cards of ranks[i],
        plus nwild wilds, in canonical order."""
        level, prefixes = self.level, self._prefixes
        out: tuple[Card, ...] = ()
        for r, k in zip(ranks, takes):
            if nwild and r >= level:
                if r == level:
                    out += self.one_rank(r, k, nwild)
                    nwild = 0
                    continue
                out += (self.wild_card,) * nwild
                nwild = 0
            out += (prefixes[r] or self.rank_prefixes(r))[k]
        if nwild:
            out += (self.wild_card,) * nwild
        return out

    def house(self, t: int, a: int, p: int, k: int, nwild: int) -> tuple[Card, ...]:
        """A full house: a natural cards of rank t, k of rank p, nwild wilds."""
        if t < p:
            return self.assemble((t, p), (a, k), nwild)
        return self.assemble((p, t), (k, a), nwild)

    def joker_house(self, t: int, a: int, nwild: int, joker: int) -> tuple[Card, ...]:
        """A full house of a triple (a natural cards of rank t, nwild wilds) and a joker pair."""
        return self.one_rank(t, a, nwild) + (CARDS[joker], CARDS[joker])

    def jokers(self, j: int, n: int) -> tuple[Card, ...]:
        return (CARDS[j],) * n

    def joker_bomb(self) -> tuple[Card, ...]:
        j, b = CARDS[SMALL_JOKER], CARDS[BIG_JOKER]
        return (j, j, b, b)

    def flush_cards(self, base: int, ranks: tuple[int, ...], nwild: int) -> tuple[Card, ...]:
        """A straight flush: the suit's natural cards of ``ranks`` (suit index = base / 13)
        plus nwild wilds, in canonical order."""
        level, wild_card = self.level, self.wild_card
        out: list[Card] = []
        for r in ranks:
            if nwild and r >= level:
                if r == level and base == 0:
                    out.append(CARDS[base + r])
                    out += [wild_card] * nwild
                    nwild = 0
                    continue
                out += [wild_card] * nwild
                nwild = 0
            out.append(CARDS[base + r])
        if nwild:
            out += [wild_card] * nwild
        return tuple(out)

    # -- moves per comparison class ------------------------------------------------------

    def class_recipes(self, comparison_class: int) -> list[Recipe]:
        """Recipes of one comparison class (a non-bomb kind's value, or BOMB_CLASS for every
        bomb kind), weakest first."""
        got = self._recipes[comparison_class]
        if got is None:
            # each builder called directly (compiled, a method called through a table is a
            # generic Python call)
            if comparison_class == BOMB_CLASS:
                got = self.bombs()
            elif comparison_class > 3:
                got = self.sequences(comparison_class - 4)
            elif comparison_class == 0:
                got = self.singles()
            elif comparison_class == 1:
                got = self.pairs()
            else:
                got = self.triples() if comparison_class == 2 else self.full_houses()
            self._recipes[comparison_class] = got
        return got

    def first_above(self, comparison_class: int, top: Reading) -> int:
        """The index of the first recipe of the class that beats ``top`` (of that class):
        a bisection on the recipes' strengths, read for the few recipes it looks at."""
        return _first_above(self.class_recipes(comparison_class), VALUES[self.level], top.id)

    def none_where_none(self, larger: "_Hand") -> None:
        """``larger`` holds every card of this hand: a class it has no play of (listed
        already), this hand has none either (a play of this hand is one of ``larger``'s);
        recorded as listed, so it is not looked for. Bombs are the class this saves most:
        most hands hold none, and a follow lists them at every new hand."""
        if larger.level != self.level or larger.joker_pair != self.joker_pair:
            return
        mine, theirs = self._recipes, larger._recipes
        for c in range(BOMB_CLASS + 1):
            if mine[c] is None:
                got = theirs[c]
                if got is not None and not got:
                    mine[c] = []

    def class_moves(self, comparison_class: int) -> list[Move]:
        """The moves of a class with their cards made (kept: public calls repeat)."""
        got = self._moves.get(comparison_class)
        if got is None:
            new = _new
            got = self._moves[comparison_class] = [
                new(Move, (make(self, *args), reading))
                for reading, make, args in self.class_recipes(comparison_class)]
        return got

    def plays(self, top: Reading | None) -> Plays:
        """The plays on ``top`` (None: leading), cards made on demand."""
        if top is None:
            segments = []
            length = 0
            for c in range(BOMB_CLASS + 1):
                recipes = self.class_recipes(c)
                if recipes:
                    segments.append((c, recipes, 0))
                    length += len(recipes)
            return Plays(self, tuple(segments), length)
        c = top.comparison_class
        same = self.class_recipes(c)
        first = _first_above(same, VALUES[self.level], top.id) if same else 0
        if c == BOMB_CLASS:
            return Plays(self, ((c, same, first),), len(same) - first)
        bombs = self.class_recipes(BOMB_CLASS)
        return Plays(self, ((c, same, first), (BOMB_CLASS, bombs, 0)), len(same) - first + len(bombs))

    def rank_by_rank(self, kind: int) -> list[Recipe]:
        """Singles (kind 0), pairs (1) or triples (2): each rank's moves depend only on its
        natural count (at a level, with so many wilds), so they are looked up in a table
        and put together in power order."""
        level, wilds = self.level, self.wilds
        table = _RANK_TABLES.get((kind, level, wilds))
        if table is None:
            table = _rank_table(kind, level, wilds)
        natural, order = self.natural, _POWER_ORDER[level]
        out: list[Recipe] = []
        for i in range(13):  # (a plain loop: compiled, it beats chaining iterators)
            n = natural[order[i]]
            recipes = table[i][n if n <= 8 else 8]  # beyond two decks: as many moves as with 8
            if recipes:
                out += recipes
        return out

    def singles(self) -> list[Recipe]:
        out = self.rank_by_rank(0)
        for j in (SMALL_JOKER, BIG_JOKER):
            if self.counts[j]:
                out.append((SINGLES[j - 39], _Hand.jokers, (j, 1)))
        return out

    def pairs(self) -> list[Recipe]:
        out = self.rank_by_rank(1)
        for j in (SMALL_JOKER, BIG_JOKER):
            if self.counts[j] >= 2:
                out.append((PAIRS[j - 39], _Hand.jokers, (j, 2)))
        return out

    def triples(self) -> list[Recipe]:
        return self.rank_by_rank(2)

    def full_houses(self) -> list[Recipe]:
        out: list[Recipe] = []
        natural, level, wilds, counts = self.natural, self.level, self.wilds, self.counts
        if not self.masks[2 - wilds]:  # no rank with 3 - wilds natural cards: no triple to make
            return out
        house, joker_house = _Hand.house, _Hand.joker_house
        order = _POWER_ORDER[level]
        pair_ranks = [r for r in order if natural[r] >= 2][:2]           # natural pairs
        lone_ranks = [r for r in order if natural[r] and r != level][:2]  # one natural + a wild
        joker_pair = next((j for j in (SMALL_JOKER, BIG_JOKER) if counts[j] >= 2), None) \
            if self.joker_pair else None
        level_spare = natural[level] + wilds >= 2  # a level pair, heart level cards as themselves
        for t in order:
            n = natural[t]
            if n + wilds < 3:
                continue
            reading = FULL_HOUSES[t]
            natural_pair = pair_ranks[0] if pair_ranks and pair_ranks[0] != t else (
                pair_ranks[1] if len(pair_ranks) > 1 else None)
            if t == level:
                a = min(n, 3)
                used = 3 - a
                spare = wilds - used
                if natural_pair is not None:
                    out.append((reading, house, (t, a, natural_pair, 2, used)))
                elif joker_pair is not None:
                    out.append((reading, joker_house, (t, a, used, joker_pair)))
                if spare >= 1 and lone_ranks:
                    out.append((reading, house, (t, a, lone_ranks[0], 1, used + 1)))
                if spare >= 2:
                    out.append((reading, _Hand.one_rank, (t, a, used + 2)))
                continue
            lone = lone_ranks[0] if lone_ranks and lone_ranks[0] != t else (
                lone_ranks[1] if len(lone_ranks) > 1 else None)
            # The pair standing without free wilds: (physical wilds, power, (rank, naturals), joker).
            plain: tuple[int, int, tuple[int, int] | None, int] | None
            if natural_pair is not None:
                plain = (0, 13 if natural_pair == level else natural_pair, (natural_pair, 2), 0)
            elif joker_pair is not None:
                plain = (0, joker_pair - 38, None, joker_pair)
            elif level_spare:  # a level pair with heart level cards as themselves
                plain = (2 - natural[level], 13, (level, natural[level]), 0)
            else:
                plain = None
            for w in range(min(wilds, 2) + 1):
                # A: w wilds in the triple, the plain pair; B: w-1 wilds in the triple and
                # one natural + one wild as the pair. Fewest physical wilds, then lowest
                # pair, then the wilds in the pair (B).
                with_plain: tuple[int, int] | None = None
                if plain is not None and n >= 3 - w and w + plain[0] <= wilds:
                    with_plain = (w + plain[0], plain[1])
                if w and lone is not None and n >= 4 - w and (with_plain is None or (w, lone) <= with_plain):
                    out.append((reading, house, (t, 4 - w, lone, 1, w)))
                elif with_plain is not None and plain is not None:  # with_plain is only set from plain
                    if plain[2] is None:
                        out.append((reading, joker_house, (t, 3 - w, w, plain[3])))
                    else:
                        out.append((reading, house, (t, 3 - w) + plain[2] + (with_plain[0],)))
        return out

    def sequences(self, k: int) -> list[Recipe]:
        """Straights (k = 0), tubes (1) or plates (2)."""
        out: list[Recipe] = []
        level, wilds = self.level, self.wilds
        width, length, low, places = _SEQUENCE_SHAPES[k]
        m1, m2, m3 = self.masks
        level_places = places[level]
        # A window needs at least length - wilds ranks held ``width`` times (the rest of it
        # holds at most width - 1 per rank): candidates from that mask, then the exact count.
        for p in _windows(self.masks[width - 1], length, wilds):
            b1 = m1 >> p & low
            b2 = m2 >> p & low if width > 1 else 0
            b3 = m3 >> p & low if width > 2 else 0
            if width > 1 and width * length - b1.bit_count() - b2.bit_count() - b3.bit_count() > wilds:
                continue
            key = (k, p, b1, b2, b3, level_places[p], wilds)
            recipes = _RECIPES.get(key)
            out += _recipes(key) if recipes is None else recipes
        return out

    def bombs(self) -> list[Recipe]:
        """Bombs, straight flushes and the joker bomb, up the ladder."""
        found: list[tuple[int, int, int, Recipe]] = []
        natural, level, wilds = self.natural, self.level, self.wilds
        ranks = int(self.held.translate(_AT_LEAST[max(0, 4 - wilds)]), 2)  # bit r: natural[r] + wilds >= 4
        while ranks:  # most hands have no rank bomb: no loop over the 13 ranks
            r = ranks.bit_length() - 1
            ranks ^= 1 << r
            key = (r, natural[r], wilds, level)
            entries = _RANK_BOMBS.get(key)
            found += _rank_bombs(key) if entries is None else entries
        found += self.straight_flushes()
        if self.counts[SMALL_JOKER] >= 2 and self.counts[BIG_JOKER] >= 2:
            found.append(_JOKER_BOMB_ENTRY)
        found.sort()  # (value, reading id, wilds used) is unique: recipes are never compared
        return [f[3] for f in found]

    def straight_flushes(self) -> list[tuple[int, int, int, Recipe]]:
        """(value, reading id, wilds used, recipe) of every straight flush."""
        out: list[tuple[int, int, int, Recipe]] = []
        level, wilds = self.level, self.wilds
        present = int(self.counts[51::-1].translate(_NONZERO), 2)  # bit i: card i held
        for s in range(4):
            mask = (present >> 13 * s & 0x1FFF) << 1  # bit r+1: rank r held
            if s == 1:
                mask &= ~(2 << level)  # the wild is no natural heart; it may stand as itself
            mask |= mask >> 13
            if mask.bit_count() < 5 - wilds:
                continue
            level_places = _STRAIGHT_PLACES[level] if s == 1 else _NO_PLACE
            for p in _windows(mask, 5, wilds):
                key = (s, p, mask >> p & 31, level_places[p], wilds)
                found = _FLUSH_ENTRIES.get(key)
                out += _flush_entries(key) if found is None else found
        return out

    # -- every choice of cards -----------------------------------------------------------

    def expanded(self, top: Reading | None) -> list[Move]:
        """Every distinct (cards, reading), readings in listing order, cards by order."""
        values = VALUES[self.level]
        seen_readings: list[Reading] = []
        seen = set()
        every = [reading for c in range(BOMB_CLASS + 1) for reading, _, _ in self.class_recipes(c)]
        for r in every:
            if r not in seen:
                seen.add(r)
                seen_readings.append(r)
        if top is not None:
            seen_readings = [r for r in seen_readings if _beats_value(r, top, values)]
        out = []
        for reading in seen_readings:
            for cards in sorted(_expand_reading(self, reading), key=_canonical_key):
                out.append(Move(cards, reading))
        return out


def _first_above(recipes: list[Recipe], values: tuple[int, ...], top_id: int) -> int:
    """``bisect_right`` of the top's value in recipes sorted by value (written out: no key
    function to call per step, nor a closure to make per decision)."""
    value = values[top_id]
    lo, hi = 0, len(recipes)
    while lo < hi:
        mid = (lo + hi) >> 1
        if value < values[recipes[mid][0].id]:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _beats_value(candidate: Reading, top: Reading, values: Any) -> bool:
    if candidate.comparison_class == top.comparison_class:
        return values[candidate.id] > values[top.id]
    return candidate.comparison_class == BOMB_CLASS


def _canonical_key(cards: tuple[Card, ...]) -> tuple[int, ...]:
    return tuple(c.rank_index * 5 + c.suit_index for c in cards)


assert all(values[r.id] == VALUES[0][r.id] for values in VALUES for row in STRAIGHT_FLUSHES for r in row)
_JOKER_BOMB_ENTRY = (VALUES[0][JOKER_BOMB.id], JOKER_BOMB.id, 0, (JOKER_BOMB, _Hand.joker_bomb, ()))
"""The joker bomb's entry among a hand's bombs (its value is the same at every level)."""
assert all(values[JOKER_BOMB.id] == _JOKER_BOMB_ENTRY[0] for values in VALUES)

# ``_Hand.class_recipes`` picks a class's builder by its number: the Kind value for non-bombs
# (singles 0 … full houses 3, then straights, tubes, plates as ``sequences(class - 4)``).
assert all(k.value == i for i, k in enumerate(Kind) if i < BOMB_CLASS)


# ---------------------------------------------------------------------------------------------
# Expansion: every multiset of the hand's cards that reads as a given reading

def _expand_reading(hand: _Hand, reading: Reading) -> set[tuple[Card, ...]]:
    kind, level = reading.kind, hand.level
    counts = hand.counts
    if kind is Kind.JOKER_BOMB:
        small, big = CARDS[SMALL_JOKER], CARDS[BIG_JOKER]
        return {(small, small, big, big)}
    r = reading.rank_index
    assert r is not None  # only the joker bomb has no rank
    if r >= 13:  # joker single or pair
        return {(CARDS[r + 39],) * reading.size}
    if kind is Kind.SINGLE:
        out: set[tuple[Card, ...]] = {(c,) for c in hand.rank_cards(r)}
        if r == level and hand.wilds:
            out.add((hand.wild_card,))
        return out
    if kind is Kind.PAIR:
        return _fill(hand, [(r, None, 2, 0 if r == level else 1)])
    if kind in (Kind.TRIPLE, Kind.BOMB):
        return _fill(hand, [(r, None, reading.size, 1)])
    if kind is Kind.FULL_HOUSE:
        out = set()
        for p in range(13):
            if p != r:
                out |= _fill(hand, [(r, None, 3, 0), (p, None, 2, 0)])
        if hand.joker_pair:
            for j in (SMALL_JOKER, BIG_JOKER):
                if counts[j] >= 2:
                    joker = (CARDS[j], CARDS[j])
                    out |= {cards + joker for cards in _fill(hand, [(r, None, 3, 0)])}
        return out
    width = SEQUENCE_WIDTH[kind]
    suit = "SHCD".index(reading.suit) if reading.suit else None
    start = reading.position
    assert start is not None  # the rest are sequences
    window = [rank_of_position(q) for q in range(start, start + SEQUENCE_LENGTH[kind])]
    return _fill(hand, [(q, suit, width, 0) for q in window])


def _fill(hand: _Hand, places: list[tuple[int, int | None, int, int]]) -> set[tuple[Card, ...]]:
    """Every multiset filling the places (rank, suit or None, cards, least naturals) with
    natural cards of that rank (and suit) and wilds, at most the hand's wilds in all."""
    options = []
    for rank, suit, need, least in places:
        pool = [c for c in hand.rank_cards(rank) if suit is None or c.suit_index == suit]
        choices = []
        for k in range(least, need + 1):
            for combo in _sub_multisets(pool, k):
                choices.append((combo, need - k))
        options.append(choices)
    out = set()
    for pick in product(*options):
        nwild = sum(w for _, w in pick)
        if nwild > hand.wilds:
            continue
        cards = [c for combo, _ in pick for c in combo] + [hand.wild_card] * nwild
        out.add(tuple(sort_cards(cards)))
    return out


def _sub_multisets(pool: list[Card], k: int) -> list[tuple[Card, ...]]:
    """Distinct k-card sub-multisets of a sorted pool (duplicates adjacent)."""
    if k == 0:
        return [()]
    out = []
    prev = None
    for i, c in enumerate(pool):
        if c is prev:
            continue
        prev = c
        for rest in _sub_multisets(pool[i + 1:], k - 1):
            out.append((c,) + rest)
    return out
