"""Two source trees side by side: whole 掼蛋 and 双升 matches, strict and refereed-clean, deals/s.

    git archive <old-commit> | tar -x -C /tmp/old
    python benchmarks/bench_match_compare.py /tmp/old /tmp/new [--runs 9] [--block 20] [--deals 3]

One long-lived worker process per tree (warmed on a first block). The driver hands them the
same blocks of ``--block`` seeded matches of ``--deals`` deals in turn (old, new, then new,
old, …), so a change in machine load hits both alike; the worker plays them with four random
agents (refereed: the rulebook referee in its seat, no infraction) and reports the CPU
seconds. Printed per game and mode: the median deals/s of each tree (min-max) and the median
over runs of new/old. ``bench_guandan_compare.py`` plays lone first deals; this plays the
match around them (settling a deal, the levels, drawing the next deal, tribute).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

_WORKER = r"""
import json, sys, time
import guandan.agents, shengji.agents
from enforcement.setup import make_referee
from guandan.match import Match as GuandanMatch
from guandan.rules import GuandanRules
from shengji.match import Match as ShengjiMatch
from shengji.rules import ShengjiRules
from tabletop import rng as streams
from tabletop.runner import run

def agents(module, seed):
    return [module.RandomAgent(streams.generator(seed, 0, streams.AGENT + s)) for s in range(4)]

for line in sys.stdin:
    game, mode, first, count, deals = line.split()
    first, count, deals = int(first), int(count), int(deals)
    start = time.process_time()
    for seed in range(first, first + count):
        if game == "guandan":
            match, module = GuandanMatch(seed, GuandanRules(match_end="deals", match_deals=deals), mode=mode), guandan.agents
        else:
            match, module = ShengjiMatch(seed, ShengjiRules(max_deals=deals), mode=mode), shengji.agents
        run(match, agents(module, seed), referee=make_referee(game) if mode == "refereed" else None)
    print(json.dumps(time.process_time() - start), flush=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--block", type=int, default=20, help="matches per block")
    parser.add_argument("--deals", type=int, default=3, help="deals per match")
    args = parser.parse_args()
    trees = [os.path.abspath(args.old), os.path.abspath(args.new)]
    workers = {tree: subprocess.Popen([sys.executable, "-c", _WORKER], cwd=tree,
                                      env={**os.environ, "PYTHONPATH": tree},
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
               for tree in trees}

    def seconds(tree: str, game: str, mode: str, first: int) -> float:
        worker = workers[tree]
        assert worker.stdin is not None and worker.stdout is not None
        worker.stdin.write(f"{game} {mode} {first} {args.block} {args.deals}\n")
        worker.stdin.flush()
        return float(json.loads(worker.stdout.readline()))

    for tree in trees:
        for game in ("guandan", "shengji"):
            seconds(tree, game, "refereed", 1_000_000)
    for game in ("guandan", "shengji"):
        for mode in ("strict", "refereed"):
            rates: dict[str, list[float]] = {tree: [] for tree in trees}
            for run in range(args.runs):
                for tree in (trees if run % 2 == 0 else trees[::-1]):
                    rates[tree].append(args.block * args.deals / seconds(tree, game, mode, run * args.block))
            old, new = rates[trees[0]], rates[trees[1]]
            ratio = statistics.median(b / a for a, b in zip(old, new))
            print(f"{game} {mode}: old {statistics.median(old):.1f} ({min(old):.1f}-{max(old):.1f}), "
                  f"new {statistics.median(new):.1f} ({min(new):.1f}-{max(new):.1f}) deals/s; "
                  f"new/old per run {ratio:.3f}", flush=True)
    for worker in workers.values():
        assert worker.stdin is not None
        worker.stdin.close()
        worker.wait()


if __name__ == "__main__":
    main()
