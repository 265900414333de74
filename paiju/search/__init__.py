"""A search baseline for both games: determinised Monte Carlo around the heuristic.

``SearchAgent(rng, game, rollouts=…)`` is an agent like the built-in ones (``act(observation,
legal_actions)``, only the seat's own observation read), named ``search`` or ``search:N``
in ``--agents`` (N rollouts a decision; ``search:N:K:H`` also sets the candidates and the
horizon). At a play decision it

1. asks the game's heuristic for its choice (the *prior*) and prunes the legal plays to a
   few candidates around it (``paiju.search.guandan`` / ``paiju.search.shengji``);
2. deals the cards it cannot see among the hidden hands, consistently with what the seat
   knows (each seat's card count, every card played, tribute cards, a 双升 seat's voids shown
   by a follow, the buried kitty for the banker), and builds a strict deal at this very point
   from that *determinisation*;
3. plays every candidate on the same determinisations with the same random streams (common
   random numbers) to the end of the deal, the heuristic in every seat;
4. keeps the prior unless a candidate's mean result is better by more than ``margin`` and
   by ``z`` standard errors of the paired difference: the heuristic's play is the default,
   and search only overrides it when the rollouts say so clearly.

A rollout's value is the deal's level change for the seat's side, with a small tie-break
(掼蛋: 0; 双升: the points, which the level table rounds away). Elsewhere (draw, tribute,
burying, declarations, refereed choices, one legal play) it plays as the heuristic.
Deterministic for a seed: the rollouts draw from the agent's own generator."""

from __future__ import annotations

import importlib
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from tabletop.errors import OptionError

GAMES = {"guandan": "paiju.search.guandan", "shengji": "paiju.search.shengji"}
DEFAULT_ROLLOUTS = 64
DEFAULT_CANDIDATES = 4


class SearchAgent:
    """Determinised Monte Carlo over the heuristic's candidates (see the module doc).

    ``rollouts``: rollouts per decision, shared among the candidates (at least two
    determinisations each); ``candidates``: how many plays besides the prior are tried;
    ``horizon``: search only while the seat holds at most this many cards (the game's
    ``HORIZON`` by default: the end of a deal, where rollouts are short and the unseen
    cards few; earlier the heuristic plays alone);
    ``ms``: a wall-clock cap per decision (None: none; a cap makes play depend on the
    machine's speed, so a seeded run is no longer reproducible)."""

    def __init__(self, rng: np.random.Generator, game: str, *, rollouts: int = DEFAULT_ROLLOUTS,
                 candidates: int = DEFAULT_CANDIDATES, horizon: int | None = None, margin: float = 0.05,
                 z: float = 1.0, ms: float | None = None) -> None:
        if game not in GAMES:
            raise OptionError(f"no search agent for {game!r} (known: {', '.join(GAMES)})")
        if rollouts < 2:
            raise OptionError(f"rollouts must be at least 2, got {rollouts!r}")
        if candidates < 1:
            raise OptionError(f"candidates must be at least 1, got {candidates!r}")
        self.rng = rng
        self.game = game
        self.rollouts = int(rollouts)
        self.candidates = int(candidates)
        self.margin = margin
        self.z = z
        self.ms = ms
        self.rules = importlib.import_module(GAMES[game])
        self.horizon = self.rules.HORIZON if horizon is None else int(horizon)
        self.prior = self.rules.heuristic(rng)
        self.decisions = 0
        """Decisions searched (more than one candidate) and the time they took, in seconds
        (wall clock, and the process's CPU time)."""
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self.overrides = 0
        """Searched decisions where the search chose other than the heuristic."""

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        prior = self.prior.act(observation, legal_actions)
        rules = self.rules
        if len(observation.hand) > self.horizon or not rules.searchable(observation, legal_actions):
            return prior
        candidates = rules.candidates(observation, legal_actions, prior, self.candidates)
        if len(candidates) < 2:
            return prior
        start, cpu = time.perf_counter(), time.process_time()
        worlds = max(2, self.rollouts // len(candidates))
        knowledge = rules.Knowledge(observation, self.prior)
        values = np.zeros((len(candidates), worlds))
        done = worlds
        for j in range(worlds):
            world = knowledge.sample(self.rng)
            if world is None:   # nothing consistent found (a table the rules do not foresee)
                return prior
            seed = int(self.rng.integers(2**62))
            for i, action in enumerate(candidates):
                values[i, j] = world.rollout(action, np.random.default_rng(seed))
            if self.ms is not None and j >= 1 and (time.perf_counter() - start) * 1000 > self.ms:
                done = j + 1
                break
        values = values[:, :done]
        gain = values - values[0]   # candidates[0] is the prior
        mean = gain.mean(axis=1)
        spread = gain.std(axis=1, ddof=1) / np.sqrt(done)
        best = int(np.argmax(mean))
        choice = prior
        if best and mean[best] > self.margin and mean[best] > self.z * spread[best]:
            choice = candidates[best]
            self.overrides += 1
        self.decisions += 1
        self.seconds += time.perf_counter() - start
        self.cpu_seconds += time.process_time() - cpu
        return choice

    def __repr__(self) -> str:
        return f"SearchAgent({self.game!r}, rollouts={self.rollouts})"


def search_factory(game: str, budget: str) -> Any:
    """``search[:ROLLOUTS[:CANDIDATES[:HORIZON]]]`` in ``--agents`` (what follows
    ``search:``): the factory ``(rng) -> SearchAgent``."""
    if game not in GAMES:
        raise OptionError(f"no search agent for {game!r}")
    parts = budget.split(":") if budget else []
    if len(parts) > 3 or not all(p.isdigit() for p in parts):
        raise OptionError(f"agent 'search:{budget}': write search:ROLLOUTS[:CANDIDATES[:HORIZON]], whole numbers")
    numbers = [int(p) for p in parts]
    options = dict(zip(("rollouts", "candidates", "horizon"), numbers))
    try:
        SearchAgent(np.random.default_rng(0), game, **options)   # checks the numbers now
    except OptionError as exc:
        raise OptionError(f"agent 'search:{budget}': {exc}") from None

    def make(rng: np.random.Generator) -> SearchAgent:
        return SearchAgent(rng, game, **options)

    return make
