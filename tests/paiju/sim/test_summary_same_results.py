"""The terminal summary and the ``--summary`` JSON hold the same results (issue 14, item 4):
for every registered game (and the toy game of the tests), deals and matches, refereed or
not, every row printed is in the JSON with the value its text shows, and every result in
the JSON (but the per-unit lists) is a printed row."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest

import paiju.sim.command as sim_command
from tests.toygame.game import toy_registered
from paiju.cli import main
from paiju.games import adapter_for
from paiju.summary import Summary
from tabletop.games import game_names

# Short matches: a fixed number of deals or a deal limit (the summary's rows are the same).
SHORT_MATCHES = {"guandan": ["--rules", "match_end=deals", "--rules", "match_deals=3"],
                 "shengji": ["--rules", "max_deals=3"]}
REFEREED = {"guandan", "shengji"}


def _cases() -> list[tuple[str, str, bool]]:
    cases = []
    for game in sorted(set(game_names()) | {"toy"}):
        for unit in ("deals", "matches"):
            for refereed in (False, True):
                if refereed and game not in REFEREED:
                    continue
                cases.append((game, unit, refereed))
    return cases


@pytest.fixture(autouse=True)
def _toy_registered():
    with toy_registered():
        yield


def _numbers(text: str) -> list[float]:
    return [float(n) for n in re.findall(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])", text)]


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    return [value]


def _flat(value: Any, prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    """Every leaf (a number, text, list or null) by its path of keys."""
    if isinstance(value, dict) and value:
        return {path: leaf for key, v in value.items() for path, leaf in _flat(v, prefix + (key,)).items()}
    return {prefix: value}


@pytest.mark.parametrize("game, unit, refereed", _cases())
def test_terminal_and_json_summaries_hold_the_same_results(tmp_path, capsys, monkeypatch, game, unit, refereed):
    monkeypatch.setenv("COLUMNS", "400")   # one line per row
    shown: list[Summary] = []
    printed = sim_command.print_summary
    monkeypatch.setattr(sim_command, "print_summary", lambda summary, *a, **k: (shown.append(summary),
                                                                                printed(summary, *a, **k)))
    path = tmp_path / "summary.json"
    argv = ["simulate", game, f"--{unit}", "2", "--seed", "3", "--summary", str(path), "--quiet"]
    argv += SHORT_MATCHES.get(game, []) if unit == "matches" else []
    argv += ["--infractions", "0.03"] if refereed else []
    assert main(argv) == 0
    out = capsys.readouterr().out
    results = json.loads(path.read_text(encoding="utf-8"))["results"]
    (summary,) = shown
    assert results[unit] == 2 and summary.count == 2

    lines = [line.rstrip() for line in out.splitlines()]
    headings = [s.heading for s in summary.sections]
    assert [line for line in lines if line in headings] == headings, out
    printed: dict[str, list[tuple[str, str]]] = {}   # heading → (label, text) of each table row under it
    for line in lines:
        if line in headings:
            heading = line
        elif row := re.fullmatch(r"  (\S.*?) {2,}(\S.*)", line):
            printed.setdefault(heading, []).append(row.groups())
    from_rows: dict[tuple[str, ...], Any] = {(unit,): summary.count}
    for section in summary.sections:
        expected = [(row.label, row.text) for row in section.rows] or [("-", section.empty)]
        assert printed[section.heading] == expected, section.heading
        place: Any = results
        for key in section.key.split("."):
            place = place[key]
        inner = {other.key.split(".")[-1] for other in summary.sections if other.key.startswith(section.key + ".")}
        assert set(place) - inner == {row.key for row in section.rows}, section.key
        if not section.rows and not inner:
            from_rows[tuple(section.key.split("."))] = {}
        for row in section.rows:
            assert place[row.key] == row.value
            from_rows.update(_flat(row.value, tuple(section.key.split(".")) + (row.key,)))
            shown_numbers = _numbers(row.text)
            for leaf in _leaves(row.value):   # every count in the JSON is a number printed
                if isinstance(leaf, int) and not isinstance(leaf, bool):
                    assert float(leaf) in shown_numbers, (row.label, row.value, row.text)
    # nothing in the JSON that is not printed, but the per-unit lists behind the spreads
    results.pop("per_unit", None)
    assert _flat(results) == from_rows


def _names(rows) -> Counter:
    return Counter(row.key for row in rows)


def test_every_way_a_match_ends_has_a_row_even_one_the_summary_does_not_know():
    from shengji.match import MatchResult

    lost = [MatchResult(winner=1, how="match_loss", levels=("2", "3"), deals=0, results=()),
            MatchResult(winner=0, how="held_a", levels=("A", "5"), deals=0, results=()),
            MatchResult(winner=None, how="a_new_way", levels=("2", "2"), deals=0, results=())]
    summary = adapter_for("shengji").summarize("matches", lost, ("random",) * 4)
    ended = summary.data["ended"]
    assert ended == {"held_a": 1, "max_deals": 0, "match_loss": 1, "a_new_way": 1}
    assert summary.data["wins_by_agents"] == {"random&random beat random&random": 2}


def test_deals_mode_json_holds_the_wins_per_side(tmp_path):
    for game in ("guandan", "shengji"):
        path = tmp_path / f"{game}.json"
        assert main(["simulate", game, "--deals", "4", "--seed", "1", "--summary", str(path), "--quiet",
                     "--agents", "heuristic,random"]) == 0
        by_side = json.loads(path.read_text(encoding="utf-8"))["results"]["by_side"]
        assert set(by_side) == {"side0", "side1"}
        wins = "won" if game == "guandan" else "went_up"
        assert all(isinstance(by_side[s][wins], int) and by_side[s]["levels_gained"] >= 0 for s in by_side)
        if game == "guandan":
            assert by_side["side0"]["won"] + by_side["side1"]["won"] == 4
