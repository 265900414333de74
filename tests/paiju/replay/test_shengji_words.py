"""The 双升 words a trainee reads (issue 26), in the real output of `paiju replay` (terminal
and --html) of refereed matches: the seed's own terms (跟错, 抢出, 抢跟, 重罚张, 成绩单未签名,
重新抓牌) first, English beside; the miscount's facts as a seat and a count; minutes late only
for lateness; the second 10 of SJ-3.1.10.4 / SJ-3.1.11.3 under SJ-3.1.3; an SJ-3.1.7 redeal
said to be the ruling's, not "nobody declared".

Two short matches (two deals each) with raised infraction rates: seed 25 holds an SJ-3.1.7
redeal and heavy cards led / followed out of turn on the own side's trick, seed 29 an
SJ-1.15 report; both hold miscounts, lateness, other reports and wrong follows."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from paiju.cli import main
from paiju.games import adapter_for
from paiju.sim.refereed import play_unit, unit_options

SEEDS = (25, 29)
RATES = {"miscount": 0.5, "incident": 0.03, "lead_out_of_turn": 0.03, "play_before_turn": 0.03,
         "wrong_follow": 0.03, "revoke": 0.02}
BOX = re.compile(r"\s*[┃│]?\s*\n\s*[┃│]?\s*|\s*[┃│]\s*")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[list[dict], str, str]]:
    """Per seed: the log's events (plain data), the terminal replay (lines joined, box
    borders removed) and the HTML page."""
    tmp = tmp_path_factory.mktemp("sj_words")
    rules = adapter_for("shengji").rules_from_dict({"max_deals": 2})
    out = {}
    for seed in SEEDS:
        log = tmp / f"sj{seed}.jsonl"
        log.write_text(play_unit("shengji", seed, rules, unit_options("matches", ["random"] * 4, RATES)).text(),
                       encoding="utf-8")
        events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()[1:]]
        page = tmp / f"sj{seed}.html"
        assert main(["replay", str(log), "--html", str(page)]) == 0
        out[seed] = (events, _terminal(log), page.read_text(encoding="utf-8"))
    return out


def _terminal(log: Path) -> str:
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["replay", str(log)]) == 0
    return BOX.sub(" ", buffer.getvalue())


def facts(event: dict) -> dict:
    return {k: v for k, v in event.get("facts") or ()}


def rulings(events: list[dict], *clauses: str) -> list[dict]:
    return [e for e in events if e["kind"] == "ref.ruling" and e["clause"] in clauses]


def test_SJ_1_10_and_SJ_3_1_7_miscount_facts_are_the_seat_short_and_the_count(runs):
    for events, text, html in runs.values():
        found = rulings(events, "SJ-1.10", "SJ-3.1.7")
        assert found
        for r in found:
            f = facts(r)
            short, size = f["short"], f["size"]
            assert 0 <= short < 4 and size >= 1 and short != f["taker"]
            assert re.search(rf"drew too few 少抓方: seat {short}\b", text)
            assert f"cards too many / too few 多抓少抓张数: {size}" in text
        for page in (text, html):
            assert "cards short" not in page and "应有张数" not in page
        assert "cards per side 各方张数: side 0 (seats 0&2) " in text


def test_SJ_1_2_minutes_late_only_where_a_side_was_late(runs):
    for events, text, html in runs.values():
        reports = [facts(e) for e in events if e["kind"] == "sj.irregular" and e["irregularity"] == "incident"]
        assert any(r["incident"] == "late" for r in reports) and any(r["incident"] != "late" for r in reports)
        for r in reports:
            assert ("minutes" in r) == (r["incident"] == "late")
            if r["incident"] == "late":
                assert r["minutes"] > 0
        assert "迟到分钟: 0" not in text and "迟到分钟: 0" not in html
        assert re.search(r"incident 事件: 迟到 late; minutes late 迟到分钟: [1-9]", text)


def test_SJ_1_15_is_the_scoresheet_not_signed(runs):
    events, text, html = runs[29]
    assert rulings(events, "SJ-1.15")
    for page in (text, html):
        assert "成绩单未签名（未签字） the scoresheet not signed" in page and "暗号" not in page
        assert "reported: scoresheet not signed" in page and "reported: signing" not in page


def test_SJ_3_1_12_a_wrong_follow_is_跟错(runs):
    for events, text, html in runs.values():
        assert any(e["kind"] == "sj.irregular" and e["irregularity"] == "wrong_follow" for e in events)
        for page in (text, html):
            assert "follows wrongly 跟错" in page and "垫牌" not in page


def test_SJ_3_1_10_4_and_SJ_3_1_11_3_the_second_ten_is_SJ_3_1_3s(runs):
    events, text, _ = runs[25]
    found = rulings(events, "SJ-3.1.10.4", "SJ-3.1.11.3")
    assert found
    for r in found:
        assert [row["clause"] for row in r["sanctions"]] == [r["clause"], "SJ-3.1.3"]
        seat = r["offender"]
        assert (f"seat {seat}: 罚分 10 (10 points to the other side) [{r['clause']}]; "
                f"seat {seat}: 罚分 10 (10 points to the other side) [SJ-3.1.3]") in text
    assert "heavy penalty cards 重罚张" in text and "抢" in text


def test_SJ_3_1_7_a_redeal_the_ruling_chose_is_not_nobody_declared(runs):
    events, text, html = runs[25]
    assert any(e["kind"] == "sj.redeal" and e["reason"] == "SJ-3.1.7" for e in events)
    for page in (text, html):
        assert "重新抓牌 redeal by the ruling under SJ-3.1.7" in page
        assert not re.search(r"nobody declared[^\n]*SJ-3\.1\.7", page)
