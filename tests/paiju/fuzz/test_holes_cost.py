"""The holes step costs a fraction of the run it reports (issue 29, item 5): before, `--holes`
turned a 3.3 s run into 2 min 26 s (each situation shrunk for up to 20 s, 300 s in all) and
said nothing meanwhile. Now it takes at most a quarter of the run's time (a second at
least), shows its progress, and a situation it had no time for says so."""

from __future__ import annotations

import re
import subprocess
import sys
import time

import attrs

from paiju.fuzz.case import draw_case, run_case
from paiju.fuzz.holes import NOT_IN_TIME, Holes, holes_seconds, render_markdown, report_rows
from paiju.fuzz.interactions import Recorder


def _holes(cases: int) -> tuple[Holes, float]:
    """The holes of ``cases`` real fuzz cases, and how long playing them took."""
    holes = Holes("guandan")
    begun = time.monotonic()
    for index in range(cases):
        case = draw_case("guandan", "deals", 1, index)
        recorder = Recorder("guandan")
        run_case(case, [recorder])
        holes.add(case, recorder.unresolved)
    return holes, time.monotonic() - begun


def _timed(case) -> float:
    begun = time.monotonic()
    run_case(case, checked=False)
    return time.monotonic() - begun


class _Count:
    def __init__(self) -> None:
        self.done = 0

    def advance(self, done: int, note: str | None = None) -> None:
        self.done += done

    def close(self) -> None:
        pass


def test_the_holes_step_keeps_to_its_share_of_the_run(tmp_path):
    holes, run_seconds = _holes(12)
    assert len(holes.clusters) >= 3
    budget = holes_seconds(run_seconds)
    assert budget == max(1.0, run_seconds / 4)
    slowest = max(_timed(c.example) for c in holes.clusters.values())
    begun = time.monotonic()
    progress = _Count()
    rows = report_rows(holes, logs=str(tmp_path / "logs"), seconds=budget, progress=progress)
    took = time.monotonic() - begun
    # the budget, and at most one case played past it (and writing the logs)
    assert took < budget + 2 * slowest + 0.5, (took, budget, slowest)
    assert progress.done == 2 * len(holes.clusters)
    assert rows[0]["log"] is not None   # the most frequent situation gets its log first


def test_a_situation_past_the_time_says_it_has_no_log_and_why(tmp_path):
    holes, _ = _holes(6)
    rows = report_rows(holes, logs=str(tmp_path / "logs"), seconds=0.0)
    assert rows and all(r["log"] is None and r["missing"] == NOT_IN_TIME for r in rows)
    assert "time was up" in render_markdown("guandan", rows)


def test_a_holes_run_shows_its_progress_and_costs_a_fraction_of_the_run(tmp_path):
    """The real command: the holes step's own progress lines and its time (from them)."""
    done = subprocess.run([sys.executable, "-m", "paiju", "fuzz", "--game", "guandan", "--deals", "20", "--seed", "1",
                           "--holes", str(tmp_path / "h.md"), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    fuzz = re.search(r"fuzz guandan: 20/20 cases \(100%\).*done in (\d+):(\d+)", done.stderr)
    holes = re.search(r"holes: replay and shrink each situation: (\d+)/\1 steps \(100%\).*done in (\d+):(\d+)",
                      done.stderr)
    assert fuzz and holes, done.stderr
    run_seconds = 60 * int(fuzz[1]) + int(fuzz[2])
    holes_taken = 60 * int(holes[2]) + int(holes[3])
    assert holes_taken <= max(1.0, run_seconds / 4) + 1, done.stderr   # whole seconds, rounded
    assert (tmp_path / "h.md").read_text().startswith("# Rulebook holes")


def test_a_case_plays_the_same_with_or_without_the_invariant_checker():
    """What lets the holes step drop the checker when it re-plays a case."""
    for game in ("guandan", "shengji"):
        for index in range(4):
            case = draw_case(game, "deals", 3, index)
            assert run_case(case).lines == run_case(case, checked=False).lines
    match = attrs.evolve(draw_case("guandan", "matches", 3, 1), max_deals=2)
    assert run_case(match).lines == run_case(match, checked=False).lines
