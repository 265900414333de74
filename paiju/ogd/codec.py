"""OGD cards and actions <-> paiju cards and 掼蛋 actions, both ways
as OGD's server writes them.

Cards: suit then rank, as paiju writes them, except the jokers: OGD ``SB`` = paiju ``BJ``
(small), OGD ``HR`` = paiju ``RJ`` (big). A wild card (the heart level card) is named as
itself inside an action, never as the card it stands for -- exactly as a paiju ``Play``
holds its physical cards beside the declared reading, so no substitution is needed either
way.

Actions are ``[type, rank, cards]``:

    Single Pair Trips ThreeWithTwo Straight ThreePair TwoTrips StraightFlush Bomb FourKings
    SINGLE PAIR TRIPLE FULL_HOUSE  STRAIGHT TUBE      PLATE    STRAIGHT_FLUSH BOMB JOKER_BOMB

``rank`` is the reading's key rank (a sequence's lowest rank, ``A`` when the A is low),
``B``/``R`` for a joker single or pair, ``B`` for the four jokers. PASS is
``["PASS","PASS","PASS"]``; tribute and return are ``["tribute","tribute",[card]]`` and
``["back","back",[card]]``.

Decoding is syntax only: a well-formed action becomes the paiju action it declares
(``Play(seat, cards, reading)``), legal or not -- whether it may be played is the
engine's question, so a wrong play reaches the engine as the attempt it is (and, with a
referee, as an irregularity). A straight flush's suit is read from its non-wild cards.

OGD's two reading quirks: OGD offers a same-suit run of five cards only as a
StraightFlush (a run of natural cards, or one with the wild when all five are hearts), and
three natural level cards with both wilds only as a 5-card Bomb. paiju
offers what the rules give -- the run as Straight *and* StraightFlush, the five level
cards as Bomb *and* ThreeWithTwo -- and encodes each reading under its own OGD type, so an
OGD bot that never sends the second reading is simply never using it, and a paiju agent on
an OGD server is offered only the readings that server lists.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from guandan.actions import GiveTribute, Pass, Play, ReturnCard
from guandan.combos import Kind, Reading
from guandan.ranks import level_index, wild_card
from tabletop.cards import CODE_TO_CARD, RANKS, SUITS, Card
from tabletop.errors import CardParseError, PaijuError

PASS_ACTION = ["PASS", "PASS", "PASS"]
TRIBUTE = "tribute"
BACK = "back"

KIND_TO_TYPE = {
    Kind.SINGLE: "Single", Kind.PAIR: "Pair", Kind.TRIPLE: "Trips", Kind.FULL_HOUSE: "ThreeWithTwo",
    Kind.STRAIGHT: "Straight", Kind.TUBE: "ThreePair", Kind.PLATE: "TwoTrips",
    Kind.STRAIGHT_FLUSH: "StraightFlush", Kind.BOMB: "Bomb", Kind.JOKER_BOMB: "FourKings",
}
TYPE_TO_KIND = {name: kind for kind, name in KIND_TO_TYPE.items()}

_JOKER_TO_OGD = {"BJ": "SB", "RJ": "HR"}
_OGD_TO_JOKER = {v: k for k, v in _JOKER_TO_OGD.items()}
_JOKER_RANK_TO_OGD = {"BJ": "B", "RJ": "R"}
_OGD_JOKER_RANK = {v: k for k, v in _JOKER_RANK_TO_OGD.items()}
FOUR_KINGS_RANK = "B"


class OgdCodecError(PaijuError, ValueError):
    """An OGD card or action that does not parse; the message names the bad part."""


# ---------------------------------------------------------------------------------------------
# Cards

def card_to_ogd(card: Card) -> str:
    text = str(Card(card))
    return _JOKER_TO_OGD.get(text, text)


def card_from_ogd(text: Any) -> Card:
    """One OGD card string ('S2', 'HT', 'SB', 'HR'). Only OGD's own spelling is accepted."""
    if not isinstance(text, str):
        raise OgdCodecError(f"not a card: {_short(text)} (expected a string such as 'S2', 'SB' or 'HR')")
    joker = _OGD_TO_JOKER.get(text)
    if joker is not None:
        return CODE_TO_CARD[joker]
    if len(text) == 2 and text[0] in SUITS and text[1] in RANKS:
        return CODE_TO_CARD[text]
    raise OgdCodecError(f"not an OGD card: {_short(text)} (suit S/H/C/D then rank 2-9/T/J/Q/K/A, or SB/HR)")


def cards_to_ogd(cards: Iterable[Card]) -> list[str]:
    return [card_to_ogd(c) for c in cards]


def cards_from_ogd(texts: Any) -> list[Card]:
    if not isinstance(texts, list):
        raise OgdCodecError(f"not a card list: {_short(texts)}")
    return [card_from_ogd(t) for t in texts]


