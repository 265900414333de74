"""Following a lead (§6): how many cards, which suit, and which shape.

Let the lead be n cards of effective suit s whose decomposition (shengji.units) has tractors
of lengths k1 ≥ k2 ≥ … ≥ kt and P pairs in all (a k-tractor holds k pairs, a pair one).
Let H be the follower's cards of suit s (h of them) and F the cards played.

1. Count: F has exactly n cards, all from the hand.
2. Suit: F holds exactly min(h, n) cards of suit s. When h ≤ n this plays the whole suit, and
   the other n − h cards are free (discard or trump): nothing more is checked.
3. Shape, only when h > n (then F lies wholly in suit s). Two measures of a set X of cards:
   - pairs(X): the number of pairs in X; the pair score is min(P, pairs(X));
   - tractors(X): ``shengji.units.tractor_vector``: led tractor i (the longest served first:
     "unit by unit" in the lead's decomposition order) is matched by the lexicographically
     largest list of disjoint tractors of X, longest first, of at most ki pairs together —
     one tractor of its own length if X has one, else the longest shorter one, and from 4
     pairs on, several: a led 4-pair tractor wants a 4-pair tractor, else a 3-pair tractor
     (+ a pair), else two 2-pair tractors, else one 2-pair tractor (+ two pairs), else pairs
     (§6, revised 2026-12-05: a hand holding two 2-pair tractors must play both).
   F is legal iff  tractors(F) = tractors(H)  and  min(P, pairs(F)) = min(P, pairs(H)).

   Both maxima are reached together by some F (tractor pairs are pairs, the tractors of led
   tractor i hold at most ki pairs, Σ ki ≤ P, and the rest of the n cards can be filled from
   H since h > n), so this is exactly "the closest shape the hand allows", with the chain of
   §6 for a led k-tractor:
     k-tractor → (k−1)-tractor + pair → … → k separate pairs → fewer pairs + singles → singles;
   a led pair needs a pair when H has one (有对必须出对); singles constrain nothing. A pair
   inside a longer tractor of H counts as a pair; a longer tractor of H serves a shorter led
   one. The two tractor vectors and pair counts are what ``why_illegal_follow`` reports.

Everything works on count vectors and the context's slot tables; the analysis of a lead is
cached on the context (bounded), since three follows and the trick winner read the same lead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Iterator

import numpy as np
from mypy_extensions import mypyc_attr

from tabletop.cards import CARDS, Card, sort_cards
from shengji.context import SUIT_NAMES, Context, card_list, count_vector
from shengji.units import (
    pair_profile, placements, profile_of, shape_of, suit_units, tractor_vector,
)

_CACHE_LIMIT = 4096


@mypyc_attr(native_class=False)  # compiled builds: a Python class all the same, so it pickles
class LeadInfo:
    """What following needs to know about a lead (computed once per context and lead)."""

    __slots__ = ("n", "suit", "pairs", "tractors", "shape", "tops")

    def __init__(self, cards: list[int], ctx: Context):
        if not cards:
            raise ValueError("empty lead")
        suit = ctx.suit_of[cards[0]]
        if any(ctx.suit_of[c] != suit for c in cards):
            raise ValueError(f"not a valid lead (mixed effective suits): {_text(cards)}")
        self.n = len(cards)
        self.suit = suit
        self.shape, self.tops = shape_of(cards, ctx)       # unit lengths (pairs), tops
        self.pairs = sum(self.shape)                       # P: pairs in all units
        self.tractors = tuple(k for k in self.shape if k >= 2)

    @property
    def is_throw(self) -> bool:
        return len(self.shape) > 1


def lead_info(lead: Any, ctx: Context) -> LeadInfo:
    return lead_info_of(card_list(lead), ctx)


def lead_info_of(cards: Sequence[Card], ctx: Context) -> LeadInfo:
    """``lead_info`` of Card objects (a play's cards), without reading them first."""
    key = tuple(sorted(cards))
    info = ctx.cache.get(key)
    if info is None:
        info = LeadInfo(list(key), ctx)
        if len(ctx.cache) >= _CACHE_LIMIT:
            ctx.cache.clear()
        ctx.cache[key] = info
    return info


def hand_counts(hand: Any) -> list[int]:
    """The 54-count list of a hand (a list of Cards is counted directly)."""
    if type(hand) is list:
        vec = [0] * 54
        try:
            for c in hand:
                if type(c) is not Card:
                    raise TypeError
                vec[c] += 1
            return vec
        except TypeError:
            pass
    return count_vector(card_list(hand))


# ---------------------------------------------------------------------------------------------
# Legality

def why_illegal_follow(hand: Any, lead: Any, play: Any, ctx: Context) -> str | None:
    """Why ``play`` is not a legal follow to ``lead`` from ``hand`` (which includes the
    played cards), or None when it is legal. Raises ValueError for an invalid lead."""
    info = lead_info(lead, ctx)
    return follow_error(hand_counts(hand), card_list(play), info, ctx)


def is_legal_follow(hand: Any, lead: Any, play: Any, ctx: Context) -> bool:
    return why_illegal_follow(hand, lead, play, ctx) is None


def follow_error(hand: list[int], play: Sequence[int], info: LeadInfo, ctx: Context) -> str | None:
    """The check itself: ``hand`` a 54-count list (including the play), ``play`` a card list."""
    n = info.n
    if len(play) != n:
        return f"must play {n} card{'s' if n != 1 else ''}, played {len(play)}"
    copies: dict[int, int] = {}
    for c in play:
        copies[c] = copies.get(c, 0) + 1
    missing = [c for c, k in copies.items() if k > hand[c]]
    if missing:
        return f"cards not in hand: {_text(sorted(missing))}"
    s = info.suit
    suit_of = ctx.suit_of
    in_suit = 0
    for c in play:
        if suit_of[c] == s:
            in_suit += 1
    h = 0
    for c in ctx.kinds[s]:
        h += hand[c]
    need = h if h < n else n
    if in_suit != need:
        name = SUIT_NAMES[s]
        return (f"must follow {name}: you hold {h} {name if h != 1 else name[:-1]}"
                f" and played {in_suit}")
    if h <= n or not info.pairs:
        return None
    # Shape (h > n: the whole play lies in the led suit).
    h_avail = pair_profile(hand, ctx, s)
    if info.tractors:
        want = tractor_vector(h_avail, info.tractors)
        if any(want) and tractor_vector(profile_of(copies, ctx, s), info.tractors) != want:
            held = [u for u in suit_units(hand, ctx, s) if u[0] >= 2]
            return f"must play {_tractors_text(want)}: you hold {_units_text(held)}"
    want_pairs = min(info.pairs, sum(h_avail))
    got_pairs = 0
    for k in copies.values():
        got_pairs += k >> 1
    if got_pairs < want_pairs:
        paired = [c for c in ctx.kinds[s] if hand[c] >= 2]
        what = "a pair" if want_pairs == 1 else f"{want_pairs} pairs"
        return f"must play {what}: you hold {' '.join(_text([c, c]) for c in paired)}"
    return None


def _text(cards: list[int]) -> str:
    return "".join(str(CARDS[c]) for c in cards)


def _units_text(units: list) -> str:
    return " ".join(_text(u[2]) for u in units)


def _tractors_text(lengths: tuple[int, ...]) -> str:
    js = [j for j in lengths if j]
    if len(js) == 1:
        return f"a tractor of {js[0]} pairs"
    return "tractors of " + ", ".join(map(str, js[:-1])) + f" and {js[-1]} pairs"


# ---------------------------------------------------------------------------------------------
# Enumeration and sampling

def legal_follows(hand: Any, lead: Any, ctx: Context) -> list[tuple[Card, ...]]:
    """Every legal follow, each a distinct multiset in canonical order (tabletop sort_cards).
    The list can be large when the follower is void or short on a long lead (then any cards
    may be added); use ``sample_follow`` or ``is_legal_follow`` there."""
    info = lead_info(lead, ctx)
    counts = count_vector(card_list(hand))
    n, s = info.n, info.suit
    suit_kinds = [c for c in ctx.kinds[s] if counts[c]]
    h = sum(counts[c] for c in suit_kinds)
    out: list[tuple[Card, ...]] = []
    if n == 1:
        pool = suit_kinds if h else [c for c in range(len(counts)) if counts[c]]
        return [(CARDS[c],) for c in pool]
    if info.shape == (1,) and h > 2:
        pairs: list[tuple[Card, ...]] = [(CARDS[c], CARDS[c]) for c in suit_kinds if counts[c] >= 2]
        if pairs:
            return pairs
    if h <= n:
        forced = [c for c in suit_kinds for _ in range(counts[c])]
        others = [c for c in range(len(counts)) if counts[c] and ctx.suit_of[c] != s]
        for chosen in _multisets(others, [counts[c] for c in others], n - h, 0):
            out.append(_canonical(forced + chosen))
        return out
    h_avail = pair_profile(counts, ctx, s)
    want_pairs = min(info.pairs, sum(h_avail))
    want = tractor_vector(h_avail, info.tractors) if info.tractors else ()
    for chosen in _multisets(suit_kinds, [counts[c] for c in suit_kinds], n, want_pairs):
        if want and tractor_vector(pair_profile(count_vector(chosen), ctx, s), info.tractors) != want:
            continue
        out.append(_canonical(chosen))
    return out


def count_legal_follows(hand: Any, lead: Any, ctx: Context) -> int:
    """``len(legal_follows(hand, lead, ctx))`` without listing the free choices of a follower
    short of the suit (a polynomial count), so callers can decide whether to enumerate."""
    info = lead_info(lead, ctx)
    counts = count_vector(card_list(hand))
    n, s = info.n, info.suit
    h = sum(counts[c] for c in ctx.kinds[s])
    if h > n:
        return len(legal_follows(hand, lead, ctx))
    ways = [1] + [0] * (n - h)            # ways[k]: multisets of k other cards
    for c in range(len(counts)):
        if counts[c] and ctx.suit_of[c] != s:
            ways = [sum(ways[k - t] for t in range(min(counts[c], k) + 1)) for k in range(n - h + 1)]
    return ways[n - h]


def _canonical(cards: list[int]) -> tuple[Card, ...]:
    return tuple(sort_cards(CARDS[c] for c in cards))


def _multisets(kinds: list[int], caps: list[int], size: int, min_pairs: int) -> Iterator[list[int]]:
    """Sub-multisets of ``size`` cards (at most caps[i] of kinds[i]) holding ≥ min_pairs pairs."""
    m = len(kinds)
    supply = [0] * (m + 1)
    pair_supply = [0] * (m + 1)
    for i in range(m - 1, -1, -1):
        supply[i] = supply[i + 1] + caps[i]
        pair_supply[i] = pair_supply[i + 1] + (caps[i] >> 1)
    chosen: list[int] = []

    def walk(i: int, left: int, pairs: int) -> Iterator[list[int]]:
        if left == 0:
            if pairs >= min_pairs:
                yield list(chosen)
            return
        if i == m or supply[i] < left or pairs + pair_supply[i] < min_pairs:
            return
        for take in range(min(caps[i], left), -1, -1):
            chosen.extend([kinds[i]] * take)
            yield from walk(i + 1, left - take, pairs + (take >> 1))
            del chosen[len(chosen) - take:]

    yield from walk(0, size, 0)


def sample_follow(hand: Any, lead: Any, ctx: Context, rng: np.random.Generator) -> tuple[Card, ...]:
    """A random legal follow, built directly (never by enumeration): when short of the suit,
    the whole suit plus random other cards; otherwise a random placement of the required
    tractors, then random further pairs up to the required count, then random suit cards.
    Every legal follow has a positive probability. Canonical order."""
    info = lead_info(lead, ctx)
    cards = card_list(hand)
    n, s = info.n, info.suit
    suit_of = ctx.suit_of
    in_suit = [c for c in cards if suit_of[c] == s]
    h = len(in_suit)
    if h <= n:
        return _canonical(in_suit + _pick([c for c in cards if suit_of[c] != s], n - h, rng))
    if not info.pairs:
        return _canonical(_pick(in_suit, n, rng))
    left = count_vector(in_suit)
    if n == 2:                                    # a led pair: any held pair, else any two
        pairs = [c for c in set(in_suit) if left[c] >= 2]
        if pairs:
            card = CARDS[min(pairs) if len(pairs) == 1 else sorted(pairs)[_below(len(pairs), rng)]]
            return (card, card)
        return _canonical(_pick(in_suit, 2, rng))
    h_avail = pair_profile(left, ctx, s)
    want_pairs = min(info.pairs, sum(h_avail))
    chosen: list[int] = []
    if info.tractors:
        lengths = sorted((j for j in tractor_vector(h_avail, info.tractors) if j), reverse=True)
        if lengths:
            options = placements(h_avail, lengths)
            starts = options[_below(len(options), rng)]
            ladder = ctx.slots[s]
            for k, a in zip(lengths, starts):
                for rung in ladder[a:a + k]:
                    candidates = [c for c in rung if left[c] >= 2]
                    c = candidates[_below(len(candidates), rng)]
                    left[c] -= 2
                    chosen += (c, c)
    if want_pairs * 2 > len(chosen):
        pair_kinds = [c for c in ctx.kinds[s] for _ in range(left[c] >> 1)]
        for c in _pick(pair_kinds, want_pairs - len(chosen) // 2, rng):
            left[c] -= 2
            chosen += (c, c)
    rest = [c for c in ctx.kinds[s] for _ in range(left[c])]
    chosen += _pick(rest, n - len(chosen), rng)
    return _canonical(chosen)


def _below(m: int, rng: np.random.Generator) -> int:
    """A uniform integer in [0, m) (rng.random is several times cheaper than rng.integers)."""
    return min(int(rng.random() * m), m - 1)


def _pick(pool: Sequence[int], k: int, rng: np.random.Generator) -> list[int]:
    """k distinct positions of ``pool``, uniformly (partial Fisher–Yates)."""
    if k <= 0:
        return []
    m = len(pool)
    if k >= m:
        return list(pool)
    pool = list(pool)
    for i, r in enumerate(rng.random(k).tolist()):
        j = i + int(r * (m - i))
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]
