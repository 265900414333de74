"""The statistics of a tournament, in plain numpy (no SciPy needed).

Unit of analysis. A duplicate pair (the same board played twice, seats swapped) is ONE
observation: its two deals share the cards, so they are correlated (negatively: the luck
of the deal cancels), and counting them as two independent deals would understate the
standard error. Without ``--duplicate`` a tournament is scored the same way — board ``b``
with the first agent on seats 0&2 and board ``b + N/2`` with the agents swapped form a
pair — so the two formats differ only in whether a pair's two deals share their cards and
their intervals can be compared directly.

* Mean level difference and win rate: one interval for a bounded mean
  (``bounded_mean_interval``). A pair's mean level difference lies in [-B, +B], B the most
  levels a deal can give (掼蛋: 3), and a pair score in [0, 1]. The values are scaled to
  [0, 1], two pseudo-pairs at each bound are added (Agresti and Coull's "add two successes
  and two failures", which for 0/1 scores is exactly their interval), a normal interval is
  taken about the padded mean with the padded spread, and it is clipped to the possible
  range and scaled back. Why this and not the alternatives:

  - a Student t interval leaves the possible range with a few pairs (``[-0.92, +6.34]``
    when a deal gives at most 3) and collapses to a point when they agree (``[+3.00,
    +3.00]`` from three pairs): its normal approximation is not there yet;
  - Hoeffding's or an empirical-Bernstein interval holds for every n but ignores (or
    half-ignores) the spread: three times as wide as this one from 30 pairs on, so a real
    difference would need about nine times the pairs to show;
  - a bootstrap interval collapses with the sample (three agreeing pairs: a point).

  The pseudo-pairs at the bounds keep a small sample's interval wide and inside the range
  (three pairs of +3: [-0.72, +3.00]); with many pairs their weight vanishes and the
  interval is the t interval's. Simulated coverage of the 95 % interval, pairs of 掼蛋
  deals won by 1-3 levels drawn evenly, one-sided and lopsided (90 % of deals +3), n = 1 …
  100: at least 94 % in every case; the t interval's falls to 48 % at n = 3 on the lopsided
  one (the tests check a seeded run of this). A game with no bound on a deal's levels
  (双升: the kitty's multiplier has no small cap) keeps the t interval (``mean_interval``).
* Ratings: a Bradley–Terry model fitted by maximum likelihood (see ``bradley_terry``).
"""

from __future__ import annotations

from typing import Any

import math
from collections.abc import Sequence
from statistics import NormalDist

import attrs
import numpy as np

CONFIDENCE = 0.95
ELO_PER_LOGIT = 400.0 / math.log(10.0)
"""Bradley–Terry strengths are natural logs of odds; Elo points are 400·log10 of odds."""


@attrs.frozen
class Interval:
    """An estimate and its two-sided interval; ``n`` observations (pairs) behind it."""

    estimate: float
    low: float
    high: float
    n: int

    @property
    def excludes_zero(self) -> bool:
        return self.low > 0.0 or self.high < 0.0

    @property
    def width(self) -> float:
        return self.high - self.low

    def to_dict(self) -> dict[str, float | int | None]:
        """For JSON: an unknown bound (too few pairs) is null."""
        def finite(x: float) -> float | None:
            return x if math.isfinite(x) else None
        return {"estimate": finite(self.estimate), "low": finite(self.low), "high": finite(self.high), "n": self.n}


