"""The determinised Monte Carlo search (``paiju.envs.search``) against the heuristic, in
duplicate: each seed's deal is played twice, the search holding seats 0 and 2 and then 1
and 3 (the heuristic the others); a pair's score is the search side's level result summed
over the two. Prints the mean per pair with a 95 % interval (normal approximation) and the
milliseconds per search decision (wall clock; decisions with one legal action excluded).

    .venv/bin/python benchmarks/bench_search.py [--pairs N] [--budget ROLLOUTS]"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from paiju.envs import guandan_v0
from paiju.envs.search import DeterminisedSearch


def play(seed: int, search_seats: tuple[int, int], search: DeterminisedSearch, timing: list[float]) -> int:
    bots = {s: "heuristic" for s in range(4) if s not in search_seats}
    env = guandan_v0.raw_env(bots=bots)
    env.reset(seed=seed)
    while env.engine.result is None:
        agent = env.agent_selection
        several = int(env.observe(agent)["action_mask"].sum()) > 1
        start = time.perf_counter()
        action = search.choose(env)
        if several:
            timing.append(time.perf_counter() - start)
        env.step(action)
    result = env.engine.result
    team = search_seats[0] % 2
    return result.levels if result.team == team else -result.levels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--budget", type=int, default=4, help="rollouts per legal action")
    args = parser.parse_args()
    search = DeterminisedSearch(args.budget, np.random.default_rng(0))
    timing: list[float] = []
    scores = []
    for seed in range(args.pairs):
        score = play(seed, (0, 2), search, timing) + play(seed, (1, 3), search, timing)
        scores.append(score)
        print(f"seed {seed}: {score:+d}", flush=True)
    mean = float(np.mean(scores))
    half = 1.96 * float(np.std(scores, ddof=1)) / math.sqrt(len(scores)) if len(scores) > 1 else float("nan")
    print(f"search (budget {args.budget}) vs heuristic, {len(scores)} duplicate pairs: "
          f"{mean:+.2f} levels a pair, 95 % interval {mean - half:+.2f} … {mean + half:+.2f}; "
          f"{1000 * float(np.mean(timing)):.0f} ms a decision ({len(timing)} decisions)")


if __name__ == "__main__":
    main()
