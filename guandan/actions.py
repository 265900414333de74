"""The decisions a 掼蛋 seat makes: play, pass, give tribute, return a card — and, in
refereed mode, the steps a real table has and the things a real player can get wrong.

Every action is a frozen record naming its seat. A play carries its cards in canonical
order and the declared reading (a set of cards can have several readings, and each one
is a distinct action).

Refereed mode only (strict mode refuses them):
- ``Draw(seat)``: the rightful drawer lets the draw run on in order to its end (one decision
  per draw, not 108). ``extra_by``/``lost``/``at`` describe an unnoticed slip in it (GD-1.2).
- ``DrawOutOfTurn``: a seat takes the card another seat should draw (GD-1.1), noticed at once.
- ``Report(seat, count)``: 报牌 after a play that leaves 10 or fewer cards. ``count`` None
  is saying nothing; ``discovered`` is the GD-4.2 stage (1-5) at which a missing or wrong
  report comes to light (a fact chosen by whoever commits it); ``rounds_later`` (stage 2):
  it comes to light only when that many rounds (圈) more have begun.
- ``Choose(seat, option)``: answers a choice the table offers (the a/b/c lead option, which
  penalty cards to play, whether to take plays back).
- ``CallReferee(seat)``: the player after an out-of-turn play calls the referee instead of
  playing on it (GD-2.3.1; playing or passing on it accepts it, GD-2.3.2).
- Things only an irregular player does: ``Announce`` (pass / "I beat it" out of turn),
  ``PlayWithExtra`` (夹带), ``Retract``, ``AskCount``, ``DropCard`` (a card shown by
  accident) and ``Incident`` (what a human referee is told about: the manner of play,
  information passed; no engine can see it).

``GiveTribute``/``ReturnCard`` carry ``discovered`` for a wrong card: 'before_first_play'
(the default: noticed at once) or 'after_first_play'. ``ReturnCard.to`` names a recipient
other than the payer (a wrong return).

``action_to_data``/``action_from_data`` turn any action into plain (name, value) pairs and
back: the payload of an irregular-attempt event, so that a replay re-applies the attempt.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from guandan.combos import Reading
from tabletop.cards import Card, as_cards, codes, format_cards, sort_cards
from tabletop.errors import LogError

DISCOVERED_AT_ONCE = "before_first_play"
DISCOVERED_LATER = "after_first_play"
TRIBUTE_DISCOVERY = (DISCOVERED_AT_ONCE, DISCOVERED_LATER)
REPORT_STAGES = (1, 2, 3, 4, 5)
REPORT_ROUNDS_LATER = (0, 1, 2, 3)
_OMIT_DEFAULT = {"omit_default": True}
"""A field ``action_to_data`` leaves out at its default (older logs do not have it)."""
ANNOUNCEMENTS = ("pass", "beat")


def _canonical_cards(cards: "str | Iterable[Card | int | str]") -> tuple[Card, ...]:
    return tuple(sort_cards(as_cards(cards)))


def _as_reading(reading: "Reading | str") -> Reading:
    return Reading.from_code(reading) if isinstance(reading, str) else reading


def _optional_card(card: Any) -> Card | None:
    return None if card is None else Card(card)


def _in(*allowed: Any) -> Any:
    def check(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
        if value not in allowed:
            raise ValueError(f"{type(instance).__name__}.{attribute.name} must be one of {allowed}, got {value!r}")
    return check


@attrs.frozen
class Play:
    """Lay ``cards`` down as ``reading`` (a Reading or its code, e.g. ``"PAIR 9"``)."""

    seat: int
    cards: tuple[Card, ...] = attrs.field(converter=_canonical_cards)
    reading: Reading = attrs.field(converter=_as_reading)

    def __str__(self) -> str:
        return f"seat {self.seat} plays {format_cards(self.cards)} as {self.reading.code}"


@attrs.frozen
class Pass:
    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} passes"


@attrs.frozen
class GiveTribute:
    """进贡: the payer gives ``card`` (its choice among the copies of the required rank)."""

    seat: int
    card: Card = attrs.field(converter=Card)
    discovered: str | None = attrs.field(default=None, validator=_in(None, *TRIBUTE_DISCOVERY))

    def __str__(self) -> str:
        return f"seat {self.seat} gives tribute {self.card}"


@attrs.frozen
class ReturnCard:
    """还贡: the tribute receiver returns ``card`` to its own payer (``to``: another seat,
    which is a wrong return)."""

    seat: int
    card: Card = attrs.field(converter=Card)
    to: int | None = None
    discovered: str | None = attrs.field(default=None, validator=_in(None, *TRIBUTE_DISCOVERY))

    def __str__(self) -> str:
        return f"seat {self.seat} returns {self.card}"


# ---------------------------------------------------------------------------------------------
# Refereed mode: table steps


@attrs.frozen
class Draw:
    """The draw runs on in order to its end, from ``seat`` (the rightful next drawer).

    A slip nobody notices until the hands are counted (GD-1.2): ``extra_by`` takes the card
    due to the drawer ``at`` draws from now (it holds one too many, the last drawer one too
    few); ``lost``: the card ``at`` draws from now falls off the table unseen (the deck comes
    up short)."""

    seat: int
    extra_by: int | None = None
    lost: bool = False
    at: int = 0

    @property
    def flawed(self) -> bool:
        return self.extra_by is not None or self.lost


@attrs.frozen
class Report:
    """报牌: announce ``count`` cards held (None: say nothing). A missing or wrong report is
    found at GD-4.2 stage ``discovered``: 1 before the next player acts, 2 after it acted,
    3 when the offender plays again, 4 after it played several times, 5 when it goes out.
    Stage 2 comes to light at the offender's next turn, or — ``rounds_later`` > 0 — only as
    that many rounds more begin (at their lead; at the offender's next play if it plays first,
    then as GD-4.2.3)."""

    seat: int
    count: int | None
    discovered: int = attrs.field(default=1, validator=_in(*REPORT_STAGES))
    rounds_later: int = attrs.field(default=0, validator=_in(*REPORT_ROUNDS_LATER), metadata=_OMIT_DEFAULT)


@attrs.frozen
class Choose:
    seat: int
    option: str

    def __str__(self) -> str:
        return f"seat {self.seat} chooses {self.option}"


@attrs.frozen
class CallReferee:
    """The player after an out-of-turn play calls the referee (GD-2.3.1)."""

    seat: int


# ---------------------------------------------------------------------------------------------
# Refereed mode: what only an irregular player does


@attrs.frozen
class DrawOutOfTurn:
    """``seat`` takes the card the rightful drawer should draw ``after`` draws from now;
    noticed at once. Facts: was its face seen, was it put into the hand, can it be told
    apart there (GD-1.1.1 - GD-1.1.3b)."""

    seat: int
    after: int = 0
    face_seen: bool = False
    inserted: bool = False
    identifiable: bool = True


@attrs.frozen
class Announce:
    """Says 'pass' or 'beat' (压制, I beat it) before its turn (GD-2.2)."""

    seat: int
    what: str = attrs.field(validator=_in(*ANNOUNCEMENTS))


@attrs.frozen
class PlayWithExtra:
    """夹带: ``cards`` as ``reading`` with ``extra`` cards carried along (GD-2.4.3)."""

    seat: int
    cards: tuple[Card, ...] = attrs.field(converter=_canonical_cards)
    reading: Reading = attrs.field(converter=_as_reading)
    extra: tuple[Card, ...] = attrs.field(converter=_canonical_cards)


@attrs.frozen
class Retract:
    """Tries to take back its last play (GD-2.4.4: refused)."""

    seat: int


@attrs.frozen
class AskCount:
    """Asks ``target`` how many cards it holds (GD-4.1)."""

    seat: int
    target: int


@attrs.frozen
class DropCard:
    """Shows ``card`` by accident (face up on the table; GD-2.5)."""

    seat: int
    card: Card = attrs.field(converter=Card)


@attrs.frozen
class Incident:
    """A reported incident about ``seat`` that no engine can see: ``incident`` is
    'manner_of_play' (GD-2.1: e.g. cards not laid face up in one motion) or 'information'
    (GD-7: tempo, noises, gestures …); ``damaged``: the reporter says the other side was
    harmed by it; ``note``: what the reporter saw."""

    seat: int
    incident: str
    severity: str = "minor"
    damaged: bool = False
    note: str = ""


Action = (Play | Pass | GiveTribute | ReturnCard | Draw | Report | Choose | CallReferee | DrawOutOfTurn
          | Announce | PlayWithExtra | Retract | AskCount | DropCard | Incident)
ACTION_TYPES: dict[str, type] = {cls.__name__: cls for cls in (
    Play, Pass, GiveTribute, ReturnCard, Draw, Report, Choose, CallReferee, DrawOutOfTurn,
    Announce, PlayWithExtra, Retract, AskCount, DropCard, Incident)}


def action_to_data(action: Any) -> tuple[tuple[str, Any], ...]:
    """Plain (name, value) pairs: ``type`` and every field (cards as codes, readings as
    codes). ``action_from_data`` rebuilds the same action."""
    out: list[tuple[str, Any]] = [("type", type(action).__name__)]
    for f in attrs.fields(type(action)):
        value = getattr(action, f.name)
        if f.metadata.get("omit_default") and value == f.default:
            continue
        if isinstance(value, Reading):
            value = value.code
        elif isinstance(value, Card):
            value = str(value)
        elif isinstance(value, tuple):
            value = codes(value)
        out.append((f.name, value))
    return tuple(out)


def action_from_data(data: Iterable[Iterable[Any]]) -> Any:
    fields = {str(k): v for k, v in data}
    name = fields.pop("type", None)
    cls = ACTION_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise LogError(f"not a 掼蛋 action type: {name!r}")
    try:
        return cls(**{k: list(v) if isinstance(v, tuple) else v for k, v in fields.items()})
    except (TypeError, ValueError) as exc:
        raise LogError(f"bad {name} action data: {exc}") from None
