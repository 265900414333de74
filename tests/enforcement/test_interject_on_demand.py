"""Out-of-turn chances without an observation each (issue 19): the injector's
``interject_on_demand`` draws first and observes only when its seat acts. At every chance of
real refereed deals it must take the same action, and leave its stream where, ``interject``
with the observation built first would; whole logs (deals and matches, both games, the
runner, the invariant checker's wrapper and the environments) stay the same."""

from __future__ import annotations

import copy
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from enforcement.injector import GuandanInfractions, Injector
from enforcement.shengji_infractions import ShengjiInfractions
from paiju.fuzz.case import _Budget, _Limited
from paiju.sim.batch import Batch, adapter, play_unit
from tabletop.seats import REFEREE

GAMES = ("guandan", "shengji")
CATALOGUES = {"guandan": GuandanInfractions(), "shengji": ShengjiInfractions()}


def _log(game_name: str, index: int, rate: float, unit: str = "deals", seed: int = 3) -> list[str]:
    game = adapter(game_name)
    rules = game.rules_from_dict(dict(CATALOGUES[game_name].short_match) if unit == "matches" else {})
    batch = Batch(game=game.name, unit=unit, count=1000, seed=seed, rules=rules.to_dict(),
                  agents=("random",) * 4, options={"referee": True, "infractions": rate})
    lines: list[str] = []
    play_unit(game, batch, rules, index, lines)
    return lines


def _twin(injector: Injector) -> Injector:
    """A copy of ``injector`` with its own generator at the same state."""
    twin = copy.copy(injector)
    rng = np.random.Generator(type(injector.rng.bit_generator)())
    rng.bit_generator.state = injector.rng.bit_generator.state
    twin.rng, twin.committed = rng, list(injector.committed)
    return twin


class _Compared:
    """Replaces ``Injector.interject_on_demand``: at every chance asks an eager twin first
    (the observation built, then ``interject``) and checks the lazy answer against it."""

    def __init__(self) -> None:
        self.chances = 0
        self.observed = 0
        self.acted = 0
        self.lazy = Injector.interject_on_demand

    def __call__(self, injector: Injector, observe: Any, seat: int) -> Any:
        engine = observe.__self__
        assert engine.to_act is not REFEREE and engine.to_act is not None and engine.to_act != seat
        twin = _twin(injector)
        eager = twin.interject(observe(seat), seat)
        looked = []

        def counting(s: int) -> Any:
            looked.append(s)
            return observe(s)

        lazy = self.lazy(injector, counting, seat)
        assert repr(lazy) == repr(eager)
        assert injector.rng.bit_generator.state == twin.rng.bit_generator.state
        assert injector.committed == twin.committed
        assert looked in ([], [seat])
        self.chances += 1
        self.observed += len(looked)
        self.acted += lazy is not None
        return lazy


@pytest.mark.parametrize("game_name", GAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 10_000), rate=st.sampled_from([0.05, 0.2, 0.6]))
def test_the_lazy_chance_takes_the_eager_ones_action_at_every_step(game_name: str, index: int, rate: float) -> None:
    compared = _Compared()
    with mock.patch.object(Injector, "interject_on_demand", lambda self, observe, seat: compared(self, observe, seat)):
        _log(game_name, index, rate)
    assert compared.chances > 0
    assert compared.acted <= compared.observed <= compared.chances
    if rate < 0.5 and compared.chances >= 100:   # most chances are declined without an observation
        assert compared.observed < compared.chances / 5


@pytest.mark.parametrize("game_name", GAMES)
def test_logs_are_the_same_when_every_chance_observes_first(game_name: str) -> None:
    units = [("deals", 0, 0.05), ("deals", 1, 0.3), ("matches", 0, 0.05)]
    lazy = [_log(game_name, index, rate, unit) for unit, index, rate in units]
    with mock.patch.object(Injector, "interject_on_demand", None, create=False):
        # the runner sees no on-demand method (None) and hands the observation to ``interject``
        eager = [_log(game_name, index, rate, unit) for unit, index, rate in units]
    assert lazy == eager
    assert all(any("out_of_turn" in line or "exposed_card" in line or "incident" in line for line in lines)
               for lines in lazy)


