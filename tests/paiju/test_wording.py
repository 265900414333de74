"""Rulings in a referee's language in every view (issue 14 item 6): the terminal replay, the
HTML replay and the trainer say facts, sanctions, table effects and choices in words (♠A, 下家,
警告, 扣 1 个级差分, the lead option's a/b/c), never as internal data. Real refereed deals from
`paiju simulate` (subprocess) that produce every kind of sanction of both games."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from paiju.wording import choice_words, effect_words, facts_words, imposed_words, sanction_words

INTERNAL = ("followed=", "=True", "=False", "severity=", "LevelDiffPenalty", "PointPenalty", "ForcedLast",
            "RecordedViolation", "lead_option about", "must choose lead_option", "BarOnePlay(", "Return(",
            "CorrectPlay(", "Expose(", "LeadOption(", "exposed_kind", "restricted_seat", "{cards=")
CARD_CODE = re.compile(r"(?<![\w-])(?:[SHCD][2-9TJQKA]|BJ|RJ)(?![\w-])")
RULING_LINES = re.compile(r"IRREGULAR|irregularity found|facts 事实|rectification 纠正|sanctions 处罚|chooses|"
                          r"lead option|UNRESOLVED|The referee ruled|Rectification:|Sanctions:")


def paiju(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "paiju.cli", *map(str, argv)], capture_output=True, text=True,
                          input=stdin, encoding="utf-8", timeout=300)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("worded")
    out = {}
    for game, deals in (("guandan", "12"), ("shengji", "4")):
        log = tmp / game / f"{game}.jsonl"
        log.parent.mkdir()
        done = paiju("simulate", game, "--deals", deals, "--seed", "7", "--referee", "--infractions", "0.1",
                     "--log", log, "--quiet")
        assert done.returncode == 0, done.stderr
        out[game] = log
    return out


def sanction_kinds(log: Path) -> set[str]:
    kinds = set()
    for line in log.read_text(encoding="utf-8").splitlines()[1:]:
        for row in json.loads(line).get("sanctions") or ():
            kinds.add(row["sanction"]["kind"])
    return kinds


def assert_worded(text: str, where: str) -> None:
    for word in INTERNAL:
        assert word not in text, f"{where}: internal spelling {word!r}"
    for line in text.splitlines():
        if RULING_LINES.search(line):
            assert not CARD_CODE.search(line), f"{where}: a card code in {line!r}"


def test_the_deals_produce_every_kind_of_sanction(logs: dict[str, Path]) -> None:
    assert {"Warning", "LevelDiffPenalty", "ForcedLast", "ForcedDoubleLast"} <= sanction_kinds(logs["guandan"])
    assert {"Warning", "RecordedViolation", "PointPenalty"} <= sanction_kinds(logs["shengji"])
    assert "MatchLoss" not in sanction_kinds(logs["shengji"])        # 判负 only from a human referee (SJ-3.2)


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_the_terminal_replay_speaks_a_referees_language(logs: dict[str, Path], game: str) -> None:
    done = paiju("replay", logs[game])
    assert done.returncode == 0, done.stderr
    assert_worded(done.stdout, f"{game} replay")
    out = re.sub(r"\s*[┃│]?\s*\n\s*[┃│]?\s*|\s*[┃│]\s*", " ", done.stdout)
    if game == "guandan":
        assert "扣 1 个级差分 (1 level off its score)" in out
        assert "判单下 placed last" in out and "判双下 scored 1-2 for the other side" in out
        assert "警告 warning" in out
        assert re.search(r"seat \d \((下家|上家|对家)\) chooses how seat \d leads next: a\) forbid 禁出: it may not lead "
                         r"a .+; b\) require 要求出: it must lead a .+; c\) free 自由: it leads as it likes", out)
        assert re.search(r"seat \d \((下家|上家|对家)\) chooses (forbid 禁出|require 要求出|free 自由)", out)
        assert re.search(r"\[[^]]*whose turn it was 应出牌方: seat \d \((下家|上家|对家)\)", out)
    else:
        assert "罚分 10 (10 points to the other side)" in out and "记违例 recorded violation" in out


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_the_html_replay_speaks_a_referees_language(logs: dict[str, Path], game: str, tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    done = paiju("replay", logs[game], "--html", page)
    assert done.returncode == 0, done.stderr
    html = page.read_text(encoding="utf-8")
    for word in INTERNAL:
        assert word not in html, f"{game} page: internal spelling {word!r}"
    assert ("扣 1 个级差分 (1 level off its score)" if game == "guandan" else "罚分 10 (10 points") in html


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_the_trainer_speaks_a_referees_language(logs: dict[str, Path], game: str) -> None:
    answers = "\n".join(["GD-2.3.1", "skip", "SJ-1.1", "deal"] * 3 + ["quit"]) + "\n"
    done = paiju("train", "--from", logs[game].parent, "--count", "6", stdin=answers)
    assert done.returncode == 0, done.stderr
    assert_worded("\n".join(line for line in done.stdout.splitlines() if "e.g. 'GD-2.3.1" not in line),
                  f"{game} trainer")  # the answer format's example names sanctions as answers spell them
    assert "| Sanctions: " in done.stdout


def test_the_words_for_each_kind() -> None:
    facts = (("cards", ("SA", "CA", "CA", "DA")), ("followed", True), ("responder", 1), ("rightful", 3))
    assert facts_words("guandan", facts, anchor=0) == (
        "cards 牌: ♠A ♣A ♣A ♦A; the next seat acted on it 下家已跟; to answer it 应接牌方: seat 1 (下家); "
        "whose turn it was 应出牌方: seat 3 (上家)")
    assert facts_words("guandan", facts, anchor=0, hide_judgement=True).count("下家已跟") == 0
    assert sanction_words({"kind": "LevelDiffPenalty", "n": 1}) == "扣 1 个级差分 (1 level off its score)"
    assert sanction_words({"kind": "PointPenalty", "n": 10}) == "罚分 10 (10 points to the other side)"
    assert [sanction_words({"kind": k}) for k in ("Warning", "RecordedViolation", "ForcedLast", "ForcedDoubleLast")] == [
        "警告 warning", "记违例 recorded violation", "判单下 placed last", "判双下 scored 1-2 for the other side"]
    assert imposed_words({"seat": 2, "side": 0, "clause": "GD-2.1", "sanction": {"kind": "Warning"}}) == (
        "seat 2: 警告 warning [GD-2.1]")
    assert effect_words("guandan", {"kind": "BarOnePlay", "seat": 2, "scope": "round"}, 1) == (
        "禁出一手 seat 2 (下家) is barred: passes its next turn in this round")
    assert effect_words("guandan", {"kind": "Return", "cards": ("S6", "H6"), "seat": 0}) == "收回牌张 seat 0's ♠6 ♥6 taken back"
    assert choice_words("guandan", 2, "lead_option", ("forbid", "require", "free"), 0, "对子 pair") == (
        "seat 2 (对家) chooses how seat 0 leads next: a) forbid 禁出: it may not lead a 对子 pair; "
        "b) require 要求出: it must lead a 对子 pair; c) free 自由: it leads as it likes")
