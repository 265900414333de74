"""The referee on the play (GD-2) and penalty cards (GD-6): each test drives a real deal from
explicit hands into the situation and checks the ruling and the table afterwards."""

from guandan.actions import (
    Announce, CallReferee, Choose, DropCard, Incident, Pass, Play, PlayWithExtra, Retract,
)
from guandan.deal import Phase
from tabletop.cards import Card, parse_cards
from tabletop.refereed import Resume


def cards(text):
    return tuple(parse_cards(text))


# A table where seat 2 plays out of turn while seat 1 is to act on seat 0's lead.
OOT_HANDS = ["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"]


def out_of_turn_called(table):
    t = table(OOT_HANDS, match=True)
    t.play(0, "S3", "SINGLE 3")
    t.play(2, "H9 C9", "PAIR 9")                     # seat 1 was to act
    return t


def partner_gets_the_lead(t):
    """Play on until seat 0 (the offender's partner) has the lead again."""
    t.play(1, "S6", "SINGLE 6")                      # seat 2's barred turn follows
    t.do(Pass(3))
    t.play(0, "D9", "SINGLE 9")
    t.do(Pass(1))
    t.do(Pass(2))
    t.do(Pass(3))                                    # seat 0 wins the round


# ---------------------------------------------------------------------------------------------
# GD-2.1 manner of play (reported)


def test_GD_2_1_manner_of_play_warning_then_one_then_two_level_differences(table, sanction_kinds):
    t = table(OOT_HANDS, match=True)
    got = []
    for _ in range(3):
        out = t.do(Incident(1, "manner_of_play", note="cards not laid face up in one motion"))
        r = t.ruling(out)
        assert (r.clause, r.offender, r.side) == ("GD-2.1", 1, 1)
        got.append(r.sanctions[0]["sanction"])
    assert got == [{"kind": "Warning"}, {"kind": "LevelDiffPenalty", "n": 1}, {"kind": "LevelDiffPenalty", "n": 2}]
    assert t.engine.penalties == [0, 3]
    assert t.engine.scores == (0, -3)                 # 级差分 after the penalties
    assert t.engine.to_act == 0 and t.deal.phase is Phase.PLAY   # play goes on


# ---------------------------------------------------------------------------------------------
# GD-2.2 announcing out of turn


def test_GD_2_2_1_announcing_pass_out_of_turn_bars_the_next_play_in_this_round(table, effect_kinds):
    t = table(OOT_HANDS)
    t.play(0, "S3", "SINGLE 3")
    r = t.ruling(t.do(Announce(2, "pass")))
    assert (r.clause, r.offender) == ("GD-2.2.1", 2)
    assert effect_kinds(r) == ["BarOnePlay"] and r.sanctions == ()
    assert t.deal.observe(3).barred == (2,)
    out = t.play(1, "S6", "SINGLE 6")
    assert [e.seat for e in t.of("table.barred_pass", out)] == [2]    # the bar is spent by a pass
    assert t.engine.to_act == 3 and 2 not in t.deal.table.bars


def test_GD_2_2_1_a_pass_out_of_turn_is_an_announcement(table):
    t = table(OOT_HANDS)
    t.play(0, "S3", "SINGLE 3")
    r = t.ruling(t.do(Pass(3)))
    assert r.clause == "GD-2.2.1" and r.offender == 3


def test_GD_2_2_2_announcing_beat_out_of_turn_bars_too_and_the_bar_lapses_with_the_round(table):
    t = table(OOT_HANDS)
    t.play(0, "S3", "SINGLE 3")
    r = t.ruling(t.do(Announce(3, "beat")))
    assert (r.clause, r.offender) == ("GD-2.2.2", 3)
    t.play(1, "S6", "SINGLE 6")
    out = t.play(2, "HK", "SINGLE K")
    assert [e.seat for e in t.of("table.barred_pass", out)] == [3]   # its turn came: passed for it
    assert t.engine.to_act == 0


