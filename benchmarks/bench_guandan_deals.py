"""Throughput of whole 掼蛋 deals and matches with random agents, on one core.

    python benchmarks/bench_guandan_deals.py [--deals 200] [--matches 10] [--repeats 5]
                                             [--write bench_gd_deals.md]

Reports (CPU time of this process, median of the repeats, so other load on the machine
disturbs it less than wall time would):
- deals/s: drawn first deals played to the end by four RandomAgents (draw included);
- matches/s: whole matches (pass A) by four RandomAgents;
- where a match's time goes: the draw, the tribute/return decisions, the play, and within
  the play the share of move generation (``guandan.movegen.plays``, the lazy listing the
  deal asks for; the cards of the one move an agent picks are made later, in its act).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

from guandan import deal as deal_module
from guandan.agents import RandomAgent
from guandan.deal import Deal, Phase
from guandan.match import Match
from guandan.movegen import clear_cache
from tabletop import rng as streams
from paiju.files import write_whole


NOTES_HEADING = "## Reading the figures"


def agents(seed: int) -> list[RandomAgent]:
    return [RandomAgent(streams.generator(seed, 0, streams.AGENT + s)) for s in range(4)]


def play(engine, players) -> int:
    steps = 0
    engine.take_events()
    while True:
        seat = engine.to_act
        if seat is None:
            return steps
        engine.apply(players[seat].act(engine.observe(seat), engine.legal_actions()))
        engine.take_events()
        steps += 1


def bench_deals(n: int, first_seed: int) -> tuple[float, int]:
    clear_cache()
    steps = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + n):
        steps += play(Deal.drawn(seed), agents(seed))
    return time.process_time() - start, steps


def bench_matches(n: int, first_seed: int) -> tuple[float, int]:
    clear_cache()
    deals = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + n):
        match = Match(seed)
        play(match, agents(seed))
        deals += len(match.result.deals)
    return time.process_time() - start, deals


class _Timed:
    """Wraps movegen.plays to add up the time spent in move generation."""

    def __init__(self, fn) -> None:
        self.fn = fn
        self.total = 0.0

    def __call__(self, *args, **kwargs):
        start = time.process_time()
        try:
            return self.fn(*args, **kwargs)
        finally:
            self.total += time.process_time() - start


def time_shares(n: int, first_seed: int) -> dict[str, float]:
    """Seconds per part of whole matches: draw, tribute/return, play (and movegen)."""
    clear_cache()
    timed = _Timed(deal_module.plays)
    deal_module.plays = timed
    drawn = _Timed(Deal.drawn)      # the match draws the next deal inside the apply ending one
    real_drawn = Deal.__dict__["drawn"]
    Deal.drawn = drawn  # type: ignore[method-assign]
    parts = {"draw (set-up of a deal)": 0.0, "tribute + return": 0.0, "play": 0.0}
    try:
        for seed in range(first_seed, first_seed + n):
            match = Match(seed)
            players = agents(seed)
            while True:
                seat = match.to_act
                if seat is None:
                    break
                phase = match.current_deal.phase
                start, drawing = time.process_time(), drawn.total
                match.apply(players[seat].act(match.observe(seat), match.legal_actions()))
                match.take_events()
                spent = time.process_time() - start - (drawn.total - drawing)
                parts["play" if phase is Phase.PLAY else "tribute + return"] += spent
    finally:
        deal_module.plays = timed.fn
        Deal.drawn = real_drawn
    parts["draw (set-up of a deal)"] = drawn.total
    parts["  of which movegen.plays"] = timed.total
    return parts


def machine() -> str:
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"nproc {os.cpu_count()}, {cpu}, Python {platform.python_version()} "
            f"({platform.python_implementation()}), load average {load:.2f} at start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--write", help="also write the report (markdown) to this file")
    args = parser.parse_args()

    lines = ["# 掼蛋 deal and match throughput (random agents, one core)", "", f"Machine: {machine()}", ""]
    rates, step_rates = [], []
    for r in range(args.repeats):
        seconds, steps = bench_deals(args.deals, 1000 * r)
        rates.append(args.deals / seconds)
        step_rates.append(steps / seconds)
    lines.append(f"- deals/s: **{statistics.median(rates):.0f}** (median of {args.repeats} runs of "
                 f"{args.deals} drawn deals; runs: {', '.join(f'{x:.0f}' for x in rates)}); "
                 f"actions/s {statistics.median(step_rates):.0f}")
    match_rates, deal_rates = [], []
    for r in range(max(1, args.repeats // 2)):
        seconds, deals = bench_matches(args.matches, 1000 * r)
        match_rates.append(args.matches / seconds)
        deal_rates.append(deals / seconds)
    lines.append(f"- matches/s (pass A): **{statistics.median(match_rates):.2f}** "
                 f"(median of {len(match_rates)} runs of {args.matches} matches; "
                 f"{statistics.median(deal_rates):.0f} deals/s inside matches)")
    parts = time_shares(args.matches, 0)
    total = sum(v for k, v in parts.items() if not k.startswith(" "))
    lines += ["", f"Where the time of {args.matches} whole matches goes (CPU s, share):", ""]
    for name, seconds in parts.items():
        lines.append(f"- {name}: {seconds:.3f} s ({100 * seconds / total:.1f} %)")
    report = "\n".join(lines) + "\n"
    print(report)
    if args.write:
        notes = ""
        if os.path.exists(args.write):  # keep the hand-written notes below the figures
            with open(args.write, encoding="utf-8") as f:
                old = f.read()
            if NOTES_HEADING in old:
                notes = "\n" + old[old.index(NOTES_HEADING):]
        write_whole(args.write, report + notes)


if __name__ == "__main__":
    main()
