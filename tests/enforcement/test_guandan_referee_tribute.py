"""The referee on tribute and return (GD-3) and the forced results (GD-5): a match from
explicit hands whose first deal starts with the tribute of a given finishing order."""

from guandan.actions import Draw, GiveTribute, Pass, ReturnCard
from guandan.deal import Phase
from tabletop.cards import Card

# previous order 0, 1, 2, 3: seat 3 (下游) pays seat 0 (上游), seat 0 returns to seat 3
HANDS = ["S3 S6 HK C9", "D4 D5 D6", "C4 C5 C6", "S4 S5 SA D7"]


def tribute_table(table):
    return table(HANDS, leader=None, match=True, previous_order=(0, 1, 2, 3))


def first_play(t):
    """The payer (seat 3) leads the first round."""
    assert t.engine.to_act == 3 and t.deal.phase is Phase.PLAY
    return t.play(3, "S4", "SINGLE 4")


def test_GD_3_1_1_wrong_tribute_before_the_first_play(table, sanction_kinds, effect_kinds):
    t = tribute_table(table)
    assert t.engine.to_act == 3 and t.deal.phase is Phase.TRIBUTE
    r = t.ruling(t.do(GiveTribute(3, Card("S5"))))     # not the highest card (SA)
    assert (r.clause, r.offender, r.side) == ("GD-3.1.1", 3, 1)
    assert sanction_kinds(r) == ["Warning"]
    assert effect_kinds(r) == ["Return", "Expose", "LeadOption", "RedoTribute"]    # GD-2.5, no bar
    deal = t.deal
    assert deal.phase is Phase.TRIBUTE and deal.to_act == 3          # tribute again
    assert deal.observe(0).exposed[3] == (Card("S5"),)                # the card came back exposed
    assert [a.card for a in t.legal()] == [Card("SA")]
    t.do(GiveTribute(3, Card("SA")))
    assert deal.phase is Phase.RETURN


def test_GD_3_1_1_an_exposed_card_given_again_leaves_its_exposure(table):
    """The card exposed under GD-3.1.1 is given again (wrongly, unnoticed): it leaves the
    hand, so it is no longer an exposed card of the giver (nor a lead option about it)."""
    t = tribute_table(table)
    t.ruling(t.do(GiveTribute(3, Card("S5"))))
    deal = t.deal
    assert deal.observe(0).exposed[3] == (Card("S5"),) and deal.table.lead_options
    t.do(GiveTribute(3, Card("S5"), discovered="after_first_play"))
    assert Card("S5") in deal.hand(0) and Card("S5") not in deal.hand(3)
    assert deal.observe(0).exposed[3] == () and not deal.table.lead_options


def test_GD_3_1_2_wrong_tribute_found_after_the_first_play_is_a_double_last(table, sanction_kinds, effect_kinds):
    t = tribute_table(table)
    t.do(GiveTribute(3, Card("S5"), discovered="after_first_play"))
    assert t.of("gd.irregular")[-1].latent and not t.rulings()
    t.do(ReturnCard(0, Card("S3")))
    out = first_play(t)
    r = t.ruling(out)
    assert (r.clause, r.offender, r.side) == ("GD-3.1.2", 3, 1)
    assert sanction_kinds(r) == ["ForcedDoubleLast"]
    assert effect_kinds(r) == ["NextDealProcedure"]          # its imposed leader: no tribute
    record = t.engine.records[-1]
    assert record.forced and record.finish_order[:2] in ((0, 2), (2, 0)) and record.gain == 3
    # GD-5.2: next deal no tribute; the offender shuffles, its 下家 cuts, its partner draws
    # first, its 上家 leads
    assert t.to_act == 1                                               # the first drawer
    started = t.of("gd.deal_started")[-1]
    assert (started.deal, started.shuffler, started.cutter, started.first_drawer) == (2, 3, 0, 1)
    t.do(Draw(1))
    assert t.of("gd.tribute_waived")[-1].deal == 2
    assert t.of("gd.play_started")[-1].seat == 2


