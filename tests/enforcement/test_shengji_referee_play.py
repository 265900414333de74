"""双升 rulings during the burial and the play, one test (at least) per clause: a real deal
driven into the situation; the ruling and the table afterwards.

Level 2, hearts trump throughout: heavy (重罚张) are jokers, 2s, A, K, 10, 5, QQ, JJ and
tractors; light are 3, 4, 6, 7, 8, 9 and single Js and Qs. Seat 0 banks, so seats 1 and 3
attack: a penalty on them lowers the attackers' points, one on 0 or 2 raises them."""

from shengji.actions import Bury, PlayWithExtra, Revoke
from shengji.deal import Phase
from tests.enforcement.shengji_refereed import SjTable, cards, effects, fact, kinds, points

HANDS = ["S6 S6 S9 C3 D3", "S7 S8 S8 C4 H3", "SA SQ C6 D4 D6", "S3 S4 C7 D7 DA"]


def table(**kw):
    return SjTable(HANDS, **kw)


# ---------------------------------------------------------------------------------------------
# SJ-3.1.10 抢出 (leading out of turn)


def test_SJ_3_1_10_out_of_turn_leads_are_taken_back_exposed_for_ten():
    t = table()
    out = t.play(1, "C4")
    r = t.ruling(out)
    assert r.clause.startswith("SJ-3.1.10.") and points(r) == 10
    assert t.deal.to_act == 0 and not t.deal.trick and t.exposed(1) == ["C4"]


def test_SJ_3_1_10_1_lead_before_the_kitty_is_buried():
    t = SjTable(HANDS, kitty="C8 C9", at="kitty")
    assert t.deal.phase is Phase.KITTY and len(t.hand(0)) == 7
    r = t.ruling(t.play(0, "S9"))
    assert (r.clause, kinds(r), r.offender) == ("SJ-3.1.10.1", ["PointPenalty"], 0)
    assert effects(r) == ["Return", "Expose", "RestoreOrder"]
    assert fact(r, "exposure").startswith("taken-back cards count as exposed")
    deal = t.deal
    assert deal.phase is Phase.KITTY and deal.to_act == 0 and "S9" in t.hand(0) and t.exposed(0) == ["S9"]
    assert isinstance(t.legal()[0], Bury)
    assert t.attackers_delta() == 10                   # the banker's side offended: attackers +10
    t.do(Bury(0, cards("C8 C9")))
    assert deal.phase is Phase.PLAY and deal.to_act == 0


def test_SJ_3_1_10_1_lead_after_burying_too_many_is_taken_back_and_the_burial_redone():
    t = SjTable(HANDS, kitty="C8 C9", at="kitty")
    t.do(Bury(0, cards("C8 C9 D3")))                   # one too many: nobody notices yet
    deal = t.deal
    assert deal.phase is Phase.PLAY and len(deal.kitty) == 3 and not t.of("ref.ruling")
    r = t.ruling(t.play(0, "S6 S6"))
    assert r.clause == "SJ-3.1.10.1" and fact(r, "buried") == 3
    assert effects(r) == ["Return", "Expose", "RedoBury", "RestoreOrder"]
    assert t.of("sj.burial_undone")
    assert deal.phase is Phase.KITTY and deal.to_act == 0 and deal.kitty == [] and len(t.hand(0)) == 7
    assert t.exposed(0) == ["S6", "S6"]
    t.do(Bury(0, cards("C8 C9")))
    t.play(0, "S6 S6")
    assert deal.trick == [(0, tuple(cards("S6 S6")))] and t.exposed(0) == []


def test_SJ_3_1_10_2_lead_out_of_turn():
    t = table()
    r = t.ruling(t.play(1, "C4"))
    assert (r.clause, kinds(r), r.offender, r.side) == ("SJ-3.1.10.2", ["PointPenalty"], 1, 1)
    assert fact(r, "rightful") == 0 and fact(r, "partners_lead") is False
    deal = t.deal
    assert deal.to_act == 0 and deal.phase is Phase.PLAY and not deal.trick
    assert "C4" in t.hand(1) and t.exposed(1) == ["C4"] and t.attackers_delta() == -10
    assert not t.of("ref.ruling", t.play(0, "S9"))     # play goes on in order


