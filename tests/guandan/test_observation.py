"""Observations are made when first read (Deal.observe takes a snapshot): they show the
deal as it was when observed, whenever they are read, and equal an observation built
field by field."""

import copy
import pickle

import attrs

from guandan.agents import RandomAgent
from guandan.deal import Deal
from guandan.observation import Observation
from tabletop import rng as streams


def _eager(deal, seat):
    """The observation built at once, field by field, from the deal's state now."""
    return Observation(
        seat=seat, hand=deal.hand(seat), level=deal.level, phase=deal.phase, to_act=deal.to_act,
        leader=deal.leader, top=deal.top, passed=tuple(deal.passed), announced=tuple(deal.announced),
        played=tuple(deal.played), finish_order=tuple(deal.finish_order), tributes=tuple(deal.tributes),
        tribute_resisted=bool(deal.tribute_plan and deal.tribute_plan.resisted), face_up=deal.face_up)


def test_an_observation_shows_the_deal_as_it_was_when_observed():
    deal = Deal.drawn(11)
    players = [RandomAgent(streams.generator(11, 0, streams.AGENT + s)) for s in range(4)]
    taken = []
    while deal.to_act is not None:
        seat = deal.to_act
        taken.append((deal.observe(seat), deal.observe((seat + 1) % 4),
                       _eager(deal, seat), _eager(deal, (seat + 1) % 4)))
        deal.apply(players[seat].act(deal.observe(seat), deal.legal_actions()))
    for own, other, own_then, other_then in taken:  # read only now, after the deal is over
        assert own == own_then and other == other_then
        assert repr(own) == repr(own_then)


def test_a_deferred_observation_behaves_as_a_plain_one():
    deal = Deal.drawn(3)
    obs = deal.observe(deal.to_act)
    assert pickle.loads(pickle.dumps(obs)) == obs
    assert copy.copy(obs) == obs
    assert attrs.evolve(obs, seat=1).seat == 1 and obs.partner == (obs.seat + 2) % 4
    assert hash(obs) == hash(_eager(deal, deal.to_act))
    fresh = deal.observe(0)
    assert attrs.asdict(fresh, recurse=False) == attrs.asdict(_eager(deal, 0), recurse=False)
    try:
        fresh.no_such_field
    except AttributeError as exc:
        assert "no_such_field" in str(exc)
    else:
        raise AssertionError("a missing attribute must raise AttributeError")
