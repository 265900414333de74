"""`paiju fuzz`: a clean run, a planted violation caught, shrunk, saved and reproduced, the
time budget, crashes as findings, replay of fuzz logs, and one-line errors."""

import json
import re
import time
from types import SimpleNamespace

import attrs
import pytest

import paiju.fuzz.command as fuzz_module
from enforcement.injector import catalogue_for
from enforcement.invariants import INVARIANTS
from enforcement.rulebook import clauses_for
from guandan.refereed import restrictions
from paiju.cli import main
from paiju.fuzz.command import NOT_IN_RUN, Coverage
from paiju.fuzz.case import Case, draw_case, run_case


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
    assert re.search(r"clauses fired: \d+ of 43\b", out)   # every clause `paiju rules guandan` lists
    assert "fuzz guandan: 4/4 deals" in err                # progress lines go to stderr
    assert not list(tmp_path.iterdir())                    # nothing failed: nothing written


def test_shengji_is_fuzzed_with_its_referee(capsys, tmp_path):
    code, out, _ = fuzz(capsys, "--game", "shengji", "--deals", "2", "--seed", "2", "--out", str(tmp_path),
                        "--quiet", "--replay-sample", "1")
    assert code == 0, out
    assert "clause coverage (shengji)" in out and "SJ-3.1.10.2" in out
    assert "2 logs replayed" in out
    assert re.search(r"clauses fired: \d+ of 57\b", out)
    assert "not in this run (each can fire: more --deals may reach it): " in out   # 2 deals fire few


# ---------------------------------------------------------------------------------------------
# Clause coverage


def _ruling(clause, *sanctions):
    return SimpleNamespace(KIND="ref.ruling", clause=clause,
                           sanctions=[{"clause": c, "sanction": {"kind": k}} for c, k in sanctions])


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_coverage_counts_against_the_whole_rulebook(game):
    coverage = Coverage(game)
    rows = coverage.rows()
    assert [r[0] for r in rows] == [c.id for c in clauses_for(game)]      # headings too
    assert len(rows) == len(clauses_for(game)) == {"guandan": 43, "shengji": 57}[game]
    assert [cid for cid, _ in coverage.never()] == [r[0] for r in rows]  # nothing seen: nothing fired
    assert {why for _, why in coverage.never()} == {NOT_IN_RUN}          # and every clause can fire


def test_coverage_counts_headings_by_sub_clauses_effects_and_designations():
    coverage = Coverage("guandan")
    coverage.add([_ruling("GD-1.1.2", ("GD-1.1.2", "Warning")),
                  _ruling("GD-4.2.5", ("GD-4.2.5", "ForcedLast")),
                  SimpleNamespace(KIND="table.penalty_cards"),
                  SimpleNamespace(KIND="table.choice", purpose="designate"),   # offered: not yet made
                  SimpleNamespace(KIND="gd.designated"),
                  SimpleNamespace(KIND="table.choice", purpose="lead_option")])
    rows = {cid: (n, how) for cid, n, how in coverage.rows()}
    assert rows["GD-1.1.2"] == (1, "1 ruling")
    assert rows["GD-1.1"] == (1, "1 by sub-clauses") and rows["GD-1"] == (1, "1 by sub-clauses")
    assert rows["GD-5.1"] == (1, "1 effect") and rows["GD-5"] == (1, "1 by sub-clauses")
    assert rows["GD-6"] == (2, "1 effect, 1 designation")
    assert rows["GD-2"] == (0, NOT_IN_RUN)
    never = dict(coverage.never())
    assert "GD-1" not in never and "GD-1.1" not in never and "GD-5.2" in never


def _not_automatic(monkeypatch, module, game, reasons):
    """The game's rulebook as if some clauses carried a reason they cannot fire automatically."""
    real = clauses_for(game)
    monkeypatch.setattr(module, "clauses_for",
                        lambda g: [attrs.evolve(c, not_automatic=reasons.get(c.id)) for c in real])


