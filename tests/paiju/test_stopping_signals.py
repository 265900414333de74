"""SIGTERM and SIGHUP stop a run as Ctrl-C does (issue 29, item 2): the whole units played
are kept, the log and the summary are put in place together, the summary of what was played
is printed, the exit status is 128 + the signal; no temporary file is left. Workers of
``--jobs N`` end with their parent, however it ends (item 11)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from tests.paiju.interrupt import PAIJU, Running

STOPPING = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]


def _temporaries(directory: Path) -> list[str]:
    return sorted(name for name in os.listdir(directory) if name.endswith(".tmp"))


def _played(run: Running) -> bool:
    """The progress display counts two units finished (so the summary says "deals")."""
    return re.search(r": (?:[2-9]|[1-9][\d,]+)/[\d,]+ ", run.stderr) is not None


@pytest.fixture
def prompt_progress(monkeypatch):
    """The progress line every 0.2 s instead of 5 s: the run is stopped as soon as it says a
    few units are finished, not after 5 s of play that the check must then replay."""
    monkeypatch.setenv("PAIJU_PROGRESS_SECONDS", "0.2")


@pytest.mark.parametrize("signum", STOPPING, ids=lambda s: signal.Signals(s).name)
def test_a_stopped_simulate_keeps_whole_units_prints_and_writes_their_summary(tmp_path, signum, prompt_progress):
    log, summary = tmp_path / "run.jsonl", tmp_path / "run.json"
    summary.write_text("an earlier summary, of an earlier log\n")
    run = Running(["simulate", "guandan", "--deals", "5000", "--seed", "3", "--log", str(log), "--summary",
                   str(summary)])
    run.wait_for(lambda: _played(run))
    code = run.stop(signum)
    assert code == 128 + signum, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    played = int(re.search(r"^(\d+) deals of 5000, interrupted in ", run.stdout, re.M).group(1))
    assert 0 < played < 5000
    document = json.loads(summary.read_text())   # the summary and the log are of the same deals
    assert document["count"] == document["results"]["deals"] == played
    assert document["interrupted"] is True and document["planned"] == 5000
    assert _temporaries(tmp_path) == []
    done = subprocess.run([*PAIJU, "replay", str(log), "--check", "--quiet"], capture_output=True, text=True)
    assert done.returncode == 3 and f"in {played} whole deals reproduced exactly" in done.stdout, done.stdout


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=lambda s: signal.Signals(s).name)
def test_a_stopped_tournament_writes_the_boards_played_as_a_partial_table(tmp_path, signum, prompt_progress):
    out = tmp_path / "run"
    run = Running(["tournament", "guandan", "--agents", "random,heuristic", "--deals", "2000", "--out", str(out)])
    run.wait_for(lambda: _played(run))
    assert run.stop(signum) == 128 + signum, run.stdout + run.stderr
    assert "partial: interrupted" in run.stdout and "Traceback" not in run.stderr
    document = json.loads((out / "summary.json").read_text())
    assert document["partial"] is True and document["interrupted_by"] == signal.Signals(signum).name
    rows = (out / "deals.csv").read_text().splitlines()[1:]
    assert 0 < len(rows) < 4000 and document["timing"]["deals_played"] == len(rows)
    assert all(row.endswith(",false") for row in rows)   # the table says it is partial: column complete
    if (out / "report.html").exists():
        assert "Partial: the tournament was interrupted" in (out / "report.html").read_text()
    assert _temporaries(out) == []


WITH_WORKERS = {
    "simulate": ["simulate", "guandan", "--deals", "100000", "--jobs", "2"],
    "tournament": ["tournament", "guandan", "--agents", "random,heuristic", "--deals", "4000", "--jobs", "2"],
    "fuzz": ["fuzz", "--game", "guandan", "--deals", "20000", "--jobs", "2"],
}


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=lambda s: signal.Signals(s).name)
@pytest.mark.parametrize("command", sorted(WITH_WORKERS))
def test_jobs_workers_end_with_their_parent(tmp_path, command, signum):
    run = Running([*WITH_WORKERS[command], "--out" if command == "fuzz" else "--quiet",
                   *([str(tmp_path / "failures")] if command == "fuzz" else [])])
    parent = psutil.Process(run.proc.pid)
    run.wait_for(lambda: len(parent.children(recursive=True)) >= 2)
    time.sleep(1.0)   # the workers are playing
    workers = [p.pid for p in parent.children(recursive=True)]
    run.proc.send_signal(signum)
    # SIGKILL: nothing runs in the parent, the workers must see it go; SIGTERM: the parent stops
    # the run as Ctrl-C does, letting each worker finish its chunk
    deadline = time.monotonic() + (5 if signum == signal.SIGKILL else 30)
    while time.monotonic() < deadline and not all(_gone(pid) for pid in workers):
        time.sleep(0.1)
    alive = [pid for pid in workers if not _gone(pid)]
    for pid in alive:   # do not leave them to the next test
        os.kill(pid, signal.SIGKILL)
    run.finish()
    assert alive == [], f"{command}: workers {alive} outlived their parent"


def test_under_nohup_a_hang_up_is_still_ignored(tmp_path):
    """A process started ignoring SIGHUP (``nohup``) keeps ignoring it, its workers too."""
    proc = subprocess.Popen([*PAIJU, "simulate", "guandan", "--deals", "400", "--jobs", "2", "--log",
                             str(tmp_path / "n.jsonl")], text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    parent = psutil.Process(proc.pid)
    deadline = time.monotonic() + 60
    while len(parent.children()) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGHUP)
    for worker in parent.children():   # as a hang-up to their group would
        os.kill(worker.pid, signal.SIGHUP)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, out + err
    assert "400 deals in " in out
