"""The built-in heuristic agents against `random` and against an older heuristic, and what
they cost: per game, both seat orders, deals played as `paiju simulate GAME --deals N
--agents A,B` plays them (seed tree, per-deal agents), in this process.

    python benchmarks/bench_heuristics.py [--deals 1000] [--seed 0] [--old COMMIT] [--games guandan,shengji]

For each pairing: how often team A's side gains levels in a deal (掼蛋: A's side is the
上游's; 双升: the side that goes up, the attackers also when they take the bank at +0), the
mean level difference per deal (A's gain minus B's) with a 95 % interval (normal
approximation, ±1.96 standard errors), and deals/s (CPU time). With ``--old COMMIT`` the
agents files of that commit are loaded as plug-in agents (``old``) so that the new and the
old heuristic play each other and their speeds are measured in the same run.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from paiju.agent_specs import make_agents
from paiju.sim.batch import Batch, start_unit
from paiju.games import adapter_for
from tabletop.runner import run

ROOT = Path(__file__).resolve().parents[1]


class Timed:
    """An agent whose decisions are timed (CPU time), per team."""

    def __init__(self, agent, clock: list[float]) -> None:
        self.agent, self.clock = agent, clock

    def act(self, observation, legal_actions):
        start = time.process_time()
        action = self.agent.act(observation, legal_actions)
        self.clock[0] += time.process_time() - start
        self.clock[1] += 1
        return action


def play(game_name: str, specs: tuple[str, str], deals: int, seed: int) -> tuple[list[int], int, float, dict]:
    """Team 0's level difference per deal, the deals team 0 won, CPU seconds, and
    throw/kitty counts (双升) and each team's agent time per decision (``extra['decision_us']``)."""
    game = adapter_for(game_name)
    rules = game.rules_from_dict({})
    per_seat = (specs[0], specs[1], specs[0], specs[1])
    batch = Batch(game=game_name, unit="deals", count=deals, seed=seed, rules=rules.to_dict(), agents=per_seat)
    diffs = []
    won = 0
    extra = {"throws": 0, "failed_throws": 0, "kitty_bonuses": 0, "no_trump": 0, "tricks": False}
    clocks = [[0.0, 0], [0.0, 0]]
    start = time.process_time()
    for index in range(deals):
        engine, _ = start_unit(game, "deals", seed, index, rules)
        agents = [Timed(agent, clocks[seat % 2]) for seat, agent in enumerate(make_agents(game, batch.agents, seed, index))]
        result = run(engine, agents)
        diffs.append(result.levels if result.team == 0 else -result.levels)
        won += result.team == 0
        if hasattr(result, "throws"):   # a trick-taking deal's result (双升)
            extra["tricks"] = True
            extra["throws"] += result.throws
            extra["failed_throws"] += result.failed_throws
            extra["kitty_bonuses"] += bool(result.kitty_bonus)
            extra["no_trump"] += result.trump is None
    extra["decision_us"] = [1e6 * spent / max(1, calls) for spent, calls in clocks]
    return diffs, won, time.process_time() - start, extra


def interval(values: list[int]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")
    return mean, half


def old_agents(commit: str, game: str, directory: str) -> str:
    source = subprocess.run(["git", "show", f"{commit}:{game}/agents.py"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    path = os.path.join(directory, f"old_{game}_agents.py")
    Path(path).write_text(source, encoding="utf-8")
    return f"{path}:HeuristicAgent"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--old", metavar="COMMIT", help="also play the heuristic of this commit (as 'old')")
    parser.add_argument("--games", default="guandan,shengji")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print("| game | team 0 | team 1 | deals | team 0 wins the deal | mean level diff (team 0 − team 1), 95 % | "
          "deals/s | µs per decision, team 0 / team 1 | 双升: throws (failed), kitty bonuses, no-trump |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as directory:
        for game in args.games.split(","):
            pairings = [("random", "random"), ("heuristic", "random"), ("random", "heuristic"),
                        ("heuristic", "heuristic")]
            if args.old:
                old = old_agents(args.old, game, directory)
                pairings += [(old, "random"), ("random", old), ("heuristic", old), (old, "heuristic"), (old, old)]
            for a, b in pairings:
                diffs, wins, seconds, extra = play(game, (a, b), args.deals, args.seed)
                mean, half = interval(diffs)
                shown = [("old" if ":" in s else s) for s in (a, b)]
                more = ""
                if extra["tricks"]:
                    more = (f"{extra['throws']} ({extra['failed_throws']}), {extra['kitty_bonuses']}, "
                            f"{extra['no_trump']}")
                print(f"| {game} | {shown[0]} | {shown[1]} | {len(diffs)} | {100 * wins / len(diffs):.1f} % | "
                      f"{mean:+.2f} ± {half:.2f} | {len(diffs) / seconds:.0f} | "
                      f"{extra['decision_us'][0]:.0f} / {extra['decision_us'][1]:.0f} | {more} |", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
