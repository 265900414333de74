"""What a ruling does: sanctions (what the offender pays) and table effects (how the table is
put right). Both are small frozen records with a stable ``KIND`` (the names used in
docs/rules/enforcement.md) and plain-data ``to_dict`` / ``from_dict`` for log events:

    PointPenalty(10).to_dict() == {"kind": "PointPenalty", "n": 10}
    Sanction.from_dict({"kind": "PointPenalty", "n": 10}) == PointPenalty(10)

The one class whose name differs from its kind is ``WarningSanction`` (kind "Warning"): a
class called ``Warning`` would shadow the builtin exception base in every module that imports
it. Card fields hold card codes in canonical order (a multiset: the order given does not
matter); they accept text, codes or ``Card`` values. Sequences come out of ``to_dict`` as
tuples, as in event payloads; ``from_dict`` takes lists or tuples (a JSON round trip).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, TypeVar

import attrs

from tabletop.cards import as_cards, codes, sort_cards
from tabletop.options import one_of

K = TypeVar("K", bound="Kinded")


def _card_codes(cards: Any) -> tuple[str, ...]:
    return codes(sort_cards(as_cards(cards)))


def _seat(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise ValueError(f"not a seat (0-3): {value!r}")
    return value


def _optional_seat(value: Any) -> int | None:
    return None if value is None else _seat(value)


def _side(value: Any) -> int:
    if isinstance(value, bool) or value not in (0, 1):
        raise ValueError(f"not a side (0 or 1): {value!r}")
    return value


def _seats(values: Iterable[Any]) -> tuple[int, ...]:
    return tuple(sorted({_seat(v) for v in values}))


def _positive(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{type(instance).__name__}.{attribute.name} must be a positive int, got {value!r}")


_OMIT = {"omit_default": True}
"""Field metadata: ``to_dict`` leaves the field out while it holds its default."""


class Kinded:
    """Base of sanctions and table effects: a registry by ``KIND`` per family."""

    KIND: ClassVar[str] = ""
    _REGISTRY: ClassVar[dict[str, type["Kinded"]]]
    __attrs_attrs__: ClassVar[Any]
    """Every subclass is an attrs class (for ``attrs.fields``; declared only, no value)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("KIND")
        if kind:
            # attrs re-creates each class with slots: the same qualname registers twice.
            other = cls._REGISTRY.get(kind)
            if other is not None and other.__qualname__ != cls.__qualname__:
                raise TypeError(f"kind {kind!r} defined twice ({other.__qualname__}, {cls.__qualname__})")
            cls._REGISTRY[kind] = cls

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.KIND}
        for f in attrs.fields(type(self)):
            value = getattr(self, f.name)
            if f.metadata.get("omit_default") and value == f.default:
                continue  # a field one game's rulings fill and the other's leave out
            out[f.name] = _plain(value)
        return out

    @classmethod
    def from_dict(cls: type[K], data: dict[str, Any]) -> K:
        """Rebuild from ``to_dict`` output. Called on a family base (``Sanction``,
        ``TableEffect``) it dispatches on ``kind``; on a concrete class it checks it."""
        kind = data.get("kind") if isinstance(data, dict) else None
        target = cls._REGISTRY.get(kind) if isinstance(kind, str) else None
        if target is None or not issubclass(target, cls):
            known = ", ".join(k for k, c in cls._REGISTRY.items() if issubclass(c, cls))
            raise ValueError(f"not a {cls.__name__} kind: {kind!r} (known: {known})")
        kwargs = {k: v for k, v in data.items() if k != "kind"}
        try:
            return target(**kwargs)
        except TypeError as exc:
            raise ValueError(f"bad {kind} record: {exc}") from None

    def __str__(self) -> str:
        shown = []
        for i, f in enumerate(attrs.fields(type(self))):
            value = getattr(self, f.name)
            if f.default is not attrs.NOTHING and value == f.default:
                continue
            text = " ".join(value) if f.name == "cards" else _short(value)
            shown.append(text if i == 0 else f"{f.name}={text}")
        return f"{self.KIND}({', '.join(shown)})" if shown else self.KIND


def _short(value: Any) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(_short(v) for v in value) + ")"
    return str(value)


def _plain(value: Any) -> Any:
    if isinstance(value, Kinded):
        return value.to_dict()
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    return value


def kinds(family: type[Kinded]) -> tuple[str, ...]:
    """Every registered kind of a family, in definition order."""
    return tuple(k for k, c in family._REGISTRY.items() if issubclass(c, family))


# ---------------------------------------------------------------------------------------------
# Sanctions: what the offender (or its side) pays.

class Sanction(Kinded):
    _REGISTRY: ClassVar[dict[str, type[Kinded]]] = {}


