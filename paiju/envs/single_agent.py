"""A Gymnasium single-agent view of a table: the learner holds one seat, the other three
are played inside the environment by paiju's agents (``"random"``, ``"heuristic"``) or by
yours (an agent object with ``act(observation, legal_actions)``, or a factory called with a
seeded ``numpy.random.Generator``).

    import gymnasium, paiju.envs
    env = gymnasium.make("paiju/Guandan-v0", opponents="heuristic", seat=0)

``opponents``: one spec for the three other seats, a sequence of three (the learner's
下家, partner and 上家, in that order), or a dict {seat: spec}; with ``partner`` (a spec for
the learner's partner) ``opponents`` covers the 下家 and the 上家 only (one spec, two, or
a dict of those two seats). A ``paiju.envs.PolicyAgent`` plays a policy over these very
observations in any seat: self-play. Every other option is the
PettingZoo environment's (``rules``, ``episode``, ``level``, ``referee``, ``infractions``,
``reward``, ``render_mode``). Observations are the PettingZoo ones (``observation`` and
``action_mask``); the reward of a step is the learner's side's, everything the other seats
did until the learner's next turn included. An action outside the mask ends the episode
with ``illegal_reward`` (default -1) and ``info["illegal_action"]`` (PettingZoo's
TerminateIllegalWrapper does the same for the classic games). An episode the other seats
(or the referee) decide before the learner's first turn still takes one step: ``reset``
hands a mask allowing every action, and the next ``step`` ends it with its reward (the
PettingZoo environment's own convention, passed through)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np

from tabletop.errors import OptionError
from tabletop.seats import NUM_SEATS

from paiju.envs import ENV_MODULES


def _seats_for(opponents: Any, seat: int, partner: Any = None) -> dict[int, Any]:
    others = [(seat + k) % NUM_SEATS for k in (1, 2, 3)]
    if partner is not None:   # the partner set apart: opponents are the 下家 and the 上家
        mate, rivals = others[1], [others[0], others[2]]
        if isinstance(opponents, Mapping):
            bots = {int(s): spec for s, spec in opponents.items()}
            if sorted(bots) != sorted(rivals):
                raise OptionError(f"with a partner, opponents must name seats {rivals}, got {sorted(bots)}")
        elif isinstance(opponents, Sequence) and not isinstance(opponents, str):
            if len(opponents) != 2:
                raise OptionError(f"with a partner, opponents: give one agent for both or two, got {len(opponents)}")
            bots = dict(zip(rivals, opponents))
        else:
            bots = {s: opponents for s in rivals}
        bots[mate] = partner
        return bots
    if isinstance(opponents, Mapping):
        bots = {int(s): spec for s, spec in opponents.items()}
        if sorted(bots) != sorted(others):
            raise OptionError(f"opponents must name seats {others} (the learner holds seat {seat}), got {sorted(bots)}")
        return bots
    if isinstance(opponents, Sequence) and not isinstance(opponents, str):
        if len(opponents) != 3:
            raise OptionError(f"opponents: give one agent for all three other seats or three, got {len(opponents)}")
        return dict(zip(others, opponents))
    return {s: opponents for s in others}


class SingleAgentEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}

    def __init__(self, game: str, opponents: Any = "random", seat: int = 0, illegal_reward: float = -1.0,
                 partner: Any = None, **options: Any) -> None:
        if game not in ENV_MODULES:
            raise OptionError(f"unknown game {game!r} (known: {', '.join(ENV_MODULES)})")
        if seat not in range(NUM_SEATS):
            raise OptionError(f"seat must be 0-3, got {seat!r}")
        module = importlib.import_module(ENV_MODULES[game])
        self.game = game
        self.table = module.raw_env(bots=_seats_for(opponents, seat, partner), **options)
        self.seat = seat
        self.agent = f"player_{seat}"
        self.observation_space = self.table.observation_space(self.agent)
        self.action_space = self.table.action_space(self.agent)
        self.render_mode = options.get("render_mode")
        self.illegal_reward = float(illegal_reward)
        self._over = True
        self._carried = 0.0

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict[str, np.ndarray], dict]:
        super().reset(seed=seed)
        table = self.table
        if seed is None and table._root is None:   # never seeded: a seed tree drawn from np_random, as gymnasium does
            seed = int(self.np_random.integers(2**62))
        table.reset(seed=seed)
        self._over = False
        # a reward earned before the learner's first turn (a penalty in the draw) comes with its first step
        self._carried = float(table._cumulative_rewards[self.agent])
        return table.observe(self.agent), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        table = self.table
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        observation = table.observe(self.agent)
        action = int(action)
        if not (0 <= action < len(observation["action_mask"]) and observation["action_mask"][action]):
            self._over = True
            copied = {key: value.copy() for key, value in observation.items()}   # never hand out one array twice
            return copied, self.illegal_reward, True, False, self._info(illegal=True)
        table.step(action)
        terminated = self._over = table.terminations[self.agent]
        reward = float(table._cumulative_rewards[self.agent])
        if self._carried:
            reward, self._carried = reward + self._carried, 0.0
        return table.observe(self.agent), reward, terminated, False, self._info()

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        """The same keys at every step (vector envs and Tianshou stack them): ``result`` (None
        until the episode is over), ``illegal_action`` and, with ``action_features``, the
        learner's legal actions' ids and feature rows (empty when it has no decision)."""
        table = self.table
        info = {"result": table.engine.result, "illegal_action": illegal}
        if table.action_features:
            ids, rows = table.legal_action_features(self.agent) if not self._over else table._no_features
            info["action_ids"], info["action_features"] = ids, rows
        return info

    def policy_agent(self, policy: Any) -> Any:
        """``policy(observation, mask) -> action id`` as an agent for a seat of this game's
        envs (``opponents=`` / ``partner=``): the learner's policy, or a frozen copy of it."""
        from paiju.envs.policy import PolicyAgent

        return PolicyAgent(policy, self.game)

    def action_masks(self) -> np.ndarray:
        """The current action mask as booleans (sb3-contrib's MaskablePPO reads this)."""
        return self.table.observe(self.agent)["action_mask"].astype(bool)

    def render(self) -> "str | np.ndarray | None":
        if self.render_mode == "rgb_array":
            return self.table.picture(self.agent)
        return self.table.render()

    def clone(self) -> tuple[bytes, tuple]:
        """A snapshot of the episode now (the table's, with this wrapper's own state)."""
        return self.table.clone(), (self._over, self._carried)

    def restore(self, snapshot: tuple[bytes, tuple]) -> None:
        """Put the episode back as it was at ``clone`` (as often as wanted)."""
        table_state, (self._over, self._carried) = snapshot
        self.table.restore(table_state)

    # the table's tools, as ``env.unwrapped.…`` (docs/guides/training-agents.md)

    @property
    def engine(self) -> Any:
        """The engine of the episode in progress (``paiju``'s model of the table)."""
        return self.table.engine

    @property
    def referee(self) -> Any:
        """The rulebook referee of a refereed episode (``rulings_made``), else None."""
        return self.table.referee

    def legal_actions(self) -> list[Any]:
        """The engine actions the learner may take now (empty when it has no decision)."""
        return self.table.legal_actions(self.agent) if not self._over else []

    def decode_action(self, action: int) -> Any:
        """The engine action (a 双升 CARD step: the card it adds) that ``action`` stands for now."""
        return self.table.decode_action(action)