def test_GD_2_2_a_bar_lapses_when_the_round_ends_before_the_turn_comes(table):
    t = table(OOT_HANDS)
    t.play(0, "S3", "SINGLE 3")
    t.play(1, "S6", "SINGLE 6")
    t.do(Announce(1, "pass"))                         # seat 1's next turn would come round again
    t.do(Pass(2))
    t.do(Pass(3))
    out = t.do(Pass(0))                               # round over: seat 1 leads, the bar lapses
    assert [(e.seat, e.how) for e in t.of("table.bar_ended", out)] == [(1, "lapsed")]
    assert t.engine.to_act == 1 and any(type(a) is Play for a in t.legal())


def test_GD_2_2_partner_of_a_barred_seat_still_plays(table):
    t = table(OOT_HANDS)
    t.play(0, "S3", "SINGLE 3")
    t.do(Announce(2, "pass"))
    t.play(1, "S6", "SINGLE 6")
    assert t.engine.to_act == 3
    t.play(3, "S8", "SINGLE 8")
    assert t.engine.to_act == 0 and any(type(a) is Play for a in t.legal())   # seat 2's partner plays


# ---------------------------------------------------------------------------------------------
# GD-2.3 playing out of turn


def test_GD_2_3_1_taken_back_exposed_barred_order_restored(table, effect_kinds):
    t = out_of_turn_called(table)
    assert t.engine.to_act == 3                       # the offender's 下家 answers
    assert type(t.legal()[0]) is CallReferee
    r = t.ruling(t.do(CallReferee(3)))
    assert (r.clause, r.offender, r.side) == ("GD-2.3.1", 2, 0)
    assert effect_kinds(r) == ["Return", "RestoreOrder", "BarOnePlay", "Expose", "LeadOption"]
    assert r.rectification[-1] == {"kind": "LeadOption", "chooser": 1, "restricted_seat": 0, "exposed_kind": "PAIR"}
    assert r.sanctions == ()
    deal = t.deal
    assert deal.to_act == 1                           # order restored
    assert sorted(deal.hand(2)) == sorted(cards("H9 C9 HK"))   # still its own cards
    for seat in range(4):                             # exposed: visible in every seat's observation
        assert deal.observe(seat).exposed[2] == cards("H9 C9")
    out = t.play(1, "S6", "SINGLE 6")
    assert t.of("table.barred_pass", out)[0].seat == 2   # the bar is respected
    assert deal.to_act == 3


def test_GD_2_3_1_lead_option_is_asked_of_the_partners_xiajia_before_the_partner_leads(table):
    t = out_of_turn_called(table)
    t.do(CallReferee(3))
    partner_gets_the_lead(t)
    deal = t.deal
    assert deal.turn == 0 and deal.top is None        # seat 0 has the lead …
    assert deal.to_act == 1                           # … but seat 1 chooses first
    assert [a.option for a in t.legal()] == ["forbid", "require", "free"]
    assert deal.observe(1).choice == ("lead_option", ("forbid", "require", "free"))
    assert deal.observe(0).choice is None
    assert deal.table.choice.then == Resume("lead_option_chosen") and deal.table.choice.data == {}


def test_GD_2_3_1_a_forbid_the_exposed_type_cards_go_back(table):
    t = out_of_turn_called(table)
    t.do(CallReferee(3))
    partner_gets_the_lead(t)
    out = t.do(Choose(1, "forbid"))
    # the table names no clause itself: it cites the one its referee part lists for the answer
    assert [e.reason for e in t.of("table.exposure_lifted", out)] == ["GD-2.3.1: choice a"]
    assert t.engine.to_act == 0
    assert t.legal_plays() == [("C5", "SINGLE 5"), ("SJ", "SINGLE J")]   # no pair of jacks
    assert t.deal.observe(3).exposed[2] == ()          # the exposed cards went back
    assert t.deal.observe(0).restriction == ("forbid", "PAIR")


def test_GD_2_3_1_b_require_the_exposed_type(table):
    t = out_of_turn_called(table)
    t.do(CallReferee(3))
    partner_gets_the_lead(t)
    t.do(Choose(1, "require"))
    assert t.legal_plays() == [("SJ DJ", "PAIR J")]
    r = t.ruling(t.play(0, "C5", "SINGLE 5"))         # a lead against the restriction
    assert r.clause == "GD-2.4.1"


