"""`paiju train` answers: reading them (paiju.train.grade.parse_answer) and grading them
against a ruling (right, partly right, wrong, unanswered), on hand-made keys and on a
ruling from a real refereed deal."""

from __future__ import annotations

from pathlib import Path

import pytest

from paiju.replay.check import load_log
from paiju.train.grade import PARTLY, RIGHT, UNANSWERED, WRONG, AnswerError, explanation, grade, parse_answer
from paiju.train.scenarios import Expected, scenarios_in_log

GOLDEN_DEAL = Path(__file__).resolve().parents[2] / "golden" / "golden_guandan_deal_refereed_seed3.jsonl"


def key(clause="GD-2.3.1", sanctions=(), rectification=("Return", "RestoreOrder", "BarOnePlay", "Expose", "LeadOption")):
    return Expected(clause=clause, offender=1, side=1, irregularity="play_out_of_turn", irregular="120",
                    sanctions=tuple(sanctions), rectification=tuple(rectification), effects=(), sanction_texts=(),
                    facts="", unresolved=False, note="")


def graded(text, expected=None):
    return grade(expected or key(), parse_answer(text))


# ---------------------------------------------------------------------------------------------
# Reading answers


def test_answer_clause_is_case_insensitive_and_parts_are_optional():
    a = parse_answer("gd-2.3.1")
    assert (a.clause, a.rectification, a.sanctions) == ("GD-2.3.1", None, None)
    a = parse_answer("GD-1.1.3A")
    assert a.clause == "GD-1.1.3a"


def test_answer_effects_and_sanctions_by_kind_names_as_sets():
    a = parse_answer("GD-2.3.1; expose, bar, lead option; none")
    assert a.rectification == {"Expose", "BarOnePlay", "LeadOption"} and a.sanctions == frozenset()
    a = parse_answer("SJ-3.1.3; ; PointPenalty(10)")
    assert a.rectification is None and a.sanctions == {"PointPenalty(10)"}
    a = parse_answer("GD-1.1.3b; random_draw + RESTORE-ORDER; LevelDiffPenalty 1")
    assert a.rectification == {"RandomDraw", "RestoreOrder"} and a.sanctions == {"LevelDiffPenalty(1)"}
    a = parse_answer("GD-4.2.3; return, expose, lead option, bar, report, pass sequence")
    assert a.rectification == {"Return", "Expose", "LeadOption", "BarOnePlay", "ReportAgain", "PassSequence"}


def test_answer_short_and_chinese_names_and_full_width_punctuation():
    a = parse_answer("GD-2.3.1；暴露张、禁出一手；无")
    assert a.rectification == {"Expose", "BarOnePlay"} and a.sanctions == frozenset()
    a = parse_answer("gd-4.2.4; no tribute; 单下")
    assert a.rectification == {"NoTributeNextDeal"} and a.sanctions == {"ForcedLast"}
    assert parse_answer("SJ-1.18; ; 警告, 记违例").sanctions == {"Warning", "RecordedViolation"}
    assert parse_answer("SJ-3.1.6; ; 罚分（10）").sanctions == {"PointPenalty(10)"}


def test_SJ_3_1_7_the_seeds_重新抓牌_is_a_redeal():
    a = parse_answer("SJ-3.1.7；choice、重新抓牌；罚分（10）")
    assert a.rectification == {"Choice", "Redeal"} and a.sanctions == {"PointPenalty(10)"}


def test_empty_answer_and_skip_are_no_answer():
    assert parse_answer("") is None and parse_answer("   ") is None and parse_answer("skip") is None


def test_unknown_clause_word_or_shape_is_an_answer_error():
    with pytest.raises(AnswerError, match="no clause 'GD-2.3.9'.*did you mean"):
        parse_answer("GD-2.3.9")
    with pytest.raises(AnswerError, match="unknown rectification 'teleport'"):
        parse_answer("GD-2.3.1; teleport")
    with pytest.raises(AnswerError, match="unknown sanction 'fine'"):
        parse_answer("GD-2.3.1; ; fine")
    with pytest.raises(AnswerError, match="at most three parts"):
        parse_answer("GD-2.3.1; ; ; none")
    with pytest.raises(AnswerError, match="clause comes first"):
        parse_answer("; expose")


def test_lenient_reading_keeps_what_it_cannot_read_and_grades_it_wrong():
    a = parse_answer("GD-2.3.1; teleport; none", lenient=True)
    assert a.clause == "GD-2.3.1" and a.problem("rectification").startswith("unknown rectification")
    g = grade(key(), a)
    assert g.verdict == PARTLY and g.clause_right and g.rectification_right is False and g.sanctions_right is True
    g = grade(key(), parse_answer("GD-9.9", lenient=True))
    assert g.verdict == WRONG and "no clause 'GD-9.9'" in g.remarks[0]


# ---------------------------------------------------------------------------------------------
# Grading


def test_right_clause_alone_is_right():
    g = graded("GD-2.3.1")
    assert (g.verdict, g.clause_right, g.rectification_right, g.sanctions_right) == (RIGHT, True, None, None)


