"""What refereed mode adds to a 双升 deal's state (``deal.table``; None in strict mode): the
shared refereed state and one slice per feature, each an attrs record of its feature's module;
what the shared core (``tabletop.refereed``) needs to know of 双升 (``TableState.GAME``) and the
steps the features register (``STEPS``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shengji.actions import action_to_data
from shengji.events import IrregularAttempt, IrregularityFound
from shengji.phase import Phase
from tabletop.cards import Card
from tabletop.refereed import RefereedState, Refereeing, ResumeSteps, nothing_cached

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


STEPS = ResumeSteps()
"""The steps the table takes later, by name, each registered by the feature that owns it: what
a wait resumes with (``TableState.then``: ``draw.draw_on``, ``draw.end_the_draw``,
``declaration.declare_on``, ``revoke.after_the_trick``; ``carry_on`` takes it) and what carries
a choice out (``remedies``)."""


class TableState(RefereedState):
    """Everything refereed mode adds to a 双升 deal (strict deals have none): the shared
    refereed state (waiting for rulings, cards on the table, the choice offered) and 双升's
    own."""

    def __init__(self, draw_state: draw.DrawState) -> None:
        super().__init__()
        self.draw = draw_state
        """The draw (``draw.DrawState``: the Draw step, slips, a miscount, the kitty draw); the
        deal makes it (this module may not import the features)."""
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


def carry_on(deal: Deal) -> None:
    """The wait and any choice are over: the table goes on (``then``, the step of the feature
    that paused it; none: the seat whose turn it is acts). Nothing while a choice is open."""
    t = table_of(deal)
    if t.choice is not None:
        return
    then, t.then = t.then, None
    STEPS.resume(deal, then)


def referee_rng(deal: Deal) -> Any:
    """The REFEREE stream of this deal (tabletop.rng), for lots and random draws."""
    return table_of(deal).referee_rng(deal.seed, deal.stream.deal)


TableState.GAME = Refereeing(
    awaiting=Phase.AWAITING_RULING, kept=(Phase.AWAITING_RULING,), irregularities=IRREGULARITIES,
    attempt_event=IrregularAttempt, found_event=IrregularityFound, action_data=action_to_data,
    steps=STEPS, wait_over=STEPS.register(carry_on), table_changed=nothing_cached)
