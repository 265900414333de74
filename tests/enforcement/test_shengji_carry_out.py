"""A 双升 ruling is data and the engine carries it out (issue 12 item 1): the rulings list
effects and sanctions only, ``Deal.carry_out`` / ``Match.carry_out`` interpret them through
one handler per kind (``shengji.table.EFFECT_HANDLERS``, ``SANCTION_HANDLERS``).

- the handler table covers every effect kind a 双升 clause allows;
- a log's rulings, carried out from their logged data alone (no rulebook referee: the
  logged ``ref.ruling`` is re-emitted and its rectification and sanctions handed to
  ``engine.carry_out``), reproduce the log byte for byte — the golden logs and fuzz-like
  units that reach every ruling family;
- an effect the table cannot carry out is refused with the reason (``RulingRefused``, an
  ``IllegalAction``), unknown kinds before anything changes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from enforcement.rulebook import RULEBOOK
from tabletop.effects import Expose, PlayStands, RandomDraw, Redeal, Replay, Return
from guandan.refereed.effects import BarOnePlay
from shengji.refereed.effects import Choice, LotsDraw, RedoBury
from paiju.sim.refereed import play_unit, unit_options
from paiju.games import adapter_for
from shengji.actions import Play
from shengji.table import EFFECT_HANDLERS, SANCTION_HANDLERS
from tabletop.errors import IllegalAction, RulingRefused
from tabletop.log import read_log
from tests.enforcement.logged_rulings import check_with_logged_rulings
from tests.enforcement.shengji_refereed import SjTable

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
HANDS = ["S6 S6 S9 C3 D3", "S7 S8 S8 C4 H3", "SA SQ C6 D4 D6", "S3 S4 C7 D7 DA"]
KINDS = ("miscount", "wrong_bury_count", "lead_before_burial", "wrong_follow", "revoke", "extra_card",
         "draw_out_of_turn", "banker_drew_kitty", "simultaneous_declaration", "exposed_card",
         "lead_out_of_turn", "lead_before_trick_complete", "play_before_turn", "incident")


def test_the_handler_table_covers_every_effect_kind_a_shengji_clause_allows():
    allowed = set().union(*(c.allowed_effects for c in RULEBOOK.values() if c.game == "shengji"))
    assert allowed and allowed <= set(EFFECT_HANDLERS), sorted(allowed - set(EFFECT_HANDLERS))
    assert all(callable(h) for h in EFFECT_HANDLERS.values())
    # every sanction a 双升 clause's ladder can impose has its row (None: recorded only)
    ladders = {s.KIND for c in RULEBOOK.values() if c.game == "shengji" for step in c.sanction.steps for s in step}
    assert ladders <= set(SANCTION_HANDLERS) and "MatchLoss" in SANCTION_HANDLERS


# ---------------------------------------------------------------------------------------------
# Carrying out the logged rulings reproduces the log


@pytest.mark.parametrize("name", sorted(p.name for p in GOLDEN.glob("golden_shengji_*.jsonl")))
def test_the_golden_logs_rulings_carried_out_from_their_data_reproduce_the_log(name, monkeypatch):
    carried = check_with_logged_rulings(read_log(GOLDEN / name))
    assert len(carried) >= 10


def test_every_ruling_family_carried_out_from_its_logged_data_reproduces_the_log(tmp_path, monkeypatch):
    game = adapter_for("shengji")
    rates = {**{k: 0.02 for k in KINDS}, "miscount": 0.3, "banker_drew_kitty": 0.3,
             "simultaneous_declaration": 0.5, "revoke": 0.1, "wrong_bury_count": 0.3}
    carried: list[str] = []
    # seed 52: partners who declared at the same moment settle it themselves (DeclarationStands),
    # rare since the heuristic declares only with length
    for seed in (*range(6), 52):
        text = play_unit("shengji", seed, game.rules_from_dict({"max_deals": 2}),
                         unit_options("matches", ["heuristic", "random", "heuristic", "random"], rates)).text()
        path = tmp_path / f"unit{seed}.jsonl"
        path.write_text(text)
        carried += check_with_logged_rulings(read_log(path))
    seen = set(carried)
    for kind in ("Return", "Expose", "RestoreOrder", "CorrectFollow", "Replay", "RedoBury", "Choice", "LotsDraw",
                 "DeclarationStands", "PlayStands", "LoseDeclarationRight", "(none)"):
        assert kind in seen, f"{kind} never carried out ({sorted(seen)})"


# ---------------------------------------------------------------------------------------------
# Refusals


def _awaiting_out_of_turn_lead() -> SjTable:
    """Seat 1 leads out of turn; nobody rules (a referee seat left empty)."""
    t = SjTable(HANDS)
    t.referee = None
    t.do(Play(1, t.deal.hand(1)[:1]))
    assert t.deal.awaiting_ruling and t.deal.table.on_table == {1: [t.deal.table.on_table[1][0]]}
    return t


def test_an_effect_of_a_kind_shengji_does_not_know_is_refused_before_anything_changes():
    t = _awaiting_out_of_turn_lead()
    laid = [str(c) for c in t.deal.table.on_table[1]]
    before = t.deal.stream.next_seq
    with pytest.raises(RulingRefused, match="BarOnePlay: not a table effect 双升 carries out"):
        t.deal.carry_out((Return(laid, 1), BarOnePlay(1)), (), reason="SJ-3.1.10.2", answers=t.deal.awaiting_ruling[0].answers)
    assert t.deal.stream.next_seq == before and t.deal.table.on_table[1] and t.deal.awaiting_ruling


def test_returning_cards_that_do_not_lie_on_the_table_is_refused_with_the_reason():
    t = _awaiting_out_of_turn_lead()
    answers = t.deal.awaiting_ruling[0].answers
    with pytest.raises(RulingRefused, match=r"Return\(DA, seat=1\): seat 1 has not got these cards"):
        t.deal.carry_out((Return(["DA"], 1),), (), reason="SJ-3.1.10.2", answers=answers)
    assert issubclass(RulingRefused, IllegalAction)


@pytest.mark.parametrize("effect, why", [
    (RedoBury(1), "has no burial of this deal to redo"),
    (Redeal(), "not while a ruling is awaited"),
    (Replay([2]), "taken back with the Return of the wrong follow"),
    (PlayStands(2), "no cards of seat 2 lie on the table"),
    (LotsDraw([0, 2], 0), "no simultaneous declarations await this ruling"),
    (Choice(2, (Redeal(),)), "no 双升 choice offers redeal"),
    (RandomDraw(1, 1), "from one seat's hand to another seat"),
    (Expose(["DA"], 1), "does not hold these cards unexposed"),
])
def test_an_effect_the_table_cannot_carry_out_is_refused_with_the_reason(effect, why):
    t = _awaiting_out_of_turn_lead()
    with pytest.raises(RulingRefused, match=why):
        t.deal.carry_out((effect,), (), reason="SJ-3.0", answers=t.deal.awaiting_ruling[0].answers)


def test_a_ruling_on_nothing_awaited_is_refused():
    t = _awaiting_out_of_turn_lead()
    with pytest.raises(RulingRefused, match="no ruling is awaited on event 99999"):
        t.deal.carry_out((), (), reason="SJ-3.0", answers=99999)


def test_a_ruling_carried_out_by_hand_puts_the_table_right():
    """Anyone may hand the table a ruling: the same data the rulebook referee gives."""
    t = _awaiting_out_of_turn_lead()
    deal = t.deal
    laid = [str(c) for c in deal.table.on_table[1]]
    answers = deal.awaiting_ruling[0].answers
    deal.carry_out((Return(laid, 1), Expose(laid, 1)), (), reason="SJ-3.1.10.2", answers=answers)
    assert not deal.awaiting_ruling and deal.to_act == 0 and t.exposed(1) == sorted(laid)
