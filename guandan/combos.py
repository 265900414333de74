"""掼蛋 combinations: what a set of cards can be read as, and which reading beats which
(docs/rules/guandan.md §2–§4).

A ``Reading`` is a declared combination — kind plus key — independent of the level and
of the cards that make it. Every possible reading exists once (223 of them) and is
interned, so readings compare by identity, hash fast and pickle back to the same object.

Keys: ``rank`` is the key rank's text. For sequences (straight, tube, plate, straight
flush) it is the lowest rank in natural order, 'A' when the A is low (``STRAIGHT A`` is
A-2-3-4-5, ``STRAIGHT T`` is T-J-Q-K-A). Internally a sequence is placed by its start
*position*: position 0 is the low A, position p ≥ 1 is rank index p−1 (so the high A is 13).

Wild cards (逢人配, the two heart level cards) stand for any non-joker card in any
combination. A single wild, or two wilds alone, are read only as themselves (level card,
level pair). ``wilds_used`` counts the wilds that stand for another card: a wild in a
level-rank place counts as itself (for a straight flush only in the heart level place).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import enum

from mypy_extensions import mypyc_attr

from tabletop.cards import RANKS, SUITS, CardsLike, as_cards
from tabletop.errors import CardParseError

from guandan.ranks import level_index, power_of_rank

SMALL_JOKER = 52
BIG_JOKER = 53
HEARTS = 1


class Kind(enum.Enum):
    """Combination kinds, in the order legal plays are listed."""

    SINGLE = 0
    PAIR = 1
    TRIPLE = 2
    FULL_HOUSE = 3
    STRAIGHT = 4
    TUBE = 5
    PLATE = 6
    BOMB = 7
    STRAIGHT_FLUSH = 8
    JOKER_BOMB = 9


BOMB_KINDS = frozenset({Kind.BOMB, Kind.STRAIGHT_FLUSH, Kind.JOKER_BOMB})
SEQUENCE_LENGTH = {Kind.STRAIGHT: 5, Kind.STRAIGHT_FLUSH: 5, Kind.TUBE: 3, Kind.PLATE: 2}
"""Number of consecutive ranks of each sequence kind."""
SEQUENCE_WIDTH = {Kind.STRAIGHT: 1, Kind.STRAIGHT_FLUSH: 1, Kind.TUBE: 2, Kind.PLATE: 3}
"""Cards per rank of each sequence kind."""
_FIXED_SIZE = {Kind.SINGLE: 1, Kind.PAIR: 2, Kind.TRIPLE: 3, Kind.FULL_HOUSE: 5,
               Kind.STRAIGHT: 5, Kind.TUBE: 6, Kind.PLATE: 6, Kind.STRAIGHT_FLUSH: 5,
               Kind.JOKER_BOMB: 4}
BOMB_SIZES = range(4, 11)
BOMB_CLASS = 7
"""Comparison class shared by every bomb kind (the ladder); other kinds compare within
their own kind (whose value is also its class)."""
_TIER = {4: 0, 5: 1, 6: 3, 7: 4, 8: 5, 9: 6, 10: 7}
_STRAIGHT_FLUSH_TIER = 2
_JOKER_BOMB_TIER = 8
_TIER_STEP = 32


def rank_of_position(position: int) -> int:
    """Rank index of a sequence position (0 = low A, p ≥ 1 → p−1)."""
    return 12 if position == 0 else position - 1


def sequence_starts(kind: Kind) -> range:
    """Start positions of a sequence kind: the last rank may be the high A (13), no wrap."""
    return range(0, 15 - SEQUENCE_LENGTH[kind])


@mypyc_attr(native_class=False)  # compiled builds: interned through __new__, a Python class
class Reading:
    """One declared combination: ``kind``, ``rank`` (key rank text or None), ``suit``
    (straight flush suit letter or None), ``size`` (cards) and ``code``.

    ``Reading(Kind.PAIR, '7')``, ``Reading(Kind.BOMB, '7', size=6)``,
    ``Reading(Kind.STRAIGHT_FLUSH, '6', suit='S')`` and ``Reading.from_code('BOMB 6x7')``
    all return the interned reading."""

    __slots__ = ("kind", "rank", "suit", "size", "code", "id", "rank_index", "position",
                 "comparison_class")
    kind: Kind
    rank: str | None
    suit: str | None
    size: int
    code: str
    id: int
    rank_index: int | None
    position: int | None
    comparison_class: int

    def __new__(cls, kind: Kind, rank: str | None = None, suit: str | None = None,
                size: int | None = None) -> "Reading":
        if not isinstance(kind, Kind):
            raise CardParseError(f"not a combination kind: {kind!r}")
        if rank == "10":
            rank = "T"
        if size is None:
            size = _FIXED_SIZE.get(kind)
        found = _BY_FIELDS.get((kind, rank, suit, size))
        if found is None:
            raise CardParseError(f"no such reading: kind={kind.name} rank={rank!r} "
                                 f"suit={suit!r} size={size!r}")
        return found

    @classmethod
    def _make(cls, kind: Kind, rank_index: int | None, position: int | None,
              suit: str | None, size: int) -> "Reading":
        self = object.__new__(cls)
        rank = None
        if position is not None:
            rank = RANKS[rank_of_position(position)]
        elif rank_index is not None:
            rank = _RANK_TEXT[rank_index]
        if kind is Kind.JOKER_BOMB:
            code = "JOKER_BOMB"
        elif kind is Kind.BOMB:
            code = f"BOMB {size}x{rank}"
        elif kind is Kind.STRAIGHT_FLUSH:
            code = f"STRAIGHT_FLUSH {suit}{rank}"
        else:
            code = f"{kind.name} {rank}"
        for name, value in (("kind", kind), ("rank", rank), ("suit", suit), ("size", size),
                            ("code", code), ("id", len(_ALL)),
                            ("rank_index", rank_index if position is None
                             else rank_of_position(position)),
                            ("position", position),
                            ("comparison_class", BOMB_CLASS if kind in BOMB_KINDS
                             else kind.value)):
            object.__setattr__(self, name, value)
        _ALL.append(self)
        _BY_CODE[code] = self
        _BY_FIELDS[(kind, rank, suit, size)] = self
        return self

    @classmethod
    def from_code(cls, text: str) -> "Reading":
        """The reading of a code such as 'PAIR 7', 'STRAIGHT A', 'BOMB 6x7',
        'STRAIGHT_FLUSH S6', 'JOKER_BOMB' ('10' is accepted for 'T')."""
        if not isinstance(text, str):
            raise CardParseError(f"expected a reading code, got {type(text).__name__}")
        norm = _normalise_code(text)
        found = _BY_CODE.get(norm)
        if found is None:
            raise CardParseError(f"bad reading {text!r}: {_why_bad_code(norm)}")
        return found

    @property
    def is_bomb(self) -> bool:
        return self.comparison_class == BOMB_CLASS

    def __setattr__(self, name: Any, value: Any):
        raise AttributeError("Reading is immutable")

    def __delattr__(self, name: Any):
        raise AttributeError("Reading is immutable")

    def __reduce__(self):
        # a module-level function: pickle finds it by name in both builds
        return (as_reading, (self.code,))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo: Any):
        return self

    def __lt__(self, other: "Reading") -> bool:
        """A fixed listing order (kind, then key in natural order); not a comparison of
        strength — use ``beats``."""
        return self.id < other.id

    def __repr__(self) -> str:
        return f"Reading('{self.code}')"

    def __str__(self) -> str:
        return self.code


_RANK_TEXT = tuple(RANKS) + ("BJ", "RJ")
_ALL: list[Reading] = []
_BY_CODE: dict[str, Reading] = {}
_BY_FIELDS: dict[tuple, Reading] = {}


def _normalise_code(text: str) -> str:
    """Upper case, single spaces, rank '10' written 'T'."""
    kind, _, rest = " ".join(text.upper().split()).partition(" ")
    if kind == "BOMB" and "X" in rest:
        size, _, rank = rest.partition("X")
        rest = f"{size}x{'T' if rank == '10' else rank}"
    elif kind == "STRAIGHT_FLUSH" and rest[1:] == "10":
        rest = rest[:1] + "T"
    elif rest == "10":
        rest = "T"
    return f"{kind} {rest}" if rest else kind


def _why_bad_code(norm: str) -> str:
    kind_text, _, rest = norm.partition(" ")
    try:
        kind = Kind[kind_text]
    except KeyError:
        return f"{kind_text!r} is not a combination kind (one of {', '.join(k.name for k in Kind)})"
    if kind is Kind.JOKER_BOMB:
        return "JOKER_BOMB takes no rank"
    if not rest:
        return f"{kind.name} needs a key rank"
    if kind is Kind.BOMB:
        return "a bomb is written 'BOMB <size>x<rank>' with size 4-10 and rank 2-A, e.g. 'BOMB 6x7'"
    if kind is Kind.STRAIGHT_FLUSH:
        return ("a straight flush is written 'STRAIGHT_FLUSH <suit><lowest rank>' with suit S/H/C/D "
                "and lowest rank A (A-2-3-4-5) to T (T-J-Q-K-A), e.g. 'STRAIGHT_FLUSH S6'")
    if kind in SEQUENCE_LENGTH:
        last = RANKS[rank_of_position(max(sequence_starts(kind)))]
        return (f"{rest!r} cannot start a {kind.name}: lowest rank A (A low) to {last}, "
                "no wrap past A")
    allowed = "2-A, BJ or RJ" if kind in (Kind.SINGLE, Kind.PAIR) else "2-A (no jokers)"
    return f"{rest!r} is not a {kind.name} rank ({allowed})"


def _build_table() -> None:
    for r in range(15):
        SINGLES.append(Reading._make(Kind.SINGLE, r, None, None, 1))
    for r in range(15):
        PAIRS.append(Reading._make(Kind.PAIR, r, None, None, 2))
    for r in range(13):
        TRIPLES.append(Reading._make(Kind.TRIPLE, r, None, None, 3))
    for r in range(13):
        FULL_HOUSES.append(Reading._make(Kind.FULL_HOUSE, r, None, None, 5))
    for kind, table, size in ((Kind.STRAIGHT, STRAIGHTS, 5), (Kind.TUBE, TUBES, 6),
                              (Kind.PLATE, PLATES, 6)):
        for p in sequence_starts(kind):
            table.append(Reading._make(kind, None, p, None, size))
    for size in BOMB_SIZES:
        BOMBS[size] = [Reading._make(Kind.BOMB, r, None, None, size) for r in range(13)]
    for s, suit in enumerate(SUITS):
        STRAIGHT_FLUSHES.append([Reading._make(Kind.STRAIGHT_FLUSH, None, p, suit, 5)
                                 for p in sequence_starts(Kind.STRAIGHT_FLUSH)])


SINGLES: list[Reading] = []          # by rank index 0–14
PAIRS: list[Reading] = []            # by rank index 0–14
TRIPLES: list[Reading] = []          # by rank index 0–12
FULL_HOUSES: list[Reading] = []      # by the triple's rank index
STRAIGHTS: list[Reading] = []        # by start position 0–9
TUBES: list[Reading] = []            # by start position 0–11
PLATES: list[Reading] = []           # by start position 0–12
BOMBS: dict[int, list[Reading]] = {}  # size → by rank index
STRAIGHT_FLUSHES: list[list[Reading]] = []  # suit index → by start position
_build_table()
JOKER_BOMB = Reading._make(Kind.JOKER_BOMB, None, None, None, 4)
ALL_READINGS: tuple[Reading, ...] = tuple(_ALL)


def _value(reading: Reading, level: int) -> int:
    kind = reading.kind
    if kind is Kind.JOKER_BOMB:
        return _JOKER_BOMB_TIER * _TIER_STEP
    if reading.position is not None:
        if kind is Kind.STRAIGHT_FLUSH:
            return _STRAIGHT_FLUSH_TIER * _TIER_STEP + reading.position
        return reading.position
    assert reading.rank_index is not None  # only the joker bomb has no rank
    if kind is Kind.BOMB:
        return _TIER[reading.size] * _TIER_STEP + power_of_rank(reading.rank_index, level)
    return power_of_rank(reading.rank_index, level)


VALUES: tuple[tuple[int, ...], ...] = tuple(
    tuple(_value(r, level) for r in ALL_READINGS) for level in range(13))
"""``VALUES[level][reading.id]``: strength within the reading's comparison class."""


