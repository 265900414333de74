"""The engine's shortcuts on the sampling path give what the plain definitions give: a Play
made without the converter equals the converted one, a random lead (picked without listing
the units) is the unit a uniform pick from ``lead_units`` gives for the same draw, and an
observation filled in directly equals the one attrs' ``__init__`` makes."""

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.actions import THROW_SAMPLE_SHARE, Play, lead_units, pick_index, play_of, random_lead
from shengji.agents import RandomAgent
from shengji.context import Context
from shengji.deal import Deal
from shengji.observation import Observation
from tabletop.cards import full_deck, sort_cards
from tabletop.rng import AGENT, generator

_DECK = full_deck(2)


def _hand(seed: int, size: int) -> list:
    rng = np.random.default_rng(seed)
    return [_DECK[i] for i in rng.choice(len(_DECK), size=size, replace=False)]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), size=st.integers(1, 12), seat=st.integers(0, 3))
def test_play_of_equals_the_converted_play(seed, size, seat):
    cards = _hand(seed, size)                         # any order, copies anywhere
    made = play_of(seat, cards)
    assert made == Play(seat, cards) and hash(made) == hash(Play(seat, cards))
    assert made.cards == tuple(sort_cards(cards)) and type(made.cards) is tuple


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), trump=st.sampled_from(["S", "H", "C", "D", None]),
       level=st.sampled_from(["2", "7", "A"]), size=st.integers(1, 33))
def test_random_lead_is_a_uniform_pick_of_lead_units(seed, trump, level, size):
    ctx = Context(level, trump)
    hand = tuple(sort_cards(_hand(seed, size)))
    rng, reference = np.random.default_rng(seed), np.random.default_rng(seed)
    got = random_lead(hand, ctx, rng)
    if reference.random() < THROW_SAMPLE_SHARE:
        return                                        # a random throw: not a unit pick
    units = lead_units(hand, ctx)
    assert got == list(units[pick_index(reference, len(units))])
    assert rng.random() == reference.random()         # the same draws were used


def test_an_observation_made_without_attrs_init_is_the_attrs_one():
    deal = Deal(5, banker=1)
    agents = [RandomAgent(generator(5, AGENT + s)) for s in range(4)]
    seen = 0
    while deal.to_act is not None:
        seat = deal.to_act
        obs = deal.observe(seat)
        fields = attrs.asdict(obs, recurse=False)
        assert list(vars(obs)) == [f.name for f in attrs.fields(Observation)]   # every field, no other
        assert type(obs) is Observation and obs == Observation(**fields) and hash(obs) == hash(Observation(**fields))
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            obs.seat = 3                                                        # type: ignore[misc]
        deal.apply(agents[seat].act(obs, deal.legal_actions()))
        seen += 1
    assert seen > 90
