"""`paiju replay` of a long log, old tree against new: CPU seconds and peak RSS of the listing
(to /dev/null), of ``--at`` and of ``--html``, and of ``--check --logged-rulings``.

    python benchmarks/bench_replay.py OLD NEW LOG --at UNIT:SEQ [LOG --at UNIT:SEQ …] [--runs 5]

OLD and NEW are source trees (``git archive <commit> | tar -x -C /tmp/old``). Each run is the
real command line in a fresh process (``--quiet``), old and new alternating in rotated order
so that other load on the machine falls on both alike; CPU time and peak RSS come from the
process itself (``os.wait4``). The outputs of the two trees are compared byte for byte (the
listing, the table, the page, stdout and stderr): a difference is reported, not timed over.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

MODES = {"listing": [], "at": ["--at", "{at}"], "html": ["--html", "{page}"], "check": ["--check", "--logged-rulings"]}


def run(tree: str, log: str, mode: str, at: str, out_dir: Path, tag: str) -> tuple[float, float]:
    """One replay in a fresh process: (CPU seconds, peak RSS in MB); its outputs kept under ``tag``."""
    page = out_dir / f"{tag}.html"
    args = [a.format(at=at, page=page) for a in MODES[mode]]
    env = {**os.environ, "PYTHONPATH": os.path.abspath(tree)}   # the child runs in out_dir
    with open(out_dir / f"{tag}.out", "wb") as out, open(out_dir / f"{tag}.err", "wb") as err:
        child = subprocess.Popen([sys.executable, "-m", "paiju", "replay", os.path.abspath(log), *args, "--quiet"],
                                 stdout=out, stderr=err, env=env, cwd=out_dir)
        _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{tree}: replay {log} {' '.join(args)} failed (see {out_dir / (tag + '.err')})")
    if page.exists():   # the page names itself in stdout: compare the rest
        text = (out_dir / f"{tag}.out").read_text().replace(str(page), "PAGE")
        (out_dir / f"{tag}.out").write_text(text)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def same_outputs(out_dir: Path, old: str, new: str) -> bool:
    names = [n for n in (".out", ".err", ".html") if (out_dir / f"{old}{n}").exists()]
    return all(filecmp.cmp(out_dir / f"{old}{n}", out_dir / f"{new}{n}", shallow=False) for n in names)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("logs", nargs="+", help="LOG, each followed by --at UNIT:SEQ")
    parser.add_argument("--at", action="append", required=True, help="the --at step of each log, in order")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--modes", default=",".join(MODES))
    args = parser.parse_intermixed_args()
    if len(args.at) != len(args.logs):
        parser.error("give one --at per log")
    modes = args.modes.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = Path(tmp)
        for log, at in zip(args.logs, args.at):
            for mode in modes:
                cpu: dict[str, list[float]] = {"old": [], "new": []}
                rss: dict[str, list[float]] = {"old": [], "new": []}
                ratios = []
                for k in range(args.runs):
                    order = ("old", "new") if k % 2 == 0 else ("new", "old")
                    for which in order:
                        seconds, megabytes = run(getattr(args, which), log, mode, at, out_dir, which)
                        cpu[which].append(seconds)
                        rss[which].append(megabytes)
                    if not same_outputs(out_dir, "old", "new"):
                        print(f"{Path(log).name} {mode}: OUTPUTS DIFFER (run {k + 1})")
                    ratios.append(cpu["new"][-1] / cpu["old"][-1])
                print(f"{Path(log).name:24} {mode:8} cpu old {statistics.median(cpu['old']):6.2f} s "
                      f"new {statistics.median(cpu['new']):6.2f} s  new/old {statistics.median(ratios):.3f} "
                      f"({min(ratios):.3f}-{max(ratios):.3f})  peak RSS old {max(rss['old']):.0f} MB "
                      f"new {max(rss['new']):.0f} MB", flush=True)


if __name__ == "__main__":
    main()
