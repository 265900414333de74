"""One record per irregularity id (issue 27 item 6): every irregularity the injector can
commit and every one the referee rules on has exactly one record of its game, with the seed's
term and English words, its stages, and the clauses the rulebook has rule on it; the views,
the trainer and the fuzzer's holes report read their words from it."""

from __future__ import annotations

import re

import pytest

from enforcement import guandan_rulings, shengji_rulings
from enforcement.games import referee_part
from enforcement.injector import catalogue_for
from enforcement.irregularities import Irregularity, irregularities_of, irregularity_of, irregularity_table
from enforcement.rulebook import unresolved_irregularities
from guandan.actions import AskCount, Report
from guandan.table import IRREGULARITIES as GD_IDS
from paiju.fuzz.holes import situation_words
from paiju.fuzz.interactions import Situation
from paiju.wording import irregularity_words
from shengji.table import IRREGULARITIES as SJ_IDS
from tests.enforcement.conftest import RefTable, kinds

ENGINE_IDS = {"guandan": GD_IDS, "shengji": SJ_IDS}
RULINGS = {"guandan": guandan_rulings, "shengji": shengji_rulings}
CJK = re.compile(r"[\u3400-\u9fff]")


@pytest.mark.parametrize("game", ENGINE_IDS)
def test_every_irregularity_the_injector_commits_or_the_referee_rules_on_has_one_record(game: str) -> None:
    records = irregularities_of(game)
    committed = {i for ids in catalogue_for(game).commits.values() for i in ids}
    ruled_on = set(RULINGS[game]._FAMILIES)
    assert committed <= set(records) and ruled_on <= set(records)
    assert list(records) == list(ENGINE_IDS[game])                 # one each, in the engine's order
    assert referee_part(game).irregularities is records
    assert referee_part(game).interactions.irregularities is records   # the fuzzer reads the same


@pytest.mark.parametrize("game", ENGINE_IDS)
def test_each_record_has_words_in_both_languages_stages_and_its_clauses(game: str) -> None:
    stages = set(referee_part(game).interactions.stages)
    unresolved = set(unresolved_irregularities(game))
    for record in irregularities_of(game).values():
        assert isinstance(record, Irregularity) and (record.id, record.game) == (record.id, game)
        assert CJK.search(record.zh) and not re.search(r"[A-Za-z]", record.zh), record
        assert re.fullmatch(r"[A-Za-z' ]+(上家[A-Za-z' ]+)?", record.en) and len(record.en.split()) >= 2, record
        assert set(record.stages) <= stages and all(set(s) <= stages for s in record.found_stages.values())
        assert record.recorded_only == (record.id in unresolved), record.id     # the fallback's ids only
        assert irregularity_of(game, record.id + "/after_first_play") is record


def test_a_table_that_does_not_match_its_game_is_refused() -> None:
    one = Irregularity(id="play_out_of_turn", game="guandan", zh="越序出牌", en="plays out of turn", stages=("play",))
    with pytest.raises(ValueError, match="not one record"):
        irregularity_table("guandan", (one, one))
    with pytest.raises(ValueError, match="no record: .*wrong_kind"):
        irregularity_table("guandan", (one,))
    with pytest.raises(ValueError, match="not one record"):
        irregularity_table("shengji", (one,))


HANDS = ["S3 H4 C5 D6 S8 H9 CT DJ SQ HK D3", "S4 S6 H8 C9", "C7 D8 SJ CA", "S5 D7 DT HQ"]
"""Seat 0 leads from 11 cards: after the lead it holds 10 and must report (GD-4.1)."""


@pytest.mark.parametrize(("action", "term", "wrong"), [
    (Report(0, 10), "反复报牌", "重复报牌"),
    (AskCount(3, 0), "追问余牌", "询问张数"),
])
def test_GD_4_1_reporting_again_and_asking_are_said_by_the_seeds_terms(action, term, wrong) -> None:
    t = RefTable(HANDS)
    t.play(0, "D3", "SINGLE 3")
    events = t.do(action)
    irregular, = t.of("gd.irregular", events)
    ruling = t.ruling(events)
    assert ruling.clause == "GD-4.1" and kinds(ruling) == ["Warning"]
    assert t.to_act == 1                                            # the table goes on: seat 1 to play
    record = irregularity_of("guandan", irregular.irregularity)
    assert record is not None and record.zh == term and record.clauses == ("GD-4.1",)
    assert term in irregularity_words("guandan", irregular.irregularity)
    _, zh = situation_words("guandan", Situation(irregular.irregularity, (), "play"))
    assert term in zh and wrong not in zh
