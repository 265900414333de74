"""Cost of the 双升 rule functions on realistic positions.

Random deals (random level, trump or no-trump, seeded), 25-card hands; leads taken from the
leader's hand as a single, a pair, a tractor or a throw (2–3 units of one suit); followers
are the other three hands. Reports median and p95 in microseconds per call of
is_legal_follow (on a legal follow), why_illegal_follow (on an illegal one), legal_follows,
sample_follow and trick_winner (4 plays).

    /work/venv/bin/python benchmarks/bench_shengji_rules.py [--deals 400] [--out PATH]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections import defaultdict

import numpy as np

from tabletop.cards import full_deck
from shengji.context import Context
from shengji.follow import (
    count_legal_follows, is_legal_follow, legal_follows, sample_follow, why_illegal_follow,
)
from shengji.rules import ShengjiRules
from shengji.tricks import trick_winner
from shengji.units import decompose
from paiju.files import write_whole

ENUMERATION_CAP = 5000      # legal_follows is timed only where it lists at most this many


def make_positions(deals: int, seed: int):
    rng = np.random.default_rng(seed)
    deck = full_deck(2)
    positions = defaultdict(list)   # kind -> [(ctx, lead, hands)]
    for _ in range(deals):
        ctx = Context(int(rng.integers(13)), [None, "S", "H", "C", "D"][int(rng.integers(5))],
                      ShengjiRules(permanent_twos=bool(rng.integers(4) == 0)))
        order = rng.permutation(len(deck))
        hands = [[deck[i] for i in order[25 * s:25 * s + 25]] for s in range(4)]
        by_suit = defaultdict(list)
        for c in hands[0]:
            by_suit[ctx.suit_of[c]].append(c)
        units = [u for cards in by_suit.values() for u in decompose(cards, ctx)]
        singles = [u for u in units if u.length == 0]
        pairs = [u for u in units if u.length == 1]
        tractors = [u for u in units if u.length >= 2]
        for kind, pool in (("single", singles), ("pair", pairs), ("tractor", tractors)):
            if pool:
                u = pool[int(rng.integers(len(pool)))]
                positions[kind].append((ctx, list(u.cards), hands))
        suits = [cards for cards in by_suit.values() if len(decompose(cards, ctx)) >= 2]
        if suits:
            su = decompose(suits[int(rng.integers(len(suits)))], ctx)
            k = 2 + int(rng.integers(2))
            pick = sorted(rng.permutation(len(su))[:k])
            positions["throw"].append((ctx, [c for i in pick for c in su[i].cards], hands))
    return positions


def timed(fn, *args, number: int = 20, repeat: int = 3) -> float:
    """Microseconds per call: the best of ``repeat`` runs of ``number`` back-to-back calls."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        for _ in range(number):
            fn(*args)
        best = min(best, time.perf_counter_ns() - t0)
    return best / number / 1000.0


def summary(samples: list[float]) -> str:
    if not samples:
        return "n/a | n/a | 0"
    s = sorted(samples)
    p95 = s[min(len(s) - 1, int(0.95 * len(s)))]
    return f"{statistics.median(s):.1f} | {p95:.1f} | {len(s)}"


def run(deals: int, seed: int):
    positions = make_positions(deals, seed)
    rng = np.random.default_rng(seed + 1)
    rows = []
    skipped = defaultdict(int)
    for kind in ("single", "pair", "tractor", "throw"):
        stats = defaultdict(list)
        for ctx, lead, hands in positions[kind]:
            plays = [lead]
            for hand in hands[1:]:
                play = list(sample_follow(hand, lead, ctx, rng))
                plays.append(play)
                stats["sample_follow"].append(timed(sample_follow, hand, lead, ctx, rng))
                stats["is_legal_follow (legal)"].append(timed(is_legal_follow, hand, lead, play, ctx))
                bad = play[:-1] + [c for c in hand if c not in play][:1]
                if len(bad) == len(lead) and why_illegal_follow(hand, lead, bad, ctx):
                    stats["why_illegal_follow (illegal)"].append(
                        timed(why_illegal_follow, hand, lead, bad, ctx))
                if count_legal_follows(hand, lead, ctx) <= ENUMERATION_CAP:
                    stats["legal_follows"].append(timed(legal_follows, hand, lead, ctx, number=1))
                else:
                    skipped[kind] += 1
            stats["trick_winner (4 plays)"].append(timed(trick_winner, plays, ctx))
        for name, samples in stats.items():
            rows.append((kind, name, summary(samples)))
    return rows, skipped, {k: len(v) for k, v in positions.items()}


def machine() -> str:
    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"nproc {os.cpu_count()}, CPU {cpu}, Python {platform.python_version()}, numpy {np.__version__}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    rows, skipped, counts = run(args.deals, args.seed)
    lines = [
        "# 双升 rule functions: cost per call (benchmarks/bench_shengji_rules.py)",
        "",
        f"Machine: {machine()}.",
        f"{args.deals} random deals (seed {args.seed}), 25-card hands, each lead against the three "
        "other hands; per position the best of 3 runs of 20 calls (legal_follows: 3 runs of 1). "
        "Positions: "
        + ", ".join(f"{k} {v}" for k, v in counts.items()) + ".",
        f"legal_follows timed only where the list has ≤ {ENUMERATION_CAP} follows; skipped "
        "(follower void/short on a long lead): " + (", ".join(f"{k} {v}" for k, v in skipped.items()) or "none") + ".",
        "",
        "| lead | function | median µs | p95 µs | calls |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {kind} | {name} | {s} |" for kind, name, s in rows]
    median = {(kind, name): float(s.split(" | ")[0]) for kind, name, s in rows if s[0] != "n"}
    per_trick = {
        kind: 3 * (median[(kind, "sample_follow")] + median[(kind, "is_legal_follow (legal)")])
        + median[(kind, "trick_winner (4 plays)")]
        for kind in ("single", "pair", "tractor", "throw") if (kind, "sample_follow") in median}
    lines += [
        "",
        "Rules cost of one trick (3 × (sample_follow + is_legal_follow) + trick_winner, medians): "
        + ", ".join(f"{k} {v:.0f} µs" for k, v in per_trick.items())
        + f"; 25 tricks at the worst of these ≈ {25 * max(per_trick.values()) / 1000:.1f} ms per deal "
        "(the ≥ 250 deals/s target allows 4 ms per deal in all).",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        write_whole(args.out, text)


if __name__ == "__main__":
    main()
