"""`paiju fuzz`: a clean run, a planted violation caught, shrunk, saved and reproduced, the
time budget, crashes as findings, replay of fuzz logs, and one-line errors."""

import json
import re
import time

import pytest

from enforcement.invariants import INVARIANTS
from guandan.table import TablePrimitives
from paiju.cli import main
from paiju.fuzz_case import Case, draw_case, run_case


def fuzz(capsys, *args):
    code = main(["fuzz", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_short_clean_run_exits_0_with_the_clause_coverage(capsys, tmp_path):
    code, out, err = fuzz(capsys, "--game", "guandan", "--deals", "4", "--seed", "1", "--out", str(tmp_path))
    assert code == 0, out + err
    assert "violations: none" in out
    assert "clause coverage (guandan)" in out and "GD-2.3.1" in out and "GD-7" in out
    assert "clauses fired:" in out and "never fired:" in out
    assert "fuzz guandan: 4/4 deals" in err                # progress lines go to stderr
    assert not list(tmp_path.iterdir())                    # nothing failed: nothing written


def test_shengji_is_fuzzed_with_its_referee(capsys, tmp_path):
    code, out, _ = fuzz(capsys, "--game", "shengji", "--deals", "2", "--seed", "2", "--out", str(tmp_path),
                        "--quiet", "--replay-sample", "1")
    assert code == 0, out
    assert "clause coverage (shengji)" in out and "SJ-3.1.10.2" in out
    assert "2 logs replayed" in out


def _lose_a_card_when_barring(monkeypatch):
    """A planted engine bug: barring a seat (GD-2.2, GD-2.3.1, GD-4.2.3) loses one of its cards."""
    bar = TablePrimitives._bar

    def leaky(self, seat, reason, scope):
        bar(self, seat, reason, scope)
        hand = self.hands[seat]
        card = next(i for i in range(54) if hand[i])
        hand[card] -= 1
        self.sizes[seat] -= 1
        self.hand_changed(seat)

    monkeypatch.setattr(TablePrimitives, "_bar", leaky)


def test_a_planted_violation_is_caught_shrunk_saved_and_reproduced(capsys, tmp_path, monkeypatch):
    _lose_a_card_when_barring(monkeypatch)
    code, out, _ = fuzz(capsys, "--game", "guandan", "--deals", "30", "--seed", "0", "--out", str(tmp_path), "--quiet")
    assert code == 1
    assert "VIOLATION in case" in out and "[cards_conserved]" in out
    commands = [line.strip() for line in out.splitlines() if line.strip().startswith("reproduce:")]
    assert len(commands) == 1                              # one command
    path = commands[0].split("--repro ", 1)[1]
    assert path.startswith(str(tmp_path)) and path.endswith("cards_conserved.jsonl")
    header = json.loads(open(path, encoding="utf-8").readline())
    case = Case.from_header(header)
    first = draw_case("guandan", "deals", 0, case.index)
    assert len(case.rates) <= 2 < len(first.rates) or len(first.rates) <= 2   # kinds dropped
    assert case.max_irregularities is not None and case.max_irregularities <= 3
    assert "[cards_conserved]" in header["options"]["fuzz"]["finding"]
    assert "violations: cards_conserved" in out

    code = main(["fuzz", "--repro", path])                 # the printed command reproduces it
    repro = capsys.readouterr().out
    assert code == 1 and "[cards_conserved]" in repro and "the same as the log" in repro

    monkeypatch.undo()                                     # the bug fixed: the case is clean
    code = main(["fuzz", "--repro", path])
    assert code == 0 and "no invariant broken" in capsys.readouterr().out


def test_keep_going_reports_each_broken_invariant_once(capsys, tmp_path, monkeypatch):
    _lose_a_card_when_barring(monkeypatch)
    code, out, _ = fuzz(capsys, "--game", "guandan", "--deals", "6", "--seed", "0", "--out", str(tmp_path),
                        "--quiet", "--keep-going")
    assert code == 1
    assert out.count("VIOLATION in case") == 1
    assert "more cases breaking the same" in out
    assert len(list(tmp_path.iterdir())) == 1


def test_the_time_budget_stops_starting_new_cases(capsys, tmp_path):
    started = time.monotonic()
    code, out, _ = fuzz(capsys, "--game", "guandan", "--deals", "100000", "--time-budget", "0.5",
                        "--out", str(tmp_path), "--quiet")
    assert code == 0
    assert time.monotonic() - started < 30
    assert "budget reached" in out
    cases = int(re.search(r"guandan: (\d+) cases? of 100000 deals", out).group(1))
    assert 1 <= cases < 100000


def test_a_crash_of_the_referee_is_a_finding(monkeypatch):
    from enforcement.guandan_rulings import GuandanRulings

    decide = GuandanRulings.decide

    def broken(self, engine, event):
        if getattr(event, "irregularity", None) == "ask_count":
            raise RuntimeError("the referee fell over")
        return decide(self, engine, event)

    monkeypatch.setattr(GuandanRulings, "decide", broken)
    case = Case("guandan", "deals", 3, 0, ("random",) * 4, (("ask_count", 0.3),))
    outcome = run_case(case)
    assert outcome.finding.invariant == "crash"
    assert outcome.finding.message.startswith("RuntimeError: the referee fell over")
    assert "broken" in outcome.finding.detail                # the traceback


def test_fuzz_logs_replay_exactly(capsys, tmp_path):
    for index in range(3):                                 # one deal, and a two-deal match
        outcome = run_case(draw_case("guandan", "deals", 4, index))
        assert outcome.finding is None
        path = tmp_path / f"case{index}.jsonl"
        path.write_text(outcome.log_text(), encoding="utf-8")
        assert main(["replay", str(path), "--check"]) == 0, capsys.readouterr()
    assert {draw_case("guandan", "deals", 4, i).unit for i in range(12)} == {"deals", "matches"}


def test_the_invariants_catalogue_names_every_finding_kind():
    assert {"cards_conserved", "barred_silent", "restrictions_obeyed", "penalty_cards_offered",
            "lead_option_first", "ruled_once", "ruled_in_time", "scoring_consistent", "sanctions_carried_out",
            "next_deal_procedure", "bounded", "not_stuck", "replay_exact", "crash"} <= set(INVARIANTS)


@pytest.mark.parametrize("args, message", [
    (["--game", "mahjong"], "invalid choice"),
    (["--deals", "3"], "--game is required"),
    (["--game", "guandan", "--deals", "0"], "must be at least 1"),
    (["--game", "guandan", "--time-budget", "0"], "more than 0 seconds"),
    (["--game", "guandan", "--time-budget", "soon"], "not a number of seconds"),
    (["--game", "guandan", "--replay-sample", "2"], "between 0 and 1"),
    (["--game", "guandan", "--deals", "2", "--matches", "2"], "not allowed with"),
    (["--repro", "x.jsonl", "--game", "guandan"], "leave out --game"),
    (["--repro", "no-such.jsonl"], "no such log"),
])
def test_bad_options_are_one_line_errors(capsys, args, message):
    assert main(["fuzz", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("paiju: error:") and err.count("\n") == 1 and message in err


def test_out_must_be_a_directory(capsys, tmp_path):
    f = tmp_path / "file"
    f.write_text("")
    assert main(["fuzz", "--game", "guandan", "--out", str(f)]) == 2
    assert "is not a directory" in capsys.readouterr().err


def test_repro_refuses_a_log_that_is_not_from_the_fuzzer(capsys, tmp_path):
    outcome = run_case(draw_case("guandan", "deals", 4, 0))
    header = outcome.case.header()
    del header["options"]["fuzz"]
    path = tmp_path / "plain.jsonl"
    path.write_text(json.dumps(header) + "\n", encoding="utf-8")
    assert main(["fuzz", "--repro", str(path)]) == 2
    assert "not a `paiju fuzz` log" in capsys.readouterr().err
