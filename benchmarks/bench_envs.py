"""Environment steps per second, uniformly random masked actions, on one core: paiju's
PettingZoo environments (掼蛋, 双升) side by side with RLCard's Dou Dizhu environment.

    .venv/bin/python benchmarks/bench_envs.py [--seconds S] [--rounds R] [--profile GAME]

Every step builds the observation and the mask (``env.last()``) and picks a uniformly
random legal action from the mask (``mask.nonzero()``); RLCard builds its state at every
step anyway and its random pick is from its legal-action list. The three are run in turns,
``--rounds`` times each for ``--seconds`` of the process's CPU time, and the best round
of each is reported (rates are per CPU second: a shared machine slows the wall clock,
much less the CPU time). ``--profile guandan`` prints
a cProfile of one 掼蛋 run instead. Needs ``pip install 'paiju[rl]' rlcard``.

双升 counts two kinds of steps: env steps (a play or burial is composed card by card, so
one engine decision is several env steps) and engine decisions; both are printed.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time

import numpy as np


def paiju_rate(game: str, seconds: float, raw: bool = False) -> tuple[float, float]:
    """(env steps/s, engine decisions/s) of random masked play, deal after deal."""
    import importlib

    from paiju.envs import ENV_MODULES

    module = importlib.import_module(ENV_MODULES[game])
    env = module.raw_env() if raw else module.env()
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    steps = decisions = 0
    base = env.unwrapped
    start = time.process_time()
    while time.process_time() - start < seconds:
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
        decisions += base.engine_steps
        env.reset()
    elapsed = time.process_time() - start
    return steps / elapsed, decisions / elapsed


def rlcard_rate(seconds: float) -> float:
    import rlcard

    env = rlcard.make("doudizhu", config={"seed": 0})
    rng = np.random.default_rng(0)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state, _player = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _player = env.step(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", choices=("guandan", "shengji"))
    args = parser.parse_args(argv)
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(paiju_rate, args.profile, args.seconds, True)
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)
        return 0
    best: dict[str, tuple[float, ...]] = {}
    runs = {
        "rlcard doudizhu": lambda: (rlcard_rate(args.seconds),),
        "paiju guandan_v0": lambda: paiju_rate("guandan", args.seconds),
        "paiju shengji_v0": lambda: paiju_rate("shengji", args.seconds),
    }
    for _ in range(args.rounds):
        for name, run in runs.items():
            got = run()
            if name not in best or got[0] > best[name][0]:
                best[name] = got
    base = best["rlcard doudizhu"][0]
    print(f"{'environment':<20} {'env steps/s':>12} {'× rlcard':>9} {'decisions/s':>12}")
    for name, got in best.items():
        decisions = f"{got[1]:>12,.0f}" if len(got) > 1 else f"{got[0]:>12,.0f}"
        print(f"{name:<20} {got[0]:>12,.0f} {got[0] / base:>9.2f} {decisions}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
