"""Everything that happens at a 掼蛋 table, as events (payloads are plain data).

Set-up of a drawn deal, in order: DealStarted, DeckShuffled, DeckCut, CardFacedUp (first
deal only), 108 × CardDrawn, HandsComplete (``Deal.from_hands``: DealStarted, HandsSet).
Then, from the second deal of a match on: TributeDue, TributeResisted or TributeWaived,
and TributeGiven / ReturnGiven (actions). Then PlayStarted, and the play: CardsPlayed /
Passed (actions), CardsReported, RoundEnded, PlayerFinished, DealScored (or ResultForced
+ DealScored). A match adds LevelsAdvanced, LevelPenalty, NextDealScheduled, MatchEnded.

Refereed mode adds table steps as actions (DrawRan, CountReported, ChoiceMade,
RefereeCalled), irregular attempts (IrregularAttempt, an action: a replay re-applies it) and
their discovery (IrregularityFound), and one event per table primitive a ruling uses."""

from __future__ import annotations

from typing import ClassVar

import attrs

from tabletop.events import Event
from tabletop.rulings import irregularity_events
from tabletop.table_events import (  # noqa: F401  (the table's own events, shared by every game)
    BarEnded, BarredPass, CardsExposed, CardsReturned, ChoiceMade, ChoiceOffered, ExposureLifted, PenaltyCardsMarked, RandomlyDrawn,
    SeatBarred, TurnRestored,
)

# ---------------------------------------------------------------------------------------------
# Set-up


@attrs.frozen(kw_only=True)
class DealStarted(Event):
    """A deal begins at ``level`` (rank text). ``source`` is 'draw' (physical draw) or
    'hands' (explicit hands: puzzles, tests, training)."""

    KIND: ClassVar[str] = "gd.deal_started"
    level: str
    source: str
    shuffler: int | None = None
    cutter: int | None = None
    first_drawer: int | None = None


@attrs.frozen(kw_only=True)
class DeckShuffled(Event):
    """The shuffler (``seat``) has shuffled; ``deck`` is the order, top card first (audit)."""

    KIND: ClassVar[str] = "gd.shuffled"
    deck: tuple[str, ...]


@attrs.frozen(kw_only=True)
class DeckCut(Event):
    """The cutter (``seat``) moved the top ``position`` cards to the bottom."""

    KIND: ClassVar[str] = "gd.cut"
    position: int


@attrs.frozen(kw_only=True)
class CardFacedUp(Event):
    """明牌: the card at ``position`` (0 = drawn first) is turned face up before the draw;
    ``seat`` is the seat that will draw it and lead the first round."""

    KIND: ClassVar[str] = "gd.face_up"
    card: str
    position: int


@attrs.frozen(kw_only=True)
class CardDrawn(Event):
    KIND: ClassVar[str] = "gd.drawn"
    card: str


@attrs.frozen(kw_only=True)
class HandsComplete(Event):
    KIND: ClassVar[str] = "gd.hands_complete"
    sizes: tuple[int, ...]


@attrs.frozen(kw_only=True)
class HandsSet(Event):
    """Explicit hands (``Deal.from_hands``), seat by seat, in canonical order."""

    KIND: ClassVar[str] = "gd.hands_set"
    hands: tuple[tuple[str, ...], ...]


# ---------------------------------------------------------------------------------------------
# Tribute and return


@attrs.frozen(kw_only=True)
class TributeDue(Event):
    """Who pays whom this deal (payer, receiver) and whether it is a double tribute."""

    KIND: ClassVar[str] = "gd.tribute_due"
    payments: tuple[tuple[int, int], ...]
    double: bool
    excused: tuple[int, ...] = ()
    """Seats that owed tribute but give none (GD-5.1: judged 单下 last deal)."""


@attrs.frozen(kw_only=True)
class TributeResisted(Event):
    """抗贡: the payers hold both big jokers; no tribute, no return."""

    KIND: ClassVar[str] = "gd.tribute_resisted"
    payers: tuple[int, ...]


@attrs.frozen(kw_only=True)
class TributeWaived(Event):
    """No tribute this deal by a referee ruling (GD-5); ``double``: double tribute was due."""

    KIND: ClassVar[str] = "gd.tribute_waived"
    double: bool
    excused: tuple[int, ...] = ()
    """Seats excused from paying (GD-5.1); with no seat left to pay, no tribute."""


@attrs.frozen(kw_only=True)
class TributeGiven(Event):
    KIND: ClassVar[str] = "gd.tribute_given"
    ACTION: ClassVar[bool] = True
    card: str
    receiver: int


