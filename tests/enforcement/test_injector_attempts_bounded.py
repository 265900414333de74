"""A repeated irregular attempt is bounded (issue 29, item 12): an attempt the referee takes
back leaves the seat to act again, so at a high rate the seat could attempt forever (one act
made 5,000 identical attempts). An injector makes at most ``MAX_IRREGULAR_IN_A_ROW``
attempts at its own turns in a row; then its agent decides, and the count starts again."""

from __future__ import annotations

import pytest

from enforcement.injector import MAX_IRREGULAR_IN_A_ROW, Injector
from paiju.games import adapter_for
from paiju.sim.batch import Batch, start_unit, unit_players
from tabletop.runner import run


@pytest.mark.parametrize("game", ["shengji", "guandan"])
def test_a_seat_at_rate_one_attempts_at_most_the_bound_in_a_row_and_the_deal_ends(game):
    adapter = adapter_for(game)
    rules = adapter.rules_from_dict({})
    batch = Batch(game=game, unit="deals", count=1, seed=0, rules=rules.to_dict(), agents=("random",) * 4,
                  options={"referee": True, "infractions": 1.0})
    engine, _ = start_unit(adapter, "deals", 0, 0, rules, batch.options)
    agents, referee = unit_players(adapter, batch, 0)
    turns: dict[int, list[bool]] = {seat: [] for seat in range(4)}   # per own turn: irregular?

    def recording(injector: Injector, seat: int):
        act_on_demand = injector.act_on_demand   # what the runner calls

        def recorded(observe, asked, legal):
            action = act_on_demand(observe, asked, legal)
            turns[seat].append(injector.irregular_in_a_row > 0)
            return action
        return recorded

    for seat, agent in enumerate(agents):
        assert isinstance(agent, Injector)
        agent.act_on_demand = recording(agent, seat)   # type: ignore[method-assign]
    run(engine, agents, referee=referee, max_steps=20_000)   # today: still running after 20,000 actions
    assert engine.to_act is None and engine.result is not None
    longest = 0
    for seat, irregular in turns.items():
        streak = 0
        for was in irregular:
            streak = streak + 1 if was else 0
            longest = max(longest, streak)
    assert longest <= MAX_IRREGULAR_IN_A_ROW   # after the bound's attempts in a row, the agent's own decision
    if game == "shengji":   # where a taken-back attempt repeats: the bound is reached
        assert longest == MAX_IRREGULAR_IN_A_ROW
