"""The pieces behind `paiju simulate` at scale: chunk plans, per-worker file names and
index ranges, plain progress lines, and `replay --check` on each log layout."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.sim.batch import Batch, ChunkTask, chunk_size, make_agents, plan_chunks, play_chunk
from paiju.games import adapter_for
from paiju.sim.logs import index_ranges, part_path
from paiju.progress import PlainLines, clock
from paiju.replay.check import check_log, unit_indices
from tabletop.errors import LogError
from tabletop.events import EventStream
from tabletop.log import LogWriter, make_header, read_log
from tabletop.runner import run


@given(count=st.integers(1, 5000), workers=st.integers(1, 64), unit=st.sampled_from(["deals", "matches"]))
def test_chunk_plan_covers_every_index_once_in_order(count, workers, unit):
    size = chunk_size(unit, count, workers)
    chunks = plan_chunks(count, size)
    assert [i for c in chunks for i in range(c.start, c.stop)] == list(range(count))
    assert [c.number for c in chunks] == list(range(len(chunks)))
    assert 1 <= size <= (20 if unit == "deals" else 1)
    assert len(chunks) >= min(count, workers)   # a pool of min(jobs, count) is never idle by design


def test_a_chunk_plays_the_same_units_whatever_chunks_surround_it():
    batch = Batch(game="guandan", unit="deals", count=6, seed=3, rules={}, agents=("random",) * 4)
    for compress in (False, True):
        whole = play_chunk(ChunkTask(batch, plan_chunks(6, 6)[0], log=True, compress=compress))
        pieces = [play_chunk(ChunkTask(batch, chunk, log=True, compress=compress)) for chunk in plan_chunks(6, 4)]
        assert whole.results == pieces[0].results + pieces[1].results
        assert whole.log == pieces[0].log + pieces[1].log
    assert play_chunk(ChunkTask(batch, plan_chunks(6, 6)[0])).log == b""


@pytest.mark.parametrize("path, part, parts, expected", [
    ("run.jsonl", 0, 2, "run-w0.jsonl"),
    ("out/run.jsonl.gz", 1, 2, "out/run-w1.jsonl.gz"),
    ("run", 3, 12, "run-w03"),
    ("a.b/log.gz", 0, 1, "a.b/log-w0.gz"),
])
def test_per_worker_file_names(path, part, parts, expected):
    assert part_path(path, part, parts) == expected


def test_index_ranges_join_adjacent_chunks():
    chunks = plan_chunks(10, 2)
    assert index_ranges(chunks[0::2]) == [[0, 2], [4, 6], [8, 10]]
    assert index_ranges(chunks) == [[0, 10]]


def test_plain_progress_prints_at_the_start_each_tenth_and_after_a_quiet_interval():
    now = [0.0]
    out = io.StringIO()
    progress = PlainLines("deals", 100, "simulate", out, now=lambda: now[0], interval=5.0)
    for _ in range(25):
        now[0] += 0.5
        progress.advance(1)          # 25 units, 0.5 s each: lines at 10 % and 20 %
    now[0] += 7.0
    progress.advance(1)              # 26 %: no new tenth, but 7 s without a line
    now[0] += 1.0
    progress.advance(73, note="1 violation")
    progress.advance(1)
    lines = out.getvalue().splitlines()
    assert lines == [
        "simulate: 0/100 deals (0%), started",
        "simulate: 10/100 deals (10%), 2.0 deals/s, ETA 0:45",
        "simulate: 20/100 deals (20%), 2.0 deals/s, ETA 0:40",
        "simulate: 26/100 deals (26%), 1.3 deals/s, ETA 0:56",
        "simulate: 99/100 deals (99%), 4.8 deals/s, ETA 0:00, 1 violation",
        "simulate: 100/100 deals (100%), 4.9 deals/s, done in 0:20, 1 violation",
    ]
    assert clock(3723) == "1:02:03"


# --- replay --check on each layout ------------------------------------------------------------

def test_index_ranges_in_a_header_choose_the_units_to_replay():
    assert unit_indices({}, 3) == range(3)
    assert unit_indices({"index_ranges": [[0, 2], [4, 5]]}, 5) == [0, 1, 4]
    for bad in ([[2, 1]], [[0, 6]], [[3, 4], [0, 1]], [[0, "1"]], "0-3"):
        with pytest.raises(LogError, match="index_ranges"):
            unit_indices({"index_ranges": bad}, 5)


def test_a_log_with_one_stream_for_all_units_still_checks(tmp_path):
    """A log without unit events: the units share one stream (a single engine's layout)."""
    game = adapter_for("guandan")
    rules = game.rules_from_dict({})
    kinds = ("random",) * 4
    path = tmp_path / "shared.jsonl"
    stream = EventStream()
    with LogWriter(path, make_header("guandan", 9, rules.to_dict(), {"unit": "deals", "count": 2})) as writer:
        for index in range(2):
            run(game.new_deal(9, index, rules, stream), make_agents(game, kinds, 9, index), [writer])
    result = check_log(read_log(path), game)
    assert result.ok and result.units == 2, result.message


def test_a_unit_missing_from_a_per_worker_log_is_reported(tmp_path):
    from paiju.cli import main

    assert main(["simulate", "guandan", "--deals", "4", "--seed", "2", "--quiet",
                 "--log", str(tmp_path / "r.jsonl"), "--log-layout", "workers", "--jobs", "2"]) == 0
    part = tmp_path / "r-w0.jsonl"
    lines = part.read_text().splitlines()
    header = lines[0].replace('"index_ranges":[[0,2]]', '"index_ranges":[[0,1],[2,3]]')
    part.write_text("\n".join([header, *lines[1:]]) + "\n")
    result = check_log(read_log(part))
    assert not result.ok and "line" in result.message and "differs" in result.message
