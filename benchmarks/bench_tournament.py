"""`paiju tournament`: what its bookkeeping costs against `paiju simulate` on the same deals,
and how much narrower its intervals are in the duplicate format.

    python benchmarks/bench_tournament.py [--deals 400] [--repeats 5] [--width-deals 400] [--seeds 8]
                                          [--games guandan,shengji] [--opponents random,mixed]

*Overhead*: a 2-agent duplicate tournament (heuristic vs random, ``--deals`` per pairing,
in this process) against simulate's own `run_batch` + `summarize` on exactly the same
deals (boards 0 … N/2-1 once with heuristic on seats 0&2 and once with random there).
CPU seconds of this process, runs interleaved, median of ``--repeats``.

*Widths*: heuristic vs random with and without ``--duplicate``, the same number of deals
played (``--width-deals`` per pairing), seeds 1 … ``--seeds``; the mean width of the 95 %
intervals of the level difference per deal and of the win rate, and their ratio. A ratio
r means the plain format needs about 1/r² times as many deals for the same width. The
widths themselves are noisy (they hinge on rare upsets when one agent is much stronger), so
the within-pair correlation ρ of the duplicate deals, pooled over the seeds, is given with
its 95 % interval: the expected width ratio is √(1+ρ). The same
for heuristic vs ``mixed``, a closer opponent defined here for the benchmark only (each
decision heuristic with probability ½, else uniformly random).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import numpy as np

from paiju.sim.backends import InProcess
from paiju.sim.batch import Batch, adapter
from paiju.games import adapter_for
from paiju.sim.command import run_batch
from paiju.tournament.plan import Entrant, TournamentPlan, parse_entrants
from paiju.tournament.run import pair_scores, play_tournament


class Mixed:
    """Heuristic with probability ½ per decision, else uniformly random."""

    def __init__(self, heuristic, rng) -> None:
        self.heuristic = heuristic
        self.rng = rng

    def act(self, observation, legal_actions):
        if self.rng.random() < 0.5:
            return legal_actions[int(self.rng.integers(len(legal_actions)))]
        return self.heuristic.act(observation, legal_actions)


def register_mixed(game: str) -> None:
    """Into this process's cached adapter, which the in-process backend plays with."""
    factories = adapter(game).agent_factories
    heuristic = factories["heuristic"]
    factories.setdefault("mixed", lambda rng: Mixed(heuristic(rng), rng))


def plan_for(game: str, deals: int, seed: int, duplicate: bool, opponent: str = "random") -> TournamentPlan:
    game_adapter = adapter_for(game)
    entrants = parse_entrants("heuristic,random", game_adapter)
    if opponent != "random":
        register_mixed(game)
        entrants = (entrants[0], Entrant(opponent, opponent))
    return TournamentPlan(game=game, unit="deals", count=deals, seed=seed,
                          rules=game_adapter.rules_from_dict({}).to_dict(), entrants=entrants, duplicate=duplicate)


def cpu(action) -> float:
    start = time.process_time()
    action()
    return time.process_time() - start


