"""What a tournament reads from a played unit: its deals (who won, by how many levels,
the finishing order or the points) and, for a match, the match winner.

The per-game part is the one small table ``_DEALS`` at the bottom (keyed by the adapter's
game name): everything else in the tournament is the same for both games. Both games'
deal results name the team that won the deal (``team``: 掼蛋's 上游 team, 双升's team that
goes up or takes the bank) and its gain, so the level difference of a deal is
``+levels`` for that team and ``-levels`` for the other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from paiju.batch import RefereedResult


@attrs.frozen
class DealFacts:
    number: int
    """1 for a lone deal; the deal's number in its match otherwise."""
    winner_team: int
    levels: int
    finish_order: str | None = None
    """掼蛋: the four seats in finishing order, e.g. '0 2 1 3'."""
    banker: int | None = None
    """双升: the banker seat."""
    points: int | None = None
    """双升: the attackers' points after adjustments."""
    forced: bool | None = None
    """掼蛋: the result was set by a referee ruling."""
    point_adjustment: int | None = None
    """双升: the attackers' points moved by referee rulings (failed throws not counted)."""


@attrs.frozen
class UnitFacts:
    """A deal or match as the tournament scores it. ``match_winner`` is None for a lone
    deal and for a tied match (``is_match`` tells them apart). ``rulings``: (clause, side)
    per ruling of the unit, ``sanctions`` the sanction kinds by side (0, 1, or None for the
    table)."""

    deals: tuple[DealFacts, ...]
    is_match: bool = False
    match_winner: int | None = None
    rulings: tuple[tuple[str, int | None], ...] = ()
    sanctions: tuple[tuple[int | None, str], ...] = ()
    irregular: int = 0
    unresolved: int = 0
    refereed: bool = False

    def level_diff(self, team: int) -> float:
        """Levels gained by ``team`` minus levels gained by the other, per deal."""
        total = sum(d.levels if d.winner_team == team else -d.levels for d in self.deals)
        return total / len(self.deals) if self.deals else 0.0

    def score(self, team: int) -> float:
        """1 if ``team`` won (the match, or the lone deal), 0 if it lost, ½ for a tie."""
        if self.is_match:
            return 0.5 if self.match_winner is None else float(self.match_winner == team)
        return float(self.deals[0].winner_team == team)


def unit_facts(game: str, unit: str, result: Any) -> UnitFacts:
    refereed = isinstance(result, RefereedResult)
    plain = result.result if refereed else result
    is_match = unit == "matches"
    deals, winner = _DEALS[game](plain, is_match)
    if not refereed:
        return UnitFacts(deals, is_match, winner)
    return UnitFacts(deals, is_match, winner,
                     rulings=tuple((clause, side) for clause, side, _ in result.rulings),
                     sanctions=tuple((side, kind) for _, side, kinds in result.rulings for kind in kinds),
                     irregular=result.irregular, unresolved=result.unresolved, refereed=True)


# ---------------------------------------------------------------------------------------------
# The per-game table

def _order(seats: tuple[int, ...]) -> str:
    return " ".join(str(s) for s in seats)


def _guandan(result: Any, is_match: bool) -> tuple[tuple[DealFacts, ...], int | None]:
    if not is_match:
        return (DealFacts(1, result.team, result.levels, finish_order=_order(result.finish_order),
                          forced=result.forced),), None
    return tuple(DealFacts(d.number, d.team, d.gain, finish_order=_order(d.finish_order), forced=d.forced)
                 for d in result.deals), result.winner


def _shengji_deal(number: int, d: Any) -> DealFacts:
    moved = sum(delta for reason, delta in d.adjustments if reason != "failed throw")
    return DealFacts(number, d.team, d.levels, banker=d.banker, points=d.points, point_adjustment=moved)


def _shengji(result: Any, is_match: bool) -> tuple[tuple[DealFacts, ...], int | None]:
    if not is_match:
        return (_shengji_deal(1, result),), None
    return tuple(_shengji_deal(i + 1, d) for i, d in enumerate(result.results)), result.winner


_DEALS: dict[str, Callable[[Any, bool], tuple[tuple[DealFacts, ...], int | None]]] = {
    "guandan": _guandan,
    "shengji": _shengji,
}
