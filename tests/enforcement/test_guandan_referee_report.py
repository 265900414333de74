"""The referee on reporting (报牌, GD-4): in refereed mode a seat left with 10 cards or fewer
reports as a step of its own; a missing or wrong report comes to light at the GD-4.2 stage
the offender chose (the injector's fact)."""

from guandan.actions import AskCount, Choose, Pass, Report
from guandan.deal import Phase
from tabletop.cards import parse_cards

# seat 0 leads from 11 cards: after the lead it holds 10 and must report
HANDS = ["S3 H4 C5 D6 S8 H9 CT DJ SQ HK D3", "S4 S6 H8 C9", "C7 D8 SJ CA", "S5 D7 DT HQ"]


def cards(text):
    return tuple(parse_cards(text))


def unreported_lead(table, stage, count=None):
    t = table(HANDS, match=True)
    t.play(0, "D3", "SINGLE 3", report=False)
    t.do(Report(0, count, discovered=stage))
    return t


def round_to_the_offender(t):
    t.play(1, "S4", "SINGLE 4")
    t.play(2, "C7", "SINGLE 7")                       # the offender's partner plays on
    return t.do(Pass(3))


def test_report_is_a_step_of_its_own_and_every_seat_sees_it(table):
    t = table(HANDS)
    t.play(0, "D3", "SINGLE 3", report=False)
    assert t.to_act == 0 and t.legal() == [Report(0, 10)]
    assert t.deal.observe(1).situation == "report" and t.deal.observe(1).announced[0] is None
    t.do(Report(0, 10))
    assert t.deal.observe(1).announced[0] == 10 and t.to_act == 1


def test_GD_4_1_reporting_again_unasked_is_a_warning(table, sanction_kinds):
    t = table(HANDS)
    t.play(0, "D3", "SINGLE 3")
    r = t.ruling(t.do(Report(0, 10)))
    assert (r.clause, r.offender) == ("GD-4.1", 0) and sanction_kinds(r) == ["Warning"]
    assert t.to_act == 1


def test_GD_4_1_asking_for_a_count_is_a_warning(table, sanction_kinds):
    t = table(HANDS)
    t.play(0, "D3", "SINGLE 3")
    r = t.ruling(t.do(AskCount(3, 0)))
    assert (r.clause, r.offender) == ("GD-4.1", 3) and sanction_kinds(r) == ["Warning"]


def test_GD_4_2_1_missing_report_before_the_next_player_acts_report_again(table, effect_kinds):
    t = unreported_lead(table, stage=1)
    r = t.rulings()[-1]
    assert (r.clause, r.offender, r.sanctions) == ("GD-4.2.1", 0, ())
    assert effect_kinds(r) == ["ReportAgain"]
    assert t.deal.observe(3).announced[0] == 10 and t.to_act == 1


def test_GD_4_2_1_wrong_report_is_corrected(table):
    t = unreported_lead(table, stage=1, count=12)
    assert t.rulings()[-1].clause == "GD-4.2.1"
    assert t.of("gd.cards_reported")[-1].count == 10 and t.deal.announced[0] == 10


def test_GD_4_2_2_next_player_played_the_other_side_takes_back_and_replays(table, effect_kinds):
    t = unreported_lead(table, stage=2)
    assert not t.rulings()                            # nobody noticed yet
    out = round_to_the_offender(t)                    # the turn comes back to the offender
    r = t.ruling(out)
    assert (r.clause, r.offender, r.sanctions) == ("GD-4.2.2", 0, ())
    assert effect_kinds(r) == ["ReportAgain", "Replay"]    # what the partner takes back is unauthorised: part of Replay
    assert t.deal.announced[0] == 10
    assert t.to_act == 1 and t.deal.observe(1).choice == ("replay", ("take_back", "stand"))
    out = t.do(Choose(1, "take_back"))
    back = t.of("gd.taken_back", out)[0]
    assert back.cards == ((), ("S4",), ("C7",), ())
    deal = t.deal
    assert deal.top.seat == 0 and deal.to_act == 1   # the plays after the offence are undone
    assert deal.played[1] == () and deal.played[2] == ()
    assert deal.observe(3).exposed == ((), (), (), ())   # taken back, not exposed
    flags = deal.observe(0).unauthorised               # the partner's cards: unauthorised to the offender
    assert [(f.source, f.cards) for f in flags] == [(2, cards("C7"))]
    assert deal.observe(1).unauthorised == ()
    assert deal.announced[0] == 10