def test_right_clause_rectification_and_sanction_is_right():
    g = graded("GD-2.3.1; expose, bar, lead option; none")
    assert g.verdict == RIGHT and g.rectification_right and g.sanctions_right


def test_rectification_may_leave_out_return_and_restore_order_but_nothing_else():
    assert graded("GD-2.3.1; return, restore order, expose, bar, lead option").verdict == RIGHT
    g = graded("GD-2.3.1; expose, bar")
    assert g.verdict == PARTLY and g.rectification_right is False and "missing LeadOption" in g.remarks[1]
    g = graded("GD-2.3.1; expose, bar, lead option, penalty cards")
    assert g.verdict == PARTLY and "not in the ruling: PenaltyCards" in g.remarks[1]


def test_rectification_none_is_right_only_when_the_ruling_had_none():
    bare = key("GD-4.1", sanctions=("Warning",), rectification=())
    assert graded("GD-4.1; none; warning", bare).verdict == RIGHT
    assert graded("GD-2.3.1; none", key()).verdict == PARTLY
    implied_only = key("GD-1.1.1", rectification=("Return", "RestoreOrder"))
    assert graded("GD-1.1.1; return", implied_only).verdict == RIGHT
    assert graded("GD-1.1.1; none", implied_only).verdict == PARTLY


def test_GD_2_3_2_both_plays_standing_is_no_rectification_so_none_is_right():
    stands = key("GD-2.3.2", rectification=("PlayStands", "PlayStands"))
    assert graded("GD-2.3.2; none; none", stands).verdict == RIGHT
    assert graded("GD-2.3.2", stands).verdict == RIGHT
    assert graded("GD-2.3.2; expose, bar", stands).verdict == PARTLY
    assert graded("GD-2.3.1", stands).verdict == WRONG       # the 下家 played on it: it stands


def test_wrong_sanction_with_the_right_clause_is_partly_right():
    g = graded("GD-2.3.1; expose, bar, lead option; Warning")
    assert (g.verdict, g.clause_right, g.rectification_right, g.sanctions_right) == (PARTLY, True, True, False)
    assert "not in the ruling: Warning" in g.remarks[2]


def test_sanction_counts_must_match_when_given_and_any_count_matches_without():
    ten = key("SJ-3.1.3", sanctions=("PointPenalty(10)",), rectification=("Expose",))
    assert graded("SJ-3.1.3; ; PointPenalty(10)", ten).verdict == RIGHT
    assert graded("SJ-3.1.3; ; PointPenalty", ten).verdict == RIGHT
    assert graded("SJ-3.1.3; ; PointPenalty(20)", ten).verdict == PARTLY
    escalated = key("GD-2.1", sanctions=("LevelDiffPenalty(1)",), rectification=())
    assert graded("GD-2.1; ; warning", escalated).verdict == PARTLY         # 2nd time: no longer a warning
    both = key("SJ-1.18", sanctions=("Warning", "RecordedViolation"), rectification=())
    assert graded("SJ-1.18; ; Warning", both).verdict == PARTLY
    assert graded("SJ-1.18; ; RecordedViolation, Warning", both).verdict == RIGHT


def test_parent_clause_is_partly_right_and_does_not_score():
    g = graded("GD-2.3")
    assert (g.verdict, g.clause_right) == (PARTLY, False) and "sub-clause GD-2.3.1" in g.remarks[0]
    assert graded("GD-2").verdict == PARTLY                                 # any section above it
    assert graded("GD-2.3; expose, bar, lead option; none").verdict == PARTLY


def test_sibling_child_and_other_game_clauses_are_wrong():
    assert graded("GD-2.3.2").verdict == WRONG
    assert graded("GD-2.4.1; expose; none").verdict == WRONG
    assert graded("SJ-3.1.10.2").verdict == WRONG
    assert grade(key("GD-1.2"), parse_answer("GD-1.2.1")).verdict == WRONG   # the ruling cites the clause itself


def test_no_answer_is_unanswered():
    g = grade(key(), None)
    assert (g.verdict, g.clause_right) == (UNANSWERED, False)


def test_grading_a_real_ruling_and_its_explanation():
    log, _ = load_log(str(GOLDEN_DEAL))
    scenario = next(s for s in scenarios_in_log(log, "golden") if s.expected.clause == "GD-2.3.1")
    e = scenario.expected
    assert e.irregularity == "play_out_of_turn" and e.sanctions == ()
    assert {"Return", "RestoreOrder", "BarOnePlay", "Expose"} <= set(e.rectification)
    wanted = ", ".join(sorted(set(e.rectification) - {"Return", "RestoreOrder"}))
    assert grade(e, parse_answer(f"GD-2.3.1; {wanted}; none")).verdict == RIGHT
    text = "\n".join(explanation(scenario))
    assert "越序出牌" in text and f"The referee ruled on seat {e.offender}" in text
    assert "Rectification: 收回牌张 " in text and "Sanctions: none" in text
    # the trainee's view ends just before the ruling
    view = scenario.view()
    assert view.events[-1].seq + 1 == log.events[scenario.ruling_index].seq
    assert not any(ev.KIND.startswith("ref.") and ev.seq >= log.events[scenario.ruling_index].seq for ev in view.events)