def overhead(game: str, deals: int, repeats: int) -> dict[str, float]:
    adapter = adapter_for(game)
    plan = plan_for(game, deals, 1, True)

    def simulate() -> None:
        for agents in (("heuristic", "random") * 2, ("random", "heuristic") * 2):
            batch = Batch(game=game, unit="deals", count=deals // 2, seed=1, rules=plan.rules, agents=agents)
            run = run_batch(batch, InProcess())
            adapter.summarize("deals", run.results, agents)

    def tournament() -> None:
        play_tournament(plan, InProcess())

    simulate()  # warm up both (imports, caches)
    tournament()
    times: dict[str, list[float]] = {"simulate": [], "tournament": []}
    for _ in range(repeats):
        times["simulate"].append(cpu(simulate))
        times["tournament"].append(cpu(tournament))
    medians = {k: statistics.median(v) for k, v in times.items()}
    return {"simulate_deals_per_s": deals / medians["simulate"], "tournament_deals_per_s": deals / medians["tournament"],
            "overhead": medians["tournament"] / medians["simulate"] - 1,
            "simulate_spread": (deals / max(times["simulate"]), deals / min(times["simulate"])),
            "tournament_spread": (deals / max(times["tournament"]), deals / min(times["tournament"]))}


def widths(game: str, deals: int, seeds: int, opponent: str) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for duplicate in (False, True):
        level, win, sd_pair, estimates = [], [], [], []
        pooled_first: list[float] = []
        pooled_second: list[float] = []
        for seed in range(1, seeds + 1):
            plan = plan_for(game, deals, seed, duplicate, opponent)
            run = play_tournament(plan, InProcess())
            outcome = run.outcomes[0]
            level.append(outcome.level_diff.width)
            estimates.append(outcome.level_diff.estimate)
            win.append(outcome.win_rate.width)
            diffs, _ = pair_scores(plan, run.units, plan.pairings[0])
            sd_pair.append(float(np.std(diffs, ddof=1)))
            firsts = [run.units[(0, 0, p)].level_diff(0) for p in range(plan.pairs)]
            seconds = [run.units[(0, 1, p)].level_diff(1) for p in range(plan.pairs)]
            pooled_first.extend(firsts)
            pooled_second.extend(seconds)
        out["duplicate" if duplicate else "plain"] = {
            "level_width": statistics.fmean(level), "win_width": statistics.fmean(win),
            "pair_sd": statistics.fmean(sd_pair),
            "estimate": statistics.fmean(o for o in estimates),
            "width_range": (min(level), max(level)),
            "pooled_correlation": correlation_interval(pooled_first, pooled_second)}
    return out


def correlation_interval(x: list[float], y: list[float]) -> tuple[float, float, float]:
    """Pearson's r with a 95 % interval (Fisher's z)."""
    r = float(np.corrcoef(x, y)[0, 1])
    half = 1.959964 / math.sqrt(len(x) - 3)
    return r, math.tanh(math.atanh(r) - half), math.tanh(math.atanh(r) + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--width-deals", type=int, default=400)
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--games", default="guandan,shengji")
    parser.add_argument("--opponents", default="random,mixed", help="the heuristic's opponents (random, mixed)")
    args = parser.parse_args()
    games = args.games.split(",")
    print(f"## Overhead: {args.deals} deals, heuristic vs random, median of {args.repeats} (CPU s of this process)\n")
    print("| game | simulate deals/s | tournament deals/s | tournament bookkeeping |")
    print("|---|---|---|---|")
    for game in games:
        o = overhead(game, args.deals, args.repeats)
        print(f"| {game} | {o['simulate_deals_per_s']:.1f} ({o['simulate_spread'][0]:.1f}–{o['simulate_spread'][1]:.1f}) "
              f"| {o['tournament_deals_per_s']:.1f} ({o['tournament_spread'][0]:.1f}–{o['tournament_spread'][1]:.1f}) "
              f"| {100 * o['overhead']:+.1f} % |", flush=True)
    print(f"\n## Interval widths: {args.width_deals} deals per pairing and run, seeds 1–{args.seeds}, mean over seeds\n")
    print("| game | pairing | format | mean level diff | level diff 95% width (seeds' range) | win rate 95% width "
          "| sd of pair means | within-pair correlation ρ, pooled (95%) |")
    print("|---|---|---|---|---|---|---|---|")
    for opponent in args.opponents.split(","):
        for game in games:
            w = widths(game, args.width_deals, args.seeds, opponent)
            for name in ("plain", "duplicate"):
                row = w[name]
                r, r_low, r_high = row["pooled_correlation"]
                print(f"| {game} | heuristic vs {opponent} | {name} | {row['estimate']:+.3f} | {row['level_width']:.3f} "
                      f"({row['width_range'][0]:.3f}–{row['width_range'][1]:.3f}) | {100 * row['win_width']:.1f} pts "
                      f"| {row['pair_sd']:.3f} | {r:+.3f} ({r_low:+.3f}, {r_high:+.3f}) |")
            ratio_level = w["duplicate"]["level_width"] / w["plain"]["level_width"]
            ratio_win = w["duplicate"]["win_width"] / w["plain"]["win_width"]
            r, r_low, r_high = w["duplicate"]["pooled_correlation"]
            print(f"| {game} | heuristic vs {opponent} | **duplicate / plain** | | **{ratio_level:.2f}** "
                  f"(plain needs ×{1 / ratio_level ** 2:.2f} deals) | **{ratio_win:.2f}** (×{1 / ratio_win ** 2:.2f}) | "
                  f"| expected √(1+ρ) = {math.sqrt(1 + r):.2f} ({math.sqrt(1 + r_low):.2f}–{math.sqrt(1 + r_high):.2f}) |",
                  flush=True)


if __name__ == "__main__":
    main()
