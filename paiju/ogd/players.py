"""Who plays a seat: the one place an ``--agent`` spec is resolved, and the stand-in that
makes a refereed table's decisions which have no OGD form.

The spec stays a string until ``resolve_agent``: a built-in agent's name or a plug-in
(``module:Name``, ``file.py:Name``), resolved by ``paiju.agent_specs``.
"""

from __future__ import annotations

from typing import Any

from tabletop import rng as streams

from paiju.agent_specs import agent_factory
from paiju.games import GameAdapter, adapter_for

GAME = "guandan"
"""The OGD protocol is 掼蛋's: the one game name this package uses."""
STAND_IN = "heuristic"


def game_adapter() -> GameAdapter:
    return adapter_for(GAME)


def resolve_agent(spec: str, seed: int, index: int = 0, seat: int = 0) -> Any:
    """The agent ``spec`` names, seeded from the seed-tree node (seed, index, AGENT + seat)."""
    return agent_factory(spec, GAME)(streams.generator(seed, index, streams.AGENT + seat), seat)


def stand_in_agent(seed: int, index: int, seat: int) -> Any:
    return resolve_agent(STAND_IN, seed, index, seat)
