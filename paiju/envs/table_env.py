"""The PettingZoo AEC environment both games share: seats, episodes, bots, the referee,
rewards. What differs per game (the engine set-up, the action codec, the observation
layout) is a *spec* module, ``paiju.envs.guandan_spaces`` or ``paiju.envs.shengji_spaces``.

Seats 0-3 are agents ``player_0`` … ``player_3`` unless some are played by *bots*
(``bots={seat: agent}``, what the Gymnasium wrapper uses for the learner's opponents and
partner): bots act inside ``step``/``reset`` until an agent's turn comes. With
``infractions=RATE`` the bots are wrapped in the referee layer's infraction injectors
(and the engine is refereed); agents never commit irregularities, since the mask only
ever allows legal actions.

Episodes: ``episode="deal"`` (one deal) or ``"match"`` (a whole match). ``reset(seed=S)``
starts episode 0 of seed S, a later ``reset()`` the next episode of the same seed tree
(engine ``child``-seeded from ``(S, episode)``, bots from ``(S, episode, AGENT + seat)``,
injectors from ``(S, episode, INJECTOR + seat)``), so a seed gives the same episodes.

Rewards (zero-sum between the two sides, every agent of a side gets its side's):
``reward="levels"``: when a deal is scored, the levels the winning side goes up (掼蛋 3/2/1,
双升 by the level table) for it and the negative for the other side, and a referee's level
penalty (掼蛋 级差分) as soon as it is imposed, and a match lost by sanction (双升 判负) as
the levels the winning side still lacked to pass A; ``reward="result"``: +1 / -1 / 0 for the
match result (a deal episode: for the deal's winning side).

What the bots and the referee do before an agent's first turn counts: ``reset`` hands out
those rewards. An episode they decide outright before it (a 掼蛋 deal forced during the
draw) still takes one step, as the Gymnasium wrapper's does and Tianshou expects: ``reset``
leaves the first agent selected and alive with a mask allowing every action, and its step
(any action) ends the episode, handing every agent its reward. An acting agent never gets
an all-zero mask (once the episode is over: all ones).
"""

from __future__ import annotations

import importlib
import pickle
from collections.abc import Mapping
from typing import Any

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.env_logger import EnvLogger
    from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator
except ImportError as exc:   # the rl extra is not installed
    raise ImportError(f"paiju.envs needs PettingZoo and Gymnasium: pip install 'paiju[rl]' ({exc})") from None

from tabletop import rng as streams
from tabletop.errors import IllegalAction, OptionError
from tabletop.rng import child_seed
from tabletop.runner import deliver, interjection, interjectors, rule
from tabletop.seats import NUM_SEATS, REFEREE

from paiju.agent_specs import agent_factory
from paiju.games import adapter_for

EPISODES = ("deal", "match")
REWARDS = ("levels", "result")
LEVELS_TO_PASS_A = 13
"""Levels from 2 past A: a side at level index ``i`` (2 → 0 … A → 12) lacks ``13 - i``."""
MAX_ENGINE_STEPS = 200_000
"""Guard: engine actions (bots' included) in one episode."""


