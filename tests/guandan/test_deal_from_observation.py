"""``Deal.from_observation``: the strict deal a search plays on, made by the deal itself from
what a seat observes and the four hands. Given the true hands it is the same point of play:
the seat to act sees the same table, has the same legal plays, and the rest of the real
deal's actions played on it end the deal with the same result."""

from __future__ import annotations

import pytest

from guandan.agents import HeuristicAgent
from guandan.deal import Deal
from guandan.observation import Phase
from tabletop.rng import generator


def _played(seed: int) -> tuple[list, Deal]:
    """A strict deal (with a tribute) played by the heuristic: (observation, the four hands,
    the legal actions, the action) at every step, and the deal at its end."""
    deal = Deal.drawn(seed, "2", previous_order=(0, 1, 2, 3))
    agents = [HeuristicAgent(generator(seed, s)) for s in range(4)]
    steps = []
    while deal.to_act is not None:
        seat = deal.to_act
        assert isinstance(seat, int)
        obs = deal.observe(seat)
        legal = deal.legal_actions()
        action = agents[seat].act(obs, legal)
        steps.append((obs, [deal.hand(s) for s in range(4)], list(legal), action))
        deal.apply(action)
    return steps, deal


@pytest.mark.parametrize("seed", [3, 8])
def test_a_deal_from_an_observation_and_the_true_hands_continues_as_the_real_deal(seed):
    steps, real = _played(seed)
    assert real.result is not None
    checked = 0
    for at, (obs, hands, legal, _) in enumerate(steps):
        if obs.phase is not Phase.PLAY:
            continue
        copy = Deal.from_observation(obs, hands)
        assert copy.to_act == obs.seat
        again = copy.observe(obs.seat)
        assert (again.hand, again.leader, again.top, again.passed, again.announced, again.played,
                again.finish_order) == (obs.hand, obs.leader, obs.top, obs.passed, obs.announced, obs.played,
                                        obs.finish_order)
        assert copy.take_events() == []   # made quietly: its making is not a log
        assert list(copy.legal_actions()) == legal
        for *_, action in steps[at:]:   # strict: an action not legal on the copy raises
            copy.apply(action)
        assert copy.result is not None
        assert (copy.result.finish_order, copy.result.team, copy.result.levels) == (
            real.result.finish_order, real.result.team, real.result.levels)
        checked += 1
    assert checked > 20
