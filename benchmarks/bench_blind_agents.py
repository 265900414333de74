"""What ``observes = False`` saves a random agent: strict deals played with the built-in
random agents with the class attribute taken away (every decision observed, as before it was
set) and with it set (the runner asks the engine for no observation), in alternating blocks
in one process.

    python benchmarks/bench_blind_agents.py [--game guandan|shengji] [--deals 100] [--runs 7]

Printed: per run the CPU time of each variant; then deals/s medians and spread and the
median of the per-run ratios. The picks, and so the deals, are the same either way (a random
agent never reads its observation): the script checks the results match.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tabletop import rng as streams
from tabletop.runner import run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("guandan", "shengji"), default="guandan")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    if args.game == "guandan":
        from guandan.agents import RandomAgent
        from guandan.deal import Deal

        def new_deal(seed: int) -> object:
            return Deal.drawn(seed)
    else:
        from shengji.agents import RandomAgent  # type: ignore[assignment]
        from shengji.deal import Deal  # type: ignore[assignment]

        def new_deal(seed: int) -> object:
            return Deal(seed, banker=seed % 4)  # type: ignore[call-arg]

    def play(first: int, blind: bool) -> tuple[float, list[object]]:
        if blind:
            RandomAgent.observes = False
        elif hasattr(RandomAgent, "observes"):
            del RandomAgent.observes
        results = []
        start = time.process_time()
        for seed in range(first, first + args.deals):
            agents = [RandomAgent(streams.generator(seed, 0, streams.AGENT + s)) for s in range(4)]
            results.append(run(new_deal(seed), agents))  # type: ignore[arg-type]
        return time.process_time() - start, results

    play(10_000, False)  # warm up
    rates: dict[str, list[float]] = {"observing": [], "blind": []}
    for number in range(args.runs):
        first = number * args.deals
        order = (False, True) if number % 2 == 0 else (True, False)
        seen = {}
        for blind in order:
            spent, results = play(first, blind)
            seen[blind] = results
            rates["blind" if blind else "observing"].append(args.deals / spent)
        assert repr(seen[True]) == repr(seen[False]), "a blind random agent played differently"
        print(f"run {number}: observing {rates['observing'][-1]:.1f} deals/s, blind {rates['blind'][-1]:.1f}")
    for name, values in rates.items():
        print(f"{name}: median {statistics.median(values):.1f} deals/s ({min(values):.1f}-{max(values):.1f})")
    ratios = sorted(b / o for b, o in zip(rates["blind"], rates["observing"]))
    print(f"blind/observing per run: x{statistics.median(ratios):.3f} (x{ratios[0]:.3f}-x{ratios[-1]:.3f})")


if __name__ == "__main__":
    main()