class TableEnv(AECEnv):
    """One 4-seat table as a PettingZoo AEC environment (see the module doc).

    ``spec`` is the game's spec module; ``options`` are those of ``guandan_v0.env`` /
    ``shengji_v0.env`` (documented there and in docs/guides/training-agents.md)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "is_parallelizable": False}

    def __init__(self, spec: Any, *, rules: "Mapping[str, Any] | Any | None" = None, episode: str = "deal",
                 level: str = "2", referee: bool = False, infractions: "float | Mapping[str, float]" = 0.0,
                 reward: str = "levels", bots: Mapping[int, Any] | None = None,
                 action_features: bool = False, render_mode: str | None = None, normalize: bool = False,
                 skip_forced: bool = False) -> None:
        super().__init__()
        self.spec = spec
        self.game = spec.GAME
        self.metadata = {**TableEnv.metadata, "name": spec.ENV_NAME}
        adapter = adapter_for(self.game)
        if episode not in EPISODES:
            raise OptionError(f"episode must be one of {', '.join(EPISODES)}, got {episode!r}")
        if reward not in REWARDS:
            raise OptionError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        if render_mode not in (None, "ansi", "rgb_array"):
            raise OptionError(f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}")
        if rules is None or isinstance(rules, Mapping):
            rules = adapter.rules_from_dict(dict(rules or {}))
        self.rules = rules
        self.episode = episode
        self.level = spec.check_level(level, episode)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.action_features = action_features
        self.normalize = bool(normalize)
        self.skip_forced = bool(skip_forced)
        layout = spec.LAYOUT
        self._low = layout.low.astype(np.float32)
        self._scale = (1.0 / np.maximum(layout.high - layout.low, 1)).astype(np.float32)
        bots = dict(bots or {})
        for seat in bots:
            if seat not in range(NUM_SEATS):
                raise OptionError(f"bot seats must be 0-3, got {seat!r}")
        if len(bots) == NUM_SEATS:
            raise OptionError("every seat is a bot: leave at least one seat to an agent")
        for spec_ in bots.values():   # a bad spec fails now, not at the first reset
            if isinstance(spec_, str):
                agent_factory(spec_, self.game)
        self._bot_specs = bots
        self.infractions = _check_rates(infractions, self.game)
        if self.infractions and not bots:
            raise OptionError("infractions are committed by bots: give some seats to bots (opponents=...)")
        self.refereed = bool(referee) or bool(self.infractions)
        self._engine_options = adapter.engine_options(
            {"referee": self.refereed, "infractions": self.infractions} if self.refereed else {})
        self.seats = tuple(s for s in range(NUM_SEATS) if s not in bots)
        self.possible_agents = [f"player_{s}" for s in self.seats]
        self._seat_of = {name: s for name, s in zip(self.possible_agents, self.seats)}
        self._agent_of = {s: name for name, s in self._seat_of.items()}
        self.observation_spaces = {a: observation_space(spec, self.normalize) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(spec.N_ACTIONS) for a in self.possible_agents}
        self._root: int | None = None
        self._episode_index = -1
        self._decided_at_reset = False
        self._no_features = (np.zeros(0, np.int64), np.zeros((0, spec.FEATURE_WIDTH), np.int8))
        self.engine: Any = None

    # -----------------------------------------------------------------------------------------
    # PettingZoo API

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise OptionError(f"seed must be a non-negative integer, got {seed!r}")
            self._root, self._episode_index = int(seed), 0
        elif self._root is None:   # never seeded: a fresh seed tree, as gymnasium seeds from entropy
            self._root, self._episode_index = int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> 1), 0
        else:
            self._episode_index += 1
        root, index = self._root, self._episode_index
        self.engine = self.spec.new_engine(child_seed(root, index), self.episode, self.level, self.rules,
                                           self._engine_options)
        self.tracker = self.spec.Tracker(self.engine)
        self._make_writers()
        self._bots = self._bind(self._make_bots(root, index))
        self._interjecting = interjectors([self._bots.get(s) for s in range(NUM_SEATS)])
        # a bot whose class says it never reads its observation is given None (as ``tabletop.runner.run`` does)
        self._bot_observes = {s: getattr(b, "observes", True) is not False for s, b in self._bots.items()}
        self.referee: Any = None
        if self.refereed:
            from enforcement.setup import make_referee

            self.referee = make_referee(self.game, self.rules)
        self._make_observers()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: self._info(None) for a in self.agents}
        self._team_reward = [0.0, 0.0]
        self._rewarded = False
        self._to_act: int | None = None
        self._scored: dict[int, int] = {}
        self._steps = 0
        self._decision: Any = None
        self._obs_cache: dict[str, Any] = {}
        self._views: dict[int, Any] = {}
        self._decided_at_reset = False
        self._deliver(self.engine.take_events())
        self._advance()
        if self._to_act is None:   # decided before any agent acts: one step (any action) ends it
            self._decided_at_reset = True
            self.agent_selection = self.agents[0]
            self.terminations = {a: False for a in self.agents}
            self.infos = {a: self._info(None) for a in self.agents}
        else:   # what the bots and the referee did before the first turn counts too
            self._hand_out_rewards()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if self._decided_at_reset:   # the episode's one step: the action changes nothing
            self._decided_at_reset = False
            self._cumulative_rewards[agent] = 0.0
            self._obs_cache = {}
            self._end()
            self._hand_out_rewards()
            self._deads_step_first()
            return
        decision = self._decision or self._current_decision()
        mask = decision.mask
        try:
            index = int(action)
        except (TypeError, ValueError):
            index = -1
        if not 0 <= index < len(mask) or not mask[index]:
            raise ValueError(f"action {action!r} is not legal for {agent} now "
                             f"(legal: {np.flatnonzero(mask).tolist()[:20]}…)")
        self._cumulative_rewards[agent] = 0.0
        self._obs_cache = {}
        engine_action = decision.choose(index)   # None: a 双升 card-by-card step, same decision
        if engine_action is not None:
            self._decision = None
            self._apply(engine_action)
            self._advance()
        elif self.skip_forced and self._play_forced():   # the rest of a 双升 play was forced
            self._advance()
        elif self.action_features:   # the same decision, one card further: its legal actions changed
            self.infos[agent] = self._info(None, decision.features())
        self._hand_out_rewards()
        if self.terminations[self.agent_selection]:
            self._deads_step_first()

    def _hand_out_rewards(self) -> None:
        """Each agent's side's reward for what happened since the last hand-out."""
        reward = self._team_reward
        if reward[0] or reward[1] or self._rewarded:   # rewards are 0 at most steps
            for a in self.agents:
                self.rewards[a] = reward[self._seat_of[a] % 2]
            self._accumulate_rewards()
            self._rewarded = bool(reward[0] or reward[1])
            self._team_reward = [0.0, 0.0]

    def last(self, observe: bool = True) -> tuple:
        """``AECEnv.last``, with one frame less (it is asked at every step)."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        got = self._obs_cache.get(agent)
        if got is not None:
            return got
        seat = self._seat_of[agent]
        writer = self._writers.get(seat)
        if seat == self._to_act:
            decision = self._decision or self._current_decision()
            # the decision's mask is never written again (a 双升 composition step makes a new one)
            mask = decision.mask
        else:
            decision = None
            # once the episode is over no action is asked for and any is accepted: never an all-zero mask
            if (self.terminations.get(agent, True) or self.truncations.get(agent, True)
                    or (self._decided_at_reset and agent == self.agent_selection)):
                mask = np.ones(self.spec.N_ACTIONS, np.int8)
            else:   # another agent's turn (PettingZoo's convention: nothing legal now)
                mask = np.zeros(self.spec.N_ACTIONS, np.int8)
        view = self._engine_view(seat)
        if writer is not None:
            observation = writer.write(view)
        else:
            observation = self.spec.encode_observation(view, seat, self.tracker, decision)
        mask.setflags(write=False)   # step checks actions against it: an agent must not widen it
        if self.normalize:   # every field scaled from its range to 0…1
            observation = (observation - self._low) * self._scale
        got = self._obs_cache[agent] = {"observation": observation, "action_mask": mask}
        return got

    def render(self) -> "str | np.ndarray | None":
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return self.picture(self.agent_selection)
        seat = self.engine.to_act
        return self.spec.render(self.engine, seat)

    def picture(self, agent: str, cell: int = 8) -> np.ndarray:
        """``render_mode="rgb_array"``: ``agent``'s hand (top row) and the cards each seat has
        played (one row each, from ``agent``'s seat round), 54 columns of card kinds, a cell
        per card count (black 0, grey 1, white 2) — an image of the observation."""
        fields = self.spec.LAYOUT.unpack(self.observe(agent)["observation"])
        counts = np.vstack([fields["hand"][None, :], fields["played"].reshape(NUM_SEATS, -1)])
        shade = (np.minimum(counts, 2) * 127).astype(np.uint8)
        return np.repeat(np.repeat(np.repeat(shade[:, :, None], 3, axis=2), cell, axis=0), cell, axis=1)

    def close(self) -> None:
        pass

    # -----------------------------------------------------------------------------------------
    # Beyond the PettingZoo API

    @property
    def engine_steps(self) -> int:
        """Engine actions applied in this episode (the bots' included)."""
        return self._steps

    def legal_actions(self, agent: str | None = None) -> list[Any]:
        """The engine actions the acting agent may take now (``agent`` must be the acting one)."""
        if self.engine is None or self._decided_at_reset:   # not reset yet, or no decision in this episode
            return []
        agent = self.agent_selection if agent is None else agent
        if self._seat_of[agent] != self.engine.to_act:
            return []
        return list(self._current_decision().legal)

    def decode_action(self, action: int) -> Any:
        """The engine action (or, for a 双升 card-by-card step, the card added) that
        ``action`` stands for at the acting agent's decision now; once the episode is over
        (or before ``reset``) no id stands for anything: a ``RuntimeError`` says so."""
        if self.engine is None or self.engine.to_act is None or self._decided_at_reset:
            raise RuntimeError("decode_action: no decision now (the episode is over, or not reset yet); "
                               "an action id means something only at an agent's turn")
        return self._current_decision().describe(int(action))

    def legal_action_features(self, agent: str | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(action ids, one row of 54 card counts per id) of the acting agent's legal
        actions: the action-as-features view (see docs/guides/training-agents.md)."""
        if self.engine is None:
            return self._no_features
        agent = self.agent_selection if agent is None else agent
        if self._seat_of[agent] != self.engine.to_act or self.terminations[agent]:
            return self._no_features
        return self._current_decision().features()

    # -----------------------------------------------------------------------------------------
    # Cloning: search plays ahead from a snapshot and comes back to it

    STATE = ("_root", "_episode_index", "engine", "tracker", "_bots", "_interjecting", "_bot_observes",
             "referee", "agents", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos",
             "_team_reward", "_rewarded", "_decided_at_reset", "_to_act", "_scored", "_steps", "_decision", "agent_selection",
             "_skip_agent_selection")
    """What changes as an episode is played: a snapshot holds exactly these (the engine, the
    bots with their random streams, the referee with its ledger, the PettingZoo dicts)."""

    def clone(self) -> bytes:
        """A snapshot of the episode now (``restore`` comes back to it, as often as wanted).
        The bots must pickle (paiju's agents do; a lambda does not)."""
        if self.engine is None:
            raise RuntimeError("nothing to clone before reset()")
        state = vars(self)
        return pickle.dumps({key: state[key] for key in self.STATE if key in state}, pickle.HIGHEST_PROTOCOL)

    def restore(self, snapshot: bytes) -> None:
        """Put the episode back as it was when ``snapshot`` (from ``clone``) was taken."""
        self.__dict__.update(pickle.loads(snapshot))
        self._bind(self._bots)
        self._make_writers()
        self._make_observers()
        self._obs_cache = {}
        self._views = {}

    def __getstate__(self) -> dict[str, Any]:
        state = {k: v for k, v in vars(self).items() if k not in ("spec", "_writers", "_observers", "_obs_cache")}
        state["spec"] = self.spec.__name__   # a module does not pickle: its name does
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.spec = importlib.import_module(state["spec"])
        self._obs_cache = {}
        if self.engine is not None:
            self._bind(self._bots)
            self._make_writers()
            self._make_observers()

    def _make_writers(self) -> None:
        writer = getattr(self.spec, "ObservationWriter", None)   # a game's in-place encoder, if it has one
        self._writers = {} if writer is None else {seat: writer(seat, self.tracker, self.refereed)
                                                       for seat in self.seats}

    def _make_observers(self) -> None:
        # the referee also observes: it keeps the rulings made (``rulings_made``)
        self._observers: list[Any] = [self.referee, _Collector(self)] if self.refereed else []

    # -----------------------------------------------------------------------------------------
    # Stepping

    def _engine_view(self, seat: int) -> Any:
        """The engine's observation of ``seat`` now (made once per step)."""
        got = self._views.get(seat)
        if got is None:
            got = self._views[seat] = self.engine.observe(seat)
        return got

    def _current_decision(self) -> Any:
        if self._decision is None:
            seat = self.engine.to_act
            self._decision = self.spec.Decision(self.engine, seat, self._engine_view(seat), self.tracker)
            if self.action_features:
                agent = self._agent_of.get(seat)
                if agent is not None:
                    self.infos[agent] = self._info(None, self._decision.features())
        return self._decision

    def _advance(self) -> None:
        """Let bots act (and bots' out-of-turn attempts happen) until an agent is to act or
        the episode ends; then point ``agent_selection`` at whoever is next."""
        engine = self.engine
        while True:
            seat = engine.to_act
            if seat is None:
                self._to_act = None
                self._end()
                return
            if seat is REFEREE:   # the table awaits a ruling: the referee's seat acts
                self._apply(rule(engine, self.referee))
                continue
            if self._interjecting and self._interjection(seat):
                continue
            agent = self._agent_of.get(seat)
            if agent is not None:
                if self.skip_forced and self._play_forced():
                    continue
                self.agent_selection = agent
                self._to_act = seat
                return
            bot = self._bots[seat]
            action = bot.act(engine.observe(seat) if self._bot_observes[seat] else None, engine.legal_actions())
            try:
                self._apply(action)
            except IllegalAction as exc:   # strict mode (or an action a refereed table refuses)
                raise IllegalAction(f"seat {seat}'s agent ({type(bot).__name__}) chose {action!r}: {exc}") from None

    def _play_forced(self) -> bool:
        """``skip_forced``: play the acting agent's decision while it has one legal action
        (a draw, a 报牌, a 双升 play's last card); True when an engine action was applied."""
        decision = self._current_decision()
        while np.count_nonzero(decision.mask) == 1:
            self._obs_cache = {}
            action = decision.choose(int(decision.mask.argmax()))
            if action is not None:
                self._apply(action)
                return True
            if self.action_features:   # a 双升 play composed one card further
                self.infos[self._agent_of[decision.seat]] = self._info(None, decision.features())
        return False

    def _interjection(self, to_act: int) -> bool:
        """One bot acting out of turn (an injected irregularity), if one wants to."""
        attempt = interjection(self.engine, to_act, self._interjecting)
        if attempt is None:
            return False
        self._apply(attempt)
        return True

    def _apply(self, action: Any) -> None:
        self._steps += 1
        if self._steps > MAX_ENGINE_STEPS:
            raise RuntimeError(f"{self.game} episode still running after {MAX_ENGINE_STEPS} engine actions")
        self._decision = None
        self._obs_cache = {}
        self._views = {}
        events = self.engine.apply(action)
        events.extend(self.engine.take_events())
        self._deliver(events)

    def _deliver(self, events: list) -> None:
        if self.refereed:   # the referee sees the events too
            deliver(self.engine, events, self._observers)
        else:
            self._on_events(events)

    def _on_events(self, events: list) -> None:
        """Rewards from what happened (a deal scored, a level penalty, the match over), and
        what the spec's tracker remembers (双升: the cards of each closed trick)."""
        table = self.spec.REWARD_EVENTS
        tracked = self.spec.TRACKED_EVENTS
        for event in events:
            if event.KIND in tracked:
                self.tracker.on_event(event, self.engine)
            kind = table.get(event.KIND)
            if kind is None:
                continue
            if kind == "scored":
                if self.reward_mode == "levels" or self.episode == "deal":
                    delta = event.levels if self.reward_mode == "levels" else 1
                    signed = delta if event.team == 0 else -delta
                    before = self._scored.get(event.deal, 0)   # a deal re-scored by a ruling replaces its reward
                    self._scored[event.deal] = signed
                    self._team_reward[0] += signed - before
                    self._team_reward[1] -= signed - before
            elif kind == "penalty":
                if self.reward_mode == "levels":
                    self._team_reward[event.team] -= event.levels
                    self._team_reward[1 - event.team] += event.levels
            elif kind == "match_over" and event.winner is not None:
                if self.reward_mode == "result":
                    delta = 1
                elif event.how == "match_loss":   # lost by sanction (判负): the levels the winner still lacked
                    delta = LEVELS_TO_PASS_A - self.spec.check_level(event.levels[event.winner], "deal")
                else:
                    continue
                self._team_reward[event.winner] += delta
                self._team_reward[1 - event.winner] -= delta

    def _end(self) -> None:
        for a in self.agents:
            self.terminations[a] = True
        self.infos = {a: self._info(self.engine.result) for a in self.agents}

    def _info(self, result: Any, features: "tuple[np.ndarray, np.ndarray] | None" = None) -> dict[str, Any]:
        """An agent's info: the same keys at every step (Tianshou stacks them): ``result``
        (None until the episode is over) and, with ``action_features``, the legal actions'."""
        if not self.action_features:
            return {"result": result}
        ids, rows = self._no_features if features is None else features
        return {"result": result, "action_ids": ids, "action_features": rows}

    def _make_bots(self, root: int, index: int) -> dict[int, Any]:
        bots = {seat: make_agent(spec, self.game, streams.generator(root, index, streams.AGENT + seat), seat)
                for seat, spec in self._bot_specs.items()}
        if not self.infractions:
            return bots
        from enforcement.setup import inject

        wrapped = inject([bots.get(s) for s in range(NUM_SEATS)], self.infractions, root, index, self.game)
        return {seat: wrapped[seat] for seat in bots}

    def _bind(self, bots: dict[int, Any]) -> dict[int, Any]:
        """Show the table to the policy agents among ``bots`` (inside an injector too), so they
        read the vectors an agent of their seat would get."""
        for bot in bots.values():
            while bot is not None:
                if hasattr(bot, "table") and hasattr(bot, "policy"):
                    bot.table = self
                bot = getattr(bot, "agent", None)
        return bots


class _Collector:
    """The observer that shows the env every event (rulings' consequences included)."""

    def __init__(self, env: TableEnv) -> None:
        self.env = env

    def on_events(self, engine: Any, events: list) -> None:
        self.env._on_events(events)


def observation_space(spec: Any, normalize: bool = False) -> spaces.Dict:
    """The PettingZoo classic shape: the observation vector and the action mask."""
    vector = spaces.Box(0.0, 1.0, (spec.LAYOUT.size,), np.float32) if normalize else spec.observation_space()
    return spaces.Dict({"observation": vector,
                        "action_mask": spaces.Box(0, 1, (spec.N_ACTIONS,), np.int8)})


def make_agent(spec: Any, game: str, rng: np.random.Generator, seat: int = 0) -> Any:
    """An agent from a spec string as ``--agents`` takes it (a built-in name,
    ``module.path:Name`` or ``path/to/file.py:Name``: ``paiju.agent_specs``), a factory
    called with a seeded numpy Generator, or an agent object (anything with ``act(observation,
    legal_actions)``), used as it is."""
    if isinstance(spec, str):
        return agent_factory(spec, game)(rng if rng is not None else 0, seat)
    if hasattr(spec, "act") and not isinstance(spec, type):
        return spec
    if callable(spec):
        agent = spec(rng)
        if not hasattr(agent, "act"):
            raise OptionError(f"agent factory {spec!r} returned {type(agent).__name__}, which has no act()")
        return agent
    raise OptionError(f"not an agent: {spec!r} (a spec string, an agent object or a factory)")


def _check_rates(rates: Any, game: str) -> "float | dict[str, float]":
    if not rates:
        return 0.0
    from enforcement.injector import catalogue_for, normalise_rates

    return normalise_rates(rates, catalogue_for(game).kinds)



class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` (the same checks), answering ``last()``,
    ``step()`` and the attributes read at every step (``agents``, ``agent_selection``) with
    one call instead of a ``__getattr__`` chain each: a quarter of the step time otherwise."""

    def last(self, observe: bool = True) -> tuple:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:   # the usual case, without two wrapper frames
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection


class _AgentIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> "_AgentIterator":
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing iterator (the same checks), reading the environment
    under the wrapper directly."""

    def __next__(self) -> str:
        wrapper = self.env
        table = wrapper.env
        if not table.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return table.agent_selection
