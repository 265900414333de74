"""`paiju replay --check` of an interrupted run's log (issue 14, item 2): every whole unit is
verified, and the log being a prefix is a warning with exit status 3, never a mismatch."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

PAIJU = [sys.executable, "-m", "paiju.cli"]


def _check(path) -> subprocess.CompletedProcess:
    return subprocess.run([*PAIJU, "replay", str(path), "--check"], capture_output=True, text=True)


@pytest.fixture(scope="module")
def full_log(tmp_path_factory):
    path = tmp_path_factory.mktemp("logs") / "full.jsonl"
    subprocess.run([*PAIJU, "simulate", "guandan", "--deals", "4", "--seed", "3", "--referee", "--log", str(path),
                    "--quiet"], check=True, capture_output=True)
    return path


def _units(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if '"kind":"unit"' in line]


def test_a_log_cut_after_whole_units_checks_and_says_how_many(full_log, tmp_path):
    lines = full_log.read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:_units(lines)[2]]) + "\n", encoding="utf-8")
    done = _check(cut)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "reproduced exactly" in done.stdout and "the log ends after 2 of 4 deals" in done.stdout
    assert "differs" not in done.stdout and "interrupted run" in done.stderr


@pytest.mark.parametrize("half_line", [False, True])
def test_a_last_unit_cut_short_is_reported_as_such(full_log, tmp_path, half_line):
    lines = full_log.read_text(encoding="utf-8").splitlines()
    end = _units(lines)[3] + 40
    text = "\n".join(lines[:end]) + "\n" + (lines[end][:15] if half_line else "")
    cut = tmp_path / "cut.jsonl"
    cut.write_text(text, encoding="utf-8")
    done = _check(cut)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "3 whole deals reproduced exactly" in done.stdout and "inside a unit" in done.stdout
    assert ("last line is cut off" in done.stdout) == half_line


def test_a_complete_log_still_exits_0_and_a_changed_line_is_still_a_mismatch(full_log, tmp_path):
    assert _check(full_log).returncode == 0
    lines = full_log.read_text(encoding="utf-8").splitlines()
    changed = next(i for i, line in enumerate(lines) if '"kind":"gd.played"' in line)
    lines[changed] = lines[changed].replace('"seat":', '"seat": ', 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert _check(bad).returncode == 1


def test_a_run_stopped_by_sigint_leaves_a_log_that_checks(tmp_path):
    log = tmp_path / "run.jsonl"
    proc = subprocess.Popen([*PAIJU, "simulate", "guandan", "--deals", "5000", "--seed", "1", "--log", str(log),
                             "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60   # the log grows under a temporary name beside it (tabletop.files)
    while time.monotonic() < deadline and sum(p.stat().st_size for p in tmp_path.glob(".run.jsonl.*.tmp")) < 200_000:
        time.sleep(0.1)
    assert not log.exists()
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)
    done = _check(log)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "reproduced exactly" in done.stdout and "of 5000 deals" in done.stdout
