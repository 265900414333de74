"""What refereed mode adds to a 双升 deal's state (``deal.table``; None in strict mode): the
shared refereed state and one slice per feature, each an attrs record of its feature's module."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.cards import Card
from tabletop.refereed import RefereedState, Resume

if TYPE_CHECKING:  # the records' types only: the feature modules import this one
    from shengji.deal import Deal
    from shengji.refereed import draw, on_table, points, revoke

IRREGULARITIES = (
    "draw_other_seat_card", "banker_drew_kitty", "miscount_after_draw", "simultaneous_declaration",
    "exposed_card", "extra_card", "lead_before_burial", "lead_wrong_bury_count", "lead_out_of_turn",
    "lead_before_trick_complete", "play_before_turn", "show_before_upper", "wrong_follow", "incident",
    "wrong_card_count", "invalid_lead",
)
"""Every irregularity id refereed 双升 records (``sj.irregular`` / ``sj.found``): the
vocabulary of the rulebook's triggers (enforcement.rulebook) and of the rulings' dispatch."""


class TableState(RefereedState):
    """Everything refereed mode adds to a 双升 deal (strict deals have none): the shared
    refereed state (waiting for rulings, cards on the table, the choice offered) and 双升's
    own."""

    def __init__(self, draw_state: draw.DrawState) -> None:
        super().__init__()
        self.draw = draw_state
        """The draw (``draw.DrawState``: the Draw step, slips, a miscount, the kitty draw); the
        deal makes it (this module may not import the features)."""
        self.then: Resume | None = None
        """What the table does with the deal once the wait (and any choice) is over (a step
        owned by the feature that paused it, registered in ``core.RESUME_STEPS``:
        ``draw.draw_on``, ``draw.end_the_draw``, ``declaration.declare_on``,
        ``revoke.after_the_trick``), or None (the seat whose turn it is acts)."""
        self.attempts: dict[int, on_table.AttemptOnTable] = {}
        """seq → the play attempt lying on the table."""
        self.exposed: list[list[Card]] = [[], [], [], []]
        self.revoke: revoke.LatentRevoke | None = None
        self.bad_burial: int | None = None
        """Cards buried when the banker buried a wrong number (found at its first lead)."""
        self.shown: dict[int, dict[int, tuple[str, ...]]] = {}
        """seq → {seat: declaration cards} of simultaneous declarations awaiting a ruling."""
        self.deferred: list[points.DeferredPenalty] = []
        """Point penalties waiting for the banker to be known."""


def table_of(deal: Deal) -> TableState:
    """The refereed state of ``deal``: a feature runs only at a refereed deal, which always has one."""
    table = deal.table
    assert table is not None, "a refereed feature ran at a strict deal"
    return table
