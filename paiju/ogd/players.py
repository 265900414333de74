"""Who plays a seat: the one place an ``--agent`` spec is resolved, and the stand-in that
makes a refereed table's decisions which have no OGD form.

The spec stays an opaque string until ``resolve_agent``: today it names a built-in agent
of the game's adapter (``paiju.games.adapter_for(GAME).agent_factories``); a plug-in
loader takes its place here without any caller changing.
"""

from __future__ import annotations

from typing import Any

from tabletop import rng as streams
from tabletop.errors import OptionError

from paiju.games import GameAdapter, adapter_for

GAME = "guandan"
"""The OGD protocol is 掼蛋's: the one game name this package uses."""
STAND_IN = "heuristic"


def game_adapter() -> GameAdapter:
    return adapter_for(GAME)


def resolve_agent(spec: str, seed: int, index: int = 0, seat: int = 0) -> Any:
    """The agent ``spec`` names, seeded from the seed-tree node (seed, index, AGENT + seat)."""
    factories = game_adapter().agent_factories
    factory = factories.get(spec.strip()) if isinstance(spec, str) else None
    if factory is None:
        raise OptionError(f"unknown agent {spec!r} (known: {', '.join(factories)})")
    return factory(streams.generator(seed, index, streams.AGENT + seat))


def stand_in_agent(seed: int, index: int, seat: int) -> Any:
    return resolve_agent(STAND_IN, seed, index, seat)
