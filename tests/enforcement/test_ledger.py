"""The sanctions ledger: escalation ladders, automatic escalations, scoping, totals."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from enforcement import (
    AdjustedScore, ForcedDoubleLast, Ledger, LevelDiffPenalty, MatchLoss, RecordedViolation, Suspension, WarningSanction, adjusted_attacker_points,
)
from tabletop.errors import OptionError


def kinds_of(rows):
    return [(r.clause, r.sanction) for r in rows]


def test_GD_2_1_warning_then_minus_one_then_minus_two_per_player():
    ledger = Ledger("guandan")
    got = [kinds_of(ledger.record("GD-2.1", 1, deal=d)) for d in range(4)]
    assert got == [
        [("GD-2.1", WarningSanction())],
        [("GD-2.1", LevelDiffPenalty(1))],
        [("GD-2.1", LevelDiffPenalty(2))],
        [("GD-2.1", LevelDiffPenalty(2))],
    ]
    assert ledger.level_penalty(1) == 5 and ledger.level_penalty(0) == 0
    assert ledger.occurrences("GD-2.1", 1) == 4


def test_GD_2_1_counts_per_player_not_per_side():
    ledger = Ledger("guandan")
    assert kinds_of(ledger.record("GD-2.1", 0, deal=0)) == [("GD-2.1", WarningSanction())]
    assert kinds_of(ledger.record("GD-2.1", 2, deal=0)) == [("GD-2.1", WarningSanction())]
    assert kinds_of(ledger.record("GD-2.1", 0, deal=1)) == [("GD-2.1", LevelDiffPenalty(1))]
    assert ledger.level_penalty(0) == 1
    assert ledger.occurrences("GD-2.1", side=0) == 3
    assert ledger.occurrences("GD-2.1", 2) == 1


def test_GD_1_2_2_first_warns_both_sides_then_one_level_each():
    ledger = Ledger("guandan")
    first = ledger.record("GD-1.2.2", deal=0)
    assert [(r.side, r.seat, r.sanction) for r in first] == [
        (0, None, WarningSanction()), (1, None, WarningSanction())]
    second = ledger.record("GD-1.2.2", deal=3)
    assert [(r.side, r.sanction) for r in second] == [(0, LevelDiffPenalty(1)), (1, LevelDiffPenalty(1))]
    ledger.record("GD-1.2.2", deal=4)
    assert ledger.level_penalty(0) == ledger.level_penalty(1) == 2
    assert ledger.occurrences("GD-1.2.2") == 3 and ledger.occurrences("GD-1.2.2", side=1) == 3


def test_GD_1_1_3b_level_difference_to_the_offending_side():
    ledger = Ledger("guandan")
    rows = ledger.record("GD-1.1.3b", 3, deal=0)
    assert [(r.seat, r.side, r.sanction) for r in rows] == [(3, 1, LevelDiffPenalty(1))]
    assert ledger.level_penalty(1) == 1


def test_GD_warnings_never_escalate_automatically():
    ledger = Ledger("guandan")
    for deal in range(4):
        assert kinds_of(ledger.record("GD-1.1.2", 0, deal=deal)) == [("GD-1.1.2", WarningSanction())]
    assert not ledger.sanctions(kind=RecordedViolation)


def test_GD_1_2_1_double_last_to_the_named_side():
    ledger = Ledger("guandan")
    rows = ledger.record("GD-1.2.1", side=1, deal=2)
    assert [(r.seat, r.side, r.sanction) for r in rows] == [(None, 1, ForcedDoubleLast())]


def test_GD_2_3_1_records_an_incident_with_no_sanction():
    ledger = Ledger("guandan")
    assert ledger.record("GD-2.3.1", 2, deal=0) == []
    assert ledger.occurrences("GD-2.3.1", 2) == 1


def test_SJ_2_1_second_warning_becomes_a_recorded_violation():
    ledger = Ledger("shengji")
    assert kinds_of(ledger.record("SJ-1.3", 2, deal=0)) == [("SJ-1.3", WarningSanction())]
    rows = ledger.record("SJ-1.8", 2, deal=1)
    assert kinds_of(rows) == [("SJ-1.8", WarningSanction()), ("SJ-2.1", RecordedViolation())]
    assert rows[1].cause == "SJ-1.8" and rows[1].seat == 2 and rows[1].side == 0
    assert ledger.occurrences("SJ-2.1", 2) == 1


def test_SJ_2_1_warnings_of_different_players_do_not_add_up():
    ledger = Ledger("shengji")
    for seat in range(4):
        assert kinds_of(ledger.record("SJ-1.3", seat, deal=0)) == [("SJ-1.3", WarningSanction())]
    assert not ledger.sanctions(kind=RecordedViolation)


def test_SJ_2_1_side_warnings_count_apart_from_the_players():
    ledger = Ledger("shengji")
    ledger.record("SJ-1.3", 0, deal=0)
    assert kinds_of(ledger.record("SJ-1.2", side=0, deal=0)) == [("SJ-1.2", WarningSanction())]
    rows = ledger.record("SJ-1.2", side=0, deal=1)
    assert kinds_of(rows)[-1] == ("SJ-2.1", RecordedViolation()) and rows[-1].seat is None


def test_SJ_2_1_every_later_warning_escalates_and_no_count_of_violations_loses_the_match():
    ledger = Ledger("shengji")
    ledger.record("SJ-1.3", 1, deal=0)
    ledger.record("SJ-1.3", 1, deal=0)          # → RecordedViolation 1
    ledger.record("SJ-1.13", 1, deal=1)         # → RecordedViolation 2
    rows = ledger.record("SJ-1.14", 1, deal=2)  # → RecordedViolation 3, and no 判负
    assert kinds_of(rows) == [("SJ-1.14", WarningSanction()), ("SJ-2.1", RecordedViolation())]
    assert rows[1].cause == "SJ-1.14" and rows[1].side == 1
    assert ledger.match_loser() is None


def test_SJ_3_2_recorded_violations_never_escalate_to_a_match_loss():
    """The seed gives 判负 no trigger (enforcement SJ-3.2, revised): four 记违例 of one player
    and four of each partner stay RecordedViolations."""
    ledger = Ledger("shengji")
    for clause_id in ("SJ-2.6", "SJ-2.4", "SJ-2.7", "SJ-2.7"):
        assert kinds_of(ledger.record(clause_id, 3, deal=0)) == [(clause_id, RecordedViolation())]
    for seat in (0, 2, 0, 2, 0, 2, 0, 2):
        ledger.record("SJ-2.6", seat, deal=1)
    assert not ledger.sanctions(kind=MatchLoss) and ledger.match_loser() is None
    assert {i.clause for i in ledger.incidents} == {"SJ-2.4", "SJ-2.6", "SJ-2.7"}


def test_SJ_3_2_a_match_loss_a_human_referee_imposes_is_booked_once_as_given():
    ledger = Ledger("shengji")
    rows = ledger.record("SJ-2.6", 1, deal=0, sanctions=[RecordedViolation(), MatchLoss()])
    assert kinds_of(rows) == [("SJ-2.6", RecordedViolation()), ("SJ-2.6", MatchLoss())]
    assert ledger.match_loser() == 1 and len(ledger.sanctions(kind="MatchLoss", side=1)) == 1


def test_SJ_1_6_first_simultaneous_declaration_is_free_per_side():
    ledger = Ledger("shengji")
    assert ledger.record("SJ-1.6", side=0, deal=0) == []
    assert ledger.record("SJ-1.6", side=1, deal=0) == []
    assert kinds_of(ledger.record("SJ-1.6", side=0, deal=1)) == [("SJ-1.6", WarningSanction())]


def test_SJ_point_penalties_per_side_per_deal():
    ledger = Ledger("shengji")
    ledger.record("SJ-3.1.3", 0, deal=0)
    ledger.record("SJ-3.1.10.2", 2, deal=0)
    ledger.record("SJ-3.1.10.4", 2, deal=0)
    ledger.record("SJ-3.1.6", 1, deal=0)
    ledger.record("SJ-3.1.3", 0, deal=1)
    assert ledger.point_penalties(0) == {0: 30, 1: 10}
    assert ledger.point_penalty(0, 1) == 10 and ledger.point_penalty(1, 1) == 0


def test_SJ_point_penalty_moves_points_towards_the_non_offenders():
    assert adjusted_attacker_points(85, attackers=1, penalties={1: 10}) == 75
    assert adjusted_attacker_points(5, attackers=1, penalties={1: 10}) == 0
    assert adjusted_attacker_points(75, attackers=1, penalties={0: 10}) == 85
    assert adjusted_attacker_points(40, attackers=0, penalties={0: 20, 1: 10}) == 30


def test_referee_discretion_overrides_the_ladder():
    ledger = Ledger("shengji")
    rows = ledger.record("SJ-3.2", 2, deal=0, sanctions=[Suspension(note="reported")])
    assert kinds_of(rows) == [("SJ-3.2", Suspension(note="reported"))]
    gd = Ledger("guandan")
    rows = gd.record("GD-2.5", 1, deal=0, sanctions=[AdjustedScore(levels=1)])
    assert kinds_of(rows) == [("GD-2.5", AdjustedScore(levels=1))]
    assert gd.record("GD-2.5", 1, deal=1)[0].sanction == AdjustedScore()


def test_record_refuses_what_it_cannot_book():
    ledger = Ledger("guandan")
    with pytest.raises(ValueError, match="shengji clause"):
        ledger.record("SJ-1.3", 0, deal=0)
    with pytest.raises(ValueError, match="heading"):
        ledger.record("GD-2", 0, deal=0)
    with pytest.raises(ValueError, match="seat"):
        ledger.record("GD-2.1", deal=0)
    with pytest.raises(ValueError, match="not on side"):
        ledger.record("GD-2.1", 1, side=0, deal=0)
    with pytest.raises(KeyError):
        ledger.record("GD-9.9", 0, deal=0)
    with pytest.raises(TypeError):
        ledger.record("GD-2.1", 0, deal=0, sanctions=["Warning"])
    with pytest.raises(OptionError):
        Ledger("bridge")
    assert ledger.incidents == [] and ledger.imposed == []


def test_ledger_to_dict_round_trips_through_json():
    ledger = Ledger("shengji")
    for seat in (0, 0, 0, 0, 1):
        ledger.record("SJ-1.3", seat, deal=seat)
    ledger.record("SJ-3.1.7", 3, deal=2)
    data = json.loads(json.dumps(ledger.to_dict()))
    again = Ledger.from_dict(data)
    assert again.imposed == ledger.imposed and again.incidents == ledger.incidents
    assert again.to_dict() == ledger.to_dict()


def test_ledger_is_deterministic():
    def run():
        ledger = Ledger("guandan")
        for seat, deal in [(0, 0), (1, 0), (0, 1), (0, 2)]:
            ledger.record("GD-2.1", seat, deal=deal)
        ledger.record("GD-1.2.2", deal=3)
        return json.dumps(ledger.to_dict(), sort_keys=True)

    assert run() == run()


WARNING_CLAUSES = ["SJ-1.1", "SJ-1.3", "SJ-1.4", "SJ-1.8", "SJ-1.13"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(WARNING_CLAUSES), st.integers(0, 3)), max_size=20))
def test_SJ_2_1_escalations_follow_the_warning_counts(records):
    ledger = Ledger("shengji")
    for deal, (cid, seat) in enumerate(records):
        ledger.record(cid, seat, deal=deal)
    for seat in range(4):
        warned = sum(1 for _, s in records if s == seat)
        violations = len(ledger.sanctions(seat=seat, kind=RecordedViolation))
        assert violations == max(0, warned - 1)
        assert ledger.occurrences("SJ-2.1", seat) == violations
    assert not ledger.sanctions(kind=MatchLoss) and ledger.match_loser() is None   # never automatic
    assert all(r.cause for r in ledger.imposed if r.clause == "SJ-2.1")
    assert ledger.point_penalties(0) == {0: 0, 1: 0}


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=15))
def test_GD_2_1_level_totals_match_the_ladder(seats):
    ledger = Ledger("guandan")
    for deal, seat in enumerate(seats):
        ledger.record("GD-2.1", seat, deal=deal)
    ladder = [0, 1, 2]
    for side in (0, 1):
        expected = sum(sum(ladder[min(k, 2)] for k in range(seats.count(s)))
                       for s in (side, side + 2))
        assert ledger.level_penalty(side) == expected
