"""Two source trees side by side: `paiju fuzz` cases/s, each case played under the invariant
checker (``paiju.fuzz.case.run_case``: the case's injectors, referee and checker).

    git archive <old-commit> | tar -x -C /tmp/old
    python benchmarks/bench_fuzz_compare.py /tmp/old . [--game shengji] [--cases 150] [--block 10]

One long-lived worker process per tree (imports and caches warmed on other cases first) plays
the fuzzer's cases of seed 0 in blocks; the driver hands both workers the same blocks in turn
(old, new, new, old, …) so that a change in machine load hits both alike. Printed: the CPU
seconds of each tree, the new/old ratio of cases/s (over the whole run, and the median and
spread per block) and whether both trees found the same (they must: the checker only reads).
"""

from __future__ import annotations

import argparse
import statistics

from paired import run_block, start_worker

_WORKER = r"""
import hashlib, json, sys, time
from paiju.fuzz.case import draw_case, run_case

game = sys.argv[1]
for index in range(3):   # warm imports and caches (seed 7: not among the measured cases)
    run_case(draw_case(game, "deals", 7, index))
print("ready", flush=True)
for line in sys.stdin:
    first, count = map(int, line.split())
    digest = hashlib.sha256()
    start = time.process_time()
    for index in range(first, first + count):
        outcome = run_case(draw_case(game, "deals", 0, index))
        digest.update(repr(outcome.finding).encode())
    print(json.dumps({"seconds": time.process_time() - start, "digest": digest.hexdigest()}), flush=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--game", choices=("guandan", "shengji"), default="guandan")
    parser.add_argument("--cases", type=int, default=150)
    parser.add_argument("--block", type=int, default=10)
    args = parser.parse_args()
    procs = {"old": start_worker(args.old, _WORKER, args.game), "new": start_worker(args.new, _WORKER, args.game)}
    spent: dict[str, list[float]] = {name: [] for name in procs}
    same = True
    for turn, first in enumerate(range(0, args.cases, args.block)):
        order = ("old", "new") if turn % 2 == 0 else ("new", "old")
        count = min(args.block, args.cases - first)
        out = {name: run_block(procs[name], first, count) for name in order}
        same = same and out["old"]["digest"] == out["new"]["digest"]
        for name in procs:
            spent[name].append(out[name]["seconds"])
    for proc in procs.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    ratios = [o / n for o, n in zip(spent["old"], spent["new"])]
    total = {name: sum(seconds) for name, seconds in spent.items()}
    print(f"{args.game}: {args.cases} cases; old {total['old']:.1f} s, new {total['new']:.1f} s CPU")
    print(f"new/old cases/s: {total['old'] / total['new']:.3f} over the run; per block median "
          f"{statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f}); "
          f"findings {'identical' if same else 'DIFFER'}")


if __name__ == "__main__":
    main()