def test_GD_2_3_1_b_require_cannot_be_satisfied_so_the_partner_leads_freely(table):
    t = table(["S3 D9 SJ DK C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"])
    t.play(0, "S3", "SINGLE 3")
    t.play(2, "H9 C9", "PAIR 9")
    t.do(CallReferee(3))
    partner_gets_the_lead(t)
    out = t.do(Choose(1, "require"))
    assert t.of("gd.lead_restricted", out)[0].lapsed
    assert t.legal_plays() == [("C5", "SINGLE 5"), ("DK", "SINGLE K"), ("SJ", "SINGLE J")]


def test_GD_2_3_1_b_refusal_granted_when_only_bombs_satisfy(table):
    t = table(["S3 D9 SJ HJ CJ DJ C5", "S6 S7 C8 H3", "H9 C9 D9 S9 HK", "S8 D8 SQ CQ DA"])
    t.play(0, "S3", "SINGLE 3")
    t.play(2, "H9 C9 D9 S9", "BOMB 4x9")
    t.do(CallReferee(3))
    partner_gets_the_lead(t)
    out = t.do(Choose(1, "require"))
    assert t.of("gd.lead_restricted", out)[0].lapsed  # only a bomb would satisfy it (PD)
    assert ("C5", "SINGLE 5") in t.legal_plays()


def test_GD_2_3_1_c_free_cards_stay_exposed_become_penalty_cards_and_the_choice_comes_again(table):
    t = out_of_turn_called(table)
    t.do(CallReferee(3))
    partner_gets_the_lead(t)
    out = t.do(Choose(1, "free"))
    marked = t.of("table.penalty_cards", out)[0]
    assert marked.cards == ("H9", "C9") and marked.reason == "GD-6: choice c, the exposed cards stay"
    assert t.deal.observe(3).penalty[2] == cards("H9 C9")
    assert ("SJ DJ", "PAIR J") in t.legal_plays()     # free
    t.play(0, "SJ DJ", "PAIR J")                      # the lead is made …
    # … seat 1 passes; seat 2 holds the penalty pair: its first legal opportunity
    t.do(Pass(1))
    assert t.engine.to_act == 2
    assert t.legal_plays() == []                      # a pair of 9s does not beat jacks: pass only
    t.do(Pass(2))
    t.do(Pass(3))                                     # seat 0 wins again: the same opponent chooses again
    assert t.engine.to_act == 1 and t.deal.observe(1).choice[0] == "lead_option"


def test_GD_2_3_1_partner_leading_before_the_choice_is_itself_out_of_turn(table):
    t = out_of_turn_called(table)
    t.do(CallReferee(3))
    partner_gets_the_lead(t)
    assert t.engine.to_act == 1
    t.play(0, "C5", "SINGLE 5")
    assert t.of("gd.irregular")[-1].irregularity == "play_out_of_turn"


def test_GD_2_3_2_next_player_played_on_it_so_it_stands(table, effect_kinds):
    t = table(OOT_HANDS)
    t.play(0, "S3", "SINGLE 3")
    t.play(2, "H9 C9", "PAIR 9")
    out = t.play(3, "SQ CQ", "PAIR Q")                # seat 3 plays on the out-of-turn pair (跟牌)
    found = t.of("gd.found", out)[0]
    assert dict(found.facts)["answer"] == "played_on_it"       # the engine reports it, no clause
    r = t.ruling(out)
    assert (r.clause, r.offender, r.sanctions) == ("GD-2.3.2", 2, ())
    assert effect_kinds(r) == ["PlayStands", "PlayStands"]     # both plays stand as made
    assert [(e.seat, e.cards) for e in t.of("gd.play_stands", out)] == [(2, ("H9", "C9")), (3, ("SQ", "CQ"))]
    deal = t.deal
    assert deal.top.seat == 3 and deal.played[2] == cards("H9 C9") and deal.played[3] == cards("SQ CQ")
    assert deal.to_act == 0 and not deal.table.bars        # no rectification, order from there


