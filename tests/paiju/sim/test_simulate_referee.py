"""`paiju simulate --referee/--infractions`: refereed units, the referee's summary sections,
logs that replay exactly, and results that do not depend on --jobs."""

import json

import pytest

from paiju.cli import main
from paiju.replay.check import check_log
from tabletop.log import read_log


@pytest.mark.parametrize("game, unit, count", [("guandan", "--matches", 1), ("guandan", "--deals", 4),
                                               ("shengji", "--deals", 4)])
def test_refereed_run_summarises_rulings_and_its_log_replays(tmp_path, capsys, game, unit, count):
    log = tmp_path / "run.jsonl"
    summary = tmp_path / "summary.json"
    code = main(["simulate", game, unit, str(count), "--seed", "3", "--infractions", "0.05",
                 "--log", str(log), "--summary", str(summary), "--quiet"])
    out = capsys.readouterr().out
    assert code == 0
    for heading in ("rulings by clause", "sanctions by side", "results changed by rulings"):
        assert heading in out
    data = json.loads(summary.read_text())["results"]["referee"]
    assert data["rulings"] > 0 and data["irregular"] == data["rulings"] + data["unresolved"]
    assert sum(data["by_clause"].values()) == data["rulings"]
    header = read_log(log).header
    assert header["options"]["referee"] is True and header["options"]["infractions"] == 0.05
    result = check_log(read_log(log))
    assert result.ok, result.message


def test_referee_without_infractions_rules_on_nothing_and_plays_like_strict(tmp_path, capsys):
    assert main(["simulate", "guandan", "--deals", "3", "--seed", "9", "--referee", "--quiet",
                 "--summary", str(tmp_path / "r.json")]) == 0
    assert main(["simulate", "guandan", "--deals", "3", "--seed", "9", "--quiet",
                 "--summary", str(tmp_path / "s.json")]) == 0
    refereed = json.loads((tmp_path / "r.json").read_text())["results"]
    strict = json.loads((tmp_path / "s.json").read_text())["results"]
    assert refereed.pop("referee")["rulings"] == 0
    assert refereed == strict


def test_refereed_results_and_log_do_not_depend_on_jobs(tmp_path, capsys):
    runs = {}
    for jobs in ("1", "2"):
        log = tmp_path / f"j{jobs}.jsonl"
        summary = tmp_path / f"j{jobs}.json"
        assert main(["simulate", "shengji", "--deals", "6", "--seed", "4", "--infractions", "0.05",
                     "--jobs", jobs, "--log", str(log), "--summary", str(summary), "--quiet"]) == 0
        runs[jobs] = (log.read_bytes(), json.loads(summary.read_text())["results"])
    assert runs["1"] == runs["2"]


def test_infraction_rate_out_of_range_is_a_one_line_error(capsys):
    assert main(["simulate", "guandan", "--infractions", "1.5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "between 0 and 1" in err
