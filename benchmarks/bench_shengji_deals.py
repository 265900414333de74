"""Throughput of whole 双升 deals and matches with random agents, on one core.

    python benchmarks/bench_shengji_deals.py [--deals 200] [--matches 5] [--repeats 5]
                                             [--write bench_sj_deals.md]

Reports (CPU time of this process, median and best of the repeats; CPU time is disturbed
less than wall time by other load, but not immune to it on a machine whose cores are shared,
so the load average before and after is printed too):
- deals/s: deals of a match (banker known) played to the end by four RandomAgents through
  ``tabletop.runner.run``: shuffle, cut, the card-by-card draw with declarations, the kitty,
  25 tricks with throws, scoring;
- matches/s: whole matches (until a team holds at A) by four RandomAgents;
- where a deal's time goes: set-up and draw, declaration decisions, kitty, leads, follows,
  split into observe / legal_actions / agent / apply.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections import defaultdict

from shengji.agents import RandomAgent
from shengji.deal import Deal, Phase
from shengji.match import Match
from tabletop import rng as streams
from tabletop.runner import run
from paiju.files import write_whole


def agents(seed: int) -> list[RandomAgent]:
    return [RandomAgent(streams.generator(seed, streams.AGENT + s)) for s in range(4)]


def bench_deals(n: int, first_seed: int) -> float:
    start = time.process_time()
    for seed in range(first_seed, first_seed + n):
        run(Deal(seed, banker=seed % 4), agents(seed))
    return time.process_time() - start


def bench_matches(n: int, first_seed: int) -> tuple[float, int]:
    deals = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + n):
        match = Match(seed)
        run(match, agents(seed))
        deals += match.result.deals
    return time.process_time() - start, deals


def breakdown(n: int, first_seed: int) -> dict[str, float]:
    """Seconds per deal by step kind (the timer calls add a little)."""
    clock = time.process_time
    spent: dict[str, float] = defaultdict(float)
    for seed in range(first_seed, first_seed + n):
        t0 = clock()
        deal = Deal(seed, banker=seed % 4)
        deal.take_events()
        spent["set-up and draw to the first decision"] += clock() - t0
        players = agents(seed)
        while deal.to_act is not None:
            seat = deal.to_act
            kind = deal.phase.value
            if deal.phase is Phase.PLAY:
                kind = "follow" if deal.trick else "lead"
            elif deal.phase is Phase.DRAW:
                kind = "declaration decision (draw resumes in apply)"
            t0 = clock()
            obs = deal.observe(seat)
            t1 = clock()
            legal = deal.legal_actions()
            t2 = clock()
            action = players[seat].act(obs, legal)
            t3 = clock()
            deal.apply(action)
            deal.take_events()
            t4 = clock()
            spent["observe"] += t1 - t0
            spent[f"{kind}: legal_actions"] += t2 - t1
            spent[f"{kind}: agent"] += t3 - t2
            spent[f"{kind}: apply"] += t4 - t3
    return {k: v / n for k, v in spent.items()}


def machine() -> str:
    cpu = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}; {os.cpu_count()} CPUs; Python {platform.python_version()} ({platform.python_implementation()}); {platform.system()} {platform.release()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--write", default=None, help="also write the figures to this markdown file")
    args = parser.parse_args()

    load_before = os.getloadavg()[0]
    bench_deals(20, 10_000)                                     # warm-up (imports, context cache)
    deal_rates = [args.deals / bench_deals(args.deals, 1000 * r) for r in range(args.repeats)]
    match_runs = [bench_matches(args.matches, 500 + 100 * r) for r in range(args.repeats)]
    match_rates = [args.matches / t for t, _ in match_runs]
    deals_per_match = statistics.mean(d for _, d in match_runs) / args.matches
    parts = breakdown(args.deals, 77_000)
    total = sum(parts.values())
    load_after = os.getloadavg()[0]

    lines = [
        "# 双升 deal throughput (benchmarks/bench_shengji_deals.py)",
        "",
        f"Machine: {machine()}; load average {load_before:.2f} before, {load_after:.2f} after.",
        "",
        f"- deals/s (RandomAgent ×4, one core, CPU time, {args.repeats} × {args.deals} deals): "
        f"median **{statistics.median(deal_rates):.0f}**, best {max(deal_rates):.0f} "
        f"(runs: {', '.join(f'{r:.0f}' for r in deal_rates)})",
        f"- matches/s ({args.repeats} × {args.matches} matches): median **{statistics.median(match_rates):.2f}**, "
        f"best {max(match_rates):.2f} ({deals_per_match:.1f} deals per match on average)",
        "",
        f"Where a deal's time goes ({total * 1000:.2f} ms per deal with the timers):",
        "",
        "| step | ms/deal | share |",
        "|---|---:|---:|",
    ]
    for name, seconds in sorted(parts.items(), key=lambda kv: -kv[1]):
        lines.append(f"| {name} | {seconds * 1000:.3f} | {100 * seconds / total:.0f}% |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.write:
        write_whole(args.write, text)


if __name__ == "__main__":
    main()
