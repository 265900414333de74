"""双升 sanctions: the reported incidents (SJ-1, SJ-2 and SJ-3.1 forms), the automatic
escalation of the ledger (SJ-2.1: every warning from the second on; nothing escalates to 判负,
which only a human referee imposes, SJ-3.2), point penalties moving points towards the non-offending side and changing the level
result (SJ-3), the fallback for what no clause covers (SJ-3.0), and suspensions (reported
only). One test (at least) per clause, on a real deal."""

import pytest

from shengji.actions import DropCard, Incident
from tabletop.effects import MatchLoss
from tests.enforcement.shengji_refereed import HumanReferee, SjTable, cards, effects, fact, kinds, points

HANDS = ["S6 S6 S9 C3 D3", "S7 S8 S8 C4 H3", "SA SQ C6 D4 D6", "S3 S4 C7 D7 DA"]


def reported(seat: int, incident: str, severity: str = "minor", *, damaged: bool = False, minutes: int = 0,
             table: SjTable | None = None):
    t = table or SjTable(HANDS)
    before = t.deal.to_act
    r = t.ruling(t.do(Incident(seat, incident, severity=severity, damaged=damaged, minutes=minutes)))
    assert t.deal.to_act == before and effects(r) == []        # a report changes nothing at the table
    return t, r


# ---------------------------------------------------------------------------------------------
# SJ-1 warnings (reported forms)


def test_SJ_1_minor_misconduct_is_warned():
    _, r = reported(1, "misconduct")
    assert (r.clause, kinds(r), r.offender) == ("SJ-1", ["Warning"], 1)


def test_SJ_1_2_a_side_up_to_five_minutes_late_is_warned():
    _, r = reported(3, "late", minutes=4)
    assert (r.clause, kinds(r), r.offender, r.side) == ("SJ-1.2", ["Warning"], None, 1)


def test_SJ_1_7_suspected_prompting_in_play():
    assert reported(2, "prompting")[1].clause == "SJ-1.7"


def test_SJ_1_11_played_tricks_not_kept_in_order():
    assert reported(1, "tricks_order")[1].clause == "SJ-1.11"


def test_SJ_1_12_improper_inspection_of_past_tricks():
    assert reported(1, "old_tricks")[1].clause == "SJ-1.12"


def test_SJ_1_13_over_the_time_limit():
    assert reported(0, "tempo")[1].clause == "SJ-1.13"


def test_SJ_1_14_unreasonable_play_first_time_warning_second_time_SJ_2_2():
    t, r = reported(3, "unreasonable_play")
    assert (r.clause, kinds(r)) == ("SJ-1.14", ["Warning"])
    _, r2 = reported(3, "unreasonable_play", table=t)
    assert (r2.clause, kinds(r2), fact(r2, "earlier_unreasonable_plays")) == ("SJ-2.2", ["RecordedViolation"], 1)


def test_SJ_1_15_scoresheet_not_signed():
    assert reported(2, "signing")[1].clause == "SJ-1.15"


def test_SJ_1_16_suspected_reminding_of_the_partners_wrong_play():
    assert reported(2, "reminding")[1].clause == "SJ-1.16"


def test_SJ_1_17_suspected_prompting_during_declaration():
    assert reported(2, "prompting_declaration")[1].clause == "SJ-1.17"


def test_SJ_1_18_cards_mixed_in_before_the_opponents_checked():
    assert reported(0, "kitty_inspection")[1].clause == "SJ-1.18"


# ---------------------------------------------------------------------------------------------
# SJ-2 recorded violations


def test_SJ_2_clear_misconduct_is_a_recorded_violation():
    _, r = reported(1, "misconduct", "serious")
    assert (r.clause, kinds(r)) == ("SJ-2", ["RecordedViolation"])


