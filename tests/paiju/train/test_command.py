"""`paiju train`: generated scenarios (seeded, per clause), the non-interactive report, the
interactive run through stdin, packs (`paiju train export` → `--from`), and every bad input
as one line on stderr with exit status 2."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from enforcement.injector import catalogue_for
from enforcement.rulebook import clauses_for, matching
from paiju.cli import main
from paiju.replay.fold import Fold, find_step
from paiju.train.generate import clause_kinds, generate, irregularity_clauses, not_offered
from paiju.train.grade import RIGHT, grade, parse_answer
from paiju.train.scenarios import KEY_FILE, scenarios_from_dir

GOLDEN_DEAL = Path(__file__).resolve().parents[2] / "golden" / "golden_guandan_deal_refereed_seed3.jsonl"
SEED, COUNT, CLAUSES = "4", "4", "GD-2.3.1,GD-4.2.*"
GENERATE = ["--seed", SEED, "--count", COUNT, "--clauses", CLAUSES]
SCENARIO_FIELDS = {"number", "log", "position", "ruling", "expected_clause", "offender", "side", "irregularity",
                   "irregular", "expected_sanctions", "expected_rectification", "unresolved", "answer",
                   "given_clause", "verdict", "clause_right", "rectification_right", "sanctions_right", "remarks",
                   "explanation"}


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    out = tmp_path_factory.mktemp("pack") / "class"
    assert main(["train", "export", *GENERATE, str(out)]) == 0
    return out


def key_of(pack_dir):
    return json.loads((pack_dir / KEY_FILE).read_text(encoding="utf-8"))


def answers_for(entries):
    """Right (all parts), clause right but sanction wrong, the parent section, no line."""
    first, second, third = entries[:3]
    right = "; ".join([first["expected_clause"],
                       ", ".join(sorted(set(first["expected_rectification"]) - {"Return", "RestoreOrder"})) or "none",
                       ", ".join(first["expected_sanctions"]) or "none"])
    wrong_sanction = f"{second['expected_clause'].lower()}; ; MatchLoss"
    parent = third["expected_clause"].rsplit(".", 1)[0]
    return [right, "# a comment line is skipped", wrong_sanction, parent]


# ---------------------------------------------------------------------------------------------
# Generation


def test_generated_scenarios_are_the_same_for_a_seed():
    first = generate("guandan", 9, 3)
    again = generate("guandan", 9, 3)
    assert [s.key() for s in first] == [s.key() for s in again]
    assert [s.log.lines for s in first] == [s.log.lines for s in again]
    other = generate("guandan", 10, 3)
    assert [s.log.lines for s in other] != [s.log.lines for s in first]


def test_clauses_option_yields_only_those_clauses(pack):
    entries = key_of(pack)["scenarios"]
    wanted = {c.id for c in matching(CLAUSES)}
    assert len(entries) == int(COUNT) and {e["expected_clause"] for e in entries} <= wanted
    assert len({e["expected_clause"] for e in entries}) == int(COUNT)      # one clause after another


def _citable():
    for game in ("guandan", "shengji"):
        for cid in clause_kinds(game):
            yield pytest.param(game, cid, id=cid)


@pytest.mark.parametrize("game, cid", list(_citable()))
def test_every_clause_a_ruling_cites_is_generated(game, cid):
    made = generate(game, 0, 1, cid)
    assert [s.expected.clause for s in made] == [cid]


def test_every_clause_is_offered_or_says_why_not():
    for game in ("guandan", "shengji"):
        offered, left_out = set(clause_kinds(game)), not_offered(game)
        assert not offered & set(left_out) and offered | set(left_out) == {c.id for c in clauses_for(game)}
        assert all(left_out.values())
    assert {"GD-5.1", "GD-5.2", "GD-6"} <= set(not_offered("guandan")) and "SJ-2.1" in not_offered("shengji")
    assert "SJ-3.2" in clause_kinds("shengji") and "GD-1.2" in clause_kinds("guandan")   # cited themselves


def test_a_clause_no_ruling_cites_is_refused_with_why(capsys):
    code, _, err = run(capsys, "train", "--game", "guandan", "--clauses", "GD-6", "--count", "1",
                       "--answers", os.devnull)
    assert code == 2
    one_error_line(err, "GD-6, an effect of other clauses' rulings")


def test_a_rare_incident_clause_is_practised_from_the_command_line(capsys):
    code, out, _ = run(capsys, "train", "--game", "shengji", "--clauses", "SJ-2.3", "--count", "1",
                       "--answers", os.devnull)
    assert code == 0 and "expected SJ-2.3" in out and "1 unanswered" in out


def test_every_injector_kind_leads_to_irregularities_the_rulings_know():
    for game in ("guandan", "shengji"):
        known = irregularity_clauses(game)
        commits = catalogue_for(game).commits
        assert set(catalogue_for(game).kinds) == set(commits), game
        for kind, irregularities in commits.items():
            assert irregularities and set(irregularities) <= set(known), (game, kind)


def test_shengji_scenarios_are_generated_and_graded():
    made = generate("shengji", 2, 3, "SJ-3.1.3,SJ-1.8,SJ-3.1.10.*")
    assert {s.expected.clause for s in made} <= {c.id for c in matching("SJ-3.1.3,SJ-1.8,SJ-3.1.10.*")}
    for s in made:
        e = s.expected
        answer = parse_answer(f"{e.clause.lower()}; ; {', '.join(e.sanctions) or 'none'}")
        assert grade(e, answer).verdict == RIGHT


# ---------------------------------------------------------------------------------------------
# Non-interactive runs and the report


def test_answers_file_gives_the_report_with_verdicts_and_score(pack, tmp_path, capsys):
    entries = key_of(pack)["scenarios"]
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(answers_for(entries)) + "\n", encoding="utf-8")
    report_path = tmp_path / "out" / "report.json"
    report_path.parent.mkdir()
    code, out, err = run(capsys, "train", *GENERATE, "--answers", answers, "--report", report_path)
    assert code == 0 and err == ""
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert set(report) == {"format", "version", "game", "made", "logs", "scenarios", "score", "total", "verdicts"}
    assert "`paiju train export --game guandan --seed 4 --count 4" in report["logs"]  # generated: no log on disk
    assert report["game"] == "guandan" and report["made"] == {"seed": 4, "count": 4, "clauses": CLAUSES}
    rows = report["scenarios"]
    assert [set(r) for r in rows] == [SCENARIO_FIELDS | {"log_in_export"}] * 4
    assert [r["verdict"] for r in rows] == ["right", "partly right", "partly right", "unanswered"]
    assert [r["clause_right"] for r in rows] == [True, True, False, False]
    assert rows[1]["sanctions_right"] is False and rows[1]["rectification_right"] is None
    assert report["score"] == 2 and report["total"] == 4
    assert report["verdicts"] == {"right": 1, "partly right": 2, "wrong": 0, "unanswered": 1}
    for row, entry in zip(rows, entries):                    # the run plays the pack's scenarios
        assert {k: row[k] for k in entry if k != "log"} == {k: v for k, v in entry.items() if k != "log"}
        assert row["log"] is None and row["log_in_export"] == entry["log"]
    assert rows[0]["log_in_export"] == "scenario-001.jsonl" and rows[3]["answer"] is None
    assert rows[0]["explanation"][0].startswith(rows[0]["expected_clause"])
    assert "score: 2 of 4 clauses right (1 right, 2 partly right, 1 unanswered)" in out
    assert out.count("\n") == 4 + 3                          # a verdict line each, the score, 'wrote', the logs


def test_export_then_from_plays_the_same_scenarios_with_the_same_grades(pack, tmp_path, capsys):
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(answers_for(key_of(pack)["scenarios"])) + "\n", encoding="utf-8")
    reports = []
    for source in (GENERATE, ["--from", pack]):
        path = tmp_path / f"report{len(reports)}.json"
        assert run(capsys, "train", *source, "--answers", answers, "--report", path)[0] == 0
        reports.append(json.loads(path.read_text(encoding="utf-8")))
    generated, from_pack = reports
    assert from_pack["made"] == {"from": str(pack), "clauses": None, "count": None}
    for a, b in zip(generated["scenarios"], from_pack["scenarios"], strict=True):
        assert a["log"] is None and b["log"] == str(pack / a["log_in_export"])
        assert {k: v for k, v in a.items() if k not in ("log", "log_in_export")} == {
            k: v for k, v in b.items() if k != "log"}
    assert generated["score"] == from_pack["score"] == 2
    # the pack's logs are whole refereed logs: replay --check reproduces them, --at shows the position
    game, scenarios = scenarios_from_dir(str(pack))
    for s in scenarios:
        assert run(capsys, "replay", s.source, "--check")[0] == 0
        assert find_step(Fold(s.log), s.position) == s.view_index


def test_from_a_directory_of_logs_every_ruling_is_a_scenario(tmp_path, capsys):
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(GOLDEN_DEAL, logs / "b.jsonl")
    shutil.copy(GOLDEN_DEAL, logs / "a.jsonl")
    (logs / "notes.txt").write_text("not a log\n")
    report = tmp_path / "r.json"
    empty = tmp_path / "none.txt"
    empty.write_text("")
    assert run(capsys, "train", "--from", logs, "--answers", empty, "--report", report)[0] == 0
    rows = json.loads(report.read_text(encoding="utf-8"))["scenarios"]
    rulings = sum(1 for line in GOLDEN_DEAL.read_text(encoding="utf-8").splitlines() if '"kind":"ref.' in line)
    assert len(rows) == 2 * rulings and all(r["verdict"] == "unanswered" for r in rows)
    assert [os.path.basename(r["log"]) for r in rows] == ["a.jsonl"] * rulings + ["b.jsonl"] * rulings
    assert [int(r["ruling"]) for r in rows[:rulings]] == sorted(int(r["ruling"]) for r in rows[:rulings])
    assert run(capsys, "train", "--from", logs, "--clauses", "GD-2.4.*", "--count", "2", "--answers", empty,
               "--report", report)[0] == 0
    rows = json.loads(report.read_text(encoding="utf-8"))["scenarios"]
    assert len(rows) == 2 and all(r["expected_clause"].startswith("GD-2.4.") for r in rows)
    # a pack of them: the scenarios of one log share its file, and the pack plays them again
    out = tmp_path / "pack"
    assert run(capsys, "train", "export", "--from", logs, "--clauses", "GD-2.4.*", out)[0] == 0
    _, first = scenarios_from_dir(str(logs))
    first = [s for s in first if s.expected.clause.startswith("GD-2.4.")]
    assert sorted(os.listdir(out)) == ["key.json", "scenario-001.jsonl", f"scenario-{len(first) // 2 + 1:03d}.jsonl"]
    _, again = scenarios_from_dir(str(out))
    assert [(s.ruling, s.expected) for s in again] == [(s.ruling, s.expected) for s in first]


# ---------------------------------------------------------------------------------------------
# Interactive runs


def test_interactive_run_through_stdin(tmp_path):
    given = "GD-2.3.9\nGD-2.3.1\nquit\n"
    proc = subprocess.run([sys.executable, "-m", "paiju.cli", "train", "--seed", "4", "--count", "2", "--clauses",
                           "GD-2.3.1", "--report", str(tmp_path / "r.json")],
                          input=given, capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "scenario 1 of 2 · scenario-001.jsonl at" in out and "╭─ deal 1" in out
    assert re.search(r"Rule on what seat \d did: plays out of turn 越序出牌 \(the irregularity at \d+\)\.", out)
    assert "cannot read that: no clause 'GD-2.3.9'" in out            # asked again
    assert "→ RIGHT" in out and "| GD-2.3.1 " in out and "越序出牌" in out
    assert "scenario 2 of 2" in out and "score: 1 of 2 clauses right (1 right, 1 unanswered)" in out
    rows = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["scenarios"]
    assert [r["verdict"] for r in rows] == ["right", "unanswered"]


def test_interactive_html_pages_stop_before_the_ruling(pack, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("skip\n?\nGD-4.2\n"))
    pages = tmp_path / "pages"
    code, out, _ = run(capsys, "train", "--from", pack, "--count", "2", "--html-dir", pages)
    assert code == 0 and "Answer: CLAUSE [; RECTIFICATION" in out
    assert sorted(os.listdir(pages)) == ["scenario-001.html", "scenario-002.html"]
    game, scenarios = scenarios_from_dir(str(pack))
    for name, scenario in zip(sorted(os.listdir(pages)), scenarios):
        page = (pages / name).read_text(encoding="utf-8")
        data = json.loads(re.search(r'id="replay-data">(.*?)</script>', page, re.S).group(1))
        last = data["frames"][-1]
        assert str(last["q"]) == scenario.position and data["start"] == len(data["frames"]) - 1
        assert scenario.expected.clause not in data["clauses"] or any(
            e.KIND == "ref.ruling" and e.clause == scenario.expected.clause for e in scenario.view().events)
    assert "score: " in out and "unanswered" in out


# ---------------------------------------------------------------------------------------------
# Bad input


def one_error_line(err, *parts):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("paiju: error: "), err
    for part in parts:
        assert part in lines[0], lines[0]


@pytest.mark.parametrize("argv, message", [
    (["train", "--clauses", "GD-9.9"], "no clause 'GD-9.9'"),
    (["train", "--clauses", "GD-2.3.1,GD-4.9.*"], "no clause 'GD-4.9.*' in the rulebook; did you mean"),
    (["train", "--game", "shengji", "--clauses", "GD-2.3.1"], "not a shengji clause"),
    (["train", "--clauses", "GD-5.1"], "nothing to practise: not a ruling's answer: GD-5.1, an effect"),
    (["train", "--answers", "/nonexistent/answers.txt"], "--answers /nonexistent/answers.txt: cannot read it"),
    (["train", "--answers", "/dev/null", "--report", "/nonexistent/dir/r.json"], "no such directory"),
    (["train", "--from", "/nonexistent/pack"], "not a directory"),
    (["train", "--count", "0"], "must be at least 1"),
    (["train", "--game", "bridge"], "invalid choice"),
])
def test_bad_input_is_one_error_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    one_error_line(err, message)


def test_bad_pack_and_directory_input_is_one_error_line(pack, tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    cases = [
        (["train", "--from", empty], "no logs (*.jsonl, *.jsonl.gz) and no key.json"),
        (["train", "--from", pack, "--seed", "1"], "give one or the other"),
        (["train", "--from", pack, "--clauses", "GD-1.1.1"], "no scenario for --clauses GD-1.1.1"),
        (["train", "--from", pack, "--game", "shengji"], "a 'guandan' pack, but --game is 'shengji'"),
        (["train", "export", "--count", "1", pack], "is not empty"),
        (["train", "--answers", "/dev/null", "export", tmp_path / "new"], "--answers belongs to a training run"),
    ]
    for argv, message in cases:
        code, out, err = run(capsys, *argv)
        assert code == 2, argv
        one_error_line(err, message)
    tampered = tmp_path / "tampered"
    shutil.copytree(pack, tampered)
    key = key_of(tampered)
    key["scenarios"][0]["expected_clause"] = "GD-2.2.1"
    (tampered / KEY_FILE).write_text(json.dumps(key), encoding="utf-8")
    code, _, err = run(capsys, "train", "--from", tampered)
    assert code == 2
    one_error_line(err, "scenario 1: the key says GD-2.2.1")


def test_missing_shengji_referee_is_a_clear_error(monkeypatch, capsys):
    from tabletop.errors import OptionError

    def no_referee(game, *args, **kw):
        raise OptionError(f"no referee for {game!r}")

    monkeypatch.setattr("enforcement.setup.make_referee", no_referee)
    code, _, err = run(capsys, "train", "--game", "shengji", "--count", "1")
    assert code == 2
    one_error_line(err, "shengji training needs the shengji referee")


def test_a_clause_not_produced_in_time_is_left_out_in_one_line_or_fails_clearly(monkeypatch):
    import paiju.train.generate as train_gen
    from paiju.train.scenarios import TrainingError

    real = train_gen.rates_for
    monkeypatch.setattr(train_gen, "rates_for",     # nobody ever announces out of turn
                        lambda game, kinds: {k: 0.0 if k == "announce_out_of_turn" else r
                                             for k, r in real(game, kinds).items()})
    notes = []
    made = generate("guandan", 0, 2, "GD-2.2.1,GD-4.1", note=notes.append, max_attempts=2)
    assert [s.expected.clause for s in made] == ["GD-4.1", "GD-4.1"]
    assert notes == ["GD-2.2.1: no ruling cited it in 2 deals; left out"]
    with pytest.raises(TrainingError, match="no ruling cited GD-2.2.1 in 2 units each"):
        generate("guandan", 0, 1, "GD-2.2.1", max_attempts=2)


def test_SJ_3_2_no_shengji_model_answer_teaches_an_automatic_match_loss():
    """判负 has no trigger in the seed (SJ-3.2, revised): a scenario's model answer comes from
    the rulebook referee, so none includes MatchLoss — not the plain SJ-1.18 warning, nor the
    later rulings of a match full of 记违例."""
    made = generate("shengji", 7, 6, "SJ-1.18,SJ-2.6,SJ-2.7")   # seed 7 taught 判负 before the revision
    assert "SJ-1.18" in {s.expected.clause for s in made}
    for s in made:
        assert "MatchLoss" not in s.expected.sanctions, (s.expected.clause, s.expected.sanctions)
        if s.expected.clause == "SJ-1.18":
            assert s.expected.sanctions[0] == "Warning"


def test_making_many_scenarios_shows_its_progress(tmp_path):
    """`train --count 2000` printed nothing for over a minute (issue 29, item 5): a long count
    shows the shared progress display on stderr while its scenarios are made."""
    from paiju.train.command import LONG_COUNT

    (tmp_path / "a.txt").write_text("")
    proc = subprocess.run([sys.executable, "-m", "paiju", "train", "--seed", "4", "--count", str(LONG_COUNT),
                           "--answers", str(tmp_path / "a.txt")],
                          capture_output=True, text=True, encoding="utf-8", timeout=600)
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.startswith("train: making guandan scenarios: ")]
    assert lines[0].endswith(f"0/{LONG_COUNT} scenarios (0%), started")
    assert f"{LONG_COUNT}/{LONG_COUNT} scenarios (100%)" in lines[-1] and "done in" in lines[-1]
    short = subprocess.run([sys.executable, "-m", "paiju", "train", "--seed", "4", "--count", "2",
                            "--answers", str(tmp_path / "a.txt")], capture_output=True, text=True, timeout=120)
    assert short.returncode == 0 and "making" not in short.stderr   # done before a display would help
