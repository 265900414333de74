"""The tournament's statistics against known values: t quantiles from the tables, a t
interval and a plus-four interval worked by hand, and Bradley–Terry fits of constructed
win matrices whose maximum-likelihood answer is known in closed form."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.tournament.stats import (ELO_PER_LOGIT, bounded_mean_interval, bradley_terry, level_interval, mean_interval,
                                    score_interval, t_quantile)


@pytest.mark.parametrize(("df", "table"), [(1, 12.7062), (2, 4.3027), (4, 2.7764), (10, 2.2281), (30, 2.0423),
                                           (120, 1.9799)])
def test_t_quantile_matches_the_table(df, table):
    assert t_quantile(0.975, df) == pytest.approx(table, abs=1e-4)


def test_t_quantile_of_a_bonferroni_level():
    assert t_quantile(1 - 0.005 / 2, 20) == pytest.approx(3.1534, abs=1e-4)   # 99.5 % two-sided, 20 df


def test_mean_interval_of_a_constructed_sample():
    interval = mean_interval([1, 2, 3, 4, 5])
    half = 2.776445 * math.sqrt(2.5) / math.sqrt(5)   # t(0.975, 4) · s / √n
    assert interval.estimate == 3
    assert (interval.low, interval.high) == pytest.approx((3 - half, 3 + half), abs=1e-5)
    assert interval.excludes_zero and interval.n == 5


def test_mean_interval_of_a_sample_that_straddles_zero():
    interval = mean_interval([-2, 1, -1, 2, 0, 0.5])
    assert interval.low < 0 < interval.high and not interval.excludes_zero


def test_score_interval_is_plus_four_for_win_loss_scores():
    interval = score_interval([1] * 8 + [0] * 2)
    p = 10 / 14
    half = 1.959964 * math.sqrt(p * (1 - p) / 14)
    assert interval.estimate == 0.8
    assert (interval.low, interval.high) == pytest.approx((p - half, p + half), abs=1e-6)


def test_score_interval_does_not_collapse_at_all_wins():
    interval = score_interval([1.0] * 30)
    assert interval.estimate == 1.0 and interval.high == 1.0 and 0.8 < interval.low < 0.95


def test_score_interval_is_narrower_for_half_points_than_for_wins_and_losses_of_the_same_mean():
    duplicate_like = score_interval([0.5] * 40 + [1.0] * 10)
    independent_like = score_interval([0.0] * 20 + [1.0] * 30)
    assert duplicate_like.estimate == independent_like.estimate == 0.6
    assert duplicate_like.width < independent_like.width


def test_bradley_terry_recovers_the_strengths_of_an_exact_win_matrix():
    strength = np.array([1.0, 2.0, 4.0, 0.5])
    games = np.full((4, 4), 90.0)
    np.fill_diagonal(games, 0)
    wins = games * strength[:, None] / (strength[:, None] + strength[None, :])
    ratings = bradley_terry(["a", "b", "c", "d"], wins, games, prior_draws=0)
    expected = (np.log(strength) - np.log(strength).mean()) * ELO_PER_LOGIT
    assert ratings.elo == pytest.approx(tuple(expected), abs=1e-6)
    assert [row["agent"] for row in ratings.rows()] == ["c", "b", "a", "d"]


def test_bradley_terry_standard_error_of_two_agents_is_the_binomial_one():
    # Two agents, 30 wins in 40: the log-odds difference has variance 1 / (n p (1-p)),
    # shared equally by the two mean-zero ratings.
    ratings = bradley_terry(["a", "b"], np.array([[0, 30], [10, 0]]), np.array([[0, 40], [40, 0]]), prior_draws=0)
    assert ratings.elo[0] - ratings.elo[1] == pytest.approx(math.log(3) * ELO_PER_LOGIT)
    assert ratings.se[0] == pytest.approx(ELO_PER_LOGIT / 2 / math.sqrt(40 * 0.75 * 0.25))


def test_bradley_terry_prior_keeps_a_clean_sweep_finite():
    ratings = bradley_terry(["a", "b"], np.array([[0, 50], [0, 0]]), np.array([[0, 50], [50, 0]]))
    # One virtual draw: 50.5 wins in 51 games, so the odds are 101 to 1.
    assert ratings.elo[0] - ratings.elo[1] == pytest.approx(math.log(101) * ELO_PER_LOGIT, rel=1e-6)
    assert all(math.isfinite(se) and se > 0 for se in ratings.se)


def test_bradley_terry_refuses_wins_that_do_not_add_up():
    with pytest.raises(ValueError):
        bradley_terry(["a", "b"], np.array([[0, 3], [3, 0]]), np.array([[0, 5], [5, 0]]))


@given(st.lists(st.integers(0, 20), min_size=6, max_size=6), st.lists(st.integers(1, 20), min_size=6, max_size=6))
def test_bradley_terry_fit_meets_the_likelihood_equations(raw_wins, raw_games):
    # At the maximum, each agent's expected wins equal its observed wins (prior included).
    k = 4
    games = np.zeros((k, k))
    wins = np.zeros((k, k))
    for place, (i, j) in enumerate((i, j) for i in range(k) for j in range(i + 1, k)):
        n = raw_games[place]
        w = min(raw_wins[place], n)
        games[i, j] = games[j, i] = n
        wins[i, j], wins[j, i] = w, n - w
    ratings = bradley_terry(list("abcd"), wins, games, prior_draws=1.0)
    theta = np.array(ratings.elo) / ELO_PER_LOGIT
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    observed = (wins + 0.5 * (games > 0)).sum(axis=1)
    expected = ((games + (games > 0)) * p).sum(axis=1)
    assert expected == pytest.approx(observed, abs=1e-5)
    assert sum(ratings.elo) == pytest.approx(0, abs=1e-6)


# ---------------------------------------------------------------------------------------------
# Intervals for bounded means (issue 29, item 7)


def test_an_interval_never_leaves_the_possible_range_nor_collapses():
    """The issue's two: [-0.92, +6.34] when a deal gives at most 3, [+3.00, +3.00] from
    agreeing pairs — a t interval's; the bounded one stays inside and keeps a width."""
    assert mean_interval([3, 3, 3]).width == 0   # what the t interval did
    agreeing = bounded_mean_interval([3, 3, 3], -3, 3)
    assert agreeing.high == 3 and agreeing.low == pytest.approx(-0.7222, abs=1e-4)
    spread = bounded_mean_interval([3, 1.5, 2.5], -3, 3)
    assert mean_interval([3, 1.5, 2.5]).high > 3 and -3 <= spread.low < spread.high <= 3