@attrs.frozen(kw_only=True)
class ReturnGiven(Event):
    KIND: ClassVar[str] = "gd.return_given"
    ACTION: ClassVar[bool] = True
    card: str
    payer: int


# ---------------------------------------------------------------------------------------------
# Play


@attrs.frozen(kw_only=True)
class PlayStarted(Event):
    """``seat`` leads the first round. ``reason``: 'face_up', 'tribute', 'resisted',
    'no_tribute' or 'given' (set explicitly)."""

    KIND: ClassVar[str] = "gd.play_started"
    reason: str


@attrs.frozen(kw_only=True)
class CardsPlayed(Event):
    KIND: ClassVar[str] = "gd.played"
    ACTION: ClassVar[bool] = True
    cards: tuple[str, ...]
    reading: str


@attrs.frozen(kw_only=True)
class Passed(Event):
    KIND: ClassVar[str] = "gd.passed"
    ACTION: ClassVar[bool] = True


@attrs.frozen(kw_only=True)
class CardsReported(Event):
    """报牌: ``seat`` announces it holds ``count`` (1–10) cards."""

    KIND: ClassVar[str] = "gd.cards_reported"
    count: int


@attrs.frozen(kw_only=True)
class RoundEnded(Event):
    """Everyone still holding cards passed on ``seat``'s play; ``leader`` leads next
    (``seat`` itself, or its partner when ``seat`` went out: 接风)."""

    KIND: ClassVar[str] = "gd.round_over"
    leader: int
    partner_leads: bool


@attrs.frozen(kw_only=True)
class PlayerFinished(Event):
    """``seat`` went out and takes ``place`` (1 = 上游 … 3 = 三游)."""

    KIND: ClassVar[str] = "gd.finished"
    place: int


@attrs.frozen(kw_only=True)
class ResultForced(Event):
    """A table primitive ended the deal with ``finish_order`` (the referee's ruling)."""

    KIND: ClassVar[str] = "gd.result_forced"
    finish_order: tuple[int, ...]
    reason: str


@attrs.frozen(kw_only=True)
class DealScored(Event):
    """The deal is over: the full finishing order, the winning team and its level gain
    (0 when the rules give none), and the number of plays made."""

    KIND: ClassVar[str] = "gd.scored"
    finish_order: tuple[int, ...]
    team: int
    levels: int
    plays: int


# ---------------------------------------------------------------------------------------------
# Match


@attrs.frozen(kw_only=True)
class LevelsAdvanced(Event):
    """Team levels after a deal (rank text per team), and whether the match is won."""

    KIND: ClassVar[str] = "gd.levels_advanced"
    levels: tuple[str, ...]
    team: int
    gain: int
    a_failures: tuple[int, ...]
    outcome: str


@attrs.frozen(kw_only=True)
class LevelPenalty(Event):
    """The referee deducted ``levels`` from ``team``'s match score (级差分)."""

    KIND: ClassVar[str] = "gd.level_penalty"
    team: int
    levels: int
    reason: str


@attrs.frozen(kw_only=True)
class NextDealScheduled(Event):
    """The referee's next-deal procedure (GD-5.1: ``no_tribute_seats`` give no tribute;
    GD-5.2: no tribute at all, shuffler ... leader); None fields keep the usual way."""

    KIND: ClassVar[str] = "gd.next_deal_scheduled"
    no_tribute_seats: tuple[int, ...]
    no_tribute: bool
    shuffler: int | None
    cutter: int | None
    first_drawer: int | None
    leader: int | None


@attrs.frozen(kw_only=True)
class MatchEnded(Event):
    """``how``: 'pass_a', 'deals' or 'max_deals'; ``winner`` team or None (tie)."""

    KIND: ClassVar[str] = "gd.match_over"
    how: str
    winner: int | None
    levels: tuple[str, ...]
    scores: tuple[int, ...]


# ---------------------------------------------------------------------------------------------
# Refereed mode: table steps (actions)


@attrs.frozen(kw_only=True)
class DrawRan(Event):
    """The rightful drawer (``seat``) let the draw run on in order to its end."""

    KIND: ClassVar[str] = "gd.draw_ran"
    ACTION: ClassVar[bool] = True


@attrs.frozen(kw_only=True)
class CountReported(Event):
    """报牌 as a seat's own step in refereed mode (correct: ``count`` is what it holds)."""

    KIND: ClassVar[str] = "gd.count_reported"
    ACTION: ClassVar[bool] = True
    count: int


