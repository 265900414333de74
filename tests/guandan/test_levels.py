"""guandan.md §7: levels, passing A, failed attempts, the match score."""

import pytest
from hypothesis import given, strategies as st

from guandan.levels import DealOutcome, TeamLevels, advance, initial_levels, match_score
from guandan.ranks import level_index
from guandan.rules import GuandanRules

# Finishing orders won by team 0 / team 1 (上游 first).
T0_1_2, T0_1_3, T0_1_4 = (0, 2, 1, 3), (0, 1, 2, 3), (0, 1, 3, 2)
T1_1_2, T1_1_3, T1_1_4 = (1, 3, 0, 2), (1, 0, 3, 2), (1, 2, 0, 3)
A = level_index("A")


def levels(team0: str, team1: str, declarer=None, failures=(0, 0)) -> TeamLevels:
    return TeamLevels(levels=(level_index(team0), level_index(team1)), a_failures=failures,
                      declarer=declarer)


def play(state: TeamLevels, *orders, rules=None) -> TeamLevels:
    for order in orders:
        state, _ = advance(state, order, rules)
    return state


def test_rule_7_both_teams_start_at_2_and_the_first_deal_is_played_at_2():
    state = initial_levels()
    assert state.levels == (0, 0) and state.level_played == level_index("2")
    assert state.declarer is None and state.passed_a is None and state.a_failures == (0, 0)


@pytest.mark.parametrize("order, team, gain, new", [
    (T0_1_2, 0, 3, (3, 0)), (T0_1_3, 0, 2, (2, 0)), (T0_1_4, 0, 1, (1, 0)),
    (T1_1_2, 1, 3, (0, 3)), (T1_1_3, 1, 2, (0, 2)), (T1_1_4, 1, 1, (0, 1)),
])
def test_rule_7_winners_go_up_3_2_1_and_the_other_side_stays(order, team, gain, new):
    state, outcome = advance(initial_levels(), order)
    assert state.levels == new and state.declarer == team
    assert outcome == DealOutcome(team=team, gain=gain, raised=gain, level_played=0)


def test_rule_7_the_next_deal_is_played_at_the_winners_new_level():
    state = play(initial_levels(), T0_1_2)  # team 0 at 5
    assert state.level_played == level_index("5")
    state = play(state, T1_1_3)  # team 1 at 4, team 0 stays at 5
    assert state.levels == (level_index("5"), level_index("4"))
    assert state.level_played == level_index("4") and state.declarer == 1


@pytest.mark.parametrize("start, order, end", [
    ("K", T0_1_2, "A"), ("Q", T0_1_2, "A"), ("J", T0_1_2, "A"), ("T", T0_1_2, "K"),
    ("K", T0_1_3, "A"), ("Q", T0_1_3, "A"), ("K", T0_1_4, "A"),
])
def test_rule_7_no_promotion_passes_A(start, order, end):
    state, outcome = advance(levels(start, "2", declarer=1), order)
    assert state.levels[0] == level_index(end) and state.passed_a is None
    assert outcome.raised == level_index(end) - level_index(start)


def test_rule_7_K_plus_3_is_A_and_the_next_deal_is_an_attempt_at_A():
    state = play(levels("K", "9", declarer=0), T0_1_2)
    assert state.levels == (A, level_index("9")) and state.level_played == A
    assert state.attempting_a == 0


@pytest.mark.parametrize("order", [T0_1_2, T0_1_3])
def test_rule_7_passing_A_at_own_level_with_1_2_or_1_3_wins_the_match(order):
    state, outcome = advance(levels("A", "7", declarer=0), order)
    assert outcome.match_won == 0 and state.passed_a == 0
    assert outcome.failed_attempt is None and outcome.level_played == A


def test_rule_7_a_1_4_finish_at_own_A_is_a_failed_attempt():
    state, outcome = advance(levels("A", "7", declarer=0), T0_1_4)
    assert outcome.failed_attempt == 0 and outcome.match_won is None and not outcome.reset
    assert state.levels == (A, level_index("7")) and state.a_failures == (1, 0)
    assert state.declarer == 0 and state.level_played == A  # still its deal at A


def test_rule_7_losing_the_deal_at_own_A_is_a_failed_attempt():
    state, outcome = advance(levels("A", "7", declarer=0), T1_1_3)
    assert outcome.failed_attempt == 0 and outcome.team == 1
    assert state.levels == (A, level_index("9")) and state.a_failures == (1, 0)
    assert state.level_played == level_index("9")


def test_rule_7_three_failed_attempts_send_the_side_back_to_2():
    state = levels("A", "3", declarer=0)
    state = play(state, T0_1_4, T0_1_4)
    assert state.a_failures == (2, 0) and state.levels[0] == A
    state, outcome = advance(state, T1_1_4)
    assert outcome.failed_attempt == 0 and outcome.reset
    assert state.levels == (0, level_index("4")) and state.a_failures == (0, 0)


