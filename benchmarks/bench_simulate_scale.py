"""`paiju simulate` at scale: throughput with --jobs 1 and --jobs 2, the overhead of a Dask
LocalCluster against --jobs 2, and memory per worker (peak RSS) on a long run.

    python benchmarks/bench_simulate_scale.py [--deals 2000] [--repeats 3] [--memory-deals 10000] [--wait-quiet 120]
                                              [--write bench_scale.md]

Each run is the real command line (`paiju simulate guandan --quiet --summary FILE`) in a
fresh process, random agents, seeds 1, 2, 3 … per repeat; the figures come from the
summary's ``timing`` section:
- *run s*: from the first chunk submitted to the last result in (``timing.seconds``);
- *total s*: run s plus starting the workers (``timing.startup_seconds``; for Dask the
  LocalCluster start-up and connection);
- *wall s*: the whole command, Python start-up and summary included.
Speed-up = median total s of --jobs 1 / median total s of --jobs 2 (runs interleaved, so
that other load on the machine falls on both alike). *Two independent runs*: two separate
--jobs 1 processes of half the deals each at once, no coordination at all: what this
machine's two cores give, the ceiling for --jobs 2. *others*: CPU that other processes
used during the run, in cores (from /proc/stat less this run's own CPU): with 2 cores,
anything well above 0 means the run did not have the machine to itself. Peak RSS per
worker comes from each worker (``getrusage``) on a --jobs 2 run writing a merged gzip log.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from paiju.files import write_whole


def busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy (all cores)."""
    with open("/proc/stat", encoding="utf-8") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def own_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


QUIET_CORES = 0.15
TRIES = 3
"""A run during which other processes used more than QUIET_CORES is tried again (up to
TRIES times in all); the least disturbed try counts."""


