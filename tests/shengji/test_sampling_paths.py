"""The engine's shortcuts on the sampling path give what the plain definitions give: a Play
made without the converter equals the converted one, a random lead (picked without listing
the units) is the unit a uniform pick from ``lead_units`` gives for the same draw, an
observation filled in directly equals the one attrs' ``__init__`` makes, the lead and
follow Choices count without listing, the draw asks exactly the seats that can declare, and
a trick led by a single is won as §6 says."""

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.actions import THROW_SAMPLE_SHARE, Play, lead_units, pick_index, play_of, random_lead
from shengji.agents import RandomAgent
from shengji.choices import FollowChoices, LeadChoices
from shengji.context import TRUMP, Context
from shengji.deal import Deal
from shengji.declare import Declaration, can_declare
from shengji.events import CardDrawn, DeckShuffled, DeclarationDeclined, Declared
from shengji.observation import Observation
from shengji.phase import Phase
from shengji.rules import ShengjiRules
from shengji.tricks import trick_winner
from tabletop.cards import RANKS, Card, as_cards, full_deck, sort_cards
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


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), banker=st.integers(0, 3))
def test_lead_and_follow_choices_count_and_first_without_listing(seed, banker):
    """``len`` and ``[0]`` of a lead's or follow's Choices, answered without listing them (the
    infraction injector asks both at every decision), are those of the listed actions."""
    deal = Deal(seed, banker=banker)
    agents = [RandomAgent(generator(seed, AGENT + s)) for s in range(4)]
    asked = 0
    while deal.to_act is not None:
        legal = deal.legal_actions()
        if type(legal) in (LeadChoices, FollowChoices):
            listed = deal.legal_actions().listed
            assert len(deal.legal_actions()) == len(listed)
            assert deal.legal_actions()[0] == listed[0]
            asked += 1
        deal.apply(agents[deal.to_act].act(None, legal))
    assert asked >= 25                                  # a lead and its follows, trick by trick


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), banker=st.sampled_from([None, 0, 1, 2, 3]),
       pair_vs_pair=st.sampled_from(["no", "higher_suit"]), mode=st.sampled_from(["strict", "refereed"]))
def test_the_draw_stops_exactly_where_the_drawer_can_declare(seed, banker, pair_vs_pair, mode):
    """The draw skips ``can_declare`` for a seat that could not declare and drew neither a
    level card nor a joker since: it still stops after a card exactly when the drawer can
    show a declaration that would stand, read back from the log; in both modes (refereed
    mode draws in its own loop)."""
    deal = Deal(seed, banker=banker, rules=ShengjiRules(pair_vs_pair=pair_vs_pair), mode=mode)
    agents = [RandomAgent(generator(seed, AGENT + s)) for s in range(4)]
    events = deal.take_events()
    while deal.to_act is not None and deal.phase in (Phase.DRAW, Phase.DECLARE):
        events += deal.apply(agents[deal.to_act].act(None, deal.legal_actions()))
    counts = [[0] * 54 for _ in range(4)]
    standing = None
    level = RANKS.index(events[0].level)
    draws = 0
    for event, after in zip(events, events[1:] + [None]):
        if isinstance(event, DeckShuffled):
            counts = [[0] * 54 for _ in range(4)]
            standing = None
        elif isinstance(event, Declared):
            standing = Declaration(event.seat, as_cards(event.cards))
        elif isinstance(event, CardDrawn):
            counts[event.seat][Card(event.card)] += 1
            asked = isinstance(after, (Declared, DeclarationDeclined)) and after.seat == event.seat
            assert asked == can_declare(counts[event.seat], level, event.seat, standing, pair_vs_pair)
            draws += 1
    assert draws >= 100


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), trump=st.sampled_from(["S", "H", "C", "D", None]),
       level=st.sampled_from(["2", "7", "A"]))
def test_a_trick_led_by_a_single_goes_to_the_highest_trump_else_the_highest_of_the_suit(seed, trump, level):
    """§6 for a led single (``winner_of``'s plain path): the highest trump wins if any was
    played, else the highest card of the led suit; equal cards go to the first played."""
    ctx = Context(level, trump)
    cards = [Card(c) for c in _hand(seed, 4)]
    led = ctx.suit_of[cards[0]]

    def strength(i: int) -> tuple[int, int, int]:
        suit = ctx.suit_of[cards[i]]
        return (suit == TRUMP, suit in (led, TRUMP), ctx.order_of[cards[i]] if suit in (led, TRUMP) else -1)
    expected = max(range(4), key=lambda i: (strength(i), -i))
    assert trick_winner([[c] for c in cards], ctx) == expected
