"""Two source trees side by side: 掼蛋 lead move generation on fresh 27-card hands.

    git archive <old-commit> | tar -x -C /tmp/old
    python benchmarks/bench_movegen_compare.py /tmp/old . [--hands 2000] [--runs 7]

One worker process per tree; the driver hands them the same seeded hands in turn (old, new,
new, old, …) so machine load hits both alike. Each worker times ``legal_plays(hand, None,
level)`` (every move made) and ``plays(counts, None, level)[0]`` (the engine's listing, one
move's cards), cache cleared before each call, with ``time.perf_counter_ns``. Printed: the
median per call of each run, and the median and spread (min–max) of the runs' medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

_WORKER = r"""
import json, random, sys, time
from guandan.movegen import clear_cache, legal_plays, plays
from tabletop.cards import CARDS

def hands(seed, count):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deck = list(CARDS) * 2  # two decks, 108 cards
        rng.shuffle(deck)
        hand = tuple(sorted(deck[:27]))
        counts = [0] * 54
        for c in hand:
            counts[c] += 1
        out.append((hand, counts, rng.randrange(13)))
    return out

clock = time.perf_counter_ns
print("ready", flush=True)
for line in sys.stdin:
    seed, count = map(int, line.split())
    full, engine = [], []
    for hand, counts, level in hands(seed, count):
        clear_cache(); t = clock(); legal_plays(hand, None, level); full.append(clock() - t)
        clear_cache(); t = clock(); plays(counts, None, level)[0]; engine.append(clock() - t)
    print(json.dumps({"full": full, "engine": engine}), flush=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--hands", type=int, default=2000, help="hands per run")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--block", type=int, default=100)
    args = parser.parse_args()
    procs = {}
    for name, tree in (("old", args.old), ("new", args.new)):
        env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
        procs[name] = subprocess.Popen([sys.executable, "-c", _WORKER], env=env, cwd="/", text=True,
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert procs[name].stdout.readline().strip() == "ready"
    medians = {n: {"full": [], "engine": []} for n in procs}
    turn = 0
    for r in range(args.runs):
        samples = {n: {"full": [], "engine": []} for n in procs}
        for b in range(0, args.hands, args.block):
            order = ("old", "new") if turn % 2 == 0 else ("new", "old")
            turn += 1
            for name in order:
                proc = procs[name]
                proc.stdin.write(f"{r * 100_000 + b} {args.block}\n")
                proc.stdin.flush()
                got = json.loads(proc.stdout.readline())
                for case in ("full", "engine"):
                    samples[name][case] += got[case]
        line = []
        for name in procs:
            for case in ("full", "engine"):
                m = statistics.median(samples[name][case]) / 1e6
                medians[name][case].append(m)
                line.append(f"{name} {case} {m:.4f} ms")
        print(f"run {r + 1}: " + ", ".join(line), flush=True)
    for proc in procs.values():
        proc.stdin.close()
        proc.wait()
    for case in ("full", "engine"):
        for name in procs:
            ms = medians[name][case]
            print(f"{case:6} {name}: median {statistics.median(ms):.4f} ms (runs {min(ms):.4f}–{max(ms):.4f})")
        ratio = [o / n for o, n in zip(medians["old"][case], medians["new"][case])]
        print(f"{case:6} old/new per run: median ×{statistics.median(ratio):.3f} "
              f"(×{min(ratio):.3f}–×{max(ratio):.3f})")


if __name__ == "__main__":
    main()
