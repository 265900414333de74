"""`paiju fuzz` stopped by Ctrl-C (a real SIGINT): the cases finished so far are the run — it
prints their clause coverage and says it was interrupted (issue 14, item 2)."""

from __future__ import annotations

import re

from tests.paiju.interrupt import Running


def test_sigint_prints_the_coverage_of_the_cases_finished(tmp_path, monkeypatch):
    # the progress line every 0.2 s, not 5 s: stopped once cases are finished, not 5 s of cases later
    monkeypatch.setenv("PAIJU_PROGRESS_SECONDS", "0.2")
    run = Running(["fuzz", "--game", "guandan", "--deals", "400", "--seed", "1", "--out", str(tmp_path / "out")],
                  cwd=str(tmp_path))
    # a progress line after the second case (the first line comes at the start, at 0; with one
    # case only, the summary would say "1 case")
    run.wait_for(lambda: re.search(r"fuzz guandan: (?:[2-9]|[1-9]\d+)/400", run.stderr) is not None)
    code = run.interrupt()
    assert code == 130, run.stdout + run.stderr
    done = re.search(r"paiju fuzz guandan: (\d+) cases of 400 deals .*interrupted, ", run.stdout)
    assert done, run.stdout
    assert 0 < int(done.group(1)) < 400
    assert "clause coverage (guandan)" in run.stdout and re.search(r"clauses fired: [1-9]\d* of \d+", run.stdout)
    assert "interrupted" in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "out").exists()   # no violation: no failure log, nothing half-written