def test_SJ_3_1_10_2_heavy_lead_on_an_opponents_lead_has_no_exposure_penalty_on_top():
    t = table()
    r = t.ruling(t.play(3, "DA"))
    assert r.clause == "SJ-3.1.10.2" and points(r) == 10
    assert fact(r, "heavy") == ("DA",) and "no SJ-3.1.3 on top" in fact(r, "exposure")


def test_SJ_3_1_10_3_lead_before_the_trick_is_complete():
    t = table()
    t.play(0, "S9")
    t.play(1, "S7")
    r = t.ruling(t.play(0, "C3"))                      # seat 0 leads again before 2 and 3 played
    assert (r.clause, points(r)) == ("SJ-3.1.10.3", 10)
    assert fact(r, "winning") == 0 and fact(r, "partners_lead") is False
    deal = t.deal
    assert deal.to_act == 2 and [s for s, _ in deal.trick] == [0, 1] and t.exposed(0) == ["C3"]


def test_SJ_3_1_10_4_heavy_lead_on_the_partners_lead_adds_the_exposure_penalty():
    t = table()
    r = t.ruling(t.play(2, "SA"))                      # seat 0, the partner, has the lead
    assert r.clause == "SJ-3.1.10.4" and kinds(r) == ["PointPenalty", "PointPenalty"] and points(r) == 20
    assert fact(r, "base_clause") == "SJ-3.1.10.2" and fact(r, "on_top").startswith("SJ-3.1.3")
    assert [row["clause"] for row in r.sanctions] == ["SJ-3.1.10.4", "SJ-3.1.3"]    # the second 10 is SJ-3.1.3's
    assert t.attackers_delta() == 20 and t.exposed(2) == ["SA"] and t.deal.to_act == 0


def test_SJ_3_1_10_4_before_the_trick_is_complete_when_the_partner_will_lead():
    # judgement: "该圈为同伴领出" read for 抢出 before the trick is complete as "the partner
    # is winning the trick, so it would lead the next one"
    light = SjTable(["S9 C3 D3", "S7 C4 H3", "SA C6 D4", "S3 C7 DA"])
    for seat, played in ((0, "S9"), (1, "S7"), (2, "SA")):
        light.play(seat, played)                       # seat 2 wins the trick so far
    r = light.ruling(light.play(0, "D3"))              # light: no exposure penalty on top
    assert (r.clause, fact(r, "partners_lead"), points(r)) == ("SJ-3.1.10.3", True, 10)
    heavy = SjTable(["S9 C3 DA", "S7 C4 H3", "SA C6 D4", "S3 C7 D3"])
    for seat, played in ((0, "S9"), (1, "S7"), (2, "SA")):
        heavy.play(seat, played)
    r = heavy.ruling(heavy.play(0, "DA"))              # heavy, and the partner will lead next
    assert (r.clause, fact(r, "base_clause"), points(r)) == ("SJ-3.1.10.4", "SJ-3.1.10.3", 20)
    assert heavy.deal.to_act == 3 and heavy.exposed(0) == ["DA"]


# ---------------------------------------------------------------------------------------------
# SJ-3.1.11 抢跟 (playing out of turn)


def test_SJ_3_1_11_out_of_turn_follows_are_taken_back_exposed_for_ten():
    t = table()
    t.play(0, "S9")
    r = t.ruling(t.play(3, "S3"))
    assert r.clause.startswith("SJ-3.1.11.") and points(r) == 10
    assert t.deal.to_act == 1 and len(t.deal.trick) == 1 and t.exposed(3) == ["S3"]


def test_SJ_3_1_11_1_playing_before_ones_turn():
    t = table()
    t.play(0, "S9")
    r = t.ruling(t.play(3, "S3"))                      # seat 1 is to play, then 2: 3 jumps two
    assert (r.clause, points(r), r.offender) == ("SJ-3.1.11.1", 10, 3)
    assert fact(r, "own_sides_trick") is False and t.attackers_delta() == -10
    t.play(1, "S7")
    t.play(2, "SQ")
    t.play(3, "S3")                                    # the exposed card is played in turn
    assert t.exposed(3) == [] and len(t.deal.tricks) == 1


