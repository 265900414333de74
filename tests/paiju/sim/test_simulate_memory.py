"""`paiju simulate --deals N` plans its units lazily (issue 29, item 4): the real command in a
subprocess with a huge N plays its first deal as soon as with a small one, its memory then
no more than the small run's, merged log or one file per worker. Each run is watched and
killed should its memory run away (before the fix: 886 MB for 10⁸ deals, MemoryError for 10⁹)."""

from __future__ import annotations

import re
import time

import pytest

from tests.paiju.interrupt import Running

HUGE = 1_000_000_000
RUNAWAY_MB = 300.0
"""Above this the run is planning in proportion to N: kill it rather than fill the machine."""


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def first_deal(deals: int, extra: list[str]) -> tuple[float, float]:
    """Seconds from the start to the first progress line with a deal played, and the main
    process's resident memory (MB) then; the run is stopped with Ctrl-C afterwards."""
    run = Running(["simulate", "guandan", "--deals", str(deals), "--seed", "5", *extra])
    begun = time.monotonic()
    played = re.compile(r"simulate: [1-9]\d*/")
    peak = 0.0
    try:
        while not played.search(run.stderr):
            assert run.proc.poll() is None, f"paiju ended early: {run.stderr[-500:]}"
            peak = max(peak, rss_mb(run.proc.pid))
            assert peak < RUNAWAY_MB, f"{peak:.0f} MB before the first deal of {deals}"
            assert time.monotonic() - begun < 60, f"no deal after 60 s: {run.stderr[-500:]}"
            time.sleep(0.02)
        seconds = time.monotonic() - begun
        memory = max(peak, rss_mb(run.proc.pid))
    finally:
        if run.proc.poll() is None:
            run.interrupt()
        else:
            run.finish()
    return seconds, memory


@pytest.mark.parametrize("extra", [[], ["--jobs", "2", "--log-layout", "workers", "--log", "{tmp}/w.jsonl"],
                                   ["--cluster", "local", "--jobs", "1"]],
                         ids=["in-process", "per-worker-logs", "dask"])
def test_a_huge_deal_count_costs_no_memory_or_time_before_the_first_deal(tmp_path, monkeypatch, extra):
    if "--cluster" in extra:
        pytest.importorskip("distributed")
    monkeypatch.setenv("PAIJU_PROGRESS_SECONDS", "0.1")
    small_args = [a.replace("{tmp}", str(tmp_path / "small")) for a in extra]
    huge_args = [a.replace("{tmp}", str(tmp_path / "huge")) for a in extra]
    (tmp_path / "small").mkdir()
    (tmp_path / "huge").mkdir()
    small_seconds, small_mb = first_deal(10_000, small_args)
    huge_seconds, huge_mb = first_deal(HUGE, huge_args)
    assert huge_mb < small_mb + 20, (small_mb, huge_mb)
    # planning in proportion to N would take minutes for 10^9; twice the small run's time
    # leaves room for a loaded machine's noise (Dask's start-up varies by seconds)
    assert huge_seconds < 2 * small_seconds + 1.0, (small_seconds, huge_seconds)