def as_reading(x: "Reading | str | object") -> Reading:
    """A Reading, a reading code, or anything with a ``.reading`` (a Play, a Move)."""
    if type(x) is Reading:
        return x
    if isinstance(x, str):
        return Reading.from_code(x)
    inner = getattr(x, "reading", None)
    if inner is not None:
        return as_reading(inner)
    raise CardParseError(f"not a reading: {x!r}")


def as_level(level: "str | int") -> int:
    return level if type(level) is int and 0 <= level <= 12 else level_index(level)


def beats(candidate: Reading, top: Reading, level: "str | int") -> bool:
    """Whether ``candidate`` beats ``top`` at ``level`` (§4): the same non-bomb kind with a
    strictly higher key, or a bomb above the top on the ladder 4 < 5 < straight flush
    < 6 < … < 10 < joker bomb; any bomb beats any non-bomb."""
    if type(candidate) is not Reading:
        candidate = as_reading(candidate)
    if type(top) is not Reading:
        top = as_reading(top)
    values = VALUES[as_level(level)]
    if candidate.comparison_class == top.comparison_class:
        return values[candidate.id] > values[top.id]
    return candidate.comparison_class == BOMB_CLASS


def why_not_beats(candidate: Reading, top: Reading, level: "str | int") -> str | None:
    """None when ``candidate`` beats ``top``, else a one-line reason."""
    if beats(candidate, top, level):
        return None
    candidate, top = as_reading(candidate), as_reading(top)
    if top.kind is Kind.JOKER_BOMB:
        return "nothing beats a JOKER_BOMB"
    if candidate.comparison_class != top.comparison_class:
        return f"a {candidate.kind.name} cannot beat a {top.kind.name}"
    return f"{candidate.code} does not beat {top.code}"