def test_SJ_3_1_11_2_showing_cards_before_the_upper_hand_played():
    t = table()
    t.play(0, "S9")
    r = t.ruling(t.play(2, "SQ"))                      # seat 1 (2's 上家) has not played yet
    assert (r.clause, points(r)) == ("SJ-3.1.11.2", 10)
    assert fact(r, "own_sides_trick") is True and fact(r, "heavy") == ()
    assert t.deal.to_act == 1 and t.exposed(2) == ["SQ"]


def test_SJ_3_1_11_3_heavy_cards_played_early_on_the_own_sides_trick():
    t = table()
    t.play(0, "S9")
    r = t.ruling(t.play(2, "SA"))
    assert r.clause == "SJ-3.1.11.3" and points(r) == 20 and fact(r, "base_clause") == "SJ-3.1.11.2"
    assert [row["clause"] for row in r.sanctions] == ["SJ-3.1.11.3", "SJ-3.1.3"]
    assert [e.reason for e in t.of("sj.points_adjusted")] == ["PointPenalty SJ-3.1.11.3", "PointPenalty SJ-3.1.3"]
    assert t.attackers_delta() == 20 and t.exposed(2) == ["SA"]


# ---------------------------------------------------------------------------------------------
# SJ-3.1.12 跟错 (wrong follows), SJ-1.4, SJ-1.9, SJ-3.2


def test_SJ_3_1_12_wrong_follows_are_corrected_while_the_trick_is_open():
    t = table()
    t.play(0, "S9")
    r = t.ruling(t.play(3, "DA"))                      # out of turn first: 3 must wait
    t.play(1, "S7")
    t.play(2, "SQ")
    r = t.ruling(t.play(3, "DA"))                      # holds S3 S4: must follow spades
    assert r.clause.startswith("SJ-3.1.12.") and effects(r)[-1] == "CorrectFollow"
    assert t.deal.to_act == 3 and {tuple(map(str, a.cards)) for a in t.legal()} == {("S3",), ("S4",)}


def test_SJ_3_1_12_1_wrong_follow_found_at_once_heavy():
    t = table()
    t.play(0, "S9")
    t.play(1, "S7")
    t.play(2, "SQ")
    r = t.ruling(t.play(3, "DA"))
    assert (r.clause, points(r), fact(r, "what"), fact(r, "heavy")) == ("SJ-3.1.12.1", 10, "suit", ("DA",))
    assert t.exposed(3) == ["DA"] and t.attackers_delta() == -10
    t.play(3, "S3")
    assert len(t.deal.tricks) == 1 and t.exposed(3) == ["DA"]


def test_SJ_1_4_wrong_follow_found_at_once_light_is_corrected_with_a_warning():
    t = table()
    t.play(0, "S9")
    r = t.ruling(t.play(1, "C4"))                      # holds S7 S8 S8
    assert (r.clause, kinds(r), fact(r, "what")) == ("SJ-1.4", ["Warning"], "suit")
    assert effects(r) == ["Return", "Expose", "CorrectFollow"]
    assert t.deal.to_act == 1 and t.exposed(1) == ["C4"] and t.attackers_delta() == 0
    assert {tuple(map(str, a.cards)) for a in t.legal()} == {("S7",), ("S8",)}


def test_SJ_1_9_pair_not_followed_found_at_once_light():
    t = table()
    t.play(0, "S6 S6")
    r = t.ruling(t.play(1, "S7 S8"))                   # holds the pair S8 S8: must follow it
    assert (r.clause, kinds(r), fact(r, "what")) == ("SJ-1.9", ["Warning"], "pair")
    assert [tuple(map(str, a.cards)) for a in t.legal()] == [("S8", "S8")]
    assert t.exposed(1) == ["S7", "S8"]


