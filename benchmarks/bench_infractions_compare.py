"""Two (or more) source trees of paiju side by side: refereed deals/s with injected irregularities.

    git archive <old-commit> | tar -x -C /tmp/old
    python benchmarks/bench_infractions_compare.py /tmp/old . [--game shengji] [--rate 0.05]
                                                   [--deals 100] [--runs 5] [--block 10]

A tree is ``PATH`` or ``NAME=PATH`` (unnamed, two trees are "old" and "new"); with more than
two, the blocks go to the trees in rotated order and each tree's ratio is to the first one's.

One long-lived worker process per tree (imports and caches warmed first) plays deals the way
``paiju simulate GAME --referee --infractions RATE`` does (``paiju.sim.batch.play_unit``:
random agents wrapped in seeded injectors, the rulebook referee in its seat), each deal's result
kept (the referee's rulings in it). The driver hands both workers the same blocks of ``--block`` deal indices in turn
(old, new, new, old, …), so a change in machine load hits both trees alike; each worker
reports the CPU seconds of the block, the decisions (steps) it took and a digest of its results. Printed: every run's deals/s, the median and spread per tree, the new/old ratio per
run, decisions per deal, and whether the two trees played the same deals (they must; the golden tests check the logs).
"""

from __future__ import annotations

import argparse
import statistics

from paired import named_trees, run_block, start_worker

_WORKER = r"""
import hashlib, json, sys, time
from paiju.sim.batch import Batch, adapter, play_unit
import tabletop.runner as runner

game_name, rate = sys.argv[1], float(sys.argv[2])
game = adapter(game_name)
rules = game.rules_from_dict({})
batch = Batch(game=game.name, unit="deals", count=1_000_000, seed=0, rules=rules.to_dict(),
              agents=("random",) * 4, options={"referee": True, "infractions": rate})

class Steps:
    count = 0
    def on_events(self, engine, events):
        Steps.count += 1   # one batch of events per applied action or ruling

def play(index, digest):
    result = play_unit(game, batch, rules, index, None, observers=[Steps()])
    digest.update(repr(result).encode())

for index in range(5):   # warm imports and caches
    play(index, hashlib.sha256())
clock = time.process_time
print("ready", flush=True)
for line in sys.stdin:
    first, count = map(int, line.split())
    digest = hashlib.sha256()
    Steps.count = 0
    start = clock()
    for index in range(first, first + count):
        play(index, digest)
    print(json.dumps({"seconds": clock() - start, "steps": Steps.count, "digest": digest.hexdigest()}), flush=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", metavar="TREE", help="PATH or NAME=PATH, two or more")
    parser.add_argument("--game", choices=("guandan", "shengji"), default="guandan")
    parser.add_argument("--rate", type=float, default=0.05, help="infractions per decision")
    parser.add_argument("--deals", type=int, default=100, help="deals per run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--block", type=int, default=10)
    args = parser.parse_args()
    trees = named_trees(args.trees)
    procs = {name: start_worker(path, _WORKER, args.game, str(args.rate)) for name, path in trees}
    names = list(procs)
    first_name = names[0]
    rates: dict[str, list[float]] = {n: [] for n in procs}
    steps = 0
    same = True
    turn = 0
    for r in range(args.runs):
        spent = {n: 0.0 for n in procs}
        first = 1000 + r * args.deals
        for b in range(0, args.deals, args.block):
            order = names[turn % len(names):] + names[:turn % len(names)]
            if turn // len(names) % 2:
                order.reverse()
            turn += 1
            out = {name: run_block(procs[name], first + b, min(args.block, args.deals - b)) for name in order}
            same = same and all(out[n]["digest"] == out[first_name]["digest"] and out[n]["steps"] == out[first_name]["steps"]
                                for n in names)
            steps += out[first_name]["steps"]
            for name in procs:
                spent[name] += out[name]["seconds"]
        for name in procs:
            rates[name].append(args.deals / spent[name])
        print(f"run {r + 1}: " + "  ".join(f"{n} {rates[n][-1]:.1f}" for n in procs), flush=True)
    for p in procs.values():
        p.stdin.close()
        p.wait()
    for name in procs:
        print(f"{name}: {statistics.median(rates[name]):.1f} deals/s (runs {min(rates[name]):.1f}-{max(rates[name]):.1f})")
    for name in names[1:]:
        ratios = [n / o for o, n in zip(rates[first_name], rates[name])]
        print(f"{name}/{first_name}: median {statistics.median(ratios):.3f} (runs {min(ratios):.3f}-{max(ratios):.3f})")
    print(f"steps (actions + rulings applied) per deal: {steps / (args.deals * args.runs):.1f}; "
          f"results {'identical' if same else 'DIFFER'}")


if __name__ == "__main__":
    main()
