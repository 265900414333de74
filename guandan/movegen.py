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
cache; its moves are built per comparison class on first use and kept sorted by strength,
so following a top play is a bisection in one kind's list plus the bombs above it.
Generation works on per-rank counts and bit masks of held ranks, never on subsets of cards.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from itertools import product
from typing import NamedTuple

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


# ---------------------------------------------------------------------------------------------
# Public API

def legal_plays(hand: CardsLike, top, level: "str | int", *, expand_suits: bool = False,
                rules=None) -> list[Move]:
    """Every play from ``hand`` that may be made on ``top`` (a Reading, a reading code,
    or anything with a ``.reading``; None to lead). Passing is not a Move."""
    h = _analysed(_counts_key(hand), as_level(level), _joker_pair(rules))
    if top is not None:
        top = as_reading(top)
    if expand_suits:
        return h.expanded(top)
    if top is None:
        return list(h.lead())
    values = VALUES[h.level]
    if top.comparison_class == BOMB_CLASS:
        bombs, bomb_values = h.class_moves(BOMB_CLASS)
        return bombs[bisect_right(bomb_values, values[top.id]):]
    moves, class_values = h.class_moves(top.comparison_class)
    out = moves[bisect_right(class_values, values[top.id]):]
    out += h.class_moves(BOMB_CLASS)[0]
    return out


def why_illegal_play(hand: CardsLike, cards: CardsLike, reading, top, level: "str | int",
                     rules=None) -> str | None:
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


def is_legal_play(hand: CardsLike, cards: CardsLike, reading, top, level: "str | int",
                  rules=None) -> bool:
    return why_illegal_play(hand, cards, reading, top, level, rules) is None


def clear_cache() -> None:
    """Forget analysed hands (for benchmarks)."""
    _analysed.cache_clear()
    _TUPLE_KEYS.clear()


# ---------------------------------------------------------------------------------------------
# Hand analysis

def _joker_pair(rules) -> bool:
    return True if rules is None else bool(rules.joker_pair_in_full_house)


def _counts_key(hand) -> tuple[int, ...]:
    """The hand as a 54-count tuple (the cache key). Tuples of cards (what a deal holds)
    are remembered, so asking again about an unchanged hand costs one dict look-up."""
    if type(hand) is tuple:
        key = _TUPLE_KEYS.get(hand)
        if key is None:
            if len(_TUPLE_KEYS) >= HAND_CACHE_SIZE:
                _TUPLE_KEYS.clear()
            key = _TUPLE_KEYS[hand] = _count(hand)
        return key
    if isinstance(hand, np.ndarray) and hand.shape == (54,):
        return tuple(hand.tolist())
    if isinstance(hand, str):
        hand = as_cards(hand)
    elif not isinstance(hand, (list, tuple)):
        hand = list(hand)
    return _count(hand)


def _count(cards) -> tuple[int, ...]:
    counts = [0] * 54
    if cards and type(cards[0]) is Card:  # a hand of Cards (the deal's case): no checks
        try:
            for c in cards:
                counts[c] += 1
            return tuple(counts)
        except TypeError:
            counts = [0] * 54
    for c in cards:
        counts[Card(c)] += 1
    return tuple(counts)


_TUPLE_KEYS: dict[tuple, tuple[int, ...]] = {}


@lru_cache(maxsize=HAND_CACHE_SIZE)
def _analysed(counts: tuple[int, ...], level: int, joker_pair: bool) -> "_Hand":
    return _Hand(counts, level, joker_pair)


_POWER_ORDER = tuple(tuple([r for r in range(13) if r != level] + [level]) for level in range(13))
_WINDOWS = {kind: tuple(tuple(rank_of_position(q) for q in range(p, p + SEQUENCE_LENGTH[kind]))
                        for p in sequence_starts(kind))
            for kind in (Kind.STRAIGHT, Kind.TUBE, Kind.PLATE)}
