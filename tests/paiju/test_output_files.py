"""Every file paiju writes is whole (issue 14, item 3): a run that fails or is interrupted
leaves the file as it was, or a valid prefix of whole units — never a half-written line,
summary, page or report. Output files are written beside their name and renamed into place
when the run ends (tabletop.files), so an existing file is replaced only then."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.paiju.interrupt import PAIJU, Running

OLD = "an earlier file that must not be half-overwritten\n"


def _temporaries(directory: Path) -> list[str]:
    return sorted(name for name in os.listdir(directory) if name.endswith(".tmp"))


def _check(log: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*PAIJU, "replay", str(log), "--check"], capture_output=True, text=True)


def _children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as f:
        return [int(p) for p in f.read().split()]


def test_sigint_leaves_the_existing_log_until_the_run_ends_then_whole_units(tmp_path):
    log, summary = tmp_path / "run.jsonl", tmp_path / "run.json"
    log.write_text(OLD)
    summary.write_text(OLD)
    run = Running(["simulate", "guandan", "--deals", "5000", "--seed", "2", "--log", str(log), "--summary",
                   str(summary), "--quiet"])
    run.wait_for(lambda: sum(p.stat().st_size for p in tmp_path.glob(".run.jsonl.*.tmp")) > 100_000)
    assert log.read_text() == OLD   # while the run goes on, the old log is untouched
    assert run.interrupt() == 130
    # the log and the summary are replaced together: both of the whole deals played (issue 29, item 12)
    played = json.loads(summary.read_text())["count"]
    assert _temporaries(tmp_path) == []
    done = _check(log)
    assert done.returncode == 3 and f"in {played} whole deals reproduced exactly" in done.stdout, done.stdout + done.stderr


def test_a_worker_that_dies_mid_run_leaves_a_log_of_whole_units_and_no_summary(tmp_path):
    """A real crash: one of the --jobs worker processes is killed; paiju fails with an internal
    error, the log holds the whole units put in order before it, the summary is not written."""
    log, summary = tmp_path / "crash.jsonl.gz", tmp_path / "crash.json"
    summary.write_text(OLD)   # of an earlier log: it goes when the new log replaces that one
    run = Running(["simulate", "shengji", "--deals", "3000", "--seed", "5", "--jobs", "2", "--log", str(log),
                   "--summary", str(summary), "--quiet"])
    run.wait_for(lambda: sum(p.stat().st_size for p in tmp_path.glob(".crash.jsonl.gz.*.tmp")) > 20_000)
    os.kill(_children(run.proc.pid)[-1], 9)
    code = run.finish()
    assert code == 70 and "internal error" in run.stderr and run.stderr.count("\n") == 1, run.stderr
    assert not summary.exists() and _temporaries(tmp_path) == []
    done = _check(log)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "reproduced exactly" in done.stdout and "the log ends after" in done.stdout
    assert "cut off" not in done.stdout   # whole lines: gzip members of whole units


def test_a_run_stopped_before_its_first_unit_leaves_the_old_log(tmp_path):
    log, summary = tmp_path / "slow.jsonl", tmp_path / "slow.json"
    log.write_text(OLD)
    summary.write_text(OLD)
    # heuristic agents: a whole match takes a second or more, so the run is stopped before one is done
    run = Running(["simulate", "guandan", "--matches", "50", "--seed", "1", "--agents", "heuristic", "--log", str(log),
                   "--summary", str(summary)])
    run.wait_for(lambda: any(tmp_path.glob(".slow.jsonl.*.tmp")))   # the run has started: its header is written
    run.wait_for(lambda: "0/50 matches" in run.stderr)              # and is playing its first match
    assert run.interrupt() == 130, run.stdout + run.stderr
    assert "no match finished" in run.stderr
    # the log and the summary stay together: neither is replaced
    assert log.read_text() == OLD and summary.read_text() == OLD and _temporaries(tmp_path) == []


def test_a_failed_replay_html_leaves_the_old_page_whole(tmp_path):
    """A real failure: the log has a bad line in the middle (a one-line error, exit 2)."""
    good = tmp_path / "good.jsonl"
    subprocess.run([*PAIJU, "simulate", "guandan", "--deals", "1", "--seed", "1", "--log", str(good), "--quiet"],
                   check=True, capture_output=True)
    lines = good.read_text().splitlines()
    lines[len(lines) // 2] = "{not json"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    page = tmp_path / "page.html"
    page.write_text(OLD)
    done = subprocess.run([*PAIJU, "replay", str(bad), "--html", str(page)], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert page.read_text() == OLD and _temporaries(tmp_path) == []
    done = subprocess.run([*PAIJU, "replay", str(good), "--html", str(page)], capture_output=True, text=True)
    assert done.returncode == 0 and page.read_text().rstrip().endswith("</html>")
    assert oct(page.stat().st_mode & 0o777) == "0o644"


def test_a_simulate_that_ends_replaces_log_and_summary_whole(tmp_path):
    log, summary = tmp_path / "ok.jsonl", tmp_path / "ok.json"
    log.write_text(OLD)
    summary.write_text(OLD)
    subprocess.run([*PAIJU, "simulate", "shengji", "--deals", "2", "--seed", "1", "--log", str(log), "--summary",
                    str(summary), "--quiet"], check=True, capture_output=True)
    assert json.loads(summary.read_text())["count"] == 2
    assert _check(log).returncode == 0 and _temporaries(tmp_path) == []


def test_a_training_pack_appears_whole_in_an_empty_directory_and_leaves_nothing_beside(tmp_path):
    from paiju.cli import main
    from paiju.train.scenarios import KEY_FILE, read_pack

    target = tmp_path / "class"
    target.mkdir()
    assert main(["train", "export", "--seed", "4", "--count", "2", "--clauses", "GD-2.3.1", str(target)]) == 0
    assert KEY_FILE in os.listdir(target) and oct(target.stat().st_mode & 0o777) == "0o755"
    assert sorted(os.listdir(tmp_path)) == ["class"]   # no temporary directory left beside it
    game, scenarios = read_pack(str(target))
    assert game == "guandan" and len(scenarios) == 2
