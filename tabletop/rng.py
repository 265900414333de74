"""Seeded randomness. Every random choice flows from one integer seed through
``numpy.random.SeedSequence``; a stream is named by its path in the seed tree, so
results never depend on the order in which streams are created (or on which worker
process creates them).

    seed → (match m) → (deal d) → stream (shuffle, cut, face-up card, agent of seat s …)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.random.bit_generator import ISeedSequence

# Stream identifiers (the last element of a path).
SHUFFLE = 0
CUT = 1
FACE_UP = 2
FIRST_BANKER = 3
KITTY_FLIP = 4
AGENT = 10        # AGENT + seat
INJECTOR = 20     # INJECTOR + seat
REFEREE = 30
REDEAL = 40       # (REDEAL, k): the shuffle of the k-th redeal
TRIBUTE_TIE = 50  # a rules option's draw between equal double-tribute payers


def seed_sequence(seed: int, *path: int) -> np.random.SeedSequence:
    """The node of the seed tree at ``path`` below ``seed``."""
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    return np.random.SeedSequence(seed, spawn_key=tuple(int(p) for p in path))


def generator(seed: int, *path: int) -> np.random.Generator:
    """A fresh generator for the stream at ``path``: the same stream as
    ``Generator(PCG64(seed_sequence(seed, *path)))``, seeded from ``_state_words``."""
    # numpy's stub names SeedSequence; PCG64 takes any ISeedSequence (bit_generator.pyx)
    return np.random.Generator(np.random.PCG64(_Seeded(_state_words(seed, path, 8))))  # type: ignore[arg-type]


def referee_generator(seed: int | None, deal_number: int) -> np.random.Generator:
    """The referee's stream for one deal — its lots and random draws — derived the same way
    for every game: the deal's seed (0 for a deal from explicit hands), its number, REFEREE."""
    return generator(0 if seed is None else seed, deal_number, REFEREE)


def child_seed(seed: int, *path: int) -> int:
    """A plain integer seed for the node at ``path`` (what a deal or match records)."""
    words = _state_words(seed, path, 2)
    return words[0] | (words[1] << 32)


# ---------------------------------------------------------------------------------------------
# numpy's SeedSequence, its pool kept per path prefix. A deal makes eight generators or so
# (shuffle, cut, face-up card, one per agent …) whose paths share their seed and first steps;
# a numpy SeedSequence mixes the whole path again for each (≈ 30 µs with its generate_state).
# Its mixing (numpy/random/bit_generator.pyx, constants below) reads the entropy word by word:
# the seed's words (padded to the pool size) fill the pool, then each path word is mixed into
# it in turn, so the pool after a prefix of the path is a state to start the rest from.

_MASK = 0xFFFFFFFF
_POOL_SIZE = 4
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_MULT_L, _MIX_MULT_R = 0xCA01F9DD, 0x4973F715
_XSHIFT = 16
_PREFIXES: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}
"""(seed, *path prefix) → (pool, hash constant) after mixing them; cleared when it grows
past ``_PREFIXES_KEPT`` (a run reuses only its recent deals' prefixes)."""
_PREFIXES_KEPT = 512


def _words(value: int) -> list[int]:
    """``value`` as numpy coerces an int to entropy: little-endian 32-bit words, [0] for 0."""
    if value == 0:
        return [0]
    out = []
    while value:
        out.append(value & _MASK)
        value >>= 32
    return out


def _mixed_in(pool: tuple[int, ...], hash_const: int, words: list[int]) -> tuple[tuple[int, ...], int]:
    """The pool after mixing ``words`` into every pool word, in order (the third stage of
    ``SeedSequence.mix_entropy``)."""
    mixer = list(pool)
    for word in words:
        for dst in range(_POOL_SIZE):
            value = word ^ hash_const
            hash_const = (hash_const * _MULT_A) & _MASK
            value = (value * hash_const) & _MASK
            value ^= value >> _XSHIFT
            mixed = (_MIX_MULT_L * mixer[dst] - _MIX_MULT_R * value) & _MASK
            mixer[dst] = mixed ^ (mixed >> _XSHIFT)
    return tuple(mixer), hash_const


def _seeded_pool(seed: int) -> tuple[tuple[int, ...], int]:
    """The pool and hash constant after the seed's words (``mix_entropy``'s first two stages,
    and its third for a seed wider than the pool)."""
    entropy = _words(seed)
    entropy += [0] * (_POOL_SIZE - len(entropy))
    hash_const = _INIT_A
    mixer = []
    for word in entropy[:_POOL_SIZE]:
        value = word ^ hash_const
        hash_const = (hash_const * _MULT_A) & _MASK
        value = (value * hash_const) & _MASK
        mixer.append(value ^ (value >> _XSHIFT))
    for src in range(_POOL_SIZE):
        for dst in range(_POOL_SIZE):
            if src != dst:
                value = mixer[src] ^ hash_const
                hash_const = (hash_const * _MULT_A) & _MASK
                value = (value * hash_const) & _MASK
                value ^= value >> _XSHIFT
                mixed = (_MIX_MULT_L * mixer[dst] - _MIX_MULT_R * value) & _MASK
                mixer[dst] = mixed ^ (mixed >> _XSHIFT)
    return _mixed_in(tuple(mixer), hash_const, entropy[_POOL_SIZE:])


def _pool(seed: int, path: tuple[int, ...]) -> tuple[int, ...]:
    """``SeedSequence(seed, spawn_key=path).pool``, from the longest prefix mixed before."""
    if len(_PREFIXES) > _PREFIXES_KEPT:
        _PREFIXES.clear()
    key = (seed, *path)
    known = len(key)
    state = None
    while known:   # one lookup per prefix: another thread may clear the cache between two
        state = _PREFIXES.get(key[:known])
        if state is not None:
            break
        known -= 1
    if state is None:
        state = _PREFIXES[key[:1]] = _seeded_pool(seed)
        known = 1
    for end in range(known + 1, len(key) + 1):
        state = _PREFIXES[key[:end]] = _mixed_in(*state, _words(key[end - 1]))
    return state[0]


def _state_words(seed: int, path: tuple[int, ...], count: int) -> list[int]:
    """``seed_sequence(seed, *path).generate_state(count // 2, np.uint64)`` as 32-bit words
    (``count`` even), or ``generate_state(count, np.uint32)``: the same words."""
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    path = tuple(int(p) for p in path)
    if any(p < 0 for p in path):   # numpy's own error
        return [int(w) for w in seed_sequence(seed, *path).generate_state(count, np.uint32)]
    pool = _pool(seed, path)
    hash_const = _INIT_B
    out = []
    for index in range(count):
        value = pool[index % _POOL_SIZE] ^ hash_const
        hash_const = (hash_const * _MULT_B) & _MASK
        value = (value * hash_const) & _MASK
        out.append(value ^ (value >> _XSHIFT))
    return out


class _Seeded(ISeedSequence):
    """A seed sequence whose state words are known already (what ``PCG64`` asks of one)."""

    __slots__ = ("words",)

    def __init__(self, words: list[int]) -> None:
        self.words = words

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> np.ndarray:
        words = self.words
        if np.dtype(dtype) == np.uint64:
            if len(words) != 2 * n_words:
                raise ValueError(f"this seed sequence holds {len(words) // 2} 64-bit words, not {n_words}")
            return np.array([words[i] | (words[i + 1] << 32) for i in range(0, len(words), 2)], dtype=np.uint64)
        if len(words) != n_words:
            raise ValueError(f"this seed sequence holds {len(words)} 32-bit words, not {n_words}")
        return np.array(words, dtype=np.uint32)
