"""Reinforcement-learning environments for both games (``pip install 'paiju[rl]'``):
PettingZoo AEC environments ``guandan_v0`` and ``shengji_v0`` and a Gymnasium single-agent
wrapper, ``gymnasium.make("paiju/Guandan-v0", opponents=...)`` (``Shengji-v0``).

Importing ``paiju.envs`` registers the Gymnasium ids (``gymnasium.make`` also accepts
``"paiju.envs:paiju/Guandan-v0"``, which imports it first)."""

from __future__ import annotations

ENV_MODULES = {"guandan": "paiju.envs.guandan_v0", "shengji": "paiju.envs.shengji_v0"}
"""The one per-game table of this package: game name → its PettingZoo module."""
GYM_IDS = {"guandan": "paiju/Guandan-v0", "shengji": "paiju/Shengji-v0"}


def register() -> None:
    """Register the Gymnasium ids (idempotent)."""
    try:
        import gymnasium
    except ImportError as exc:   # the rl extra is not installed
        raise ImportError(f"paiju.envs needs PettingZoo and Gymnasium: pip install 'paiju[rl]' ({exc})") from None
    for game, env_id in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="paiju.envs.single_agent:SingleAgentEnv",
                               kwargs={"game": game})


register()

from paiju.envs.policy import PolicyAgent  # noqa: E402  (the registration comes first)

__all__ = ["ENV_MODULES", "GYM_IDS", "PolicyAgent", "register"]
