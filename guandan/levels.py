"""Match level progression and the match score: guandan.md §7, as pure functions.

Levels are rank indices ('2' = 0 … 'A' = 12). A forced result from the referee (GD-5:
单下 / 双下) is just a finishing order, so ``advance`` with that order scores it; for a
forced 双下 any order with the non-offending side 1st and 2nd gives them +3 (e.g.
``(w, w + 2, o, o + 2)`` for non-offending team w and offending team o).
"""

from __future__ import annotations

from typing import Any

from collections.abc import Sequence

import attrs

from guandan.rules import GuandanRules
from guandan.tribute import level_gain

LEVEL_TWO = 0
LEVEL_A = 12


def _two_levels(value: Sequence[int]) -> tuple[int, int]:
    return tuple(int(v) for v in value)  # type: ignore[return-value]  # two values: the validator checks


def _check_levels(instance: Any, attribute: Any, value: Any) -> None:
    if len(value) != 2 or any(not LEVEL_TWO <= v <= LEVEL_A for v in value):
        raise ValueError(f"{attribute.name} must be two level indices 0-12 ('2'-'A'), "
                         f"got {value!r}")


def _check_failures(instance: Any, attribute: Any, value: Any) -> None:
    if len(value) != 2 or any(v < 0 for v in value):
        raise ValueError(f"{attribute.name} must be two counts >= 0, got {value!r}")


def _check_team(instance: Any, attribute: Any, value: Any) -> None:
    if value not in (None, 0, 1):
        raise ValueError(f"{attribute.name} must be team 0, 1 or None, got {value!r}")


@attrs.frozen(kw_only=True)
class TeamLevels:
    """Both teams' levels between deals.

    ``levels``: (team 0, team 1) rank indices. ``a_failures``: failed attempts to pass A
    per team since it last went back to 2. ``declarer``: the team whose level the next
    deal is played at (the last deal's winners; None before the first deal, which is
    played at 2). ``passed_a``: the team that won the match by passing A, or None."""

    levels: tuple[int, int] = attrs.field(
        default=(0, 0), converter=_two_levels, validator=_check_levels)
    a_failures: tuple[int, int] = attrs.field(
        default=(0, 0), converter=_two_levels, validator=_check_failures)
    declarer: int | None = attrs.field(default=None, validator=_check_team)
    passed_a: int | None = attrs.field(default=None, validator=_check_team)

    @property
    def level_played(self) -> int:
        """The level of the next deal: the declarer's level (2 before the first deal)."""
        return LEVEL_TWO if self.declarer is None else self.levels[self.declarer]

    @property
    def attempting_a(self) -> int | None:
        """The team whose attempt to pass A the next deal is, or None."""
        if self.declarer is not None and self.levels[self.declarer] == LEVEL_A:
            return self.declarer
        return None


@attrs.frozen(kw_only=True)
class DealOutcome:
    """What one deal did to the levels.

    ``team``: the 上游's team (the side that went up). ``gain``: levels earned by the
    finish (3 for 1-2, 2 for 1-3, 1 for 1-4). ``raised``: levels actually climbed (the
    climb stops at A; counted before any reset). ``level_played``: the deal's level.
    ``failed_attempt``: the team whose attempt to pass A failed in this deal, or None.
    ``reset``: that failure sent it back to 2. ``match_won``: the team that passed A,
    or None."""

    team: int
    gain: int
    raised: int
    level_played: int
    failed_attempt: int | None = None
    reset: bool = False
    match_won: int | None = None


def initial_levels() -> TeamLevels:
    """Both teams at 2; the first deal is played at 2."""
    return TeamLevels()


def advance(
    state: TeamLevels, finish_order: Sequence[int], rules: GuandanRules | None = None,
) -> tuple[TeamLevels, DealOutcome]:
    """The levels after a deal played at ``state.level_played`` ended in ``finish_order``.

    The 上游's side climbs by ``level_gain`` but never past A (K+3 = A); the other side
    stays; the winners' new level is the next deal's level. A deal played at a side's own
    level A (``state.attempting_a``) is an attempt to pass A: a 1-2 or 1-3 finish by that
    side wins the match; a 1-4 finish by it, or losing the deal, is a failed attempt, and
    after ``rules.a_failures_reset`` failed attempts (None: never) the side goes back to 2
    and its count starts again. A side at A winning a deal played at the other side's
    level stays at A without winning the match; the next deal is played at its A."""
    if state.passed_a is not None:
        raise ValueError(f"the match is over: team {state.passed_a} passed A")
    rules = GuandanRules() if rules is None else rules
    winner, gain = level_gain(finish_order)
    attempting = state.attempting_a
    levels = list(state.levels)
    failures = list(state.a_failures)

    raised = min(LEVEL_A, levels[winner] + gain) - levels[winner]
    levels[winner] += raised
    failed = match_won = None
    reset = False
    if attempting is not None:
        if attempting == winner and gain >= 2:
            match_won = winner
        else:
            failed = attempting
            failures[failed] += 1
            limit = rules.a_failures_reset
            if limit is not None and failures[failed] >= limit:
                levels[failed], failures[failed], reset = LEVEL_TWO, 0, True

    new_state = TeamLevels(levels=tuple(levels), a_failures=tuple(failures), declarer=winner,
                           passed_a=match_won)
    outcome = DealOutcome(team=winner, gain=gain, raised=raised, level_played=state.level_played,
                          failed_attempt=failed, reset=reset, match_won=match_won)
    return new_state, outcome


def match_score(
    state: TeamLevels, rules: GuandanRules | None = None, penalties: Sequence[int] = (0, 0),
) -> tuple[int, int]:
    """The match score (级差分) of each team: (team 0, team 1).

    score[t] = base[t] − penalties[t], where base is zero-sum:
      - if team w passed A: base[w] = rules.pass_a_score, base[other] = −rules.pass_a_score;
      - otherwise base[t] = level[t] − level[other] (level indices, so at most ±12).
    ``penalties`` are the referee's LevelDiffPenalty totals per team (deducted from the
    offending side only, so the scores need not sum to zero)."""
    rules = GuandanRules() if rules is None else rules
    if state.passed_a is not None:
        base = [-rules.pass_a_score, -rules.pass_a_score]
        base[state.passed_a] = rules.pass_a_score
    else:
        diff = state.levels[0] - state.levels[1]
        base = [diff, -diff]
    return base[0] - int(penalties[0]), base[1] - int(penalties[1])
