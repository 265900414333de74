"""Interaction coverage, guided search, rulebook holes, campaigns and the coverage report of
`paiju fuzz` (issue 17).

The browser test needs Playwright's Python package and Chromium at /usr/bin/chromium (as
tests/paiju/replay/test_html.py); without them it is skipped."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

from enforcement.injector import catalogue_for
from guandan.deal import Deal as GuandanDeal
from guandan.events import RoundEnded
from guandan.observation import Phase as GuandanPhase
from paiju.cli import main
from paiju.fuzz.campaign import CaseResult, Pool, Search, run_search
from paiju.fuzz.case import draw_case, run_case
from paiju.fuzz.command import Coverage
from paiju.fuzz.holes import Holes, render_markdown, report_rows
from paiju.summary import counted
from paiju.fuzz.interactions import NOT_IN_RUN, Matrix, Recorder, Situation, Unresolved
from shengji.deal import Deal as ShengjiDeal
from shengji.phase import Phase as ShengjiPhase
from tabletop.rulings import RulingEvent



def _ruling(clause, seq):
    return RulingEvent(deal=1, seq=seq, seat=1, clause=clause, offender=1, side=1, answers=seq - 1, facts=(),
                       rectification=(), sanctions=(), summary="")


# ---------------------------------------------------------------------------------------------
# Coverage counting on hand-built deals


def test_guandan_pairs_on_a_hand_built_deal():
    deal = GuandanDeal.drawn(3, mode="refereed")
    recorder = Recorder("guandan")
    recorder.on_events(deal, [])
    assert recorder.pairs == set()
    # a bar pending while a player has gone out: 接风 and a ruling meet both
    deal.phase = GuandanPhase.PLAY
    deal.table.bars = {1: "next_turn"}
    deal.finish_order = [0]
    recorder.on_events(deal, [])
    recorder.on_events(deal, [RoundEnded(deal=1, seq=10, seat=0, leader=2, partner_leads=True), _ruling("GD-2.3.1", 11),
                              SimpleNamespace(KIND="gd.played")])   # a play is no happening
    assert recorder.pairs == {("bar_pending", "jiefeng"), ("partner_gone_out", "jiefeng"),
                              ("bar_pending", "ruling:GD-2.3.1"), ("partner_gone_out", "ruling:GD-2.3.1")}
    # the bar served: the next round end meets only the player gone out; a new deal starts with none in force
    deal.table.bars = {}
    recorder.on_events(deal, [])
    recorder.on_events(deal, [RoundEnded(deal=1, seq=20, seat=1, leader=1, partner_leads=False),
                              SimpleNamespace(KIND="gd.deal_started"),
                              RoundEnded(deal=2, seq=21, seat=1, leader=1, partner_leads=False)])
    assert recorder.pairs - {("bar_pending", "jiefeng"), ("partner_gone_out", "jiefeng"),
                             ("bar_pending", "ruling:GD-2.3.1"), ("partner_gone_out", "ruling:GD-2.3.1")} \
        == {("partner_gone_out", "round_over")}

    matrix = Matrix("guandan")
    assert matrix.add(recorder.pairs) == recorder.pairs
    assert matrix.add({("bar_pending", "jiefeng")}) == set()          # seen before: not new
    assert matrix.covered == 5 and matrix.counts[("bar_pending", "jiefeng")] == 2
    assert matrix.possible == len(matrix.conditions) * len(matrix.happenings) - len(matrix.impossible)
    assert matrix.summary().startswith(f"interaction pairs covered: 5 of {matrix.possible}")
    never = {(c, h): why for c, h, why in matrix.never()}
    assert ("bar_pending", "jiefeng") not in never
    assert never[("tribute_under_way", "jiefeng")].startswith("impossible: tribute and return are done before")
    assert never[("bar_pending", "round_over")] == NOT_IN_RUN
    assert len(never) == len(matrix.conditions) * len(matrix.happenings) - 5


def test_shengji_pairs_on_a_hand_built_deal():
    deal = ShengjiDeal(5, mode="refereed")
    recorder = Recorder("shengji")
    deal.phase = ShengjiPhase.KITTY
    deal.table.exposed[2] = ["SA"]
    recorder.on_events(deal, [])
    recorder.on_events(deal, [SimpleNamespace(KIND="sj.buried"), _ruling("SJ-3.1.10.1", 5)])
    assert recorder.pairs == {("kitty_being_buried", "buried"), ("exposed_cards", "buried"),
                              ("kitty_being_buried", "ruling:SJ-3.1.10.1"), ("exposed_cards", "ruling:SJ-3.1.10.1")}
    assert ("kitty_being_buried", "trick_won") in Matrix("shengji").impossible


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_fuzzed_deals_never_meet_a_pair_marked_impossible(game):
    matrix = Matrix(game)
    for index in range(8):
        recorder = Recorder(game)
        run_case(draw_case(game, "deals", 11, index), [recorder])
        matrix.add(recorder.pairs)
        assert all(c in matrix.conditions and h in matrix.happenings for c, h in recorder.pairs)
    assert matrix.covered > 10
    assert not [pair for pair in matrix.counts if pair in matrix.impossible]


def test_plain_fuzz_prints_the_interaction_coverage(capsys, tmp_path):
    code = main(["fuzz", "--game", "guandan", "--deals", "2", "--quiet", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert re.search(r"interaction pairs covered: \d+ of \d+ \(\d+ more impossible by the rules\)", out)


# ---------------------------------------------------------------------------------------------
# Guided search


PLANTED = ("planted", "x")


def planted_evaluator(case, replay_rate=0.0, coverage=None):
    """A stand-in for playing a case, whose coverage is known. A rare table condition — the
    first per-decision kind drawn at a rate >= 0.25 (one drawn case in 45) — meets a
    happening of its own, and the planted one only when heuristic agents sit at seats 0 and
    1 too (one drawn case in 180); every case meets the pair of its first two agents."""
    catalogue = catalogue_for(case.game)
    kind = next(k for k in catalogue.kinds if k not in catalogue.few_chances)
    pairs = {("agents", "+".join(case.agents[:2]))}
    if dict(case.rates).get(kind, 0) >= 0.25:
        pairs.add(("rare", "seen"))
        if case.agents[:2] == ("heuristic", "heuristic"):
            pairs.add(PLANTED)
    return CaseResult(case, frozenset(pairs), (), (), None, 1, 0, (), False)


def _reached(guided, seed, budget):
    """How many cases of the run reached the planted pair."""
    search = Search("shengji", "deals", seed, budget, guided, Coverage)
    run_search(search, Pool("shengji", 1, None), replay_rate=0.0, deadline=None, on_finding=dict, keep_going=True,
               evaluator=planted_evaluator)
    return search.matrix.counts[PLANTED]


def test_guided_search_reaches_a_planted_pair_more_often_than_unguided():
    seeds = range(6)
    guided = [_reached(True, seed, 150) for seed in seeds]
    unguided = [_reached(False, seed, 150) for seed in seeds]
    assert sum(guided) >= 3 * sum(unguided) and sum(1 for n in guided if n) >= sum(1 for n in unguided if n), \
        (guided, unguided)


def test_a_costly_corpus_case_is_picked_less_than_a_cheap_one_reaching_the_same_pairs():
    from paiju.fuzz.guided import COST_REFERENCE, Entry, generation

    pairs = frozenset({("rare", "seen")})
    cheap = Entry(draw_case("shengji", "deals", 0, 0), pairs, decisions=COST_REFERENCE // 2)
    costly = Entry(draw_case("shengji", "deals", 0, 1), pairs, decisions=COST_REFERENCE * 8)
    corpus = [cheap, costly]
    for number in range(1, 9):
        generation("shengji", "deals", 0, number, 25, corpus, {("rare", "seen"): 2})
    assert cheap.picks > 2 * costly.picks > 0, (cheap.picks, costly.picks)
    assert Entry.from_dict(costly.to_dict()) == costly              # a campaign keeps the cost


def test_an_aimed_mutant_commits_what_a_missing_pair_needs():
    import attrs
    import numpy

    from paiju.fuzz.guided import aim, aims_for

    aims = aims_for("shengji", [("throw_under_test", "ruling:SJ-1.2"), ("latent_revoke", "ruling:SJ-3.1.11.1"),
                                ("latent_revoke", "ruling:SJ-1.4"), ("kitty_being_buried", "buried")])
    assert aims == {"latent_revoke": ("wrong_follow", "revoke", "play_before_turn"), "throw_under_test": ("incident",)}
    case = attrs.evolve(draw_case("shengji", "deals", 0, 0), rates=(("extra_card", 0.1),))
    rng = numpy.random.default_rng(0)
    added = set()
    for _ in range(20):
        mutant = aim(case, frozenset({("latent_revoke", "trick_won")}), aims, rng)
        assert dict(mutant.rates)["extra_card"] == 0.1 and len(mutant.rates) == 2
        added |= set(dict(mutant.rates)) - {"extra_card"}
    assert added == {"wrong_follow", "revoke", "play_before_turn"}
    assert aim(case, frozenset({("exposed_cards", "trick_won")}), aims, rng) == case     # nothing to aim at


def test_a_guided_case_is_a_case_its_log_reproduces():
    search = Search("shengji", "deals", 4, 25, True, Coverage)
    run_search(search, Pool("shengji", 1, None), replay_rate=0.0, deadline=None, on_finding=dict, keep_going=True)
    assert search.corpus
    search.total = 50
    mutants = [c for c in search.next_cases() if c != draw_case("shengji", "deals", 4, c.index)]
    assert len(mutants) > 10                                  # most of a guided generation mutates the corpus
    from paiju.fuzz.case import Case

    outcome = run_case(mutants[0])
    again = run_case(Case.from_header(outcome.case.header()))
    assert again.case == mutants[0] and again.lines == outcome.lines


# ---------------------------------------------------------------------------------------------
# Campaigns


def _campaign(directory, *extra):
    return [sys.executable, "-m", "paiju.cli", "fuzz", "--game", "shengji", "--deals", "30", "--seed", "3", "--guided",
            "--campaign", str(directory), "--quiet", *extra]


def test_an_interrupted_campaign_resumes_and_ends_as_an_uninterrupted_one(tmp_path):
    whole = subprocess.run(_campaign(tmp_path / "whole", "--jobs", "2"), capture_output=True, text=True, timeout=300)
    assert whole.returncode == 0, whole.stderr
    cut = tmp_path / "cut"
    process = subprocess.Popen(_campaign(cut), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while not (cut / "state.json").exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "interrupted after 25 of 30 cases" in err and "Traceback" not in err
    assert json.loads((cut / "state.json").read_text())["cases"] == 25
    resumed = subprocess.run(_campaign(cut), capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming the campaign" in resumed.stderr
    one, two = (json.loads((d / "state.json").read_text()) for d in (tmp_path / "whole", cut))
    one.pop("seconds"), two.pop("seconds")
    assert one == two                                   # with --jobs 2 too: workers change nothing
    assert (cut / "coverage.json").exists() and (cut / "corpus.json").exists() and (cut / "holes.json").exists()


def test_a_campaign_resumes_only_with_its_own_settings(capsys, tmp_path):
    (tmp_path / "state.json").write_text(json.dumps(Search("shengji", "deals", 3, 5, True, Coverage).to_dict()))
    code = main(["fuzz", "--game", "shengji", "--seed", "4", "--campaign", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "seed 3 (asked 4)" in err


# ---------------------------------------------------------------------------------------------
# Rulebook holes


def _unresolved(irregularity, conditions, phase, seq):
    return Unresolved(Situation(irregularity, tuple(sorted(conditions)), phase), "GD-2.5", "", seq)


def test_holes_cluster_equal_situations_together_and_different_ones_apart():
    holes = Holes("guandan")
    a, b = draw_case("guandan", "deals", 0, 1), draw_case("guandan", "deals", 0, 2)
    holes.add(a, [_unresolved("pass_on_lead", ["bar_pending"], "play", 5)])
    holes.add(b, [_unresolved("pass_on_lead", ["bar_pending"], "play", 9),
                  _unresolved("pass_on_lead", ["penalty_cards_held"], "play", 12),
                  _unresolved("incident", ["bar_pending"], "play", 20)])
    clusters = {c.situation.key: c for c in holes.ordered()}
    assert len(clusters) == 3
    same = clusters["pass_on_lead|play|bar_pending"]
    assert same.count == 2 and same.cases == 2 and same.fallbacks == {"GD-2.5": 2}
    copy = Holes("guandan")
    copy.load(holes.to_dict())
    assert copy.to_dict() == holes.to_dict()


def test_the_holes_report_of_real_unresolved_situations(tmp_path, capsys):
    """Passing when one must lead is a situation the 掼蛋 rulebook leaves to its fallback;
    the report says it in both languages with a shrunk log that replays it."""
    holes = Holes("guandan")
    for index in range(6):
        case = draw_case("guandan", "deals", 5, index)
        case = type(case)(case.game, "deals", case.seed, case.index, case.agents, (("pass_on_lead", 0.3),))
        recorder = Recorder("guandan")
        run_case(case, [recorder])
        holes.add(case, recorder.unresolved)
    assert holes.clusters and all(k.startswith("pass_on_lead|play|") for k in holes.clusters)
    total = sum(c.count for c in holes.clusters.values())
    rows = report_rows(holes, logs=str(tmp_path / "logs"), seconds=5)
    text = render_markdown("guandan", rows)
    assert "Irregularity “passes with the lead” during the play" in text and "出牌阶段发生“首出不出”" in text
    assert counted(total, "time") in text or len(rows) > 1
    assert "GD-2.5" in text
    log = rows[0]["log"]
    assert rows[0]["command"] == f"paiju replay {log}" and os.path.exists(log)
    assert main(["replay", log, "--check"]) == 0
    assert "reproduced exactly" in capsys.readouterr().out


# ---------------------------------------------------------------------------------------------
# The coverage report in a browser




def test_the_coverage_report_opens_in_chromium(tmp_path, browser_page, capsys):
    pytest.importorskip("matplotlib")
    report, holes = tmp_path / "report.html", tmp_path / "holes.html"
    code = main(["fuzz", "--game", "shengji", "--deals", "6", "--seed", "1", "--quiet", "--out", str(tmp_path / "out"),
                 "--report", str(report), "--holes", str(holes), "--matrix", str(tmp_path / "matrix.json"),
                 "--time-budget", "20"])
    out = capsys.readouterr().out
    assert code == 0, out
    matrix = json.loads((tmp_path / "matrix.json").read_text())
    assert f"interaction pairs covered: {matrix['covered']} of {matrix['possible']}" in out
    page, problems = browser_page
    page.goto(report.as_uri())
    assert "paiju fuzz coverage" in page.title()
    heat = page.locator(".heatmap svg")
    assert heat.count() == 1 and heat.bounding_box()["width"] > 400
    text = page.inner_text("body")
    assert f"interaction pairs covered: {matrix['covered']} of {matrix['possible']}" in text
    assert "SJ-3.1.10.1" in text and "Rulebook holes" in text and "Findings (0)" in text
    assert "kitty_being_buried" in page.inner_html(".heatmap")  # the rows are the conditions
    page.goto(holes.as_uri())
    assert "Rulebook holes" in page.inner_text("h1")
    assert problems == []                                        # self-contained: nothing fetched
