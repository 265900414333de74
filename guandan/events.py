"""Everything that happens at a 掼蛋 table, as events (payloads are plain data).

Set-up of a drawn deal, in order: DealStarted, DeckShuffled, DeckCut, CardFacedUp (first
deal only), 108 × CardDrawn, HandsComplete (``Deal.from_hands``: DealStarted, HandsSet).
Then, from the second deal of a match on: TributeDue, TributeResisted or TributeWaived,
and TributeGiven / ReturnGiven (actions). Then PlayStarted, and the play: CardsPlayed /
Passed (actions), CardsReported, RoundEnded, PlayerFinished, DealScored (or ResultForced
+ DealScored). A match adds LevelsAdvanced, LevelPenalty, NextDealScheduled, MatchEnded."""

from __future__ import annotations

from typing import ClassVar

import attrs

from tabletop.events import Event

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

    KIND: ClassVar[str] = "gd.reported"
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

    KIND: ClassVar[str] = "gd.levels"
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
    """The referee's next-deal procedure (GD-5.2); None fields keep the usual way."""

    KIND: ClassVar[str] = "gd.next_deal_scheduled"
    no_tribute_team: int | None
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
