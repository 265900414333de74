"""Interactions between 掼蛋 rulings that `paiju fuzz` found broken (each was a real bug,
fixed with these tests): several forced places in one deal (GD-5.1 twice; GD-5.1 then
GD-5.2), the next deal after both sides were judged 单下, and a bar meeting an out-of-turn
play (GD-2.2 with GD-2.3.1)."""

from guandan.actions import Announce, CallReferee, Draw, Pass, Play, Report
from guandan.deal import Deal
from tabletop.cards import parse_cards
from tabletop.events import EventStream


def test_GD_5_1_the_seat_judged_last_first_stays_下游():
    # Seats 3 then 2 are judged 下游 while 0 and 1 still play; 0 goes out, which ends the deal:
    # 3 (judged first) is 下游, 2 (judged later) 三游 — a 1-3 finish (+2), not a 1-4.
    deal = Deal.from_hands(["S3", "S4 S5", "S6 S9", "S7 S8"], "2", 0, stream=EventStream(), mode="refereed")
    deal.place_last(3, "GD-4.2.4")
    deal.place_last(2, "GD-4.2.4")
    deal.apply(Play(0, parse_cards("S3"), "SINGLE 3"))
    assert deal.result.finish_order == (0, 1, 2, 3)
    assert (deal.result.team, deal.result.levels) == (0, 2)


def test_GD_5_2_double_last_keeps_the_place_of_a_seat_that_went_out(table, sanction_kinds):
    # Seat 3 goes out first (上游); seat 0 then goes out unreported with its partner still
    # playing: 双下 for side 0 — side 1 takes 上游 and 二游, seat 3 keeping 上游.
    t = table(["S6 S8", "S3 S4 H9", "ST SJ CK", "S5"], leader=3, match=True)
    t.play(3, "S5", "SINGLE 5")                       # seat 3 goes out: 上游
    t.play(0, "S6", "SINGLE 6", report=False)
    t.do(Report(0, None, discovered=5))
    t.do(Pass(1))
    t.do(Pass(2))                                     # seat 0 leads again
    r = t.ruling(t.play(0, "S8", "SINGLE 8"))         # … and goes out, unreported
    assert (r.clause, r.offender) == ("GD-4.2.5", 0) and sanction_kinds(r) == ["ForcedDoubleLast"]
    record = t.engine.records[-1]
    assert record.finish_order == (3, 1, 0, 2) and (record.team, record.gain) == (1, 3)


def test_GD_5_1_both_sides_judged_last_no_tribute_next_deal(table, sanction_kinds):
    t = table(["S3 C5 D5", "S4 S6 H8 C9", "CA", "S5 D7 DT HQ"], match=True)
    t.play(0, "S3", "SINGLE 3", report=False)
    t.do(Report(0, None, discovered=5))
    t.do(Pass(1))
    t.play(2, "CA", "SINGLE A")                       # seat 2 goes out: 上游
    t.do(Pass(3))
    t.do(Pass(0))
    t.do(Pass(1))                                     # 接风: seat 0 leads
    r = t.ruling(t.play(0, "C5 D5", "PAIR 5"))        # out unreported, partner out: 单下 (team 0)
    assert (r.clause, sanction_kinds(r)) == ("GD-4.2.5", ["ForcedLast"])
    t.do(Pass(1))
    t.do(Pass(3))
    t.play(1, "S4", "SINGLE 4", report=False)
    t.do(Report(1, None, discovered=4))
    t.play(3, "S5", "SINGLE 5")
    t.play(1, "S6", "SINGLE 6")                       # the first further play goes through
    t.play(3, "D7", "SINGLE 7")
    r = t.ruling(t.play(1, "H8", "SINGLE 8"))         # the second: 单下 (team 1)
    assert (r.clause, sanction_kinds(r)) == ("GD-4.2.4", ["ForcedLast"])
    record = t.engine.records[-1]
    assert record.finish_order == (2, 3, 1, 0)        # seat 0 judged first: 下游
    assert t.of("gd.next_deal_scheduled")[-1].no_tribute_seats == (0, 1)  # GD-5.1 per seat
    # the 下游 (seat 0) owes the single tribute and is excused: no tribute at all
    t.do(Draw(t.to_act))                              # deal 2: the draw, then no tribute
    deal2 = [e.KIND for e in t.events if e.deal == 2]
    assert "gd.tribute_waived" in deal2 and "gd.tribute_due" not in deal2


def test_GD_2_3_1_a_barred_seat_passing_on_an_out_of_turn_play_keeps_its_bar(table):
    # Seat 1 is barred (GD-2.2); seat 0 plays out of turn, so seat 1 answers it — barred, it
    # may only call the referee or pass. A pass is no 跟牌: the play is taken back (GD-2.3.1),
    # the pass is void, and seat 1's bar is still to be served in the restored order.
    t = table(["S5 S6 S7", "S3 S4 D9 DT", "S8 S9 C3", "H3 H4 HK"], leader=3)
    t.do(Announce(1, "pass"))
    t.play(0, "S5", "SINGLE 5")                       # out of turn: seat 3 was to lead
    assert t.legal() == [CallReferee(1), Pass(1)]
    out = t.do(Pass(1))
    assert t.ruling(out).clause == "GD-2.3.1" and not t.of("table.bar_ended", out)
    assert t.to_act == 3 and t.deal.table.bars == {1: ["round"], 0: ["next_turn"]}
    out = t.play(3, "H3", "SINGLE 3")                 # seat 3 leads as it should have
    assert [e.seat for e in t.of("table.barred_pass", out)] == [0, 1]   # each serves its own bar
    assert t.to_act == 2 and not t.deal.table.bars
