"""A seat judged 单下 (placed last) plays no more: each bar it still owes ends then, and the log
says so (``table.bar_ended``, how 'judged_last', before ``gd.placed_last``), so a reader of the
log alone (the checker, a replay, a trainee) knows the bar is gone."""

import pytest

from enforcement.invariants import InvariantViolation, checker_for
from guandan.actions import Announce, CallReferee, Play
from guandan.refereed import placing
from paiju.replay.chinese import step_zh
from paiju.replay.guandan import BAR_ENDS
from paiju.train.web.ruling import TraineeAnswer
from tabletop.cards import parse_cards
from tabletop.games import game_spec
from tests.enforcement.test_guandan_human_ruling import human_referee

place_last = placing.place_last

HANDS = ["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"]


def barred_then_judged_last(table, watch=None):
    """Seat 2 plays out of turn and is barred (GD-2.3.1, the rulebook's ruling); then it
    announces out of turn and a referee judges it last (单下) for that. ``watch(engine,
    events)`` sees every batch (the invariant checker)."""
    t = table(HANDS, match=True)
    seen = (lambda events: watch(t.engine, events)) if watch is not None else (lambda events: None)
    seen(list(t.events))
    seat = human_referee(t, TraineeAnswer("GD-2.5", (), ("ForcedLast",)))
    seat.at = 2                                         # the second ruling is the referee's own
    seen(t.play(0, "S3", "SINGLE 3"))
    seen(t.do(Play(2, parse_cards("H9 C9"), "PAIR 9")))
    seen(t.do(CallReferee(3)))
    assert t.rulings()[-1].clause == "GD-2.3.1" and t.deal.table.bars == {2: ["next_turn"]}
    events = t.do(Announce(2, "pass"))
    seen(events)
    return t, events


def test_GD_2_3_1_a_barred_seat_judged_last_has_its_bar_end_in_the_log(table):
    t, events = barred_then_judged_last(table)
    kinds = [(e.KIND, e.seat, getattr(e, "how", None)) for e in events]
    ended = kinds.index(("table.bar_ended", 2, "judged_last"))
    assert kinds[ended + 1][:2] == ("gd.placed_last", 2)
    assert t.deal.table.bars == {} and 2 in t.deal.table.placed_last
    view = game_spec("guandan").table_view(t.engine)
    assert view.seats[2].bars == ()


def test_GD_2_3_1_the_bar_that_ends_with_a_judgement_is_told_in_both_languages(table):
    _, events = barred_then_judged_last(table)
    e = next(e for e in events if e.KIND == "table.bar_ended")
    assert BAR_ENDS["judged_last"] == ": the seat is judged 单下 (placed last) and plays no more"
    assert step_zh("guandan", e).endswith("的禁出一手结束（已判单下，不再出牌）")


def test_GD_2_3_1_the_checker_passes_the_logged_end_and_catches_a_silent_one(table, monkeypatch):
    t, _ = barred_then_judged_last(table, checker_for("guandan").on_events)
    assert 2 in t.deal.table.placed_last

    def silent(deal, seat, reason):         # the bars dropped with no event, as before
        deal.table.bars.pop(seat, None)
        return place_last(deal, seat, reason)

    monkeypatch.setattr(placing, "place_last", silent)
    with pytest.raises(InvariantViolation, match=r"\[barred_silent\] seat 2 is judged last with its bars"):
        barred_then_judged_last(table, checker_for("guandan").on_events)
