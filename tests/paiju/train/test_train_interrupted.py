"""An interactive `paiju train` stopped by Ctrl-C (a real SIGINT) writes the report of what was
answered (issue 14, item 2)."""

from __future__ import annotations

import json
import os

from paiju.cli import main
from paiju.train.scenarios import KEY_FILE
from tests.paiju.interrupt import Running


def test_sigint_in_the_middle_writes_the_report_of_the_answers_given(tmp_path):
    pack = tmp_path / "pack"
    assert main(["train", "export", "--seed", "4", "--count", "3", "--clauses", "GD-2.3.1,GD-4.2.*", str(pack)]) == 0
    first = json.loads((pack / KEY_FILE).read_text(encoding="utf-8"))["scenarios"][0]
    report = tmp_path / "report.json"
    run = Running(["train", "--from", str(pack), "--report", str(report)], stdin=True)
    run.wait_for(lambda: run.stdout.count("Your ruling> ") == 1)
    run.send(first["expected_clause"])
    run.wait_for(lambda: run.stdout.count("Your ruling> ") == 2)   # waiting for the second answer
    code = run.interrupt()
    assert code == 130, run.stdout + run.stderr
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["interrupted"] == {"scenarios_in_run": 3, "answered": 1}
    assert data["total"] == 1 and data["score"] == 1
    assert [r["answer"] for r in data["scenarios"]] == [first["expected_clause"]]
    assert "score: 1 of 1 clauses right" in run.stdout and "interrupted: 1 of 3 scenarios reached" in run.stdout
    assert "1 of 3 scenarios answered" in run.stderr and "Traceback" not in run.stderr
    assert [name for name in os.listdir(tmp_path) if name.endswith(".tmp")] == []
