"""tabletop.rng keeps numpy's SeedSequence pool per path prefix: every stream and child seed
must be exactly what numpy's own SeedSequence gives (the logs depend on it)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop import rng

words = st.one_of(st.integers(0, 40), st.integers(0, 2**32 + 3), st.integers(0, 2**200))


def _numpy_generator(seed, *path):
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=path)))


@settings(max_examples=300, deadline=None)
@given(seed=words, paths=st.lists(st.lists(words, max_size=4).map(tuple), min_size=1, max_size=6))
def test_streams_and_child_seeds_are_numpys(seed, paths):
    """Several paths under one seed (they share prefixes, so the cache is read and extended),
    seeds wider than the pool, path words wider than 32 bits."""
    for path in paths:
        ours, theirs = rng.generator(seed, *path), _numpy_generator(seed, *path)
        assert ours.bit_generator.state == theirs.bit_generator.state
        assert ours.integers(1 << 62, size=3).tolist() == theirs.integers(1 << 62, size=3).tolist()
        state = np.random.SeedSequence(seed, spawn_key=path).generate_state(2, np.uint32)
        assert rng.child_seed(seed, *path) == int(state[0]) | (int(state[1]) << 32)


def test_the_prefix_cache_is_bounded_and_still_right_after_it_is_cleared(monkeypatch):
    monkeypatch.setattr(rng, "_PREFIXES_KEPT", 5)
    for index in range(40):
        assert rng.generator(9, index, 3).bit_generator.state == _numpy_generator(9, index, 3).bit_generator.state
    assert len(rng._PREFIXES) <= 5 + 3


def test_negative_seeds_and_path_words_are_refused_as_numpy_refuses_them():
    with pytest.raises(ValueError, match="non-negative"):
        rng.generator(-1, 2)
    with pytest.raises(ValueError):
        rng.generator(1, -2)
    with pytest.raises(ValueError):
        rng.child_seed(1, 3, -2)
