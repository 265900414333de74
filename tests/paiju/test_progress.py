"""Progress of the long commands (issue 14, item 9), through the real `paiju` in
subprocesses with progress on (stderr is a pipe: plain lines): `simulate`, `fuzz` and
`replay` of a long log show it in one look, from a line at the start, and — whatever the
10 % steps — at least every few seconds (``PAIJU_PROGRESS_SECONDS`` shortens the interval
here so that the test stays short; timings are checked loosely)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

from paiju.progress import INTERVAL_VARIABLE, LONG_LOG_BYTES

LINE = re.compile(r"^(?P<what>[a-z -]+(?: [a-z]+)*(?:: reading| --check: reading|: checking|: folding|: page)?): "
                  r"(?P<done>\d+)/(?P<total>\d+) (?P<unit>deals|matches|MB|events) \((?P<share>\d+)%\), "
                  r"(?:started|running for [\d:]+|[\d.]+ (?P=unit)/s, (?:ETA [\d:]+|ETA -|done in [\d:]+))(?:, .+)?$")
INTERVAL = 0.05


def timed_run(*args: str) -> tuple[int, list[tuple[float, str]], str, float]:
    """Run `paiju ARGS` with progress on; (exit status, (seconds since launch, line) for each
    stderr line as it came, stdout, seconds in all)."""
    env = dict(os.environ, **{INTERVAL_VARIABLE: str(INTERVAL)})
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "paiju.cli", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    lines: list[tuple[float, str]] = []

    def read_stderr() -> None:
        for line in process.stderr:
            lines.append((time.monotonic() - started, line.rstrip("\n")))

    reader = threading.Thread(target=read_stderr)
    reader.start()
    out = process.stdout.read()
    process.wait(timeout=600)
    reader.join()
    return process.returncode, lines, out, time.monotonic() - started


def progress_lines(lines: list[tuple[float, str]], what: str) -> list[tuple[float, re.Match]]:
    found = [(t, LINE.match(text)) for t, text in lines]
    assert all(m is not None for _, m in found), [text for _, text in lines]
    return [(t, m) for t, m in found if m["what"] == what]


def assert_one_run(shown: list[tuple[float, re.Match]], total: int, unit: str) -> None:
    """A start line first, counts that only grow, the last line done; gaps loosely within the interval."""
    assert shown, "no progress"
    assert shown[0][1].group(0).endswith("(0%), started")
    assert [int(m["total"]) for _, m in shown] == [total] * len(shown)
    assert all(m["unit"] == unit for _, m in shown)
    counts = [int(m["done"]) for _, m in shown]
    assert counts == sorted(counts) and counts[-1] == total
    assert "done in" in shown[-1][1].group(0)


def test_fuzz_shows_progress_from_the_start_and_every_interval_within_a_long_case(tmp_path):
    """One fuzzed match takes many intervals: heartbeat lines come while it runs."""
    code, lines, _, seconds = timed_run("fuzz", "--game", "guandan", "--matches", "1", "--seed", "3",
                                        "--out", str(tmp_path), "--replay-sample", "0")
    assert code == 0, lines
    shown = progress_lines(lines, "fuzz guandan")
    assert_one_run(shown, 1, "matches")
    assert shown[-1][1].group(0).endswith(", 0 violations")
    first = shown[0][0]
    assert first < 15.0                                   # loosely: at once, after the imports
    while_running = [t for t, m in shown if m["done"] == "0"]
    assert len(while_running) >= 2, lines                 # the start line, then heartbeats
    times = [t for t, _ in shown]
    assert max(b - a for a, b in zip(times, times[1:])) < INTERVAL + 5.0   # loosely: load may stretch it


def test_simulate_and_replay_of_a_long_log_show_progress_in_the_same_look(tmp_path):
    log = tmp_path / "long.jsonl"
    code, lines, _, _ = timed_run("simulate", "guandan", "--deals", "45", "--referee", "--infractions", "0.01",
                                  "--seed", "5", "--log", str(log))
    assert code == 0, lines
    assert_one_run(progress_lines(lines, "simulate"), 45, "deals")
    size = log.stat().st_size
    assert size >= LONG_LOG_BYTES, size                  # long enough for replay to show progress
    megabytes = -(-size // 1_000_000)

    code, lines, out, _ = timed_run("replay", str(log), "--check")
    assert code == 0 and out.startswith("ok: "), (out, lines)
    assert_one_run(progress_lines(lines, "replay --check: reading"), megabytes, "MB")
    assert_one_run(progress_lines(lines, "replay --check"), 45, "deals")
    assert lines[0][1].startswith("replay --check: reading: 0/")   # reading is shown first

    code, lines, out, _ = timed_run("replay", str(log), "--html", str(tmp_path / "long.html"))
    assert code == 0 and out.startswith("wrote "), lines
    assert_one_run(progress_lines(lines, "replay: reading"), megabytes, "MB")
    events = int(re.search(r"(\d+) events\)", out)[1])
    assert progress_lines(lines, "replay: checking") == []   # the page's own run checks the log (one run)
    assert_one_run(progress_lines(lines, "replay: folding"), events, "events")
    assert_one_run(progress_lines(lines, "replay: page"), events, "events")

    code, lines, out, _ = timed_run("replay", str(log), "--at", "30:5")
    assert code == 0 and "at seq 30:5" in out, lines
    assert_one_run(progress_lines(lines, "replay: checking"), 45, "deals")   # to the step, then the rest checked

    code, lines, out, _ = timed_run("replay", str(log), "--check", "--quiet")
    assert code == 0 and lines == [] and out.startswith("ok: ")


def test_a_short_replay_shows_no_progress(tmp_path):
    golden = Path(__file__).resolve().parents[1] / "golden" / "replay_guandan_deal_seed3.jsonl"
    code, lines, out, _ = timed_run("replay", str(golden), "--check")
    assert code == 0 and lines == [] and out.startswith("ok: ")