def test_rule_7_failures_count_across_interruptions_at_the_opponents_level():
    state = play(levels("A", "3", declarer=0), T1_1_4)  # fail 1, team 1 at 4 declares
    state = play(state, T0_1_3)  # team 0 wins at team 1's level: no attempt, no failure
    assert state.a_failures == (1, 0) and state.passed_a is None and state.level_played == A
    state = play(state, T0_1_4, T0_1_4)  # fails 2 and 3
    assert state.levels[0] == 0 and state.a_failures == (0, 0)


def test_rule_7_a_1_4_third_failure_resets_the_winner_and_the_next_deal_is_at_its_2():
    state, outcome = advance(levels("A", "6", declarer=0, failures=(2, 0)), T0_1_4)
    assert outcome.reset and outcome.raised == 0 and outcome.team == 0
    assert state.levels == (0, level_index("6")) and state.level_played == 0


def test_rule_7_option_a_failures_reset_none_never_resets():
    rules = GuandanRules(a_failures_reset=None)
    state = play(levels("A", "2", declarer=0), *[T0_1_4] * 10, rules=rules)
    assert state.levels[0] == A and state.a_failures == (10, 0) and state.passed_a is None
    assert advance(state, T0_1_2, rules)[0].passed_a == 0


def test_rule_7_option_a_failures_reset_other_count():
    rules = GuandanRules(a_failures_reset=1)
    state, outcome = advance(levels("A", "2", declarer=0), T1_1_2, rules)
    assert outcome.reset and state.levels == (0, level_index("5"))


def test_rule_7_side_at_A_winning_at_the_opponents_level_does_not_win_the_match():
    state, outcome = advance(levels("A", "8", declarer=1), T0_1_2)
    assert outcome.match_won is None and outcome.failed_attempt is None and outcome.raised == 0
    assert state.passed_a is None and state.levels[0] == A and state.level_played == A
    assert advance(state, T0_1_2)[0].passed_a == 0  # now at its own A


def test_rule_7_both_at_A_only_the_declarer_attempts():
    state, outcome = advance(levels("A", "A", declarer=1), T0_1_2)
    assert outcome.failed_attempt == 1 and outcome.match_won is None
    assert state.a_failures == (0, 1) and state.declarer == 0
    state, outcome = advance(state, T0_1_3)
    assert outcome.match_won == 0


def test_rule_7_advance_refuses_a_finished_match():
    state = play(levels("A", "2", declarer=0), T0_1_2)
    with pytest.raises(ValueError, match="over"):
        advance(state, T1_1_2)


def test_GD_5_2_forced_double_last_is_a_1_2_finish_for_the_other_side():
    state, outcome = advance(levels("4", "J", declarer=1), (0, 2, 1, 3))  # team 1 forced 双下
    assert outcome.gain == 3 and state.levels == (level_index("7"), level_index("J"))


def test_team_levels_validate_their_fields():
    with pytest.raises(ValueError):
        TeamLevels(levels=(0, 13))
    with pytest.raises(ValueError):
        TeamLevels(a_failures=(-1, 0))
    with pytest.raises(ValueError):
        TeamLevels(declarer=2)


# ---------------------------------------------------------------------------------------------
# match score (级差分)

def test_rule_7_match_score_is_the_level_difference():
    assert match_score(levels("9", "5", declarer=0)) == (4, -4)
    assert match_score(initial_levels()) == (0, 0)


def test_rule_7_match_score_minus_the_referees_level_difference_penalties():
    assert match_score(levels("9", "5", declarer=0), penalties=(1, 2)) == (3, -6)


def test_rule_7_passing_A_scores_the_configured_maximum():
    state = play(levels("A", "K", declarer=0), T0_1_3)
    assert match_score(state) == (13, -13)
    assert match_score(state, GuandanRules(pass_a_score=20), penalties=(2, 0)) == (18, -20)


# ---------------------------------------------------------------------------------------------
# properties

ORDERS = st.permutations(range(4)).map(tuple)


@given(st.lists(ORDERS, min_size=1, max_size=60), st.sampled_from([3, 1, 2, None]))
def test_property_levels_stay_between_2_and_A_and_only_an_attempt_wins(orders, reset):
    rules = GuandanRules(a_failures_reset=reset)
    state = initial_levels()
    for order in orders:
        if state.passed_a is not None:
            break
        attempting = state.attempting_a
        new, outcome = advance(state, order, rules)
        assert all(0 <= lv <= A for lv in new.levels)
        assert new.declarer == outcome.team == order[0] % 2
        assert outcome.level_played == state.level_played
        if outcome.match_won is not None:
            assert outcome.match_won == attempting == outcome.team and outcome.gain >= 2
        assert outcome.failed_attempt in (None, attempting)
        if reset is not None:
            assert all(f < reset for f in new.a_failures)
        loser = 1 - outcome.team
        if not (outcome.reset and outcome.failed_attempt == loser):
            assert new.levels[loser] == state.levels[loser]
        state = new
