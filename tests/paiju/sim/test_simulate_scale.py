"""`paiju simulate` at scale: the results, the summary's results section and the merged log
do not depend on --jobs or on Dask; logs in every layout pass `replay --check`; errors
are one line. Runs are a handful of deals so that the file stays fast."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from paiju.cli import main
from paiju.replay.check import check_log, load_log
from tabletop.events import UnitStarted
from tabletop.log import read_log

DEALS = ["simulate", "guandan", "--deals", "7", "--seed", "11", "--quiet"]


def simulate(tmp_path, name, *extra, base=DEALS):
    """Run in this process; return the summary document (and leave the log, if any)."""
    summary = tmp_path / f"{name}.json"
    assert main([*base, "--summary", str(summary), *extra]) == 0
    return json.loads(summary.read_text(encoding="utf-8"))


# --- independence of N ------------------------------------------------------------------------

def test_jobs_1_and_2_give_the_same_results_and_the_same_log_bytes(tmp_path):
    one = simulate(tmp_path, "one", "--jobs", "1", "--log", str(tmp_path / "one.jsonl"))
    two = simulate(tmp_path, "two", "--jobs", "2", "--log", str(tmp_path / "two.jsonl"))
    assert one["results"] == two["results"]
    assert one["results"]["deals"] == 7
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
    assert (one["timing"]["backend"], two["timing"]["backend"]) == ("process", "processes")


def test_matches_do_not_depend_on_jobs(tmp_path):
    base = ["simulate", "guandan", "--matches", "2", "--seed", "5", "--quiet"]
    one = simulate(tmp_path, "one", "--log", str(tmp_path / "one.jsonl"), base=base)
    three = simulate(tmp_path, "three", "--jobs", "3", "--log", str(tmp_path / "three.jsonl"), base=base)
    assert one["results"] == three["results"] and one["results"]["matches"] == 2
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "three.jsonl").read_bytes()
    assert check_log(read_log(tmp_path / "three.jsonl")).ok


def test_command_line_run_with_jobs_2_writes_the_bytes_of_an_in_process_run(tmp_path):
    assert main([*DEALS, "--log", str(tmp_path / "here.jsonl")]) == 0
    done = subprocess.run(
        [sys.executable, "-m", "paiju.cli", *DEALS, "--jobs", "2", "--log", str(tmp_path / "there.jsonl")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "7 deals in" in done.stdout and done.stderr == ""
    assert (tmp_path / "here.jsonl").read_bytes() == (tmp_path / "there.jsonl").read_bytes()


def test_summary_file_holds_results_apart_from_timing(tmp_path):
    doc = simulate(tmp_path, "s", "--agents", "random,heuristic", "--rules", "a_failures_reset=none")
    assert list(doc) == ["game", "unit", "count", "seed", "agents", "rules", "results", "timing"]
    assert (doc["game"], doc["unit"], doc["count"], doc["seed"]) == ("guandan", "deals", 7, 11)
    assert doc["agents"] == ["random", "heuristic", "random", "heuristic"]
    assert doc["rules"]["a_failures_reset"] is None
    assert sum(doc["results"]["finishes"].values()) == 7
    assert "seconds" not in json.dumps(doc["results"])
    assert doc["timing"]["seconds"] > 0 and doc["timing"]["peak_rss_mb"]["max"] > 0


# --- Dask -------------------------------------------------------------------------------------

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler_address():
    """A small in-process LocalCluster (threads): quick to start, same code path as any
    scheduler address."""
    from paiju.sim.backends import NO_DASHBOARD

    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, **NO_DASHBOARD) as cluster:
        yield cluster.scheduler_address


def test_dask_scheduler_results_and_log_equal_jobs_1(tmp_path, scheduler_address):
    one = simulate(tmp_path, "one", "--log", str(tmp_path / "one.jsonl"))
    dask = simulate(tmp_path, "dask", "--cluster", scheduler_address, "--log", str(tmp_path / "dask.jsonl"))
    assert one["results"] == dask["results"]
    assert dask["timing"]["backend"] == "dask" and dask["timing"]["workers"] == 2
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "dask.jsonl").read_bytes()


def test_cluster_local_starts_a_local_cluster_with_the_same_results(tmp_path):
    one = simulate(tmp_path, "one")
    local = simulate(tmp_path, "local", "--cluster", "local", "--jobs", "2")
    assert one["results"] == local["results"]
    assert local["timing"]["workers"] == 2 and len(local["timing"]["peak_rss_mb"]["per_worker"]) <= 2


def test_cluster_without_dask_says_how_to_install_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    assert main([*DEALS, "--cluster", "local", "--log", str(tmp_path / "x.jsonl")]) == 2
    assert capsys.readouterr().err == "paiju: error: --cluster needs Dask: pip install 'paiju[cluster]'\n"
    assert not (tmp_path / "x.jsonl").exists()


# --- log layouts ------------------------------------------------------------------------------

def test_gzip_log_is_the_same_for_any_jobs_and_passes_replay_check(tmp_path, capsys):
    one, two = tmp_path / "one.jsonl.gz", tmp_path / "two.jsonl.gz"
    assert main([*DEALS, "--log", str(one)]) == 0
    assert main([*DEALS, "--jobs", "2", "--log", str(two)]) == 0
    assert one.read_bytes() == two.read_bytes() and one.read_bytes()[:2] == b"\x1f\x8b"
    log = read_log(two)
    assert [e.index for e in log.events if isinstance(e, UnitStarted)] == list(range(7))
    capsys.readouterr()
    assert main(["replay", str(two), "--check"]) == 0
    assert capsys.readouterr().out.startswith("ok: ")


def test_per_worker_logs_each_pass_replay_check_and_together_hold_every_unit_once(tmp_path):
    merged = tmp_path / "all.jsonl"
    assert main([*DEALS, "--log", str(merged)]) == 0
    assert main([*DEALS, "--jobs", "2", "--log", str(tmp_path / "run.jsonl.gz"), "--log-layout", "workers"]) == 0
    parts = sorted(p.name for p in tmp_path.glob("run-w*"))
    assert parts == ["run-w0.jsonl.gz", "run-w1.jsonl.gz"]
    units: dict[int, list[str]] = {}
    for name in parts:
        log, game = load_log(str(tmp_path / name))
        result = check_log(log, game)
        assert result.ok, result.message
        options = log.header["options"]
        assert options["parts"] == 2 and options["part"] == int(name[5])
        held = [i for start, stop in options["index_ranges"] for i in range(start, stop)]
        starts = [n for n, e in enumerate(log.events) if isinstance(e, UnitStarted)]
        assert [log.events[n].index for n in starts] == held == sorted(held)
        for n, stop in zip(starts, starts[1:] + [len(log.events)]):
            units[log.events[n].index] = list(log.lines[n:stop])
    assert sorted(units) == list(range(7))
    # each unit's lines are exactly its lines in the merged log
    assert [line for i in range(7) for line in units[i]] == list(read_log(merged).lines)


def test_per_worker_layout_needs_a_log_file(capsys):
    assert main([*DEALS, "--log-layout", "workers"]) == 2
    assert capsys.readouterr().err == "paiju: error: --log-layout workers needs --log FILE\n"


def test_a_failed_unit_is_named_and_the_log_keeps_the_units_before_it(tmp_path, monkeypatch, capsys):
    import paiju.sim.batch
    from tabletop.errors import IllegalAction

    class Broken:
        def act(self, observation, legal_actions):
            raise IllegalAction("no legal move chosen")

    real = paiju.sim.batch.make_agents
    monkeypatch.setattr(paiju.sim.batch, "make_agents",
                        lambda game, kinds, seed, index: [Broken()] * 4 if index == 4 else real(game, kinds, seed, index))
    log = tmp_path / "stopped.jsonl"
    assert main([*DEALS, "--log", str(log), "--summary", str(tmp_path / "s.json")]) == 2
    assert capsys.readouterr().err == "paiju: error: deal 4 of seed 11 failed: no legal move chosen\n"
    prefix = read_log(log)   # a valid prefix: whole units 0-3
    assert [e.index for e in prefix.events if isinstance(e, UnitStarted)] == [0, 1, 2, 3]
    result = check_log(prefix)   # every whole unit checks; the log is the prefix of a stopped run
    assert result.ok and not result.complete and result.units == 4
    assert "the log ends after 4 of" in result.message
    assert sorted(os.listdir(tmp_path)) == ["stopped.jsonl"]   # no summary, no temporary file


# --- progress ---------------------------------------------------------------------------------

def test_progress_is_plain_lines_on_stderr_when_not_a_terminal(capsys):
    assert main(["simulate", "guandan", "--deals", "10", "--seed", "1", "--jobs", "2"]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert lines and all(line.startswith("simulate: ") for line in lines)
    assert lines[-1].startswith("simulate: 10/10 deals (100%), ") and ", done in " in lines[-1]
    assert lines[0] == "simulate: 0/10 deals (0%), started"
    assert " deals/s, ETA " in lines[1]
    assert "\x1b[" not in captured.err and "10 deals in " in captured.out


def test_quiet_silences_the_progress_but_not_the_summary(capsys):
    assert main(["simulate", "guandan", "--deals", "3", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "3 deals in " in captured.out


# --- errors -----------------------------------------------------------------------------------

@pytest.mark.parametrize("jobs, why", [("0", "must be at least 1, got 0"), ("-1", "must be at least 1, got -1"),
                                       ("two", "not a whole number: 'two'")])
def test_bad_jobs_is_a_one_line_error(jobs, why, capsys):
    assert main([*DEALS, "--jobs", jobs]) == 2
    assert capsys.readouterr().err == f"paiju: error: simulate: argument --jobs: {why}\n"


@pytest.mark.parametrize("option", ["--log", "--summary"])
def test_unwritable_output_is_a_one_line_error_before_any_work(tmp_path, option, capsys):
    other = "--summary" if option == "--log" else "--log"
    bad = tmp_path / "no" / "such" / "dir" / "out.jsonl"
    assert main([*DEALS, "--jobs", "2", option, str(bad), other, str(tmp_path / "other.out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"paiju: error: cannot write {option} ")
    assert "no such directory" in err
    assert list(tmp_path.iterdir()) == []   # nothing written, not even the other output


def test_output_that_is_a_directory_is_refused(tmp_path, capsys):
    assert main([*DEALS, "--summary", str(tmp_path)]) == 2
    assert "it is a directory" in capsys.readouterr().err


def test_log_and_summary_cannot_be_the_same_file(tmp_path, capsys):
    same = str(tmp_path / "x")
    assert main([*DEALS, "--log", same, "--summary", same]) == 2
    assert "are the same file" in capsys.readouterr().err


def test_summary_that_cannot_be_renamed_into_place_leaves_no_temporary_file(tmp_path):
    from paiju.sim.command import write_summary
    from tabletop.errors import OptionError

    (tmp_path / "taken").mkdir()
    with pytest.raises(OptionError, match="cannot write summary"):
        write_summary(str(tmp_path / "taken"), {"results": {}})
    assert os.listdir(tmp_path) == ["taken"]
