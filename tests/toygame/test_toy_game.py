"""A third game registers through the registry and runs through the runner, the invariant
checker and the log reader without a line changed outside its own files."""

from __future__ import annotations

import pytest

from enforcement.invariants import InvariantViolation, checker_for
from paiju.games import adapter_for
from tabletop.games import game_names, game_spec
from tabletop.log import LogWriter, make_header, read_log
from tabletop.rng import generator
from tabletop.runner import run
from tests.toygame import game as toy


@pytest.fixture(autouse=True)
def _toy_registered():
    with toy.toy_registered():
        yield


def _play(seed: int, observers=()):
    deal = toy.Deal(seed)
    checker = checker_for("toy")
    agents = [toy.RandomToyAgent(generator(seed, s)) for s in range(toy.SEATING.seats)]
    result = run(deal, checker.watch(deal, agents), [checker, *observers])
    checker.finish(deal, result)
    return deal, result


def test_the_toy_game_is_registered_with_its_one_against_two_seating():
    spec = game_spec("toy")
    assert "toy" in game_names() and spec.seating.sides == ((0,), (1, 2))
    assert [spec.seating.side(s) for s in range(3)] == [0, 1, 1] and spec.seating.partners(1) == (2,)
    assert adapter_for("toy").summarize("deals", [1, 2], ()).title.startswith("toy")


@pytest.mark.parametrize("seed", range(12))
def test_toy_deals_run_under_the_invariant_checker(seed):
    deal, result = _play(seed)
    assert result.side == toy.SEATING.side(result.first_out) and not deal.hands[result.first_out]


def test_the_checker_catches_a_toy_card_that_vanished():
    deal = toy.Deal(3)
    deal.hands[1].pop()
    with pytest.raises(InvariantViolation, match="cards_conserved"):
        checker_for("toy").check_state(deal)


def test_a_toy_log_is_read_with_the_toy_game_s_own_event_classes(tmp_path):
    path = tmp_path / "toy.jsonl"
    with LogWriter(path, make_header("toy", 4, {}, {"unit": "deals", "count": 1})) as writer:
        _play(4, observers=[writer])
    log = read_log(path)
    assert log.game == "toy" and {e.KIND for e in log.events} >= {"toy.dealt", "toy.played", "toy.won"}
    assert [type(e) for e in log.events if e.KIND == "toy.won"] == [toy.Won]


def test_toy_deals_go_through_paiju_simulate_and_replay_check(tmp_path, capsys):
    from paiju.cli import main

    log = tmp_path / "toy.jsonl"
    assert main(["simulate", "toy", "--deals", "30", "--seed", "2", "--agents", "random", "--log", str(log),
                 "--quiet"]) == 0
    assert "toy (one against two): 30 deals" in capsys.readouterr().out
    assert main(["replay", str(log), "--check"]) == 0
    assert "ok:" in capsys.readouterr().out and read_log(log).game == "toy"
    # one agent per side: seat 0 alone against seats 1 and 2
    assert main(["simulate", "toy", "--deals", "2", "--agents", "random,random", "--quiet"]) == 0


def test_a_toy_table_effect_is_carried_out_logged_decoded_checked_and_worded(tmp_path):
    """A game-only table effect (the toy's SkipTurn) lives in the toy's files alone: a ruling
    listing it is carried out by the toy's handler, logged, read back from the log to the
    same ruling, matched by the invariant against the event that carried it out, and said
    in both languages."""
    from enforcement.carried_out import log_mismatches
    from paiju.wording import EFFECT_TERMS, effect_zh
    from paiju.wording import effect_words
    from tabletop.log import LogWriter
    from tabletop.rulings import Ruling, ruling_from_event
    from tests.toygame.effects import SkipTurn

    path = tmp_path / "toy.jsonl"
    deal = toy.Deal(5)
    ruling = Ruling(clause="TOY-1", answers=0, offender=0, effects=(SkipTurn(0),))
    with LogWriter(path, make_header("toy", 5, {}, {"unit": "deals", "count": 1})) as writer:
        writer.write(deal.take_events())
        assert deal.turn == 0
        events = deal.apply(ruling)
        writer.write(events)
    assert [e.KIND for e in events] == ["ref.ruling", "toy.skipped"] and deal.turn == 1
    log = read_log(path)
    logged = next(e for e in log.events if e.KIND == "ref.ruling")
    assert ruling_from_event(logged) == ruling
    assert log_mismatches("toy", log.events) == []
    # an effect listed but never carried out is found
    assert log_mismatches("toy", [e for e in log.events if e.KIND != "toy.skipped"])
    assert effect_words("toy", SkipTurn(0).to_dict()) == "跳过 seat 0 loses its turn"
    assert effect_zh(SkipTurn(2).to_dict()) == "跳过一轮：2号位本轮不得出牌"
    assert EFFECT_TERMS.get("SkipTurn") == ("跳过一轮", "a turn skipped")
