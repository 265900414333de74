"""Everything that happens at a 双升 table, as events (payloads are plain data).

A drawn deal, in order: DealStarted, DeckShuffled, DeckCut, then 100 × CardDrawn with
Declared / DeclarationDeclined (actions) between them whenever the seat that just drew could
declare, then the last-chance round (more Declared / DeclarationDeclined). Then either
Redealt (and the set-up again from DeckShuffled), or KittyFlipped × k (nobody declared,
no_bid = "flip_kitty") and TrumpSet. Then KittyTaken, Buried (action), and the play:
CardsPlayed (action), ThrowFailed + ThrowPenalty after a failed throw, TrickWon after each
trick, KittyRevealed after the last, DealScored. PointsAdjusted records a point penalty
given through ``Deal.adjust_points`` (the referee). ``Deal.from_hands`` emits DealStarted,
HandsSet and TrumpSet instead of the draw (and KittyTaken when it starts at the kitty). A
match adds LevelsAdvanced after each deal and MatchEnded.

Refereed mode (``shengji.table``) adds table steps as actions (DrawRan, ChoiceMade), irregular
attempts (IrregularAttempt, an action: a replay re-applies it) and their discovery
(IrregularityFound), and one event per table primitive a ruling uses (each names the
ruling's clause as ``reason``).

The log is omniscient (the deck order, every card drawn, the kitty); what a seat may see is
the business of ``observation.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import attrs

from tabletop.cards import CARDS
from tabletop.events import Event, EventStream
from tabletop.rulings import irregularity_events
from tabletop.table_events import (  # noqa: F401  (the table's own events, shared by every game)
    CardsExposed, CardsReturned, ChoiceMade, ChoiceOffered, RandomlyDrawn, TurnRestored,
)

# ---------------------------------------------------------------------------------------------
# Set-up and the draw


@attrs.frozen(kw_only=True)
class DealStarted(Event):
    """A deal begins at ``level`` (rank text). ``banker`` is None in the first deal of a
    match (the declaration decides it). ``levels``: (team 0, team 1). ``source``: 'draw' or
    'hands' (``Deal.from_hands``)."""

    KIND: ClassVar[str] = "sj.deal_started"
    level: str
    banker: int | None
    first_drawer: int
    levels: tuple[str, ...]
    source: str


@attrs.frozen(kw_only=True)
class DeckShuffled(Event):
    """The pack after shuffling, top card first (audit). ``attempt`` counts redeals (0 first);
    ``seed`` is the seed this attempt's shuffle and cut were drawn from."""

    KIND: ClassVar[str] = "sj.shuffled"
    deck: tuple[str, ...]
    attempt: int
    seed: int


@attrs.frozen(kw_only=True)
class DeckCut(Event):
    """The cutter (``seat``, 上家 of the first drawer) moved the top ``position`` cards to the bottom."""

    KIND: ClassVar[str] = "sj.cut"
    position: int


@attrs.frozen(kw_only=True)
class CardDrawn(Event):
    """``seat`` drew ``card``, the ``index``-th card of the draw (0 = first)."""

    KIND: ClassVar[str] = "sj.drawn"
    card: str
    index: int


@attrs.frozen(kw_only=True)
class HandsSet(Event):
    """Explicit hands (``Deal.from_hands``), seat by seat, in canonical order."""

    KIND: ClassVar[str] = "sj.hands_set"
    hands: tuple[tuple[str, ...], ...]
    kitty: tuple[str, ...]


@attrs.frozen(kw_only=True)
class Declared(Event):
    """``seat`` shows ``cards`` to declare, overcall or reinforce; ``trump`` is the suit it
    names (None: no-trump)."""

    KIND: ClassVar[str] = "sj.declared"
    ACTION: ClassVar[bool] = True
    cards: tuple[str, ...]
    trump: str | None


@attrs.frozen(kw_only=True)
class DeclarationDeclined(Event):
    """``seat`` could declare now and chose not to."""

    KIND: ClassVar[str] = "sj.declined"
    ACTION: ClassVar[bool] = True


@attrs.frozen(kw_only=True)
class Redealt(Event):
    """Nobody declared: the cards are gathered and dealt again from ``seed``. ``attempt``
    is the number of the new attempt (1 for the first redeal)."""

    KIND: ClassVar[str] = "sj.redeal"
    reason: str
    attempt: int
    seed: int


@attrs.frozen(kw_only=True)
class KittyFlipped(Event):
    """Nobody declared (no_bid = "flip_kitty"): kitty card number ``position`` (0 first) is
    turned face up."""

    KIND: ClassVar[str] = "sj.kitty_flipped"
    card: str
    position: int


@attrs.frozen(kw_only=True)
class TrumpSet(Event):
    """Declarations are closed. ``seat``: the declarer whose declaration stands (None if
    nobody declared). ``trump``: suit or None (no-trump). ``how``: 'declared',
    'flip_kitty', 'no_trump' or 'given' (``Deal.from_hands``). ``banker`` is known now."""

    KIND: ClassVar[str] = "sj.trump_set"
    trump: str | None
    how: str
    banker: int


