"""Searching the rulebook by the words a referee uses (issue 26 item 6): the seeds' own terms
and what people also say for them (``paiju.rules_search.SYNONYMS``) — in the trainer's
``rules`` command, `paiju rules GAME WORDS` and the web trainer's clause search."""

from __future__ import annotations

import pytest

from enforcement.rulebook import clauses_for
from paiju.cli import main
from paiju.rules_search import SYNONYMS, also_said, haystack, search
from paiju.train.command import lookup


def ids(game: str, query: str) -> set[str]:
    return {c.id for c in search(game, query)}


def test_GD_2_3_the_tables_word_for_an_out_of_turn_play_finds_the_seeds_term() -> None:
    # the table says 提前出牌; the seed says 越序出牌 (GD-2.3) and 越序（抢先）表态 (GD-2.2)
    assert {"GD-2.2", "GD-2.3", "GD-2.3.1", "GD-2.3.2"} <= ids("guandan", "提前")
    assert {"GD-2.3", "GD-2.3.1", "GD-2.3.2"} == ids("guandan", "提前出牌") == ids("guandan", "抢出")
    assert {"GD-2.3", "GD-2.3.1", "GD-2.3.2"} == ids("guandan", "越序出牌")
    assert "GD-2.2" in ids("guandan", "抢先 表态") and "GD-2.2" not in ids("guandan", "提前出牌")


def test_SJ_out_of_turn_words_find_the_seeds_抢出_and_抢跟() -> None:
    assert ids("shengji", "抢出") and ids("shengji", "抢出") <= ids("shengji", "越序出牌")
    assert ids("shengji", "抢跟") and ids("shengji", "抢跟") <= ids("shengji", "提前跟牌")


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_every_word_of_a_synonym_group_finds_the_clauses_that_say_another(game: str) -> None:
    checked = 0
    for c in clauses_for(game):
        own = f"{c.id} {c.title} {c.summary} {c.text_zh}".lower()
        for group in SYNONYMS:
            said = [w for w in group if w.lower() in own]
            for word in group if said else ():
                assert c in search(game, word), f"{c.id} says {said[0]!r}: {word!r} does not find it"
                checked += 1
    assert checked > 100


def test_also_said_puts_each_other_word_in_the_passage() -> None:
    text = also_said("3 、越序出牌：")
    assert "3 、提前出牌：" in text and "3 、抢出：" in text
    assert also_said("nothing of the sort") == ""


def test_the_trainers_rules_command_finds_提前(capsys) -> None:
    lines = lookup("guandan", "提前出牌")
    assert lines[0] == "3 clauses say '提前出牌':"
    assert "  GD-2.3 Playing out of turn" in lines
    assert lookup("guandan", "报牌顺序错误xyz") == ["no 掼蛋 (Guandan) clause says '报牌顺序错误xyz'"]


def test_paiju_rules_game_words_searches(capsys) -> None:
    assert main(["rules", "guandan", "提前", "出牌"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 clauses say '提前 出牌':")
    assert "  GD-2.3.1 Out-of-turn play taken back; lead option — " in out
    assert main(["rules", "guandan", "GD-2.3"]) == 0                # an id: that clause in full
    assert "3 、越序出牌：" in capsys.readouterr().out


def test_the_web_trainers_search_text_has_the_other_words() -> None:
    assert "提前出牌" in haystack("GD-2.3") and "抢先表态" in haystack("GD-2.2")
