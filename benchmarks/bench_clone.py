"""Snapshots per second of the RL environments (``clone()`` / ``restore()``), what a search
agent pays to play ahead and come back: each game, strict and refereed with infractions,
from a state 20 agent decisions into a deal (three bots: random, heuristic, random).

    .venv/bin/python benchmarks/bench_clone.py [--seconds S]

Rates are per CPU second of the process (a shared machine slows the wall clock much less
than the CPU time); printed with the snapshot's size in bytes."""

from __future__ import annotations

import argparse
import time

import numpy as np

from paiju.envs import guandan_v0, shengji_v0


def rate(call, seconds: float) -> float:
    n, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(50):
            call()
        n += 50
    return n / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    for module in (guandan_v0, shengji_v0):
        for label, options in (("strict", {}), ("infractions 0.1", {"infractions": 0.1})):
            env = module.raw_env(bots={1: "random", 2: "heuristic", 3: "random"}, **options)
            env.reset(seed=1)
            rng = np.random.default_rng(0)
            for _ in range(20):
                if env.terminations[env.agent_selection]:
                    env.reset()
                mask = env.observe(env.agent_selection)["action_mask"]
                env.step(int(rng.choice(np.flatnonzero(mask))))
            snapshot = env.clone()
            clones = rate(env.clone, args.seconds)
            restores = rate(lambda: env.restore(snapshot), args.seconds)
            print(f"{module.__name__.rsplit('.', 1)[1]:11} {label:16} clones/s {clones:7.0f}  "
                  f"restores/s {restores:7.0f}  snapshot {len(snapshot)} bytes")


if __name__ == "__main__":
    main()
