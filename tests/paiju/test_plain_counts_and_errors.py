"""Summaries and messages say what happened plainly (issue 29, item 8): a 掼蛋 match run shows
its final levels and 级差分; a count of one is never plural ("1 pairs") nor hedged
("situation(s)"); an error about a file is one line in words, never "[Errno 21] …"."""

from __future__ import annotations

import json
import re
import tokenize
from pathlib import Path

import pytest

from paiju.cli import main
from paiju.summary import counted

PAIJU = Path(__file__).resolve().parents[2] / "paiju"
MATCHES = ["simulate", "guandan", "--matches", "3", "--rules", "match_end=deals", "--rules", "match_deals=4",
           "--seed", "2", "--quiet"]


def test_a_guandan_match_run_shows_final_levels_and_the_match_score(tmp_path, capsys):
    assert main([*MATCHES, "--summary", str(tmp_path / "s.json")]) == 0
    out = capsys.readouterr().out
    results = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))["results"]
    final = results["final"]
    per_unit = results["per_unit"]
    for i in range(3):
        levels, scores = per_unit["final_levels"][i], per_unit["scores"][i]
        assert final[f"match{i}"] == {"levels": levels, "scores": scores}
        assert (f"levels {levels[0]} / {levels[1]}, 级差分 {scores[0]:+d} / {scores[1]:+d}") in out
    for t in (0, 1):
        total = sum(s[t] for s in per_unit["scores"])
        assert final[f"side{t}"]["score_total"] == total
        assert f"级差分 {total:+d} in all" in out
    assert "final levels and 级差分 (match score)" in out


@pytest.mark.parametrize(("n", "noun", "text"), [(1, "deal", "1 deal"), (2, "match", "2 matches"),
                                                 (1, "irregularity", "1 irregularity"),
                                                 (3, "irregularity", "3 irregularities"), (2, "day", "2 days")])
def test_counted_says_one_and_many(n, noun, text):
    assert counted(n, noun) == text


def test_a_tournament_of_one_pair_says_one_pair(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "t"
    assert main(["tournament", "guandan", "--agents", "heuristic,random", "--deals", "2", "--quiet",
                 "--out", str(out)]) == 0
    report = (out / "report.html").read_text(encoding="utf-8")
    assert "(1 pair)" in report and "1 pairs" not in report


def test_no_message_hedges_its_plural():
    """'3 situation(s)', '1 time(s)': the code knows the count, so it says the word."""
    hedged = []
    for path in PAIJU.rglob("*.py"):
        with open(path, encoding="utf-8") as source:
            for token in tokenize.generate_tokens(source.readline):
                if token.type == tokenize.STRING and re.search(r"[a-z]\(s\)", re.sub(r"\{[^{}]*\}", "", token.string)):
                    hedged.append(f"{path.relative_to(PAIJU.parent)}:{token.start[0]}: {token.string[:70]}")
    assert hedged == []


def test_an_error_about_a_file_is_plain_words(tmp_path, capsys):
    directory = tmp_path / "a-directory"
    directory.mkdir()
    (tmp_path / "camp" / "state.json").mkdir(parents=True)
    for argv in (["replay", str(directory)], ["replay", str(directory), "--check"], ["fuzz", "--repro", str(directory)],
                 ["fuzz", "--game", "guandan", "--deals", "2", "--quiet", "--campaign", str(tmp_path / "camp")]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("paiju: error: ") and "Errno" not in err, (argv, err)
        assert "directory" in err.lower(), err