_WINDOW_MASKS = {kind: tuple(((1 << SEQUENCE_LENGTH[kind]) - 1) << p for p in sequence_starts(kind))
                 for kind in (Kind.STRAIGHT, Kind.TUBE, Kind.PLATE)}
"""Bit q of a mask is sequence position q (0 = low A, r+1 = rank r)."""
_SORTED_WINDOWS = {kind: tuple(tuple(sorted(w)) for w in ws) for kind, ws in _WINDOWS.items()}
_RELEASE_ORDER = {kind: tuple(tuple(sorted(range(len(w)), key=lambda i, w=w: -w.index(sorted(w)[i])))
                              for w in ws)
                  for kind, ws in _WINDOWS.items()}
"""Indices into the sorted window, highest sequence position first."""
_LEVEL_PLACE = {kind: tuple(tuple(w.index(level) if level in w else -1 for w in ws)
                             for level in range(13))
                for kind, ws in _SORTED_WINDOWS.items()}
"""_LEVEL_PLACE[kind][level][start]: index of the level rank in the sorted window, or -1."""
_new = tuple.__new__  # Move(cards, reading) without the NamedTuple wrapper call
_PREFIXES: tuple[list[dict], ...] = tuple([{} for _ in range(13)] for _ in range(2))
"""_PREFIXES[is_level][rank][(n♠, n♥, n♣, n♦)]: the prefixes of the rank's natural cards."""
_AT_LEAST = {k: bytes([48] * k + [49] * (256 - k)) for k in (1, 2, 3)}
"""bytes.translate tables: a count below k → '0', else '1' (then ``int(text, 2)``)."""
_NONZERO = _AT_LEAST[1]
_RECIPES: dict[tuple, tuple[tuple[tuple[int, ...], int], ...]] = {}


def _recipes(key: tuple) -> tuple[tuple[tuple[int, ...], int], ...]:
    """For one sequence window and the pattern of held ranks in it: (natural cards per
    place in rank order, physical wilds) for each number of wilds used, fewest first.
    Memoised: the key is (kind, start, held≥1 bits, held≥2 bits, held≥3 bits, level
    place, wilds), a few ten thousand keys at most."""
    kind, p, bits1, bits2, bits3, level_place, wilds = key
    width = SEQUENCE_WIDTH[kind]
    window = _WINDOWS[kind][p]
    ranks = _SORTED_WINDOWS[kind][p]
    caps = []  # natural cards per place (capped at the width), places in rank order
    for r in ranks:
        q = window.index(r)  # place in sequence order = bit of the masks
        caps.append((bits1 >> q & 1) + (bits2 >> q & 1) + (bits3 >> q & 1))
    gaps = movable = as_itself = 0
    for i, k in enumerate(caps):
        if i == level_place:
            as_itself = width - k  # heart level cards in the level place, as themselves
        else:
            gaps += width - k
            movable += k
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
        out.append((tuple(takes), w + as_itself))
    got = _RECIPES[key] = tuple(out)
    return got


_NO_PLACE = (-1,) * 10
_FLUSH_RECIPES: dict[tuple, tuple[tuple[int, tuple[int, ...], int], ...]] = {}


def _flush_recipes(key: tuple) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """For one straight-flush window and the suit's held ranks in it: (wilds used, ranks
    of the natural cards in rank order, physical wilds), fewest wilds first. ``level
    place`` is the heart level place (a wild there stands as itself) or -1. Memoised."""
    p, bits, level_place, wilds = key
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
    got = _FLUSH_RECIPES[key] = tuple(out)
    return got


_FIVE_WINDOWS: dict[int, tuple[int, ...]] = {}


def _five_windows(mask: int, wilds: int) -> tuple[int, ...]:
    """Start positions of the 5-rank windows missing at most ``wilds`` of the positions
    set in ``mask`` (memoised: at most 3 × 2^14 keys)."""
    key = mask << 2 | wilds
    got = _FIVE_WINDOWS.get(key)
    if got is None:
        got = _FIVE_WINDOWS[key] = tuple(
            p for p, wmask in enumerate(_WINDOW_MASKS[Kind.STRAIGHT])
            if 5 - (mask & wmask).bit_count() <= wilds)
    return got