def test_GD_2_3_1_a_pass_on_it_is_no_follow_and_is_void(table, effect_kinds):
    t = table(OOT_HANDS)
    t.play(0, "S3", "SINGLE 3")
    t.play(2, "H9 C9", "PAIR 9")                      # seat 1 was to act
    out = t.do(Pass(3))                               # seat 3 passes on it: no 跟牌
    assert dict(t.of("gd.found", out)[0].facts)["answer"] == "passed"
    r = t.ruling(out)
    assert (r.clause, r.offender) == ("GD-2.3.1", 2)
    assert effect_kinds(r) == ["Return", "RestoreOrder", "BarOnePlay", "Expose", "LeadOption"]
    deal = t.deal
    assert deal.top.seat == 0 and deal.passed == []   # the pass was void: nobody has passed
    assert t.engine.to_act == 1 and deal.table.bars == {2: ["next_turn"]}
    t.play(1, "S6", "SINGLE 6")
    t.do(Pass(2))                                     # barred: passes automatically …
    assert t.engine.to_act == 3 and t.of("table.barred_pass")[-1].seat == 2
    assert ("SQ", "SINGLE Q") in t.legal_plays()      # … and seat 3 acts again in order


# ---------------------------------------------------------------------------------------------
# GD-2.4 wrong cards


def test_GD_2_4_1_wrong_type_corrected_unused_cards_exposed(table, effect_kinds):
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8 D8", "H9 C9 HK", "S8 D4 SQ CQ"])
    t.play(0, "S3", "SINGLE 3")
    out = t.play(1, "C8 D8", "PAIR 8")                # a pair on a single
    r = t.ruling(out)
    assert (r.clause, r.offender) == ("GD-2.4.1", 1)
    assert effect_kinds(r) == ["Return", "CorrectPlay"]
    assert t.engine.to_act == 1 and t.deal.observe(1).situation == "correction"
    out = t.play(1, "C8", "SINGLE 8")                 # the correction uses C8
    exposed = t.of("table.exposed", out)
    assert [e.cards for e in exposed] == [("D8",)]    # D8 was not used: exposed
    assert t.deal.observe(0).exposed[1] == cards("D8")
    assert t.of("gd.lead_option", out)[0].restricted == 3   # handled as GD-2.3.1 (GD-2.5)


def test_GD_2_4_1_leading_no_combination_is_a_wrong_type_unused_cards_become_penalty_cards(table):
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"])
    r = t.ruling(t.play(0, "S3 D9", "PAIR 3"))
    assert r.clause == "GD-2.4.1" and t.engine.to_act == 0
    out = t.play(0, "C5", "SINGLE 5")
    assert [e.cards for e in t.of("table.exposed", out)] == [("S3", "D9")]
    # they form no combination, so no lead option can take them back: penalty cards at once
    assert t.of("table.penalty_cards", out) and t.deal.observe(2).penalty[0] == cards("S3 D9")


def test_GD_2_4_2_does_not_beat_corrected_by_a_pass_all_cards_exposed(table):
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"])
    t.play(0, "D9", "SINGLE 9")
    r = t.ruling(t.play(1, "S7", "SINGLE 7"))
    assert (r.clause, r.offender) == ("GD-2.4.2", 1)
    out = t.do(Pass(1))
    assert [e.cards for e in t.of("table.exposed", out)] == [("S7",)]
    assert t.engine.to_act == 2


def test_GD_2_4_3_extra_cards_exposed_the_rest_stands(table, effect_kinds):
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"])
    t.play(0, "S3", "SINGLE 3")
    out = t.do(PlayWithExtra(1, parse_cards("S6"), "SINGLE 6", parse_cards("C8")))
    r = t.ruling(out)
    assert (r.clause, r.offender) == ("GD-2.4.3", 1)
    assert effect_kinds(r) == ["Return", "Expose", "LeadOption", "PlayStands"]
    assert r.rectification[2] == {"kind": "LeadOption", "chooser": 0, "restricted_seat": 3, "exposed_kind": "SINGLE"}
    assert r.rectification[3] == {"kind": "PlayStands", "seat": 1, "reading": "SINGLE 6"}
    assert t.deal.top.seat == 1 and t.deal.top.cards == cards("S6")      # the rest stands
    assert t.deal.observe(2).exposed[1] == cards("C8")
    t.report_if_due(1)
    assert t.engine.to_act == 2


