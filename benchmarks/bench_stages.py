"""Where a strict deal's time goes, by stage, in whichever build runs it: drawing the deal,
the legal actions, the agents' choice, applying the action (the engine's step and its events).

    python benchmarks/bench_stages.py [--game guandan|shengji] [--deals N] [--repeats N]

cProfile cannot see inside compiled (mypyc) modules, so this times the stages of the strict
loop (``tabletop.runner.run`` written out, random agents) with the wall clock around each call,
in one process; run it once with the pure tree and once with the compiled one first on
``PYTHONPATH`` to compare the builds stage by stage. Printed: seconds per stage (median of the
repeats), its share, and µs per decision.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any


def _deals(game: str) -> tuple[Any, Any]:
    from tabletop import rng as streams

    if game == "guandan":
        from guandan.agents import RandomAgent as GuandanRandom
        from guandan.deal import Deal as GuandanDeal
        from guandan.movegen import clear_cache

        def make(seed: int) -> tuple[Any, list[Any]]:
            clear_cache()
            return GuandanDeal.drawn(seed), [GuandanRandom(streams.generator(seed, 0, streams.AGENT + s)) for s in range(4)]
        return make, None
    from shengji.agents import RandomAgent as ShengjiRandom
    from shengji.deal import Deal as ShengjiDeal

    def make_shengji(seed: int) -> tuple[Any, list[Any]]:
        return ShengjiDeal(seed, banker=seed % 4), [ShengjiRandom(streams.generator(seed, streams.AGENT + s)) for s in range(4)]
    return make_shengji, None


def play(make: Any, seeds: range) -> dict[str, float]:
    clock = time.perf_counter
    spent = {"draw": 0.0, "legal actions": 0.0, "agent": 0.0, "apply + events": 0.0, "decisions": 0.0}
    for seed in seeds:
        t0 = clock()
        engine, agents = make(seed)
        engine.take_events()
        t1 = clock()
        spent["draw"] += t1 - t0
        observing = [getattr(agent, "observes", True) is not False for agent in agents]
        while True:
            seat = engine.to_act
            if seat is None:
                break
            t0 = clock()
            legal = engine.legal_actions()
            t1 = clock()
            action = agents[seat].act(engine.observe(seat) if observing[seat] else None, legal)
            t2 = clock()
            events = engine.apply(action)
            events.extend(engine.take_events())
            t3 = clock()
            spent["legal actions"] += t1 - t0
            spent["agent"] += t2 - t1
            spent["apply + events"] += t3 - t2
            spent["decisions"] += 1
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("guandan", "shengji"), default="guandan")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    from paiju.build import description

    make, _ = _deals(args.game)
    play(make, range(10_000, 10_020))  # warm imports and caches
    runs = [play(make, range(args.deals)) for _ in range(args.repeats)]
    stages = [name for name in runs[0] if name != "decisions"]
    medians = {name: statistics.median(run[name] for run in runs) for name in stages}
    total = sum(medians.values())
    decisions = runs[0]["decisions"]
    print(f"{args.game}, {description()}: {args.deals} strict deals, {decisions:.0f} decisions, "
          f"median of {args.repeats} repeats: {args.deals / total:.1f} deals/s (stages only)")
    for name in stages:
        print(f"  {name:15s} {medians[name]:7.3f} s  {100 * medians[name] / total:5.1f} %  "
              f"{1e6 * medians[name] / decisions:6.2f} µs a decision")


if __name__ == "__main__":
    main()