@given(st.lists(st.sampled_from([-3, -2.5, -2, -1.5, -1, 0, 1, 1.5, 2, 2.5, 3]), min_size=1, max_size=60))
def test_a_level_interval_lies_in_the_range_has_width_and_holds_its_mean(values):
    interval = level_interval(values, 3)
    assert -3 <= interval.low < interval.high <= 3
    assert interval.low <= interval.estimate <= interval.high


@pytest.mark.parametrize("weights", [(1, 1, 1, 1, 1, 1), (0, 0, 0, 1, 1, 18), (0, 0, 1, 3, 6, 10)],
                         ids=["even", "lopsided", "one-sided"])
@pytest.mark.parametrize("n", [1, 3, 10, 40])
def test_a_bounded_interval_covers_the_true_mean_at_small_samples(weights, n):
    """Seeded simulation: pairs of two deals won by 1-3 levels; the 95 % interval holds the
    true mean at least 92 % of the time (600 runs: ±2 % of sampling error) at every n."""
    rng = np.random.default_rng(29)
    levels = np.array([-3, -2, -1, 1, 2, 3])
    p = np.array(weights, dtype=float) / sum(weights)
    truth = float(levels @ p)
    held = sum(iv.low <= truth <= iv.high for iv in
               (bounded_mean_interval(rng.choice(levels, size=(n, 2), p=p).mean(axis=1), -3, 3) for _ in range(600)))
    assert held / 600 >= 0.92


def test_a_game_without_a_bound_keeps_the_t_interval():
    assert level_interval([1, 2, 3, 4, 5], None) == mean_interval([1, 2, 3, 4, 5])
    with pytest.raises(ValueError):
        bounded_mean_interval([4], -3, 3)
