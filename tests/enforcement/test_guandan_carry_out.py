"""A 掼蛋 ruling is data and the engine carries it out (issue 12 item 1): the rulings list
effects and sanctions only, ``Deal.carry_out`` / ``Match.carry_out`` interpret them through
one handler per kind (``guandan.table.EFFECT_HANDLERS``, ``SANCTION_HANDLERS``).

- the handler table covers every effect kind a 掼蛋 clause allows, and every sanction a
  掼蛋 ladder can impose;
- a log's rulings, carried out from their logged data alone (no rulebook referee: the
  logged ``ref.ruling`` is re-emitted and its rectification and sanctions handed to
  ``engine.carry_out``), reproduce the log byte for byte — the golden logs and seeded
  refereed matches that reach every ruling family;
- an effect the table cannot carry out is refused with the reason (``RulingRefused``, an
  ``IllegalAction``), unknown kinds before anything changes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from enforcement.injector import GUANDAN_KINDS
from enforcement.rulebook import RULEBOOK
from tabletop.effects import Expose, PlayStands, RandomDraw, Redeal, Replay, RestoreOrder, Return
from guandan.refereed.effects import (
    BarOnePlay, CorrectPlay, LeadOption, NoTributeNextDeal, PassSequence, PenaltyCards, UnauthorisedInformation,
)
from shengji.refereed.effects import LotsDraw
from guandan.actions import CallReferee
from guandan.table import EFFECT_HANDLERS, SANCTION_HANDLERS
from paiju.games import adapter_for
from paiju.sim.refereed import play_unit, unit_options
from tabletop.errors import IllegalAction, RulingRefused
from tabletop.log import read_log
from tests.enforcement.conftest import RefTable
from tests.enforcement.logged_rulings import check_with_logged_rulings

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
OOT_HANDS = ["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"]


def test_the_handler_table_covers_every_effect_kind_a_guandan_clause_allows():
    allowed = set().union(*(c.allowed_effects for c in RULEBOOK.values() if c.game == "guandan"))
    assert allowed and allowed <= set(EFFECT_HANDLERS), sorted(allowed - set(EFFECT_HANDLERS))
    assert all(callable(h) for h in EFFECT_HANDLERS.values())
    # every sanction a 掼蛋 clause's ladder can impose has its row (None: recorded only)
    ladders = {s.KIND for c in RULEBOOK.values() if c.game == "guandan" for step in c.sanction.steps for s in step}
    assert ladders <= set(SANCTION_HANDLERS)
    for kind in ("LevelDiffPenalty", "ForcedLast", "ForcedDoubleLast"):
        assert callable(SANCTION_HANDLERS[kind])


# ---------------------------------------------------------------------------------------------
# Carrying out the logged rulings reproduces the log


@pytest.mark.parametrize("name", sorted(p.name for p in GOLDEN.glob("golden_guandan_*refereed*.jsonl")))
def test_the_golden_logs_rulings_carried_out_from_their_data_reproduce_the_log(name, monkeypatch):
    carried = check_with_logged_rulings(read_log(GOLDEN / name))
    assert len(carried) >= 10


def test_every_ruling_family_carried_out_from_its_logged_data_reproduces_the_log(tmp_path, monkeypatch):
    game = adapter_for("guandan")
    rates = {**{k: 0.03 for k in GUANDAN_KINDS}, "report_missing": 0.3, "report_wrong": 0.2,
             "wrong_tribute": 0.3, "wrong_return": 0.3, "draw_out_of_turn": 0.05, "draw_slip": 0.05}
    carried: list[str] = []
    # seed 26: a wrong tribute noticed at once and redone (RedoTribute), rare in three deals;
    # which seeds give one depends on the agents
    for seed in (*range(6), 26):
        text = play_unit("guandan", seed, game.rules_from_dict({"max_deals": 3}),
                         unit_options("matches", ["heuristic", "random", "heuristic", "random"], rates)).text()
        path = tmp_path / f"unit{seed}.jsonl"
        path.write_text(text)
        carried += check_with_logged_rulings(read_log(path))
    seen = set(carried)
    for kind in ("Return", "Expose", "LeadOption", "PenaltyCards", "BarOnePlay", "RestoreOrder", "CorrectPlay",
                 "ReportAgain", "Replay", "PassSequence", "UnauthorisedInformation", "RedoTribute", "RedoReturn",
                 "NoTributeNextDeal", "NextDealProcedure", "(none)",
                 "LevelDiffPenalty", "ForcedLast", "ForcedDoubleLast"):
        assert kind in seen, f"{kind} never carried out ({sorted(seen)})"


def test_the_draws_rulings_carried_out_from_their_logged_data_reproduce_the_log(tmp_path, monkeypatch):
    """Redeals (a short deck: a fresh one) and GD-1.2.1's 双下 with the shuffler the
    ruling drew by lot (its NextDealProcedure)."""
    game = adapter_for("guandan")
    rates = {"draw_out_of_turn": 0.3, "draw_slip": 0.3}
    carried: list[str] = []
    for unit, seed in (("deals", 2), ("matches", 0), ("matches", 4)):
        text = play_unit("guandan", seed, game.rules_from_dict({"max_deals": 2}),
                         unit_options(unit, ["random"] * 4, rates)).text()
        path = tmp_path / f"{unit}{seed}.jsonl"
        path.write_text(text)
        carried += check_with_logged_rulings(read_log(path))
    for kind in ("Return", "RestoreOrder", "Redeal", "NextDealProcedure", "ForcedDoubleLast"):
        assert kind in carried, f"{kind} never carried out ({sorted(set(carried))})"


# ---------------------------------------------------------------------------------------------
# Refusals


def _awaiting_out_of_turn_play() -> tuple[RefTable, int]:
    """Seat 2 plays out of turn, seat 3 calls the referee; nobody rules (the seat left empty)."""
    t = RefTable(OOT_HANDS)
    t.referee = None
    t.play(0, "S3", "SINGLE 3")
    t.play(2, "H9 C9", "PAIR 9")
    t.do(CallReferee(3))
    deal = t.deal
    assert deal.table.awaiting and sorted(map(str, deal.table.on_table[2])) == ["C9", "H9"]
    return t, deal.table.awaiting[0].answers


def test_an_effect_of_a_kind_guandan_does_not_know_is_refused_before_anything_changes():
    t, answers = _awaiting_out_of_turn_play()
    deal = t.deal
    before = deal.stream.next_seq
    with pytest.raises(RulingRefused, match="LotsDraw: not a table effect 掼蛋 carries out"):
        deal.carry_out((Return(["H9", "C9"], 2), LotsDraw([0, 2], 0)), (), reason="GD-2.3.1", answers=answers)
    assert deal.stream.next_seq == before and deal.table.on_table[2] and deal.table.awaiting


def test_returning_cards_that_do_not_lie_on_the_table_is_refused_with_the_reason():
    t, answers = _awaiting_out_of_turn_play()
    with pytest.raises(RulingRefused, match=r"Return\(HK, seat=2\): seat 2 has not got these cards lying"):
        t.deal.carry_out((Return(["HK"], 2),), (), reason="GD-2.3.1", answers=answers)
    assert issubclass(RulingRefused, IllegalAction)


@pytest.mark.parametrize("effect, why", [
    (LeadOption(1, 0, "PAIR"), "carried out with the Expose of its cards"),
    (PenaltyCards(["HK"], 2), "carried out with the Expose of its cards"),
    (Expose(["S8"], 2), "does not hold these cards unexposed"),
    (RandomDraw(2, 1), "carried out during the draw"),
    (CorrectPlay(2, unused="penalty"), "names no attempt's cards to correct"),
    (CorrectPlay(2, unused="penalty", cards=["SA", "SA"]), "does not hold the attempt's cards"),
    (PlayStands(1), "no cards of seat 1 lie on the table"),
    (Replay([3], chooser=3, purpose="replay"), "no unreported play awaits this ruling"),
    (UnauthorisedInformation([0]), "names no seat the information came from"),
    (PassSequence(2, (3, 0, 1), "offender_leads"), None),
    (BarOnePlay(2, scope="round"), None),
])
def test_an_effect_the_table_cannot_carry_out_is_refused_with_the_reason(effect, why):
    t, answers = _awaiting_out_of_turn_play()
    if why is None:  # carried out: these the table can do here
        t.deal.carry_out((effect,), (), reason="GD-0", answers=answers)
        return
    with pytest.raises(RulingRefused, match=why):
        t.deal.carry_out((effect,), (), reason="GD-0", answers=answers)


def test_a_redeal_of_explicit_hands_and_a_ruling_on_nothing_awaited_are_refused():
    t, answers = _awaiting_out_of_turn_play()
    with pytest.raises(RulingRefused, match="cannot be redealt"):
        t.deal.carry_out((Redeal(),), (), reason="GD-1.2.2", answers=answers)
    with pytest.raises(RulingRefused, match="no ruling is awaited on event 99999"):
        t.deal.carry_out((NoTributeNextDeal(2),), (), reason="GD-0", answers=99999)


def test_a_ruling_carried_out_by_hand_puts_the_table_right():
    """Anyone may hand the table a ruling: the same data the rulebook referee gives — here
    GD-2.3.1 with penalty cards instead of the lead option. The table carries the effects
    out in the order listed: the log's order is the ruling's."""
    t, answers = _awaiting_out_of_turn_play()
    deal = t.deal
    deal.carry_out((Return(["H9", "C9"], 2), RestoreOrder(1), BarOnePlay(2), Expose(["H9", "C9"], 2),
                    PenaltyCards(["H9", "C9"], 2)), (), reason="GD-2.3.1", answers=answers)
    assert not deal.table.awaiting and deal.to_act == 1 and 2 in deal.table.bars
    assert sorted(map(str, deal.observe(0).penalty[2])) == ["C9", "H9"]
    kinds = [e.KIND for e in deal.stream.take()]
    assert kinds.index("table.returned") < kinds.index("table.turn_restored") < kinds.index("table.barred") \
        < kinds.index("table.exposed")


def test_a_ruling_listing_penalty_cards_before_their_exposure_is_refused_before_they_change():
    """The referee decides the order, the table follows it: penalty cards listed before the
    Expose of their cards cannot be carried out, and the table says so."""
    t, answers = _awaiting_out_of_turn_play()
    with pytest.raises(RulingRefused, match="listed before it"):
        t.deal.carry_out((Return(["H9", "C9"], 2), PenaltyCards(["H9", "C9"], 2), Expose(["H9", "C9"], 2)), (),
                         reason="GD-2.3.1", answers=answers)
    assert t.deal.table.awaiting