def _prefixes(r: int, is_level: bool, suit_counts: tuple[int, ...]) -> tuple[tuple[Card, ...], ...]:
    """For rank r: the first k natural (non-wild) cards in suit order, for every k."""
    cards: list[Card] = []
    for s in range(4):
        if not (is_level and s == 1):
            cards += [CARDS[13 * s + r]] * suit_counts[s]
    got = _PREFIXES[is_level][r][suit_counts] = tuple(tuple(cards[:k]) for k in range(len(cards) + 1))
    return got


class _Hand:
    """One hand at one level: natural cards per rank, and the moves built so far."""

    __slots__ = ("counts", "level", "joker_pair", "wild_card", "wilds", "natural", "prefix",
                 "masks", "_by_class", "_lead")

    def __init__(self, counts: tuple[int, ...], level: int, joker_pair: bool) -> None:
        self.counts = counts
        self.level = level
        self.joker_pair = joker_pair
        self.wild_card = CARDS[13 + level]
        self.wilds = counts[13 + level]
        tables = _PREFIXES[0]
        prefix = [tables[r].get(counts[r:52:13]) for r in range(13)]
        prefix[level] = _PREFIXES[1][level].get(counts[level:52:13])
        if None in prefix:
            for r in range(13):
                if prefix[r] is None:
                    prefix[r] = _prefixes(r, r == level, counts[r:52:13])
        self.prefix = prefix
        self.natural = natural = [len(p) - 1 for p in prefix]
        # Bit r+1 of masks[i]: at least i+1 natural cards of rank r; bit 0 repeats the A (low).
        held = bytes(natural)[::-1]
        m1 = int(held.translate(_AT_LEAST[1]), 2) << 1
        m2 = int(held.translate(_AT_LEAST[2]), 2) << 1
        m3 = int(held.translate(_AT_LEAST[3]), 2) << 1
        self.masks = (m1 | (m1 >> 13), m2 | (m2 >> 13), m3 | (m3 >> 13))
        self._by_class: list[tuple[list[Move], list[int]] | None] = [None] * (BOMB_CLASS + 1)
        self._lead: list[Move] | None = None

    # -- cards ---------------------------------------------------------------------------

    def rank_cards(self, r: int) -> tuple[Card, ...]:
        """Natural (non-wild) cards of rank r in suit order, duplicates adjacent."""
        return self.prefix[r][-1]

    def one_rank(self, r: int, k: int, nwild: int) -> tuple[Card, ...]:
        """k natural cards of rank r plus nwild wilds, in canonical order."""
        naturals = self.prefix[r][k]
        if not nwild:
            return naturals
        level = self.level
        if r < level:
            return naturals + (self.wild_card,) * nwild
        if r > level:
            return (self.wild_card,) * nwild + naturals
        spades = min(k, self.counts[level])
        return naturals[:spades] + (self.wild_card,) * nwild + naturals[spades:]

    def assemble(self, parts: list[tuple[int, int]], nwild: int) -> tuple[Card, ...]:
        """Cards of several ranks: (rank, natural count) parts plus nwild wilds."""
        parts.sort()
        prefix, level = self.prefix, self.level
        out: tuple[Card, ...] = ()
        for r, k in parts:
            if nwild and r >= level:
                if r == level:
                    out += self.one_rank(r, k, nwild)
                    nwild = 0
                    continue
                out += (self.wild_card,) * nwild
                nwild = 0
            out += prefix[r][k]
        if nwild:
            out += (self.wild_card,) * nwild
        return out

    # -- moves per kind ----------------------------------------------------------------------

    def class_moves(self, comparison_class: int) -> tuple[list[Move], list[int]]:
        """Moves of one comparison class (a non-bomb kind's value, or BOMB_CLASS for every
        bomb kind), weakest first, with their strength values for bisection."""
        got = self._by_class[comparison_class]
        if got is None:
            moves = _BUILDERS[comparison_class](self)
            values = VALUES[self.level]
            got = self._by_class[comparison_class] = (moves, [values[m[1].id] for m in moves])
        return got

    def lead(self) -> list[Move]:
        if self._lead is None:
            out: list[Move] = []
            for comparison_class in range(BOMB_CLASS + 1):
                out += self.class_moves(comparison_class)[0]
            self._lead = out
        return self._lead

    def singles(self) -> list[Move]:
        out = []
        natural, level, prefix = self.natural, self.level, self.prefix
        for r in _POWER_ORDER[level]:
            if natural[r]:
                out.append(_new(Move, (prefix[r][1], SINGLES[r])))
            elif r == level and self.wilds:
                out.append(_new(Move, ((self.wild_card,), SINGLES[r])))
        for j in (SMALL_JOKER, BIG_JOKER):
            if self.counts[j]:
                out.append(_new(Move, ((CARDS[j],), SINGLES[j - 39])))
        return out

    def pairs(self) -> list[Move]:
        out = []
        natural, level, wilds, prefix = self.natural, self.level, self.wilds, self.prefix
        for r in _POWER_ORDER[level]:
            n = natural[r]
            if r == level:
                if n + wilds >= 2:
                    a = min(n, 2)
                    out.append(_new(Move, (self.one_rank(r, a, 2 - a), PAIRS[r])))
                continue
            if n >= 2:
                out.append(_new(Move, (prefix[r][2], PAIRS[r])))
            if n and wilds:
                out.append(_new(Move, (self.one_rank(r, 1, 1), PAIRS[r])))
        for j in (SMALL_JOKER, BIG_JOKER):
            if self.counts[j] >= 2:
                out.append(_new(Move, ((CARDS[j], CARDS[j]), PAIRS[j - 39])))
        return out

    def triples(self) -> list[Move]:
        out = []
        natural, level, wilds = self.natural, self.level, self.wilds
        for r in _POWER_ORDER[level]:
            n = natural[r]
            if r == level:
                if n + wilds >= 3:
                    a = min(n, 3)
                    out.append(_new(Move, (self.one_rank(r, a, 3 - a), TRIPLES[r])))
                continue
            if not n or n + wilds < 3:
                continue
            for w in range(max(0, 3 - n), min(wilds, 2) + 1):
                out.append(_new(Move, (self.one_rank(r, 3 - w, w), TRIPLES[r])))
        return out

    def full_houses(self) -> list[Move]:
        out = []
        natural, level, wilds, counts = self.natural, self.level, self.wilds, self.counts
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
            natural_pair = pair_ranks[0] if pair_ranks and pair_ranks[0] != t else (
                pair_ranks[1] if len(pair_ranks) > 1 else None)
            if t == level:
                a = min(n, 3)
                used = 3 - a
                spare = wilds - used
                if natural_pair is not None:
                    out.append(_new(Move, (self.assemble([(t, a), (natural_pair, 2)], used),
                                           FULL_HOUSES[t])))
                elif joker_pair is not None:
                    out.append(self._with_jokers(self.one_rank(t, a, used), joker_pair, t))
                if spare >= 1 and lone_ranks:
                    out.append(_new(Move, (self.assemble([(t, a), (lone_ranks[0], 1)], used + 1),
                                           FULL_HOUSES[t])))
                if spare >= 2:
                    out.append(_new(Move, (self.one_rank(t, a, used + 2), FULL_HOUSES[t])))
                continue
            lone = lone_ranks[0] if lone_ranks and lone_ranks[0] != t else (
                lone_ranks[1] if len(lone_ranks) > 1 else None)
            # The pair standing without free wilds: (physical wilds, power, part, joker).
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
                a = None
                if plain is not None and n >= 3 - w and w + plain[0] <= wilds:
                    a = (w + plain[0], plain[1])
                if w and lone is not None and n >= 4 - w and (a is None or (w, lone) <= a):
                    out.append(_new(Move, (self.assemble([(t, 4 - w), (lone, 1)], w),
                                           FULL_HOUSES[t])))
                elif a is not None:
                    if plain[2] is None:
                        out.append(self._with_jokers(self.one_rank(t, 3 - w, w), plain[3], t))
                    else:
                        out.append(_new(Move, (self.assemble([(t, 3 - w), plain[2]], a[0]),
                                               FULL_HOUSES[t])))
        return out

    def _with_jokers(self, triple: tuple[Card, ...], joker: int, t: int) -> Move:
        return _new(Move, (triple + (CARDS[joker], CARDS[joker]), FULL_HOUSES[t]))

    def sequences(self, kind: Kind, table: list[Reading]) -> list[Move]:
        out = []
        level, wilds, prefix = self.level, self.wilds, self.prefix
        width = SEQUENCE_WIDTH[kind]
        length = SEQUENCE_LENGTH[kind]
        low = (1 << length) - 1
        m1, m2, m3 = self.masks
        windows, level_places = _SORTED_WINDOWS[kind], _LEVEL_PLACE[kind][level]
        if width == 1:
            starts = _five_windows(m1, wilds)
        else:
            # Cards missing (to be filled by wilds, free or as themselves): prune cheaply.
            starts = []
            for p, wmask in enumerate(_WINDOW_MASKS[kind]):
                have = (m1 & wmask).bit_count() + (m2 & wmask).bit_count()
                if width > 2:
                    have += (m3 & wmask).bit_count()
                if width * length - have <= wilds:
                    starts.append(p)
        for p in starts:
            key = (kind, p, m1 >> p & low, m2 >> p & low if width > 1 else 0,
                   m3 >> p & low if width > 2 else 0, level_places[p], wilds)
            recipes = _RECIPES.get(key)
            if recipes is None:
                recipes = _recipes(key)
            ranks = windows[p]
            reading = table[p]
            for takes, nwild in recipes:
                if not nwild:
                    cards: tuple[Card, ...] = ()
                    for r, k in zip(ranks, takes):
                        cards += prefix[r][k]
                else:
                    cards = ()
                    for r, k in zip(ranks, takes):
                        if nwild and r >= level:
                            if r == level:
                                cards += self.one_rank(r, k, nwild)
                                nwild = 0
                                continue
                            cards += (self.wild_card,) * nwild
                            nwild = 0
                        cards += prefix[r][k]
                    if nwild:
                        cards += (self.wild_card,) * nwild
                out.append(_new(Move, (cards, reading)))
        return out

    def straights(self) -> list[Move]:
        return self.sequences(Kind.STRAIGHT, STRAIGHTS)

    def tubes(self) -> list[Move]:
        return self.sequences(Kind.TUBE, TUBES)

    def plates(self) -> list[Move]:
        return self.sequences(Kind.PLATE, PLATES)

    def bombs(self) -> list[Move]:
        """Bombs, straight flushes and the joker bomb, up the ladder."""
        found: list[tuple[int, int, int, Move]] = []
        values = VALUES[self.level]
        natural, level, wilds = self.natural, self.level, self.wilds
        for r in range(13):
            n = natural[r]
            if n + wilds < 4:
                continue
            if r == level:
                for size in range(4, min(n + wilds, 10) + 1):
                    a = min(n, size)
                    reading = BOMBS[size][r]
                    found.append((values[reading.id], reading.id, 0,
                                  _new(Move, (self.one_rank(r, a, size - a), reading))))
                continue
            for size in range(4, min(n + wilds, 10) + 1):
                reading = BOMBS[size][r]
                for w in range(max(0, size - n), min(wilds, size - 1) + 1):
                    found.append((values[reading.id], reading.id, w,
                                  _new(Move, (self.one_rank(r, size - w, w), reading))))
        found += self.straight_flushes()
        if self.counts[SMALL_JOKER] >= 2 and self.counts[BIG_JOKER] >= 2:
            j, b = CARDS[SMALL_JOKER], CARDS[BIG_JOKER]
            found.append((values[JOKER_BOMB.id], JOKER_BOMB.id, 0,
                          _new(Move, ((j, j, b, b), JOKER_BOMB))))
        found.sort()  # (value, reading id, wilds used) is unique: Moves are never compared
        return [f[3] for f in found]

    def straight_flushes(self) -> list[tuple[int, int, int, Move]]:
        """(value, reading id, wilds used, move) of every straight flush."""
        out = []
        counts, level, wilds = self.counts, self.level, self.wilds
        values = VALUES[level]
        windows = _WINDOWS[Kind.STRAIGHT]
        present = bytes(counts[:52]).translate(_NONZERO)  # b'0'/b'1' per card
        for s in range(4):
            base = 13 * s
            mask = int(present[base:base + 13][::-1], 2) << 1  # bit r+1: rank r held
            if s == 1:
                mask &= ~(2 << level)  # the wild is no natural heart; it may stand as itself
            mask |= mask >> 13
            if mask.bit_count() < 5 - wilds:
                continue
            readings_row = STRAIGHT_FLUSHES[s]
            level_places = _LEVEL_PLACE[Kind.STRAIGHT][level] if s == 1 else _NO_PLACE
            for p in _five_windows(mask, wilds):
                key = (p, mask >> p & 31, level_places[p], wilds)
                recipes = _FLUSH_RECIPES.get(key)
                if recipes is None:
                    recipes = _flush_recipes(key)
                reading = readings_row[p]
                for w, ranks, nwild in recipes:
                    out.append((values[reading.id], reading.id, w,
                                _new(Move, (self._flush_cards(base, ranks, nwild), reading))))
        return out

    def _flush_cards(self, base: int, ranks: list[int], nwild: int) -> tuple[Card, ...]:
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

    # -- every choice of cards -----------------------------------------------------------

    def expanded(self, top: Reading | None) -> list[Move]:
        """Every distinct (cards, reading), readings in listing order, cards by order."""
        values = VALUES[self.level]
        seen_readings: list[Reading] = []
        seen = set()
        for move in self.lead():
            r = move.reading
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


