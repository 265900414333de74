"""A `paiju` process's start-up, old tree against new, in paired runs.

    git archive <old-commit> | tar -x -C /tmp/old
    python benchmarks/bench_startup.py /tmp/old . [--pairs 15] [--deals 1] [--game guandan] [--referee]

Each pair runs ``python -m paiju.cli simulate GAME --deals N --quiet`` once from each tree (the
order alternating from pair to pair, so load drifts hit both alike) and takes the child's CPU
time (user + system, from ``os.wait4``); ``--referee``: a clean refereed run (``--referee``). Printed: per tree the median and spread, and the median
of the per-pair ratios old/new. Both trees are byte-compiled first (``compileall``), as an
installed package is: the figure is the start-up a user pays, not the compiler's.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys


def cpu_seconds(cmd: list[str], env: dict[str, str]) -> float:
    proc = subprocess.Popen(cmd, env=env, cwd="/", stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{cmd} failed")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--pairs", type=int, default=15)
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument("--game", default="guandan")
    parser.add_argument("--referee", action="store_true", help="a clean refereed run (--referee)")
    args = parser.parse_args()
    trees = {"old": os.path.abspath(args.old), "new": os.path.abspath(args.new)}
    for tree in trees.values():
        for package in ("tabletop", "guandan", "shengji", "enforcement", "paiju"):
            compileall.compile_dir(os.path.join(tree, package), quiet=1)
    cmd = [sys.executable, "-m", "paiju.cli", "simulate", args.game, "--deals", str(args.deals), "--quiet"]
    if args.referee:
        cmd.append("--referee")
    times: dict[str, list[float]] = {"old": [], "new": []}
    for pair in range(args.pairs):
        order = ("old", "new") if pair % 2 == 0 else ("new", "old")
        for name in order:
            times[name].append(cpu_seconds(cmd, dict(os.environ, PYTHONPATH=trees[name])))
    for name, values in times.items():
        print(f"{name}: median {statistics.median(values):.3f} s CPU (runs {min(values):.3f}-{max(values):.3f})")
    ratios = sorted(o / n for o, n in zip(times["old"], times["new"]))
    print(f"old/new per pair: median x{statistics.median(ratios):.3f} (x{ratios[0]:.3f}-x{ratios[-1]:.3f})")


if __name__ == "__main__":
    main()
