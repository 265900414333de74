"""What the 双升 referee costs, on one core.

    python benchmarks/bench_shengji_referee.py [--deals 200] [--repeats 7] [--rate 0.05]
                                               [--write bench_sj_referee.md]

Reports (CPU time of this process). The machine is shared, so strict and refereed play are
interleaved deal by deal (the same seed in both modes, in alternating order) and the overhead
is read from the CPU time summed per mode over each repeat; load from other processes then
hits both modes alike. The median of the repeats is reported, with every run.
- clean deals: the same deals (seeds, banker known, four RandomAgents) played in strict mode
  without a referee, and in refereed mode with the rulebook referee in its seat (no infraction: the
  draw steps, the refereed apply path, the richer observations, the referee reading every
  event). Target: overhead ≤ 15 %.
- deals/s at ``--rate`` infractions (``enforcement.shengji_infractions``: each decision has
  that chance of an infraction in turn, each other seat a third of it out of turn), with
  irregularities and rulings per deal.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections import Counter

from enforcement.shengji_infractions import inject_shengji
from enforcement.shengji_rulings import make_shengji_referee
from shengji.agents import RandomAgent
from shengji.deal import Deal
from tabletop import rng as streams
from tabletop.runner import run
from paiju.files import write_whole


def agents(seed: int) -> list[RandomAgent]:
    return [RandomAgent(streams.generator(seed, streams.AGENT + s)) for s in range(4)]


def strict_deal(seed: int) -> float:
    start = time.process_time()
    run(Deal(seed, banker=seed % 4), agents(seed))
    return time.process_time() - start


def refereed_deal(seed: int) -> float:
    start = time.process_time()
    run(Deal(seed, banker=seed % 4, mode="refereed"), agents(seed), referee=make_shengji_referee())
    return time.process_time() - start


def clean_pair(n: int, first: int) -> tuple[float, float]:
    """CPU seconds of ``n`` deals in strict mode and of the same deals refereed, interleaved
    deal by deal (ABBA order)."""
    strict = refereed = 0.0
    for seed in range(first, first + n):
        if seed % 2:
            strict += strict_deal(seed)
            refereed += refereed_deal(seed)
        else:
            refereed += refereed_deal(seed)
            strict += strict_deal(seed)
    return strict, refereed


def infraction_deals(n: int, first: int, rate: float, tally: Counter) -> float:
    start = time.process_time()
    for seed in range(first, first + n):
        referee = make_shengji_referee()
        deal = Deal(seed, banker=seed % 4, mode="refereed")
        run(deal, inject_shengji(agents(seed), rate, seed, 0), referee=referee)
        tally["deals"] += 1
        tally["rulings"] += len(referee.rulings_made)
        tally["unresolved"] += len(referee.unresolved)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--write", default=None, help="write the report (markdown) to this file")
    args = parser.parse_args()

    load_before = os.getloadavg()[0]
    clean_pair(20, args.seed)                           # warm the caches (contexts, follow analyses)
    strict, refereed, ratios, dirty = [], [], [], []
    tally: Counter = Counter()
    for r in range(args.repeats):
        first = args.seed + r * args.deals
        a, b = clean_pair(args.deals, first)
        strict.append(args.deals / a)
        refereed.append(args.deals / b)
        ratios.append(b / a - 1)
        dirty.append(args.deals / infraction_deals(args.deals, first, args.rate, tally))
    load_after = os.getloadavg()[0]

    def runs(values: list[float], fmt: str = "{:.0f}") -> str:
        return ", ".join(fmt.format(v) for v in values)

    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.processor()) if os.path.exists("/proc/cpuinfo") else platform.processor()
    overhead = statistics.median(ratios)
    lines = [
        "# 双升 referee overhead (benchmarks/bench_shengji_referee.py)",
        "",
        f"Machine: {cpu}; {os.cpu_count()} CPUs; Python {platform.python_version()} "
        f"({platform.python_implementation()}); load average {load_before:.2f} before, {load_after:.2f} after.",
        "",
        f"- clean deals, strict, no observer ({args.repeats} × {args.deals} deals, RandomAgent ×4): "
        f"median **{statistics.median(strict):.0f} deals/s** (runs: {runs(strict)})",
        f"- clean deals, refereed mode + referee observing: median **{statistics.median(refereed):.0f} deals/s** "
        f"(runs: {runs(refereed)})",
        f"- referee overhead on clean deals (median over the repeats): **{100 * overhead:.1f} %** "
        f"(runs: {runs([100 * x for x in ratios], '{:.1f}')} %; target ≤ 15 %)",
        f"- at {100 * args.rate:.0f} % infractions (injector on all four seats): median "
        f"**{statistics.median(dirty):.0f} deals/s** (runs: {runs(dirty)}); "
        f"{tally['rulings'] / tally['deals']:.1f} rulings and {tally['unresolved'] / tally['deals']:.2f} "
        f"unresolved per deal",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.write:
        write_whole(args.write, text)


if __name__ == "__main__":
    main()
