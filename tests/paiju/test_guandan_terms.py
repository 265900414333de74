"""The 掼蛋 irregularities are named by the seed's own terms in every view (issue 26 item 6):
the replay's IRREGULAR line, the trainer's question and the fuzzer's holes report say
越序表态 for an announcement out of turn (GD-2.2), never 报牌 (a count report, GD-4)."""

from __future__ import annotations

import re

import pytest

from enforcement.rulebook import clauses_for
from guandan.actions import Announce
from paiju.fuzz.holes import situation_words
from paiju.fuzz.interactions import Situation
from enforcement.guandan_irregularities import IRREGULARITIES
from paiju.replay.guandan_words import CONDITIONS
from paiju.wording import irregularity_words
from tests.enforcement.conftest import RefTable

NOT_IN_THE_SEED = {"pass_on_lead", "incident", "retract_play"}
"""Irregularities the seed has no name for (GD-2.4.4 says 合法的打出牌张不得收回, a rule, not a name)."""
ASIDE = re.compile(r"（[^（）]*）")


@pytest.mark.parametrize("irregularity", sorted(set(IRREGULARITIES) - NOT_IN_THE_SEED))
def test_each_irregularity_is_called_by_its_clauses_own_term(irregularity: str) -> None:
    """The Chinese term of each irregularity is in the seed text of the clause it triggers."""
    term = IRREGULARITIES[irregularity].zh
    clauses = [c for c in clauses_for("guandan") if f"irregularity:{irregularity}" in c.trigger.keys]
    assert clauses, irregularity
    assert any(term in ASIDE.sub("", c.text_zh) for c in clauses), (irregularity, term, [c.id for c in clauses])


def test_GD_2_2_an_announcement_out_of_turn_is_越序表态_in_the_replay_and_the_holes_report() -> None:
    t = RefTable(["S3 D6 D8 SK", "HT C5 S4 S9 H7", "S5 D7 CA HA", "S6 C8 DQ H9 HQ"])
    t.play(0, "S3", "SINGLE 3")
    t.do(Announce(3, "pass"))                                   # seat 1 is to act: seat 3 says 'pass'
    irregular, = t.of("gd.irregular")
    assert t.ruling().clause == "GD-2.2.1"
    said = irregularity_words("guandan", irregular.irregularity)
    assert said == "announces 'pass' or 'I beat it' out of turn 越序表态"
    en, zh = situation_words("guandan", Situation(irregular.irregularity, ("bar_pending",), "play"))
    assert en == ("Irregularity “announces 'pass' or 'I beat it' out of turn” during the play, with in force: "
                  "a bar pending (a seat barred from its next play).")
    assert zh == "出牌阶段发生“越序表态”，同时禁出一手待执行。"
    assert "报牌" not in zh


def test_the_holes_reports_conditions_use_the_seeds_terms() -> None:
    zh = "".join(z for _, z in CONDITIONS.values())
    for wrong in ("罚牌", "亮出的牌", "出牌顺序错误", "末游", "首出"):
        assert wrong not in zh
    _, said = situation_words("guandan", Situation("play_out_of_turn", ("penalty_cards_held", "exposed_cards"), "play"))
    assert said == "出牌阶段发生“越序出牌”，同时持有罚张；桌面有暴露张。"


def test_paiju_rules_says_sanctions_by_the_referees_terms(capsys) -> None:
    from paiju.cli import main

    from enforcement.listing import rules_table
    from paiju.rules_cmd import said

    rows = {clause_id: sanction for clause_id, _, sanction in rules_table("guandan", said)}   # what the table shows
    assert rows["GD-1.1.3b"] == "扣 1 个级差分 (1 level off its score)"
    assert rows["GD-1.2.1"] == "判双下 scored 1-2 for the other side"
    assert rows["GD-2.1"] == ("1st: 警告 warning; 2nd: 扣 1 个级差分 (1 level off its score); 3rd+: 扣 2 个级差分 "
                              "(2 levels off its score) (per player, per match)")
    assert not any(re.search(r"LevelDiffPenalty|ForcedDoubleLast|ForcedLast|\bWarning\b", r) for r in rows.values())
    assert main(["rules", "guandan"]) == 0
    assert "LevelDiffPenalty" not in capsys.readouterr().out
    assert main(["rules", "guandan", "GD-4.2.5"]) == 0
    ladder = capsys.readouterr().out.split("sanction:", 1)[1]
    assert re.sub(r"\s+", " ", ladder).startswith(" 判单下 placed last 判双下 (double last) for the side instead when "
                                                  "the partner has not gone out")
    assert main(["rules", "shengji", "SJ-3.1.2"]) == 0
    assert "罚分 10 (10 points to the other side)" in capsys.readouterr().out