def wait_for_quiet(limit: float) -> None:
    """Wait (at most ``limit`` s) until the machine has been idle for 3 s: other people's
    test runs on a shared 2-core machine would otherwise decide the speed-up."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        busy = busy_seconds()
        time.sleep(3.0)
        if (busy_seconds() - busy) / 3.0 < QUIET_CORES:
            return


def paiju(*args: str, workdir: str, quiet_wait: float = 0.0, pair: bool = False) -> dict:
    tries = [measure(*args, workdir=workdir, quiet_wait=quiet_wait, pair=pair)]
    while tries[-1]["others"] > QUIET_CORES and len(tries) < TRIES:
        tries.append(measure(*args, workdir=workdir, quiet_wait=quiet_wait, pair=pair))
    return min(tries, key=lambda t: t["others"])


def measure(*args: str, workdir: str, quiet_wait: float, pair: bool) -> dict:
    """One run of the command; with ``pair``, two independent runs at once, each given
    ``args`` (what two cores give with no coordination at all: the hardware's ceiling)."""
    wait_for_quiet(quiet_wait)
    summaries = [os.path.join(workdir, f"summary{n}.json") for n in range(2 if pair else 1)]
    busy, own = busy_seconds(), own_seconds()
    start = time.perf_counter()
    running = [subprocess.Popen([sys.executable, "-m", "paiju.cli", "simulate", "guandan", "--quiet",
                                 "--summary", summary, *args], stdout=subprocess.DEVNULL, cwd=workdir)
               for summary in summaries]
    if any(process.wait() != 0 for process in running):
        raise SystemExit(f"paiju simulate {' '.join(args)} failed")
    wall = time.perf_counter() - start
    others = (busy_seconds() - busy) - (own_seconds() - own)
    timings = []
    for summary in summaries:
        with open(summary, encoding="utf-8") as f:
            timings.append(json.load(f)["timing"])
    timing = max(timings, key=lambda t: t["seconds"] + t["startup_seconds"])
    timing["wall"] = wall
    timing["total"] = timing["seconds"] + timing["startup_seconds"]
    timing["others"] = max(0.0, others / wall)
    return timing


def machine() -> str:
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    return f"nproc {os.cpu_count()}, {cpu}, Python {platform.python_version()}"


def load() -> str:
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "?"


def row(label: str, runs: list[dict], deals: int) -> str:
    total = statistics.median(r["total"] for r in runs)
    each = ", ".join(f"{r['total']:.2f}" for r in runs)
    return (f"| {label} | {deals / total:.1f} | {total:.2f} | {statistics.median(r['seconds'] for r in runs):.2f} | "
            f"{statistics.median(r['startup_seconds'] for r in runs):.2f} | {statistics.median(r['wall'] for r in runs):.2f} | "
            f"{each} | {max(r['others'] for r in runs):.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--memory-deals", type=int, default=10_000)
    parser.add_argument("--wait-quiet", type=float, default=120.0, metavar="SECONDS",
                        help="before each run, wait up to this long for the machine to be idle (default 120)")
    parser.add_argument("--write", help="also write the report (markdown) to this file")
    args = parser.parse_args()

    runs: dict[str, list[dict]] = {"jobs1": [], "jobs2": [], "local": [], "pair": []}
    loads = [load()]
    with tempfile.TemporaryDirectory() as workdir:
        for r in range(args.repeats):
            common = ["--deals", str(args.deals), "--seed", str(r + 1)]
            wait = {"workdir": workdir, "quiet_wait": args.wait_quiet}
            runs["jobs1"].append(paiju(*common, "--jobs", "1", **wait))
            runs["jobs2"].append(paiju(*common, "--jobs", "2", **wait))
            runs["local"].append(paiju(*common, "--cluster", "local", "--jobs", "2", **wait))
            half = ["--deals", str(args.deals // 2), "--seed", str(r + 1)]
            runs["pair"].append(paiju(*half, "--jobs", "1", pair=True, **wait))
            loads.append(load())
        memory = paiju("--deals", str(args.memory_deals), "--seed", "1", "--jobs", "2",
                       "--log", os.path.join(workdir, "run.jsonl.gz"), workdir=workdir, quiet_wait=args.wait_quiet)
        log_mb = os.path.getsize(os.path.join(workdir, "run.jsonl.gz")) / 2**20
        loads.append(load())

    total = {k: statistics.median(r["total"] for r in v) for k, v in runs.items()}
    lines = [
        "# `paiju simulate` at scale (掼蛋 deals, random agents)", "",
        f"Machine: {machine()}; load average (1 min) at start and after each round: {', '.join(loads)}.", "",
        f"## Throughput: {args.deals} deals, median of {args.repeats} interleaved runs", "",
        "| backend | deals/s | total s | run s | start-up s | wall s | total s of each run | others (max) |",
        "|---|---|---|---|---|---|---|---|",
        row("--jobs 1", runs["jobs1"], args.deals),
        row("--jobs 2", runs["jobs2"], args.deals),
        row("--cluster local --jobs 2", runs["local"], args.deals),
        row("two independent --jobs 1 runs of half the deals", runs["pair"], args.deals), "",
        f"- speed-up --jobs 2 over --jobs 1: **{total['jobs1'] / total['jobs2']:.2f}×** (target ≥ 1.8×); "
        f"two independent processes reach {total['jobs1'] / total['pair']:.2f}× on this machine",
        f"- LocalCluster against --jobs 2: **{total['local'] - total['jobs2']:+.2f} s** per run "
        f"({100 * (total['local'] / total['jobs2'] - 1):+.0f} %), of which start-up "
        f"{statistics.median(r['startup_seconds'] for r in runs['local']):.2f} s; run time alone "
        f"{statistics.median(r['seconds'] for r in runs['local']):.2f} s against "
        f"{statistics.median(r['seconds'] for r in runs['jobs2']):.2f} s", "",
        f"## Memory: {args.memory_deals} deals, --jobs 2, merged gzip log", "",
        f"- peak RSS per worker: **{', '.join(f'{mb:.1f}' for mb in memory['peak_rss_mb']['per_worker'])} MiB**; "
        f"main process (ordered log writer): {memory['peak_rss_mb']['main']:.1f} MiB",
        f"- {args.memory_deals / memory['total']:.1f} deals/s with the log (others {memory['others']:.2f} cores); log {log_mb:.1f} MiB gzip "
        f"({memory['chunks']} chunks of {memory['chunk_size']})",
    ]
    report = "\n".join(lines) + "\n"
    print(report)
    if args.write:
        write_whole(args.write, report)


if __name__ == "__main__":
    main()
