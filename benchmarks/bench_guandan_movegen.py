"""Cost of 掼蛋 move generation (guandan.movegen.legal_plays) on realistic hands.

    /work/venv/bin/python benchmarks/bench_guandan_movegen.py [--repeat 3000] [--seed 1]

Every sample is a fresh random 27-card hand from a shuffled two-deck pack at a random
level (seeded), so the hand cache never helps unless said so:
- lead:          legal_plays(hand, None, level)              (every play from the hand)
- follow:        legal_plays(hand, top, level), top = a random lead play of another
                 random hand (a realistic top: singles and pairs are common, bombs rare)
- follow, warm:  the same call again on the same hand (what a deal sees when one hand
                 answers several tops before its own hand changes)
- lead, expand:  legal_plays(..., expand_suits=True) on 13-card hands (not a hot path)
- lead / follow, engine listing: what a deal pays per decision of a random agent:
                 movegen.plays (the lazy listing: every move listed, no cards made) and
                 the cards of one move (the one picked)
- self-play:     whole deals played with legal_plays alone (random choice among the plays,
                 pass with probability 1/2 when following; no engine, no events): an upper
                 bound for deals/s from move generation.
Prints one JSON object per line: median and p95 in milliseconds, count, moves per call.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import time

from guandan.movegen import clear_cache, legal_plays, plays
from tabletop.cards import full_deck


def percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def report(name: str, samples_ns: list[int], moves: list[int]) -> dict:
    s = sorted(samples_ns)
    row = {"case": name, "median_ms": round(statistics.median(s) / 1e6, 4),
           "p95_ms": round(percentile(s, 0.95) / 1e6, 4), "n": len(s),
           "moves_per_call": round(statistics.mean(moves), 1) if moves else 0}
    print(json.dumps(row))
    return row


def random_hands(rng: random.Random, count: int, size: int = 27):
    deck = full_deck(2)
    return [(tuple(rng.sample(deck, size)), rng.randrange(13)) for _ in range(count)]


def timed(fn, *args, best_of: int, cold: bool) -> tuple[int, int]:
    """(nanoseconds, moves) of one call: the best of ``best_of`` runs, the hand cache
    cleared before each run when ``cold`` (the machine is shared: the minimum filters
    out preemption, which otherwise puts 4 ms time slices into the p95)."""
    best = None
    for _ in range(best_of):
        if cold:
            clear_cache()
        t0 = time.perf_counter_ns()
        moves = fn(*args)
        elapsed = time.perf_counter_ns() - t0
        best = elapsed if best is None else min(best, elapsed)
    return best, len(moves)


def engine_listing(hand, top, level):
    """movegen.plays as a deal calls it (a count list), then the cards of one move."""
    counts = [0] * 54
    for c in hand:
        counts[c] += 1
    listing = plays(counts, top, level)
    if len(listing):
        listing[len(listing) // 2]
    return listing


def bench_calls(repeat: int, seed: int, best_of: int) -> list[dict]:
    rng = random.Random(seed)
    hands = random_hands(rng, repeat)
    others = random_hands(rng, repeat)
    tops = [rng.choice(legal_plays(h, None, lvl)).reading for h, lvl in others]
    small = random_hands(rng, max(50, repeat // 10), size=13)
    cases = [
        ("lead", [(h, None, lvl) for h, lvl in hands], True, {}),
        ("follow", [(h, top, lvl) for (h, lvl), top in zip(hands, tops)], True, {}),
        ("follow, warm", [(h, top, lvl) for (h, lvl), top in zip(hands, tops)], False, {}),
        ("lead, expand_suits, 13 cards", [(h, None, lvl) for h, lvl in small], True,
         {"expand_suits": True}),
        ("lead, engine listing (plays + one move's cards)", [(h, None, lvl) for h, lvl in hands], True,
         {"engine": True}),
        ("follow, engine listing (plays + one move's cards)",
         [(h, top, lvl) for (h, lvl), top in zip(hands, tops)], True, {"engine": True}),
    ]
    rows = []
    for name, calls, cold, kwargs in cases:
        samples, moves = [], []
        fn = engine_listing if kwargs.pop("engine", False) else (lambda *a: legal_plays(*a, **kwargs))
        for args in calls:
            if not cold:
                fn(*args)  # warm the cache
            ns, n = timed(fn, *args, best_of=best_of, cold=cold)
            samples.append(ns)
            moves.append(n)
        rows.append(report(name, samples, moves))
    return rows


def self_play_deal(rng: random.Random) -> int:
    """One deal with random plays (§5 round rules, 接风 included); returns the number of
    legal_plays calls."""
    deck = full_deck(2)
    rng.shuffle(deck)
    level = rng.randrange(13)
    hands = [deck[27 * s:27 * s + 27] for s in range(4)]
    finished: list[int] = []
    seat, top, top_seat, passes, calls = 0, None, 0, 0, 0
    while True:
        moves = legal_plays(hands[seat], top, level)
        calls += 1
        if top is None or (moves and rng.random() < 0.5):
            move = rng.choice(moves)
            for c in move.cards:
                hands[seat].remove(c)
            top, top_seat, passes = move.reading, seat, 0
            if not hands[seat]:
                finished.append(seat)
                if len(finished) == 3 or (len(finished) == 2 and finished[0] % 2 == finished[1] % 2):
                    return calls
        else:
            passes += 1
        if passes >= sum(1 for s in range(4) if hands[s] and s != top_seat):
            top, passes = None, 0  # round over: the top player leads, or its partner (接风)
            seat = top_seat if hands[top_seat] else (top_seat + 2) % 4
            while not hands[seat]:
                seat = (seat + 1) % 4
            continue
        seat = (seat + 1) % 4
        while not hands[seat]:
            seat = (seat + 1) % 4


def bench_self_play(deals: int, seed: int) -> dict:
    rng = random.Random(seed)
    clear_cache()
    calls = 0
    t0 = time.process_time()
    for _ in range(deals):
        calls += self_play_deal(rng)
    elapsed = time.process_time() - t0
    row = {"case": "self-play deals (legal_plays only)", "deals_per_s": round(deals / elapsed, 1),
           "calls_per_deal": round(calls / deals, 1),
           "us_per_call": round(elapsed / calls * 1e6, 1)}
    print(json.dumps(row))
    return row


def machine() -> dict:
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"nproc": os.cpu_count(), "cpu": cpu,
            "python": f"{platform.python_implementation()} {platform.python_version()}",
            "load_average": round(os.getloadavg()[0], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3000, help="random hands per case")
    parser.add_argument("--deals", type=int, default=200, help="self-play deals")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--best-of", type=int, default=3,
                        help="runs per sample, the fastest kept (1: every run counts)")
    args = parser.parse_args()
    print(json.dumps(machine()))
    gc.collect()
    bench_calls(args.repeat, args.seed, args.best_of)
    bench_self_play(args.deals, args.seed)


if __name__ == "__main__":
    main()