def test_a_clause_that_cannot_fire_automatically_is_named_with_its_reason(monkeypatch):
    _not_automatic(monkeypatch, fuzz_module, "guandan",
                   {"GD-3.2.1": "only a human sees it", "GD-3.2.2": "nor this"})
    coverage = Coverage("guandan")
    coverage.add([_ruling("GD-2.1")])
    never = dict(coverage.never())
    assert never["GD-3.2.1"] == "cannot fire automatically: only a human sees it"
    assert never["GD-3.2"] == NOT_IN_RUN                  # a clause with a ruling of its own
    assert never["GD-2.2.1"] == NOT_IN_RUN                # can fire, did not in this run
    rows = {cid: how for cid, _, how in coverage.rows()}
    assert rows["GD-3.2.1"] == "cannot fire automatically: only a human sees it"
    _not_automatic(monkeypatch, fuzz_module, "guandan", {"GD-3.1": "a", "GD-3.2": "b"})    # a heading's
    assert dict(Coverage("guandan").never())["GD-3"] == "cannot fire automatically: none of its sub-clauses can"


def test_the_summary_names_clauses_that_cannot_fire_automatically(monkeypatch, capsys, tmp_path):
    _not_automatic(monkeypatch, fuzz_module, "guandan", {"GD-3.2.1": "only a human sees it"})
    code, out, _ = fuzz(capsys, "--game", "guandan", "--deals", "1", "--seed", "1", "--out", str(tmp_path), "--quiet")
    assert code == 0, out
    assert re.search(r"clauses fired: \d+ of 43 \(1 cannot fire automatically\)", out)
    assert "  GD-3.2.1: cannot fire automatically: only a human sees it" in out


def test_rare_kinds_get_rates_that_fire_them_and_second_deals_their_kinds():
    for game in ("guandan", "shengji"):
        catalogue = catalogue_for(game)
        kinds, few, second = set(catalogue.kinds), catalogue.few_chances, set(catalogue.second_deal)
        assert few <= kinds and second <= kinds
        cases = [draw_case(game, "deals", 0, i) for i in range(60)]
        for case in cases:
            for kind, rate in case.rates:
                assert (0.2 <= rate <= 1.0) if kind in few else (0.005 <= rate <= 0.3), (kind, rate)
            if case.unit == "matches":
                assert second <= set(case.rate_map)
        assert any(c.unit == "matches" for c in cases) and any(c.unit == "deals" for c in cases)
        assert all(second <= set(draw_case(game, "matches", 0, i).rate_map) for i in range(10))


def _lose_a_card_when_barring(monkeypatch):
    """A planted engine bug: barring a seat (GD-2.2, GD-2.3.1, GD-4.2.3) loses one of its cards."""
    bar = restrictions.bar

    def leaky(deal, seat, reason, scope):
        bar(deal, seat, reason, scope)
        hand = deal.hands[seat]
        card = next(i for i in range(54) if hand[i])
        hand[card] -= 1
        deal.sizes[seat] -= 1
        deal.hand_changed(seat)

    monkeypatch.setattr(restrictions, "bar", leaky)


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


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_every_reported_incident_clause_is_fired_by_injected_incidents(game):
    """What only a human can report (lateness, prompting, tempo, manner of play …) is injected
    as an incident; every clause an incident can be ruled under fires from injected ones."""
    from paiju.train.generate import irregularity_clauses

    by_incident = set(irregularity_clauses(game)["incident"])
    assert {c.id for c in clauses_for(game) if c.reported} <= by_incident
    coverage = Coverage(game)
    for index in range(40):
        case = Case(game, "deals", 5, index, ("random", "heuristic") * 2, (("incident", 0.3),))
        outcome = run_case(case)
        assert outcome.finding is None, outcome.finding
        coverage.add(outcome.events)
        if by_incident <= {cid for cid, _ in coverage.counts}:
            break
    assert by_incident - {cid for cid, _ in coverage.counts} == set()
