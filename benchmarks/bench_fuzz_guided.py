"""Guided versus unguided `paiju fuzz` at the same budget and seed: interaction pairs
covered after each generation, the deals each mode needs to reach 95 % and 100 % of what it
ends with, and the cost per case (CPU time of this process: the runs are played here, one
after the other).

    python benchmarks/bench_fuzz_guided.py --game shengji --cases 2000 --seed 0
    python benchmarks/bench_fuzz_guided.py --game shengji --cases 300 --modes guided --batch 10 --aim 0
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from paiju.fuzz import guided as guided_search
from paiju.fuzz.campaign import Pool, Search, run_search
from paiju.fuzz.command import Coverage


def one(game: str, cases: int, seed: int, guided: bool, batch: int) -> dict[str, Any]:
    search = Search(game, "deals", seed, cases, guided, Coverage)
    search.batch = batch
    pool = Pool(game, 1, None)
    curve: list[tuple[int, int, int]] = []
    name = "guided" if guided else "unguided"

    def after(s: Search) -> None:
        curve.append((s.cases, s.deals, s.matrix.covered))
        print(f"  {name} {s.cases} cases, {s.deals} deals: {s.matrix.covered} pairs", file=sys.stderr, flush=True)

    cpu = time.process_time()
    run_search(search, pool, replay_rate=0.0, deadline=None, on_finding=lambda r: {"signature": r.finding.signature,
               "message": r.finding.message}, keep_going=True, after_generation=after)
    cpu = time.process_time() - cpu
    return {"guided": guided, "cases": search.cases, "deals": search.deals, "covered": search.matrix.covered,
            "possible": search.matrix.possible, "clauses": len(search.clauses.rows()) - len(search.clauses.never()),
            "holes": len(search.holes.clusters), "corpus": len(search.corpus), "cpu_s": round(cpu, 1),
            "deals_per_cpu_s": round(search.deals / cpu, 2), "decisions": search.decisions, "curve": curve}


def reaching(curve: list[tuple[int, int, int]], pairs: float) -> tuple[int, int] | None:
    """(cases, deals) after which the run first covered ``pairs``, or None."""
    return next(((c, d) for c, d, p in curve if p >= pairs), None)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="shengji")
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--modes", default="unguided,guided", help="comma-separated: unguided, guided")
    parser.add_argument("--batch", type=int, default=guided_search.BATCH, help="cases per generation")
    parser.add_argument("--aim", type=float, default=guided_search.AIM, help="share of mutants aimed at a missing pair")
    args = parser.parse_args()
    guided_search.AIM = args.aim
    rows = {mode: one(args.game, args.cases, args.seed, mode == "guided", args.batch) for mode in args.modes.split(",")}
    for row in rows.values():
        print(json.dumps(row))
    for mode, row in rows.items():
        final = row["covered"]
        at95, at100 = reaching(row["curve"], 0.95 * final), reaching(row["curve"], final)
        print(f"{args.game}, seed {args.seed}, batch {args.batch}, aim {args.aim}: {mode} {final} of {row['possible']} "
              f"pairs after {row['cases']} cases ({row['deals']} deals, {row['cpu_s']} CPU-s); 95 % of them after "
              f"{at95[0]} cases ({at95[1]} deals), all after {at100[0]} cases ({at100[1]} deals)")
    if len(rows) == 2:
        plain, guided = rows["unguided"], rows["guided"]
        print(f"  guided / unguided: x{guided['covered'] / max(1, plain['covered']):.2f}")
        for mark in (100, 250, 500, 1000, 1500, 2000, 4000):
            if mark <= args.cases:
                a = next(p for n, _, p in plain["curve"] if n >= mark)
                b = next(p for n, _, p in guided["curve"] if n >= mark)
                print(f"  after {mark} cases: unguided {a}, guided {b} (x{b / max(1, a):.2f})")
        for share in (0.95, 1.0):
            target = share * plain["covered"]
            got = reaching(guided["curve"], target)
            print(f"  guided reaches {share:.0%} of unguided's final {plain['covered']} pairs after "
                  + (f"{got[0]} cases ({got[1]} deals)" if got else "never"))


if __name__ == "__main__":
    main()