def test_GD_4_2_2_the_offenders_partner_may_take_back_its_own_play(table):
    t = unreported_lead(table, stage=2)
    round_to_the_offender(t)
    t.do(Choose(1, "stand"))
    assert t.to_act == 2 and t.deal.observe(2).choice == ("partner_replay", ("take_back", "stand"))
    out = t.do(Choose(2, "take_back"))
    taken = t.of("gd.taken_back", out)[0]
    assert taken.cards == ((), (), ("C7",), ())
    assert taken.reason == t.rulings()[-1].clause == "GD-4.2.2"   # the ruling that offered it, cited
    assert t.deal.top.seat == 1 and t.to_act == 2    # seat 1's play stands; seat 2 acts again
    assert [(f.source, f.cards) for f in t.deal.observe(0).unauthorised] == [(2, cards("C7"))]
    assert [f.what for f in t.of("gd.unauthorised", out)] == ["partner took back (GD-4.2.2)"]


def test_GD_4_2_3_offender_played_again_taken_back_exposed_barred_and_the_pass_sequence(table, effect_kinds):
    t = unreported_lead(table, stage=3)
    round_to_the_offender(t)
    r = t.ruling(t.play(0, "S8", "SINGLE 8"))
    assert (r.clause, r.offender) == ("GD-4.2.3", 0)
    assert effect_kinds(r) == ["Return", "Expose", "LeadOption", "BarOnePlay", "ReportAgain", "PassSequence"]
    assert r.rectification[-1] == {"kind": "PassSequence", "offender": 0, "seats": (1, 2, 3), "then": "offender_leads"}
    assert r.rectification[3] == {"kind": "BarOnePlay", "seat": 0, "scope": "next_turn"}
    deal = t.deal
    assert deal.observe(1).exposed[0] == cards("S8") and deal.table.bars == {0: ["next_turn"]}
    assert deal.announced[0] == 10
    # the next player continues (on seat 2's 7) and may pass
    assert t.to_act == 1 and any(type(a) is Pass for a in t.legal())
    t.do(Pass(1))
    # the partner's own play is the top: it has the lead, may pass; as the exposed cards'
    # restricted seat its 下家 (seat 3) chooses first (GD-2.5 → GD-2.3.1)
    assert t.to_act == 3
    t.do(Choose(3, "free"))
    assert t.to_act == 2 and any(type(a) is Pass for a in t.legal())
    t.do(Pass(2))
    assert t.to_act == 3
    out = t.do(Pass(3))                               # all three passed
    assert [(e.seat, e.how) for e in t.of("table.bar_ended", out)] == [(0, "lifted")]
    assert t.to_act == 0 and deal.top is None
    assert t.legal_plays() == [("S8", "SINGLE 8")]    # it leads its exposed cards


def test_GD_4_2_3_if_someone_plays_the_sequence_ends_and_the_bar_holds(table):
    t = unreported_lead(table, stage=3)
    round_to_the_offender(t)
    t.play(0, "S8", "SINGLE 8")
    out = t.play(1, "H8", "SINGLE 8")                 # seat 1 beats the 7
    assert t.deal.table.sequence is None
    t.do(Pass(2))
    out = t.do(Pass(3))
    assert [e.seat for e in t.of("table.barred_pass", out)] == [0]


