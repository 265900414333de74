"""Two source trees of paiju side by side: strict and refereed-clean 掼蛋 (or 双升) deals/s.

    git archive <old-commit> | tar -x -C /tmp/old
    git archive <new-commit> | tar -x -C /tmp/new
    python benchmarks/bench_guandan_compare.py /tmp/old /tmp/new [--deals 200] [--runs 7] [--block 10]
                                               [--game shengji]

One long-lived worker process per tree (its imports and caches warmed first). The driver
hands them the same blocks of ``--block`` seeded drawn first deals in turn (old, new, new,
old, …), so a change in machine load hits both trees alike; a worker plays each deal of a
block strict, then refereed-clean (``engine_options`` of a header without infractions, the
rulebook referee observing), four random agents, cold move-generation cache, and reports
the CPU seconds of each variant. ``--game shengji``: 双升 deals instead (banker seed % 4,
strict, then refereed with the rulebook referee in its seat, no infraction). A run is ``--deals`` deals; printed: every run's deals/s,
the median of the runs per tree and variant, and the refereed-clean overhead.
"""

from __future__ import annotations

import argparse
import statistics

from paired import run_block, start_worker

_GUANDAN_GAME = r"""
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
    run(Deal.drawn(seed, **engine_options(options)), agents(seed), referee=make_guandan_referee())

"""

_SHENGJI_GAME = r"""
import json, sys, time
from enforcement.shengji_rulings import make_shengji_referee
from shengji.agents import RandomAgent
from shengji.deal import Deal
from tabletop import rng as streams
from tabletop.runner import run

def clear_cache():
    pass

def agents(seed):
    return [RandomAgent(streams.generator(seed, streams.AGENT + s)) for s in range(4)]

def strict(seed):
    run(Deal(seed, banker=seed % 4), agents(seed))

def clean(seed):
    run(Deal(seed, banker=seed % 4, mode="refereed"), agents(seed), referee=make_shengji_referee())
"""

_LOOP = r"""
for seed in range(10):  # warm imports and caches
    strict(seed); clean(seed)
clock = time.process_time
print("ready", flush=True)
for line in sys.stdin:
    first, count = map(int, line.split())
    spent = {"strict": 0.0, "clean": 0.0}
    for seed in range(first, first + count):
        for name, play in (("strict", strict), ("clean", clean)):
            clear_cache()
            start = clock()
            play(seed)
            spent[name] += clock() - start
    print(json.dumps(spent), flush=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--deals", type=int, default=200, help="deals per run")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--block", type=int, default=10)
    parser.add_argument("--game", choices=("guandan", "shengji"), default="guandan")
    args = parser.parse_args()
    code = (_SHENGJI_GAME if args.game == "shengji" else _GUANDAN_GAME) + _LOOP
    procs = {"old": start_worker(args.old, code), "new": start_worker(args.new, code)}
    rates: dict[str, dict[str, list[float]]] = {n: {"strict": [], "clean": []} for n in procs}
    turn = 0
    for r in range(args.runs):
        spent = {n: {"strict": 0.0, "clean": 0.0} for n in procs}
        first = 1000 + r * args.deals
        for b in range(0, args.deals, args.block):
            order = ("old", "new") if turn % 2 == 0 else ("new", "old")
            turn += 1
            for name in order:
                for k, v in run_block(procs[name], first + b, min(args.block, args.deals - b)).items():
                    spent[name][k] += v
        for name in procs:
            for k in ("strict", "clean"):
                rates[name][k].append(args.deals / spent[name][k])
        print(f"run {r + 1}: " + "  ".join(
            f"{n} strict {rates[n]['strict'][-1]:.1f} clean {rates[n]['clean'][-1]:.1f}" for n in procs),
            flush=True)
    for p in procs.values():
        p.stdin.close()
        p.wait()
    for name in procs:
        s = statistics.median(rates[name]["strict"])
        c = statistics.median(rates[name]["clean"])
        over = statistics.median(a / b - 1 for a, b in zip(rates[name]["strict"], rates[name]["clean"]))
        print(f"{name}: strict {s:.1f} deals/s, refereed-clean {c:.1f} deals/s (medians of {args.runs} runs), "
              f"refereed-clean overhead {100 * over:+.1f} %")
    for k in ("strict", "clean"):
        ratios = [n / o for o, n in zip(rates["old"][k], rates["new"][k])]
        print(f"new/old {k}: median {statistics.median(ratios):.3f} (runs {min(ratios):.3f}-{max(ratios):.3f})")


if __name__ == "__main__":
    main()
