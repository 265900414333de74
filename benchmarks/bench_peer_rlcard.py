"""Whole ``paiju simulate … --quiet`` processes (two or more trees) side by side with a loop
over RLCard's Dou Dizhu game with random legal actions, the same number of deals/games each.

    git archive <old-commit> | tar -x -C /tmp/old
    python benchmarks/bench_peer_rlcard.py /tmp/old . [--deals 500] [--runs 5] [--referee [--infractions RATE]] [--and-clean]
                                          [--games shengji]
    python benchmarks/bench_peer_rlcard.py main=/tmp/main pure=/tmp/pure compiled=. …

A tree is ``PATH`` or ``NAME=PATH`` (unnamed, two trees are "old" and "new").

Every run starts, in turn (the order rotated from run to run so machine load hits all alike):
``paiju simulate guandan``, ``paiju simulate shengji`` for each tree (``--deals N --quiet``,
``--referee --infractions RATE`` with ``--referee``, RATE 0 unless ``--infractions``; with
``--and-clean`` both strict and ``--referee --infractions 0``) and ``python -c <RLCard loop>`` for N games.
Both trees are byte-compiled first, as an installed package is. Each figure is the child
process's CPU time (user + system, imports included, from
``os.wait4``) as deals (games) per CPU second. Printed: every run, then per command the median
and spread of the runs and the median of the per-run ratios to RLCard. Needs ``pip install
rlcard`` in the interpreter that runs this script.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys

from paired import named_trees

_RLCARD = r"""
import sys
import numpy as np
from rlcard.games.doudizhu.game import DoudizhuGame
rng = np.random.default_rng(0)
game = DoudizhuGame(np.random.RandomState(0))
for _ in range(int(sys.argv[1])):
    state, player = game.init_game()
    while not game.is_over():
        actions = state["actions"]
        state, player = game.step(actions[int(rng.integers(len(actions)))])
"""


def cpu_seconds(cmd: list[str], env: dict[str, str]) -> float:
    proc = subprocess.Popen(cmd, env=env, cwd="/", stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{cmd[:4]} failed with exit code {proc.returncode}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", metavar="TREE", help="PATH or NAME=PATH, two or more")
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--referee", action="store_true", help="paiju deals refereed (no infraction unless --infractions)")
    parser.add_argument("--infractions", type=float, default=0.0, metavar="RATE", help="with --referee: injected irregularities per decision")
    parser.add_argument("--games", default="guandan,shengji", help="paiju games to run, comma-separated (default both)")
    parser.add_argument("--and-clean", action="store_true",
                        help="each paiju command strict and refereed clean (--referee --infractions 0) in the same "
                             "rotation; prints the refereed overhead per tree and game, paired within runs")
    args = parser.parse_args()
    modes = {"": ["--referee", "--infractions", str(args.infractions)] if args.referee else []}
    if args.and_clean:
        modes = {"": [], " clean": ["--referee", "--infractions", "0"]}
    commands: dict[str, tuple[list[str], dict[str, str]]] = {
        "rlcard doudizhu": ([sys.executable, "-c", _RLCARD, str(args.deals)], dict(os.environ))}
    for tree_name, tree in named_trees(args.trees):
        env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
        for game in args.games.split(","):
            for mode, extra in modes.items():
                commands[f"{tree_name} {game}{mode}"] = (
                    [sys.executable, "-c", "import sys; from paiju.cli import main; sys.exit(main())", "simulate", game,
                     "--deals", str(args.deals), "--quiet", *extra],
                    env)
    # A user's install has its modules byte-compiled (pip does it), as RLCard's are: without
    # this, a process under PYTHONDONTWRITEBYTECODE would compile every module at each start.
    for _, tree in named_trees(args.trees):
        for package in ("tabletop", "guandan", "shengji", "enforcement", "paiju"):
            compileall.compile_dir(os.path.join(tree, package), quiet=1)
    names = list(commands)
    rates: dict[str, list[float]] = {n: [] for n in names}
    for r in range(args.runs):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            cmd, env = commands[name]
            rates[name].append(args.deals / cpu_seconds(cmd, env))
        print(f"run {r + 1}: " + ", ".join(f"{n} {rates[n][-1]:.1f}" for n in names), flush=True)
    peer = rates["rlcard doudizhu"]
    for name in names:
        ratios = [a / b for a, b in zip(rates[name], peer)]
        print(f"{name:20} median {statistics.median(rates[name]):7.1f} /s (runs {min(rates[name]):.1f}–"
              f"{max(rates[name]):.1f}), × rlcard median {statistics.median(ratios):.2f} "
              f"({min(ratios):.2f}–{max(ratios):.2f})")
    for name in names:
        if name.endswith(" clean"):
            strict = rates[name[:-len(" clean")]]
            over = [s / c - 1 for s, c in zip(strict, rates[name])]
            print(f"{name:20} over strict, paired: median {statistics.median(over):+.1%} "
                  f"({min(over):+.1%} … {max(over):+.1%})")


if __name__ == "__main__":
    main()
