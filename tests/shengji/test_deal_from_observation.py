"""``Deal.from_observation``: the strict deal a search plays on, made by the deal itself from
what a seat observes, the four hands and the kitty. Given the true ones it is the same point
of play — mid-trick included: the trick's cards are on the table, not in the hands — so the
seat to act sees the same table, has the same legal plays, and the rest of the real deal's
actions played on it end the deal with the same result."""

from __future__ import annotations

import pytest

from shengji.agents import HeuristicAgent
from shengji.deal import Deal
from tabletop.rng import generator


def _played(seed: int) -> tuple[list, Deal]:
    """A strict deal played by the heuristic: (observation, the four hands, the kitty, the
    listed legal plays, the action) at every step, and the deal at its end."""
    deal = Deal(seed, banker=seed % 4)
    agents = [HeuristicAgent(generator(seed, s)) for s in range(4)]
    steps = []
    while deal.to_act is not None:
        seat = deal.to_act
        assert isinstance(seat, int)
        obs = deal.observe(seat)
        legal = deal.legal_actions()
        action = agents[seat].act(obs, legal)
        steps.append((obs, [deal.hand(s) for s in range(4)], tuple(deal.kitty), legal.listed, action))
        deal.apply(action)
    return steps, deal


@pytest.mark.parametrize("seed", [7, 12])
def test_a_deal_from_an_observation_and_the_true_hands_continues_as_the_real_deal(seed):
    steps, real = _played(seed)
    assert real.result is not None
    checked = mid_trick = 0
    for at, (obs, hands, kitty, listed, _) in enumerate(steps):
        if obs.phase != "play":
            continue
        copy = Deal.from_observation(obs, hands, kitty)
        assert copy.to_act == obs.seat
        again = copy.observe(obs.seat)
        fields = ("hand", "hand_sizes", "trick", "leader", "trick_number", "attackers_points", "banker_points",
                  "adjustments", "trump", "banker")
        assert [getattr(again, f) for f in fields] == [getattr(obs, f) for f in fields]
        assert copy.take_events() == []
        assert copy.legal_actions().listed == listed
        for *_, action in steps[at:]:   # strict: an action not legal on the copy raises
            copy.apply(action)
        assert copy.result is not None
        assert (copy.result.points, copy.result.side, copy.result.team, copy.result.levels) == (
            real.result.points, real.result.side, real.result.team, real.result.levels)
        checked += 1
        mid_trick += bool(obs.trick)
    assert checked > 20 and mid_trick > 10