# ---------------------------------------------------------------------------------------------
# Kitty


@attrs.frozen(kw_only=True)
class KittyTaken(Event):
    """The banker (``seat``) picks up the 8 kitty ``cards`` (declarations close now)."""

    KIND: ClassVar[str] = "sj.kitty_taken"
    cards: tuple[str, ...]


@attrs.frozen(kw_only=True)
class Buried(Event):
    KIND: ClassVar[str] = "sj.buried"
    ACTION: ClassVar[bool] = True
    cards: tuple[str, ...]


# ---------------------------------------------------------------------------------------------
# Play


@attrs.frozen(kw_only=True)
class CardsPlayed(Event):
    """``seat`` puts ``cards`` on the table in trick ``trick`` (0 first); ``lead`` when it
    leads. A throw that fails is followed by ThrowFailed."""

    KIND: ClassVar[str] = "sj.played"
    ACTION: ClassVar[bool] = True
    cards: tuple[str, ...]
    trick: int
    lead: bool


@attrs.frozen(kw_only=True)
class ThrowFailed(Event):
    """甩牌失败: another hand could beat a unit of the throw. ``forced`` (the smallest
    beatable unit) stays on the table as the lead; ``returned`` goes back to the hand."""

    KIND: ClassVar[str] = "sj.throw_failed"
    attempted: tuple[str, ...]
    forced: tuple[str, ...]
    returned: tuple[str, ...]


@attrs.frozen(kw_only=True)
class ThrowPenalty(Event):
    """The failed thrower's side pays ``points`` (rules.throw_penalty; a game rule, not a
    referee sanction). ``attackers_delta``: the change to the attackers' adjusted total."""

    KIND: ClassVar[str] = "sj.throw_penalty"
    points: int
    attackers_delta: int


@attrs.frozen(kw_only=True)
class PointsAdjusted(Event):
    """A point adjustment from outside the game rules (the referee's PointPenalty):
    ``seat`` is the offender, ``attackers_delta`` the change to the attackers' total."""

    KIND: ClassVar[str] = "sj.points_adjusted"
    points: int
    attackers_delta: int
    reason: str


@attrs.frozen(kw_only=True)
class TrickWon(Event):
    """``seat`` won trick ``trick`` holding ``points``; ``attackers_points`` is the attackers'
    captured total so far (raw)."""

    KIND: ClassVar[str] = "sj.trick_won"
    trick: int
    points: int
    attackers_points: int


@attrs.frozen(kw_only=True)
class KittyRevealed(Event):
    """The kitty is turned up after the last trick. ``bonus`` = ``points`` × ``multiplier``
    goes to the attackers when they won the last trick (else 0)."""

    KIND: ClassVar[str] = "sj.kitty_revealed"
    cards: tuple[str, ...]
    points: int
    multiplier: int
    bonus: int


@attrs.frozen(kw_only=True)
class DealScored(Event):
    """The deal is over. ``seat``: the banker. ``raw``: attackers' captured points (kitty
    bonus included); ``points``: after adjustments. ``side`` ('banker' | 'attackers') goes up
    ``levels``; ``team`` is that team; ``next_banker`` banks the next deal."""

    KIND: ClassVar[str] = "sj.scored"
    raw: int
    points: int
    side: str
    team: int
    levels: int
    next_banker: int


# ---------------------------------------------------------------------------------------------
# Match


@attrs.frozen(kw_only=True)
class LevelsAdvanced(Event):
    """After a deal: ``team`` went up ``raised`` of its ``levels`` earned (a promotion stops
    at A and at every must_defend level); ``levels`` are both teams' levels now."""

    KIND: ClassVar[str] = "sj.levels_advanced"
    team: int
    earned: int
    raised: int
    levels: tuple[str, ...]
    next_banker: int


@attrs.frozen(kw_only=True)
class MatchEnded(Event):
    """``how``: 'held_a' (``winner`` held as banker at A), 'max_deals' (decided by levels;
    ``winner`` None on equal levels) or 'match_loss' (the loser forfeited by sanction)."""

    KIND: ClassVar[str] = "sj.match_over"
    how: str
    winner: int | None
    levels: tuple[str, ...]
    deals: int


# ---------------------------------------------------------------------------------------------
# Refereed mode: table steps (actions)


@attrs.frozen(kw_only=True)
class DrawRan(Event):
    """The rightful next drawer (``seat``) let the draw run on."""

    KIND: ClassVar[str] = "sj.draw_ran"
    ACTION: ClassVar[bool] = True


# ---------------------------------------------------------------------------------------------
# Refereed mode: irregular attempts and their discovery


IrregularAttempt, IrregularityFound = irregularity_events("sj", __name__)


# ---------------------------------------------------------------------------------------------
# Refereed mode: what the table primitives did (``reason``: the ruling's clause)


@attrs.frozen(kw_only=True)
class PlayStands(Event):
    """Cards that were not an ordinary in-turn play go on the trick as if played in turn:
    the rest of a play with an extra card, a wrong follow nobody noticed."""

    KIND: ClassVar[str] = "sj.play_stands"
    cards: tuple[str, ...]
    trick: int
    lead: bool
    reason: str