def test_SJ_2_1_a_second_warning_in_the_match_becomes_a_recorded_violation():
    t = SjTable(HANDS)
    first = t.ruling(t.do(DropCard(1, cards("C4"))))
    second = t.ruling(t.do(DropCard(1, cards("S7"))))
    assert (first.clause, kinds(first)) == ("SJ-1.3", ["Warning"])
    assert second.clause == "SJ-1.3" and kinds(second) == ["Warning", "RecordedViolation"]
    escalation = second.sanctions[1]
    assert (escalation["clause"], escalation["cause"], escalation["seat"]) == ("SJ-2.1", "SJ-1.3", 1)
    other = t.ruling(t.do(DropCard(3, cards("S3"))))   # another player's first warning stays one
    assert kinds(other) == ["Warning"]


def test_SJ_2_2_serious_prompting_without_damage_repeated_misdraws_passing_cards():
    assert reported(1, "prompting", "serious")[1].clause == "SJ-2.2"
    assert reported(1, "repeated_misdraw")[1].clause == "SJ-2.2"
    assert reported(1, "passing_cards")[1].clause == "SJ-2.2"
    assert reported(1, "prompting_declaration", "serious")[1].clause == "SJ-2.2"


def test_SJ_2_3_tricks_out_of_order_with_suspected_signalling():
    assert reported(1, "tricks_order", "deliberate")[1].clause == "SJ-2.3"


def test_SJ_2_4_serious_time_violation():
    assert reported(1, "tempo", "serious")[1].clause == "SJ-2.4"


def test_SJ_2_5_repeated_exposure_suspected_of_signalling():
    assert reported(1, "exposure_signalling", "serious")[1].clause == "SJ-2.5"


def test_SJ_2_6_refusing_a_correct_ruling():
    _, r = reported(1, "refusing_ruling")
    assert (r.clause, kinds(r)) == ("SJ-2.6", ["RecordedViolation"])


def test_SJ_2_7_deliberate_reminding_in_play():
    assert reported(1, "reminding", "deliberate")[1].clause == "SJ-2.7"


def test_SJ_2_8_deliberate_reminding_in_declaration():
    assert reported(1, "prompting_declaration", "deliberate")[1].clause == "SJ-2.8"


def test_SJ_2_9_cards_mixed_in_before_the_check_serious():
    assert reported(1, "kitty_inspection", "serious")[1].clause == "SJ-2.9"


def test_SJ_2_10_tricks_out_of_order_serious():
    assert reported(1, "tricks_order", "serious")[1].clause == "SJ-2.10"


def test_SJ_2_11_improper_trick_inspection_serious():
    assert reported(1, "old_tricks", "serious")[1].clause == "SJ-2.11"


# ---------------------------------------------------------------------------------------------
# SJ-3 point penalties


def test_SJ_3_point_penalties_move_points_towards_the_non_offending_side():
    t = SjTable(HANDS)                                 # seat 0 banks: 0 and 2 defend
    t.do(DropCard(1, cards("S8")))                     # light: a warning, no points
    t.do(Incident(3, "prompting", "serious", damaged=True))       # an attacker: attackers -10
    t.do(Incident(2, "prompting", "serious", damaged=True))       # a defender: attackers +10
    assert [e.attackers_delta for e in t.of("sj.points_adjusted")] == [-10, 10]
    t.finish()
    r = t.deal.result
    # PD: the attackers' own penalties never take them below 0; the defenders' are added after
    assert r.points == max(0, r.raw_points - 10) + 10
    assert r.adjustments == (("PointPenalty SJ-3.1.5", -10), ("PointPenalty SJ-3.1.5", 10))


