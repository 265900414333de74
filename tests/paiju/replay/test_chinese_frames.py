"""The trainer's frames in Chinese first lose nothing (issue 28): every note, flag, result,
pile note and ruling fact the English frame shows is shown in Chinese too — the same items, in
the referee's terms — on the golden refereed logs and every scenario of the kept bank; and a
real 夹带 (GD-2.4.3) ruling card names the extra cards and what the rest was played as."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import pytest

from paiju.replay.chinese import fact_list_zh, reading_zh
from paiju.replay.html import page_data
from paiju.replay.table import shown_texts
from paiju.replay.view import open_log
from paiju.train.web.bank import ScenarioBank
from paiju.wording import cards_words, fact_list
from tests.paiju.replay.test_chinese_steps import CJK, _english

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
REFEREED = sorted(GOLDEN.glob("golden_*_refereed_*.jsonl"))


def _states(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each frame's whole view, merged from the deltas as the page merges them."""
    def merge(old: Any, new: Any) -> Any:
        if not isinstance(new, dict) or not isinstance(old, (dict, list)):
            return new
        out: Any = dict(old) if isinstance(old, dict) else list(old)
        for key, value in new.items():
            if isinstance(out, list):
                index = int(key)
                if index < len(out):
                    out[index] = merge(out[index], value)
                else:
                    out.append(value)
            else:
                out[key] = merge(out.get(key), value)
        return out
    states, state = [], {}
    for frame in data["frames"]:
        state = merge(state, frame["x"])
        states.append(state)
    return states


def _items(state: dict[str, Any]) -> int:
    """How many notes, flags, results … a frame shows (its rulings' facts counted apart)."""
    return len(shown_texts(state))


@functools.cache
def _in_english(text: str) -> bool:
    """``_english`` of one text, remembered: the same notes and flags are shown frame after frame."""
    return bool(_english([text]))


def _check(log: Any, hide_judgement: bool) -> tuple[int, int]:
    """Compare the English and the Chinese page of ``log``; (items shown, facts shown)."""
    english = page_data(log, hide_judgement=hide_judgement)
    chinese = page_data(log, hide_judgement=hide_judgement, chinese=True)
    assert "rulingsZh" not in english and all("zh" not in f["x"] and "z" not in f for f in english["frames"])
    items = facts = 0
    zh_rulings = chinese["rulingsZh"]
    for en, zh in zip(_states(english), _states(chinese), strict=True):
        said = zh.pop("zh", {}) or {}
        assert en == {k: v for k, v in zh.items()}        # the same table, the same items
        shown = shown_texts(en)
        items += len(shown)
        words = [said.get(text) for text in shown]
        assert all(words), [t for t, w in zip(shown, words) if not w]    # nothing dropped for lack of Chinese
        assert [w for w in words if w and _in_english(w)] == []
        for ruling in en["rulings"]:
            if not ruling["facts"]:
                continue
            card = zh_rulings[f"{ruling['seq']} {ruling['clause']}"]
            assert card["facts"] and CJK.search(card["facts"]) and not _in_english(card["facts"])
            facts += 1
    for frame in chinese["frames"]:
        assert CJK.search(frame["z"]) and not _in_english(frame["z"])
    return items, facts