@attrs.frozen(kw_only=True)
class PlaysTakenBack(Event):
    """The plays of the open trick from ``seat`` on go back to their owners (the wrong
    follow's cards exposed, the later ones not); ``seats`` in play order."""

    KIND: ClassVar[str] = "sj.taken_back"
    seats: tuple[int, ...]
    cards: tuple[tuple[str, ...], ...]
    reason: str


@attrs.frozen(kw_only=True)
class BurialUndone(Event):
    """The banker (``seat``) takes the ``cards`` it buried back to bury again (SJ-3.1.10.1)."""

    KIND: ClassVar[str] = "sj.burial_undone"
    cards: tuple[str, ...]
    reason: str


@attrs.frozen(kw_only=True)
class DeclarationBarred(Event):
    """``seat`` may not declare or overcall trump for the rest of this deal (SJ-1.5)."""

    KIND: ClassVar[str] = "sj.declaration_barred"
    reason: str


@attrs.frozen(kw_only=True)
class DeclarationStands(Event):
    """Of two declarations shown at the same moment, ``seat``'s (``cards``, naming
    ``trump``) stands; ``withdrawn`` is the other seat's, taken back."""

    KIND: ClassVar[str] = "sj.declaration_stands"
    cards: tuple[str, ...]
    trump: str | None
    withdrawn: int
    how: str
    """'lots' (drawn by the referee) or 'chosen' (the partners settled it themselves)."""
    reason: str


@attrs.frozen(kw_only=True)
class CardHandedOver(Event):
    """``source`` handed ``card`` (its own choice) to ``seat``."""

    KIND: ClassVar[str] = "sj.handed_over"
    source: int
    card: str
    reason: str


@attrs.frozen(kw_only=True)
class CardTaken(Event):
    """During the draw ``seat`` took ``card`` (draw position ``index``), which was due to
    ``due``: an out-of-turn draw or the banker drawing through the kitty (``due`` None)."""

    KIND: ClassVar[str] = "sj.card_taken"
    card: str
    index: int
    due: int | None
    in_hand: bool


# ---------------------------------------------------------------------------------------------
# The deal's hot events, emitted positionally


def _slot_setters(cls: type[Event], payload: tuple[str, ...]) -> list[Callable[[Any, Any], None]]:
    """The slot setters of ``cls``'s fields (deal, seq, seat, then ``payload``), after checking
    that these are all its fields, plain (no default, converter or validator)."""
    fields = attrs.fields(cls)
    names = tuple(f.name for f in fields)
    if names != ("deal", "seq", "seat", *payload) or any(
            f.converter is not None or f.validator is not None or f.default is not attrs.NOTHING
            for f in fields[3:]) or hasattr(cls, "__attrs_post_init__"):
        raise TypeError(f"{cls.__qualname__} is not a plain event of fields {payload}")
    return [next(k.__dict__[name] for k in cls.__mro__ if name in k.__dict__).__set__ for name in names]


def emitter2(cls: type[Event], first: str, second: str) -> Callable[[EventStream, int | None, Any, Any], Any]:
    """``emit(stream, seat, a, b)``, the same as ``stream.emit(cls, seat=seat, first=a,
    second=b)`` without building keyword arguments: a deal emits about a hundred CardDrawn."""
    new = object.__new__
    set_deal, set_seq, set_seat, set_first, set_second = _slot_setters(cls, (first, second))

    def emit(stream: EventStream, seat: int | None, a: Any, b: Any) -> Any:
        event = new(cls)
        set_deal(event, stream.deal)
        seq = stream.next_seq
        set_seq(event, seq)
        set_seat(event, seat)
        set_first(event, a)
        set_second(event, b)
        stream.next_seq = seq + 1
        stream.pending.append(event)
        return event
    return emit


def emitter3(cls: type[Event], first: str, second: str, third: str) -> Callable[[EventStream, int | None, Any, Any, Any], Any]:
    """``emitter2`` for an event of three payload fields (CardsPlayed, TrickWon)."""
    new = object.__new__
    set_deal, set_seq, set_seat, set_first, set_second, set_third = _slot_setters(cls, (first, second, third))

    def emit(stream: EventStream, seat: int | None, a: Any, b: Any, c: Any) -> Any:
        event = new(cls)
        set_deal(event, stream.deal)
        seq = stream.next_seq
        set_seq(event, seq)
        set_seat(event, seat)
        set_first(event, a)
        set_second(event, b)
        set_third(event, c)
        stream.next_seq = seq + 1
        stream.pending.append(event)
        return event
    return emit


CARD_CODES: tuple[str, ...] = tuple(str(card) for card in CARDS)
"""``str(card)`` by card index: the codes the events carry."""

SINGLE_CODES: tuple[tuple[str], ...] = tuple((code,) for code in CARD_CODES)
"""``(str(card),)`` by card index: the codes of a play of one card (immutable: shared)."""

emit_card_drawn = emitter2(CardDrawn, "card", "index")
emit_cards_played = emitter3(CardsPlayed, "cards", "trick", "lead")
emit_trick_won = emitter3(TrickWon, "trick", "points", "attackers_points")
