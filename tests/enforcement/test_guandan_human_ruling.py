"""A human referee's ruling on a GD-4.2.5 irregularity (the unreported offender has gone out):
a ruling is data and may be wrong, but the table carries out exactly what it lists and is
never left with nobody to act. A ruling that places the offender nowhere leaves it out by
its play, in its place; the round goes on among the others."""

from itertools import chain, combinations

import pytest

from guandan.actions import Pass, Report
from guandan.deal import Phase
from paiju.train.web.ruling import CannotApply, SubstituteSeat, TraineeAnswer, trainee_ruling
from tabletop.errors import IllegalAction, RulingRefused
from tabletop.games import game_spec

PARTNER_PLAYING = ["S3 C5 D5", "S4 S6 H8 C9", "C7 D8 SJ CA", "S5 D7 DT HQ"]
PARTNER_OUT = ["S3 C5 D5", "S4 S6 H8 C9", "CA", "S5 D7 DT HQ"]
SEATING = game_spec("guandan").seating


def human_referee(t, answer):
    """The table's referee seat filled as the trainer fills it: the trainee's ruling on the
    first irregularity, the rulebook's everywhere else."""
    t.referee = SubstituteSeat(t.referee, 1, lambda engine, own: trainee_ruling(answer, own, engine.stream.deal,
                                                                                 SEATING), "guandan")
    return t.referee


def unreported_until_out(t, partner_out):
    """Seat 0 leads without its 报牌 (found when it goes out, GD-4.2.5) and goes out."""
    t.play(0, "S3", "SINGLE 3", report=False)
    t.do(Report(0, None, discovered=5))
    t.do(Pass(1))
    if partner_out:
        t.play(2, "CA", "SINGLE A")                   # the partner goes out first: 上游
        t.do(Pass(3))
        t.do(Pass(0))
        t.do(Pass(1))                                 # 接风: seat 0 leads
    else:
        t.do(Pass(2))
        t.do(Pass(3))
    return t.play(0, "C5 D5", "PAIR 5")


def play_out(t):
    """Every seat takes its first legal action until the deal is recorded."""
    for _ in range(200):
        if t.engine.records:
            return t.engine.records[-1]
        seat = t.to_act
        actions = t.legal()
        assert seat is not None and actions, f"nobody can act: to_act {seat}, phase {t.deal.phase}"
        t.do(actions[0])
    raise AssertionError("the deal did not end")


def test_GD_4_2_5_ruled_as_a_warning_the_offender_stays_out_and_the_round_goes_on(table, sanction_kinds):
    t = table(PARTNER_PLAYING, match=True)
    seat = human_referee(t, TraineeAnswer("GD-2.5", (), ("Warning",)))
    r = t.ruling(unreported_until_out(t, partner_out=False))
    assert seat.replaced is not None
    assert (r.clause, r.offender, sanction_kinds(r), r.rectification) == ("GD-2.5", 0, ["Warning"], ())
    # no 单下, no 双下: the pair that went out stands, seat 0 is 上游 by play
    assert [(e.seat, e.place) for e in t.of("gd.finished")] == [(0, 1)]
    assert not t.of("gd.result_forced") and not t.of("gd.placed_last")
    assert t.deal.phase is Phase.PLAY and t.to_act == 1 and t.deal.observe(1).placed_last == ()
    assert t.legal() and all(a.seat == 1 for a in t.legal())
    record = play_out(t)
    assert record.finish_order[0] == 0 and not record.forced


def test_GD_4_2_5_ruled_without_sanction_partner_out_the_side_finishes_first_and_second(table):
    t = table(PARTNER_OUT, match=True)
    human_referee(t, TraineeAnswer("GD-4.2.5"))
    r = t.ruling(unreported_until_out(t, partner_out=True))
    assert (r.clause, r.sanctions) == ("GD-4.2.5", ())
    record = t.engine.records[-1]                     # seat 2 上游, seat 0 二游: a 1-2 finish by play
    assert record.finish_order[:2] == (2, 0) and record.team == 0 and record.gain == 3 and not record.forced


def _subsets(items):
    return chain.from_iterable(combinations(items, n) for n in range(len(items) + 1))


RULINGS = [(effects, sanctions) for effects in _subsets(("NoTributeNextDeal", "NextDealProcedure"))
           for sanctions in _subsets(("Warning", "ForcedLast", "ForcedDoubleLast"))]


@pytest.mark.parametrize("partner_out", [False, True], ids=["partner_playing", "partner_out"])
@pytest.mark.parametrize(("effects", "sanctions"), RULINGS,
                         ids=[f"{'+'.join(e) or 'no_effect'}-{'+'.join(s) or 'no_sanction'}" for e, s in RULINGS])
def test_GD_4_2_5_any_ruling_from_the_clause_is_refused_or_leaves_someone_to_act(table, partner_out, effects,
                                                                                sanctions):
    """Every ruling built from the clause's effects and sanctions (or none): refused up front
    with a reason, or carried out with someone to act until the deal is recorded."""
    t = table(PARTNER_OUT if partner_out else PARTNER_PLAYING, match=True)
    human_referee(t, TraineeAnswer("GD-4.2.5", effects, sanctions))
    try:
        unreported_until_out(t, partner_out)
    except (CannotApply, RulingRefused, IllegalAction) as refused:
        assert str(refused) and "\n" not in str(refused)
        return
    record = play_out(t)
    assert sorted(record.finish_order) == [0, 1, 2, 3]
    if "ForcedDoubleLast" in sanctions:
        assert record.forced and set(record.finish_order[2:]) == {0, 2}
    elif "ForcedLast" in sanctions:
        assert record.finish_order[-1] == 0
    else:
        assert 0 in record.finish_order[:2]          # out by its play, before the two still playing