# ---------------------------------------------------------------------------------------------
# Reading a set of cards

class _Parts:
    """The cards of a play split for reading: natural (non-wild) cards, jokers, wilds."""

    __slots__ = ("naturals", "small", "big", "wilds", "size", "level")

    def __init__(self, counts: list[int], level: int) -> None:
        wild = HEARTS * 13 + level
        self.level = level
        self.wilds = counts[wild]
        self.small = counts[SMALL_JOKER]
        self.big = counts[BIG_JOKER]
        self.naturals = [i for i in range(52) if counts[i] and i != wild for _ in range(counts[i])]
        self.size = sum(counts)


def card_counts(cards: "CardsLike | list[int]") -> list[int]:
    """A plain 54-count list of cards given as anything ``as_cards`` accepts."""
    counts = [0] * 54
    for c in as_cards(cards):
        counts[c] += 1
    return counts


def _config_readings(naturals: list[int], small: int, big: int, size: int,
                     joker_pair: bool) -> set[Reading]:
    """Readings of ``size`` cards when ``naturals`` (card indices, no jokers) play as
    themselves, beside ``small`` and ``big`` jokers, and the rest are free wilds standing
    for any non-joker card."""
    out: set[Reading] = set()
    rank_counts = [0] * 13
    suits = set()
    for c in naturals:
        rank_counts[c % 13] += 1
        suits.add(c // 13)
    present = [r for r in range(13) if rank_counts[r]]
    jokers = small + big
    one_rank = len(present) == 1 and jokers == 0

    if size == 1:
        if jokers:
            out.add(SINGLES[13 if small else 14])
        elif naturals:
            out.add(SINGLES[present[0]])
    elif size == 2:
        if small == 2 or big == 2:
            out.add(PAIRS[13 if small else 14])
        elif one_rank:
            out.add(PAIRS[present[0]])
    elif size == 3:
        if one_rank:
            out.add(TRIPLES[present[0]])
    if 4 <= size <= 10 and one_rank:
        out.add(BOMBS[size][present[0]])
    if size == 4 and small == 2 and big == 2:
        out.add(JOKER_BOMB)
    if size == 5:
        if jokers:
            if joker_pair and (small == 2 or big == 2) and jokers == 2 and len(present) == 1:
                out.add(FULL_HOUSES[present[0]])
        else:
            for t in present:
                rest = [r for r in present if r != t]
                if rank_counts[t] <= 3 and (not rest or (len(rest) == 1 and rank_counts[rest[0]] <= 2)):
                    out.add(FULL_HOUSES[t])
    if jokers == 0 and size in (5, 6):
        most = max(rank_counts)
        for width, length, table in _SEQUENCE_SHAPES[size]:
            if most > width:
                continue
            for p in _starts_covering(present, length):
                out.add(table[p])
                if width == 1 and len(suits) == 1:
                    out.add(STRAIGHT_FLUSHES[next(iter(suits))][p])
    return out


_SEQUENCE_SHAPES = {5: ((1, 5, STRAIGHTS),), 6: ((2, 3, TUBES), (3, 2, PLATES))}
"""Cards in a sequence → (cards per rank, ranks, readings by start) of the kinds of that size."""


def _starts_covering(ranks: list[int], length: int) -> set[int]:
    """Start positions of the ``length``-rank windows holding every rank (A high or low)."""
    out: set[int] = set()
    high = [r + 1 for r in ranks]
    for positions in (high, [0 if p == 13 else p for p in high]) if 12 in ranks else (high,):
        lo, hi = min(positions), max(positions)
        out.update(range(max(0, hi - length + 1), min(lo, 14 - length) + 1))
    return out


def _configs(parts: _Parts) -> Iterator[tuple[int, list[int]]]:
    """(free wilds, natural cards) for each way to split the wilds into wilds standing
    as themselves (natural heart level cards) and free wilds, fewest free first."""
    wild = HEARTS * 13 + parts.level
    for free in range(parts.wilds + 1):
        yield free, parts.naturals + [wild] * (parts.wilds - free)


def _readings_by_free(parts: _Parts, joker_pair: bool) -> list[set[Reading]]:
    sets = []
    for _free, naturals in _configs(parts):
        if naturals or parts.small or parts.big:
            sets.append(_config_readings(naturals, parts.small, parts.big, parts.size,
                                         joker_pair))
        else:
            sets.append(set())  # wilds alone are read only as themselves
    return sets


def _joker_pair_option(rules: Any) -> bool:
    return True if rules is None else bool(rules.joker_pair_in_full_house)


def readings(cards: CardsLike, level: "str | int", rules: Any = None) -> list[Reading]:
    """Every reading of exactly these cards at ``level``, in listing order (kind, then key).
    Empty when the cards are no combination."""
    parts = _Parts(card_counts(cards), as_level(level))
    found: set[Reading] = set()
    for s in _readings_by_free(parts, _joker_pair_option(rules)):
        found |= s
    return sorted(found, key=_by_id)


def wilds_used(cards: CardsLike, reading: Reading, level: "str | int", rules: Any = None) -> int | None:
    """The fewest wild cards that must stand for another card for ``cards`` to read as
    ``reading`` (a wild in a level-rank place stands for itself; for a straight flush only
    in the heart level place). None when the cards cannot be read so."""
    reading = as_reading(reading)
    parts = _Parts(card_counts(cards), as_level(level))
    for free, s in enumerate(_readings_by_free(parts, _joker_pair_option(rules))):
        if reading in s:
            return free
    return None


def _by_id(reading: Reading) -> int:
    return reading.id
