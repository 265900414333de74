"""The slices of refereed 掼蛋 state that used to be positional tuples, one attrs record per
concept (each owned by the feature module named in its docstring)."""

from __future__ import annotations

from typing import Any

import attrs

from guandan.observation import UnauthorisedItem
from tabletop.cards import Card


@attrs.define(slots=True)
class Grab:
    """A card drawn out of turn (``draw``): ``seat`` took ``card`` due to ``rightful``;
    ``in_hand``: put into the hand (else lying on the table)."""

    seat: int
    card: Card
    in_hand: bool
    rightful: int


@attrs.define(slots=True)
class LatentIrregularity:
    """A wrong tribute or return nobody noticed (``tribute``), found after the first play."""

    seq: int
    irregularity: str
    seat: int
    facts: dict[str, Any]


@attrs.define(slots=True)
class LeadRestriction:
    """``seat``'s next lead (``lead_option``): must not ('forbid') or must ('require') be of
    ``kind``, or must be exactly ``cards`` ('cards', GD-4.2.3)."""

    seat: int
    rule: str
    kind: str
    cards: tuple[Card, ...] = ()


@attrs.define(slots=True)
class Designation:
    """GD-6 (``penalty_cards``): the kind ``holder``'s penalty cards must be played as on turn
    number ``turn``, designated by its 下家."""

    holder: int
    turn: int
    kind: str


@attrs.define(slots=True)
class Correction:
    """GD-2.4 (``penalty_cards``): ``seat`` acts again on its attempt ``cards``; the cards the
    correction leaves unused are then exposed as ``unused`` says ('lead_option' | 'penalty')."""

    seat: int
    cards: list[Card]
    reason: str
    unused: str


@attrs.define(slots=True)
class PassSequence:
    """GD-4.2.3 / 4.2.4 (``reporting``): ``seats`` may pass in turn (``index``: whose turn it
    is); then the offender leads ('offender_leads') or play goes on ('play_on')."""

    offender: int
    seats: list[int]
    index: int
    then: str


@attrs.define(slots=True)
class UnauthorisedMark:
    """GD-7: ``seat`` may not use what ``item`` shows."""

    seat: int
    item: UnauthorisedItem