def _beats_value(candidate: Reading, top: Reading, values) -> bool:
    if candidate.comparison_class == top.comparison_class:
        return values[candidate.id] > values[top.id]
    return candidate.comparison_class == BOMB_CLASS


def _canonical_key(cards: tuple[Card, ...]) -> tuple[int, ...]:
    return tuple(c.rank_index * 5 + c.suit_index for c in cards)


_BUILDERS = (_Hand.singles, _Hand.pairs, _Hand.triples, _Hand.full_houses, _Hand.straights,
             _Hand.tubes, _Hand.plates, _Hand.bombs)
"""Move builders by comparison class (Kind value for non-bombs, BOMB_CLASS last)."""
assert all(k.value == i for i, k in enumerate(Kind) if i < BOMB_CLASS)


# ---------------------------------------------------------------------------------------------
# Expansion: every multiset of the hand's cards that reads as a given reading

def _expand_reading(hand: _Hand, reading: Reading) -> set[tuple[Card, ...]]:
    kind, level = reading.kind, hand.level
    counts = hand.counts
    if kind is Kind.JOKER_BOMB:
        j, b = CARDS[SMALL_JOKER], CARDS[BIG_JOKER]
        return {(j, j, b, b)}
    r = reading.rank_index
    if r >= 13:  # joker single or pair
        return {(CARDS[r + 39],) * reading.size}
    if kind is Kind.SINGLE:
        out = {(c,) for c in hand.rank_cards(r)}
        if r == level and hand.wilds:
            out.add((hand.wild_card,))
        return out
    if kind is Kind.PAIR:
        return _fill(hand, [(r, None, 2, 0 if r == level else 1)])
    if kind in (Kind.TRIPLE, Kind.BOMB):
        return _fill(hand, [(r, None, reading.size, 1)])
    if kind is Kind.FULL_HOUSE:
        out: set = set()
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
    window = [rank_of_position(q) for q in range(reading.position,
                                                 reading.position + SEQUENCE_LENGTH[kind])]
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
