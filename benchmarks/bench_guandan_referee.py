"""What refereeing costs: 掼蛋 deals strict vs refereed, and refereed with infractions.

    python benchmarks/bench_guandan_referee.py [--deals 200] [--repeats 5]
                                               [--write bench_gd_referee.md]

All deals are drawn first deals played to the end by four RandomAgents through
``tabletop.runner.run`` (CPU time of this process, the variants interleaved deal by deal so
that a change in machine load hits every variant alike; median of the repeats):
- strict: ``Deal.drawn(seed)``, no observer;
- refereed, clean, as a clean run is configured (``enforcement.setup.engine_options`` of a
  header without infractions: the engine reports 报牌 itself) with a referee observing;
  target: at most 15 % slower than strict;
- refereed, clean, 报牌 as decisions (``report_step=True``, as with infractions: about 30
  more decisions per deal), referee observing;
- refereed, 5 % infractions: the agents wrapped by ``enforcement.setup.inject(rate=0.05)``
  (one infraction per 20 decisions in turn, out-of-turn chances alike), with the rulings
  and irregularities counted.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections import Counter

from enforcement.setup import engine_options, inject, make_guandan_referee
from guandan.agents import RandomAgent
from guandan.deal import Deal
from guandan.movegen import clear_cache
from tabletop import rng as streams
from tabletop.runner import run
from paiju.files import write_whole


def agents(seed: int) -> list[RandomAgent]:
    return [RandomAgent(streams.generator(seed, 0, streams.AGENT + s)) for s in range(4)]


class _Count:
    def __init__(self) -> None:
        self.kinds: Counter[str] = Counter()

    def on_events(self, engine, events) -> None:
        for e in events:
            if e.KIND in ("gd.irregular", "ref.ruling", "ref.unresolved", "gd.played", "gd.passed"):
                self.kinds[e.KIND] += 1


def play_strict(seed: int) -> None:
    run(Deal.drawn(seed), agents(seed))


def play_refereed(seed: int, rate: float = 0.0, report_step: bool | None = None,
                  count: _Count | None = None) -> None:
    options = {"referee": True, "infractions": rate}
    if report_step is not None:
        options["report_step"] = report_step
    players = inject(agents(seed), rate, seed, 0) if rate else agents(seed)
    observers = [count] if count is not None else []
    run(Deal.drawn(seed, **engine_options(options)), players, observers, referee=make_guandan_referee())


def one_run(seeds: range, count: _Count | None) -> dict[str, float]:
    """CPU seconds per variant over ``seeds``, interleaved deal by deal (so that a change in
    the machine's load hits every variant alike); each variant plays the same deals, so the
    move-generation cache is cleared before each (none profits from another's work)."""
    variants = {
        "strict": play_strict,
        "clean": play_refereed,
        "clean_steps": lambda seed: play_refereed(seed, report_step=True),
        "infractions": lambda seed: play_refereed(seed, 0.05, count=count),
    }
    spent = dict.fromkeys(variants, 0.0)
    clock = time.process_time
    for seed in seeds:
        for name, play in variants.items():
            clear_cache()  # every variant plays the deal with a cold move-generation cache
            start = clock()
            play(seed)
            spent[name] += clock() - start
    return spent


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
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--write", help="also write the report (markdown) to this file")
    args = parser.parse_args()

    seeds = range(args.deals)
    clear_cache()
    one_run(range(10), None)  # warm the move-generation cache and the imports for every variant
    times: dict[str, list[float]] = {"strict": [], "clean": [], "clean_steps": [], "infractions": []}
    count = _Count()
    for r in range(args.repeats):
        for name, seconds in one_run(seeds, count if r == 0 else None).items():
            times[name].append(seconds)
    med = {k: statistics.median(v) for k, v in times.items()}
    overhead = 100.0 * (med["clean"] / med["strict"] - 1.0)
    overhead_steps = 100.0 * (med["clean_steps"] / med["strict"] - 1.0)
    k = count.kinds
    lines = [
        "# 掼蛋 referee: cost of refereed mode (random agents, one core)", "",
        f"Machine: {machine()}", "",
        f"{args.deals} drawn first deals per run (variants interleaved deal by deal), "
        f"median CPU time of {args.repeats} runs.", "",
        "| variant | deals/s | runs (s) |", "|---|---|---|",
    ]
    names = {"strict": "strict (no referee)", "clean": "refereed, clean (referee observing)",
             "clean_steps": "refereed, clean, 报牌 as decisions", "infractions": "refereed, 5 % infractions"}
    for key in ("strict", "clean", "clean_steps", "infractions"):
        lines.append(f"| {names[key]} | **{args.deals / med[key]:.0f}** | "
                     f"{', '.join(f'{x:.2f}' for x in times[key])} |")
    lines += [
        "",
        f"- referee overhead on clean deals: **{overhead:+.1f} %** (target: at most +15 %); "
        f"with 报牌 as decisions: {overhead_steps:+.1f} %",
        f"- with 5 % infractions ({args.deals} deals): {k['gd.irregular']} irregular attempts "
        f"({k['gd.irregular'] / args.deals:.1f} per deal), {k['ref.ruling']} rulings, "
        f"{k['ref.unresolved']} unresolved; {k['gd.played'] + k['gd.passed']} plays and passes",
    ]
    report = "\n".join(lines) + "\n"
    print(report)
    if args.write:
        notes = ""
        if os.path.exists(args.write):
            with open(args.write, encoding="utf-8") as f:
                old = f.read()
            if "## Reading the figures" in old:
                notes = "\n" + old[old.index("## Reading the figures"):]
        write_whole(args.write, report + notes)


if __name__ == "__main__":
    main()
