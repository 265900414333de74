"""The trainer as a trainee meets it (issue 14 item 10), driven through the real CLI: the
prompt does not give the ruling away (no referee's findings such as 'followed' or the
severity), `?` lists the commands, `deal` scrolls the whole deal so far, `rules` looks the
rulebook up by id or words, and a verdict line says why an answer was wrong."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def paiju(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "paiju.cli", *map(str, argv)], capture_output=True, text=True,
                          input=stdin, encoding="utf-8", timeout=300)


def test_commands_deal_and_rulebook_lookup_from_inside() -> None:
    given = "?\nrules out of turn\nrules GD-2.3.1\nrules zzzz\ndeal\nquit\n"
    done = paiju("train", "--seed", "4", "--count", "1", "--clauses", "GD-2.3.1", stdin=given)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Commands (anything else is read as your ruling):" in out
    for command in ("deal ", "table ", "rules WORDS|ID", "skip", "quit"):
        assert f"\n  {command}" in out
    assert "clauses say 'out of turn':" in out and "    GD-2.3.2 Out-of-turn play followed: it stands" in out
    assert "  GD-2.3.1 Out-of-turn play taken back; lead option\n" in out and "违规者收回牌张" not in out.split("rules GD-2.3.1")[0]
    assert "no 掼蛋 (Guandan) clause says 'zzzz'" in out
    # the whole deal: from its first step, which the table view (the last few steps) does not show
    before, after = out.split("Your ruling> deal", 1)
    assert "   1   deal 1 at level 2" not in before and "   1   deal 1 at level 2" in after
    assert "   2   seat " in after and "shuffles the 108 cards" in after


def test_the_prompt_keeps_the_referees_findings_back(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for game, deals in (("guandan", "1"), ("shengji", "4")):
        done = paiju("simulate", game, "--deals", deals, "--seed", "3" if game == "guandan" else "7", "--referee",
                     "--infractions", "0.1" if game == "shengji" else "0.05", "--log", logs / f"{game}.jsonl",
                     "--quiet")
        assert done.returncode == 0, done.stderr
    for game in ("guandan", "shengji"):
        (tmp_path / game).mkdir()
        (logs / f"{game}.jsonl").rename(tmp_path / game / f"{game}.jsonl")
    guandan = paiju("train", "--from", tmp_path / "guandan", stdin="")
    shengji = paiju("train", "--from", tmp_path / "shengji", stdin="")
    for done in (guandan, shengji):
        assert done.returncode == 0, done.stderr
        prompts = done.stdout
        for finding in ("followed", "下家已跟", "下家未跟", "severity", "情节", "damage 损害", "stage found"):
            assert finding not in prompts, finding
    # the same log in the replay says them (the findings are kept back, not lost)
    shown = paiju("replay", tmp_path / "guandan" / "guandan.jsonl").stdout
    assert "stage found" in shown
    assert "下家应对" in shown        # what the 下家 did about an out-of-turn play (a fact, not a finding)
    assert "情节" in paiju("replay", tmp_path / "shengji" / "shengji.jsonl").stdout


@pytest.mark.parametrize(("answer", "why"), [
    ("GD-9.9", "clause: no clause 'GD-9.9' in the rulebook"),
    ("SJ-1.1", "clause SJ-1.1: a 双升 (Shengji) clause, and this is a 掼蛋 (Guandan) deal"),
    ("GD-2.3.1; teleport", "rectification: unknown rectification 'teleport'"),
    ("GD-2.3.1; ; banana", "sanctions: unknown sanction 'banana'"),
    ("GD-2.3.1; ; a; b", "unreadable answer: "),
])
def test_the_verdict_line_says_why(tmp_path: Path, answer: str, why: str) -> None:
    answers = tmp_path / "answers.txt"
    answers.write_text(answer + "\n", encoding="utf-8")
    done = paiju("train", "--seed", "4", "--count", "1", "--clauses", "GD-2.3.1", "--answers", answers)
    assert done.returncode == 0, done.stderr
    verdict = done.stdout.splitlines()[0]
    assert ": wrong" in verdict or ": partly right" in verdict
    assert why in verdict, verdict
