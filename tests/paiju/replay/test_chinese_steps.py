"""Every step of a replay said in Chinese alone (issue 28: what the trainer shows first): in the
referee's terms, with no English sentence and no code name, on real refereed matches of both
games (the golden logs) and on the trainer's kept scenarios."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from paiju.replay.check import load_log
from paiju.replay.chinese import step_zh
from paiju.replay.fold import Fold
from paiju.train.web.bank import ScenarioBank

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
ENGLISH = re.compile(r"[A-Za-z][A-Za-z'’]*(?:[\s,;:.()/-]+[A-Za-z][A-Za-z'’]*){2,}|\b[a-z]+_[a-z_]+\b"
                     r"|\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b")
CJK = re.compile(r"[\u3400-\u9fff]")


def _english(texts: list[str]) -> list[str]:
    return [t for t in texts if not CJK.search(t) or ENGLISH.search(t.replace("a/b/c", "")) or "牌桌事件" in t]


@pytest.mark.parametrize("name", ["golden_guandan_match_refereed_seed48.jsonl", "golden_shengji_match_refereed_seed10.jsonl"])
def test_every_step_of_a_refereed_match_is_said_in_chinese(name: str) -> None:
    log = load_log(str(GOLDEN / name))[0]
    steps = list(Fold(log).steps())
    assert steps and _english([s.zh for s in steps]) == []
    kinds = {s.kind for s in steps}
    assert "ref.ruling" in kinds


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_every_step_of_the_kept_scenarios_is_said_in_chinese_in_the_referees_terms(
        game: str, kept_scenarios: ScenarioBank) -> None:
    bank = kept_scenarios
    said: list[str] = []
    for sid in bank.ids(game):
        scenario = bank.get(sid)
        assert scenario is not None
        said += [s.zh for s in Fold(scenario.log).steps()]
    assert _english(said) == []
    joined = "\n".join(said)
    for term in ("裁决", "纠正措施", "收回牌张", "恢复出牌顺序", "暴露张", "违例"):
        assert term in joined, term
    if game == "guandan":
        assert "禁出一手" in joined and "领出选择 a/b/c" in joined and "判单下" in joined


def test_GD_2_3_1_the_out_of_turn_play_and_its_ruling_in_chinese() -> None:
    from guandan.actions import Pass
    from tests.enforcement.conftest import RefTable

    t = RefTable(["S3 D6 D8 SK", "HT C5 S4 S9 H7", "S5 D7 CA HA", "S6 C8 DQ H9 HQ"])
    t.play(0, "S3", "SINGLE 3")
    t.play(2, "S5", "SINGLE 5")                                  # seat 1 is to play: seat 2 plays out of turn
    t.do(Pass(3))                                                # its 下家 passes: the play is taken back
    ruling = t.ruling()
    assert ruling.clause == "GD-2.3.1"
    said = step_zh("guandan", ruling)
    assert said.startswith("裁决 二、3（1）（GD-2.3.1），违规方 2号位")
    assert "收回牌张" in said and "恢复出牌顺序" in said and "禁出一手" in said and "领出选择" in said
    irregular, = t.of("gd.irregular")
    assert step_zh("guandan", irregular).startswith("违例：2号位「越序出牌」")