def test_SJ_3_1_12_2_wrong_follow_affecting_play_light():
    t = table()
    t.play(0, "S9")
    assert not t.of("ref.ruling", t.do(Revoke(1, cards("C4"), found="affecting_play")))
    out = t.play(2, "SQ")                              # the next seat played: now it comes to light
    r = t.ruling(out)
    assert (r.clause, points(r), fact(r, "found")) == ("SJ-3.1.12.2", 10, "affecting_play")
    assert effects(r) == ["Return", "Expose", "Replay", "CorrectFollow"]
    deal = t.deal
    assert deal.trick == [(0, tuple(cards("S9")))] and deal.to_act == 1
    assert "SQ" in t.hand(2) and t.exposed(2) == [] and t.exposed(1) == ["C4"]
    t.play(1, "S7")
    t.play(2, "SQ")
    t.play(3, "S3")
    assert deal.tricks[-1].winner == 2


def test_SJ_3_1_12_3_pair_not_followed_affecting_play():
    t = table()
    t.play(0, "S6 S6")
    t.do(Revoke(1, cards("S7 S8"), found="affecting_play"))
    r = t.ruling(t.play(2, "SA SQ"))
    assert (r.clause, points(r), fact(r, "what")) == ("SJ-3.1.12.3", 10, "pair")
    assert t.deal.to_act == 1 and [tuple(map(str, a.cards)) for a in t.legal()] == [("S8", "S8")]
    assert t.attackers_delta() == -10


def test_SJ_3_2_established_revoke_tricks_stand_ten_and_the_adjusted_score_hook():
    t = table()
    t.play(0, "S9")
    t.play(1, "S7")
    t.play(2, "SQ")
    t.do(Revoke(3, cards("DA"), found="after_trick"))
    r = t.ruling()
    assert r.clause == "SJ-3.2" and kinds(r) == ["PointPenalty", "AdjustedScore"] and points(r) == 10
    assert fact(r, "tricks_stand") is True and effects(r) == []
    deal = t.deal
    assert deal.tricks[-1].plays[-1] == (3, tuple(cards("DA"))) and deal.tricks[-1].winner == 2
    assert deal.to_act == 2 and t.attackers_delta() == -10


def test_SJ_3_1_12_heavy_wrong_follow_affecting_play_penalised():
    # enforcement.md SJ-3.1.12 PD: 10 under SJ-3.1.12.2 plus 10 under SJ-3.1.3, one ruling.
    t = SjTable(["S6 S6 S9 C3 D3", "S7 S8 S8 C4 HK", "SA SQ C6 D4 D6", "S3 S4 C7 D7 DA"])
    t.play(0, "S9")
    t.do(Revoke(1, cards("HK"), found="affecting_play"))
    r = t.ruling(t.play(2, "SQ"))
    assert not t.of("ref.unresolved")
    assert (r.clause, r.offender, kinds(r), points(r)) == ("SJ-3.1.12.2", 1, ["PointPenalty", "PointPenalty"], 20)
    assert [s["clause"] for s in r.sanctions] == ["SJ-3.1.12.2", "SJ-3.1.3"]
    assert fact(r, "heavy") == ("HK",) and fact(r, "base_clause") == "SJ-3.1.12.2"
    assert fact(r, "on_top").startswith("SJ-3.1.3")
    assert effects(r) == ["Return", "Expose", "Replay", "CorrectFollow"]
    deal = t.deal
    assert deal.to_act == 1 and t.exposed(1) == ["HK"] and deal.trick == [(0, tuple(cards("S9")))]
    assert "SQ" in t.hand(2) and t.attackers_delta() == -20     # seat 1 attacks: its points drop 20
    assert [(e.attackers_delta, e.reason) for e in t.of("sj.points_adjusted")] == [
        (-10, "PointPenalty SJ-3.1.12.2"), (-10, "PointPenalty SJ-3.1.3")]
    assert [e.seats for e in t.of("sj.taken_back")] == [(1, 2)]
    t.play(1, "S7")
    t.play(2, "SQ")
    t.play(3, "S3")
    assert deal.tricks[-1].winner == 2 and t.exposed(1) == ["HK"]