def test_GD_4_2_4_offender_played_several_times_is_judged_last(table, sanction_kinds):
    t = unreported_lead(table, stage=4)
    round_to_the_offender(t)
    t.play(0, "S8", "SINGLE 8")                       # plays again, still unreported: goes through
    assert not [r for r in t.rulings() if r.clause.startswith("GD-4")]
    assert t.deal.announced[0] is None                # nothing announced since
    t.do(Pass(1))
    t.do(Pass(2))
    t.do(Pass(3))                                     # seat 0 leads again
    r = t.ruling(t.play(0, "H9", "SINGLE 9"))
    assert (r.clause, r.offender) == ("GD-4.2.4", 0) and sanction_kinds(r) == ["ForcedLast"]
    deal = t.deal
    assert deal.observe(1).placed_last == (0,)
    assert sorted(deal.hand(0)) == sorted(cards("S3 H4 C5 D6 H9 CT DJ SQ HK"))   # the play came back
    # the next player continues or takes the lead and may pass; then the partner; then the 上家
    assert t.to_act == 1 and any(type(a) is Pass for a in t.legal())
    t.do(Pass(1))
    assert t.to_act == 2
    t.do(Pass(2))
    assert t.to_act == 3 and not any(type(a) is Pass for a in t.legal())   # the 上家 leads
    scheduled = t.of("gd.next_deal_scheduled")[-1]
    assert scheduled.no_tribute_seats == (0,)         # GD-5.1: the seat judged 单下


def test_GD_4_2_5_offender_went_out_partner_already_out_its_place_stands(table, sanction_kinds):
    t = table(["S3 C5 D5", "S4 S6 H8 C9", "CA", "S5 D7 DT HQ"], match=True)
    t.play(0, "S3", "SINGLE 3", report=False)
    t.do(Report(0, None, discovered=5))
    t.do(Pass(1))
    t.play(2, "CA", "SINGLE A")                       # seat 2 goes out: 上游
    t.do(Pass(3))
    t.do(Pass(0))
    t.do(Pass(1))                                     # 接风: seat 0 leads
    r = t.ruling(t.play(0, "C5 D5", "PAIR 5"))
    assert (r.clause, r.offender) == ("GD-4.2.5", 0) and sanction_kinds(r) == ["ForcedLast"]
    assert t.deal.phase is Phase.PLAY and t.deal.observe(1).placed_last == (0,)
    t.do(Pass(1))                                     # nobody beats the pair …
    t.do(Pass(3))                                     # … the offender is out of play: seat 1 leads
    t.play(1, "S4", "SINGLE 4")
    t.play(3, "S5", "SINGLE 5")
    t.play(1, "S6", "SINGLE 6")
    t.play(3, "D7", "SINGLE 7")
    t.play(1, "H8", "SINGLE 8")
    t.play(3, "DT", "SINGLE T")
    t.do(Pass(1))
    t.play(3, "HQ", "SINGLE Q")                       # seat 3 goes out: 二游
    record = t.engine.records[-1]
    assert record.finish_order == (2, 3, 1, 0)        # the offender last, its partner's place kept
    assert record.team == 0 and record.gain == 1      # a 1-4 finish for the offending side


def test_GD_4_2_5_offender_went_out_partner_still_playing_double_last(table, sanction_kinds):
    t = table(["S3 C5 D5", "S4 S6 H8 C9", "C7 D8 SJ CA", "S5 D7 DT HQ"], match=True)
    t.play(0, "S3", "SINGLE 3", report=False)
    t.do(Report(0, None, discovered=5))
    t.do(Pass(1))
    t.do(Pass(2))
    t.do(Pass(3))
    r = t.ruling(t.play(0, "C5 D5", "PAIR 5"))
    assert (r.clause, r.offender) == ("GD-4.2.5", 0) and sanction_kinds(r) == ["ForcedDoubleLast"]
    record = t.engine.records[-1]
    assert record.team == 1 and record.gain == 3 and record.forced
    assert t.to_act == 2                              # GD-5.2: the offender's partner draws first
    started = t.of("gd.deal_started")[-1]
    assert (started.shuffler, started.cutter, started.first_drawer) == (0, 1, 2)
