"""双升's referee part (``enforcement.games``): how to make its referee, and where its rulings,
infraction catalogue, checker and catalogues live. Its import registers the part. The rulings
themselves (``enforcement.shengji_rulings``, with the table effects they name) load with the
first ruling, so a clean refereed run never imports them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from enforcement.games import OnFirstUse, RefereePart, register_referee
from enforcement.referee import Fallback, Referee, RulingsOnFirstUse, record_only_fallback

if TYPE_CHECKING:   # the referee makes the ledger with its first ruling
    from enforcement.ledger import Ledger

GAME = "shengji"


def make_shengji_referee(rules: Any = None, fallback: Fallback = record_only_fallback,
                         ledger: Ledger | None = None, *, special_small_pairs: bool = False) -> Referee:
    """A referee for 双升 (one per match or lone deal). ``rules`` (ShengjiRules) is accepted
    for symmetry with the engines; the rulings read the deal's own. ``fallback`` decides the
    sanctions of an unresolved irregularity (default: an AdjustedScore that changes nothing,
    recorded as such) and is the adjusted-score hook of an established revoke (SJ-3.2)."""
    make = _Rulings(special_small_pairs, fallback)
    referee = Referee(RulingsOnFirstUse(GAME, make), ledger, fallback)
    make.referee = referee
    return referee


class _Rulings:
    """Makes the referee's rulings at its first ruling. A class, not a closure: a referee
    pickles with its table (the environments' snapshots)."""

    def __init__(self, special_small_pairs: bool, fallback: Fallback) -> None:
        self.special_small_pairs = special_small_pairs
        self.fallback = fallback
        self.referee: Referee | None = None

    def __call__(self) -> Any:
        from enforcement.shengji_rulings import ShengjiRulings

        assert self.referee is not None, "made with its referee"
        # the rulings read the referee's ledger (one match ledger for both)
        return ShengjiRulings(special_small_pairs=self.special_small_pairs, fallback=self.fallback,
                              ledger=self.referee.ledger)


register_referee(GAME, RefereePart(make_referee=make_shengji_referee,
                                   catalogue=OnFirstUse("enforcement.shengji_infractions", "ShengjiInfractions"),
                                   checker=OnFirstUse("enforcement.shengji_invariants", "ShengjiChecker"),
                                   effect_events=OnFirstUse("enforcement.carried_out", "SHENGJI"),
                                   irregularities=OnFirstUse("enforcement.shengji_irregularities", "IRREGULARITIES"),
                                   interactions=OnFirstUse("enforcement.shengji_interactions", "INTERACTIONS")))
