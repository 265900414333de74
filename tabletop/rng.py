"""Seeded randomness. Every random choice flows from one integer seed through
``numpy.random.SeedSequence``; a stream is named by its path in the seed tree, so
results never depend on the order in which streams are created (or on which worker
process creates them).

    seed → (match m) → (deal d) → stream (shuffle, cut, face-up card, agent of seat s …)
"""

from __future__ import annotations

import numpy as np

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


def seed_sequence(seed: int, *path: int) -> np.random.SeedSequence:
    """The node of the seed tree at ``path`` below ``seed``."""
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    return np.random.SeedSequence(seed, spawn_key=tuple(int(p) for p in path))


def generator(seed: int, *path: int) -> np.random.Generator:
    """A fresh generator for the stream at ``path``."""
    return np.random.Generator(np.random.PCG64(seed_sequence(seed, *path)))


def referee_generator(seed: int | None, deal_number: int) -> np.random.Generator:
    """The referee's stream for one deal — its lots and random draws — derived the same way
    for every game: the deal's seed (0 for a deal from explicit hands), its number, REFEREE."""
    return generator(0 if seed is None else seed, deal_number, REFEREE)


def child_seed(seed: int, *path: int) -> int:
    """A plain integer seed for the node at ``path`` (what a deal or match records)."""
    words = seed_sequence(seed, *path).generate_state(2, np.uint32)
    return int(words[0]) | (int(words[1]) << 32)