@attrs.frozen
class WarningSanction(Sanction):
    """警告. In 双升 a second one for the same offender in a match escalates (SJ-2.1)."""

    KIND: ClassVar[str] = "Warning"


@attrs.frozen
class RecordedViolation(Sanction):
    """记违例 (双升)."""

    KIND: ClassVar[str] = "RecordedViolation"


@attrs.frozen
class PointPenalty(Sanction):
    """罚分 (双升): n points moved towards the non-offending side of this deal."""

    KIND: ClassVar[str] = "PointPenalty"
    n: int = attrs.field(validator=_positive)


@attrs.frozen
class LevelDiffPenalty(Sanction):
    """级差分 (掼蛋): n level differences off the offending side's match score."""

    KIND: ClassVar[str] = "LevelDiffPenalty"
    n: int = attrs.field(validator=_positive)


@attrs.frozen
class ForcedLast(Sanction):
    """判下游 / 单下 (掼蛋): the offender is placed last (GD-5.1)."""

    KIND: ClassVar[str] = "ForcedLast"


@attrs.frozen
class ForcedDoubleLast(Sanction):
    """判双下 (掼蛋): the deal is scored as the other side's 1st and 2nd (GD-5.2)."""

    KIND: ClassVar[str] = "ForcedDoubleLast"


@attrs.frozen
class MatchLoss(Sanction):
    """判负: the offending side loses the match."""

    KIND: ClassVar[str] = "MatchLoss"


@attrs.frozen
class Suspension(Sanction):
    """停赛: only ever given by a human referee (a reported incident), never automatically."""

    KIND: ClassVar[str] = "Suspension"
    note: str = ""


@attrs.frozen
class AdjustedScore(Sanction):
    """调整分, the referee's discretion. Levels/points are in favour of the non-offending
    side; the default fallback records one with zero change (and says so)."""

    KIND: ClassVar[str] = "AdjustedScore"
    levels: int = 0
    points: int = 0
    note: str = ""


# ---------------------------------------------------------------------------------------------
# Table effects (rectifications): how the table is put right. The engine knows how, the
# referee knows when. Seats are 0-3; a ``None`` source/target of a draw is the stock/kitty.

class TableEffect(Kinded):
    _REGISTRY: ClassVar[dict[str, type[Kinded]]] = {}


@attrs.frozen
class Return(TableEffect):
    """The cards of ``seat``'s irregular action go back where they came from (the stock for a
    draw, the hand for a play, the giver for a tribute)."""

    KIND: ClassVar[str] = "Return"
    cards: tuple[str, ...] = attrs.field(converter=_card_codes)
    seat: int | None = attrs.field(default=None, converter=_optional_seat)


@attrs.frozen
class Expose(TableEffect):
    """暴露张: face up in front of ``seat``, still its cards."""

    KIND: ClassVar[str] = "Expose"
    cards: tuple[str, ...] = attrs.field(converter=_card_codes)
    seat: int | None = attrs.field(default=None, converter=_optional_seat)


@attrs.frozen
class PenaltyCards(TableEffect):
    """罚张 (GD-6): exposed cards that must be played or passed at each first legal chance."""

    KIND: ClassVar[str] = "PenaltyCards"
    cards: tuple[str, ...] = attrs.field(converter=_card_codes)
    seat: int | None = attrs.field(default=None, converter=_optional_seat)


@attrs.frozen
class BarOnePlay(TableEffect):
    """禁出一手: ``seat`` passes automatically the next time its turn to play comes.
    ``scope`` 'next_turn' (GD-2.3.1, GD-4.2.3): that turn may come in a later round; if it
    is a lead, the lead goes to the seat's 下家 and the bar is spent. 'round' (GD-2.2, the
    seed's 在该圈): the bar lapses if the round ends first."""

    KIND: ClassVar[str] = "BarOnePlay"
    SCOPES: ClassVar[tuple[str, ...]] = ("next_turn", "round")
    seat: int = attrs.field(converter=_seat)
    scope: str = attrs.field(default="next_turn", validator=one_of(*SCOPES))


@attrs.frozen
class LeadOption(TableEffect):
    """GD-2.3.1: when ``restricted_seat`` next has the lead, ``chooser`` picks one of
    ``CHOICES`` about ``exposed_kind`` (the 掼蛋 combination kind of the exposed cards)."""

    KIND: ClassVar[str] = "LeadOption"
    CHOICES: ClassVar[tuple[str, ...]] = ("forbid", "require", "free")
    chooser: int = attrs.field(converter=_seat)
    restricted_seat: int = attrs.field(converter=_seat)
    exposed_kind: str = attrs.field(validator=attrs.validators.instance_of(str))


