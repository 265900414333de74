"""An infraction injector asks its catalogue what the seat to act could commit at every
decision; at a 双升 lead or follow and a 掼蛋 play in turn the catalogue tells it from the
legal actions alone (``in_turn_from_legal``), so the seat's observation is built only when it
errs. That answer must be ``in_turn``'s on the observation, or the injector's draws (and every
log) would change: checked at every decision of refereed deals with injected irregularities."""

from __future__ import annotations

import pytest

from enforcement.injector import Injector
from paiju.games import adapter_for
from paiju.sim.batch import Batch, start_unit, unit_players
from tabletop.runner import run


@pytest.mark.parametrize("game", ["shengji", "guandan"])
@pytest.mark.parametrize("rate", [0.05, 0.3])
def test_kinds_told_from_the_legal_actions_are_in_turns_on_the_observation(game, rate):
    adapter = adapter_for(game)
    rules = adapter.rules_from_dict({})
    batch = Batch(game=game, unit="deals", count=6, seed=3, rules=rules.to_dict(), agents=("random",) * 4,
                  options={"referee": True, "infractions": rate})
    told = asked = 0
    for index in range(6):
        engine, _ = start_unit(adapter, "deals", 3, index, rules, batch.options)
        agents, referee = unit_players(adapter, batch, index)

        def checking(injector: Injector):
            act_on_demand = injector.act_on_demand

            def checked(observe, seat, legal):
                nonlocal told, asked
                asked += 1
                kinds = injector.catalogue.in_turn_from_legal(legal)
                if kinds is not None:
                    told += 1
                    assert kinds == injector.catalogue.in_turn(observe(seat), legal), (seat, legal)
                return act_on_demand(observe, seat, legal)
            return checked

        for agent in agents:
            assert isinstance(agent, Injector)
            agent.act_on_demand = checking(agent)   # type: ignore[method-assign]
        run(engine, agents, referee=referee)
        assert engine.result is not None
    assert told > asked // 2   # most decisions are told without observing
