"""Environment steps per second, uniformly random masked actions, on one core: paiju's
PettingZoo environments (掼蛋, 双升) side by side with RLCard's Dou Dizhu environment.

    .venv/bin/python benchmarks/bench_envs.py [--seconds S] [--rounds R] [--profile GAME]
    .venv/bin/python benchmarks/bench_envs.py --trees /tmp/old /tmp/new [--game guandan] [--seconds S] [--rounds R]

Every step builds the observation and the mask (``env.last()``) and picks a uniformly
random legal action from the mask (``mask.nonzero()``); RLCard builds its state at every
step anyway and its random pick is from its legal-action list. The three are run in turns,
``--rounds`` times each for ``--seconds`` of the process's CPU time, and the best round
of each is reported (rates are per CPU second: a shared machine slows the wall clock,
much less the CPU time). ``--profile guandan`` prints
a cProfile of one 掼蛋 run instead. Needs ``pip install 'paiju[rl]' rlcard``.

``--trees OLD NEW`` compares two (or more) source trees of paiju (``git archive <commit> |
tar -x -C DIR``; a tree is ``PATH`` or ``NAME=PATH``) with RLCard side by side: one
long-lived worker process per tree and one for RLCard, asked in turn (RLCard, old, new, then
new, old, RLCard, …) for ``--seconds`` of CPU each, ``--rounds`` times; printed: every
round's steps/s, each tree's ratio to the RLCard round next to it and to the first tree, and
the medians and spread (min…max) over the rounds.

双升 counts two kinds of steps: env steps (a play or burial is composed card by card, so
one engine decision is several env steps) and engine decisions; both are printed.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys

from paired import named_trees
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


_WORKER = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import bench_envs
for line in sys.stdin:
    what, seconds = line.split()
    if what == "rlcard":
        rate = bench_envs.rlcard_rate(float(seconds))
    else:
        rate = bench_envs.paiju_rate(what, float(seconds))[0]
    print(json.dumps(rate), flush=True)
"""


class _Worker:
    """A process measuring one tree's (or RLCard's) steps/s on request."""

    def __init__(self, tree: str) -> None:
        here = os.path.dirname(os.path.abspath(__file__))
        env = {**os.environ, "PYTHONPATH": os.path.abspath(tree)} if tree else dict(os.environ)
        self.process = subprocess.Popen([sys.executable, "-c", _WORKER, here], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, env=env, cwd="/")

    def rate(self, what: str, seconds: float) -> float:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{what} {seconds}\n")
        self.process.stdin.flush()
        return float(json.loads(self.process.stdout.readline()))

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def compare(trees: list[tuple[str, str]], game: str, seconds: float, rounds: int) -> None:
    """Each tree and RLCard's Dou Dizhu in turns (see the module doc)."""
    names = [name for name, _ in trees]
    workers = {"rlcard": _Worker(""), **{name: _Worker(path) for name, path in trees}}
    try:
        for worker in workers.values():   # imports and caches warmed
            worker.rate("rlcard" if worker is workers["rlcard"] else game, 0.5)
        rates: dict[str, list[float]] = {name: [] for name in workers}
        print(f"{'round':>5} " + " ".join(f"{n:>9}" for n in workers) + " " + " ".join(f"{n + '×':>10}" for n in names))
        for r in range(rounds):
            order = ["rlcard", *names] if r % 2 == 0 else [*reversed(names), "rlcard"]
            got = {name: workers[name].rate("rlcard" if name == "rlcard" else game, seconds) for name in order}
            for name, rate in got.items():
                rates[name].append(rate)
            print(f"{r:>5} " + " ".join(f"{got[n]:>9,.0f}" for n in workers) + " "
                  + " ".join(f"{got[n] / got['rlcard']:>10.2f}" for n in names))
    finally:
        for worker in workers.values():
            worker.close()

    def summary(values: list[float], form: str) -> str:
        return f"median {statistics.median(values):{form}} ({min(values):{form}} … {max(values):{form}})"

    print(f"{game} env steps/s over {rounds} rounds of {seconds:g} CPU s:")
    for name in workers:
        print(f"  {name:<9} {summary(rates[name], ',.0f')}")
    for name in names:
        ratios = [a / b for a, b in zip(rates[name], rates["rlcard"])]
        print(f"  {name} × rlcard (paired by round) {summary(ratios, '.2f')}")
    for name in names[1:]:
        print(f"  {name} / {names[0]} (paired by round) "
              f"{summary([a / b for a, b in zip(rates[name], rates[names[0]])], '.2f')}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", choices=("guandan", "shengji"))
    parser.add_argument("--trees", nargs="+", metavar="TREE", help="PATH or NAME=PATH, two or more")
    parser.add_argument("--game", choices=("guandan", "shengji"), default="guandan")
    args = parser.parse_args(argv)
    if args.trees:
        compare(named_trees(args.trees), args.game, args.seconds, args.rounds)
        return 0
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
