"""A search baseline built on cloning: determinised (perfect-information) Monte Carlo for
掼蛋 at a strict table.

At the acting agent's decision ``DeterminisedSearch(budget).choose(env)`` snapshots the env
(``clone``), and for each legal action plays ``budget`` rollouts: restore, deal the cards
the seat cannot see afresh among the other seats (each keeps its
hand size: a determinisation), take the action, and play to the end of the deal with the
heuristic in every seat (on the engine: no observation vectors); the action with the best mean level
result for the seat's side is chosen, and the env is restored. Every action is tried on the
same ``budget`` determinisations and random streams (common random numbers: the actions are
compared on the same deals). What the seat knows beyond its hand and the played cards (tribute
and return cards) is not used: a baseline, not a strong player."""

from __future__ import annotations

from typing import Any

import numpy as np

from tabletop.errors import OptionError
from tabletop.runner import run

from paiju.agent_specs import agent_factory


class DeterminisedSearch:
    def __init__(self, budget: int = 4, rng: np.random.Generator | None = None) -> None:
        if budget < 1:
            raise OptionError(f"budget must be at least 1 rollout, got {budget!r}")
        self.budget = budget
        self.rng = np.random.default_rng(0) if rng is None else rng
        heuristic = agent_factory("heuristic", "guandan")
        self._players = [heuristic(self.rng, seat) for seat in range(4)]   # the heuristic keeps no state

    def choose(self, env: Any) -> int:
        """The action id for ``env``'s acting agent (a PettingZoo env of ``guandan_v0``, or
        its ``unwrapped``); ``env`` is left as it was."""
        table = env.unwrapped
        if table.game != "guandan" or table.refereed or table.episode != "deal":
            raise OptionError("DeterminisedSearch plays strict 掼蛋 deal episodes")
        agent = table.agent_selection
        seat = table._seat_of[agent]
        legal = np.flatnonzero(table.observe(agent)["action_mask"])
        if len(legal) == 1:
            return int(legal[0])
        snapshot = table.clone()
        seeds = self.rng.integers(2**63, size=self.budget)
        means = np.zeros(len(legal))
        try:
            for k, action in enumerate(legal):
                total = 0.0
                for seed in seeds:   # the same determinisations and streams for every action
                    table.restore(snapshot)
                    rng = np.random.default_rng(seed)
                    self._determinise(table.engine, seat, rng)
                    total += self._rollout(table, int(action), seat % 2, rng)
                means[k] = total / len(seeds)
        finally:
            table.restore(snapshot)
        return int(legal[int(np.argmax(means))])

    def _determinise(self, deal: Any, me: int, rng: np.random.Generator) -> None:
        """Deal the other seats' cards afresh among them, each keeping its hand size."""
        others = [s for s in range(4) if s != me and deal.sizes[s]]
        if len(others) < 2:
            return
        pool = np.concatenate([np.repeat(np.arange(54), deal.hands[s]) for s in others])
        rng.shuffle(pool)
        at = 0
        for s in others:
            size = deal.sizes[s]
            deal.hands[s] = np.bincount(pool[at:at + size], minlength=54).tolist()
            deal.hand_changed(s)
            at += size

    def _rollout(self, table: Any, action: int, team: int, rng: np.random.Generator) -> float:
        for player in self._players:
            player.rng = rng   # the heuristic's ties: this rollout's stream
        table.step(action)   # the env's bots answer until an agent's turn: then the engine alone
        result = table.engine.result or run(table.engine, self._players)
        return float(result.levels if result.team == team else -result.levels)
