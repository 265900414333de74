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
from typing import Any, ClassVar, Protocol, TypeVar

import attrs

from tabletop.cards import as_cards, codes, sort_cards
from tabletop.options import one_of

K = TypeVar("K", bound="Kinded")


def card_codes(cards: Any) -> tuple[str, ...]:
    return codes(sort_cards(as_cards(cards)))


def seat_of(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise ValueError(f"not a seat (0-3): {value!r}")
    return value


def optional_seat(value: Any) -> int | None:
    return None if value is None else seat_of(value)


def side_of(value: Any) -> int:
    if isinstance(value, bool) or value not in (0, 1):
        raise ValueError(f"not a side (0 or 1): {value!r}")
    return value


def seats_of(values: Iterable[Any]) -> tuple[int, ...]:
    return tuple(sorted({seat_of(v) for v in values}))


def positive(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{type(instance).__name__}.{attribute.name} must be a positive int, got {value!r}")


OMIT = {"omit_default": True}
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
    def kind_class(cls, kind: Any) -> "type[Kinded] | None":
        """The class of ``kind`` in this family's registry, a shared one or a registered game's
        own: a kind not defined yet defines every game's (they load on first use; None: none)."""
        found = cls._REGISTRY.get(kind) if isinstance(kind, str) else None
        if found is None:
            _define_game_effects()
            found = cls._REGISTRY.get(kind) if isinstance(kind, str) else None
        return found

    @classmethod
    def from_dict(cls: type[K], data: dict[str, Any]) -> K:
        """Rebuild from ``to_dict`` output. Called on a family base (``Sanction``,
        ``TableEffect``) it dispatches on ``kind``; on a concrete class it checks it."""
        kind = data.get("kind") if isinstance(data, dict) else None
        target = cls.kind_class(kind)
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


def effect_class(kind: Any) -> "type[TableEffect] | None":
    """The table effect class of ``kind``: a shared one or a registered game's own (None: none)."""
    found = TableEffect.kind_class(kind)
    return found if found is not None and issubclass(found, TableEffect) else None


def _define_game_effects() -> None:
    """The registered games' own kinds defined: a game's effects module loads on first use
    (``tabletop.games.GameSpec.effects``), so that a strict run defines none of them."""
    from tabletop.games import define_game_effects

    define_game_effects()


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
    n: int = attrs.field(validator=positive)


@attrs.frozen
class LevelDiffPenalty(Sanction):
    """级差分 (掼蛋): n level differences off the offending side's match score."""

    KIND: ClassVar[str] = "LevelDiffPenalty"
    n: int = attrs.field(validator=positive)


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
    """A table effect. The kinds both games use are defined here; a kind only one game uses
    lives in that game's package, where it brings what the layers above need to know of
    it: its name in the codes' words (``TERM``), what it says (``words`` / ``words_zh``)
    and what the ``effects_carried_out`` invariant expects the table to show (``atoms``).
    Its handler is in its game's handler table. A kind defined here leaves these to the
    layers above (None)."""

    _REGISTRY: ClassVar[dict[str, type[Kinded]]] = {}
    TERM: ClassVar[tuple[str, str] | None] = None
    """(the codes' term, English), e.g. ("禁出一手", "barred from one play")."""

    def words(self, say: "Say") -> str | None:
        """What the effect does at the table, English with the codes' term (None: the
        words layer's own)."""
        return None

    def words_zh(self, say: "Say") -> str | None:
        """What the effect does at the table, in the codes' words (None: the words layer's own)."""
        return None

    def atoms(self, offender: int | None) -> "list[Atom] | None":
        """The facts the table must show once this effect is carried out (``Atom``; an
        empty list: nothing to show, the seat's own later turn carries it out; None: the
        invariant's own rule for the shared kinds)."""
        return None


class Say(Protocol):
    """How the words layer names what an effect's words mention (a seat seen from the
    reader, cards, a combination kind, a nested effect), in one language."""

    def seat(self, value: Any) -> str: ...

    def seats(self, values: Iterable[Any]) -> str: ...

    def cards(self, codes: Iterable[str]) -> str: ...

    def combination(self, kind: str) -> str: ...

    def lead_option_menu(self, what: str) -> str: ...

    def effect(self, effect: "TableEffect") -> str: ...


class Member:
    """A field value that agrees with any collection holding it (a choice offered to one
    of a Replay's seats)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"one of them: {self.value}"


class Atom:
    """One fact of a ruling carried out (``enforcement.carried_out``): ``kind`` about
    ``seat`` with ``fields`` (name → value); ``origin``: what states it."""

    __slots__ = ("kind", "seat", "fields", "origin")

    def __init__(self, kind: str, seat: int | None, origin: str, **fields: Any) -> None:
        self.kind, self.seat, self.fields, self.origin = kind, seat, fields, origin

    def agrees(self, other: "Atom") -> bool:
        if self.kind != other.kind or self.seat != other.seat:
            return False
        for name in self.fields.keys() & other.fields.keys():
            a, b = self.fields[name], other.fields[name]
            if isinstance(a, Member):
                a, b = b, a
            if isinstance(b, Member):
                if b.value not in a:
                    return False
            elif a != b:
                return False
        return True

    def __str__(self) -> str:
        parts = [] if self.seat is None else [f"seat {self.seat}"]
        parts += [f"{k} {_atom_text(v)}" for k, v in self.fields.items()]
        return f"{self.kind}({', '.join(parts)}) [{self.origin}]"


def _atom_text(value: Any) -> str:
    if isinstance(value, (tuple, list, frozenset)):
        return "(" + " ".join(str(v) for v in (sorted(value) if isinstance(value, frozenset) else value)) + ")"
    return str(value)


def card_atoms(kind: str, seat: int | None, cards: Iterable[str], origin: str) -> list[Atom]:
    """One atom per card (cards are a multiset)."""
    return [Atom(kind, seat, origin, card=str(c)) for c in cards]


@attrs.frozen
class Return(TableEffect):
    """The cards of ``seat``'s irregular action go back where they came from (the stock for a
    draw, the hand for a play, the giver for a tribute)."""

    KIND: ClassVar[str] = "Return"
    cards: tuple[str, ...] = attrs.field(converter=card_codes)
    seat: int | None = attrs.field(default=None, converter=optional_seat)


@attrs.frozen
class Expose(TableEffect):
    """暴露张: face up in front of ``seat``, still its cards."""

    KIND: ClassVar[str] = "Expose"
    cards: tuple[str, ...] = attrs.field(converter=card_codes)
    seat: int | None = attrs.field(default=None, converter=optional_seat)


@attrs.frozen
class RandomDraw(TableEffect):
    """``to`` draws ``count`` card(s) at random from ``source``'s hand."""

    KIND: ClassVar[str] = "RandomDraw"
    source: int | None = attrs.field(converter=optional_seat)
    to: int | None = attrs.field(converter=optional_seat)
    count: int = attrs.field(default=1, validator=positive)


@attrs.frozen
class Redeal(TableEffect):
    """Reshuffle and draw again; ``fresh_deck`` when the deck itself was short (GD-1.2 PD)."""

    KIND: ClassVar[str] = "Redeal"
    fresh_deck: bool = False


@attrs.frozen
class Replay(TableEffect):
    """收回重出: each of ``seats`` may take back its play and play again (not exposed)."""

    KIND: ClassVar[str] = "Replay"
    seats: tuple[int, ...] = attrs.field(converter=seats_of)
    chooser: int | None = attrs.field(default=None, converter=optional_seat, metadata=OMIT)
    """掼蛋 GD-4.2.2: the seat the ruling offers the take-back choice first (None: nobody is
    offered it); ``purpose`` 'replay' (the non-offending side takes back every play since)
    or 'partner_replay' (the offender's partner its own)."""
    purpose: str | None = attrs.field(default=None, metadata=OMIT,
                                      validator=attrs.validators.optional(one_of("replay", "partner_replay")))


@attrs.frozen
class RestoreOrder(TableEffect):
    """Turn order is restored: ``seat`` is the one to act."""

    KIND: ClassVar[str] = "RestoreOrder"
    seat: int = attrs.field(converter=seat_of)


def seat_order(values: Iterable[Any]) -> tuple[int, ...]:
    return tuple(seat_of(v) for v in values)


@attrs.frozen
class PlayStands(TableEffect):
    """The cards ``seat`` laid on the table (what is left of them after the listed effects)
    are played as they lie, as if in turn (双升 SJ-1.8 / SJ-3.1.6: the rest stands)."""

    KIND: ClassVar[str] = "PlayStands"
    seat: int = attrs.field(converter=seat_of)
    reading: str | None = attrs.field(default=None, metadata=OMIT)
    """掼蛋: the combination the cards stand as (a ``Reading`` code, e.g. "PAIR 9"; None: as
    the attempt laid them)."""


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
