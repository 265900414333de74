"""Guided versus unguided `paiju fuzz` at the same budget and seed: interaction pairs
covered after each generation, and the cost per case (CPU time of this process: both runs
are played here, one after the other).

    python benchmarks/bench_fuzz_guided.py --game shengji --cases 2000 --seed 0
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from paiju.fuzz.campaign import Pool, Search, run_search
from paiju.fuzz.command import Coverage


def one(game: str, cases: int, seed: int, guided: bool) -> dict:
    search = Search(game, "deals", seed, cases, guided, Coverage)
    pool = Pool(game, 1, None)
    cpu = time.process_time()
    run_search(search, pool, replay_rate=0.0, deadline=None, on_finding=lambda r: {"signature": r.finding.signature,
               "message": r.finding.message}, keep_going=True,
               after_generation=lambda s: print(f"  {'guided' if guided else 'unguided'} {s.cases} cases: "
                                                f"{s.matrix.covered} pairs", file=sys.stderr, flush=True))
    cpu = time.process_time() - cpu
    return {"guided": guided, "cases": search.cases, "deals": search.deals, "covered": search.matrix.covered,
            "possible": search.matrix.possible, "clauses": len(search.clauses.rows()) - len(search.clauses.never()),
            "holes": len(search.holes.clusters), "corpus": len(search.corpus), "cpu_s": round(cpu, 1),
            "deals_per_cpu_s": round(search.deals / cpu, 2), "curve": search.curve}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="shengji")
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rows = [one(args.game, args.cases, args.seed, guided) for guided in (False, True)]
    for row in rows:
        print(json.dumps(row))
    plain, guided = rows
    print(f"{args.game}, seed {args.seed}, {args.cases} cases: unguided {plain['covered']} pairs, guided "
          f"{guided['covered']} pairs (x{guided['covered'] / max(1, plain['covered']):.2f}) of {plain['possible']}")
    marks = [c for c in (100, 250, 500, 1000, 1500, 2000, 4000) if c <= args.cases]
    for mark in marks:
        a = next(p for n, p in plain["curve"] if n >= mark)
        b = next(p for n, p in guided["curve"] if n >= mark)
        print(f"  after {mark} cases: unguided {a}, guided {b} (x{b / max(1, a):.2f})")


if __name__ == "__main__":
    main()
