"""The table effects only 双升 uses (those both games use are ``tabletop.effects``'). Each
brings its name in the codes' words (``TERM``), its words in English and Chinese, and the
facts the table shows once it is carried out (``atoms``); its handler is in
``shengji.refereed.engine.EFFECT_HANDLERS``. The game's registration (``shengji.spec``)
names them, so reading a 双升 log finds every kind."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

import attrs

from tabletop.effects import Atom, Say, TableEffect, optional_seat, seat_of, seats_of

TURN = "Turn"
"""The atom of a seat whose turn it is now (``shengji.refereed`` shows a restored turn so)."""


@attrs.frozen
class CorrectFollow(TableEffect):
    """``seat`` replaces a wrong follow by a legal one while the trick is open."""

    KIND: ClassVar[str] = "CorrectFollow"
    TERM: ClassVar[tuple[str, str] | None] = ("纠正跟牌", "the follow corrected")
    seat: int = attrs.field(converter=seat_of)

    def words(self, say: Say) -> str:
        return f"纠正跟牌 {say.seat(self.seat)} replaces the follow by a legal one"

    def words_zh(self, say: Say) -> str:
        return f"纠正跟牌：{say.seat(self.seat)}"

    def atoms(self, offender: int | None) -> list[Atom]:
        return [Atom(TURN, self.seat, str(self))]


@attrs.frozen
class RedoBury(TableEffect):
    """The banker completes or corrects the burying of the kitty."""

    KIND: ClassVar[str] = "RedoBury"
    TERM: ClassVar[tuple[str, str] | None] = ("重新扣底", "kitty buried again")
    seat: int = attrs.field(converter=seat_of)

    def words(self, say: Say) -> str:
        return f"重新扣底 {say.seat(self.seat)} buries the kitty again"

    def words_zh(self, say: Say) -> str:
        return f"重新扣底：{say.seat(self.seat)}"

    def atoms(self, offender: int | None) -> list[Atom]:
        return [Atom(self.KIND, self.seat, str(self))]


@attrs.frozen
class LotsDraw(TableEffect):
    """SJ-1.6: the referee draws lots between simultaneous declarations of ``seats``;
    ``winner`` (the lot drawn, one of ``seats``) is the seat whose declaration stands."""

    KIND: ClassVar[str] = "LotsDraw"
    TERM: ClassVar[tuple[str, str] | None] = ("抽签决定主牌", "lots decide the trump")
    seats: tuple[int, ...] = attrs.field(converter=seats_of)
    winner: int | None = attrs.field(default=None, converter=optional_seat)

    def words(self, say: Say) -> str:
        winner = f": {say.seat(self.winner)}'s declaration stands" if self.winner is not None else ""
        return f"抽签 lots drawn between {say.seats(self.seats)}{winner}"

    def words_zh(self, say: Say) -> str:
        return f"抽签决定主牌：{say.seats(self.seats)}"

    def atoms(self, offender: int | None) -> list[Atom]:
        if self.winner is not None:
            return [Atom(self.KIND, None, str(self), seats=tuple(sorted(self.seats)), winner=self.winner)]
        return [Atom(self.KIND, None, str(self), seats=tuple(sorted(self.seats)))]


@attrs.frozen
class DeclarationStands(TableEffect):
    """SJ-3.1.4: of two declarations shown at once, ``seat``'s stands (the one the partners
    chose); the other is taken back."""

    KIND: ClassVar[str] = "DeclarationStands"
    TERM: ClassVar[tuple[str, str] | None] = ("一方亮主有效", "one declaration stands")
    seat: int = attrs.field(converter=seat_of)

    def words(self, say: Say) -> str:
        return f"一方亮主有效 {say.seat(self.seat)}'s declaration stands, the other is taken back"

    def words_zh(self, say: Say) -> str:
        return f"一方亮主有效：{say.seat(self.seat)}"

    def atoms(self, offender: int | None) -> list[Atom]:
        return [Atom(self.KIND, self.seat, str(self))]


@attrs.frozen
class LoseDeclarationRight(TableEffect):
    """SJ-1.5: ``seat`` may not declare or overcall trump for the rest of this deal."""

    KIND: ClassVar[str] = "LoseDeclarationRight"
    TERM: ClassVar[tuple[str, str] | None] = ("不能亮主或反主", "loses the right to declare")
    seat: int = attrs.field(converter=seat_of)

    def words(self, say: Say) -> str:
        return f"不能亮主或反主 {say.seat(self.seat)} may not declare trump for the rest of this deal"

    def words_zh(self, say: Say) -> str:
        return f"不能亮主或反主：{say.seat(self.seat)}"

    def atoms(self, offender: int | None) -> list[Atom]:
        return [Atom(self.KIND, self.seat, str(self))]


def effects_of(values: Iterable[Any]) -> tuple[TableEffect, ...]:
    """A choice's options: table effects (or their ``to_dict`` records), at least one."""
    out = []
    for v in values:
        effect = TableEffect.from_dict(v) if isinstance(v, dict) else v
        if not isinstance(effect, TableEffect):
            raise ValueError(f"not a table effect: {v!r}")
        out.append(effect)
    if not out:
        raise ValueError("a choice needs at least one option")
    return tuple(out)


_CHOSEN = {"RandomDraw": "random_draw", "Redeal": "redeal"}
"""An option's kind → the option the table offers for it (``table.choice``)."""


@attrs.frozen
class Choice(TableEffect):
    """``chooser`` picks one of ``options`` (or none of them when ``may_decline``), e.g.
    SJ-1.10: draw a card or not; SJ-3.1.7: draw cards or redeal."""

    KIND: ClassVar[str] = "Choice"
    TERM: ClassVar[tuple[str, str] | None] = ("由非违规方选择", "the non-offending side chooses")
    chooser: int = attrs.field(converter=seat_of)
    options: tuple[TableEffect, ...] = attrs.field(converter=effects_of)
    may_decline: bool = False

    def words(self, say: Say) -> str:
        menu = "; ".join(f"{chr(97 + k)}) {say.effect(o)}" for k, o in enumerate(self.options))
        decline = "; or none of them" if self.may_decline else ""
        return f"由非违规方选择 {say.seat(self.chooser)} chooses: {menu}{decline}"

    def words_zh(self, say: Say) -> str:
        menu = "；".join(f"{'abcdef'[k]}）{say.effect(o)}" for k, o in enumerate(self.options[:6]))
        decline = "；或都不选" if self.may_decline else ""
        return f"由{say.seat(self.chooser)}选择：{menu}{decline}"

    def atoms(self, offender: int | None) -> list[Atom]:
        options = {_CHOSEN.get(o.KIND, o.KIND) for o in self.options}
        if self.may_decline:
            options.add("decline")
        return [Atom(self.KIND, self.chooser, str(self), options=frozenset(options))]


EFFECTS: tuple[type[TableEffect], ...] = (
    CorrectFollow, RedoBury, LotsDraw, DeclarationStands, LoseDeclarationRight, Choice,
)
"""双升's own table effects (its registration names them)."""