def test_the_runner_asks_on_demand_agents_with_observe_and_others_with_the_observation() -> None:
    from tabletop.runner import interjection, interjectors

    class Engine:
        to_act = 0

        def __init__(self) -> None:
            self.looked: list[int] = []

        def observe(self, seat: int) -> str:
            self.looked.append(seat)
            return f"view of {seat}"

    class Eager:
        def __init__(self) -> None:
            self.seen: list[Any] = []

        def interject(self, observation: Any, seat: int) -> None:
            self.seen.append(observation)

    class Lazy:
        def interject(self, observation: Any, seat: int) -> None:
            raise AssertionError("the on-demand method is the one to ask")

        def interject_on_demand(self, observe: Any, seat: int) -> Any:
            return ("acts", observe(seat)) if seat == 3 else None

    class Plain:
        def act(self, observation: Any, legal: Any) -> Any:
            return None

    eager = Eager()
    agents = [eager, eager, Lazy(), Lazy()]
    assert [(s, on_demand) for s, _, on_demand in interjectors([*agents[:2], Plain(), *agents[2:]])] == \
        [(0, False), (1, False), (3, True), (4, True)]
    engine = Engine()
    assert interjection(engine, 0, interjectors(agents)) == ("acts", "view of 3")
    assert eager.seen == ["view of 1"]   # seat 0 is to act: not asked
    assert engine.looked == [1, 3]        # seat 2 declined without looking


@pytest.mark.parametrize("game_name", GAMES)
def test_the_fuzzers_budget_keeps_may_and_could_interject(game_name: str) -> None:
    inner = CATALOGUES[game_name]
    budget = _Budget(1)
    limited = _Limited(inner, budget)
    game = adapter(game_name)
    from paiju.sim.batch import start_unit

    engine, _ = start_unit(game, "deals", 5, 0, game.rules_from_dict({}), {"referee": True})
    obs = engine.observe(1)
    assert limited.may_interject(obs, 1) == inner.may_interject(obs, 1) is True
    assert limited.could_interject(1) is True
    budget.left = 0
    assert limited.may_interject(obs, 1) is False and limited.could_interject(1) is False
    assert limited.out_of_turn(obs, 1) == []
    # a spent budget: the on-demand chance neither draws nor observes
    injector = Injector(None, np.random.default_rng(0), 1.0, limited, seat=1)
    state = injector.rng.bit_generator.state
    assert injector.interject_on_demand(lambda seat: pytest.fail("observed"), 1) is None
    assert injector.rng.bit_generator.state == state


@pytest.mark.parametrize("game_name", GAMES)
def test_the_env_plays_the_same_episodes_lazily(game_name: str) -> None:
    from paiju.envs import guandan_v0, shengji_v0

    module = {"guandan": guandan_v0, "shengji": shengji_v0}[game_name]

    def rollout() -> list[Any]:
        env = module.env(referee=True, bots={1: "random", 2: "random", 3: "random"}, infractions=0.2)
        env.reset(seed=4)
        rng = np.random.default_rng(4)
        trace = []
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            trace.append((agent, action, reward, obs["observation"].tobytes()))
            env.step(action)
        return trace

    lazy = rollout()
    with mock.patch.object(Injector, "interject_on_demand", None):
        eager = rollout()
    assert lazy == eager and len(lazy) > 5


def test_env_bots_that_do_not_observe_get_no_observation() -> None:
    from guandan.agents import RandomAgent
    from paiju.envs import guandan_v0

    seen: list[Any] = []
    act = RandomAgent.act

    def spying(self: Any, observation: Any, legal: Any) -> Any:
        seen.append(observation)
        return act(self, observation, legal)

    with mock.patch.object(RandomAgent, "act", spying):
        env = guandan_v0.env(bots={1: "random", 2: "random", 3: "random"})
        env.reset(seed=1)
        rng = np.random.default_rng(1)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert seen and all(observation is None for observation in seen)
