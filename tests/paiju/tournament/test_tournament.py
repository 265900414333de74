"""`paiju tournament` on small real tournaments: the same results for --jobs 1 and 2, the
duplicate format really replays the same cards with the seats swapped (read from the
logs), an agent against itself gets an interval that covers zero, the table's schema,
--until-significant, the refereed columns, the report in headless Chromium, and bad input
as one-line errors."""

from __future__ import annotations

import csv
import json
import os

import pytest

from tests.paiju.chromium import chromium_browser
from hypothesis import given
from hypothesis import strategies as st

from paiju.sim.batch import Chunk, ChunkTask, play_chunk
from paiju.cli import main
from paiju.games import adapter_for
from paiju.tournament.plan import TournamentPlan, parse_entrants
from paiju.tournament.run import _pair_of
from paiju.tournament.table import COLUMNS, SCHEMA



def tournament(tmp_path, name, *args):
    out = tmp_path / name
    assert main(["tournament", *args, "--quiet", "--out", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return out, summary


def results_only(summary):
    return {k: v for k, v in summary.items() if k != "timing"}


def plan_of(game, agents, count, duplicate, seed=0):
    adapter = adapter_for(game)
    return TournamentPlan(game=game, unit="deals", count=count, seed=seed, rules=adapter.rules_from_dict({}).to_dict(),
                          entrants=parse_entrants(agents, adapter), duplicate=duplicate)


# ---------------------------------------------------------------------------------------------
# The boards

def test_duplicate_plays_each_board_in_both_seatings_and_otherwise_fresh_boards():
    duplicate = plan_of("guandan", "heuristic,random", 6, True)
    plain = plan_of("guandan", "heuristic,random", 6, False)
    assert [(duplicate.board(p, 0), duplicate.board(p, 1)) for p in range(3)] == [(0, 0), (1, 1), (2, 2)]
    assert [(plain.board(p, 0), plain.board(p, 1)) for p in range(3)] == [(0, 3), (1, 4), (2, 5)]
    pairing = duplicate.pairings[0]
    assert duplicate.batch(pairing, 0).agents == ("heuristic", "random", "heuristic", "random")
    assert duplicate.batch(pairing, 1).agents == ("random", "heuristic", "random", "heuristic")


@given(pairs=st.integers(1, 40), looks=st.lists(st.integers(1, 40), max_size=4), duplicate=st.booleans())
def test_looks_play_every_pair_of_every_pairing_once_in_both_seatings(pairs, looks, duplicate):
    plan = plan_of("guandan", "heuristic,random,random", 2 * pairs, duplicate)
    cuts = sorted({min(c, pairs) for c in looks} | {0, pairs})
    played = []
    for first, stop in zip(cuts, cuts[1:]):
        for leg in plan.legs(plan.pairings, first, stop):
            played.extend((leg.pairing, leg.seating, _pair_of(plan, board, leg.seating), board)
                          for board in range(leg.start, leg.stop))
    assert sorted(p[:3] for p in played) == sorted((n, s, p) for n in range(3) for s in (0, 1) for p in range(pairs))
    boards = {(n, s, p): b for n, s, p, b in played}
    for (n, s, p), board in boards.items():
        assert board == (p if duplicate or s == 0 else pairs + p)


def _unit_events(log: bytes) -> list[list[dict]]:
    units: list[list[dict]] = []
    for line in log.decode("utf-8").splitlines():
        event = json.loads(line)
        if event["kind"] == "unit":
            units.append([])
        units[-1].append(event)
    return units


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_a_duplicate_pair_is_the_same_cards_with_the_seats_swapped(game):
    plan = plan_of(game, "heuristic,random", 4, True, seed=11)
    pairing = plan.pairings[0]
    logs = {}
    for seating in (0, 1):
        board = plan.board(1, seating)
        batch = plan.batch(pairing, seating)
        logs[seating] = (batch.agents, _unit_events(play_chunk(ChunkTask(batch, Chunk(0, board, board + 1),
                                                                         log=True)).log)[0])
    (agents0, events0), (agents1, events1) = logs[0], logs[1]
    assert agents0 == tuple(reversed(agents1)) and agents0 != agents1   # (h, r, h, r) and (r, h, r, h)
    assert events0[0]["index"] == events1[0]["index"] == 1              # the same board

    def cards(events):
        return [(e["kind"], e["seat"], e.get("card"), e.get("deck")) for e in events
                if e["kind"].endswith((".shuffled", ".drawn", ".cut"))]

    assert len(cards(events0)) > 100 and cards(events0) == cards(events1)
    plays = [e for e in events0 if e["kind"].endswith(".played")]
    assert plays != [e for e in events1 if e["kind"].endswith(".played")]   # different agents played them


def test_jobs_1_and_2_and_a_dask_cluster_give_the_same_table_and_summary(tmp_path):
    args = ["shengji", "--agents", "heuristic,random,random", "--deals", "8", "--duplicate", "--seed", "4"]
    one, summary_one = tournament(tmp_path, "one", *args)
    two, summary_two = tournament(tmp_path, "two", *args, "--jobs", "2")
    assert (one / "deals.csv").read_bytes() == (two / "deals.csv").read_bytes()
    assert results_only(summary_one) == results_only(summary_two)
    assert summary_two["timing"]["backend"] == "on 2 local processes"
    distributed = pytest.importorskip("distributed")
    from paiju.sim.backends import NO_DASHBOARD

    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, **NO_DASHBOARD) as cluster:
        dask, summary_dask = tournament(tmp_path, "dask", *args, "--cluster", cluster.scheduler_address)
    assert (one / "deals.csv").read_bytes() == (dask / "deals.csv").read_bytes()
    assert results_only(summary_one) == results_only(summary_dask)


def test_duplicate_table_rows_pair_up_on_the_same_board(tmp_path):
    out, summary = tournament(tmp_path, "t", "guandan", "--agents", "heuristic,random", "--deals", "10",
                              "--duplicate", "--seed", "2")
    with open(out / "deals.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 10
    by_pair = {}
    for row in rows:
        by_pair.setdefault(row["pair"], []).append(row)
    for pair, (first, second) in by_pair.items():
        assert first["board"] == second["board"] == pair
        assert (first["seating"], second["seating"]) == ("0", "1")
        assert (first["seat0"], second["seat0"]) == ("heuristic", "random")
    # The summary's mean is the pairs' mean of the rows' level differences.
    diffs = [sum(int(r["level_diff_a"]) for r in pair_rows) / 2 for pair_rows in by_pair.values()]
    assert summary["pairings"][0]["level_diff"]["estimate"] == pytest.approx(sum(diffs) / len(diffs))


def test_an_agent_against_itself_has_an_interval_that_covers_zero(tmp_path):
    _, plain = tournament(tmp_path, "plain", "guandan", "--agents", "random,random", "--deals", "60", "--seed", "8")
    (pairing,) = plain["pairings"]
    assert pairing["pairing"] == "random vs random#2"
    assert pairing["level_diff"]["low"] < 0 < pairing["level_diff"]["high"]
    assert pairing["win_rate"]["low"] < 0.5 < pairing["win_rate"]["high"]
    assert not pairing["significant"]
    # In duplicate, a deterministic agent against itself plays each board the same way twice: every
    # pair exactly 0 — an estimate of 0, but five pairs do not make a zero-width interval (issue 29)
    _, duplicate = tournament(tmp_path, "dup", "guandan", "--agents", "heuristic,heuristic", "--deals", "10",
                              "--duplicate")
    level = duplicate["pairings"][0]["level_diff"]
    assert level["estimate"] == 0 and level["low"] == pytest.approx(-level["high"]) and level["high"] > 0.5
    assert duplicate["pairings"][0]["clones"]


def test_heuristic_beats_random_and_rates_higher(tmp_path):
    _, summary = tournament(tmp_path, "t", "guandan", "--agents", "random,heuristic", "--deals", "20", "--duplicate")
    (pairing,) = summary["pairings"]
    assert pairing["significant"] and pairing["level_diff"]["high"] < 0   # the first agent (random) loses
    assert [r["agent"] for r in summary["ratings"]] == ["heuristic", "random"]
    assert summary["ratings"][0]["low"] > summary["ratings"][1]["high"]


def test_until_significant_stops_a_clear_pairing_early_and_plays_the_rest_to_the_budget(tmp_path):
    args = ["guandan", "--agents", "heuristic,random,random", "--deals", "60", "--until-significant", "--seed", "1"]
    _, summary = tournament(tmp_path, "t", *args)
    assert summary["until_significant"] == {"looks": 3, "step_pairs": 10}
    by_label = {p["pairing"]: p for p in summary["pairings"]}
    assert by_label["heuristic vs random"]["stopped_early"] and by_label["heuristic vs random"]["pairs"] == 10
    assert not by_label["random vs random#2"]["stopped_early"] and by_label["random vs random#2"]["pairs"] == 30
    assert summary["timing"]["deals_played"] == 20 + 20 + 60
    _, on_two = tournament(tmp_path, "two", *args, "--jobs", "2")
    assert results_only(on_two) == results_only(summary)   # the looks stop at the same places


def test_the_table_has_the_documented_schema_for_parquet_and_csv(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    out, summary = tournament(tmp_path, "t", "shengji", "--agents", "heuristic,random", "--matches", "2", "--seed", "3")
    table = pq.read_table(out / "deals.parquet")
    assert table.column_names == list(COLUMNS)
    assert [str(field.type) for field in table.schema] == [
        {"string": "string", "int64": "int64", "float64": "double", "bool": "bool"}[kind] for _, kind, _ in SCHEMA]
    with open(out / "deals.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == list(COLUMNS)
    assert len(rows) == table.num_rows == summary["timing"]["deals_played"] > 2   # one row per deal of the matches
    data = table.to_pydict()
    assert set(data["unit"]) == {"match"} and set(data["match_score_a"]) <= {0.0, 0.5, 1.0}
    assert all(p is not None for p in data["points"]) and set(data["finish_order"]) == {None}
    matches = {(r["pair"], r["seating"]) for r in rows}
    assert len(matches) == 2


def test_refereed_tournament_counts_rulings_by_agent(tmp_path):
    out, summary = tournament(tmp_path, "t", "guandan", "--agents", "heuristic,random", "--deals", "6",
                              "--referee", "--infractions", "0.05", "--seed", "5")
    with open(out / "deals.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    counted: dict[str, dict[str, int]] = {}
    for row in rows:
        seats = [row[f"seat{s}"] for s in range(4)]
        for item in filter(None, row["rulings"].split(";")):
            clause, _, side = item.rpartition("@")
            who = "table" if side == "-" else seats[int(side)]
            counted.setdefault(who, {}).setdefault(clause, 0)
            counted[who][clause] += 1
    assert counted and counted == summary["referee"]["rulings_by_agent"]
    assert sum(int(r["rulings_count"]) for r in rows) == sum(sum(c.values()) for c in counted.values())
    assert 'id="referee-plot"' in (out / "report.html").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# Bad input

@pytest.mark.parametrize(("args", "message"), [
    (["guandan", "--agents", "heuristic"], "at least two agents"),
    (["guandan", "--agents", "heuristic,clever"], "unknown agent 'clever'"),
    (["guandan", "--agents", "heuristic,,random"], "an empty name"),
    (["guandan", "--agents", "heuristic,random", "--deals", "7"], "even number"),
    (["guandan", "--agents", "heuristic,random", "--deals", "7", "--duplicate"], "even number"),
    (["guandan", "--agents", "heuristic,random", "--deals", "0"], "must be at least 1"),
    (["guandan", "--agents", "heuristic,random", "--deals", "4", "--matches", "2"], "not allowed with"),
    (["guandan", "--agents", "heuristic,random", "--deals", "4", "--out", "FILE"], "is not a directory"),
    (["guandan", "--agents", "heuristic,random", "--deals", "4", "--out", "nowhere/deeper"], "no such directory"),
    (["guandan", "--agents", "heuristic,random", "--rules", "bogus=1"], "bogus"),
    (["chess", "--agents", "heuristic,random"], "invalid choice"),
])
def test_bad_input_is_a_one_line_error(tmp_path, capsys, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "FILE").write_text("x")
    assert main(["tournament", *args, "--quiet"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and lines[0].startswith("paiju: ")
    assert sorted(os.listdir(tmp_path)) == ["FILE"]   # nothing written


# ---------------------------------------------------------------------------------------------
# The report in headless Chromium

def test_the_report_opens_offline_in_headless_chromium(tmp_path):
    out, summary = tournament(tmp_path, "t", "guandan", "--agents", "heuristic,random,random", "--deals", "4",
                              "--duplicate")
    with chromium_browser() as browser:
        page = browser.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
        page.on("request", lambda request: problems.append(request.url)
                if not request.url.startswith(("file:", "data:")) else None)
        page.goto((out / "report.html").as_uri())
        loaded = page.eval_on_selector_all("img", "imgs => imgs.map(i => i.complete && i.naturalWidth > 0)")
        assert loaded and all(loaded) and len(loaded) == 3
        ratings = page.inner_text("#ratings")
        pairings = page.inner_text("#pairings")
    assert problems == []
    assert [line.split("\t")[0] for line in ratings.splitlines()[1:]] == [r["agent"] for r in summary["ratings"]]
    assert "random vs random#2" in pairings


def test_the_report_fits_a_phone(tmp_path):
    """At 390 px (a phone) nothing is wider than the screen: the tables become one card per row,
    each value beside its heading (issue 29, item 7)."""
    out, summary = tournament(tmp_path, "t", "guandan", "--agents", "heuristic,random,random", "--deals", "4",
                              "--duplicate", "--referee", "--infractions", "0.05")
    with chromium_browser() as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto((out / "report.html").as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        for table in ("#ratings", "#pairings", "#referee"):
            box = page.locator(table).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (table, box)
        shown = page.eval_on_selector("#pairings tbody td:nth-child(4)", "td => getComputedStyle(td, '::before').content")
        assert shown == '"95% interval"'   # the heading shown beside its value
        wide = browser.new_page(viewport={"width": 1280, "height": 900})
        wide.goto((out / "report.html").as_uri())
        assert wide.locator("#pairings thead").is_visible()   # a wide screen keeps the table


def test_entrants_of_the_same_agent_are_said_to_be_clones(tmp_path, capsys):
    out = tmp_path / "c"
    assert main(["tournament", "guandan", "--agents", "random,random,heuristic", "--deals", "4", "--quiet",
                 "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "random vs random#2: the same agent on both sides (clones)" in printed
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert {p["pairing"]: p["clones"] for p in summary["pairings"]} == {
        "random vs random#2": True, "random vs heuristic": False, "random#2 vs heuristic": False}
    if (out / "report.html").exists():
        assert "(clones)" in (out / "report.html").read_text(encoding="utf-8")


def test_intervals_stay_in_the_possible_range_with_few_pairs(tmp_path):
    """A 掼蛋 deal gives at most 3 levels: with two pairs the t interval went to [-0.92, +6.34]."""
    _, summary = tournament(tmp_path, "r", "guandan", "--agents", "heuristic,random", "--deals", "4", "--seed", "1")
    for pairing in summary["pairings"]:
        d, w = pairing["level_diff"], pairing["win_rate"]
        assert -3 <= d["low"] < d["high"] <= 3 and 0 <= w["low"] < w["high"] <= 1, pairing


def test_the_guide_documents_every_column_of_the_table():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[3] / "docs" / "guides" / "agents.md").read_text(encoding="utf-8")
    section = readme.split("## Comparing agents", 1)[1].split("\n## ", 1)[0]
    documented = [line.split("|")[1].strip().strip("`") for line in section.splitlines()
                  if line.startswith("| `")]
    assert documented == list(COLUMNS)


def test_without_the_extra_the_csv_and_summary_are_still_written(tmp_path, monkeypatch, capsys):
    import paiju.tournament.command as command

    out = tmp_path / "t"
    out.mkdir()
    (out / "deals.parquet").write_text("from an earlier run")
    monkeypatch.setattr(command, "_importable", lambda name: name != "pyarrow")
    assert main(["tournament", "guandan", "--agents", "heuristic,random", "--deals", "2", "--quiet",
                 "--out", str(out)]) == 0
    assert sorted(os.listdir(out)) == ["deals.csv", "report.html", "summary.json"]
    assert capsys.readouterr().err == ("paiju: note: no deals.parquet without pyarrow: "
                                       "pip install 'paiju[tournament]'\n")


PLUGIN = '''
class FirstLegal:
    """Always the first legal action (PASS when it may pass)."""

    def __init__(self, rng):
        pass

    def act(self, observation, legal_actions):
        return legal_actions[0]
'''


def test_a_plug_in_agent_enters_a_tournament_and_ogd_play_resolves_it(tmp_path, capsys):
    plugin = tmp_path / "first_legal.py"
    plugin.write_text(PLUGIN, encoding="utf-8")
    spec = f"{plugin}:FirstLegal"
    out = tmp_path / "t"
    assert main(["tournament", "guandan", "--agents", f"heuristic,{spec}", "--deals", "4", "--duplicate", "--quiet",
                 "--out", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert [a["spec"] for a in summary["agents"]] == ["heuristic", spec]
    assert summary["pairings"][0]["deals_played"] == 4
    from paiju.ogd.players import resolve_agent

    assert type(resolve_agent(spec, 0)).__name__ == "PluginAgent"   # agent_specs' wrapper of a plug-in
    capsys.readouterr()
    assert main(["tournament", "guandan", "--agents", f"heuristic,{tmp_path}/nowhere.py:X", "--deals", "2"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