@attrs.frozen
class RandomDraw(TableEffect):
    """``to`` draws ``count`` card(s) at random from ``source``'s hand."""

    KIND: ClassVar[str] = "RandomDraw"
    source: int | None = attrs.field(converter=_optional_seat)
    to: int | None = attrs.field(converter=_optional_seat)
    count: int = attrs.field(default=1, validator=_positive)


@attrs.frozen
class Redeal(TableEffect):
    """Reshuffle and draw again; ``fresh_deck`` when the deck itself was short (GD-1.2 PD)."""

    KIND: ClassVar[str] = "Redeal"
    fresh_deck: bool = False


@attrs.frozen
class NextDealProcedure(TableEffect):
    """Who shuffles, cuts, draws first and leads in the next deal (GD-5.2)."""

    KIND: ClassVar[str] = "NextDealProcedure"
    shuffler: int = attrs.field(converter=_seat)
    cutter: int = attrs.field(converter=_seat)
    first_drawer: int = attrs.field(converter=_seat)
    leader: int = attrs.field(converter=_seat)

    @classmethod
    def after_double_last(cls, shuffler: int) -> "NextDealProcedure":
        """GD-5.2: the shuffler's 下家 cuts, its 对家 draws first, its 上家 leads."""
        return cls(shuffler, (shuffler + 1) % 4, (shuffler + 2) % 4, (shuffler + 3) % 4)


@attrs.frozen
class NoTributeNextDeal(TableEffect):
    """GD-5.1: ``seat`` (judged 单下) gives no tribute in the next deal; a tribute its
    partner owes stands, as a single tribute."""

    KIND: ClassVar[str] = "NoTributeNextDeal"
    seat: int = attrs.field(converter=_seat)


@attrs.frozen
class Replay(TableEffect):
    """收回重出: each of ``seats`` may take back its play and play again (not exposed)."""

    KIND: ClassVar[str] = "Replay"
    seats: tuple[int, ...] = attrs.field(converter=_seats)
    chooser: int | None = attrs.field(default=None, converter=_optional_seat, metadata=_OMIT)
    """掼蛋 GD-4.2.2: the seat the ruling offers the take-back choice first (None: nobody is
    offered it); ``purpose`` 'replay' (the non-offending side takes back every play since)
    or 'partner_replay' (the offender's partner its own)."""
    purpose: str | None = attrs.field(default=None, metadata=_OMIT,
                                      validator=attrs.validators.optional(one_of("replay", "partner_replay")))


@attrs.frozen
class RestoreOrder(TableEffect):
    """Turn order is restored: ``seat`` is the one to act."""

    KIND: ClassVar[str] = "RestoreOrder"
    seat: int = attrs.field(converter=_seat)


@attrs.frozen
class CorrectPlay(TableEffect):
    """``seat`` replaces a wrong lead/play by a legal play (or a pass where passing is legal).
    ``unused`` (掼蛋 GD-2.4, decided by the ruling): what becomes of the attempt's cards the
    correction does not use: 'lead_option' — they are exposed, with the GD-2.3.1 lead option
    for the partner when they form a combination, else as penalty cards; 'penalty' — they
    are exposed as penalty cards at once (the partner can never lead again). ``cards``: the
    attempt's cards, back in the hand by a ``Return`` listed before it (掼蛋)."""

    KIND: ClassVar[str] = "CorrectPlay"
    UNUSED: ClassVar[tuple[str, ...]] = ("lead_option", "penalty")
    seat: int = attrs.field(converter=_seat)
    unused: str | None = attrs.field(default=None, validator=attrs.validators.optional(one_of(*UNUSED)))
    cards: tuple[str, ...] = attrs.field(default=(), converter=_card_codes, metadata=_OMIT)


@attrs.frozen
class CorrectFollow(TableEffect):
    """双升: ``seat`` replaces a wrong follow by a legal one while the trick is open."""

    KIND: ClassVar[str] = "CorrectFollow"
    seat: int = attrs.field(converter=_seat)


@attrs.frozen
class RedoTribute(TableEffect):
    KIND: ClassVar[str] = "RedoTribute"
    seat: int = attrs.field(converter=_seat)


@attrs.frozen
class RedoReturn(TableEffect):
    KIND: ClassVar[str] = "RedoReturn"
    seat: int = attrs.field(converter=_seat)


@attrs.frozen
class RedoBury(TableEffect):
    """双升: the banker completes or corrects the burying of the kitty."""

    KIND: ClassVar[str] = "RedoBury"
    seat: int = attrs.field(converter=_seat)


@attrs.frozen
class ReportAgain(TableEffect):
    """掼蛋 GD-4.2: ``seat`` announces its card count again, correctly."""

    KIND: ClassVar[str] = "ReportAgain"
    seat: int = attrs.field(converter=_seat)


