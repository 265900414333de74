"""What refereed mode adds to a 掼蛋 deal's state (``deal.table``; None in strict mode): the
shared refereed state and one slice per feature, each an attrs record of its feature's module;
what the shared core (``tabletop.refereed``) needs to know of 掼蛋 (``TableState.GAME``), the
steps the features register (``STEPS``), and whose turn to play it is (``play_turn``)."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

from guandan import events as ev
from guandan.actions import action_to_data
from guandan.observation import Phase
from tabletop.cards import Card
from tabletop.refereed import RefereedState, Refereeing, Resume, ResumeSteps

if TYPE_CHECKING:  # the records' types only: the feature modules import this one
    from guandan.deal import Deal
    from guandan.refereed import (
        correction, draw, information, out_of_turn, pass_sequence, rebuild, reporting, restrictions, tribute,
    )

IRREGULARITIES = (
    "draw_out_of_turn", "wrong_counts_after_draw", "announce_out_of_turn", "play_out_of_turn", "wrong_kind",
    "does_not_beat", "extra_cards", "retract_play", "exposed_card", "pass_on_lead", "wrong_tribute",
    "wrong_return", "report_repeated", "ask_count", "report_missing", "report_wrong", "incident",
)
"""Every irregularity id refereed 掼蛋 records (``gd.irregular`` / ``gd.found``): the
vocabulary of the rulebook's triggers (enforcement.rulebook) and of the rulings' dispatch."""


STEPS = ResumeSteps()
"""The steps the table takes later, by name, each registered by the module that owns it: once a
wait is over (``GO_ON``: ``engine.go_on``, which computes from the state what follows — the
draw's end, a wrong tribute or return coming to light, the turn's settling) and what carries
a choice out once it is made."""
GO_ON = Resume("go_on")


def _forget_legal(deal: Deal) -> None:
    deal.legal_cache = None


class TableState(RefereedState):
    """Everything refereed mode adds to a 掼蛋 deal (strict deals have none): the shared
    refereed state (waiting for rulings, cards on the table, the choice offered) and 掼蛋's
    own."""

    def __init__(self, draw_state: draw.DrawState) -> None:
        super().__init__()
        self.draw = draw_state
        """The draw (``draw.DrawState``: its set-up, redeals, lost cards, the face-up card);
        the deal makes it (this module may not import the features)."""
        self.exposures: list[restrictions.Exposure] = []
        self.lead_options: list[restrictions.LeadOptionState] = []
        self.restriction: restrictions.LeadRestriction | None = None
        self.bars: dict[int, list[str]] = {}
        """Barred seat → the scopes ('next_turn' or 'round') of its bars, in the order they
        are served (each costs one turn)."""
        self.designation: restrictions.Designation | None = None
        self.report_due: int | None = None
        self.oot: out_of_turn.OutOfTurn | None = None
        self.correction: correction.Correction | None = None
        self.sequence: pass_sequence.PassSequence | None = None
        self.placed_last: list[int] = []
        self.unauthorised: list[information.UnauthorisedMark] = []
        self.latent: list[tribute.LatentIrregularity] = []
        """Wrong tribute / return found after the first play."""
        self.latent_report: reporting.LatentReport | None = None
        self.end_pending = False
        self.lead_count = 0
        """Leads so far (round starts): a lead option is asked once per lead."""
        self.option_asked: dict[int, int] = {}
        """Restricted seat → the lead at which a lead option was last answered for it."""
        self.turns = 0
        self.next_uid = 0
        self.last_play: dict[int, tuple[Card, ...]] = {}
        """Seat → the cards of its last play (what a ``Retract`` would take back)."""
        self.next_deal: dict[str, Any] | None = None
        self.report_step = True
        """报牌 is a decision of the seat (``Report``); False: the engine reports correctly."""
        self.laid_at: dict[int, int] = {}
        """Seat → where in the record (``point``) the cards it has on the table were
        first laid: a play that stands from there was made then (GD-4.2.2 takes it back from there)."""
        self.record: rebuild.Record
        """How the deal was made and every action applied to it (``rebuild``), set by the deal."""

    def point(self) -> int:
        """Where the action being applied now stands in the record (``rebuild`` rebuilds the deal
        up to a point)."""
        return len(self.record.actions) - 1


TableState.GAME = Refereeing(
    awaiting=Phase.AWAITING_RULING, kept=(Phase.AWAITING_RULING, Phase.SCORED), irregularities=IRREGULARITIES,
    attempt_event=ev.IrregularAttempt, found_event=ev.IrregularityFound, action_data=action_to_data,
    steps=STEPS, wait_over=GO_ON, table_changed=_forget_legal)

_PLAY, _AWAITING, _SCORED = Phase.PLAY, Phase.AWAITING_RULING, Phase.SCORED


def table_of(deal: Deal) -> TableState:
    """The refereed state of ``deal``: a feature runs only at a refereed deal, which always has one."""
    table = deal.table
    assert table is not None, "a refereed feature ran at a strict deal"
    return table


def play_turn(deal: Deal) -> int | None:
    """Whose turn to play it is (None while something else must be answered first)."""
    t = table_of(deal)
    if deal.phase is not Phase.PLAY:
        return None
    if t.oot is not None:
        return t.oot.responder
    if t.choice is not None or t.report_due is not None:
        return None
    return deal.turn


def referee_rng(deal: Deal) -> Any:
    """The REFEREE stream of this deal (tabletop.rng), for lots and random draws."""
    return table_of(deal).referee_rng(deal.seed, deal.deal_number)


class Turn(enum.Enum):
    """What a feature's ``on_turn`` says about the seat whose turn it is (``engine.settle``)."""

    NEXT = "next"
    """Nothing for this feature: ask the next one."""
    AGAIN = "again"
    """The turn moved on (a barred seat passed): look at the new one."""
    WAIT = "wait"
    """The table waits (a choice offered, a 报牌 irregularity found)."""


NEXT, AGAIN, WAIT = Turn.NEXT, Turn.AGAIN, Turn.WAIT
