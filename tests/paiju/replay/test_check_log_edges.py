"""`replay --check` of a log with text after its last unit, or a header whose seed is not a
seed (issue 29, item 12): a one-line error and exit 2, never "ok" and never an internal error."""

from __future__ import annotations

import gzip
import json
import subprocess

import pytest

from tests.paiju.interrupt import PAIJU


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    path = tmp_path_factory.mktemp("edges") / "gd.jsonl"
    subprocess.run([*PAIJU, "simulate", "guandan", "--deals", "2", "--log", str(path), "--quiet"],
                   check=True, capture_output=True)
    return path


def _check(path) -> subprocess.CompletedProcess:
    return subprocess.run([*PAIJU, "replay", str(path), "--check", "--quiet"], capture_output=True, text=True)


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "gzip"])
def test_text_after_the_last_unit_without_a_newline_fails_the_check(log, tmp_path, compressed):
    events = len(log.read_text().splitlines())
    data = log.read_bytes() + b"garbage"
    bad = tmp_path / ("bad.jsonl.gz" if compressed else "bad.jsonl")
    bad.write_bytes(gzip.compress(data) if compressed else data)
    done = _check(bad)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == "" and done.stderr == (
        f"paiju: error: {bad}: line {events + 1}: text after the log's last unit, without a newline: not an event\n")


def test_a_cut_off_last_line_of_an_interrupted_run_is_still_its_prefix(log, tmp_path):
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(log.read_bytes()[:-40])
    done = _check(cut)
    assert done.returncode == 3 and "its last line is cut off" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize("seed", [3.0, "3", -1, True, None])
def test_a_header_seed_that_is_not_a_whole_number_from_0_is_one_line(log, tmp_path, seed):
    header, *events = log.read_text().splitlines()
    document = json.loads(header)
    document["seed"] = seed
    bad = tmp_path / "seed.jsonl"
    bad.write_text("\n".join([json.dumps(document), *events]) + "\n")
    for argv in (["--check"], ["--at", "0:3"], ["--html", str(tmp_path / "seed.html")]):
        done = subprocess.run([*PAIJU, "replay", str(bad), *argv], capture_output=True, text=True)
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr == (f"paiju: error: {bad}: line 1: the header's seed must be a whole number, "
                               f"0 or more; got {json.dumps(seed)}\n")