def t_quantile(probability: float, df: int) -> float:
    """The Student t quantile: the normal quantile for large ``df``, else the t CDF
    (Simpson's rule on the density) inverted by bisection."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if not 0.5 <= probability < 1.0:
        raise ValueError(f"t_quantile takes an upper probability in [0.5, 1), got {probability}")
    if df > 10_000:
        return NormalDist().inv_cdf(probability)
    log_norm = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)

    def upper_cdf(t: float) -> float:  # P(T <= t) for t >= 0
        xs = np.linspace(0.0, t, 4001)
        density = np.exp(log_norm - (df + 1) / 2 * np.log1p(xs * xs / df))
        h = xs[1] - xs[0]
        simpson = h / 3 * (density[0] + density[-1] + 4 * density[1:-1:2].sum() + 2 * density[2:-1:2].sum())
        return 0.5 + simpson

    low, high = 0.0, 1.0
    while upper_cdf(high) < probability:
        high *= 2.0
    for _ in range(60):
        middle = (low + high) / 2
        if upper_cdf(middle) < probability:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def mean_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> Interval:
    """Student t interval for the mean of independent observations (two or more)."""
    data = np.asarray(values, dtype=float)
    n = data.size
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    mean = float(data.mean())
    if n == 1:
        return Interval(mean, -math.inf, math.inf, 1)
    half = t_quantile(1 - (1 - confidence) / 2, n - 1) * float(data.std(ddof=1)) / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n)


def bounded_mean_interval(values: Sequence[float], low: float, high: float,
                          confidence: float = CONFIDENCE) -> Interval:
    """Interval for the mean of independent observations that lie in [low, high] (see the
    module doc: plus-four on the values scaled to [0, 1], clipped to the range). The
    estimate is the plain mean; one observation already gives a finite interval."""
    if not high > low:
        raise ValueError(f"a bounded mean needs low < high, got [{low}, {high}]")
    data = np.asarray(values, dtype=float)
    n = data.size
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    if data.min() < low or data.max() > high:
        raise ValueError(f"values outside [{low}, {high}]: {data.min()} … {data.max()}")
    span = high - low
    padded = np.concatenate([(data - low) / span, [1.0, 1.0, 0.0, 0.0]])
    centre = float(padded.mean())
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    half = z * float(padded.std()) / math.sqrt(padded.size)   # for 0/1 values: sqrt(p̃(1-p̃)/(n+4))
    return Interval(float(data.mean()), low + span * max(0.0, centre - half), low + span * min(1.0, centre + half), n)


def level_interval(values: Sequence[float], bound: int | None, confidence: float = CONFIDENCE) -> Interval:
    """The mean level difference's interval: bounded by ±``bound`` (the most levels a deal
    gives) when the game has one, else Student t."""
    if bound is None:
        return mean_interval(values, confidence)
    return bounded_mean_interval(values, -bound, bound, confidence)


def score_interval(scores: Sequence[float], confidence: float = CONFIDENCE) -> Interval:
    """Interval for a win rate from pair scores in [0, 1] (adjusted Wald: two pseudo-pairs
    won and two lost added before a normal interval; clipped to [0, 1]). The estimate is
    the plain mean of the scores."""
    return bounded_mean_interval(scores, 0.0, 1.0, confidence)


# ---------------------------------------------------------------------------------------------
# Bradley–Terry

@attrs.frozen
class Ratings:
    """Bradley–Terry ratings on the Elo scale (mean 0), with standard errors and 95 %
    intervals; ``games`` played by each agent (virtual draws not counted)."""

    names: tuple[str, ...]
    elo: tuple[float, ...]
    se: tuple[float, ...]
    games: tuple[float, ...]

    def interval(self, index: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
        z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
        return self.elo[index] - z * self.se[index], self.elo[index] + z * self.se[index]

    def rows(self) -> list[dict[str, Any]]:
        """Best first."""
        order = sorted(range(len(self.names)), key=lambda i: (-self.elo[i], self.names[i]))
        out = []
        for i in order:
            low, high = self.interval(i)
            out.append({"agent": self.names[i], "elo": self.elo[i], "se": self.se[i], "low": low, "high": high,
                        "games": self.games[i]})
        return out


def bradley_terry(names: Sequence[str], wins: np.ndarray, games: np.ndarray, *, prior_draws: float = 1.0,
                  iterations: int = 10_000, tolerance: float = 1e-10) -> Ratings:
    """Maximum-likelihood Bradley–Terry fit: P(i beats j) = p_i / (p_i + p_j).

    ``wins[i, j]``: games i won against j (a draw counts ½ to each), ``games[i, j]`` the
    games between them (symmetric). ``prior_draws`` virtual draws are added to every pairing
    that was played (BayesElo's prior), so an agent that won every game still gets a finite
    rating. Fitted by Hunter's MM algorithm (monotone, converges whenever the comparison
    graph is connected); standard errors from the inverse Fisher information under the
    mean-zero constraint (its Moore–Penrose inverse)."""
    k = len(names)
    wins = np.asarray(wins, dtype=float)
    games = np.asarray(games, dtype=float)
    if wins.shape != (k, k) or games.shape != (k, k):
        raise ValueError("wins and games must be square, one row per agent")
    if not np.allclose(games, games.T) or not np.allclose(wins + wins.T, games):
        raise ValueError("wins[i, j] + wins[j, i] must equal games[i, j] (symmetric)")
    played = games > 0
    w = wins + prior_draws / 2 * played
    n = games + prior_draws * played
    total_wins = w.sum(axis=1)
    strength = np.ones(k)
    for _ in range(iterations):
        denominator = (n / (strength[:, None] + strength[None, :])).sum(axis=1)
        updated = np.where(denominator > 0, total_wins / np.where(denominator > 0, denominator, 1.0), strength)
        updated = updated / np.exp(np.log(np.maximum(updated, 1e-300)).mean())
        done = np.max(np.abs(np.log(np.maximum(updated, 1e-300)) - np.log(strength))) < tolerance
        strength = updated
        if done:
            break
    theta = np.log(np.maximum(strength, 1e-300))
    theta -= theta.mean()
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))   # p[i, j] = P(i beats j)
    weight = n * p * p.T
    information = np.diag(weight.sum(axis=1)) - weight
    covariance = np.linalg.pinv(information)
    se = np.sqrt(np.maximum(np.diag(covariance), 0.0))
    return Ratings(tuple(names), tuple(float(x) for x in theta * ELO_PER_LOGIT),
                   tuple(float(x) for x in se * ELO_PER_LOGIT), tuple(float(x) for x in games.sum(axis=1)))
