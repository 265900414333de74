"""A policy over the environments' vectors, seated anywhere: ``PolicyAgent(policy, game)``
plays ``policy(observation, mask) -> action id`` — the observation vector and the action
mask the learner gets — in any seat of a ``paiju.envs`` table (``opponents=`` / ``partner=``
/ ``bots=``), and in ``paiju simulate --agents`` and ``paiju tournament`` (the spec
``policy:MODULE:CALLABLE`` or ``policy:path/to/file.py:CALLABLE``: ``paiju.agent_specs``).

Inside an env it reads the env's own observation (the same vector an agent of that seat
would get); anywhere else it builds the vector from the engine's observation and the legal
actions, with a per-seat tracker kept from what the seat sees (a 掼蛋 match's team levels
are then the deal's level for both sides: the engine's observation does not carry them).
The policy may be replaced at any time (``agent.policy = …``): self-play with the learner's
policy, or a frozen copy of it."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tabletop.errors import IllegalAction, OptionError

SPEC_MODULES = {"guandan": "paiju.envs.guandan_spaces", "shengji": "paiju.envs.shengji_spaces"}

Policy = Callable[[np.ndarray, np.ndarray], Any]
"""``(observation vector, action mask) -> action id``."""


class _Legal:
    """What a decision reads of the engine, given the legal actions alone."""

    __slots__ = ("legal",)

    def __init__(self, legal: Sequence[Any]) -> None:
        self.legal = legal

    def legal_actions(self) -> Sequence[Any]:
        return self.legal


class PolicyAgent:
    """``policy(observation, mask) -> action id`` as an agent (see the module doc)."""

    def __init__(self, policy: Policy, game: str, rng: np.random.Generator | None = None) -> None:
        if game not in SPEC_MODULES:
            raise OptionError(f"unknown game {game!r} (known: {', '.join(SPEC_MODULES)})")
        if not callable(policy):
            raise OptionError(f"a policy is a callable (observation, mask) -> action id, got {type(policy).__name__}")
        self.policy = policy
        self.game = game
        self.rng = rng
        self.spec = importlib.import_module(SPEC_MODULES[game])
        self.table: Any = None
        """The env whose seat this agent fills (set by the env), else None."""
        self._trackers: dict[int, Any] = {}

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        spec, seat = self.spec, observation.seat
        table = self.table
        if table is not None and table.engine is not None and table.engine.to_act == seat:
            engine, tracker = table.engine, table.tracker
        else:
            engine, tracker = _Legal(legal_actions), self._tracker(seat, observation)
        decision = spec.Decision(engine, seat, observation, tracker)
        while True:   # a 双升 play is composed card by card: one policy call per card
            vector = spec.encode_observation(observation, seat, tracker, decision)
            mask = decision.mask
            index = self.policy(vector, mask)
            try:
                index = int(index)
            except (TypeError, ValueError):
                index = -1
            if not (0 <= index < len(mask) and mask[index]):
                raise IllegalAction(f"the policy chose {index}, outside the mask "
                                    f"(legal: {np.flatnonzero(mask).tolist()[:20]})")
            action = decision.choose(index)
            if action is not None:
                return action

    def _tracker(self, seat: int, observation: Any) -> Any:
        tracker = self._trackers.get(seat)
        if tracker is None:
            tracker = self._trackers[seat] = self.spec.Tracker(None)
        tracker.catch_up(observation)
        return tracker

    def __getstate__(self) -> dict[str, Any]:
        state = dict(vars(self))
        state["spec"] = self.spec.__name__   # a module does not pickle: its name does
        state["table"] = None   # the env binds its bots again when it is restored or unpickled
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.spec = importlib.import_module(state["spec"])

    def __repr__(self) -> str:
        return f"PolicyAgent({getattr(self.policy, '__name__', type(self.policy).__name__)}, {self.game!r})"