def test_GD_3_2_1_wrong_return_before_the_first_play(table, sanction_kinds, effect_kinds):
    t = tribute_table(table)
    t.do(GiveTribute(3, Card("SA")))
    r = t.ruling(t.do(ReturnCard(0, Card("HK"))))      # above 10
    assert (r.clause, r.offender) == ("GD-3.2.1", 0)
    assert sanction_kinds(r) == ["Warning"] and effect_kinds(r) == ["Return", "RedoReturn"]
    assert t.deal.phase is Phase.RETURN and t.engine.to_act == 0
    assert Card("HK") in t.deal.hand(0)
    t.do(ReturnCard(0, Card("S3")))
    assert t.deal.phase is Phase.PLAY


def test_GD_3_2_1_return_to_the_wrong_player(table):
    t = tribute_table(table)
    t.do(GiveTribute(3, Card("SA")))
    r = t.ruling(t.do(ReturnCard(0, Card("S3"), to=1)))
    assert r.clause == "GD-3.2.1" and dict(r.facts)["wrong_recipient"] is True


def test_GD_3_2_2_wrong_return_after_the_first_play_is_a_double_last(table, sanction_kinds):
    t = tribute_table(table)
    t.do(GiveTribute(3, Card("SA")))
    t.do(ReturnCard(0, Card("HK"), discovered="after_first_play"))
    assert Card("HK") in t.deal.hand(3)                                # it went through unnoticed
    r = t.ruling(first_play(t))
    assert (r.clause, r.offender, r.side) == ("GD-3.2.2", 0, 0)
    assert sanction_kinds(r) == ["ForcedDoubleLast"]
    record = t.engine.records[-1]
    assert record.team == 1 and record.gain == 3                       # the other side +3
    assert t.to_act == 2 and t.of("gd.deal_started")[-1].shuffler == 0


def test_GD_5_1_forced_last_next_deal_the_offending_side_gives_no_tribute(table):
    # seat 1 (team 1) is judged last (GD-4.2.4 here); next deal team 1 would pay: it does not
    from guandan.actions import Report

    t = table(["S3 H4 C5 D6 S8 H9", "S4 S6 H8 C9 CT C3 D3 H3 S9 SQ DQ", "C7 D8 SJ CA", "S5 D7 DT HQ"],
              match=True)
    t.play(0, "S3", "SINGLE 3")
    t.play(1, "S4", "SINGLE 4", report=False)
    t.do(Report(1, None, discovered=4))
    t.do(Pass(2))
    t.do(Pass(3))
    t.do(Pass(0))                                                      # seat 1 leads
    t.play(1, "S6", "SINGLE 6")                                        # plays again, unreported
    t.do(Pass(2))
    t.do(Pass(3))
    t.do(Pass(0))
    r = t.ruling(t.play(1, "H8", "SINGLE 8"))                          # several times: 单下
    assert r.clause == "GD-4.2.4"
    assert t.deal.observe(0).placed_last == (1,)
    scheduled = t.of("gd.next_deal_scheduled")[-1]
    assert scheduled.no_tribute_seats == (1,) and not scheduled.no_tribute


def test_GD_5_2_double_last_scores_plus_three_and_sets_the_next_deals_procedure(table):
    t = tribute_table(table)
    t.do(GiveTribute(3, Card("S5"), discovered="after_first_play"))
    t.do(ReturnCard(0, Card("S3")))
    first_play(t)                                                      # GD-3.1.2 → 双下 for side 1
    record = t.engine.records[-1]
    assert (record.team, record.gain) == (0, 3)                        # non-offending side 上游 and 二游
    assert t.engine.levels.levels == (3, 0)                            # 2 → 5 for side 0
    assert t.to_act == 1
    t.do(Draw(1))
    deal2 = [e for e in t.events if e.deal == 2]
    kinds = {e.KIND: e for e in deal2}
    assert kinds["gd.shuffled"].seat == 3                              # a player of the offending side
    assert kinds["gd.cut"].seat == 0                                   # its 下家 cuts
    assert next(e for e in deal2 if e.KIND == "gd.drawn").seat == 1   # its partner draws first
    assert "gd.tribute_waived" in kinds and "gd.tribute_due" not in kinds   # no tribute
    assert kinds["gd.play_started"].seat == 2                          # its 上家 leads