def _seat_order(values: Iterable[Any]) -> tuple[int, ...]:
    return tuple(_seat(v) for v in values)


@attrs.frozen
class PassSequence(TableEffect):
    """掼蛋 GD-4.2.3 / GD-4.2.4: ``seats`` (the offender's 下家, partner and, for 4.2.3, 上家,
    those still in play, in that order) may each pass in turn even with the lead; ``then``
    'offender_leads' (all passed: the bar ends, the offender reports and leads its exposed
    cards) or 'play_on'."""

    KIND: ClassVar[str] = "PassSequence"
    offender: int = attrs.field(converter=_seat)
    seats: tuple[int, ...] = attrs.field(converter=_seat_order)
    then: str = attrs.field(validator=one_of("offender_leads", "play_on"))


@attrs.frozen
class LotsDraw(TableEffect):
    """双升 SJ-1.6: the referee draws lots between simultaneous declarations of ``seats``;
    ``winner`` (the lot drawn, one of ``seats``) is the seat whose declaration stands."""

    KIND: ClassVar[str] = "LotsDraw"
    seats: tuple[int, ...] = attrs.field(converter=_seats)
    winner: int | None = attrs.field(default=None, converter=_optional_seat)


@attrs.frozen
class DeclarationStands(TableEffect):
    """双升 SJ-3.1.4: of two declarations shown at once, ``seat``'s stands (the one the
    partners chose); the other is taken back."""

    KIND: ClassVar[str] = "DeclarationStands"
    seat: int = attrs.field(converter=_seat)


@attrs.frozen
class PlayStands(TableEffect):
    """The cards ``seat`` laid on the table (what is left of them after the listed effects)
    are played as they lie, as if in turn (双升 SJ-1.8 / SJ-3.1.6: the rest stands)."""

    KIND: ClassVar[str] = "PlayStands"
    seat: int = attrs.field(converter=_seat)
    reading: str | None = attrs.field(default=None, metadata=_OMIT)
    """掼蛋: the combination the cards stand as (a ``Reading`` code, e.g. "PAIR 9"; None: as
    the attempt laid them)."""


@attrs.frozen
class LoseDeclarationRight(TableEffect):
    """双升 SJ-1.5: ``seat`` may not declare or overcall trump for the rest of this deal."""

    KIND: ClassVar[str] = "LoseDeclarationRight"
    seat: int = attrs.field(converter=_seat)


@attrs.frozen
class UnauthorisedInformation(TableEffect):
    """GD-7 / GD-4.2.2: ``seats`` may not use what ``cards`` show (an observation flag)."""

    KIND: ClassVar[str] = "UnauthorisedInformation"
    seats: tuple[int, ...] = attrs.field(converter=_seats)
    cards: tuple[str, ...] = attrs.field(default=(), converter=_card_codes)
    source: int | None = attrs.field(default=None, converter=_optional_seat, metadata=_OMIT)
    """The seat whose cards or conduct gave the information (None: not said)."""
    what: str | None = attrs.field(default=None, metadata=_OMIT)
    """What the information is, as the table records it (None: not said)."""


def _effects(values: Iterable[Any]) -> tuple[TableEffect, ...]:
    out = []
    for v in values:
        effect = TableEffect.from_dict(v) if isinstance(v, dict) else v
        if not isinstance(effect, TableEffect):
            raise ValueError(f"not a table effect: {v!r}")
        out.append(effect)
    if not out:
        raise ValueError("a choice needs at least one option")
    return tuple(out)


@attrs.frozen
class Choice(TableEffect):
    """``chooser`` picks one of ``options`` (or none of them when ``may_decline``), e.g.
    SJ-1.10: draw a card or not; SJ-3.1.7: draw cards or redeal."""

    KIND: ClassVar[str] = "Choice"
    chooser: int = attrs.field(converter=_seat)
    options: tuple[TableEffect, ...] = attrs.field(converter=_effects)
    may_decline: bool = False


# ---------------------------------------------------------------------------------------------
# A sanction as a ruling imposes it

@attrs.frozen
class Imposed:
    """One sanction a ruling imposes on one side (and seat, when a player is the offender):
    a row of the referee's ledger, carried out by the table by its sanction's kind."""

    incident: int
    deal: int
    clause: str
    seat: int | None
    side: int
    sanction: Sanction
    cause: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"incident": self.incident, "deal": self.deal, "clause": self.clause,
                "seat": self.seat, "side": self.side, "sanction": self.sanction.to_dict(),
                "cause": self.cause}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Imposed":
        return cls(**{**data, "sanction": Sanction.from_dict(dict(data["sanction"]))})