def test_SJ_3_adjusted_points_change_the_level_result_across_the_80_boundary():
    hands = ["S3 S3", "H4 H4", "S6 S7", "S8 SA"]
    kitty = "ST ST D2 D3 D4 D6 D7 D8"                  # won by the attackers with a pair: ×4 = 80
    clean = SjTable(hands, kitty=kitty)
    for seat, played in ((0, "S3 S3"), (1, "H4 H4"), (2, "S6 S7"), (3, "S8 SA")):
        clean.play(seat, played)
    assert (clean.deal.result.points, clean.deal.result.side) == (80, "attackers")
    t = SjTable(hands, kitty=kitty)
    t.play(0, "S3 S3")
    t.play(1, "H4 H4")
    t.play(2, "S6 S7")
    r = t.ruling(t.do(DropCard(3, cards("SA"))))       # an attacker exposes a heavy card: −10
    assert r.clause == "SJ-3.1.3"
    t.play(3, "S8 SA")
    res = t.deal.result
    assert (res.raw_points, res.points, res.side, res.levels) == (80, 70, "banker", 1)
    assert t.of("sj.scored")[0].raw == 80 and t.of("sj.scored")[0].points == 70


def test_SJ_3_0_what_no_clause_covers_is_unresolved_with_the_fallback_recorded():
    t = SjTable(HANDS)
    u = t.unresolved(t.do(Incident(1, "late", minutes=25)))
    assert u.fallback == "SJ-3.0" and "over 15" in dict(u.facts)["why_unresolved"]
    assert "AdjustedScore" in u.note and t.attackers_delta() == 0
    row = t.referee.ledger.sanctions(clause_id="SJ-3.0")[0]
    assert row.sanction.KIND == "AdjustedScore" and row.side == 1
    t.play(0, "S9")
    u = t.unresolved(t.play(1, "S7 S8"))               # two cards on a single lead: no clause
    assert u.irregularity == "wrong_card_count"
    assert t.deal.to_act == 1 and t.exposed(1) == ["S7", "S8"]   # back in the hand, seen by all


def test_SJ_3_1_damage_from_misconduct_is_ten_points():
    t, r = reported(1, "misconduct", "serious", damaged=True)
    assert (r.clause, points(r)) == ("SJ-3.1", 10) and t.attackers_delta() == -10


def test_SJ_3_1_2_a_side_five_to_fifteen_minutes_late_pays_ten():
    t, r = reported(0, "late", minutes=12)
    assert (r.clause, points(r), r.offender, r.side) == ("SJ-3.1.2", 10, None, 0)
    assert t.attackers_delta() == 10                   # the banker's side was late


@pytest.mark.parametrize("minutes, clause, delta", [(5, "SJ-1.2", 0), (6, "SJ-3.1.2", -10), (15, "SJ-3.1.2", -10)])
def test_SJ_1_2_and_SJ_3_1_2_lateness_bands_are_the_rulebooks_PD(minutes, clause, delta):
    # enforcement.md SJ-1.2 PD: up to 5 → Warning; over 5 up to 15 → 10; over 15 → unresolved.
    t, r = reported(1, "late", minutes=minutes)
    assert (r.clause, r.offender, r.side) == (clause, None, 1)
    assert kinds(r) == (["Warning"] if clause == "SJ-1.2" else ["PointPenalty"])
    assert "SJ-1.2 PD" in fact(r, "band") and "enforcement.md" not in fact(r, "band") and t.attackers_delta() == delta
    assert [e.attackers_delta for e in t.of("sj.points_adjusted")] == ([delta] if delta else [])
    from enforcement.rulebook import clause as rule
    assert "PD (SJ-1.2)" in rule(clause).pd and t.deal.to_act == 0


def test_SJ_1_2_lateness_over_fifteen_minutes_is_left_to_the_fallback():
    t = SjTable(HANDS)
    u = t.unresolved(t.do(Incident(1, "late", minutes=16)))
    assert u.fallback == "SJ-3.0" and "SJ-1.2 PD" in dict(u.facts)["band"]
    assert not t.of("ref.ruling") and t.attackers_delta() == 0 and not t.of("sj.points_adjusted")


def test_SJ_3_1_5_serious_prompting_that_damaged():
    assert reported(1, "prompting", "serious", damaged=True)[1].clause == "SJ-3.1.5"


