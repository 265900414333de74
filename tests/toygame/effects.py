"""The toy game's own table effect, to show that a game-only effect touches only its game's
files: the class (its words and the facts the invariant expects), its handler, and the event
that shows it carried out. 掼蛋's and 双升's own effects are made the same way
(``guandan.refereed.effects``, ``shengji.refereed.effects``)."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from tabletop.effects import Atom, Say, TableEffect, seat_of
from tabletop.events import Event


@attrs.frozen(kw_only=True)
class Skipped(Event):
    """A seat's turn skipped by a ruling."""

    KIND: ClassVar[str] = "toy.skipped"
    reason: str


@attrs.frozen
class SkipTurn(TableEffect):
    """``seat`` loses its turn: the next seat acts."""

    KIND: ClassVar[str] = "SkipTurn"
    TERM: ClassVar[tuple[str, str] | None] = ("跳过一轮", "a turn skipped")
    seat: int = attrs.field(converter=seat_of)

    def words(self, say: Say) -> str:
        return f"跳过 {say.seat(self.seat)} loses its turn"

    def words_zh(self, say: Say) -> str:
        return f"跳过一轮：{say.seat(self.seat)}本轮不得出牌"

    def atoms(self, offender: int | None) -> list[Atom]:
        return [Atom(self.KIND, self.seat, str(self))]


def on_skip_turn(deal: Any, effect: SkipTurn, plan: Any) -> None:
    """SkipTurn's handler: the seat's turn passes to the next seat."""
    if deal.turn == effect.seat:
        deal.turn = (effect.seat + 1) % len(deal.hands)
    deal.stream.emit(Skipped, seat=effect.seat, reason=plan.reason)


def skipped_atoms(e: Any) -> list[Atom]:
    """The facts a toy effect event shows (``EffectEvents.atoms``)."""
    return [Atom("SkipTurn", e.seat, f"{e.KIND} seq {e.seq}")] if e.KIND == Skipped.KIND else []


EFFECT_HANDLERS = {SkipTurn.KIND: on_skip_turn}
EFFECTS = (SkipTurn,)