def rank_to_ogd(level: "int | str") -> str:
    """A level (rank index or text) as OGD writes it in levelCard, curRank, selfRank …"""
    return RANKS[level_index(level)]


def rank_from_ogd(text: Any) -> int:
    """An OGD level rank ('2' … 'A') → rank index."""
    if not isinstance(text, str) or len(text) != 1 or text not in RANKS:
        raise OgdCodecError(f"not a level rank: {_short(text)} (2-9, T, J, Q, K, A)")
    return RANKS.index(text)


# ---------------------------------------------------------------------------------------------
# Actions

def reading_rank_to_ogd(reading: Reading) -> str:
    if reading.kind is Kind.JOKER_BOMB:
        return FOUR_KINGS_RANK
    rank = reading.rank
    assert rank is not None   # every reading but the four jokers has a rank
    return _JOKER_RANK_TO_OGD.get(rank, rank)


def action_to_ogd(action: Any) -> list[Any]:
    """A paiju Play, Pass, GiveTribute or ReturnCard as an OGD action."""
    kind = type(action)
    if kind is Pass:
        return list(PASS_ACTION)
    if kind is Play:
        return [KIND_TO_TYPE[action.reading.kind], reading_rank_to_ogd(action.reading), cards_to_ogd(action.cards)]
    if kind is GiveTribute:
        return [TRIBUTE, TRIBUTE, [card_to_ogd(action.card)]]
    if kind is ReturnCard:
        return [BACK, BACK, [card_to_ogd(action.card)]]
    raise OgdCodecError(f"{kind.__name__} has no OGD form")


def action_from_ogd(data: Any, seat: int, level: "int | str") -> Any:
    """The paiju action an OGD action declares for ``seat`` at ``level`` (syntax only)."""
    if not isinstance(data, list) or len(data) != 3:
        raise OgdCodecError(f"an action is [type, rank, cards], got {_short(data)}")
    kind_text, rank, cards_data = data
    if kind_text == "PASS":
        if rank != "PASS" or cards_data != "PASS":
            raise OgdCodecError(f"a pass is [\"PASS\",\"PASS\",\"PASS\"], got {_short(data)}")
        return Pass(seat)
    if kind_text in (TRIBUTE, BACK):
        if rank != kind_text:
            raise OgdCodecError(f"a {kind_text} is [\"{kind_text}\",\"{kind_text}\",[card]], got {_short(data)}")
        cards = cards_from_ogd(cards_data)
        if len(cards) != 1:
            raise OgdCodecError(f"a {kind_text} names exactly one card, got {len(cards)}")
        return GiveTribute(seat, cards[0]) if kind_text == TRIBUTE else ReturnCard(seat, cards[0])
    kind = TYPE_TO_KIND.get(kind_text) if isinstance(kind_text, str) else None
    if kind is None:
        raise OgdCodecError(f"unknown action type {_short(kind_text)} "
                            f"(one of PASS, {', '.join(KIND_TO_TYPE.values())})")
    cards = cards_from_ogd(cards_data)
    if not cards:
        raise OgdCodecError(f"{kind_text} with no cards")
    reading = declared_reading(kind, rank, cards, level_index(level))
    return Play(seat, cards, reading)


def declared_reading(kind: Kind, rank: Any, cards: Sequence[Card], level: int) -> Reading:
    """The reading an OGD type and rank field declare for ``cards``."""
    if not isinstance(rank, str):
        raise OgdCodecError(f"the rank field must be a string, got {_short(rank)}")
    try:
        if kind is Kind.JOKER_BOMB:
            if rank != FOUR_KINGS_RANK:
                raise OgdCodecError(f"FourKings takes rank {FOUR_KINGS_RANK!r}, got {_short(rank)}")
            return Reading(kind)
        if kind in (Kind.SINGLE, Kind.PAIR) and rank in _OGD_JOKER_RANK:
            return Reading(kind, _OGD_JOKER_RANK[rank])
        if len(rank) != 1 or rank not in RANKS:
            raise OgdCodecError(f"not a rank for {KIND_TO_TYPE[kind]}: {_short(rank)}")
        if kind is Kind.BOMB:
            return Reading(kind, rank, size=len(cards))
        if kind is Kind.STRAIGHT_FLUSH:
            return Reading(kind, rank, suit=_flush_suit(cards, level))
        return Reading(kind, rank)
    except CardParseError as exc:
        raise OgdCodecError(f"{KIND_TO_TYPE[kind]} {rank}: {exc}") from None


def _flush_suit(cards: Sequence[Card], level: int) -> str:
    """The suit of a straight flush: that of its cards other than wilds (the most common
    one if they disagree, so that the engine can say why the cards are no such flush)."""
    wild = wild_card(level)
    suits = Counter(c.suit for c in cards if c != wild and c.suit is not None)   # jokers have no suit
    if not suits:
        return "H"
    return min(suits, key=lambda s: (-suits[s], SUITS.index(s)))


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
