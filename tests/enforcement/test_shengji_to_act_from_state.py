"""Who acts at a refereed 双升 table is computed from the state (issue 27 item 4): the
referee's seat while a ruling is awaited, the chooser while a choice is open, else the seat
whose turn it is (``deal.turn``), which a wait leaves as it is; a real deal each time."""

import pytest

from shengji.actions import Choose, Draw, DrawOutOfTurn, Play
from shengji.deal import Phase
from tabletop.refereed import Resume, ResumeSteps
from tabletop.seats import REFEREE
from tests.enforcement.shengji_refereed import SjTable, cards
from tests.enforcement.test_shengji_referee_draw import drawn

HANDS = ["S6 S6 S9 C3 D3", "S7 S8 S8 C4 H3", "SA SQ C6 D4 D6", "S3 S4 C7 D7 DA"]


def test_SJ_3_1_10_the_referee_acts_while_an_out_of_turn_lead_awaits_its_ruling():
    t = SjTable(HANDS)
    deal = t.deal
    events = deal.apply(Play(1, cards("C4")))          # seat 0 leads; seat 1 leads out of turn
    assert deal.phase is Phase.AWAITING_RULING and deal.to_act is REFEREE and deal.turn == 0
    assert list(deal.legal_actions()) == []
    t._deliver(events + deal.take_events())            # the referee rules
    assert deal.phase is Phase.PLAY and deal.to_act == 0 == deal.turn
    assert not deal.trick and t.exposed(1) == ["C4"]


def test_SJ_1_10_the_chooser_acts_while_a_choice_is_open_then_the_table_goes_on():
    t = drawn({0: "S3"})
    t.do(Draw(0, extra_by=1, of=2, count=1, at=0))     # seat 1 takes the card due to seat 2
    t.draw_on()
    deal = t.deal
    assert deal.phase is not Phase.AWAITING_RULING and deal.table.choice is not None
    assert deal.to_act == 2 and deal.turn != 2          # the choice, not the turn, says who acts
    t.do(Choose(2, "decline"))
    assert deal.to_act == 1 and deal.table.choice.purpose == "hand_over"
    t.do(Choose(1, t.legal()[0].option))
    assert deal.table.choice is None and deal.to_act == deal.turn


def test_SJ_1_10_a_choice_carries_a_typed_step_and_plain_data_only():
    """The step that carries a choice out is a ``Resume`` record naming a registered step,
    not a function in the choice's data; declined, the hand-over choice names its own."""
    t = drawn({0: "S3"})
    t.do(Draw(0, extra_by=1, of=2, count=1, at=0))     # seat 1 takes the card due to seat 2
    t.draw_on()
    choice = t.deal.table.choice
    assert choice.then == Resume("remedy_chosen")
    assert {"source": 1, "to": 2, "count": 1}.items() <= choice.data.items()
    assert not any(callable(v) for v in choice.data.values())
    t.do(Choose(2, "decline"))
    choice = t.deal.table.choice
    assert choice.purpose == "hand_over" and choice.then == Resume("handed_over")
    assert not any(callable(v) for v in choice.data.values())


def test_SJ_1_1_the_wait_holds_a_typed_resume_step_and_the_draw_goes_on_after_the_ruling():
    t = drawn({0: "S3"})
    deal = t.deal
    t.do(DrawOutOfTurn(2, after=0))                    # latent: it happens when the draw gets there
    events = deal.apply(Draw(0))
    assert deal.phase is Phase.AWAITING_RULING and deal.to_act is REFEREE
    assert deal.table.then == Resume("draw_on") and deal.turn == 0    # seat 0, whose card seat 2 took
    t._deliver(events + deal.take_events())            # the referee rules: Return, RestoreOrder
    assert deal.table.then is None and deal.phase is Phase.DRAW
    assert "S3" in t.hand(0) and deal.to_act == deal.turn


def test_a_resume_step_is_registered_once_by_its_name():
    steps = ResumeSteps()
    pending = steps.register(list.clear)
    assert pending == Resume("clear")
    seen = [1, 2]
    steps.resume(seen, pending)
    steps.resume(seen, None)
    assert seen == []
    with pytest.raises(AssertionError, match="registered twice"):
        steps.register(list.clear)
