"""掼蛋 (Guandan) as a PettingZoo AEC environment, after ``pettingzoo.classic``:

    from paiju.envs import guandan_v0
    env = guandan_v0.env(episode="deal", referee=False)

Options: ``rules`` (a dict of 掼蛋 rules options, as ``--rules``, or a ``GuandanRules``),
``episode`` ('deal' or 'match'), ``level`` (a deal episode's level, '2' … 'A'),
``referee`` (a refereed table: its choices become the agents' actions, rulings count in
the rewards), ``infractions`` (a rate, or rates per kind, for the seats played by
``bots``), ``bots`` ({seat: agent, factory or built-in name}: seats played inside the
env), ``reward`` ('levels' or 'result'), ``action_features`` (also put the legal actions'
rows in ``infos``), ``normalize`` (float32 observations in 0…1), ``skip_forced``
(play single-action decisions for the agents), ``render_mode`` (None, 'ansi' or 'rgb_array'). The action codec and the
observation layout are in ``paiju.envs.guandan_spaces`` (tables in docs/guides/training-agents.md).
"""

from __future__ import annotations

from typing import Any

from paiju.envs import guandan_spaces as spaces
from paiju.envs.guandan_spaces import (  # the codec, re-exported
    LAYOUT, N_ACTIONS, decode_observation, describe, encode, unpack,
)
from paiju.envs.table_env import OrderEnforcing, TableEnv

__all__ = ["env", "raw_env", "LAYOUT", "N_ACTIONS", "decode_observation", "describe", "encode", "unpack"]


def raw_env(**options: Any) -> TableEnv:
    return TableEnv(spaces, **options)


def env(**options: Any) -> Any:
    """The environment with PettingZoo's call-order check (``step`` itself refuses an action
    outside the space or the mask, so the bounds wrapper would check twice)."""
    return OrderEnforcing(raw_env(**options))
