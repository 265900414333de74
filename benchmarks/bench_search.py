"""The search baseline's cost (``paiju.search``): milliseconds per searched decision (one
with at least two candidates; the rest are the heuristic's own, free), and how often the
search overrides the heuristic. The search holds seats 0 and 2, the heuristic 1 and 3, for
``--deals`` deals of each game (the same boards ``paiju tournament --seed S`` plays). Its
strength is measured by the tournament (benchmarks/README.md, "The search baseline").

    .venv/bin/python benchmarks/bench_search.py [--deals N] [--rollouts R] [--seed S] [--game G]"""

from __future__ import annotations

import argparse
import time

from paiju.agent_specs import make_agents
from tabletop.events import EventStream
from tabletop.games import game_spec
from tabletop.runner import run


def measure(game: str, deals: int, rollouts: int, seed: int) -> str:
    spec = game_spec(game)
    specs = [f"search:{rollouts}", "heuristic"] * 2
    searched = overrides = 0
    seconds = cpu = 0.0
    start = time.perf_counter()
    for index in range(deals):
        agents = make_agents(spec, specs, seed, index)
        run(spec.new_deal(seed, index, spec.rules_from_dict({}), EventStream()), agents)
        for agent in agents[0::2]:
            searched += agent.decisions
            seconds += agent.seconds
            cpu += agent.cpu_seconds
            overrides += agent.overrides
    wall = time.perf_counter() - start
    return (f"{game}: search:{rollouts}, {deals} deals, {searched} searched decisions, "
            f"{1000 * seconds / max(searched, 1):.0f} ms each (CPU {1000 * cpu / max(searched, 1):.0f} ms); the heuristic overridden in "
            f"{overrides} ({100 * overrides / max(searched, 1):.0f} %); {wall / deals:.1f} s a deal")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--rollouts", type=int, default=64, help="rollouts per decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=["guandan", "shengji"], action="append")
    args = parser.parse_args()
    for game in args.game or ["guandan", "shengji"]:
        print(measure(game, args.deals, args.rollouts, args.seed), flush=True)


if __name__ == "__main__":
    main()
