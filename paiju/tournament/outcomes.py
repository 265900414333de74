"""What a tournament reads from a played unit: its deals (who won, by how many levels,
the finishing order or the points) and, for a match, the match winner.

The per-game part is the game's ``paiju.games.PaijuPart.deal_facts`` (how its results read
as ``DealFacts``): everything else in the tournament is the same for every game. Both games'
deal results name the team that won the deal (``team``: 掼蛋's 上游 team, 双升's team that
goes up or takes the bank) and its gain, so the level difference of a deal is
``+levels`` for that team and ``-levels`` for the other.
"""

from __future__ import annotations

from typing import Any

import attrs

from tabletop.errors import OptionError

from paiju.games import DealFacts, paiju_part
from paiju.sim.batch import RefereedResult

__all__ = ["DealFacts", "UnitFacts", "unit_facts"]


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
    read = paiju_part(game).deal_facts
    if read is None:
        raise OptionError(f"a tournament cannot score {game!r}: its results do not say who won by how many levels")
    deals, winner = read(plain, is_match)
    if not refereed:
        return UnitFacts(deals, is_match, winner)
    return UnitFacts(deals, is_match, winner,
                     rulings=tuple((clause, side) for clause, side, _ in result.rulings),
                     sanctions=tuple((side, kind) for _, side, kinds in result.rulings for kind in kinds),
                     irregular=result.irregular, unresolved=result.unresolved, refereed=True)
