"""Two source trees of paiju side by side: strict and refereed-clean 掼蛋 deals/s.

    git archive <old-commit> | tar -x -C /tmp/old
    git archive <new-commit> | tar -x -C /tmp/new
    python benchmarks/bench_guandan_compare.py /tmp/old /tmp/new [--deals 150] [--rounds 7]

Each round runs one fresh process per tree, alternating (old, new, new, old, …), so that a
change in machine load hits both alike. A process plays the same seeded drawn first deals
with four random agents, strict and refereed-clean (``engine_options`` of a header
without infractions, the rulebook referee observing) interleaved deal by deal, and reports
CPU seconds per variant (see ``bench_guandan_referee.py``). Printed: the median deals/s per
tree and variant over the rounds, and every round's figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

_CHILD = r"""
import json, sys, time
from enforcement.setup import engine_options, make_guandan_referee
from guandan.agents import RandomAgent
from guandan.deal import Deal
from guandan.movegen import clear_cache
from tabletop import rng as streams
from tabletop.runner import run

def agents(seed):
    return [RandomAgent(streams.generator(seed, 0, streams.AGENT + s)) for s in range(4)]

def strict(seed):
    run(Deal.drawn(seed), agents(seed))

def clean(seed):
    options = {"referee": True, "infractions": 0.0}
    run(Deal.drawn(seed, **engine_options(options)), agents(seed), [make_guandan_referee()])

deals = int(sys.argv[1])
for seed in range(5):  # warm imports and caches
    strict(seed); clean(seed)
spent = {"strict": 0.0, "clean": 0.0}
clock = time.process_time
for seed in range(1000, 1000 + deals):
    for name, play in (("strict", strict), ("clean", clean)):
        clear_cache()
        start = clock()
        play(seed)
        spent[name] += clock() - start
print(json.dumps({k: deals / v for k, v in spent.items()}))
"""


def one(tree: str, deals: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    out = subprocess.run([sys.executable, "-c", _CHILD, str(deals)], env=env, cwd="/",
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    figures: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for r in range(args.rounds):
        order = ("old", "new") if r % 2 == 0 else ("new", "old")
        for name in order:
            figures[name].append(one(getattr(args, name), args.deals))
        print(f"round {r + 1}: " + "  ".join(
            f"{n} strict {figures[n][-1]['strict']:.1f} clean {figures[n][-1]['clean']:.1f}"
            for n in ("old", "new")), flush=True)
    for name in ("old", "new"):
        s = statistics.median(f["strict"] for f in figures[name])
        c = statistics.median(f["clean"] for f in figures[name])
        print(f"{name}: strict {s:.1f} deals/s, refereed-clean {c:.1f} deals/s, "
              f"overhead {100 * (s / c - 1):+.1f} %")


if __name__ == "__main__":
    main()