def test_SJ_3_1_12_heavy_shape_error_affecting_play_is_SJ_3_1_12_3_alone():
    # The heavy PD fills the seed's .1/.2 gap (suit errors); a shape error affecting play is
    # SJ-3.1.12.3's PD, 10 whatever the cards.
    t = SjTable(["S6 S6 S9 C3 D3", "SA SK SK C4 H3", "SQ SJ C6 D4 D6", "S3 S4 C7 D7 DA"])
    t.play(0, "S6 S6")
    t.do(Revoke(1, cards("SA SK"), found="affecting_play"))
    r = t.ruling(t.play(2, "SQ SJ"))
    assert (r.clause, points(r), fact(r, "what"), fact(r, "heavy")) == ("SJ-3.1.12.3", 10, "pair", ("SK", "SA"))
    assert t.deal.to_act == 1 and [tuple(map(str, a.cards)) for a in t.legal()] == [("SK", "SK")]


# ---------------------------------------------------------------------------------------------
# SJ-1.8 / SJ-3.1.6 one extra card; SJ-1.3 / SJ-3.1.3 exposed cards


def test_SJ_1_8_extra_light_card_is_exposed_and_the_rest_stands():
    t = table()
    r = t.ruling(t.do(PlayWithExtra(0, cards("S9"), cards("C3"))))
    assert (r.clause, kinds(r), fact(r, "kind")) == ("SJ-1.8", ["Warning"], "lead")
    deal = t.deal
    assert deal.trick == [(0, tuple(cards("S9")))] and deal.to_act == 1
    assert "C3" in t.hand(0) and t.exposed(0) == ["C3"] and t.of("sj.play_stands")


def test_SJ_3_1_6_extra_heavy_card_is_exposed_for_ten():
    t = table()
    t.play(0, "S9")
    t.play(1, "S7")
    r = t.ruling(t.do(PlayWithExtra(2, cards("SQ"), cards("SA"))))
    assert (r.clause, points(r), fact(r, "kind")) == ("SJ-3.1.6", 10, "follow")
    assert [s for s, _ in t.deal.trick] == [0, 1, 2] and t.exposed(2) == ["SA"] and t.attackers_delta() == 10


def test_SJ_1_3_exposed_light_card_warning_and_SJ_3_1_3_heavy_ten():
    from shengji.actions import DropCard

    t = table()
    light = t.ruling(t.do(DropCard(1, cards("C4"))))
    heavy = t.ruling(t.do(DropCard(2, cards("SA"))))
    assert (light.clause, kinds(light)) == ("SJ-1.3", ["Warning"])
    assert (heavy.clause, kinds(heavy), fact(heavy, "during")) == ("SJ-3.1.3", ["PointPenalty"], "play")
    assert t.exposed(1) == ["C4"] and t.exposed(2) == ["SA"] and t.attackers_delta() == 10
    obs = t.deal.observe(3)
    assert [str(c) for c in obs.exposed[2]] == ["SA"]          # everyone sees them
    assert t.deal.to_act == 0


def test_SJ_3_1_3_a_pair_of_queens_or_a_tractor_is_heavy():
    from shengji.actions import DropCard

    t = SjTable(["SQ SQ S6 S6 S7 S7", "C3 C4 C6 C7 C8 CJ", "D3 D4 D6 D7 D8 D9", "S3 S4 S8 S9 C3 C4"])
    assert t.ruling(t.do(DropCard(0, cards("SQ SQ")))).clause == "SJ-3.1.3"
    assert t.ruling(t.do(DropCard(0, cards("S6 S6 S7 S7")))).clause == "SJ-3.1.3"
    assert t.ruling(t.do(DropCard(1, cards("C3 CJ")))).clause == "SJ-1.3"       # a single J is light


def test_exposed_cards_stay_playable_and_leave_the_exposed_zone_when_played():
    from shengji.actions import DropCard

    t = table()
    t.do(DropCard(0, cards("S9")))
    t.play(0, "S9")
    assert t.exposed(0) == [] and t.deal.trick == [(0, tuple(cards("S9")))]