def test_GD_2_4_3_extra_cards_and_the_rest_is_no_legal_play(table, effect_kinds):
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"])
    t.play(0, "D9", "SINGLE 9")
    r = t.ruling(t.do(PlayWithExtra(1, parse_cards("S6"), "SINGLE 6", parse_cards("C8"))))
    assert effect_kinds(r) == ["Return", "Expose", "LeadOption", "Return", "CorrectPlay"]
    assert r.rectification[-1] == {"kind": "CorrectPlay", "seat": 1, "unused": "lead_option", "cards": ("S6",)}
    assert t.engine.to_act == 1
    out = t.do(Pass(1))
    assert t.of("table.exposed", out)[0].cards == ("S6",)


def test_GD_2_4_4_a_legal_play_is_never_taken_back(table):
    t = table(OOT_HANDS)
    t.play(0, "S3", "SINGLE 3")
    r = t.ruling(t.do(Retract(0)))
    assert (r.clause, r.offender, r.rectification, r.sanctions) == ("GD-2.4.4", 0, (), ())
    assert t.deal.top.cards == cards("S3") and t.engine.to_act == 1


# ---------------------------------------------------------------------------------------------
# GD-2.5 exposed cards, GD-6 penalty cards


def test_GD_2_5_a_dropped_card_is_handled_as_GD_2_3_1(table, effect_kinds):
    t = table(OOT_HANDS)
    t.play(0, "S3", "SINGLE 3")
    r = t.ruling(t.do(DropCard(2, Card("HK"))))
    assert (r.clause, r.offender) == ("GD-2.5", 2)
    assert effect_kinds(r) == ["Expose", "LeadOption"]            # the treatment, without the bar
    assert r.sanctions == ()                          # no adjusted score unless the damage stays
    assert t.deal.observe(1).exposed[2] == cards("HK")


def test_GD_6_penalty_cards_offered_at_every_legal_opportunity(table):
    t = out_of_turn_called(table)
    t.do(CallReferee(3))
    partner_gets_the_lead(t)
    t.do(Choose(1, "free"))
    t.play(0, "C5", "SINGLE 5")                       # a single lead this time
    t.do(Pass(1))
    assert t.engine.to_act == 2
    assert t.legal_plays() == [("H9", "SINGLE 9")]    # only the penalty card (or pass)
    assert any(type(a) is Pass for a in t.legal())
    t.do(Pass(2))                                     # after a pass they stay
    assert t.deal.observe(0).penalty[2] == cards("H9 C9")


def test_GD_6_holders_xiajia_designates_among_several_types(table):
    t = table(["S3 D3 D9 SJ C5", "S6 S7 C8 H4", "H9 C9 HK", "S8 D8 SQ CQ"])
    t.play(0, "S3 D3 D9", "TRIPLE 3")                 # no combination: GD-2.4.1
    t.play(0, "C5", "SINGLE 5")                       # the correction; S3 D3 D9 become penalty cards
    assert t.deal.observe(1).penalty[0] == cards("S3 D3 D9")
    t.do(Pass(1))
    t.do(Pass(2))
    t.do(Pass(3))                                     # seat 0 leads: penalty cards of two types
    assert t.engine.to_act == 1                       # its 下家 designates first
    assert t.deal.observe(1).choice == ("designate", ("PAIR", "SINGLE"))
    t.do(Choose(1, "PAIR"))
    assert t.engine.to_act == 0
    assert t.legal_plays() == [("S3 D3", "PAIR 3")]   # a lead: play them (no pass on a lead)
    t.play(0, "S3 D3", "PAIR 3")
    assert t.deal.observe(2).penalty[0] == cards("D9")
