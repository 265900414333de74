"""Agents named by a spec string: a built-in name (``random``, ``heuristic``) or a plug-in,
``module.path:Name`` or ``path/to/file.py:Name``.

    factory = agent_factory("my_agents.py:Greedy", "guandan")
    agent = factory(seed, seat)          # seed: an int, a SeedSequence or a numpy Generator

A plug-in ``Name`` is called as ``Name(rng)`` with a seeded ``numpy.random.Generator`` (the
built-in agents' constructor) and must return an object with ``act(observation,
legal_actions)``. Everything about a spec is checked when its factory is made — the module
or file loads, the name exists and is callable, ``Name(rng)`` works and has ``act`` — and
each failure is an ``AgentSpecError`` with a one-line message. Factories are cached per
process, so worker processes are handed the spec string and load it themselves.

A plug-in agent is wrapped (``PluginAgent``) so that an exception it raises is a one-line
``AgentError`` naming the spec and the seat, not a traceback. What it returns is not checked
here: the engine decides, as for every agent (strict: ``IllegalAction``; refereed: a
recorded irregularity, or a refusal for what no table allows, e.g. cards not in hand).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from paiju.arguments import is_agent_file
from tabletop import rng as streams
from tabletop.errors import IllegalAction, OptionError, PaijuError, RulingRefused
from tabletop.games import GameSpec, game_spec

__all__ = ["AgentError", "AgentSpecError", "AgentFactory", "PluginAgent", "agent_factory", "agent_seed",
           "parse_agents", "make_agents", "plugin_blame"]

AgentFactory = Callable[[Any, int], Any]
"""``(seed, seat) -> agent``: seed is an int, a ``numpy.random.SeedSequence`` or a Generator."""


class AgentSpecError(OptionError):
    """An ``--agents`` spec that does not name a usable agent; the message says why."""


class AgentError(PaijuError):
    """A plug-in agent raised an exception while deciding."""


def agent_seed(seed: Any) -> np.random.Generator:
    """The generator an agent is built with: a Generator as is, else one seeded from it."""
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return streams.generator(int(seed))
    if isinstance(seed, np.random.SeedSequence):
        return np.random.Generator(np.random.PCG64(seed))
    raise TypeError(f"an agent seed is an int, a SeedSequence or a Generator, not {type(seed).__name__}")


def _spec(game: Any) -> GameSpec:
    """The registered game: ``game`` is its name, its ``GameSpec`` or anything with a ``name``."""
    return game if isinstance(game, GameSpec) else game_spec(getattr(game, "name", game))


def agent_factory(spec: str, game: Any) -> AgentFactory:
    """The factory ``(seed, seat) -> agent`` for ``spec`` in ``game`` (its name or spec: the
    registry's ``agents`` are the built-in names)."""
    spec = spec.strip()
    where = spec.rpartition(":")[0]
    # a relative file is relative to the working directory, which may change between calls
    base = os.getcwd() if where and is_agent_file(where) and not os.path.isabs(where) else ""
    found = _spec(game)
    return _factory(spec, found.name, tuple(sorted(found.agents.items())), base)


def parse_agents(text: str, game: Any) -> tuple[str, ...]:
    """One spec for all seats, one per side (掼蛋 and 双升: sides 0 and 1) or one per seat,
    comma-separated; each checked (``agent_factory``). Returns one spec per seat."""
    seating = _spec(game).seating
    specs = [s.strip() for s in text.split(",") if s.strip()]
    sides, seats = len(seating.sides), seating.seats
    if len(specs) == 1:
        per_seat = (specs[0],) * seats
    elif len(specs) == sides:
        per_seat = tuple(specs[seating.side(seat)] for seat in range(seats))
    elif len(specs) == seats:
        per_seat = tuple(specs)
    else:
        raise OptionError(f"--agents takes 1, {sides} (per side) or {seats} (per seat) agents, got {len(specs)}")
    for spec in dict.fromkeys(per_seat):
        agent_factory(spec, game)
    return per_seat


def make_agents(game: Any, specs: Sequence[str], seed: int, index: int) -> list[Any]:
    """Unit ``index``'s agents: seat ``s`` seeded from the seed-tree node ``(seed, index,
    AGENT + s)``."""
    return [agent_factory(spec, game)(streams.generator(seed, index, streams.AGENT + seat), seat)
            for seat, spec in enumerate(specs)]


class PluginAgent:
    """A plug-in agent: passes ``act`` through; an exception becomes an ``AgentError``."""

    __slots__ = ("agent", "spec", "seat")

    def __init__(self, agent: Any, spec: str, seat: int) -> None:
        self.agent = agent
        self.spec = spec
        self.seat = seat

    @property
    def observes(self) -> bool:
        """The plug-in's own ``observes`` (``tabletop.protocol.Agent``): False spares the engine
        an observation at every decision."""
        return getattr(self.agent, "observes", True) is not False

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        try:
            return self.agent.act(observation, legal_actions)
        except PaijuError:
            raise
        except Exception as exc:
            raise AgentError(f"agent {self.spec} (seat {self.seat}) raised {_one_line(exc)}") from exc

    def __repr__(self) -> str:
        return f"PluginAgent({self.spec!r}, seat {self.seat})"


def plugin_blame(error: Exception, engine: Any, agents: Sequence[Any]) -> str:
    """'seat S's agent SPEC chose an illegal action: ' when ``error`` is the engine refusing
    an action while a plug-in agent was to act (strict mode changes nothing on a refusal,
    so ``to_act`` is still that seat), else ''."""
    if not isinstance(error, IllegalAction) or isinstance(error, RulingRefused):
        return ""
    seat = engine.to_act
    if type(seat) is not int or not 0 <= seat < len(agents):
        return ""
    agent = agents[seat]
    while not isinstance(agent, PluginAgent) and hasattr(agent, "agent"):   # inside an injector
        agent = agent.agent
    if not isinstance(agent, PluginAgent):
        return ""
    return f"seat {seat}'s agent {agent.spec} chose an illegal action: "


class _InterjectingPluginAgent(PluginAgent):
    """A plug-in agent that also acts out of turn (``tabletop.runner`` looks for ``interject``)."""

    __slots__ = ()

    def interject(self, observation: Any, seat: int) -> Any:
        try:
            return self.agent.interject(observation, seat)
        except PaijuError:
            raise
        except Exception as exc:
            raise AgentError(f"agent {self.spec} (seat {self.seat}) raised {_one_line(exc)}") from exc


# ---------------------------------------------------------------------------------------------
# Loading

@functools.lru_cache(maxsize=None)
def _factory(spec: str, game: str, builtins: tuple[tuple[str, Callable[[Any], Any]], ...], base: str) -> AgentFactory:
    known = dict(builtins)
    if spec in known:
        make = known[spec]
        return lambda seed, seat: make(agent_seed(seed))
    if spec.startswith(POLICY_PREFIX):   # a policy over the RL envs' vectors (paiju.envs.policy)
        return _policy_factory(spec, game, base)
    if spec == SEARCH or spec.startswith(SEARCH + ":"):   # the search baseline (paiju.search)
        return _search_factory(spec, game)
    if ":" not in spec:
        raise AgentSpecError(f"unknown agent {spec!r} (built in: {', '.join(known)}; "
                             f"or module.path:Name, path/to/file.py:Name)")
    where, _, name = spec.rpartition(":")
    if not where or not name:
        raise AgentSpecError(f"agent {spec!r}: write module.path:Name or path/to/file.py:Name")
    target = _attribute(_load_module(spec, where, base), where, name, spec)
    if not callable(target):
        raise AgentSpecError(f"agent {spec!r}: {name} is not a class or function "
                             f"(it is {type(target).__name__} {target!r:.40})")
    probe = _construct(target, spec, streams.generator(0))
    wrapper = _InterjectingPluginAgent if callable(getattr(probe, "interject", None)) else PluginAgent

    def make_plugin(seed: Any, seat: int) -> Any:
        return wrapper(_construct(target, spec, agent_seed(seed)), spec, seat)

    return make_plugin


POLICY_PREFIX = "policy:"
"""``policy:MODULE:CALLABLE`` / ``policy:path/to/file.py:CALLABLE``: ``CALLABLE(observation,
mask) -> action id`` over the RL environments' vectors, seated as ``paiju.envs.PolicyAgent``."""


SEARCH = "search"
"""``search`` / ``search:N``: the determinised Monte Carlo baseline (``paiju.search``), N
rollouts a decision."""


def _search_factory(spec: str, game: str) -> AgentFactory:
    from paiju.search import search_factory

    try:
        make = search_factory(game, spec[len(SEARCH) + 1:])
    except OptionError as exc:
        raise AgentSpecError(str(exc)) from None
    return lambda seed, seat: make(agent_seed(seed))


def _policy_factory(spec: str, game: str, base: str) -> AgentFactory:
    where, _, name = spec[len(POLICY_PREFIX):].rpartition(":")
    if not where or not name:
        raise AgentSpecError(f"agent {spec!r}: write policy:module.path:Name or policy:path/to/file.py:Name")
    target = _attribute(_load_module(spec, where, base), where, name, spec)
    if not callable(target):
        raise AgentSpecError(f"agent {spec!r}: {name} is not callable (it is {type(target).__name__})")
    try:
        from paiju.envs.policy import PolicyAgent
    except ImportError as exc:   # the rl extra is not installed
        raise AgentSpecError(f"agent {spec!r}: {exc}") from None

    def make_policy_agent(seed: Any, seat: int) -> Any:
        return PluginAgent(PolicyAgent(target, game, agent_seed(seed)), spec, seat)

    return make_policy_agent


def _construct(target: Callable[..., Any], spec: str, rng: np.random.Generator) -> Any:
    try:
        agent = target(rng)
    except TypeError as exc:
        raise AgentSpecError(f"agent {spec!r}: cannot be made as {_name(target)}(rng): {_one_line(exc)}") from None
    except PaijuError:
        raise
    except Exception as exc:
        raise AgentSpecError(f"agent {spec!r}: {_name(target)}(rng) raised {_one_line(exc)}") from None
    if not callable(getattr(agent, "act", None)):
        raise AgentSpecError(f"agent {spec!r}: {_name(target)}(rng) gave a {type(agent).__name__}, "
                             f"which has no act(observation, legal_actions) method")
    return agent


def _load_module(spec: str, where: str, base: str) -> Any:
    if is_agent_file(where):
        return _load_file(spec, where, base)
    try:
        return _import(where)
    except ModuleNotFoundError as exc:
        missing = exc.name or where
        raise AgentSpecError(f"agent {spec!r}: no module named {missing!r}") from None
    except Exception as exc:
        raise AgentSpecError(f"agent {spec!r}: importing {where} raised {_one_line(exc)}") from exc


def _import(module: str) -> Any:
    """Import ``module``, also from the working directory (a console script does not put
    it on ``sys.path``, ``python -m`` does)."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        here = os.getcwd()
        if exc.name != module.split(".")[0] or here in sys.path or "" in sys.path:
            raise
        sys.path.append(here)
        try:
            return importlib.import_module(module)
        finally:
            sys.path.remove(here)


def _load_file(spec: str, where: str, base: str) -> Any:
    path = os.path.abspath(os.path.join(base, where))
    if not os.path.isfile(path):
        raise AgentSpecError(f"agent {spec!r}: no such file {where!r}")
    # One module per file per process, under a name no import can clash with.
    module_name = "paiju_agent_" + hashlib.sha256(path.encode()).hexdigest()[:16]
    loaded = sys.modules.get(module_name)
    if loaded is not None:
        return loaded
    found = importlib.util.spec_from_file_location(module_name, path)
    if found is None or found.loader is None:
        raise AgentSpecError(f"agent {spec!r}: cannot load {where!r} as Python")
    module = importlib.util.module_from_spec(found)
    sys.modules[module_name] = module
    try:
        found.loader.exec_module(module)
    except BaseException as exc:
        del sys.modules[module_name]
        if not isinstance(exc, Exception):
            raise
        raise AgentSpecError(f"agent {spec!r}: loading {where} raised {_one_line(exc)}") from exc
    return module


def _attribute(module: Any, where: str, name: str, spec: str) -> Any:
    target = module
    for part in name.split("."):
        if not part.isidentifier() or not hasattr(target, part):
            raise AgentSpecError(f"agent {spec!r}: {where} has no {name!r}")
        target = getattr(target, part)
    return target


def _name(target: Any) -> str:
    return getattr(target, "__qualname__", None) or getattr(target, "__name__", None) or type(target).__name__


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
