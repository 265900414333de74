"""掼蛋's referee part (``enforcement.games``): how to make its referee, and where its rulings,
infraction catalogue, checker and catalogues live. Its import registers the part. The rulings
themselves (``enforcement.guandan_rulings``, with the table effects they name) load with the
first ruling, so a clean refereed run never imports them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from enforcement.games import OnFirstUse, RefereePart, register_referee
from enforcement.referee import Fallback, Referee, RulingsOnFirstUse, record_only_fallback

if TYPE_CHECKING:   # the referee makes the ledger with its first ruling
    from enforcement.ledger import Ledger

GAME = "guandan"


def make_guandan_referee(rules: Any = None, fallback: Fallback = record_only_fallback,
                         ledger: Ledger | None = None) -> Referee:
    """A referee for 掼蛋 (one per match or lone deal). ``rules`` (GuandanRules) is accepted
    for symmetry with the engines; the rulings do not depend on it. ``fallback`` decides
    the sanctions of an unresolved irregularity (default: an AdjustedScore that changes
    nothing, recorded as such)."""
    return Referee(RulingsOnFirstUse(GAME, _rulings), ledger, fallback)


def _rulings() -> Any:
    from enforcement.guandan_rulings import GuandanRulings

    return GuandanRulings()


TABLE_CITATIONS = {
    "lead_option": "GD-2.3.1",    # the 上家 answers a lead option a or b: the exposed cards go back
    "penalty_cards": "GD-6",      # exposed cards become penalty cards: by choice c, or as the option lapses
}
"""The clauses the 掼蛋 table cites for the steps it takes on its own after a ruling set them up."""


register_referee(GAME, RefereePart(make_referee=make_guandan_referee,
                                   catalogue=OnFirstUse("enforcement.injector", "GuandanInfractions"),
                                   checker=OnFirstUse("enforcement.guandan_invariants", "GuandanChecker"),
                                   effect_events=OnFirstUse("enforcement.carried_out", "GUANDAN"),
                                   irregularities=OnFirstUse("enforcement.guandan_irregularities", "IRREGULARITIES"),
                                   interactions=OnFirstUse("enforcement.guandan_interactions", "INTERACTIONS"),
                                   table_citations=TABLE_CITATIONS))