@pytest.mark.parametrize("path", REFEREED, ids=lambda p: p.stem)
def test_every_frame_of_a_refereed_log_shows_in_chinese_what_it_shows_in_english(path: Path) -> None:
    items, facts = _check(open_log(str(path)), hide_judgement=False)
    assert items > 500 and facts > 0


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_every_frame_of_the_kept_scenarios_shows_in_chinese_what_it_shows_in_english(
        game: str, kept_scenarios: ScenarioBank) -> None:
    bank = kept_scenarios
    ids = bank.ids(game)
    assert len(ids) > 50
    total = facts = 0
    for k, sid in enumerate(ids):
        scenario = bank.get(sid)
        assert scenario is not None
        # the trainee's table (the referee's findings hidden) and the situation replayed after the answer,
        # by turns (the log holds the view's frames: the scenario is cut from it)
        shown, with_facts = _check(scenario.log, hide_judgement=k % 2 == 0)
        total += shown
        facts += with_facts
    assert total > 10 * len(ids) and facts >= len(ids) // 2


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_each_rulings_facts_are_the_same_items_in_chinese(game: str, kept_scenarios: ScenarioBank) -> None:
    bank = kept_scenarios
    seen = 0
    for sid in bank.ids(game):
        scenario = bank.get(sid)
        assert scenario is not None
        for event in scenario.log.events:
            facts = getattr(event, "facts", ())
            if not facts:
                continue
            anchor = getattr(event, "offender", event.seat)
            for hide in (False, True):
                english = fact_list(game, facts, anchor, hide)
                chinese = fact_list_zh(game, facts, anchor, hide)
                assert len(chinese) == len(english), (english, chinese)
                assert all(CJK.search(x) for x in chinese) and _english(chinese) == []
            seen += 1
    assert seen > 50


def test_GD_2_4_3_the_chinese_ruling_card_names_the_extra_cards_and_what_the_rest_was_played_as(
        kept_scenarios: ScenarioBank) -> None:
    """夹带 in real deals (the kept bank's GD-2.4.3 scenarios): the card in Chinese says 多出的牌
    with the very cards the ruling found, and the rest's 牌型."""
    bank = kept_scenarios
    ids = bank.for_clause("guandan", "GD-2.4.3")
    assert len(ids) >= 5
    for sid in ids:
        scenario = bank.get(sid)
        assert scenario is not None
        ruling = scenario.log.events[scenario.ruling_index]
        facts = dict(ruling.facts)
        assert facts["extra"] and facts["reading"]
        card = page_data(scenario.log, chinese=True)["rulingsZh"][f"{ruling.seq} GD-2.4.3"]
        assert f"多出的牌：{cards_words(facts['extra'])}" in card["facts"]
        assert f"牌型：{reading_zh('guandan', facts['reading'])}" in card["facts"]
        assert re.search(r"牌：[♠♥♣♦大小]", card["facts"])
        assert "收回牌张" in " ".join(card["rectification"])


def test_GD_2_4_3_in_the_browser_the_chinese_frame_shows_the_facts_and_as_many_notes_and_flags(
        tmp_path: Path, kept_scenarios: ScenarioBank) -> None:
    """The page as Chromium draws it, at the 夹带 ruling of a real deal: the Chinese ruling card
    says 事实：多出的牌 …, and the notes, flags and the pile's note number as many as in English."""
    from paiju.replay.html import render_page
    from tests.paiju.chromium import chromium_browser

    bank = kept_scenarios
    scenario = bank.get(bank.for_clause("guandan", "GD-2.4.3")[0])
    assert scenario is not None
    ruling = scenario.log.events[scenario.ruling_index]
    path = tmp_path / "page.html"
    path.write_text(render_page(scenario.log, chinese=True), encoding="utf-8")
    counted = "#notes-list > *, .seat .badge.flag, .seat .badge.role, #pile-title .note"
    with chromium_browser() as browser:
        page = browser.new_page()
        shown = {}
        for lang in ("", "?lang=en"):
            page.goto(f"{path.as_uri()}{lang}#{ruling.seq}")
            page.locator("#ruling-list .ruling.current").wait_for()
            shown[lang] = (page.inner_text("#ruling-list .ruling.current"), page.locator(counted).count())
    (zh, zh_items), (en, en_items) = shown[""], shown["?lang=en"]
    facts = dict(ruling.facts)
    said = next(line for line in zh.splitlines() if line.startswith("事实："))
    assert f"多出的牌：{cards_words(facts['extra'])}" in said and f"牌型：{reading_zh('guandan', facts['reading'])}" in said
    assert "facts 事实:" in en
    assert zh_items == en_items > 0