def test_SJ_3_1_3_small_pairs_in_special_circumstances_with_the_option():
    from enforcement.shengji_rulings import make_shengji_referee
    from shengji.actions import DropCard

    hands = ["D3 S9 S6", "S7 S8 C4", "D4 C6 C7", "D6 D6 C8"]
    for option, clause in ((False, "SJ-1.3"), (True, "SJ-3.1.3")):
        t = SjTable(hands, referee=make_shengji_referee(special_small_pairs=True) if option else None)
        t.play(0, "D3")
        t.play(1, "S7")                                # seat 1 shows void in diamonds
        r = t.ruling(t.do(DropCard(3, cards("D6 D6"))))
        assert r.clause == clause and fact(r, "heavy") == (("D6", "D6") if option else ())


def test_SJ_3_1_10_4_facts_read_a_trump_cover_of_a_throw_as_winning():
    # §6 (revised): S3S3 S5S5 covers the throw H9H9 HQ HK and beats S4S4 SA D5, so seat 2
    # (the offender's partner) is winning when seat 0 leads again before the trick is done.
    t = SjTable(["H9 H9 HQ HK DA", "S4 S4 SA D5 C3", "S3 S3 S5 S5 C4", "H2 H3 H4 H6 C6"], level="5", trump="S")
    t.play(0, "H9 H9 HQ HK")
    t.play(1, "S4 S4 SA D5")
    t.play(2, "S3 S3 S5 S5")
    r = t.ruling(t.play(0, "DA"))
    assert (r.clause, fact(r, "winning"), points(r)) == ("SJ-3.1.10.4", 2, 20)
    assert t.deal.to_act == 3 and t.exposed(0) == ["DA"]
    t.play(3, "H2 H3 H4 H6")
    assert t.deal.tricks[-1].winner == 2 and t.deal.to_act == 2


# §6 revised 2026-12-05: a 4-pair tractor followed with one of two held 2-pair tractors

FOUR_PAIR_HANDS = ["S9 S9 ST ST SJ SJ SQ SQ D3 D4 D5", "S3 S3 S4 S4 S6 S6 S7 S7 SK SK SA",
                   "S5 S8 C3 C4 C5 C6 C7 C8 C9 CT CJ", "D6 D7 D8 D9 DT DJ DQ DK DA C3 C4"]


def test_SJ_3_1_12_1_four_pair_tractor_followed_with_one_of_two_held_2_pair_tractors():
    """Seat 1 holds two 2-pair tractors (S3S3S4S4, S6S6S7S7): against a 4-pair tractor it
    must play both; one tractor and two pairs is a wrong follow (tractors are heavy cards),
    corrected to the only legal follow."""
    t = SjTable(FOUR_PAIR_HANDS)
    t.play(0, "S9 S9 ST ST SJ SJ SQ SQ")
    r = t.ruling(t.play(1, "S3 S3 S4 S4 S6 S6 SK SK"))
    assert (r.clause, points(r), fact(r, "what")) == ("SJ-3.1.12.1", 10, "tractor")
    assert effects(r) == ["Return", "Expose", "CorrectFollow"]
    assert t.deal.to_act == 1 and t.attackers_delta() == -10
    assert [" ".join(map(str, a.cards)) for a in t.legal()] == ["S3 S3 S4 S4 S6 S6 S7 S7"]
    t.play(1, "S3 S3 S4 S4 S6 S6 S7 S7")
    assert t.deal.trick[-1] == (1, tuple(cards("S3 S3 S4 S4 S6 S6 S7 S7"))) and t.deal.to_act == 2
    assert t.exposed(1) == ["SK", "SK"]          # the cards of the attempt not played stay exposed


def test_rule_6_four_pair_tractor_followed_with_both_2_pair_tractors_is_no_irregularity():
    t = SjTable(FOUR_PAIR_HANDS)
    t.play(0, "S9 S9 ST ST SJ SJ SQ SQ")
    out = t.play(1, "S3 S3 S4 S4 S6 S6 S7 S7")
    assert not t.of("sj.irregular", out) and not t.of("ref.ruling", out) and t.deal.to_act == 2
