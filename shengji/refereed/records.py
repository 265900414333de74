"""The slices of refereed 双升 state that used to be positional tuples, one attrs record per
concept (each named by the feature module that owns it)."""

from __future__ import annotations

import attrs

from tabletop.cards import Card


@attrs.define(slots=True)
class Grab:
    """A card drawn out of turn (``draw``): ``seat`` took ``card`` due to ``rightful``;
    ``in_hand``: put into the hand (else lying on the table)."""

    seat: int
    card: Card
    in_hand: bool
    rightful: int


@attrs.define(slots=True, order=True)
class DrawSlip:
    """An out-of-turn draw to come (``draw``): ``seat`` will take the card at draw
    ``position`` (attempt ``seq``); ordered by position."""

    position: int
    seq: int
    seat: int
    face_seen: bool
    in_hand: bool


@attrs.define(slots=True)
class KittyDraw:
    """SJ-1.5 (``draw``): the banker will draw on into the kitty at the end of the draw."""

    banker: int
    seq: int


@attrs.define(slots=True)
class AttemptOnTable:
    """A play attempt lying on the table (``play``): ``cards`` of the play, ``extra`` cards."""

    seat: int
    irregularity: str
    cards: tuple[Card, ...]
    extra: tuple[Card, ...]


@attrs.define(slots=True)
class DeferredPenalty:
    """A point penalty given before the banker is known, waiting for it."""

    offender: int
    points: int
    reason: str
