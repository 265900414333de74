"""Train sb3-contrib's MaskablePPO on a paiju environment, evaluate it against the heuristic
with the tournament code, and save a policy that ``--agents`` loads.

    pip install 'paiju[rl,train]'     # train: torch 2.13.0, Stable-Baselines3, sb3-contrib, Tianshou
    python examples/train_maskable_ppo.py guandan --steps 20000 --out runs/gd
    paiju tournament guandan --agents heuristic,policy:runs/gd/policy.py:policy --deals 200 --duplicate

Writes ``OUT/model.zip`` (the trained model) and ``OUT/policy.py``, whose ``policy(observation,
mask) -> action id`` plays the model (``paiju.envs.PolicyAgent``: any seat of an env,
``paiju simulate --agents``, ``paiju tournament``), then prints the duplicate tournament's
summary against the heuristic."""

from __future__ import annotations

import argparse
import json
import os
import sys

POLICY_FILE = '''"""The MaskablePPO policy trained by examples/train_maskable_ppo.py."""
import numpy as np
from sb3_contrib import MaskablePPO

_model = MaskablePPO.load({model!r}, device="cpu")


def policy(observation, mask):
    action, _state = _model.predict({{"observation": observation, "action_mask": mask}},
                                    action_masks=np.asarray(mask, bool), deterministic=True)
    return int(action)
'''


def train(game: str, steps: int, out: str, seed: int = 0) -> str:
    """Train against the heuristic (opponents and partner) for ``steps`` env steps; write the
    model and the policy file into ``out``; return the policy file's path."""
    import gymnasium
    from sb3_contrib import MaskablePPO

    import paiju.envs

    env = gymnasium.make(paiju.envs.GYM_IDS[game], opponents="heuristic", skip_forced=True)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=min(2048, max(64, steps)), batch_size=64,
                        seed=seed, device="cpu", verbose=0)
    model.learn(total_timesteps=steps)
    os.makedirs(out, exist_ok=True)
    model_path = os.path.abspath(os.path.join(out, "model.zip"))
    model.save(model_path)
    policy_path = os.path.join(out, "policy.py")
    with open(policy_path, "w", encoding="utf-8") as f:
        f.write(POLICY_FILE.format(model=model_path))
    return policy_path


def evaluate(game: str, policy_path: str, deals: int, out: str) -> dict:
    """A duplicate tournament of the policy against the heuristic (``paiju tournament``)."""
    from paiju.cli import main

    where = os.path.join(out, "tournament")
    code = main(["tournament", game, "--agents", f"heuristic,policy:{policy_path}:policy", "--deals", str(deals),
                 "--duplicate", "--quiet", "--out", where])
    if code != 0:
        raise SystemExit(code)
    with open(os.path.join(where, "summary.json"), encoding="utf-8") as f:
        return json.load(f)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("guandan", "shengji"))
    parser.add_argument("--steps", type=int, default=20_000, help="training env steps (default 20000)")
    parser.add_argument("--deals", type=int, default=20, help="evaluation deals, even (default 20)")
    parser.add_argument("--out", default="runs/ppo", help="output directory (default runs/ppo)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    policy_path = train(args.game, args.steps, args.out, args.seed)
    summary = evaluate(args.game, policy_path, args.deals, args.out)
    json.dump(summary["pairings"], sys.stdout, indent=1, default=str)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