def test_SJ_3_1_8_tricks_out_of_order_damaging():
    assert reported(1, "tricks_order", "serious", damaged=True)[1].clause == "SJ-3.1.8"


def test_SJ_3_1_9_improper_trick_inspection_damaging():
    assert reported(1, "old_tricks", "serious", damaged=True)[1].clause == "SJ-3.1.9"


def test_SJ_3_1_4_reported_declaration_chosen_without_lots():
    _, r = reported(2, "declaration_chosen")
    assert (r.clause, points(r)) == ("SJ-3.1.4", 10)


def test_SJ_3_2_four_recorded_violations_and_no_match_loss():
    """The seed gives 判负 no trigger (revised SJ-3.2): a player's fourth 记违例 is one more
    RecordedViolation; the match and the deal go on."""
    t = SjTable(HANDS, match=True)
    for n in range(4):
        r = t.ruling(t.do(Incident(1, "refusing_ruling")))
        assert (r.clause, kinds(r)) == ("SJ-2.6", ["RecordedViolation"])
    # and every warning from the second on is a 记违例 (SJ-2.1), still no 判负
    for n in range(3):
        r = t.ruling(t.do(Incident(1, "tempo")))
    assert kinds(r) == ["Warning", "RecordedViolation"] and r.sanctions[1]["clause"] == "SJ-2.1"
    match = t.engine
    assert len(t.referee.ledger.sanctions(seat=1, kind="RecordedViolation")) == 6
    assert not t.referee.ledger.sanctions(kind="MatchLoss") and match.result is None
    assert match.to_act == 0 and not t.of("sj.match_over")
    t.play(0, "S6")                                              # play goes on
    assert t.deal.to_act == 1


def test_SJ_3_2_a_match_loss_a_human_referee_imposes_ends_the_match():
    def judge(ledger, ruling):          # 判负 at the second refusal of a correct ruling
        return [MatchLoss()] if ledger.occurrences("SJ-2.6", ruling.offender) == 2 else []

    t = SjTable(HANDS, match=True, referee=HumanReferee(judge))
    first = t.ruling(t.do(Incident(3, "refusing_ruling")))
    assert kinds(first) == ["RecordedViolation"] and t.engine.result is None
    r = t.ruling(t.do(Incident(3, "refusing_ruling")))
    assert kinds(r) == ["RecordedViolation", "MatchLoss"]
    assert r.sanctions[1]["clause"] == "SJ-3.2" and r.sanctions[1]["side"] == 1
    match = t.engine
    assert match.result is not None and match.result.how == "match_loss" and match.result.winner == 0
    assert match.to_act is None and t.of("sj.match_over")[0].how == "match_loss"


def test_SJ_3_2_suspension_only_from_a_reported_incident():
    t, r = reported(1, "misconduct", "suspension")
    assert (r.clause, kinds(r)) == ("SJ-3.2", ["Suspension"])
    assert not t.referee.ledger.sanctions(kind="Suspension", clause_id="SJ-1.3")
    t.do(DropCard(1, cards("C4")))
    t.do(DropCard(1, cards("S7")))
    t.do(DropCard(1, cards("S8")))
    assert len(t.referee.ledger.sanctions(kind="Suspension")) == 1        # never automatic


@pytest.mark.parametrize("severity", ["minor", "serious", "deliberate"])
def test_every_reported_incident_kind_is_ruled(severity):
    from enforcement.shengji_irregularities import IRREGULARITIES
    from enforcement.shengji_rulings import INCIDENTS

    for kind in INCIDENTS:
        t = SjTable(HANDS)
        out = t.do(Incident(1, kind, severity=severity, minutes=3))
        ruled = t.of("ref.ruling", out) + t.of("ref.unresolved", out)
        assert len(ruled) == 1
        if ruled[0].KIND == "ref.ruling":
            assert ruled[0].clause in IRREGULARITIES["incident"].clauses