@attrs.frozen(kw_only=True)
class RefereeCalled(Event):
    """The player after an out-of-turn play (``seat``) calls the referee."""

    KIND: ClassVar[str] = "gd.referee_called"
    ACTION: ClassVar[bool] = True
    offender: int


# ---------------------------------------------------------------------------------------------
# Refereed mode: irregular attempts and their discovery


IrregularAttempt, IrregularityFound = irregularity_events("gd", __name__)


# ---------------------------------------------------------------------------------------------
# Refereed mode: what the table primitives did (each names the ruling's clause as ``reason``)


@attrs.frozen(kw_only=True)
class LeadOptionSet(Event):
    """GD-2.3.1: when ``restricted`` next has the lead, ``chooser`` picks forbid / require /
    free about ``combination`` (the type of the exposed cards of ``seat``)."""

    KIND: ClassVar[str] = "gd.lead_option"
    chooser: int
    restricted: int
    combination: str
    cards: tuple[str, ...]


@attrs.frozen(kw_only=True)
class PenaltyKindDesignated(Event):
    """GD-6: the penalty cards' holder (``holder``) has penalty cards of several combination
    types; its 下家 (``seat``) designated ``combination``, the type to be played this turn
    (the holder plays penalty cards of that type, or passes)."""

    KIND: ClassVar[str] = "gd.designated"
    holder: int
    combination: str


@attrs.frozen(kw_only=True)
class LeadRestricted(Event):
    """``seat``'s next lead: ``rule`` 'forbid' or 'require' a ``combination`` type ('cards':
    exactly ``cards``); ``lapsed``: nothing satisfies it (or only bombs do, for 'require'),
    so the seat leads freely."""

    KIND: ClassVar[str] = "gd.lead_restricted"
    rule: str
    combination: str
    cards: tuple[str, ...]
    lapsed: bool


@attrs.frozen(kw_only=True)
class CorrectionDue(Event):
    """``seat`` corrects a wrong play (a legal play or a pass); the cards of the attempt not
    used in the correction will be exposed."""

    KIND: ClassVar[str] = "gd.correction_due"
    cards: tuple[str, ...]
    reason: str


@attrs.frozen(kw_only=True)
class PlayStands(Event):
    """A play that was not an in-turn action stands as if made in turn: an out-of-turn play
    accepted by the next player (GD-2.3.2), the rest of a play with extra cards (GD-2.4.3)."""

    KIND: ClassVar[str] = "gd.play_stands"
    cards: tuple[str, ...]
    reading: str
    reason: str


@attrs.frozen(kw_only=True)
class PlaysTakenBack(Event):
    """GD-4.2.2: ``seat`` took back its play, and with it everything since (plays, passes,
    what was ruled on them): the table is as it was before event ``since`` (that play's first
    event); ``cards`` per seat are back in the hands, not exposed; ``seats``: whose plays."""

    KIND: ClassVar[str] = "gd.taken_back"
    since: int
    seats: tuple[int, ...]
    cards: tuple[tuple[str, ...], ...]
    reason: str


@attrs.frozen(kw_only=True)
class PassSequence(Event):
    """GD-4.2.3 / 4.2.4: ``seats`` in turn may pass even with the lead; ``then``:
    'offender_leads' (all passed: the bar ends, ``seat`` reports and leads its exposed
    cards) or 'play_on'."""

    KIND: ClassVar[str] = "gd.pass_sequence"
    seats: tuple[int, ...]
    then: str


@attrs.frozen(kw_only=True)
class PlacedLast(Event):
    """单下: ``seat`` is judged 下游 and plays no more in this deal."""

    KIND: ClassVar[str] = "gd.placed_last"
    reason: str


@attrs.frozen(kw_only=True)
class UnauthorisedInformation(Event):
    """GD-7: ``seats`` may not use what ``cards`` (of ``source``) show: ``what`` says how
    they came to know it."""

    KIND: ClassVar[str] = "gd.unauthorised"
    seats: tuple[int, ...]
    source: int
    cards: tuple[str, ...]
    what: str


@attrs.frozen(kw_only=True)
class Redealt(Event):
    """The cards are gathered and the deal is drawn again (``attempt`` from 1); a fresh
    deck when the old one was short (GD-1.2)."""

    KIND: ClassVar[str] = "gd.redeal"
    attempt: int
    fresh_deck: bool
    reason: str


@attrs.frozen(kw_only=True)
class CardLost(Event):
    """During a flawed draw a card fell off the table unseen (the deck is short now)."""

    KIND: ClassVar[str] = "gd.card_lost"
    card: str
